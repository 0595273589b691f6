// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn expressions_take_the_c_type() {
    assert_eq!(c_expr("1 << 3", "U"), "(1U << 3)");
    assert_eq!(c_expr("1 << A", "U"), "(1U << A)");
    assert_eq!(c_expr("!0", "U"), "(~0U)");
    assert_eq!(c_expr("0x0800_0000", "ULL"), "0x08000000ULL");
    assert_eq!(c_expr("16", ""), "16");
    assert_eq!(c_expr("-2", ""), "(-2)");
    assert_eq!(c_expr("A | B", "U"), "(A | B)");
    assert_eq!(c_expr("A + 1", ""), "(A + 1)");
    assert_eq!(
        c_expr("!((1u64 << S) - 1)", "ULL"),
        "(~((1ULL << S) - 1ULL))"
    );
    assert_eq!(c_expr("0xf800_0000", "ULL"), "0xf8000000ULL");
    assert_eq!(declaration("__u32[3]", "resv"), "__u32 resv[3]");
    assert_eq!(declaration("unsigned *", "khead"), "unsigned *khead");
    assert_eq!(declaration("__u64[]", "big_cqe"), "__u64 big_cqe[]");
}
