// SPDX-License-Identifier: MIT
use super::*;
use std::path::Path;
use std::process::Command;

/// Compiles `src` against the headers in `include_dir`, as C (gnu11) and
/// as C++17, with `-Werror` when `strict`. `Err` carries the complaints.
fn compile(tag: &str, src: &str, include_dir: &Path, strict: bool) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("uring-abi-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = dir.join("check.c");
    std::fs::write(&file, src).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut errors = String::new();
    for (compiler, std) in [
        ("cc", &["-std=gnu11"][..]),
        ("c++", &["-std=c++17", "-x", "c++"][..]),
    ] {
        let mut cmd = Command::new(compiler);
        cmd.args(["-Wall", "-Wextra", "-c", "-o"])
            .arg(dir.join("check.o"))
            .args(std)
            .arg("-I")
            .arg(include_dir)
            .arg(&file);
        if strict {
            cmd.arg("-Werror");
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {compiler}: {e}"))?;
        if !out.status.success() {
            let _ = writeln!(
                errors,
                "--- {compiler} ({tag}) failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[test]
fn our_headers_agree_with_rust() {
    let (src, n) = source();
    println!("abi-assert: {n:?}");
    assert!(n.macros + n.enumerators >= 270 && n.structs >= 50 && n.members >= 300);
    if let Err(e) = compile("ours", &src, &crate::repo().join("include"), true) {
        panic!("include/ disagrees with the Rust tables:\n{e}");
    }
}

#[test]
fn wrong_tables_fail_the_check() {
    // A wrong value, C type, macro-ness, enum, offset, member type, or an
    // unknown name: each must fail to compile against our headers.
    use uring_uapi::{CConst, CInline, CItem, CMember, CType};
    const fn c(name: &'static str, value: i128) -> CConst {
        CConst {
            name,
            value,
            expr: "",
            doc: &[],
        }
    }
    const fn group(kind: CGroupKind, consts: &'static [CConst]) -> CGroup {
        CGroup {
            kind,
            doc: &[],
            consts,
        }
    }
    const fn member(name: &'static str, cty: &'static str, offset: usize) -> CItem {
        CItem::Member(CMember {
            name,
            cty,
            offset,
            size: 8,
            doc: &[],
            rust: None,
        })
    }
    const GROUPS: &[CGroup] = &[
        group(
            CGroupKind::Enum(Some("io_uring_op")),
            &[c("IORING_OP_READV", 2)],
        ),
        group(
            CGroupKind::Macros(CType::Int),
            &[c("IORING_SETUP_SQPOLL", 2)],
        ),
        group(CGroupKind::Enum(None), &[c("IORING_SETUP_SQPOLL", 2)]),
        group(
            CGroupKind::Macros(CType::UInt),
            &[c("IORING_NO_SUCH_THING", 0)],
        ),
        group(
            CGroupKind::Enum(Some("io_uring_register_op")),
            &[c("IORING_OP_NOP", 0)],
        ),
    ];
    let groups = GROUPS;
    for (i, g) in groups.iter().enumerate() {
        let mut body = String::new();
        const_asserts(&mut body, g, &mut Counts::default());
        let r = compile(
            &format!("bad{i}"),
            &wrap(&body, &Counts::default()),
            &crate::repo().join("include"),
            true,
        );
        assert!(
            r.is_err(),
            "wrong constant group {i} ({:?}) was accepted",
            g.consts[0].name
        );
    }
    const fn layout(name: &'static str, size: usize, items: &'static [CItem]) -> CLayout {
        CLayout {
            name,
            doc: &[],
            union: false,
            size,
            align: 8,
            items,
        }
    }
    const NESTED: CLayout = CLayout {
        union: true,
        ..layout("nested", 8, &[member("off", "__u64", 0)])
    };
    const LAYOUTS: &[CLayout] = &[
        layout("io_uring_cqe", 16, &[member("user_data", "__u64", 8)]),
        layout("io_uring_cqe", 16, &[member("user_data", "__s64", 0)]),
        layout(
            "io_uring_sqe",
            64,
            &[CItem::Inline(CInline {
                name: Some("nested"),
                offset: 8,
                doc: &[],
                layout: &NESTED,
                rust: 8,
            })],
        ),
    ];
    for (i, l) in LAYOUTS.iter().enumerate() {
        let mut body = String::new();
        layout_asserts(&mut body, l, &mut Counts::default());
        let r = compile(
            &format!("badlayout{i}"),
            &wrap(&body, &Counts::default()),
            &crate::repo().join("include"),
            true,
        );
        assert!(r.is_err(), "wrong layout {i} was accepted");
    }
}
