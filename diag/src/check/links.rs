// SPDX-License-Identifier: MIT
//! `link-last`: `IOSQE_IO_LINK` (or `IOSQE_IO_HARDLINK`) on the last SQE
//! of a submission. The kernel ends a chain with the submission, so the
//! flag links to nothing, and the SQE the program meant to follow (in its
//! next submission) is not ordered after it: silently.

use super::report::{head, opname, report, wants, Call};
use super::state::RingCheck;
use crate::uapi::IORING_SETUP_SQPOLL;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const LAST: u32 = 1 << 11;

/// A walk over one submission's SQEs ends: was a chain still open? (Not
/// with SQPOLL, whose thread consumes SQEs in its own batches.)
#[inline(always)]
pub(super) fn submission_ends(c: &mut RingCheck) {
    if c.cur_chain != 0 && c.flags & IORING_SETUP_SQPOLL == 0 {
        c.link_left_open = true;
    }
}

/// Reports a chain left open by the submission just walked.
#[inline(always)]
pub(super) fn report_open(c: &mut RingCheck, call: Call) {
    if c.link_left_open {
        report_open_slow(c, call);
    }
}

#[cold]
#[inline(never)]
fn report_open_slow(c: &mut RingCheck, call: Call) {
    c.link_left_open = false;
    if !wants(c, LAST) {
        return;
    }
    let (user_data, op) = c.last_linked;
    let mut l = head(c, "link-last", call);
    l.s("the last SQE of this submission, ");
    opname(&mut l, op);
    l.s(" user_data=")
        .x(user_data)
        .s(", has IOSQE_IO_LINK (or IOSQE_IO_HARDLINK): its chain ends here with nothing linked after it");
    report(
        c,
        LAST,
        l,
        "the kernel ends a chain at the end of each submission, so a link flag on its last SQE links to nothing: the request the program meant to run after it (submitted next) is not ordered after it and may run first or at once",
        "prepare every member of a chain before the submit call that submits them, and clear the link flag on the chain's last member",
    );
}
