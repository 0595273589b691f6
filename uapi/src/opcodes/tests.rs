// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn one_row_per_opcode() {
    // Adding a row moves IORING_OP_LAST; the ABI check against
    // upstream's headers (make abi-assert) is what pins its value.
    assert_eq!(OPCODES.len(), usize::from(IORING_OP_LAST));
    assert_eq!(opcode(64).map(|o| o.name), Some("IORING_OP_URING_CMD128"));
    let recv = opcode(IORING_OP_RECV).expect("a row for RECV");
    assert_eq!((recv.name, recv.since), ("IORING_OP_RECV", (5, 6)));
    assert!(recv.takes_file && recv.buffer_select);
    let nop = opcode(IORING_OP_NOP).expect("a row for NOP");
    assert!(!nop.takes_file && !nop.buffer_select);
    assert_eq!(opcode(IORING_OP_LAST), None);
}

/// Every member name of `struct io_uring_sqe`, unions included.
fn sqe_members(layout: &crate::CLayout, out: &mut Vec<&'static str>) {
    for item in layout.items {
        match item {
            crate::CItem::Member(m) => out.push(m.name),
            crate::CItem::Inline(i) => sqe_members(i.layout, out),
            _ => {}
        }
    }
}

#[test]
fn rows_read_sqe_fields() {
    let mut names = Vec::new();
    sqe_members(&<crate::io_uring_sqe as crate::CStruct>::LAYOUT, &mut names);
    assert!(names.contains(&"rw_flags") && names.contains(&"addr3"));
    for row in OPCODES {
        let mut seen = Vec::new();
        row.reads.each(&mut |field, _| {
            assert!(names.contains(&field), "{}: no SQE field {field}", row.name);
            assert!(!COMMON_FIELDS.contains(&field), "{}: {field}", row.name);
            assert!(!seen.contains(&field), "{}: {field} twice", row.name);
            seen.push(field);
        });
        if let Some(like) = row.reads.like {
            assert!(like < row.code, "{}: like a later opcode", row.name);
        }
        if let Some(group) = row.flags {
            assert!(row.reads.has(group.field), "{}: {}", row.name, group.field);
        }
    }
    let fsync = opcode(IORING_OP_FSYNC).expect("a row for FSYNC");
    assert_eq!(fsync.flags.map(|g| g.field), Some("fsync_flags"));
    let text = format!("{}", fsync.meaning());
    assert!(
        text.contains(" Reads *fd*, *fsync_flags*, *off* "),
        "{text}"
    );
    let writev = opcode(IORING_OP_WRITEV).expect("a row for WRITEV");
    assert!(writev.reads.has("rw_flags") && writev.reads.has("write_stream"));
    assert!(format!("{}", writev.meaning())
        .contains("the fields of `IORING_OP_READV` and *write_stream*"));
}

#[test]
fn releases_never_go_back() {
    // The kernel numbers opcodes in the order it gains them.
    for pair in OPCODES.windows(2) {
        assert!(
            pair[0].since <= pair[1].since,
            "{} / {}",
            pair[0].name,
            pair[1].name
        );
    }
}

#[test]
fn the_c_enum_is_the_table() {
    let group = &CONSTS[0];
    assert_eq!(group.kind, CGroupKind::Enum(Some("io_uring_op")));
    assert_eq!(group.consts.len(), OPCODES.len() + 1);
    for (c, row) in group.consts.iter().zip(OPCODES) {
        assert_eq!((c.name, c.value), (row.name, i128::from(row.code)));
    }
    let last = group.consts[OPCODES.len()];
    let count = OPCODES.len() as i128;
    assert_eq!((last.name, last.value), ("IORING_OP_LAST", count));
}
