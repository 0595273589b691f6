// SPDX-License-Identifier: MIT
//! What the submit calls and the wait loop tell an installed observer when
//! the call is observed (its ring handle is a `LiveRing<Watched>`, as the
//! C boundary's observed path makes it), and that an unobserved call tells
//! it nothing: checked against the running kernel.
//!
//! Each test runs its body in a child process under the recording
//! observer of [`crate::test_observer`], which says why.
use super::tests::{close_fds, cqe_out, nop, pipe, prep};
use super::*;
use crate::observe::Watch;
use crate::syscall::Errno;
use crate::test_observer::{in_observed_child, told, wake_anyway, Told, WAKE_FD};
use crate::test_ring::TestRing as Ring;
use crate::uapi::__kernel_timespec;
use crate::uapi::IORING_OP_READ;
use core::ptr::{self, null_mut};
use core::sync::atomic::Ordering;

/// The CQE a wait returned: (user_data, res), released.
fn take_cqe(ring: LiveRing, cqe: *mut io_uring_cqe) -> (u64, i32) {
    assert!(!cqe.is_null(), "the wait returned no CQE");
    // SAFETY: a CQE a wait returned is readable until released.
    let v = unsafe { ((*cqe).user_data, (*cqe).res) };
    cq_advance(ring, 1);
    v
}

/// A wait that times out, through the timed (`IORING_ENTER_EXT_ARG`) path:
/// its result.
fn timed_wait_that_expires<W: Watch>(ring: LiveRing<W>) -> SysResult<u32> {
    let ts = __kernel_timespec {
        tv_sec: 0,
        tv_nsec: 1_000_000,
    };
    let mut cqe = null_mut();
    wait_cqe_timeout_waited(ring, cqe_out(&mut cqe), &ts).result()
}

#[test]
fn an_observed_call_is_told_with_its_enters() {
    in_observed_child!("observed");
    let mut r = Ring::new(8, 0).unwrap();
    // (Setup and teardown are reported by the C boundary, not here.)
    told();

    // A plain wait that submits: one submit report (the call reaped too),
    // one enter, timed; no report before sleeping (it submits).
    nop(r.live(), 1);
    let n = flush_sq(r.live());
    assert_eq!(n, 1);
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.watched(), cqe_out(&mut cqe), n, 1, ptr::null()),
        Ok(1)
    );
    assert_eq!(take_cqe(r.live(), cqe), (1, 0));
    assert_eq!(
        told(),
        [Told::Submitted {
            reaped: true,
            result: 1,
            enters: 1,
            timed: true
        }]
    );

    // The submit calls: told whether the call reaped too (it waits, or
    // asks for events).
    nop(r.live(), 4);
    assert_eq!(submit(r.watched()), Ok(1));
    nop(r.live(), 5);
    assert_eq!(submit_and_wait(r.watched(), 1), Ok(1));
    let submitted = |reaped| Told::Submitted {
        reaped,
        result: 1,
        enters: 1,
        timed: true,
    };
    assert_eq!(told(), [submitted(false), submitted(true)]);
    for user_data in [4, 5] {
        let mut cqe = null_mut();
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
            Ok(0)
        );
        assert_eq!(take_cqe(r.live(), cqe), (user_data, 0));
    }

    // A plain wait that submits nothing, with one SQE published but not
    // yet consumed by the kernel: told before sleeping, with that SQE as
    // unsubmitted. The report itself writes the byte the pending read
    // completes with.
    let (rd, wr) = pipe();
    let mut byte = 0u8;
    let addr = ptr::from_mut(&mut byte) as u64;
    prep(r.live(), IORING_OP_READ, rd, addr, 1, u64::MAX, 2);
    assert_eq!(submit(r.live()), Ok(1));
    nop(r.live(), 3);
    assert_eq!(flush_sq(r.live()), 1);
    told();
    WAKE_FD.store(wr, Ordering::Relaxed);
    let backstop = wake_anyway();
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.watched(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    backstop.join().unwrap();
    assert_eq!(take_cqe(r.live(), cqe), (2, 1));
    assert_eq!(byte, b'x');
    assert_eq!(
        told(),
        [
            Told::Waiting {
                unsubmitted: 1,
                wait_nr: 1,
                timed: false
            },
            Told::Reaped {
                result: 0,
                enters: 1,
                timed: true
            }
        ]
    );
    // The NOP left published, submitted and reaped (reports not checked).
    assert_eq!(submit(r.live()), Ok(1));
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    assert_eq!(take_cqe(r.live(), cqe), (3, 0));
    close_fds(&[rd, wr]);

    // A wait with a timeout that expires: told before sleeping (with the
    // timeout), then at its end with its error and its one enter, timed.
    // Kernels before 5.11 (no IORING_FEAT_EXT_ARG, asked of uname, not of
    // the ring) take the fallback through a timeout SQE, which reports
    // otherwise.
    if crate::test_ring::kernel_release_at_least((5, 11)) {
        told();
        assert_eq!(timed_wait_that_expires(r.watched()), Err(Errno::ETIME));
        assert_eq!(
            told(),
            [
                Told::Waiting {
                    unsubmitted: 0,
                    wait_nr: 1,
                    timed: true
                },
                Told::Reaped {
                    result: Errno::ETIME.neg(),
                    enters: 1,
                    timed: true
                }
            ]
        );
    }
}

#[test]
fn an_unobserved_call_tells_the_observer_nothing() {
    in_observed_child!("unobserved");
    let mut r = Ring::new(8, 0).unwrap();
    // A plain wait that submits, one whose CQE is already there, and a
    // timed one that expires, on the fast path's ring handle: results as
    // ever, and no report at all, though an observer is installed (the C
    // boundary decides, by the handle it makes).
    nop(r.live(), 1);
    let n = flush_sq(r.live());
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), n, 1, ptr::null()),
        Ok(1)
    );
    assert_eq!(take_cqe(r.live(), cqe), (1, 0));
    nop(r.live(), 2);
    assert_eq!(submit(r.live()), Ok(1));
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    assert_eq!(take_cqe(r.live(), cqe), (2, 0));
    assert_eq!(timed_wait_that_expires(r.live()), Err(Errno::ETIME));
    drop(r);
    assert_eq!(told(), []);
}
