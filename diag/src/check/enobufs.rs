// SPDX-License-Identifier: MIT
//! `enobufs`: a provided-buffer group ran dry again and again (requests in
//! a row failed with -ENOBUFS).

use super::buf_taken;
use super::pbuf_groups::{self, Returned};
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
        let taken = buf_taken::taken(c, g).unwrap_or(0);
        l.s(": ").u(u64::from(taken)).s(" buffers taken");
        match pbuf_groups::returned(c, g) {
            // More taken than were ever seen put in: the group was also
            // filled where the checker does not look (a raw
            // io_uring_register, another process), so the counts are not it.
            Returned::Counted {
                returned,
                initial,
                incremental: false,
            } if u64::from(taken) > u64::from(initial) + u64::from(returned) => {
                l.s(", returned unknown (more were taken than the checker saw put in: the group was also filled where it does not look, such as a raw io_uring_register)");
            }
            Returned::Counted {
                returned,
                initial,
                incremental,
            } => {
                l.s(", ")
                    .u(u64::from(returned))
                    .s(" returned since registration");
                if !incremental && returned <= taken {
                    l.s(" (")
                        .u(u64::from(taken - returned))
                        .s(" still with the program)");
                }
                l.s("; it held ")
                    .u(u64::from(initial))
                    .s(" when the first request selecting from it was submitted");
            }
            Returned::Unknown(why) => {
                l.s(", returned unknown (").s(why).s(")");
            }
        }
        if taken == 0 {
            l.s("; no buffer taken from it was seen: it was never filled, or filled too little");
        }
        report(
            c,
            ENOBUFS,
            l,
            "a buffer taken by a CQE stays with the program until it puts it back in the group; when all are taken and too few come back (or too few were provided), every request that selects one fails and a multishot request stops",
            "return each buffer to this group once its data is used (a buffer ring: io_uring_buf_ring_add + io_uring_buf_ring_advance, or io_uring_buf_ring_cq_advance; a legacy group: IORING_OP_PROVIDE_BUFFERS again), provide more or larger buffers, or use IOU_PBUF_RING_INC",
        );
    }
}
