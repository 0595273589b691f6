// SPDX-License-Identifier: MIT
//! Build script of the C boundary: compiles `src/capi/detour.c` (the
//! observed entry points' call sites, see that file) with the C compiler
//! the build names, into a static library that rustc bundles into the
//! crate's staticlib, so the Makefile's relink and the unit tests get it
//! alike.
//!
//! The compiler: `CC_<target>` or `TARGET_CC` or `CC` (as the Makefile
//! exports a configured or cross compiler; words after the first are
//! flags), else `cc` when building for the build machine. A cargo build for
//! another target with none named (a compile-only check for a target
//! without a cross compiler) gets a library without the shims, whose
//! observed calls name no call site (`cfg(uring_no_detour)`), and a
//! warning saying so. The archive is
//! written here, its symbol index read from the object's ELF symbol table
//! (a linker given the archive directly, as for the unit tests with older
//! rustc, needs the index), so no target `ar` is needed.

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
    println!("cargo:rustc-check-cfg=cfg(uring_no_detour)");
    let Some(cc) = [per_target.as_str(), "TARGET_CC", "CC"]
        .iter()
        .find_map(|v| env::var(v).ok().filter(|s| !s.trim().is_empty()))
        .or_else(|| (target == host).then(|| "cc".to_string()))
    else {
        println!(
            "cargo:warning={SOURCE}: no C compiler for {target} (set CC, {per_target} or TARGET_CC): built without call sites"
        );
        println!("cargo:rustc-cfg=uring_no_detour");
        return;
    };
    let mut words = cc.split_whitespace();
    let program = words.next().expect("a non-empty compiler command");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let object = out.join("detour.o");
    // The debug information names the tree as `.` (the build directory
    // would otherwise reach the library's build-id: two builds of the same
    // source in different places must give the same bytes).
    let tree = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let status = Command::new(program)
        .args(words)
        .arg(format!("-ffile-prefix-map={tree}=."))
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

/// A System V `ar` archive holding `object` alone, with the index of the
/// symbols it defines.
fn write_archive(path: &Path, object: &Path) {
    let data = fs::read(object).expect("the object just compiled");
    let names = defined_globals(&data);
    // The index: the count and each name's member offset (big-endian
    // 32-bit words), then the names, NUL-terminated.
    let index_len = 4 + 4 * names.len() + names.iter().map(|n| n.len() + 1).sum::<usize>();
    let padded = |n: usize| n + n % 2;
    let member_at = 8 + 60 + padded(index_len);
    let mut index = Vec::with_capacity(index_len);
    index.extend_from_slice(&u32::try_from(names.len()).unwrap().to_be_bytes());
    for _ in &names {
        index.extend_from_slice(&u32::try_from(member_at).unwrap().to_be_bytes());
    }
    for n in &names {
        index.extend_from_slice(n);
        index.push(0);
    }
    let mut ar = b"!<arch>\n".to_vec();
    push_member(&mut ar, "/", &index);
    push_member(&mut ar, "detour.o/", &data);
    fs::write(path, ar).expect("OUT_DIR is writable");
}

fn push_member(ar: &mut Vec<u8>, name: &str, data: &[u8]) {
    // name/16, mtime/12, uid/6, gid/6, mode/8, size/10, then "`\n".
    let header = format!(
        "{name:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
        0,
        0,
        0,
        644,
        data.len()
    );
    ar.extend_from_slice(header.as_bytes());
    ar.extend_from_slice(data);
    if data.len() % 2 == 1 {
        ar.push(b'\n');
    }
}

/// The names of the global and weak symbols an ELF relocatable object
/// defines (either class, either byte order).
fn defined_globals(elf: &[u8]) -> Vec<Vec<u8>> {
    assert_eq!(
        &elf[..4],
        b"\x7fELF",
        "{SOURCE}: the compiler wrote no ELF object"
    );
    let wide = elf[4] == 2;
    let big = elf[5] == 2;
    let int = |at: usize, len: usize| -> usize {
        let b = &elf[at..at + len];
        let fold = |acc: u64, &x: &u8| acc << 8 | u64::from(x);
        let v = if big {
            b.iter().fold(0, fold)
        } else {
            b.iter().rev().fold(0, fold)
        };
        usize::try_from(v).unwrap()
    };
    let word = if wide { 8 } else { 4 };
    let (shoff, shentsize, shnum) = if wide {
        (int(0x28, 8), int(0x3a, 2), int(0x3c, 2))
    } else {
        (int(0x20, 4), int(0x2e, 2), int(0x30, 2))
    };
    // A section header's type, file offset, size and link.
    let section = |i: usize| {
        let h = shoff + i * shentsize;
        let offset = h + 8 + 2 * word;
        (
            int(h + 4, 4),
            int(offset, word),
            int(offset + word, word),
            int(offset + 2 * word, 4),
        )
    };
    const SHT_SYMTAB: usize = 2;
    let Some((_, sym_at, sym_size, strtab)) = (0..shnum).map(section).find(|s| s.0 == SHT_SYMTAB)
    else {
        return Vec::new();
    };
    let str_at = section(strtab).1;
    let sym_len = if wide { 24 } else { 16 };
    let mut names = Vec::new();
    for sym in (sym_at..sym_at + sym_size).step_by(sym_len) {
        let (info, shndx) = if wide {
            (elf[sym + 4], int(sym + 6, 2))
        } else {
            (elf[sym + 12], int(sym + 14, 2))
        };
        let (global, weak) = (1, 2);
        let bind = info >> 4;
        if (bind == global || bind == weak) && shndx != 0 {
            let name = &elf[str_at + int(sym, 4)..];
            let end = name.iter().position(|&c| c == 0).unwrap();
            names.push(name[..end].to_vec());
        }
    }
    names
}
