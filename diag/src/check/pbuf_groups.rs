// SPDX-License-Identifier: MIT
//! How many buffers the program gave back to each provided-buffer group,
//! for the `enobufs` finding (`buf_taken` counts the ones taken).
//!
//! A buffer ring (`io_uring_register_buf_ring`, `io_uring_setup_buf_ring`)
//! is followed from its registration (the observer's `buf_ring` hook: its
//! memory and flags): its tail, which the program advances for every buffer
//! it puts in, is read once when the first request that selects from the
//! group is submitted (what the ring held before any was taken) and once at
//! the finding; buffers put in between are the ones given back. A legacy
//! group's buffers are counted from the `IORING_OP_PROVIDE_BUFFERS` SQEs the
//! kernel consumed, the same way. The tail is one known word of memory the
//! program keeps mapped while the group is registered (its contract; an
//! unregistration forgets the group), read with Acquire as the kernel does;
//! nothing is read on the common path.

use core::sync::atomic::{AtomicU16, Ordering};

use super::state::{RingCheck, GROUP_SLOTS};
use crate::uapi::{io_uring_buf_ring, IOU_PBUF_RING_INC};

/// `Group::kind`: the slot is free.
const FREE: u8 = 0;
/// A registered buffer ring whose memory the library was told.
const RING: u8 = 1;
/// A registered buffer ring whose memory the program mapped itself
/// (`IOU_PBUF_RING_MMAP` through `io_uring_register_buf_ring`).
const RING_UNSEEN: u8 = 2;
/// A legacy group, filled by `IORING_OP_PROVIDE_BUFFERS`.
const LEGACY: u8 = 3;
/// A legacy group whose buffers were also removed: no count.
const LEGACY_UNCOUNTED: u8 = 4;

/// One buffer group of a ring, valid as zero bytes (a free slot).
#[derive(Clone, Copy)]
pub(super) struct Group {
    bgid: u16,
    kind: u8,
    /// Buffer ring: registered with `IOU_PBUF_RING_INC` (a buffer may be
    /// taken by several CQEs).
    incremental: bool,
    /// Buffer ring: its memory.
    br: usize,
    /// Buffers put in the group so far: a ring's tail (the kernel's head
    /// starts at 0 at registration), or the legacy SQEs' counts.
    provided: u32,
    /// `provided` when the first request selecting from the group was
    /// submitted, when it was.
    before_first: Option<u32>,
}

/// The buffers a group was given back, for the finding.
pub(super) enum Returned {
    /// Given back since the first request selected from the group, and
    /// how many the group held before that.
    Counted {
        returned: u32,
        initial: u32,
        incremental: bool,
    },
    /// Not known, and why.
    Unknown(&'static str),
}

/// The tail of the buffer ring at `br`.
fn tail(br: usize) -> u32 {
    let br = br as *mut io_uring_buf_ring;
    // SAFETY: `br` is a buffer ring registered for a group of this ring and
    // not unregistered since (its memory stays mapped meanwhile: the
    // program's contract, or the library's own mapping); the tail is an
    // aligned u16 the program stores with Release, loaded here with
    // Acquire as the kernel does.
    let tail = unsafe { AtomicU16::from_ptr(core::ptr::addr_of_mut!((*br).tail)) };
    u32::from(tail.load(Ordering::Acquire))
}

/// The tail of the buffer ring at `br` at a finding, copied without
/// faulting: another thread may have unregistered and unmapped the ring
/// while the checker was not looking (a registration heard while the
/// ring's record was checked out is skipped).
fn tail_if_mapped(br: usize) -> Option<u32> {
    let mut tail = [0u8; 2];
    let at = br.checked_add(core::mem::offset_of!(io_uring_buf_ring, tail))?;
    crate::quiet_copy::copy_quietly(&mut tail, at).then(|| u32::from(u16::from_ne_bytes(tail)))
}

fn slot_of(c: &mut RingCheck, bgid: u16) -> Option<&mut Group> {
    let i = c
        .pbuf_groups
        .iter()
        .position(|g| g.kind != FREE && g.bgid == bgid)
        .or_else(|| c.pbuf_groups.iter().position(|g| g.kind == FREE))?;
    c.pbuf_groups.get_mut(i)
}

/// A buffer ring registered for `bgid` (`br` null: where the program maps
/// it is not known), or unregistered (`entries` 0).
pub(super) fn registered(c: &mut RingCheck, bgid: u16, br: usize, entries: u32, flags: u32) {
    let Some(g) = slot_of(c, bgid) else {
        return;
    };
    if entries == 0 {
        *g = Group {
            bgid: 0,
            kind: FREE,
            incremental: false,
            br: 0,
            provided: 0,
            before_first: None,
        };
        return;
    }
    *g = Group {
        bgid,
        kind: if br != 0 { RING } else { RING_UNSEEN },
        incremental: flags & u32::from(IOU_PBUF_RING_INC) != 0,
        br,
        provided: if br != 0 { tail(br) } else { 0 },
        before_first: None,
    };
}

/// An `IORING_OP_PROVIDE_BUFFERS` SQE (`count` buffers for `bgid`), or an
/// `IORING_OP_REMOVE_BUFFERS` one (`removed`).
pub(super) fn legacy(c: &mut RingCheck, bgid: u16, count: u32, removed: bool) {
    let Some(g) = slot_of(c, bgid) else {
        return;
    };
    match g.kind {
        FREE => {
            *g = Group {
                bgid,
                kind: LEGACY,
                incremental: false,
                br: 0,
                provided: 0,
                before_first: None,
            }
        }
        LEGACY => {}
        _ => return,
    }
    if removed {
        g.kind = LEGACY_UNCOUNTED;
    } else {
        g.provided = g.provided.wrapping_add(count);
    }
}

/// A request selecting a buffer from `bgid` was submitted: the first one
/// marks what the group held before any was taken.
pub(super) fn selecting(c: &mut RingCheck, bgid: u16) {
    let Some(g) = c
        .pbuf_groups
        .iter_mut()
        .find(|g| g.kind != FREE && g.bgid == bgid)
    else {
        return;
    };
    if g.before_first.is_none() {
        g.before_first = Some(match g.kind {
            RING => tail(g.br),
            _ => g.provided,
        });
    }
}

/// The buffers given back to `bgid` since its first request (at the
/// finding: the ring's tail is read now).
pub(super) fn returned(c: &RingCheck, bgid: u16) -> Returned {
    let Some(g) = c
        .pbuf_groups
        .iter()
        .find(|g| g.kind != FREE && g.bgid == bgid)
    else {
        return Returned::Unknown(
            "no buffer ring registered for it nor IORING_OP_PROVIDE_BUFFERS for it was seen",
        );
    };
    let (now, wrap) = match g.kind {
        RING => match tail_if_mapped(g.br) {
            Some(t) => (t, true),
            None => return Returned::Unknown("its buffer ring is no longer mapped"),
        },
        LEGACY => (g.provided, false),
        RING_UNSEEN => {
            return Returned::Unknown(
                "its ring was allocated by the kernel and mapped by the program, where the checker does not look",
            )
        }
        _ => return Returned::Unknown("buffers were also removed from it"),
    };
    let Some(initial) = g.before_first else {
        return Returned::Unknown("no request selecting from it was seen submitted");
    };
    // A ring's tail is a u16 that wraps.
    let returned = if wrap {
        now.wrapping_sub(initial) & 0xffff
    } else {
        now.wrapping_sub(initial)
    };
    Returned::Counted {
        returned,
        initial,
        incremental: g.incremental,
    }
}

/// The table's size.
pub(super) const SLOTS: usize = GROUP_SLOTS;
