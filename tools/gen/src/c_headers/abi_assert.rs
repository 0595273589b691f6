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
pub(crate) fn const_asserts(out: &mut String, g: &CGroup, n: &mut Counts) {
    let first = g.consts.first().map(|c| c.name);
    for c in g.consts {
        let name = c.name;
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
    }
}

/// Assertions for one structure.
pub(crate) fn layout_asserts(out: &mut String, l: &'static CLayout, n: &mut Counts) {
    n.structs += 1;
    let t = format!("struct {}", l.name);
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
            }
        }
    }
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
