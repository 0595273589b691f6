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
    // SAFETY: as above; a null `err` is not written.
    let br = unsafe { io_uring_setup_buf_ring(null_mut(), 8, 0, 0, null_mut()) };
    assert!(br.is_null());
    let n = null_mut();
    // SAFETY: each call refuses the null ring before reading anything else.
    unsafe {
        let mut head = 0u16;
        assert_eq!(io_uring_buf_ring_head(n, 0, &mut head), -libc::EINVAL);
        assert_eq!(io_uring_free_buf_ring(n, null_mut(), 8, 0), -libc::EINVAL);
        assert_eq!(io_uring_register_buf_ring(n, null_mut(), 0), -libc::EINVAL);
        assert_eq!(io_uring_unregister_buf_ring(n, 0), -libc::EINVAL);
    }
}
