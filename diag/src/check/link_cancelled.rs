// SPDX-License-Identifier: MIT
//! `link-cancelled`: a linked request was cancelled because an earlier
//! member of its chain failed (that member is named).

use super::report::{errname, head, opname, report, wants, Call};
use super::requests::chain_mut;
use super::state::{Req, RingCheck};

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const LINK: u32 = 1 << 6;

pub(super) fn chain_cqe(c: &mut RingCheck, r: &Req, res: i32, call: Call) {
    let Some(ch) = chain_mut(c, r.chain) else {
        return;
    };
    if ch.has_link_timeout || ch.done {
        return;
    }
    if res == -libc::ECANCELED {
        if ch.failed.is_none() {
            if ch.cancelled.is_none() {
                ch.cancelled = Some((r.user_data, r.opcode, r.pos));
            }
            return;
        }
    } else if res < 0 && ch.failed.is_none() {
        ch.failed = Some((r.user_data, r.opcode, r.pos, res));
        if ch.cancelled.is_none() {
            return;
        }
    } else {
        return;
    }
    // Both a failure and a cancelled member are known.
    ch.done = true;
    let (Some((fu, fop, fpos, fres)), Some((cu, cop, cpos))) = (
        ch.failed,
        ch.cancelled.or(Some((r.user_data, r.opcode, r.pos))),
    ) else {
        return;
    };
    if !wants(c, LINK) {
        return;
    }
    let mut l = head(c, "link-cancelled", call);
    l.s("linked request #").u(u64::from(cpos)).s(" (");
    opname(&mut l, cop);
    l.s(" user_data=")
        .x(cu)
        .s(") completed with -ECANCELED because member #");
    l.u(u64::from(fpos)).s(" (");
    opname(&mut l, fop);
    l.s(" user_data=").x(fu).s(") failed with ");
    errname(&mut l, fres);
    report(
        c,
        LINK,
        l,
        "with IOSQE_IO_LINK a failed member cancels the rest of the chain: their -ECANCELED is a consequence, the cause is the member named",
        "fix the failing member (its own CQE carries the error), or use IOSQE_IO_HARDLINK where later members must run anyway",
    );
}
