// SPDX-License-Identifier: MIT
//! Reads the documentation of a module (its `//!` text) from the module's
//! Rust source with a Rust parser (`syn`), and turns doc comments into the
//! C header's comments. (Structs and their members carry their doc lines in
//! the `c_structs!` tables.)

use syn::{Attribute, Expr, Lit, Meta};

/// Documentation found in one module source.
#[derive(Default)]
pub(crate) struct ModuleDocs {
    /// The `//!` text at the top of the file.
    pub module: Vec<String>,
}

/// The doc lines of `attrs`, one per `///` (or `//!`) line, trimmed.
fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(s.value().trim().to_string()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Collects the module documentation of `source`.
pub(crate) fn read(source: &str) -> Result<ModuleDocs, syn::Error> {
    let file = syn::parse_file(source)?;
    Ok(ModuleDocs {
        module: doc_lines(&file.attrs),
    })
}

/// The documentation of the Rust source file `file` (relative to the
/// repository). A file that cannot be read or parsed is a broken checkout:
/// the generator stops with the reason.
pub(crate) fn read_file(file: &str) -> ModuleDocs {
    let path = crate::repo().join(file);
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| crate::fail(&format!("{}: {e}", path.display())));
    read(&source).unwrap_or_else(|e| crate::fail(&format!("{file}: {e}")))
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

#[cfg(test)]
mod tests;
