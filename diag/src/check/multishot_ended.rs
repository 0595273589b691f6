// SPDX-License-Identifier: MIT
//! `multishot-ended`: an untimed wait about to sleep with nothing in
//! flight, where a multishot request ended (its last CQE had no
//! `IORING_CQE_F_MORE`) and was not armed again; if it was cancelled
//! (-ECANCELED) the fix named is to wait only for the CQEs still to come.

use super::report::{errname, head, opname, report, wants, Call};
use super::state::RingCheck;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const MSHOT: u32 = 1 << 3;

/// A wait for `wait_nr` CQEs with nothing in flight, after the multishot
/// request `ended` (user_data, opcode, fd, result) ended.
pub(super) fn waiting(c: &mut RingCheck, ended: (u64, u8, i32, i32), wait_nr: u32, call: Call) {
    let (ud, op, _, res) = ended;
    if wants(c, MSHOT) {
        let mut l = head(c, "multishot-ended", call);
        l.s("waiting for ")
            .u(u64::from(wait_nr))
            .s(" CQE(s) with no request in flight: the multishot ");
        opname(&mut l, op);
        l.s(" user_data=").x(ud).s(" ended (its last CQE, res=");
        errname(&mut l, res);
        l.s(", had no IORING_CQE_F_MORE) and was not armed again");
        // A cancelled one was most likely stopped on purpose: the
        // mistake is then counting on more CQEs than can come, and
        // arming it again is not the fix.
        let (why, fix) = if res == -libc::ECANCELED {
            (
                "the multishot request was cancelled (by a cancel, or a poll or timeout remove) and posted its last CQE; every other request has completed too, so the CQE this wait counts on will never come and it can sleep forever",
                "count the CQEs still to come: a multishot request posts one CQE per event (events that arrive together may give one CQE), then one last without IORING_CQE_F_MORE; stop waiting when that last one is seen, or wait with a timeout",
            )
        } else {
            (
                "a multishot request stops for good when a CQE without IORING_CQE_F_MORE arrives (an error, -ENOBUFS, a full CQ, cancellation); nothing more will complete, so this wait can sleep forever",
                "check IORING_CQE_F_MORE on every CQE of a multishot request and submit it again when it is clear",
            )
        };
        report(c, MSHOT, l, why, fix);
    }
}
