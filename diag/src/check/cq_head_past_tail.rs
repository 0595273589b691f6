// SPDX-License-Identifier: MIT
//! `cq-head-past-tail`: the program moved the CQ head past the kernel's
//! tail, marking more CQEs seen (`io_uring_cqe_seen`, `io_uring_cq_advance`)
//! than the kernel had posted: a CQE marked seen twice, or one no peek or
//! wait returned (after a wait that failed).
//!
//! The walks read the head before the tail, both Acquire: the program
//! moves the head (Release) only past CQEs it read after an Acquire load
//! of the tail, so a tail read after the head is never behind it unless
//! the program moved the head past CQEs that were never there. The check
//! runs in the general CQ walk only, where a head past the walk's cursor
//! always sends the walk.

use super::report::{head, report, wants, Call};
use super::state::RingCheck;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const PAST: u32 = 1 << 13;

/// `khead` and `ktail`, read in that order.
#[inline(always)]
pub(super) fn check(c: &mut RingCheck, khead: u32, ktail: u32, call: Call) {
    if (khead.wrapping_sub(ktail) as i32) > 0 {
        past(c, khead, ktail, call);
    }
}

#[cold]
#[inline(never)]
fn past(c: &mut RingCheck, khead: u32, ktail: u32, call: Call) {
    // The CQ's counts mean nothing from here on.
    c.set_lost();
    if !wants(c, PAST) {
        return;
    }
    let mut l = head(c, "cq-head-past-tail", call);
    l.s("the CQ head (")
        .u(u64::from(khead))
        .s(") is ")
        .u(u64::from(khead.wrapping_sub(ktail)))
        .s(" past the kernel's CQ tail (")
        .u(u64::from(ktail))
        .s("): more CQEs were marked seen (io_uring_cqe_seen, io_uring_cq_advance) than the kernel has posted");
    report(
        c,
        PAST,
        l,
        "the ring's indices are unsigned and wrap: with the head past the tail, the CQ helpers count billions of CQEs ready, so peeks and waits return at once with slots the kernel never filled (stale CQEs of earlier requests), and the completions that do come are misread or held back as overflow",
        "mark each CQE seen exactly once, and only one a peek or wait returned (not after a wait that failed, such as -ETIME or -EINTR); with io_uring_for_each_cqe, call io_uring_cqe_seen in the loop or io_uring_cq_advance with the count after it, not both",
    );
}
