// SPDX-License-Identifier: MIT
//! The completion side: the CQ indices, finding CQEs (one, or a batch) and
//! releasing them.

use core::ptr::null_mut;
use core::sync::atomic::Ordering;

use super::{get_events, load_sq_flags, CqeOut};
use crate::geometry::cqe_shift;
use crate::ring::LiveRing;
use crate::structs::int_flags;
use crate::syscall::{Errno, SysResult};
use crate::uapi::{
    io_uring_cqe, IORING_CQE_F_32, IORING_CQE_F_SKIP, IORING_FEAT_EXT_ARG, IORING_SETUP_CQE_MIXED,
    IORING_SQ_CQ_OVERFLOW, IORING_SQ_TASKRUN,
};

/// `user_data` of the timeout SQE the library queues itself on kernels
/// without `IORING_FEAT_EXT_ARG` (liburing's `LIBURING_UDATA_TIMEOUT`).
/// Its completion is consumed internally and never shown to the caller.
pub const LIBURING_UDATA_TIMEOUT: u64 = u64::MAX;

/// The kernel's CQ tail. Acquire: the CQEs below it are fully written.
#[inline(always)]
pub(super) fn load_cq_tail(ring: LiveRing) -> u32 {
    ring.cq_ktail().load(Ordering::Acquire)
}

/// Our own CQ head. Only the application writes it: Relaxed.
#[inline(always)]
pub(super) fn load_cq_head(ring: LiveRing) -> u32 {
    ring.cq_khead().load(Ordering::Relaxed)
}

/// How many CQ slots a CQE with these `flags` occupies: 2 for a 32-byte CQE
/// on a `IORING_SETUP_CQE_MIXED` ring, else 1 (liburing's `io_uring_cqe_nr`).
#[inline(always)]
pub fn cqe_slots(flags: u32) -> u32 {
    1 << ((flags & IORING_CQE_F_32 != 0) as u32)
}

/// The CQE at ring index `index` (masked here).
#[inline(always)]
pub(super) fn cqe_at(ring: LiveRing, index: u32, shift: u32) -> *mut io_uring_cqe {
    let slot = ((index & ring.cq_mask()) << shift) as usize;
    // Stays inside the CQE array (`cq_entries << shift` slots), so no
    // `unsafe` pointer offset is needed; the result is only dereferenced
    // below the kernel's tail.
    ring.cqes().wrapping_add(slot)
}

/// `(flags, user_data, res)` of a CQE.
///
/// # Safety
/// `cqe` must be a CQE of a live ring at an index below the CQ tail loaded
/// with Acquire, and not yet released: inside the mapping, fully written by
/// the kernel, which does not touch it again until the head moves past it.
#[inline(always)]
pub(super) unsafe fn read_cqe(cqe: *const io_uring_cqe) -> (u32, u64, i32) {
    // SAFETY: per the caller.
    unsafe { ((*cqe).flags, (*cqe).user_data, (*cqe).res) }
}

/// CQ slots filled by the kernel and not yet released (`io_uring_cq_ready`).
#[inline]
pub fn cq_ready(ring: LiveRing) -> u32 {
    load_cq_tail(ring).wrapping_sub(load_cq_head(ring))
}

/// Releases `nr` CQ slots to the kernel (`io_uring_cq_advance`). CQEs
/// handed out from those slots must not be read afterwards.
#[inline]
pub fn cq_advance(ring: LiveRing, nr: u32) {
    if nr != 0 {
        let head = ring.cq_khead();
        // Release: our reads of the released CQEs happen before the kernel
        // can see the slots as free and overwrite them.
        head.store(
            head.load(Ordering::Relaxed).wrapping_add(nr),
            Ordering::Release,
        );
    }
}

/// Whether the kernel holds completions it has not yet posted: overflowed
/// CQEs, or task work (`IORING_SQ_TASKRUN`) that would produce some.
#[inline(always)]
pub(super) fn cq_needs_flush(ring: LiveRing) -> bool {
    load_sq_flags(ring) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN) != 0
}

/// Whether looking for completions requires `io_uring_enter`.
#[inline(always)]
pub(super) fn cq_needs_enter(ring: LiveRing) -> bool {
    ring.int_flags() & int_flags::CQ_ENTER != 0 || cq_needs_flush(ring)
}

/// Finds the first CQE the caller should see (liburing's
/// `__io_uring_peek_cqe`). Skip entries (`IORING_CQE_F_SKIP`) are released
/// on the way, and so is the completion of our own fallback timeout (on
/// kernels without `IORING_FEAT_EXT_ARG`); if that timeout failed (normally
/// with `ETIME`), its error is returned.
///
/// On success returns the CQE (null if none) and the number of CQ slots
/// ready at that point.
#[inline]
pub fn peek_cqe(ring: LiveRing) -> SysResult<(*mut io_uring_cqe, u32)> {
    let shift = cqe_shift(ring.flags());
    loop {
        // The tail is Acquire-loaded first, which orders the CQE reads below
        // after the kernel's writes of them.
        let tail = load_cq_tail(ring);
        let head = load_cq_head(ring);
        let available = tail.wrapping_sub(head);
        if available == 0 {
            return Ok((null_mut(), 0));
        }
        let cqe = cqe_at(ring, head, shift);
        // SAFETY: `head` is below the Acquire-loaded tail (available > 0).
        let (flags, user_data, res) = unsafe { read_cqe(cqe) };
        let ours = flags & IORING_CQE_F_SKIP != 0
            || (ring.features() & IORING_FEAT_EXT_ARG == 0 && user_data == LIBURING_UDATA_TIMEOUT);
        if !ours {
            return Ok((cqe, available));
        }
        // Consumed here and never shown.
        cq_advance(ring, cqe_slots(flags));
        if flags & IORING_CQE_F_SKIP == 0 && res < 0 {
            return Err(Errno::from_neg(res));
        }
    }
}

/// One pass of `io_uring_peek_batch_cqe`: fills `out` from the CQ without
/// entering the kernel. `None` means nothing was found.
#[inline]
fn peek_batch_once(ring: LiveRing, out: &mut [CqeOut]) -> Option<u32> {
    if ring.flags() & IORING_SETUP_CQE_MIXED != 0 {
        peek_batch_mixed(ring, out)
    } else {
        peek_batch_plain(ring, out)
    }
}

/// [`peek_batch_once`] on a ring whose CQEs all take the same room.
#[inline(always)]
fn peek_batch_plain(ring: LiveRing, out: &mut [CqeOut]) -> Option<u32> {
    // Acquire on the tail orders the CQE reads below after the kernel's
    // writes.
    let ready = cq_ready(ring);
    if ready == 0 {
        return None;
    }
    Some(fill_plain(ring, out, ready))
}

/// Points `out` at up to `ready` CQEs from the head of a ring whose CQEs
/// all take the same room; returns how many.
#[inline(always)]
fn fill_plain(ring: LiveRing, out: &mut [CqeOut], ready: u32) -> u32 {
    let mut head = load_cq_head(ring);
    let shift = cqe_shift(ring.flags());
    let count = ready.min(u32::try_from(out.len()).unwrap_or(u32::MAX));
    let last = head.wrapping_add(count);
    let mut slot = out.as_mut_ptr();
    while head != last {
        // A volatile store keeps this loop scalar: vectorised, it needs two
        // callee-saved registers, pushed and popped on every call, which
        // costs more than the handful of CQEs a batch usually holds.
        // SAFETY: `count <= out.len()` slots are written in order, so
        // `slot` stays inside `out` (a plain pointer walk: no bounds check,
        // hence no panic path).
        unsafe {
            slot.cast::<*mut io_uring_cqe>()
                .write_volatile(cqe_at(ring, head, shift));
            slot = slot.add(1);
        }
        head = head.wrapping_add(1);
    }
    count
}

/// [`peek_batch_once`] on an `IORING_SETUP_CQE_MIXED` ring. Out of line:
/// it keeps the common path free of this loop's register needs.
#[inline(never)]
fn peek_batch_mixed(ring: LiveRing, out: &mut [CqeOut]) -> Option<u32> {
    let ready = cq_ready(ring);
    if ready == 0 {
        return None;
    }
    let mut head = load_cq_head(ring);
    // A CQE takes one or two slots, and skip entries pad the ring at wrap
    // time. Only real CQEs are returned; a skip entry can be released only
    // while it is at the CQ head, so one found after a real CQE ends the
    // batch (it will be at the head next time).
    let last = head.wrapping_add(ready);
    let mut nr = 0usize;
    while head != last && nr < out.len() {
        let cqe = cqe_at(ring, head, 0);
        // SAFETY: `head` is below `last`, i.e. below the Acquire-loaded tail.
        let (flags, _, _) = unsafe { read_cqe(cqe) };
        if flags & IORING_CQE_F_SKIP != 0 {
            if nr != 0 {
                break;
            }
            // Never shown to anyone.
            cq_advance(ring, 1);
            head = head.wrapping_add(1);
            continue;
        }
        head = head.wrapping_add(cqe_slots(flags));
        let Some(slot) = out.get_mut(nr) else { break };
        slot.write(cqe);
        nr += 1;
    }
    (nr != 0).then_some(nr as u32)
}

/// `io_uring_peek_batch_cqe`: fills `out` with up to `out.len()` ready
/// CQEs and returns how many. Enters the kernel (once) only when the CQ is
/// empty and the kernel holds overflowed CQEs or pending task work.
#[inline]
pub fn peek_batch_cqe(ring: LiveRing, out: &mut [CqeOut]) -> u32 {
    // Acquire on the tail orders the CQE reads after the kernel's writes.
    let ready = cq_ready(ring);
    if ready == 0 {
        if !cq_needs_flush(ring) {
            return 0;
        }
        return peek_batch_after_flush(ring, out);
    }
    if ring.flags() & IORING_SETUP_CQE_MIXED != 0 {
        return peek_batch_flushing(ring, out);
    }
    fill_plain(ring, out, ready)
}

/// [`peek_batch_cqe`] for any ring, out of line (mixed rings).
#[inline(never)]
fn peek_batch_flushing(ring: LiveRing, out: &mut [CqeOut]) -> u32 {
    if let Some(n) = peek_batch_once(ring, out) {
        return n;
    }
    if !cq_needs_flush(ring) {
        return 0;
    }
    peek_batch_after_flush(ring, out)
}

/// The rare second half of [`peek_batch_cqe`]: lets the kernel flush
/// overflowed CQEs or run task work, then looks again. Out of line so the
/// common path needs no registers saved across a system call.
#[cold]
#[inline(never)]
fn peek_batch_after_flush(ring: LiveRing, out: &mut [CqeOut]) -> u32 {
    // As in liburing, a failed flush just means nothing more is found.
    let _ = get_events(ring);
    peek_batch_once(ring, out).unwrap_or(0)
}
