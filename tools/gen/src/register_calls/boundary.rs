// SPDX-License-Identifier: MIT
//! `src/capi/register_pass_through.rs`: one C entry point per row of the
//! pass-through table. Each takes the live ring at the boundary with
//! `observed!` (a null ring gives `-EINVAL`; an observer hears of a
//! failure), hands its argument to the core's one `register` call
//! untouched, and converts the result to liburing's convention with
//! `ret_int`, as the hand-written entry points do.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{Arg, Call, Nr, On, Retry, CALLS};

pub(crate) const OUT: &str = "src/capi/register_pass_through.rs";

/// The type a parameter's Rust type is built on (`*mut io_uring_napi` ->
/// `io_uring_napi`).
fn base_type(ty: &str) -> &str {
    ty.trim_start_matches("*mut ")
        .trim_start_matches("*const ")
        .trim()
}

/// The `use` lines the generated file needs.
fn imports() -> String {
    let mut ffi: BTreeSet<&str> = ["c_int"].into();
    let mut uapi: BTreeSet<&str> = BTreeSet::new();
    let mut iovec = false;
    for c in CALLS {
        uapi.insert(c.opcode);
        if matches!(c.arg, Arg::Pointer(_)) {
            ffi.insert("c_void");
        }
        for (_, ty) in c.params {
            match base_type(ty) {
                "c_int" | "c_uint" | "c_void" => {
                    ffi.insert(base_type(ty));
                }
                "iovec" => iovec = true,
                t if t.contains("::") => {}
                t => {
                    uapi.insert(t);
                }
            }
        }
    }
    let list = |s: &BTreeSet<&str>| s.iter().copied().collect::<Vec<_>>().join(", ");
    let mut out = format!("use core::ffi::{{{}}};\n\n", list(&ffi));
    if iovec {
        out.push_str("use super::register::iovec;\n");
    }
    out.push_str("use super::ret_int;\nuse crate::register;\n");
    if CALLS.iter().any(|c| c.on == On::Ring) {
        out.push_str("use crate::structs::io_uring;\n");
    }
    // Types first, then opcodes, each sorted: one line per name keeps the
    // list readable and the diff of a new row one line long.
    let (types, opcodes): (Vec<&str>, Vec<&str>) =
        uapi.iter().partition(|n| !n.starts_with("IORING_"));
    out.push_str("use crate::uapi::{\n");
    for n in types.iter().chain(&opcodes) {
        let _ = writeln!(out, "    {n},");
    }
    out.push_str("};\n");
    out
}

/// `nr_args` as a Rust expression of the parameters.
fn nr_expr(c: &Call) -> String {
    match c.nr_args {
        Nr::Fixed(n) => n.to_string(),
        Nr::Param(p) => match c.param_type(p) {
            "c_uint" => p.to_string(),
            _ => format!("{p} as u32"),
        },
        // Bound to a checked local by `body`.
        Nr::ByteSize(_) => "nr".to_string(),
    }
}

/// The call of the core, giving a `SysResult<i32>`.
fn core_call(c: &Call) -> (String, String) {
    let target = match c.on {
        On::Ring => "ring, ",
        On::NoRing => "",
    };
    let nr = nr_expr(c);
    let (op, f) = (
        c.opcode,
        if c.on == On::Ring {
            "register"
        } else {
            "ringless"
        },
    );
    match c.arg {
        Arg::None => (
            String::new(),
            format!("register::without_argument({target}{op}, {nr})"),
        ),
        Arg::Pointer(p) => (
            format!(
                "// SAFETY: `{p}` goes to the kernel as the caller passed it, under the\n\
                 // `# Safety` contract above; the kernel checks it.\n"
            ),
            format!("unsafe {{ register::{f}({target}{op}, {p}.cast::<c_void>(), {nr}) }}"),
        ),
        Arg::Int(v) => (
            format!(
                "// SAFETY: `{op}` reads one `int` at its argument during the call and\n\
                 // keeps no address (its row in the pass-through table).\n"
            ),
            format!("unsafe {{ register::with_int(ring, {op}, {v}) }}"),
        ),
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// The body of one entry point: for a call on a ring, inside `observed!`
/// (a failure is told to an observer from the observed copy).
fn body(c: &Call) -> String {
    let inner = result_body(c);
    if c.on == On::NoRing {
        return inner;
    }
    let mut sig = vec!["ring".to_string()];
    sig.extend(c.params.iter().map(|(n, t)| format!("{n}: {t}")));
    format!(
        "observed!(no_caller, {}({}) -> c_int {{\n{}}})\n",
        c.name,
        sig.join(", "),
        indent(&inner, "    ")
    )
}

/// The conversion of the core's result to liburing's convention.
fn result_body(c: &Call) -> String {
    let mut out = String::new();
    let (safety, call) = core_call(c);
    let call = match c.retry {
        Retry::None => format!("{safety}{call}"),
        Retry::RaiseFileLimit(n) => {
            format!(
                "register::with_nofile_retry({n}, || {{\n{}}})",
                indent(&format!("{safety}{call}"), "    ")
            )
        }
    };
    let result = match c.nr_args {
        Nr::ByteSize(size) => format!(
            "register::count_from_size({size}).and_then(|nr| {{\n{}}})",
            indent(&call, "    ")
        ),
        _ => call,
    };
    if result.contains('\n') {
        let _ = write!(out, "ret_int(\n{})\n", indent(&result, "    "));
    } else {
        let _ = writeln!(out, "ret_int({result})");
    }
    out
}

fn function(c: &Call) -> String {
    let mut out = String::new();
    for line in c.doc.lines() {
        if line.is_empty() {
            out.push_str("///\n");
        } else {
            let _ = writeln!(out, "/// {line}");
        }
    }
    out.push_str("#[no_mangle]\n");
    let mut params: Vec<String> = Vec::new();
    if c.on == On::Ring {
        params.push("ring: *mut io_uring".into());
    }
    params.extend(c.params.iter().map(|(n, t)| format!("{n}: {t}")));
    let _ = writeln!(out, "pub unsafe extern \"C\" fn {}(", c.name);
    for p in &params {
        let _ = writeln!(out, "    {p},");
    }
    out.push_str(") -> c_int {\n");
    out.push_str(&indent(&body(c), "    "));
    out.push_str("}\n");
    out
}

pub(crate) fn generate() -> String {
    let mut out = String::from(
        "// SPDX-License-Identifier: MIT\n\
         // Generated by `make headers` from tools/gen/src/register_calls/table.rs.\n\
         // Do not edit: change the table's row and regenerate.\n\
         //! C entry points of the registration calls that hand their argument to\n\
         //! the kernel untouched, one per row of the pass-through table.\n\
         //!\n\
         //! Pointer policy as in `register.rs`: a null `ring` gives `-EINVAL`\n\
         //! where liburing would dereference it; the argument goes to the kernel\n\
         //! as the caller gave it, null included, so the kernel's answer is the\n\
         //! answer.\n\n",
    );
    out.push_str(&imports());
    for c in CALLS {
        out.push('\n');
        out.push_str(&function(c));
    }
    out
}
