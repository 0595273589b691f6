// SPDX-License-Identifier: MIT
//! The walks (as the trace's, see `trace.rs`): the SQEs the kernel consumed
//! and the CQEs it posted since the last call, each through the request
//! table; a lean pass for plain rings and requests, the general walk for
//! the rest, with the same outcome.

use super::cq_head_past_tail;
use super::cq_overflow::overflow;
use super::links;
use super::report::Call;
use super::requests::{insert_plain, on_cqe, on_sqe, remove_plain};
use super::state::RingCheck;
use crate::uapi::*;
use uring_core::observe::{CompleteSide, CqeArray, SqeArray, SubmitSide};

/// Setup flags whose rings the general walks follow (SQPOLL's consumed
/// mark, SQEs or CQEs of two sizes or of double size).
pub(super) const SLOW_SETUP: u32 = IORING_SETUP_SQPOLL
    | IORING_SETUP_SQE_MIXED
    | IORING_SETUP_CQE_MIXED
    | IORING_SETUP_SQE128
    | IORING_SETUP_CQE32;
/// SQE flags whose requests the general path follows.
const SLOW_SQE: u8 =
    IOSQE_IO_LINK | IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS | IOSQE_BUFFER_SELECT;

pub(super) fn consumed_mark(sq: SubmitSide<'_>) -> u32 {
    if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    }
}

/// Opcodes that may be multishot (`is_multishot` decides), by opcode: one
/// load tells the fast walk to leave such an SQE to `on_sqe`.
static MAYBE_MULTISHOT: [bool; 256] = {
    let mut t = [false; 256];
    t[IORING_OP_RECV as usize] = true;
    t[IORING_OP_RECVMSG as usize] = true;
    t[IORING_OP_ACCEPT as usize] = true;
    t[IORING_OP_POLL_ADD as usize] = true;
    t[IORING_OP_READ_MULTISHOT as usize] = true;
    t[IORING_OP_TIMEOUT as usize] = true;
    // Not multishot, but `on_sqe` must see them (`waits::message_sent`,
    // `pbuf_groups::legacy`).
    t[IORING_OP_MSG_RING as usize] = true;
    t[IORING_OP_PROVIDE_BUFFERS as usize] = true;
    t[IORING_OP_REMOVE_BUFFERS as usize] = true;
    t
};

/// The SQEs from `pos` to `to` through `on_sqe` (the fast walk met one it
/// does not follow itself), ending the submission's chain.
#[inline(never)]
pub(super) fn walk_sq_rest(
    c: &mut RingCheck,
    sqes: SqeArray<'_>,
    mask: u32,
    mut pos: u32,
    to: u32,
) {
    while pos != to {
        let Some(sqe) = sqes.get(pos & mask) else {
            break;
        };
        on_sqe(c, &sqe);
        pos = pos.wrapping_add(1);
    }
    links::submission_ends(c);
    c.cur_chain = 0;
}

/// The plain requests among the SQEs from `pos` to `to` of a plain ring,
/// followed as `on_sqe` would; stops at the first SQE it does not follow
/// itself (or cannot read) and returns its position, for `walk_sq_rest`.
#[inline(always)]
pub(super) fn sq_pass(
    c: &mut RingCheck,
    sqes: SqeArray<'_>,
    mask: u32,
    mut pos: u32,
    to: u32,
) -> Option<u32> {
    while pos != to {
        let Some(sqe) = sqes.get(pos & mask) else {
            return Some(pos);
        };
        if sqe.flags & SLOW_SQE != 0
            || MAYBE_MULTISHOT[usize::from(sqe.opcode)]
            || !insert_plain(c, sqe.user_data, sqe.opcode, sqe.fd)
        {
            return Some(pos);
        }
        pos = pos.wrapping_add(1);
    }
    None
}

/// The SQEs the kernel consumed: the common case (a plain ring, plain
/// requests with their own user_data) in one lean pass, the rest through
/// the general walk or `on_sqe`, with the same outcome. Between calls no
/// chain is open (`cur_chain` is 0), so only the ring's state is tested
/// before the pass.
#[inline(always)]
pub(super) fn walk_sq_fast(c: &mut RingCheck, sq: SubmitSide<'_>) {
    let to = sq.sq_khead();
    let from = c.sq_cursor;
    if !c.simple || c.lost() || c.ended.is_some() || to.wrapping_sub(from) > sq.sq_entries() {
        walk_sq(c, sq);
        return;
    }
    c.sq_cursor = to;
    let (sqes, mask) = (sq.plain_sqes(), sq.sq_mask());
    if let Some(pos) = sq_pass(c, sqes, mask, from, to) {
        walk_sq_rest(c, sqes, mask, pos, to);
    }
}

/// The CQEs from `pos` to `tail` through `on_cqe` (as `walk_sq_rest`);
/// returns where it stopped.
#[inline(never)]
pub(super) fn walk_cq_rest(
    c: &mut RingCheck,
    cqes: CqeArray<'_>,
    mask: u32,
    mut pos: u32,
    tail: u32,
    call: Call,
) -> u32 {
    while pos != tail {
        let Some(cqe) = cqes.get(pos & mask) else {
            break;
        };
        on_cqe(c, &cqe, call);
        pos = pos.wrapping_add(1);
    }
    pos
}

/// The CQEs posted since the last look: when none of the program's CQ
/// slots were released past the cursor (so the kernel cannot be rewriting
/// them), one lean pass; otherwise the general walk.
#[inline(always)]
pub(super) fn walk_cq_fast(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let (head, tail) = (cq.cq_khead(), cq.cq_ktail());
    let cursor = c.cq_cursor;
    if !c.simple
        || tail.wrapping_sub(cursor) > cq.cq_entries()
        || (head.wrapping_sub(cursor) as i32) > 0
    {
        walk_cq(c, cq, call);
        return;
    }
    if tail != cursor {
        let (cqes, mask) = (cq.plain_cqes(), cq.cq_mask());
        let stop = cq_pass(c, cqes, mask, cursor, tail);
        if stop != Some(cursor) {
            // A CQE was retired (`on_cqe` would have reset it).
            c.peeks_idle = 0;
        }
        c.cq_cursor = match stop {
            None => tail,
            Some(pos) => walk_cq_rest(c, cqes, mask, pos, tail, call),
        };
    }
    dropped_check(c, cq, call);
}

/// The plain requests' last CQEs from `pos` to `tail`, retired as
/// `on_cqe` would; stops at the first CQE it does not retire itself (or
/// cannot read) and returns its position, for `walk_cq_rest`.
#[inline(always)]
pub(super) fn cq_pass(
    c: &mut RingCheck,
    cqes: CqeArray<'_>,
    mask: u32,
    mut pos: u32,
    tail: u32,
) -> Option<u32> {
    while pos != tail {
        let Some(cqe) = cqes.get(pos & mask) else {
            return Some(pos);
        };
        if !remove_plain(c, cqe.user_data, cqe.flags) {
            return Some(pos);
        }
        pos = pos.wrapping_add(1);
    }
    None
}

/// CQEs the kernel dropped since the last look.
#[inline(always)]
pub(super) fn dropped_check(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let dropped = cq.cq_overflow();
    if dropped != c.overflow_last {
        c.overflow_last = dropped;
        c.set_lost();
        overflow(c, call, Some(dropped));
    }
}

#[inline(never)]
pub(super) fn walk_sq(c: &mut RingCheck, sq: SubmitSide<'_>) {
    let to = consumed_mark(sq);
    let from = c.sq_cursor;
    c.sq_cursor = to;
    let entries = sq.sq_entries();
    if to.wrapping_sub(from) > entries {
        c.set_lost();
        return;
    }
    let mixed = c.flags & IORING_SETUP_SQE_MIXED != 0;
    let shift = crate::geometry::sqe_shift(c.flags);
    let (sqes, mask) = (sq.sqes(), sq.sq_mask());
    let mut pos = from;
    while to.wrapping_sub(pos) != 0 && to.wrapping_sub(pos) <= entries {
        let Some(sqe) = sqes.get((pos & mask) << shift) else {
            break;
        };
        on_sqe(c, &sqe);
        let big = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if mixed && big { 2 } else { 1 });
    }
    // A chain does not run on past the SQEs of one submission.
    links::submission_ends(c);
    c.cur_chain = 0;
}

#[inline(never)]
pub(super) fn walk_cq(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let entries = cq.cq_entries();
    let head = cq.cq_khead();
    let tail = cq.cq_ktail();
    cq_head_past_tail::check(c, head, tail, call);
    let pending = tail.wrapping_sub(c.cq_cursor);
    // Past a full lap, or a full one whose oldest slots the program has
    // released (the kernel may be rewriting them): not all can be seen.
    let ahead = (head.wrapping_sub(c.cq_cursor) as i32) > 0;
    if pending > entries || pending == entries && ahead {
        c.set_lost();
        c.cq_cursor = head;
    }
    let shift = crate::geometry::cqe_shift(c.flags);
    let mixed = c.flags & IORING_SETUP_CQE_MIXED != 0;
    let (cqes, mask) = (cq.cqes(), cq.cq_mask());
    loop {
        let left = tail.wrapping_sub(c.cq_cursor);
        if left == 0 || left > entries {
            break;
        }
        let Some(cqe) = cqes.get((c.cq_cursor & mask) << shift) else {
            break;
        };
        let released = (head.wrapping_sub(c.cq_cursor) as i32) > 0;
        if released && cq.cq_ktail().wrapping_sub(c.cq_cursor) >= entries {
            // Lapped while we looked: the counts can no longer be trusted.
            c.set_lost();
            c.cq_cursor = head;
            continue;
        }
        let step = if mixed && cqe.flags & IORING_CQE_F_32 != 0 {
            2
        } else {
            1
        };
        if step > left {
            break;
        }
        on_cqe(c, &cqe, call);
        c.cq_cursor = c.cq_cursor.wrapping_add(step);
    }
    let dropped = cq.cq_overflow();
    if dropped != c.overflow_last {
        c.overflow_last = dropped;
        c.set_lost();
        overflow(c, call, Some(dropped));
    }
}
