// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn version_is_2_15() {
    assert_eq!((major(), minor()), (2, 15));
}

#[test]
fn check_version_is_true_only_for_newer_requests() {
    // Requirements this library meets.
    for (ma, mi) in [(2, 15), (2, 0), (2, -1), (1, 99), (0, 0), (-1, 100)] {
        assert!(!check_version(ma, mi), "{ma}.{mi}");
    }
    // Requirements it does not meet.
    for (ma, mi) in [(2, 16), (2, 100), (3, 0), (3, -5), (i32::MAX, 0)] {
        assert!(check_version(ma, mi), "{ma}.{mi}");
    }
}
