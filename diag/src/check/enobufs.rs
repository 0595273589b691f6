// SPDX-License-Identifier: MIT
//! `enobufs`: a provided-buffer group ran dry again and again (requests in
//! a row failed with -ENOBUFS).

use super::buf_taken;
use super::report::{head, opname, report, wants, Call};
use super::state::{Req, RingCheck};

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const ENOBUFS: u32 = 1 << 5;
/// Consecutive -ENOBUFS of one group that make a finding.
const ENOBUFS_STREAK: u32 = 8;

pub(super) fn enobufs(c: &mut RingCheck, r: &Req, res: i32, call: Call) {
    let g = r.buf_group;
    let slot = c
        .groups
        .iter()
        .position(|&(grp, n)| grp == g && n != 0)
        .or_else(|| c.groups.iter().position(|&(_, n)| n == 0));
    let Some(slot) = slot else {
        return;
    };
    if res != -libc::ENOBUFS {
        if let Some(e) = c.groups.get_mut(slot) {
            *e = (0, 0);
        }
        return;
    }
    let n = c.groups.get(slot).map_or(0, |e| e.1) + 1;
    if let Some(e) = c.groups.get_mut(slot) {
        *e = (g, n);
    }
    if n >= ENOBUFS_STREAK && wants(c, ENOBUFS) {
        let mut l = head(c, "enobufs", call);
        l.u(u64::from(n)).s(" requests in a row (the last ");
        opname(&mut l, r.opcode);
        l.s(" user_data=").x(r.user_data);
        l.s(") failed with -ENOBUFS: provided-buffer group ")
            .u(u64::from(g))
            .s(" is empty");
        match buf_taken::taken(c, g) {
            Some(t) => l
                .s(" (")
                .u(u64::from(t))
                .s(" buffer(s) taken from it so far, in CQEs with IORING_CQE_F_BUFFER, and none left: fewer were given back)"),
            None => l.s(" (no buffer taken from it was seen: it was never filled, or filled too little)"),
        };
        report(
            c,
            ENOBUFS,
            l,
            "the buffers taken from the group are not given back (or too few were provided), so every request that selects one fails and a multishot request stops",
            "return each buffer to the ring once its data is used (io_uring_buf_ring_add + io_uring_buf_ring_advance, or io_uring_buf_ring_cq_advance), provide more or larger buffers, or use IOU_PBUF_RING_INC",
        );
    }
}
