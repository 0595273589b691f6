// SPDX-License-Identifier: MIT
use super::*;
use uring_core::test_ring::{require_uring, skip};

#[test]
fn known_flags_are_known() {
    // flag_known asks the kernel with a test ring.
    require_uring!();
    for (name, v) in names::members(SETUP_FLAG) {
        let bit = v as u32;
        if sysinfo::kernel_at_least(since::lookup(since::SETUP_FLAGS, bit).unwrap()) {
            assert!(flag_known(bit), "{name}");
        }
    }
    assert!(!flag_known(1 << 30));
}

#[test]
fn no_test_ring_starts_a_kernel_thread() {
    for bit in (0..32).map(|b| 1u32 << b) {
        if let Some(flags) = probe_flags(bit) {
            assert_eq!(flags & IORING_SETUP_SQPOLL, 0, "probe for bit {bit:#x}");
        }
    }
    assert_eq!(probe_flags(IORING_SETUP_SQ_AFF), None);
    assert_eq!(probe_flags(IORING_SETUP_SQPOLL), None);
}

#[test]
fn combinations_are_named() {
    // On a kernel without DEFER_TASKRUN (6.1) the unknown flag is the
    // diagnosis instead; asked with a plain setup of the valid pair.
    require_uring!();
    if try_setup(
        IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
        0,
        -1,
    )
    .is_err()
    {
        skip!("the kernel lacks IORING_SETUP_DEFER_TASKRUN");
    }
    let mut l = Line::new();
    let p = io_uring_params {
        flags: IORING_SETUP_DEFER_TASKRUN,
        ..Default::default()
    };
    assert!(cause(&mut l, 4, &p, Errno::EINVAL));
    let text = core::str::from_utf8(l.as_bytes()).unwrap();
    assert!(
        text.starts_with("IORING_SETUP_DEFER_TASKRUN requires IORING_SETUP_SINGLE_ISSUER"),
        "{text}"
    );
}
