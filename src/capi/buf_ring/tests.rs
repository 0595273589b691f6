// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn setup_buf_ring_refuses_a_null_ring_through_err() {
    // As a failed registration: no ring memory, the negated errno in `err`.
    let mut err = 0;
    // SAFETY: a null ring is refused before anything is mapped; `err` is ours.
    let br = unsafe { io_uring_setup_buf_ring(null_mut(), 8, 0, 0, &mut err) };
    assert!(br.is_null());
    assert_eq!(err, -libc::EINVAL);
}
