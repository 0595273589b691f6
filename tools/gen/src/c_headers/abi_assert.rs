// SPDX-License-Identifier: MIT
//! The Rust tables as C static assertions: for every constant its value,
//! whether it is a macro or an enumerator (and of which enum, in C++), and
//! the C type of each macro; for every structure its size and alignment,
//! and each member's offset, size and (in C) type.
//!
//! Our own headers are generated from the same tables, so the check that
//! can still fail is the one against upstream liburing's headers: `make
//! abi-assert` (`gen abi-assert FILE`) writes the assertions to `build/abi-assert.c`, and the
//! liburing-tests harness compiles that file against the headers of the
//! liburing it builds (`pytools/suite/abi_check.py`). Its tests
//! (`tools/gen/src/c_headers/abi_assert/tests.rs`) compile it against
//! `include/` too, and prove that a wrong table fails.

use std::fmt::Write as _;

use super::{walk, Node};
use uring_uapi::{self as uapi, CGroup, CGroupKind, CLayout, CModule, RING_TYPES};

/// How much one assertion file checks.
#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct Counts {
    pub macros: usize,
    pub enumerators: usize,
    pub structs: usize,
    pub members: usize,
}

/// Names our headers have and liburing 2.15's lack or define otherwise:
/// the kernel interface added after it (Linux 6.13 to 7.2). Their
/// assertions sit under `#ifndef ABI_LIBURING_2_15`, which the harness's
/// check against liburing 2.15's headers defines (pytools/suite/abi_check.py);
/// against ours they are checked like the rest. A constant, a structure, or
/// `struct.member` (its sub-members included).
const BEYOND_LIBURING_2_15: &[&str] = &[
    "IORING_URING_CMD_MULTISHOT",
    "IORING_URING_CMD_MASK",
    "IORING_NOP_FILE",
    "IORING_NOP_FIXED_FILE",
    "IORING_NOP_FIXED_BUFFER",
    "IORING_NOP_TW",
    "IO_URING_NAPI_REGISTER_OP",
    "IO_URING_NAPI_STATIC_ADD_ID",
    "IO_URING_NAPI_STATIC_DEL_ID",
    "IO_URING_NAPI_TRACKING_DYNAMIC",
    "IO_URING_NAPI_TRACKING_STATIC",
    "IO_URING_NAPI_TRACKING_INACTIVE",
    "IO_URING_QUERY_ZCRX_EVENT",
    "__IO_URING_QUERY_MAX",
    "ZCRX_FEATURE_EVENT",
    "ZCRX_EVENT_ALLOC_FAIL",
    "ZCRX_EVENT_COPY",
    "__ZCRX_EVENT_TYPE_LAST",
    "ZCRX_EVENT_DESC_FLAG_STATS",
    "ZCRX_CTRL_ARM_EVENT",
    "__ZCRX_CTRL_LAST",
    "zcrx_stats",
    "zcrx_event_desc",
    "zcrx_ctrl_arm_event",
    "io_uring_query_zcrx_event",
    "io_uring_sqe.write_stream",
    "io_uring_sqe.__pad4",
    "io_uring_napi.opcode",
    "io_uring_napi.__pad_op",
    "io_uring_napi.op_param",
    "io_uring_napi.__resv_op",
    "io_uring_zcrx_ifq_reg.event_desc",
    "io_uring_zcrx_ifq_reg.__resv_ev",
    "zcrx_ctrl.zc_arm_event",
    "io_uring_bpf_ctx.connect",
];

/// Whether `name` (a constant, structure or `struct.member.path`) is one of
/// [`BEYOND_LIBURING_2_15`].
fn beyond_2_15(name: &str) -> bool {
    BEYOND_LIBURING_2_15.iter().any(|b| {
        name == *b
            || name
                .strip_prefix(b)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// Writes `body` into `out`, under `#ifndef ABI_LIBURING_2_15` when `beyond`.
fn guarded(out: &mut String, beyond: bool, body: &str) {
    if beyond {
        let _ = write!(
            out,
            "#ifndef ABI_LIBURING_2_15
{body}#endif
"
        );
    } else {
        out.push_str(body);
    }
}

/// A C integer literal of exactly `v`, usable in `==` against any integer
/// type without sign-compare warnings.
fn literal(v: i128) -> String {
    if v < 0 {
        format!("({v}LL)")
    } else {
        format!("{v}ULL")
    }
}

/// The C type of a macro of kind `t`, as `__typeof__` reports it.
fn macro_type(t: uapi::CType) -> &'static str {
    match t {
        uapi::CType::Int => "int",
        uapi::CType::UInt => "unsigned int",
        uapi::CType::ULongLong => "unsigned long long",
    }
}

/// Assertions for one group of constants.
pub(crate) fn const_asserts(body: &mut String, g: &CGroup, n: &mut Counts) {
    let first = g.consts.first().map(|c| c.name);
    for c in g.consts {
        let name = c.name;
        let mut one = String::new();
        let out = &mut one;
        match g.kind {
            CGroupKind::Macros(t) => {
                n.macros += 1;
                let ty = macro_type(t);
                let _ = writeln!(
                    out,
                    "#ifndef {name}\n#error \"{name} is not a macro\"\n#endif\n\
                     ABI_ASSERT(ABI_SAME(ABI_TYPEOF({name}), {ty}), \"C type of {name} is {ty}\");"
                );
            }
            CGroupKind::Enum(e) => {
                n.enumerators += 1;
                let _ = writeln!(
                    out,
                    "#ifdef {name}\n#error \"{name} is a macro, expected an enumerator\"\n#endif"
                );
                let same = match e {
                    Some(e) => format!("enum {e}"),
                    None => format!("decltype({})", first.unwrap_or(name)),
                };
                let what = e.map_or("an anonymous enum".to_string(), |e| format!("enum {e}"));
                let _ = writeln!(
                    out,
                    "ABI_CXX_ASSERT(ABI_SAME(decltype({name}), {same}), \"{name} is a member of {what}\");"
                );
            }
        }
        let _ = writeln!(
            out,
            "ABI_ASSERT(({name}) == {}, \"value of {name}\");",
            literal(c.value)
        );
        guarded(body, beyond_2_15(name), &one);
    }
}

/// Assertions for one structure.
pub(crate) fn layout_asserts(body: &mut String, l: &'static CLayout, n: &mut Counts) {
    n.structs += 1;
    let t = format!("struct {}", l.name);
    let mut whole = String::new();
    let out = &mut whole;
    let _ = writeln!(
        out,
        "ABI_ASSERT(sizeof({t}) == {}, \"sizeof({t})\");\n\
         ABI_ASSERT(ABI_ALIGNOF({t}) == {}, \"alignof({t})\");",
        l.size, l.align
    );
    let mut path: Vec<Option<&str>> = Vec::new();
    for node in walk(l) {
        match node {
            Node::Open { name, .. } => path.push(name),
            Node::Close => {
                path.pop();
            }
            Node::Member(m, offset) => {
                n.members += 1;
                let mut p: Vec<&str> = path.iter().flatten().copied().collect();
                p.push(m.name);
                let p = p.join(".");
                let mut one = String::new();
                let member_out = &mut *out;
                let out = &mut one;
                let _ = writeln!(
                    out,
                    "ABI_ASSERT(offsetof({t}, {p}) == {offset}, \"offsetof({t}, {p})\");"
                );
                if m.size != 0 {
                    let _ = writeln!(
                        out,
                        "ABI_ASSERT(sizeof((({t} *)0)->{p}) == {}, \"sizeof({t}.{p})\");",
                        m.size
                    );
                }
                let _ = writeln!(
                    out,
                    "ABI_C_ASSERT(ABI_SAME(__typeof__((({t} *)0)->{p}), {}), \"C type of {t}.{p} is {}\");",
                    m.cty, m.cty
                );
                guarded(member_out, beyond_2_15(&format!("{}.{p}", l.name)), &one);
            }
        }
    }
    guarded(body, beyond_2_15(l.name), &whole);
}

/// The modules whose tables are checked, as (header that declares them, module).
fn checked_modules() -> Vec<(&'static str, &'static CModule)> {
    let mut v: Vec<(&str, &CModule)> = Vec::new();
    v.push(("linux/time_types.h", &uapi::KERNEL_TYPES));
    v.extend(uapi::IO_URING_H.iter().map(|m| ("liburing/io_uring.h", m)));
    v.extend(
        uapi::QUERY_H
            .iter()
            .map(|m| ("liburing/io_uring/query.h", m)),
    );
    v.extend(
        uapi::BPF_FILTER_H
            .iter()
            .map(|m| ("liburing/io_uring/bpf_filter.h", m)),
    );
    v.push(("liburing.h", &RING_TYPES));
    v
}

/// The whole assertion file, and what it counts.
pub(crate) fn source() -> (String, Counts) {
    let mut n = Counts::default();
    let mut body = String::new();
    for (_, m) in checked_modules() {
        let _ = writeln!(body, "\n/* {} */", m.file);
        for g in m.consts {
            const_asserts(&mut body, g, &mut n);
        }
        for l in m.layouts {
            layout_asserts(&mut body, l, &mut n);
        }
    }
    let _ = writeln!(body, "\n/* uapi/src/version.rs */");
    const_asserts(&mut body, &super::VERSION_MACROS, &mut n);
    (wrap(&body, &n), n)
}

/// The includes and assertion spellings around `body`.
fn wrap(body: &str, n: &Counts) -> String {
    format!(
        "/* SPDX-License-Identifier: MIT */\n\
         /*\n * Generated by tools/gen (`make abi-assert`): the uring-rs\n\
         \x20* Rust ABI tables as static assertions, to compile against any liburing's\n\
         \x20* headers, in C and in C++.\n\
         \x20* abi-assert: {} macros, {} enumerators, {} structs, {} members\n */\n\
         #include <stddef.h>\n\
         #include <liburing.h>\n\
         #include <liburing/io_uring/query.h>\n\
         #include <liburing/io_uring/bpf_filter.h>\n\
         #ifdef __cplusplus\n\
         #include <type_traits>\n\
         #define ABI_ASSERT(c, m) static_assert(c, m)\n\
         #define ABI_CXX_ASSERT(c, m) static_assert(c, m)\n\
         #define ABI_C_ASSERT(c, m)\n\
         #define ABI_ALIGNOF(t) alignof(t)\n\
         #define ABI_TYPEOF(x) decltype(x)\n\
         #define ABI_SAME(a, b) (std::is_same<a, b>::value)\n\
         #else\n\
         #define ABI_ASSERT(c, m) _Static_assert(c, m)\n\
         #define ABI_CXX_ASSERT(c, m)\n\
         #define ABI_C_ASSERT(c, m) _Static_assert(c, m)\n\
         #define ABI_ALIGNOF(t) _Alignof(t)\n\
         #define ABI_TYPEOF(x) __typeof__(x)\n\
         #define ABI_SAME(a, b) __builtin_types_compatible_p(a, b)\n\
         #endif\n{body}",
        n.macros, n.enumerators, n.structs, n.members
    )
}

#[cfg(test)]
mod tests;
