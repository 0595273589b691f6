// SPDX-License-Identifier: MIT
//! `owner-thread`: a `SINGLE_ISSUER` or `DEFER_TASKRUN` ring answered
//! -EEXIST because another thread owns it (named, and whether enabling an
//! `R_DISABLED` ring made it the owner).

use super::owner_exited;
use super::report::{head, report, wants, Call};
use super::state::RingCheck;
use super::threads::thread;
use crate::uapi::{IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER};

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const OWNER: u32 = 1 << 0;

#[inline(always)]
pub(super) fn eexist(c: &mut RingCheck, call: Call, result: i32) {
    if result == -libc::EEXIST {
        owner_thread(c, call);
    }
}

#[cold]
#[inline(never)]
pub(super) fn owner_thread(c: &mut RingCheck, call: Call) {
    if c.flags & (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN) == 0
        || owner_exited::check(c, call)
        || !wants(c, OWNER)
    {
        return;
    }
    let mut l = head(c, "owner-thread", call);
    l.s("-EEXIST: this ");
    l.s(if c.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        "IORING_SETUP_DEFER_TASKRUN"
    } else {
        "IORING_SETUP_SINGLE_ISSUER"
    });
    l.s(" ring belongs to the thread ");
    if c.owner_tid > 0 {
        thread(&mut l, c.owner_tid, &c.owner_name);
        if c.owner_from_enable {
            l.s(", which enabled it (the ring was set up IORING_SETUP_R_DISABLED: the thread that calls io_uring_enable_rings becomes its owner) and submitted first");
        } else {
            l.s(", which set it up");
        }
    } else {
        l.s("that enabled it, not known here (set up IORING_SETUP_R_DISABLED: io_uring_enable_rings makes its caller the owner)");
    }
    report(
        c,
        OWNER,
        l,
        "the kernel lets only the owner thread submit to such a ring (and, with DEFER_TASKRUN, wait on it); any other thread gets -EEXIST and its SQEs stay unsubmitted",
        "submit (and wait) from the owner thread only, passing work to it (a queue, or IORING_OP_MSG_RING from a ring of the other thread), or drop SINGLE_ISSUER/DEFER_TASKRUN from the setup flags; with R_DISABLED, call io_uring_enable_rings in the thread that will submit",
    );
}
