// SPDX-License-Identifier: MIT
//! `owner-exited`: a `SINGLE_ISSUER` or `DEFER_TASKRUN` ring answered
//! -EEXIST because the thread that owns it has exited. The kernel ties
//! such a ring to its owner for good, so no other thread can submit to it
//! (nor, with `DEFER_TASKRUN`, wait on it), and requests the owner left in
//! flight lose the thread their completion work runs in.
//!
//! Judged only where it is a sure thing: the owner is known, this is the
//! process that set the ring up (not a child after `fork`), and the
//! owner's directory under `/proc/self/task` is gone while this thread's
//! is there (`threads::thread_gone`). It is made on the -EEXIST path
//! alone, so the common path pays nothing.

use super::fork::FORK_GEN;
use super::report::{head, report, wants, Call};
use super::state::RingCheck;
use super::threads::{gettid, thread, thread_gone};
use crate::uapi::IORING_SETUP_DEFER_TASKRUN;
use core::sync::atomic::Ordering;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const EXITED: u32 = 1 << 14;

/// On -EEXIST: whether the ring's owner has exited (then reported here,
/// once, and `owner-thread` has nothing to add).
#[cold]
#[inline(never)]
pub(super) fn check(c: &mut RingCheck, call: Call) -> bool {
    if c.owner_tid <= 0 || c.fork_gen != FORK_GEN.load(Ordering::Relaxed) {
        return false;
    }
    // SAFETY: no preconditions.
    if c.pid != unsafe { libc::getpid() } || c.owner_tid == gettid() || !thread_gone(c.owner_tid) {
        return false;
    }
    if !wants(c, EXITED) {
        return true;
    }
    let defer = c.flags & IORING_SETUP_DEFER_TASKRUN != 0;
    let mut l = head(c, "owner-exited", call);
    l.s("-EEXIST: the thread ");
    thread(&mut l, c.owner_tid, &c.owner_name);
    l.s(if defer {
        " that owns this IORING_SETUP_DEFER_TASKRUN ring has exited"
    } else {
        " that owns this IORING_SETUP_SINGLE_ISSUER ring has exited"
    });
    if !c.lost() && c.in_flight != 0 {
        l.s(", leaving ")
            .u(u64::from(c.in_flight))
            .s(" request(s) in flight");
    }
    let why = if defer {
        "the kernel ties the ring to its owner thread for good: once it has exited no other thread may submit to the ring or wait on it (-EEXIST), and the completion work of the requests it left in flight, which only the owner runs, never runs, so their CQEs never come"
    } else {
        "the kernel ties the ring to its owner thread for good: once it has exited no other thread may submit to the ring (-EEXIST); requests it left in flight that still wait for an event lose the thread their completion work runs in, and end cancelled or failed (-ECANCELED, -EFAULT) instead of completing"
    };
    report(
        c,
        EXITED,
        l,
        why,
        "keep the owner thread for the ring's whole life: it submits (and, with DEFER_TASKRUN, waits) until its requests have completed and it tears the ring down itself; pass work to it from other threads (a queue, or IORING_OP_MSG_RING); where threads come and go (a worker pool), set rings up without SINGLE_ISSUER and DEFER_TASKRUN",
    );
    true
}
