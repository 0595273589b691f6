// SPDX-License-Identifier: MIT
//! `user-data-reuse`: an SQE's `user_data` equals that of a request still
//! in flight (0 is ignored: a program that leaves it 0 tells none apart),
//! judged after the call's look at the CQ.

use super::report::{head, opname, report, wants, Call};
use super::requests::find;
use super::state::{Req, RingCheck};

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const REUSE: u32 = 1 << 7;

/// Reports a user_data submitted while another request with the same
/// value is still in flight (both counted after the CQ was looked at).
#[inline(always)]
pub(super) fn reuse(c: &mut RingCheck, call: Call) {
    // Tested before it is taken: no store on the common path.
    if c.suspect.is_some() {
        reuse_taken(c, call);
    }
}

#[cold]
#[inline(never)]
fn reuse_taken(c: &mut RingCheck, call: Call) {
    if let Some(suspect) = c.suspect.take() {
        reuse_judged(c, suspect, call);
    }
}

#[cold]
#[inline(never)]
fn reuse_judged(c: &mut RingCheck, (user_data, op, prev): (u64, u8, u8), call: Call) {
    let still = find(c, user_data)
        .and_then(|i| c.reqs.get(i))
        .map_or(0, Req::count);
    if still < 2 || c.lost() || !wants(c, REUSE) {
        return;
    }
    let mut l = head(c, "user-data-reuse", call);
    l.s("an SQE (");
    opname(&mut l, op);
    l.s(") was submitted with user_data=").x(user_data);
    l.s(", the value of a request still in flight (");
    opname(&mut l, prev);
    l.s(")");
    report(
        c,
        REUSE,
        l,
        "the CQEs of the two cannot be told apart, so a completion may be taken for the other request (and a buffer or object freed too early)",
        "give every request in flight its own user_data (a counter, or the address of the request's own state)",
    );
}
