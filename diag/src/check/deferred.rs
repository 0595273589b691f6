// SPDX-License-Identifier: MIT
//! `deferred-pending`: a `DEFER_TASKRUN` ring torn down
//! (`io_uring_queue_exit`) with requests in flight whose owner thread never
//! entered the kernel for completions since it submitted them. Their completion work
//! runs only when the owner waits or gets events; other threads that only
//! peek (inline `io_uring_peek_cqe`, which never calls the library) cannot
//! run it, so the checker sees nothing until the end, and says so then.
//!
//! `DEFER_TASKRUN` rings always take the general submit path, so the
//! bookkeeping here costs the common path nothing.

use super::report::{head, report, wants, Call};
use super::state::{RingCheck, WAYS};
use crate::uapi::IORING_SETUP_DEFER_TASKRUN;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const PENDING: u32 = 1 << 12;

/// A submit call on a DEFER_TASKRUN ring: `entered_for_events` when it
/// waited (the kernel ran the ring's task work), else new requests now
/// wait for the owner.
pub(super) fn submitted(c: &mut RingCheck, entered_for_events: bool, result: i32) {
    if entered_for_events {
        c.events_entered = true;
    } else if result > 0 {
        c.events_entered = false;
    }
}

/// A wait or peek call entered the kernel (`result` not -EEXIST: the
/// owner's, which runs the task work).
pub(super) fn reaped(c: &mut RingCheck, enters: u32, result: i32) {
    if enters != 0 && result != -libc::EEXIST {
        c.events_entered = true;
    }
}

/// The ring's end (`io_uring_queue_exit`). (A process that exits without
/// it is not followed to its end: no hook runs there.)
pub(super) fn at_end(c: &mut RingCheck, call: Call) {
    if c.flags & IORING_SETUP_DEFER_TASKRUN == 0
        || c.lost()
        || c.in_flight == 0
        || c.events_entered
        || !wants(c, PENDING)
    {
        return;
    }
    // A multishot request still armed at the end is the usual case, not
    // this mistake: only the others count.
    let mut single = 0u32;
    for (b, &bits) in c.occupied.iter().enumerate() {
        for way in 0..WAYS {
            if bits & (1 << way) != 0 {
                if let Some(r) = c.reqs.get(b * WAYS + way) {
                    if !r.multishot() {
                        single += r.count();
                    }
                }
            }
        }
    }
    if single == 0 {
        return;
    }
    let mut l = head(c, "deferred-pending", call);
    l.u(u64::from(single))
        .s(" request(s) still in flight on this IORING_SETUP_DEFER_TASKRUN ring, and its owner thread never entered the kernel for completions (a wait, io_uring_get_events, a submit-and-wait) since submitting them");
    report(
        c,
        PENDING,
        l,
        "with DEFER_TASKRUN a request's completion work runs only when the owner thread (the submitter) enters the kernel to wait or get events; peeking, by it or by other threads, never runs it, so their CQEs never came",
        "have the owner thread wait (io_uring_wait_cqe*, io_uring_submit_and_wait*) or call io_uring_get_events before peeking; if another thread must reap, set up the ring without IORING_SETUP_DEFER_TASKRUN",
    );
}
