// SPDX-License-Identifier: MIT
//! `peek-only`: a `DEFER_TASKRUN` ring with requests in flight that the
//! program only peeks at, so the kernel never runs their completion work.

use super::report::{head, report, wants, Call};
use super::state::RingCheck;
use crate::uapi::IORING_SETUP_DEFER_TASKRUN;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const PEEK: u32 = 1 << 1;
/// Consecutive peeks that did not enter, with requests in flight, that make
/// a finding on a DEFER_TASKRUN ring.
const PEEK_STREAK: u32 = 4096;

/// A call that neither found a CQE nor entered the kernel to get events:
/// on a DEFER_TASKRUN ring with requests in flight, many in a row mean the
/// kernel is never given the chance to complete them.
#[inline(always)]
pub(super) fn idle_call(c: &mut RingCheck, call: Call, result: i32) {
    if c.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        idle_deferred(c, call, result);
    }
}

#[inline(never)]
pub(super) fn idle_deferred(c: &mut RingCheck, call: Call, result: i32) {
    if c.lost() || c.in_flight == 0 || result < 0 && result != -libc::EAGAIN {
        return;
    }
    c.peeks_idle += 1;
    if c.peeks_idle >= PEEK_STREAK && wants(c, PEEK) {
        let mut l = head(c, "peek-only", call);
        l.u(u64::from(c.peeks_idle))
            .s(" calls in a row submitted or peeked without entering the kernel to get events, with ")
            .u(u64::from(c.in_flight))
            .s(" request(s) in flight on this IORING_SETUP_DEFER_TASKRUN ring");
        report(
            c,
            PEEK,
            l,
            "with DEFER_TASKRUN the kernel completes requests only when the owner thread enters it to wait or get events; submitting and peeking never do, so these completions arrive late or never",
            "wait (io_uring_wait_cqe*, io_uring_submit_and_wait*) instead of spinning, or call io_uring_get_events (or io_uring_submit_and_get_events) before peeking",
        );
    }
}
