// SPDX-License-Identifier: MIT
use super::*;
use crate::ring::LiveRing;
use crate::test_ring::ring;
use core::ptr::null_mut;

#[test]
fn null_pointers_are_refused() {
    let mut cqe = null_mut();
    // SAFETY: (whole test) null is allowed for every pointer checked.
    unsafe {
        assert_eq!(io_uring_submit(null_mut()), -libc::EINVAL);
        assert_eq!(io_uring_submit_and_wait(null_mut(), 1), -libc::EINVAL);
        assert_eq!(io_uring_get_events(null_mut()), -libc::EINVAL);
        assert_eq!(
            io_uring_wait_cqe_timeout(null_mut(), &mut cqe, null_mut()),
            -libc::EINVAL
        );
        assert_eq!(
            __io_uring_get_cqe(null_mut(), &mut cqe, 0, 1, null_mut()),
            -libc::EINVAL
        );
        assert!(io_uring_get_sqe(null_mut()).is_null());
        assert_eq!(io_uring_peek_batch_cqe(null_mut(), &mut cqe, 1), 0);
        // Every submit-and-wait and wait variant checks the ring first.
        let n = null_mut();
        assert_eq!(__io_uring_sqring_wait(n), -libc::EINVAL);
        assert_eq!(io_uring_submit_and_get_events(n), -libc::EINVAL);
        assert_eq!(
            io_uring_submit_and_wait_min_timeout(n, &mut cqe, 1, null_mut(), 0, null_mut()),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_submit_and_wait_reg(n, &mut cqe, 1, 0),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_submit_and_wait_timeout(n, &mut cqe, 1, null_mut(), null_mut()),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_wait_cqes(n, &mut cqe, 1, null_mut(), null_mut()),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_wait_cqes_min_timeout(n, &mut cqe, 1, null_mut(), 0, null_mut()),
            -libc::EINVAL
        );
    }
}

#[test]
fn c_round_trip() {
    let mut owned = ring!(4);
    let ring: *mut io_uring = &mut owned.0;
    // SAFETY: (whole test) `ring` is live until `owned` is dropped.
    unsafe {
        // A null out pointer where liburing would write the CQE.
        assert_eq!(
            io_uring_wait_cqes(ring, null_mut(), 1, null_mut(), null_mut()),
            -libc::EINVAL
        );
        let sqe = io_uring_get_sqe(ring);
        assert!(!sqe.is_null());
        (*sqe).opcode = crate::uapi::IORING_OP_NOP;
        (*sqe).fd = -1;
        (*sqe).user_data = 77;
        assert_eq!(io_uring_submit(ring), 1);
        let mut cqes = [null_mut(); 2];
        let mut n = 0;
        for _ in 0..1000 {
            n = io_uring_peek_batch_cqe(ring, cqes.as_mut_ptr(), 2);
            if n != 0 {
                break;
            }
            let mut cqe = null_mut();
            assert_eq!(__io_uring_get_cqe(ring, &mut cqe, 0, 1, null_mut()), 0);
        }
        assert_eq!(n, 1);
        assert_eq!((*cqes[0]).user_data, 77);
        // With a null array and a non-zero count nothing is written.
        assert_eq!(io_uring_peek_batch_cqe(ring, null_mut(), 2), 0);
        queue::cq_advance(LiveRing::from_ptr(ring).unwrap(), 1);
        let mut cqe = null_mut();
        let mut ts = __kernel_timespec {
            tv_sec: 0,
            tv_nsec: 5_000_000,
        };
        assert_eq!(
            io_uring_wait_cqe_timeout(ring, &mut cqe, &mut ts),
            -libc::ETIME
        );
    }
}

#[test]
fn null_batch_still_lets_the_kernel_post_pending_completions() {
    use crate::test_ring::ring_or_skip;
    use crate::uapi::{
        IORING_OP_READ, IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER,
        IORING_SETUP_TASKRUN_FLAG,
    };
    // DEFER_TASKRUN with TASKRUN_FLAG: a read completed by a write waits as
    // task work, flagged in the SQ ring, until the ring enters. A peek with
    // no room for CQEs still enters (as liburing's does), so the CQE is
    // in the ring afterwards.
    let mut owned = ring_or_skip!(
        4,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG
    );
    let ring: *mut io_uring = &mut owned.0;
    let mut fds = [0i32; 2];
    let mut buf = [0u8; 1];
    // SAFETY: (whole test) `ring` is live until `owned` is dropped; `fds`
    // has room for two descriptors, `buf` outlives the read.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let sqe = io_uring_get_sqe(ring);
        assert!(!sqe.is_null());
        (*sqe).opcode = IORING_OP_READ;
        (*sqe).fd = fds[0];
        (*sqe).addr = buf.as_mut_ptr() as u64;
        (*sqe).len = 1;
        (*sqe).off = u64::MAX;
        (*sqe).user_data = 5;
        assert_eq!(io_uring_submit(ring), 1);
        assert_eq!(libc::write(fds[1], b"x".as_ptr().cast(), 1), 1);
        let live = LiveRing::from_ptr(ring).unwrap();
        assert_eq!(queue::cq_ready(live), 0);
        assert_eq!(io_uring_peek_batch_cqe(ring, null_mut(), 0), 0);
        // Measured (as capi-tests/defer_taskrun.c): 6.1 runs no deferred
        // task work for an enter without a wait, 6.12 and later do; on 6.1
        // a wait delivers the completion.
        if crate::test_ring::kernel_release_at_least((6, 12)) {
            assert_eq!(queue::cq_ready(live), 1);
        } else {
            let mut cqe = null_mut();
            assert_eq!(
                io_uring_wait_cqes(ring, &mut cqe, 1, null_mut(), null_mut()),
                0
            );
            assert_eq!((*cqe).user_data, 5);
        }
        queue::cq_advance(live, 1);
        libc::close(fds[0]);
        libc::close(fds[1]);
    }
}

#[test]
fn sqring_wait_reports_the_kernels_error() {
    // The kernel's answer comes back as -errno: with an enter descriptor
    // that is no ring, -EBADF (0 would claim a free SQ slot).
    let mut owned = ring!(4);
    let ring: *mut io_uring = &mut owned.0;
    // SAFETY: `ring` is live until `owned` is dropped; the descriptor is
    // put back before that.
    unsafe {
        let fd = (*ring).enter_ring_fd;
        (*ring).enter_ring_fd = -1;
        let ret = __io_uring_sqring_wait(ring);
        (*ring).enter_ring_fd = fd;
        assert_eq!(ret, -libc::EBADF);
        assert_eq!(__io_uring_sqring_wait(ring), 0);
    }
}
