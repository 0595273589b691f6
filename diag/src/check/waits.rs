// SPDX-License-Identifier: MIT
//! Waits that cannot end as the program means them to:
//! - `wait-unsatisfiable`: an untimed wait for more CQEs than are ready
//!   plus the requests in flight can ever post, where nothing else can add
//!   to them (no other thread, no message from another ring, no request
//!   that may post more than one CQE): it sleeps forever.
//! - `unsubmitted-wait`: SQEs taken but never submitted, nothing in
//!   flight: an untimed wait sleeps forever, a timed one
//!   (`io_uring_wait_cqe_timeout`) times out again and again, and a loop of
//!   them spins on nothing (`check.rs`'s `waiting` decides which waits are
//!   judged); `unsubmitted_here` counts those SQEs where the waiting thread
//!   may read them.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, Ordering};

use super::report::{head, report, wants, Call};
use super::state::{RingCheck, WAYS};
use super::threads::{gettid, single_threaded};
use crate::uapi::*;
use uring_core::observe::{CompleteSide, SubmitSide};

/// The untimed or timed `unsubmitted-wait`'s kind (a bit of
/// `RingCheck::reported`).
pub(super) const UNSUBMITTED: u32 = 1 << 2;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const NEVER: u32 = 1 << 10;

/// An `IORING_OP_MSG_RING` was submitted in this process: any ring may get
/// CQEs of no request of its own.
static MESSAGES: AtomicBool = AtomicBool::new(false);

/// `on_sqe` saw a message to another ring.
pub(super) fn message_sent() {
    MESSAGES.store(true, Ordering::Relaxed);
}

/// Opcodes whose one request may post more than one CQE: multishot ones
/// are marked as such, these post a notification or run a driver's
/// protocol.
fn may_post_more(opcode: u8) -> bool {
    matches!(
        opcode,
        IORING_OP_SEND_ZC
            | IORING_OP_SENDMSG_ZC
            | IORING_OP_RECV_ZC
            | IORING_OP_URING_CMD
            | IORING_OP_URING_CMD128
    )
}

/// A wait with nothing in flight while `unsubmitted` SQEs wait
/// unsubmitted, timed (it ends anyway, spinning a loop of timed waits) or
/// not (it sleeps forever).
#[cold]
#[inline(never)]
pub(super) fn unsubmitted(
    c: &mut RingCheck,
    unsubmitted: u32,
    wait_nr: u32,
    call: Call,
    timed: bool,
) {
    let mut l = head(c, "unsubmitted-wait", call);
    l.s(if timed {
        "a timed wait for "
    } else {
        "waiting for "
    })
    .u(u64::from(wait_nr))
    .s(" CQE(s) with no request in flight, while ")
    .u(u64::from(unsubmitted))
    .s(" SQE(s) taken with io_uring_get_sqe were never submitted");
    let (why, fix) = if timed {
        (
            "io_uring_wait_cqe_timeout (like io_uring_wait_cqe) does not submit: prepared SQEs reach the kernel only through a submit call, so this wait can only time out, and a loop of timed waits spins on nothing",
            "call io_uring_submit before waiting, or wait with io_uring_submit_and_wait_timeout, which does both",
        )
    } else {
        (
            "io_uring_wait_cqe does not submit: prepared SQEs reach the kernel only through a submit call, so this wait can sleep forever",
            "call io_uring_submit before waiting, or wait with io_uring_submit_and_wait, which does both",
        )
    };
    report(c, UNSUBMITTED, l, why, fix);
}

/// An untimed wait for more CQEs than can come.
#[cold]
#[inline(never)]
pub(super) fn unsatisfiable(
    c: &mut RingCheck,
    cq: CompleteSide<'_>,
    wait_nr: u32,
    ready: u32,
    call: Call,
) {
    let can_come = ready.saturating_add(c.in_flight);
    if !wants(c, NEVER)
        || can_come >= wait_nr
        || c.uncounted
        || c.flags & IORING_SETUP_SQPOLL != 0
        || MESSAGES.load(Ordering::Relaxed)
        // Another thread could submit meanwhile (liburing lets one thread
        // submit while another waits).
        || !single_threaded()
        || unsubmitted_here(c, cq) != 0
    {
        return;
    }
    // A request that may post more than one CQE leaves the bound open.
    for (b, &bits) in c.occupied.iter().enumerate() {
        for way in 0..WAYS {
            if bits & (1 << way) == 0 {
                continue;
            }
            if let Some(r) = c.reqs.get(b * WAYS + way) {
                if r.multishot() || may_post_more(r.opcode) {
                    return;
                }
            }
        }
    }
    let mut l = head(c, "wait-unsatisfiable", call);
    l.s("waiting for ")
        .u(u64::from(wait_nr))
        .s(" CQE(s) while ")
        .u(u64::from(ready))
        .s(" are ready and ")
        .u(u64::from(c.in_flight))
        .s(" request(s) are in flight, none of them multishot: at most ")
        .u(u64::from(can_come))
        .s(" CQE(s) can come");
    report(
        c,
        NEVER,
        l,
        "a wait returns only once wait_nr CQEs are in the CQ ring; each request in flight posts one, no other thread can submit here and no other ring sends to this one, so this wait sleeps forever",
        "wait for no more than the CQEs still to come (those ready plus one per request in flight), counting CQEs as they are reaped; or submit the requests still missing before waiting",
    );
}

/// SQEs taken from the SQ that no submit call has handed to the kernel,
/// when the waiting thread may know; else 0.
///
/// The count reads the SQ's private tail, a plain variable that
/// `io_uring_get_sqe` (inline in the program) moves on whichever thread
/// takes SQEs, with no synchronisation the waiting thread could share:
/// liburing lets one thread submit while another waits. So it is read only
/// where no other thread can be taking SQEs: the process has only ever had
/// this one thread, or the ring is `SINGLE_ISSUER`, this thread is its
/// owner (the one thread the kernel lets submit, hence the SQ side's), and
/// no other thread has tried to submit to it.
pub(super) fn unsubmitted_here(c: &RingCheck, cq: CompleteSide<'_>) -> u32 {
    let owner = c.flags & IORING_SETUP_SINGLE_ISSUER != 0
        && !c.foreign_submitter
        && c.owner_tid == gettid();
    if !owner && !single_threaded() {
        return 0;
    }
    let Some(p) = NonNull::new(cq.id().cast_mut()) else {
        return 0;
    };
    // SAFETY: the ring is live for this wait call, and no other thread
    // takes its SQEs (see above): this thread is the submitter, whose own
    // variables these are.
    let sq = unsafe { SubmitSide::new(p) };
    // With SQPOLL the kernel's thread takes what was published by itself:
    // only the SQEs not yet published are stuck; else, all the kernel has
    // not consumed.
    let head = if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    };
    let n = sq.sqe_tail().wrapping_sub(head);
    // More than the SQ holds: another process (after fork) moved the
    // kernel's head past this one's private tail; nothing to say.
    if n > sq.sq_entries() {
        0
    } else {
        n
    }
}
