// SPDX-License-Identifier: MIT
//! The sanitizer's coverage (`uring_uapi::ASAN_CHECKED`) as roff, for the
//! hand-written page's `.\" @asan-checked` line: the opcodes grouped by the
//! SQE fields checked.

use uring_uapi::{
    opcode, AsanFields, ASAN_ADDR, ASAN_ADDR2, ASAN_ADDR3, ASAN_CHECKED, ASAN_OPTVAL,
};

/// What a set of checked fields is called on the page.
fn describe(fields: AsanFields) -> String {
    if fields == 0 {
        return "nothing (the SQE names no memory of the program's)".to_string();
    }
    if fields == ASAN_OPTVAL {
        return "\\fIoptlen\\fP bytes at \\fIoptval\\fP".to_string();
    }
    let mut parts = Vec::new();
    for (bit, name) in [
        (ASAN_ADDR, "addr"),
        (ASAN_ADDR2, "addr2"),
        (ASAN_ADDR3, "addr3"),
    ] {
        if fields & bit != 0 {
            parts.push(format!("\\fI{name}\\fP"));
        }
    }
    let last = parts.pop().unwrap_or_default();
    if parts.is_empty() {
        format!("the first byte at {last}")
    } else {
        format!("the first byte at each of {} and {last}", parts.join(", "))
    }
}

/// One `.TP` paragraph per set of fields, in the order the sets first
/// appear in opcode order, naming every opcode checked that way.
pub fn render() -> Vec<String> {
    let mut groups: Vec<(AsanFields, Vec<&'static str>)> = Vec::new();
    for &(code, fields) in ASAN_CHECKED {
        let name = opcode(code).map_or("?", |o| o.name);
        match groups.iter_mut().find(|(f, _)| *f == fields) {
            Some((_, names)) => names.push(name),
            None => groups.push((fields, vec![name])),
        }
    }
    let mut out = Vec::new();
    for (fields, names) in groups {
        out.push(".TP".to_string());
        out.push(describe(fields));
        for (i, n) in names.iter().enumerate() {
            out.push(if i + 1 < names.len() {
                format!(".BR {n} ,")
            } else {
                format!(".B {n}")
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
