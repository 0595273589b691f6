// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn generated_headers_compile_alone_in_c_and_cxx() {
    // Each generated header must be usable on its own, in every language
    // level liburing users build with.
    let dir = std::env::temp_dir().join(format!("uring-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = String::new();
    for (path, _) in generated_files() {
        let include = path.strip_prefix("include/").expect("under include/");
        let src = dir.join("alone.c");
        std::fs::write(&src, format!("#include <{include}>\nint alone;\n")).expect("write");
        for (compiler, std) in [
            ("cc", "-std=c11"),
            ("cc", "-std=gnu11"),
            ("c++", "-std=c++98"),
            ("c++", "-std=c++11"),
            ("c++", "-std=c++17"),
        ] {
            let mut cmd = std::process::Command::new(compiler);
            if compiler == "c++" {
                cmd.args(["-x", "c++"]);
            }
            let out = cmd
                .args([std, "-Wall", "-Wextra", "-Werror", "-c", "-o"])
                .arg(dir.join("alone.o"))
                .arg("-I")
                .arg(crate::repo().join("include"))
                .arg(&src)
                .output()
                .expect("run the C compiler");
            if !out.status.success() {
                let _ = writeln!(
                    failures,
                    "--- {include} with {compiler} {std}:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn tables_are_unique() {
    let mut consts = std::collections::HashSet::new();
    let mut structs = std::collections::HashSet::new();
    for m in all_modules() {
        for g in m.consts {
            for c in g.consts {
                assert!(consts.insert(c.name), "{} is listed twice", c.name);
            }
        }
        for l in m.layouts {
            assert!(structs.insert(l.name), "struct {} is listed twice", l.name);
        }
    }
    // Spot checks against the kernel's numbering, independent of the tables.
    assert_eq!(uapi::IORING_REGISTER_LAST, 38);
    assert!(consts.len() >= 270 && structs.len() >= 50);
}
