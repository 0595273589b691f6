// SPDX-License-Identifier: MIT
//! `fork`: a ring set up by one process used by a child after `fork`.

use core::sync::atomic::{AtomicU32, Ordering};

use super::report::{head, report, wants, Call};
use super::state::RingCheck;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const FORK: u32 = 1 << 8;
/// Bumped in every child of a fork (pthread_atfork).
pub(super) static FORK_GEN: AtomicU32 = AtomicU32::new(0);

/// Checks common to every call: a ring of another process.
#[inline(always)]
pub(super) fn common(c: &mut RingCheck, call: Call) {
    if c.fork_gen != FORK_GEN.load(Ordering::Relaxed) {
        forked_use(c, call);
    }
}

#[cold]
#[inline(never)]
fn forked_use(c: &mut RingCheck, call: Call) {
    if wants(c, FORK) {
        c.set_lost();
        let mut l = head(c, "fork", call);
        l.s("the ring was set up by process ")
            .u(c.pid.max(0) as u64);
        l.s(" and is used by its child ");
        // SAFETY: no preconditions.
        l.u(unsafe { libc::getpid() }.max(0) as u64)
            .s(" after fork");
        report(
            c,
            FORK,
            l,
            "parent and child share the ring's memory and kernel context: the SQ and CQ indices of one overwrite the other's, requests complete in the wrong process and buffers are read after they are freed",
            "set up a ring of its own in the child (io_uring_queue_init after fork) and leave the parent's alone there (or close it: io_uring_queue_exit in the child only unmaps its copy)",
        );
    }
}
