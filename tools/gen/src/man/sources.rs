// SPDX-License-Identifier: MIT
//! What the pages are made from, besides the tables of this tool: the
//! exported symbols and their version nodes (the linker version scripts),
//! the C boundary's doc comments (read with `syn`, see
//! [`crate::capi_docs`]) and prototypes (cbindgen, as in `functions.h`),
//! the kernel-release rows (`uring_uapi::releases`), and the names of the
//! hand-written pages in `man/pages/`.

use std::collections::BTreeMap;

use crate::{fail, repo};

pub fn read(path: &str) -> String {
    let full = repo().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| fail(&format!("{}: {e}", full.display())))
}

/// A symbol line of a version script: `name;`.
fn symbol_line(line: &str) -> Option<&str> {
    let name = line.trim_start().strip_suffix(';')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_'))
    .then_some(name)
}

/// The version scripts: (node, its symbols) in file order.
fn nodes(path: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut open = false;
    for line in read(path).lines() {
        if let Some(node) = line.strip_prefix("LIBURING_") {
            let (node, _) = node
                .split_once(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or((node, ""));
            out.push((node.to_string(), Vec::new()));
            open = true;
        } else if line.starts_with('}') {
            open = false;
        } else if open {
            if let (Some(name), Some(last)) = (symbol_line(line), out.last_mut()) {
                last.1.push(name.to_string());
            }
        }
    }
    out
}

const MAPS: [&str; 2] = ["src/liburing.map", "src/liburing-ffi.map"];

/// Every exported name of both libraries, sorted.
pub fn exported_symbols() -> Vec<String> {
    let mut all: Vec<String> = MAPS
        .iter()
        .flat_map(|m| nodes(m))
        .flat_map(|(_, names)| names)
        .collect();
    all.sort();
    all.dedup();
    all
}

/// name -> (node, in liburing.map): the symbol version node that first
/// exports each symbol, from liburing.map when it is there, else from
/// liburing-ffi.map (the inline helpers); see history.rs for what a node
/// does and does not say about releases.
pub fn symbol_versions() -> BTreeMap<String, (String, bool)> {
    let mut out = BTreeMap::new();
    for (path, in_liburing) in [(MAPS[0], true), (MAPS[1], false)] {
        for (node, names) in nodes(path) {
            for n in names {
                out.entry(n).or_insert_with(|| (node.clone(), in_liburing));
            }
        }
    }
    out
}

/// A boundary function's doc comment split at `# Heading` lines.
pub struct CapiDoc {
    /// The source file, relative to the repository.
    pub path: String,
    /// The text before the first heading.
    pub description: String,
    /// (lower-case heading, text), in first-seen order.
    pub sections: Vec<(String, String)>,
}

fn split_doc(path: String, lines: &[String]) -> CapiDoc {
    let mut description: Vec<&str> = Vec::new();
    let mut sections: Vec<(String, Vec<&str>)> = Vec::new();
    let mut current: Option<usize> = None;
    for l in lines {
        let heading = l
            .strip_prefix('#')
            .filter(|r| r.starts_with(char::is_whitespace));
        if let Some(h) = heading {
            let h = h.trim().to_lowercase();
            current = Some(match sections.iter().position(|(k, _)| *k == h) {
                Some(i) => {
                    sections[i].1.clear();
                    i
                }
                None => {
                    sections.push((h, Vec::new()));
                    sections.len() - 1
                }
            });
            continue;
        }
        match current {
            Some(i) => sections[i].1.push(l),
            None => description.push(l),
        }
    }
    CapiDoc {
        path,
        description: description.join("\n").trim().to_string(),
        sections: sections
            .into_iter()
            .map(|(k, v)| (k, v.join("\n").trim().to_string()))
            .collect(),
    }
}

/// name -> doc of every exported function of the C boundary.
pub fn capi_docs() -> BTreeMap<String, CapiDoc> {
    crate::capi_docs::functions()
        .into_iter()
        .map(|(name, path, lines)| (name, split_doc(path, &lines)))
        .collect()
}

/// name -> release (`"5.1"`) of every kernel-release row that has one;
/// a later row of the same name wins.
pub fn since() -> BTreeMap<&'static str, (u32, u32)> {
    uring_uapi::releases::rows()
        .filter_map(|r| r.since.map(|s| (r.name, s)))
        .collect()
}

pub fn release(v: (u32, u32)) -> String {
    format!("{}.{}", v.0, v.1)
}

/// The hand-written pages: file names in name order.
pub fn hand_page_files() -> Vec<String> {
    let dir = repo().join("man/pages");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())))
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

/// The `.\" @alias NAME` lines of a hand-written page.
pub fn aliases(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix(".\\\" @alias "))
        .filter(|a| !a.is_empty() && !a.contains(char::is_whitespace))
        .map(str::to_string)
        .collect()
}
