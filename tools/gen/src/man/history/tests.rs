// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn node_and_release_are_told_apart() {
    let t = text("io_uring_queue_init", "2.0", true);
    assert!(t.contains("LIBURING_2.0"));
    assert!(t.contains("First in liburing 0.1"));
    let t = text("io_uring_prep_waitid", "2.5", false);
    assert!(t.contains("First in liburing 2.6 (its liburing.h has it)"));
    let t = text("io_uring_setup", "2.0", true);
    assert!(t.contains("liburing 2.0 to 2.2 did not export it"));
    let t = text("io_uring_enable_rings", "2.0", true);
    assert!(t.contains("could not link it"));
    assert!(!text("io_uring_prep_nop", "2.4", false).contains("and earlier"));
}
