// SPDX-License-Identifier: MIT
//! The module import graph of each of the library's crates, read with a
//! Rust parser: which top-level module names which other (`crate::x` in
//! `use` items and paths, test code left out), and the circles in it. The
//! layers themselves (kernel ABI, core, diagnostics, C boundary) are crates,
//! whose direction the compiler enforces; inside a crate the arrows must
//! point one way too, which `gen imports` shows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use syn::visit::Visit;

/// Top-level module → the top-level modules it names.
pub(crate) type Graph = BTreeMap<String, BTreeSet<String>>;

/// Collects the first segment after `crate::` of every path and `use`.
struct Names(BTreeSet<String>);

impl Names {
    fn use_tree(&mut self, tree: &syn::UseTree, under_crate: bool) {
        match tree {
            syn::UseTree::Path(p) if !under_crate && p.ident == "crate" => {
                self.use_tree(&p.tree, true);
            }
            syn::UseTree::Path(p) if under_crate => {
                self.0.insert(p.ident.to_string());
            }
            syn::UseTree::Name(n) if under_crate => {
                self.0.insert(n.ident.to_string());
            }
            syn::UseTree::Rename(r) if under_crate => {
                self.0.insert(r.ident.to_string());
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, under_crate);
                }
            }
            _ => {}
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Impl(i) => &i.attrs,
            _ => &[],
        };
        if is_test_only(attrs) {
            return;
        }
        if let syn::Item::Use(u) = item {
            self.use_tree(&u.tree, false);
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segs = path.segments.iter();
        if let (Some(first), Some(second)) = (segs.next(), segs.next()) {
            if first.ident == "crate" {
                self.0.insert(second.ident.to_string());
            }
        }
        syn::visit::visit_path(self, path);
    }
}

/// The top-level module a source file under `src/` belongs to.
fn top_module(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The graph of the library in `src/`.
pub(crate) fn graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| top_module(f.strip_prefix(src).ok()?))
        .collect();
    let mut g: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for f in &files {
        // Test modules live in files of their own (`queue/tests.rs`,
        // `setup/ring_fd_and_resize_tests.rs`): test code, left out.
        if f.file_stem()
            .is_some_and(|s| s.to_string_lossy().ends_with("tests"))
        {
            continue;
        }
        let Some(from) = f.strip_prefix(src).ok().and_then(top_module) else {
            continue;
        };
        let text = std::fs::read_to_string(f)
            .unwrap_or_else(|e| crate::fail(&format!("{}: {e}", f.display())));
        let file = syn::parse_file(&text)
            .unwrap_or_else(|e| crate::fail(&format!("{}: {e}", f.display())));
        let mut names = Names(BTreeSet::new());
        names.visit_file(&file);
        let to = g.entry(from.clone()).or_default();
        for n in names.0 {
            if n != from && modules.contains(&n) {
                to.insert(n);
            }
        }
    }
    g
}

/// The strongly connected parts of `g` with more than one module.
pub(crate) fn circles(g: &Graph) -> Vec<Vec<String>> {
    // Two modules share a circle when each reaches the other.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for n in g.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for m in g.keys() {
        if placed.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let part: Vec<String> = g
            .keys()
            .filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m))
            .cloned()
            .collect();
        placed.extend(part.iter().cloned());
        out.push(part);
    }
    out
}

/// The crates whose modules are checked, by source directory.
pub(crate) const CRATES: [&str; 3] = ["core/src", "diag/src", "src"];

#[cfg(test)]
mod tests;
