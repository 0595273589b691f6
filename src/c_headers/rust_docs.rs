// SPDX-License-Identifier: MIT
//! Reads the documentation of a module, its structs and their fields from
//! the module's Rust source, so that the Rust doc comments are also the C
//! header's comments.
//!
//! The sources are rustfmt-formatted, which keeps this a line reader: `//!`
//! lines at the top are the module's documentation; `///` lines followed by
//! attributes and `pub struct NAME {` (or `pub union`) document a struct; a
//! struct's `pub field: Type,` lines take the `///` lines just above them.

use std::collections::HashMap;

/// Documentation found in one module source.
#[derive(Default)]
pub(crate) struct ModuleDocs {
    /// The `//!` text at the top of the file.
    pub module: Vec<String>,
    /// `struct name` → its doc lines.
    pub structs: HashMap<String, Vec<String>>,
    /// (`struct name`, `field name`) → the field's doc lines.
    pub fields: HashMap<(String, String), Vec<String>>,
}

/// Collects the documentation of `source` (see the module comment).
pub(crate) fn read(source: &str) -> ModuleDocs {
    let mut docs = ModuleDocs::default();
    let mut pending: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    let mut at_top = true;
    for line in source.lines() {
        if at_top {
            if let Some(rest) = line.strip_prefix("//!") {
                docs.module.push(rest.trim().to_string());
                continue;
            }
            // A licence line or other plain comment may precede the `//!`s.
            if line.starts_with("// ") && docs.module.is_empty() {
                continue;
            }
            at_top = false;
        }
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("///") {
            pending.push(rest.trim().to_string());
            continue;
        }
        if trimmed.starts_with("#[") {
            continue;
        }
        if let Some(name) = current.as_ref() {
            if line == "}" {
                current = None;
            } else if let Some(rest) = trimmed.strip_prefix("pub ") {
                if let Some((field, _)) = rest.split_once(':') {
                    let field = field.trim().trim_start_matches("r#").to_string();
                    docs.fields
                        .insert((name.clone(), field), std::mem::take(&mut pending));
                }
            }
        } else if let Some(rest) = line
            .strip_prefix("pub struct ")
            .or_else(|| line.strip_prefix("pub union "))
        {
            let name = rest
                .split([' ', '{'])
                .next()
                .unwrap_or_default()
                .to_string();
            docs.structs
                .insert(name.clone(), std::mem::take(&mut pending));
            if rest.trim_end().ends_with('{') {
                current = Some(name);
            }
        }
        pending.clear();
    }
    docs
}

/// The first paragraph of a doc comment as plain text: markdown code
/// spans and intra-doc links become bare names. Later paragraphs speak
/// about the Rust API and stay out of C.
pub(crate) fn summary<S: AsRef<str>>(lines: &[S]) -> String {
    let mut words: Vec<String> = Vec::new();
    for line in lines {
        let line = line.as_ref().trim();
        if line.is_empty() {
            if words.is_empty() {
                continue;
            }
            break;
        }
        words.extend(line.split_whitespace().map(str::to_string));
    }
    plain(&words.join(" "))
}

/// Drops markdown from one line of documentation: `[`x`](path)` and
/// `[`x`]` become `x`, and backticks go.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('[') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find(']') {
            Some(end) => {
                out.push_str(&after[..end]);
                let mut tail = &after[end + 1..];
                if tail.starts_with('(') {
                    if let Some(close) = tail.find(')') {
                        tail = &tail[close + 1..];
                    }
                }
                rest = tail;
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace('`', "")
}

#[test]
fn docs_are_found_and_made_plain() {
    let src = "// SPDX-License-Identifier: MIT\n//! Top.\n//! More.\n\n/// A [`thing`](super::x).\n///\n/// Rust only.\n\
               #[repr(C)]\npub struct s {\n    /// The `a`.\n    pub a: u32,\n    pub r#type: u8,\n}\n";
    let d = read(src);
    assert_eq!(d.module, ["Top.", "More."]);
    assert_eq!(summary(&d.structs["s"]), "A thing.");
    assert_eq!(summary(&d.fields[&("s".into(), "a".into())]), "The a.");
    assert!(d.fields[&("s".into(), "type".into())].is_empty());
}
