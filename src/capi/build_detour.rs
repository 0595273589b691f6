// SPDX-License-Identifier: MIT
//! Build script of the C boundary: compiles `src/capi/detour.c` (the
//! observed entry points' call sites, see that file) with the C compiler
//! the build names, into a static library that rustc bundles into the
//! crate's staticlib, so the Makefile's relink and the unit tests get it
//! alike.
//!
//! The compiler: `CC_<target>` or `TARGET_CC` or `CC` (as the Makefile
//! exports a configured or cross compiler; words after the first are
//! flags), else `cc` when building for the build machine. The archive is
//! written here (one member, no symbol index: rustc copies members), so no
//! target `ar` is needed.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCE: &str = "src/capi/detour.c";
const LIB: &str = "uring_rs_detour";

fn main() {
    println!("cargo:rerun-if-changed={SOURCE}");
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let host = env::var("HOST").expect("cargo sets HOST");
    let per_target = format!("CC_{}", target.replace('-', "_"));
    for var in [per_target.as_str(), "TARGET_CC", "CC"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let cc = [per_target.as_str(), "TARGET_CC", "CC"]
        .iter()
        .find_map(|v| env::var(v).ok().filter(|s| !s.trim().is_empty()))
        .or_else(|| (target == host).then(|| "cc".to_string()))
        .unwrap_or_else(|| {
            panic!("{SOURCE}: no C compiler for {target}: set CC (or CC_{target} / TARGET_CC)")
        });
    let mut words = cc.split_whitespace();
    let program = words.next().expect("a non-empty compiler command");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let object = out.join("detour.o");
    let status = Command::new(program)
        .args(words)
        // A section per function: a member of the split liburing.a gets
        // only the functions its entry point reaches.
        .args([
            "-O2",
            "-g",
            "-fPIC",
            "-ffunction-sections",
            "-fdata-sections",
        ])
        .args(["-Wall", "-Wextra", "-Werror", "-c", SOURCE, "-o"])
        .arg(&object)
        .status()
        .unwrap_or_else(|e| panic!("{SOURCE}: cannot run {program}: {e}"));
    assert!(status.success(), "{SOURCE}: {cc} failed ({status})");
    write_archive(&out.join(format!("lib{LIB}.a")), &object);
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static={LIB}");
}

/// A System V `ar` archive holding `object` alone.
fn write_archive(path: &Path, object: &Path) {
    let data = fs::read(object).expect("the object just compiled");
    let mut ar = b"!<arch>\n".to_vec();
    // name/16, mtime/12, uid/6, gid/6, mode/8, size/10, then "`\n".
    let header = format!(
        "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
        "detour.o/",
        0,
        0,
        0,
        644,
        data.len()
    );
    ar.extend_from_slice(header.as_bytes());
    ar.extend_from_slice(&data);
    if data.len() % 2 == 1 {
        ar.push(b'\n');
    }
    fs::write(path, ar).expect("OUT_DIR is writable");
}
