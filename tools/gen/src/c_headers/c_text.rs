// SPDX-License-Identifier: MIT
//! Turns the `c_consts!` and `c_structs!` tables into C declarations:
//! comments, `#define`s, enums and structs, in the house style of the
//! generated headers (comments above what they describe, one space
//! between a member's type and its name, tabs for nesting).

use std::fmt::Write as _;

use super::rust_docs;
use super::{walk, Node};
use uring_uapi::{CConst, CGroup, CGroupKind, CLayout, CModule, CType};

/// Widest line a generated comment may reach.
const WIDTH: usize = 80;

/// Writes `text` as a C comment indented by `indent` tabs (nothing for
/// empty text): one line when it fits, else a wrapped block.
pub(crate) fn comment(out: &mut String, indent: usize, text: &str) {
    wrapped_comment(out, indent, text, false);
}

/// Writes `text` as a C comment, as a block even when it would fit on one
/// line if `block`.
pub(crate) fn wrapped_comment(out: &mut String, indent: usize, text: &str, block: bool) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    let tabs = "\t".repeat(indent);
    let room = WIDTH.saturating_sub(indent * 8);
    if !block && !text.contains('\n') && text.len() + 6 <= room {
        let _ = writeln!(out, "{tabs}/* {text} */");
        return;
    }
    let _ = writeln!(out, "{tabs}/*");
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            let _ = writeln!(out, "{tabs} *");
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() + 3 > room {
                let _ = writeln!(out, "{tabs} * {line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        let _ = writeln!(out, "{tabs} * {line}");
    }
    let _ = writeln!(out, "{tabs} */");
}

/// The C literal suffix of a macro of C type `t`.
fn suffix(t: CType) -> &'static str {
    match t {
        CType::Int => "",
        CType::UInt => "U",
        CType::ULongLong => "ULL",
    }
}

/// Spells the Rust constant expression `expr` in C, giving every integer
/// literal `suffix` (so the expression has the macro's C type): Rust's `!`
/// becomes `~`, digit separators and Rust literal suffixes go.
pub(crate) fn c_expr(expr: &str, suffix: &str) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let raw: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            let mut digits = raw.as_str();
            for rust_suffix in [
                "usize", "u64", "u32", "u16", "u8", "i64", "i32", "i16", "i8",
            ] {
                // Hex digits hold no `u` or `i`, so this never eats a digit.
                if let Some(d) = digits.strip_suffix(rust_suffix) {
                    digits = d;
                    break;
                }
            }
            // A shift count does not decide the type: leave it bare.
            let after_shift = matches!(tokens.last().map(String::as_str), Some("<<" | ">>"));
            let sfx = if after_shift { "" } else { suffix };
            tokens.push(format!("{digits}{sfx}"));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if two == "<<" || two == ">>" {
                tokens.push(two);
                i += 2;
            } else {
                tokens.push(if c == '!' { "~".into() } else { c.to_string() });
                i += 1;
            }
        }
    }
    let mut out = String::new();
    let mut prev_operand = false;
    for t in &tokens {
        let binary = matches!(t.as_str(), "<<" | ">>" | "|" | "&" | "+" | "*" | "^")
            || (t == "-" && prev_operand);
        if binary {
            let _ = write!(out, " {t} ");
            prev_operand = false;
        } else {
            out.push_str(t);
            prev_operand = t != "(" && t != "~" && t != "-";
        }
    }
    if tokens.len() > 1 {
        format!("({out})")
    } else {
        out
    }
}

/// The C spelling of constant `c` of group `kind`: its Rust expression in
/// C, or its value when the table gives no expression (a computed value,
/// such as a count of table rows).
pub(crate) fn c_value(c: &CConst, kind: CGroupKind) -> String {
    if c.expr.is_empty() {
        return c.value.to_string();
    }
    match kind {
        CGroupKind::Macros(t) => c_expr(c.expr, suffix(t)),
        CGroupKind::Enum(_) => {
            let s = if c.value > i32::MAX as i128 { "U" } else { "" };
            let v = c_expr(c.expr, s);
            v.strip_prefix('(')
                .and_then(|v| v.strip_suffix(')'))
                .map(str::to_string)
                .unwrap_or(v)
        }
    }
}

/// Writes one group of constants: its comment, then the `#define`s or the
/// enum.
pub(crate) fn write_group(out: &mut String, g: &CGroup) {
    wrapped_comment(out, 0, &rust_docs::summary(g.doc), true);
    match g.kind {
        CGroupKind::Macros(_) => {
            for c in g.consts {
                comment(out, 0, &rust_docs::summary(c.doc));
                let _ = writeln!(out, "#define {} {}", c.name, c_value(c, g.kind));
            }
        }
        CGroupKind::Enum(name) => {
            match name {
                Some(n) => {
                    let _ = writeln!(out, "enum {n} {{");
                }
                None => out.push_str("enum {\n"),
            }
            for (i, c) in g.consts.iter().enumerate() {
                comment(out, 1, &rust_docs::summary(c.doc));
                let comma = if i + 1 < g.consts.len() { "," } else { "" };
                let _ = writeln!(out, "\t{} = {}{comma}", c.name, c_value(c, g.kind));
            }
            out.push_str("};\n");
        }
    }
}

/// `type name` for a member of C type `cty`: arrays (`T[N]`, `T[]`) put
/// their bounds after the name, pointers (`T *`) stick to it.
pub(crate) fn declaration(cty: &str, name: &str) -> String {
    let (base, bounds) = match cty.find('[') {
        Some(i) => (&cty[..i], &cty[i..]),
        None => (cty, ""),
    };
    let base = base.trim_end();
    if base.ends_with('*') {
        format!("{base}{name}{bounds}")
    } else {
        format!("{base} {name}{bounds}")
    }
}

/// Writes `struct <name> { ... };` with the comments of the struct and of
/// each member.
pub(crate) fn write_struct(out: &mut String, l: &'static CLayout) {
    comment(out, 0, &rust_docs::summary(l.doc));
    let _ = writeln!(out, "struct {} {{", l.name);
    let mut depth = 1;
    let mut closers: Vec<String> = Vec::new();
    for node in walk(l) {
        let tabs = "\t".repeat(depth);
        match node {
            Node::Member(m, _) => {
                comment(out, depth, &rust_docs::summary(m.doc));
                let _ = writeln!(out, "{tabs}{};", declaration(m.cty, m.name));
            }
            Node::Open {
                union,
                packed,
                name,
                doc,
            } => {
                comment(out, depth, &rust_docs::summary(doc));
                let kw = if union { "union" } else { "struct" };
                let _ = writeln!(out, "{tabs}{kw} {{");
                let mut close = String::from("}");
                if packed {
                    close.push_str(" __attribute__((packed))");
                }
                if let Some(n) = name {
                    let _ = write!(close, " {n}");
                }
                close.push(';');
                closers.push(close);
                depth += 1;
            }
            Node::Close => {
                depth -= 1;
                let close = closers.pop().expect("unbalanced layout table");
                let _ = writeln!(out, "{}{close}", "\t".repeat(depth));
            }
        }
    }
    assert!(closers.is_empty(), "unbalanced layout table for {}", l.name);
    out.push_str("};\n");
}

/// Writes every struct and then every constant group of one module, under
/// a banner made of the module's own documentation if `banner`.
pub(crate) fn write_module(out: &mut String, m: &CModule, banner: bool) {
    if banner {
        let about = rust_docs::summary(&rust_docs::read_file(m.file).module);
        out.push('\n');
        wrapped_comment(out, 0, &format!("{about} [{}]", m.file), true);
    }
    for l in m.layouts {
        out.push('\n');
        write_struct(out, l);
    }
    for g in m.consts {
        out.push('\n');
        write_group(out, g);
    }
}

#[cfg(test)]
mod tests;
