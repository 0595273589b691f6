// SPDX-License-Identifier: MIT
//! The requests in flight, by `user_data`: the bucket table of a ring's
//! record, what each SQE the kernel consumed adds to it and each CQE it
//! posted takes away (with the fast forms for plain requests), and the
//! chains linked SQEs make.

use super::buf_taken;
use super::enobufs::enobufs;
use super::link_cancelled::chain_cqe;
use super::pbuf_groups;
use super::report::Call;
use super::state::{
    kind_of, Chain, Req, RingCheck, BUCKET_BITS, CHAIN_SLOTS, KIND_BUF_SELECT, KIND_CHAINED,
    ONE_PLAIN, WAYS,
};
use super::waits;
use crate::uapi::*;

/// `user_data`'s bucket: the requests of one value live in one of its
/// `WAYS` slots (a full bucket stops the counts). A multiplicative hash,
/// top bits: consecutive values (counters) spread over the buckets.
#[inline(always)]
pub(super) fn bucket(v: u64) -> usize {
    (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUCKET_BITS)) as usize
}

/// The slot of a request in flight with `user_data`. The bucket's
/// occupancy bits make a miss (every new request) a load or two.
#[inline(always)]
pub(super) fn find(c: &RingCheck, user_data: u64) -> Option<usize> {
    let b = bucket(user_data);
    let mut taken = *c.occupied.get(b)?;
    while taken != 0 {
        let i = b * WAYS + taken.trailing_zeros() as usize;
        if c.reqs.get(i)?.user_data == user_data {
            return Some(i);
        }
        taken &= taken - 1;
    }
    None
}

/// A free slot of `user_data`'s bucket.
#[inline(always)]
fn free_slot(c: &RingCheck, user_data: u64) -> Option<usize> {
    let b = bucket(user_data);
    let free = !*c.occupied.get(b)?;
    (free != 0).then(|| b * WAYS + free.trailing_zeros() as usize)
}

#[inline(always)]
pub(super) fn is_multishot(sqe: &io_uring_sqe) -> bool {
    match sqe.opcode {
        IORING_OP_RECV | IORING_OP_RECVMSG => sqe.ioprio & IORING_RECV_MULTISHOT != 0,
        IORING_OP_ACCEPT => sqe.ioprio & IORING_ACCEPT_MULTISHOT != 0,
        IORING_OP_POLL_ADD => sqe.len & IORING_POLL_ADD_MULTI != 0,
        IORING_OP_READ_MULTISHOT => true,
        IORING_OP_TIMEOUT => sqe.rw_flags & IORING_TIMEOUT_MULTISHOT != 0,
        _ => false,
    }
}

pub(super) fn chain_mut(c: &mut RingCheck, id: u32) -> Option<&mut Chain> {
    c.chains.iter_mut().find(|ch| ch.id == id && id != 0)
}

/// One SQE the kernel consumed.
pub(super) fn on_sqe(c: &mut RingCheck, sqe: &io_uring_sqe) {
    match sqe.opcode {
        IORING_OP_MSG_RING => waits::message_sent(),
        // Legacy provided buffers: `fd` holds the count, `buf_index` the group.
        IORING_OP_PROVIDE_BUFFERS => pbuf_groups::legacy(c, sqe.buf_index, sqe.fd as u32, false),
        IORING_OP_REMOVE_BUFFERS => pbuf_groups::legacy(c, sqe.buf_index, 0, true),
        _ => {}
    }
    // Chains: a member links to the next; the chain ends at the first SQE
    // without a link flag.
    let linked = sqe.flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK) != 0;
    let (chain, pos) = if c.cur_chain != 0 || linked {
        if c.cur_chain == 0 {
            c.next_chain = c.next_chain.wrapping_add(1).max(1);
            c.cur_chain = c.next_chain;
            c.chain_pos = 0;
            c.chain_skip = false;
            let slot = (c.cur_chain as usize) % CHAIN_SLOTS;
            if let Some(ch) = c.chains.get_mut(slot) {
                *ch = Chain {
                    id: c.cur_chain,
                    has_link_timeout: false,
                    done: false,
                    failed: None,
                    cancelled: None,
                };
            }
        }
        c.chain_pos = c.chain_pos.saturating_add(1);
        if linked {
            c.last_linked = (sqe.user_data, sqe.opcode);
        }
        let id = c.cur_chain;
        if sqe.opcode == IORING_OP_LINK_TIMEOUT {
            if let Some(ch) = chain_mut(c, id) {
                ch.has_link_timeout = true;
            }
        }
        if !linked {
            c.cur_chain = 0;
        }
        (id, c.chain_pos)
    } else {
        (0, 0)
    };
    // After a member that skips its CQE on success, the chain's CQEs are
    // not all owed: its later members are not followed.
    let after_skip = chain != 0 && c.chain_skip;
    if chain != 0 && sqe.flags & IOSQE_CQE_SKIP_SUCCESS != 0 {
        c.chain_skip = true;
    }

    // A multishot request of the same kind on the same file is a re-arm.
    if let Some((_, op, fd, _)) = c.ended {
        if op == sqe.opcode && fd == sqe.fd {
            c.set_ended(None);
        }
    }
    if c.lost() || after_skip || sqe.flags & IOSQE_CQE_SKIP_SUCCESS != 0 {
        // No CQE is owed on success: not followed.
        c.uncounted = true;
        return;
    }
    let user_data = sqe.user_data;
    if let Some(i) = find(c, user_data) {
        // Judged after this call's look at the CQ: the other request's
        // CQE may be there already, consumed by the program inline.
        if user_data != 0
            && user_data != crate::queue::LIBURING_UDATA_TIMEOUT
            && c.suspect.is_none()
        {
            c.suspect = Some((user_data, sqe.opcode, c.reqs[i].opcode));
        }
        if let Some(r) = c.reqs.get_mut(i) {
            r.state = u64::from(r.count() + 1) | kind_of(is_multishot(sqe), r.buf_select(), chain);
            r.opcode = sqe.opcode;
            r.chain = chain;
            r.pos = pos;
        }
        c.in_flight += 1;
        return;
    }
    if sqe.flags & IOSQE_BUFFER_SELECT != 0 {
        pbuf_groups::selecting(c, sqe.buf_index);
    }
    match free_slot(c, user_data) {
        Some(i) => {
            if let Some(bits) = c.occupied.get_mut(i / WAYS) {
                *bits |= 1 << (i % WAYS);
            }
            let Some(r) = c.reqs.get_mut(i) else {
                return;
            };
            *r = Req {
                user_data,
                state: 1 | kind_of(
                    is_multishot(sqe),
                    sqe.flags & IOSQE_BUFFER_SELECT != 0,
                    chain,
                ),
                opcode: sqe.opcode,
                buf_group: sqe.buf_index,
                fd: sqe.fd,
                chain,
                pos,
            };
            c.in_flight += 1;
        }
        None => c.set_lost(),
    }
}

/// One CQE the kernel posted.
#[inline(always)]
pub(super) fn on_cqe(c: &mut RingCheck, cqe: &io_uring_cqe, call: Call) {
    if cqe.flags & IORING_CQE_F_SKIP != 0 {
        return;
    }
    c.peeks_idle = 0;
    let Some(i) = find(c, cqe.user_data) else {
        c.uncounted = true;
        return;
    };
    let Some(r) = c.reqs.get_mut(i) else {
        return;
    };
    let (count, multishot, rare) = (
        r.count(),
        r.multishot(),
        r.state & (KIND_BUF_SELECT | KIND_CHAINED) != 0,
    );
    if cqe.flags & IORING_CQE_F_MORE == 0 {
        r.state -= 1;
        if r.count() == 0 {
            if let Some(bits) = c.occupied.get_mut(i / WAYS) {
                *bits &= !(1 << (i % WAYS));
            }
        }
        c.in_flight = c.in_flight.saturating_sub(1);
        if multishot {
            let r = &c.reqs[i];
            let ended = Some((r.user_data, r.opcode, r.fd, cqe.res));
            c.set_ended(ended);
        }
    }
    if rare {
        buffers_and_chains(c, c.reqs[i], count, cqe.res, cqe.flags, call);
    }
}

/// The checks of a CQE whose request selected a buffer or was linked.
#[inline(never)]
fn buffers_and_chains(c: &mut RingCheck, r: Req, count: u32, res: i32, flags: u32, call: Call) {
    if r.buf_select() {
        buf_taken::note(c, r.buf_group, flags);
        enobufs(c, &r, res, call);
    }
    // A chain member sharing its user_data with another request in flight
    // cannot be told apart from it: no chain finding from it.
    if r.state & KIND_CHAINED != 0 && count == 1 {
        chain_cqe(c, &r, res, call);
    }
}

/// Follows a plain request (no link, buffer, skip or multishot) whose
/// bucket is empty, as `on_sqe` would; false when `on_sqe` must. Only the
/// fields a plain request's checks read are written (see `Req::kind`).
#[inline(always)]
pub(super) fn insert_plain(c: &mut RingCheck, user_data: u64, opcode: u8, fd: i32) -> bool {
    let b = bucket(user_data);
    let Some(bits) = c.occupied.get_mut(b) else {
        return false;
    };
    if *bits != 0 {
        return false;
    }
    *bits = 1;
    if let Some(r) = c.reqs.get_mut(b * WAYS) {
        r.user_data = user_data;
        r.state = ONE_PLAIN;
        r.opcode = opcode;
        r.fd = fd;
    }
    c.in_flight += 1;
    true
}

/// Retires a plain request's last CQE found in its bucket's first slot, as
/// `on_cqe` would but for the peek streak (the caller resets it); false
/// when `on_cqe` must.
#[inline(always)]
pub(super) fn remove_plain(c: &mut RingCheck, user_data: u64, flags: u32) -> bool {
    if flags & (IORING_CQE_F_SKIP | IORING_CQE_F_MORE) != 0 {
        return false;
    }
    let b = bucket(user_data);
    let Some(r) = c.reqs.get_mut(b * WAYS) else {
        return false;
    };
    // A slot's count is not 0 exactly while its occupancy bit is set, so
    // the state alone says the slot is taken.
    if r.state != ONE_PLAIN || r.user_data != user_data {
        return false;
    }
    r.state = 0;
    if let Some(bits) = c.occupied.get_mut(b) {
        *bits &= !1;
    }
    // `in_flight` is the sum of the slots' counts: this one's was 1.
    c.in_flight = c.in_flight.wrapping_sub(1);
    true
}
