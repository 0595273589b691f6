// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn uses_then_redeclares() {
    let s = source(&[
        ("a".into(), vec!["struct x *io_uring_a(int n)".into()]),
        ("M".into(), vec!["#define M(x)".into()]),
    ]);
    assert!(s.contains("#ifndef M\n"));
    assert!(s.contains("\t(void) io_uring_a;\n"));
    assert!(s.ends_with("struct x *io_uring_a(int n);\n"));
}
