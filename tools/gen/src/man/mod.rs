// SPDX-License-Identifier: MIT
//! The reference manual: `make headers` writes every page into [`DIR`]
//! (checked in; `make man` copies it), `gen man OUT_DIR` anywhere.
//!
//! Where each page's text comes from (one place per fact):
//!
//! | pages | source |
//! |---|---|
//! | section 3, library functions | the doc comments of the C boundary (`src/capi/*.rs`, read with `syn`): description, then `# Arguments`, `# Return value`, `# Errors`, `# Notes`, `# See also`; `# Safety` becomes a note. SYNOPSIS: cbindgen's prototype, as in `functions.h` |
//! | section 3, `io_uring_prep_*` | the prep helper table (`crate::prep`): parameters, SQE stores, opcode |
//! | section 3, other inline helpers and macros | [`inline::INLINE`] |
//! | sections 1, 2 and 7 (and io_uring_recvmsg_out.3) | hand-written pages in `man/pages/`, whose `.\" @example FILE` lines pull in the compiled examples of `man/examples/` and `.\" @names PREFIX...` lines the kernel-release rows |
//! | kernel releases | `uring_uapi::releases` (also the prep pages' "available since" notes) |
//! | HISTORY | the symbol version scripts `src/liburing*.map` |
//!
//! Output: OUT_DIR/man2, man3, man7, OUT_DIR/names.txt (every name and
//! its page, for the checks) and OUT_DIR/synopsis-check.c (every SYNOPSIS
//! declaration again, which `make check-man` compiles against the
//! installed header).

mod asan;
mod check_c;
mod first_release;
mod history;
mod inline;
mod pages;
mod releases;
mod roff;
pub(crate) mod sources;
mod tables;
mod text;

use std::collections::BTreeMap;
use std::path::Path;

use crate::fail;

/// (path, content) of generated files, or (path, target) of links.
pub type Files = Vec<(String, String)>;

/// The manual being built.
pub struct Manual {
    /// (section, name) -> page text.
    pages: BTreeMap<(String, String), String>,
    /// (section, alias) -> the file name of the page it shares.
    links: BTreeMap<(String, String), String>,
    /// name -> (section, page name).
    names: BTreeMap<String, (String, String)>,
    /// Names of the hand-written pages and their aliases -> section.
    hand_names: BTreeMap<String, String>,
    /// The SYNOPSIS of each section 3 page, for the compile check.
    synopses: Vec<(String, Vec<String>)>,
}

impl Manual {
    fn add(&mut self, section: &str, name: &str, text: String, aliases: &[&str]) {
        self.pages.insert((section.into(), name.into()), text);
        self.names
            .insert(name.into(), (section.into(), name.into()));
        for a in aliases {
            self.links
                .insert((section.into(), (*a).into()), format!("{name}.{section}"));
            self.names
                .insert((*a).into(), (section.into(), name.into()));
        }
    }

    fn build() -> Manual {
        let mut m = Manual {
            pages: BTreeMap::new(),
            links: BTreeMap::new(),
            names: BTreeMap::new(),
            hand_names: BTreeMap::new(),
            synopses: Vec::new(),
        };
        let hand = sources::hand_page_files();
        for f in &hand {
            let (stem, sec) = f.rsplit_once('.').unwrap_or((f, ""));
            m.hand_names.insert(stem.into(), sec.into());
            for a in sources::aliases(&sources::read(&format!("man/pages/{f}"))) {
                m.hand_names.insert(a, sec.into());
            }
        }
        for f in &hand {
            pages::hand_page(&mut m, f);
        }
        let symbols = sources::exported_symbols();
        let macros: Vec<&str> = inline::INLINE
            .iter()
            .filter(|r| r.kind == inline::Kind::Macro)
            .map(|r| r.name)
            .collect();
        let mut all: Vec<&str> = symbols.iter().map(String::as_str).collect();
        // Helpers ahead of liburing are documented though no map exports them.
        all.extend(
            crate::prep::table::HELPERS
                .iter()
                .filter(|h| h.ahead.is_some())
                .map(|h| h.name),
        );
        let mut sorted_macros = macros.clone();
        sorted_macros.sort_unstable();
        all.extend(sorted_macros);
        // Names first, so SEE ALSO can link to any page.
        for n in &all {
            m.names
                .entry((*n).into())
                .or_insert_with(|| ("3".into(), (*n).into()));
        }
        let docs = sources::capi_docs();
        let protos = crate::functions_h::prototypes();
        let preps: BTreeMap<&str, &crate::prep::Helper> = crate::prep::table::HELPERS
            .iter()
            .filter(|h| h.ahead.is_some() || symbols.iter().any(|s| s == h.name))
            .map(|h| (h.name, h))
            .collect();
        let since = sources::since();
        for n in all {
            let row = inline::row(n);
            if row.is_some_and(|r| r.alias_of.is_some()) {
                continue;
            }
            if let Some(h) = preps.get(n) {
                pages::prep_page(&mut m, h, &preps, &since);
            } else if let Some(r) = row {
                pages::inline_page(&mut m, r);
            } else if let (Some(doc), Some(proto)) = (docs.get(n), protos.get(n)) {
                pages::capi_page(&mut m, n, doc, proto);
            } else {
                fail(&format!(
                    "man: {n} is exported but has no doc comment in src/capi, no row in the \
                     prep table and none in tools/gen/src/man/inline.rs"
                ));
            }
        }
        pages::add_examples(&mut m);
        pages::add_history(&mut m, &since);
        m
    }

    /// Every file of the manual: (path relative to the manual's
    /// directory, content), and every alias: (path, the file it links to).
    fn files(&self) -> (Files, Files) {
        let mut files = Vec::new();
        for ((sec, name), text) in &self.pages {
            files.push((format!("man{sec}/{name}.{sec}"), text.clone()));
        }
        let mut names = String::from(
            "# SPDX-License-Identifier: MIT\n# Every documented name: NAME SECTION PAGE.\n",
        );
        for (name, (sec, page)) in &self.names {
            names.push_str(&format!("{name} {sec} {page}\n"));
        }
        files.push(("names.txt".into(), names));
        files.push(("synopsis-check.c".into(), check_c::source(&self.synopses)));
        // Aliases are symbolic links (mandoc and man-db both follow them; the
        // `.so` alternative is one more thing to resolve at display time).
        let links = self
            .links
            .iter()
            .map(|((sec, alias), target)| (format!("man{sec}/{alias}.{sec}"), target.clone()))
            .collect();
        (files, links)
    }
}

/// Where `make headers` writes the manual, checked in so that `make man`
/// (part of `make`) needs no Rust tooling beyond the library's: it copies
/// this directory.
pub const DIR: &str = "man/generated";

/// The manual as generated files of the repository: (path, content) and
/// (link path, link target), paths relative to the repository.
pub fn generated_files() -> (Files, Files) {
    let (files, links) = Manual::build().files();
    let under = |(p, x): (String, String)| (format!("{DIR}/{p}"), x);
    (
        files.into_iter().map(under).collect(),
        links.into_iter().map(under).collect(),
    )
}

/// Files and links under [`DIR`] now, relative to the repository: those
/// `make headers` no longer writes are stale.
pub fn present() -> Vec<String> {
    let mut out = Vec::new();
    for sec in ["man1", "man2", "man3", "man7"] {
        let d = crate::repo().join(DIR).join(sec);
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            out.push(format!("{DIR}/{sec}/{}", e.file_name().to_string_lossy()));
        }
    }
    for f in ["names.txt", "synopsis-check.c"] {
        if crate::repo().join(DIR).join(f).exists() {
            out.push(format!("{DIR}/{f}"));
        }
    }
    out.sort();
    out
}

fn write(out: &Path, files: &[(String, String)], links: &[(String, String)]) {
    let io = |r: std::io::Result<()>, p: &Path| {
        if let Err(e) = r {
            fail(&format!("{}: {e}", p.display()));
        }
    };
    for sec in ["man1", "man2", "man3", "man7"] {
        let d = out.join(sec);
        if d.exists() {
            io(std::fs::remove_dir_all(&d), &d);
        }
    }
    for (path, text) in files {
        let f = out.join(path);
        if let Some(d) = f.parent() {
            io(std::fs::create_dir_all(d), d);
        }
        io(std::fs::write(&f, text), &f);
    }
    for (path, target) in links {
        let link = out.join(path);
        io(std::os::unix::fs::symlink(target, &link), &link);
    }
}

/// `gen man OUT_DIR`.
pub fn run(out: &Path) {
    let m = Manual::build();
    let (files, links) = m.files();
    write(out, &files, &links);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (sec, _) in m.pages.keys() {
        *counts.entry(sec).or_default() += 1;
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(s, n)| format!("{n} in section {s}"))
        .collect();
    println!("man: {} pages in {}", parts.join(", "), out.display());
}
