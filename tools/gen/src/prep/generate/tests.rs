// SPDX-License-Identifier: MIT
use super::*;

/// A helper ahead of liburing states the release of the kernel interface it
/// sets as the uapi release table has it.
#[test]
fn ahead_helpers_state_the_kernel_release_of_the_uapi_table() {
    let mut ahead = 0;
    for h in HELPERS {
        let Some(a) = h.ahead else { continue };
        ahead += 1;
        if let Some(name) = a.release_of {
            let row = uring_uapi::releases::rows()
                .find(|r| r.name == name)
                .unwrap_or_else(|| panic!("{}: {name} is not in the release table", h.name));
            assert_eq!(row.since, Some(a.kernel), "{}: {name}", h.name);
        }
    }
    assert!(ahead >= 2, "only {ahead} helpers ahead of liburing");
}

#[test]
fn every_helper_is_described() {
    for h in HELPERS {
        assert!(h.about.len() > 20, "{}: describe what it is for", h.name);
        assert!(h.about.ends_with('.'), "{}: end the description", h.name);
        assert!(
            HELPERS.iter().filter(|o| o.name == h.name).count() == 1,
            "{} twice",
            h.name
        );
    }
}

#[test]
fn every_opcode_a_helper_passes_is_a_row_of_the_opcode_table() {
    let mut named = 0;
    for h in HELPERS {
        for (param, value) in h.base.iter().flat_map(|b| b.bind) {
            if *param == "op" && value.starts_with("IORING_OP_") {
                let row = uring_uapi::OPCODES.iter().find(|o| o.name == *value);
                assert!(
                    row.is_some(),
                    "{}: {value} is not in the opcode table",
                    h.name
                );
                named += 1;
            }
        }
    }
    assert!(named > 50, "only {named} opcode bindings found");
}

/// Flag words some helpers take as a parameter (liburing's prototypes have
/// them) although the kernel reads them only to refuse anything but 0: the
/// one exception to the rule of the next test.
const RESERVED_FLAG_WORDS: &[(&str, &str)] = &[
    ("IORING_OP_SOCKET", "rw_flags"),
    ("IORING_OP_EPOLL_WAIT", "rw_flags"),
    ("IORING_OP_WAITID", "waitid_flags"),
    ("IORING_OP_FUTEX_WAIT", "futex_flags"),
    ("IORING_OP_FUTEX_WAKE", "futex_flags"),
    ("IORING_OP_FUTEX_WAITV", "futex_flags"),
];

/// Every field a helper for a known opcode stores is one the opcode reads
/// (its row's `reads` in the uapi opcode table), unless
/// - it is one every request has (`uring_uapi::COMMON_FIELDS`),
/// - the value is a constant 0, `NULL`, or -1 in `fd` (the field cleared:
///   the generic layout of `io_uring_prep_rw` fills five fields, and an
///   opcode that does not read one gets it cleared),
/// - it covers exactly the bytes of a field the opcode reads under another
///   name (`off` is `addr2`: the helpers pass both through `io_uring_prep_rw`),
/// - or it is one of [`RESERVED_FLAG_WORDS`].
///
/// `ioprio`, `buf_index`/`buf_group` and `file_index` are not common: only
/// some opcodes read them and the others refuse them.
#[test]
fn every_store_is_a_field_the_opcode_reads() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for h in HELPERS {
        let steps = simplify(steps(h));
        let Some(op) = steps.iter().find(|s| s.field.name == "opcode") else {
            continue;
        };
        let Some(row) = uring_uapi::OPCODES.iter().find(|o| o.name == op.value) else {
            continue; // a helper that passes its opcode on (io_uring_prep_rw)
        };
        checked += 1;
        for s in &steps {
            let name = s.field.name;
            let value = s.value.trim();
            let cleared = value == "0" || value == "NULL" || (name == "fd" && value == "-1");
            let mut aliased = false;
            row.reads.each(&mut |read, _| {
                let f = field(read);
                aliased |= f.offset == s.field.offset && f.size == s.field.size;
            });
            if uring_uapi::COMMON_FIELDS.contains(&name)
                || row.reads.has(name)
                || (cleared && !s.or)
                || aliased
                || RESERVED_FLAG_WORDS.contains(&(row.name, name))
            {
                continue;
            }
            bad.push(format!("{}: {} stores {name} = {value}", h.name, row.name));
        }
    }
    assert!(
        bad.is_empty(),
        "stores the opcode does not read:\n{}",
        bad.join("\n")
    );
    assert!(checked > 100, "only {checked} helpers checked");
}

/// The opcode rows name real SQE fields, and an opcode with a flag group
/// reads the field the group belongs to.
#[test]
fn opcode_rows_name_sqe_fields() {
    for row in uring_uapi::OPCODES {
        row.reads.each(&mut |read, _| {
            field(read); // panics on a name `struct io_uring_sqe` lacks
        });
        if let Some(group) = row.flags {
            assert!(row.reads.has(group.field), "{}: {}", row.name, group.field);
        }
    }
}
