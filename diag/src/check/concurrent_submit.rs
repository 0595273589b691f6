// SPDX-License-Identifier: MIT
//! `concurrent-submit`: two submit calls on one ring at the same time (two
//! threads without a lock between them, or a signal handler submitting
//! while the thread it interrupted was). liburing's submission side is one
//! thread's: `io_uring_get_sqe`, the prep helpers and `io_uring_submit`
//! move the SQ's private head and tail with plain loads and stores.
//!
//! Seen only while both calls are in the submit hook: the hook that holds
//! the ring's record marks its slot `submitting`, and a submit hook that
//! finds the record checked out reads the mark. The mark is Relaxed: the
//! hook that finds the record gone read it out of the slot with an
//! Acquire swap that read the null some check-out wrote, an RMW in the
//! release sequence of the last `put_back`, which cleared the mark before
//! its Release store; so a mark it sees was set by the hook holding the
//! record now, during that hold. A mark it does not see yet is only a
//! finding missed. The common path pays two plain stores per submit call.

use core::sync::atomic::Ordering;

use super::report::{emit, head_at, Call};
use super::state::SLOTS;
use uring_core::observe::Caller;

/// A submit hook found `ring`'s record checked out by another hook.
#[cold]
#[inline(never)]
pub(super) fn record_busy(ring: usize, call: Call, caller: Caller) {
    let Some(slot) = SLOTS
        .iter()
        .find(|s| s.ring.load(Ordering::Relaxed) == ring)
    else {
        return;
    };
    if !slot.submitting.load(Ordering::Relaxed)
        || slot.overlap_reported.swap(true, Ordering::Relaxed)
    {
        return;
    }
    let id = slot.id.load(Ordering::Relaxed);
    let mut l = head_at(id, ring, caller as usize, "concurrent-submit", call);
    l.s("another submit call on this ring was running at the same time (in another thread, or in a signal handler that interrupted one)");
    emit(
        l,
        "liburing's submission side belongs to one thread at a time: io_uring_get_sqe, the prep helpers and io_uring_submit move the SQ's private head and tail with plain loads and stores, so two submitters at once can be handed the same SQE, overwrite each other's, or publish SQEs not yet prepared: requests are lost, run twice or run half-written",
        "give each submitting thread a ring of its own (pass work between rings with IORING_OP_MSG_RING), or hold one lock from io_uring_get_sqe to the submit call in every thread that submits to this ring; one thread may reap while another submits",
    );
}
