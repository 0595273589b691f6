// SPDX-License-Identifier: MIT
//! `cq-overflow`: the CQ overflowed because CQEs are not marked seen (the
//! kernel holds CQEs back, or dropped them).

use super::overflow_held;
use super::report::{head, report, ring_fd_now, wants, Call};
use super::state::RingCheck;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const OVERFLOW: u32 = 1 << 4;

#[cold]
#[inline(never)]
pub(super) fn overflow(c: &mut RingCheck, call: Call, dropped: Option<u32>) {
    if !wants(c, OVERFLOW) {
        return;
    }
    let held = match dropped {
        Some(_) => None,
        None => overflow_held::held_back(ring_fd_now(c)),
    };
    let mut l = head(c, "cq-overflow", call);
    match (dropped, held) {
        (Some(n), _) => l.s("the CQ overflowed: the kernel dropped ").u(u64::from(n)).s(" CQEs, which are lost"),
        (None, Some(n)) => l
            .s("the CQ overflowed: the kernel holds back ")
            .u(u64::from(n))
            .s(" CQE(s) for want of room (IORING_SQ_CQ_OVERFLOW; CqOverflowList of the ring's fdinfo)"),
        (None, None) => l.s("the CQ overflowed: the kernel holds back CQEs for want of room (IORING_SQ_CQ_OVERFLOW)"),
    };
    report(
        c,
        OVERFLOW,
        l,
        "CQEs are taken off the CQ only when marked seen (io_uring_cqe_seen / io_uring_cq_advance); kept back, they fill it, the kernel must stash further completions (slow, memory-bound) or drop them, and a program waiting for a dropped one waits forever",
        "mark every CQE seen once handled; the held-back CQEs then move into the CQ at the next call that enters the kernel for completions (io_uring_get_events flushes them without waiting); reap before submitting more than the CQ holds, or set up a larger CQ (IORING_SETUP_CQSIZE)",
    );
}
