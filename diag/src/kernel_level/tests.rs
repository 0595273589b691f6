// SPDX-License-Identifier: MIT
use super::*;
use uring_core::test_ring::require_uring;

#[test]
fn never_below_the_version_number() {
    let uname = crate::sysinfo::kernel_version();
    assert!(release() >= uname);
    // The cached answer is the same.
    assert_eq!(release(), release());
}

#[test]
fn evidence_dates_the_features_this_kernel_reports() {
    require_uring!();
    // Every kernel that sets up a ring reports IORING_FEAT_SINGLE_MMAP (5.4)
    // or newer, and supports IORING_OP_NOP (5.1).
    assert!(evidence() >= Some((5, 4)));
    assert!(has((5, 4)));
}

#[test]
fn pbuf_ring_flags_as_the_kernel_takes_them() {
    require_uring!();
    assert!(!pbuf_ring_flag_known(1 << 15));
    if crate::sysinfo::kernel_at_least((6, 12)) {
        assert!(pbuf_ring_flag_known(IOU_PBUF_RING_INC));
    }
}
