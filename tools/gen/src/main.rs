// SPDX-License-Identifier: MIT
//! The generator of every generated file in the repository: `gen headers`
//! writes them, `gen check` fails (listing them) when a checked-in copy is
//! stale, `gen abi-assert FILE` writes the uapi tables as C static
//! assertions, `gen man OUT_DIR` writes the reference manual, `gen imports` prints the library's module import graph. It
//! reads the uapi crate's tables in memory, and Rust doc comments,
//! prototypes and imports with a Rust parser; nothing is read as text
//! patterns. `make headers`, `make check-headers`, `make abi-assert` and
//! `make check-imports` call it.

mod c_headers;
mod capi_docs;
mod exports_check;
mod functions_h;
mod imports;
mod man;
mod prep;
mod register_calls;
mod releases_tsv;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The repository root (this tool lives in `tools/gen`).
pub(crate) fn repo() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(2)
        .map_or_else(|| here.to_path_buf(), Path::to_path_buf)
}

/// Stops the tool with a message: a source it cannot read or parse.
pub(crate) fn fail(why: &str) -> ! {
    eprintln!("gen: {why}");
    std::process::exit(2)
}

/// Every generated file: (path relative to the repository, content).
fn generated_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = c_headers::generated_files()
        .into_iter()
        .map(|(p, t)| (p.to_string(), t))
        .collect();
    files.push((
        register_calls::boundary::OUT.into(),
        register_calls::boundary::generate(),
    ));
    files.push((
        register_calls::cases::OUT.into(),
        register_calls::cases::generate(),
    ));
    files.push((functions_h::OUT.into(), functions_h::generate()));
    files.push((prep::generate::OUT.into(), prep::generate::generate()));
    files.push((releases_tsv::OUT.into(), releases_tsv::generate()));
    files
}

/// Every generated file, the manual's too, and the manual's aliases
/// (symbolic links: path, target).
fn everything() -> (man::Files, man::Files) {
    exports_check::require_map_lines();
    let mut files = generated_files();
    let (pages, links) = man::generated_files();
    files.extend(pages);
    (files, links)
}

/// Generated paths under the manual's directory that nothing writes any
/// more (a page of a removed function).
fn strays(files: &[(String, String)], links: &[(String, String)]) -> Vec<String> {
    man::present()
        .into_iter()
        .filter(|p| !files.iter().chain(links).any(|(q, _)| q == p))
        .collect()
}

fn link_is(path: &str, target: &str) -> bool {
    std::fs::read_link(repo().join(path)).is_ok_and(|t| t == Path::new(target))
}

/// Writes `path` when its content differs; says so.
fn write_if_changed(path: &str, text: &str) {
    let full = repo().join(path);
    if std::fs::read_to_string(&full).ok().as_deref() == Some(text) {
        return;
    }
    if let Some(dir) = full.parent() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            fail(&format!("{}: {e}", dir.display()));
        }
    }
    if let Err(e) = std::fs::write(&full, text) {
        fail(&format!("{}: {e}", full.display()));
    }
    println!("gen: wrote {path}");
}

fn write_all() -> ExitCode {
    // The generated boundary functions are read back from disk by cbindgen
    // (prototypes) and by the manual (doc comments): written first.
    write_if_changed(
        register_calls::boundary::OUT,
        &register_calls::boundary::generate(),
    );
    let (files, links) = everything();
    for path in strays(&files, &links) {
        let full = repo().join(&path);
        if let Err(e) = std::fs::remove_file(&full) {
            fail(&format!("{}: {e}", full.display()));
        }
        println!("gen: removed {path}");
    }
    for (path, text) in &files {
        write_if_changed(path, text);
    }
    for (path, target) in &links {
        if link_is(path, target) {
            continue;
        }
        let full = repo().join(path);
        let _ = std::fs::remove_file(&full);
        if let Err(e) = std::os::unix::fs::symlink(target, &full) {
            fail(&format!("{}: {e}", full.display()));
        }
        println!("gen: linked {path} -> {target}");
    }
    ExitCode::SUCCESS
}

fn check_all() -> ExitCode {
    let (files, links) = everything();
    let mut stale: Vec<&str> = files
        .iter()
        .filter(|(path, text)| {
            std::fs::read_to_string(repo().join(path)).ok().as_deref() != Some(text.as_str())
        })
        .map(|(path, _)| path.as_str())
        .collect();
    stale.extend(
        links
            .iter()
            .filter(|(path, target)| !link_is(path, target))
            .map(|(path, _)| path.as_str()),
    );
    let strays = strays(&files, &links);
    stale.extend(strays.iter().map(String::as_str));
    if stale.is_empty() {
        println!(
            "gen: {} generated files and {} links are fresh",
            files.len(),
            links.len()
        );
        return ExitCode::SUCCESS;
    }
    eprintln!("gen: stale generated files {stale:?}: run `make headers` and commit the result");
    ExitCode::FAILURE
}

fn abi_assert(out: &Path) -> ExitCode {
    let (text, n) = c_headers::abi_assert::source();
    if let Err(e) = std::fs::write(out, text) {
        fail(&format!("{}: {e}", out.display()));
    }
    println!("gen: wrote {} ({n:?})", out.display());
    ExitCode::SUCCESS
}

/// Prints the import graph of each crate's modules and its circles; with
/// `deny`, a circle fails.
fn show_imports(deny: bool) -> ExitCode {
    let mut any = false;
    for dir in imports::CRATES {
        let g = imports::graph(&repo().join(dir));
        println!("{dir}:");
        for (from, to) in &g {
            let to: Vec<&str> = to.iter().map(String::as_str).collect();
            println!("{from:>14} -> {}", to.join(", "));
        }
        for c in &imports::circles(&g) {
            println!("gen: import circle in {dir}: {}", c.join(", "));
            any = true;
        }
    }
    if !any {
        println!("gen: no import circle in {}", imports::CRATES.join(", "));
        return ExitCode::SUCCESS;
    }
    if deny {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["headers"] => write_all(),
        ["check"] => check_all(),
        ["abi-assert", out] => abi_assert(Path::new(out)),
        ["man", out] => {
            man::run(Path::new(out));
            ExitCode::SUCCESS
        }
        ["imports"] => show_imports(false),
        ["imports", "--deny-circles"] => show_imports(true),
        _ => {
            eprintln!(
                "usage: gen headers | gen check | gen abi-assert FILE | gen man OUT_DIR | gen imports \
                 [--deny-circles]"
            );
            ExitCode::from(2)
        }
    }
}
