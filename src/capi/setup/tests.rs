// SPDX-License-Identifier: MIT
use super::*;
use core::ptr::null_mut;

#[test]
fn internal_setup_refuses_null_params() {
    // liburing's internal setup entry (its own tests link it) reads `p` at
    // once: a null one is -EINVAL here, not a crash.
    let mut ring = geometry::empty_ring();
    // SAFETY: a null `p` is refused before `ring` or `buf` is touched.
    let ret = unsafe { __io_uring_queue_init_params(8, &mut ring, null_mut(), null_mut(), 0) };
    assert_eq!(ret, -libc::EINVAL);
}
