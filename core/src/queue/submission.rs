// SPDX-License-Identifier: MIT
//! The submission side: handing out SQEs, publishing them (the SQ tail)
//! and submitting them, with the decision to enter the kernel.

use core::ptr::{self, addr_of_mut, null_mut};
use core::sync::atomic::{fence, Ordering};

use super::completion::cq_needs_enter;
use super::{enter, load_sq_flags};
use crate::geometry::sqe_shift;
use crate::hint::cold_path;
use crate::observe::{Watch, Watched};
use crate::ring::LiveRing;
use crate::syscall::{SysResult, KERNEL_SIGSET_BYTES};
use crate::uapi::{
    io_uring_sqe, IORING_ENTER_GETEVENTS, IORING_ENTER_SQ_WAIT, IORING_ENTER_SQ_WAKEUP,
    IORING_SETUP_SQPOLL, IORING_SETUP_SQ_REWIND, IORING_SQ_NEED_WAKEUP,
};

/// The kernel's SQ head. Acquire: the slots below it are done being read.
#[inline(always)]
pub(super) fn load_sq_head(ring: LiveRing) -> u32 {
    ring.sq_khead().load(Ordering::Acquire)
}

/// Whether `submit` pending SQEs require `io_uring_enter`: always without
/// SQPOLL; with SQPOLL only when the poller thread went to sleep, in which
/// case `IORING_ENTER_SQ_WAKEUP` is added to `flags`.
#[inline(always)]
pub(super) fn sq_needs_enter(ring: LiveRing, submit: u32, flags: &mut u32) -> bool {
    if submit == 0 {
        return false;
    }
    if ring.flags() & IORING_SETUP_SQPOLL == 0 {
        return true;
    }
    // Full fence (store -> load). We just published the SQ tail and now read
    // NEED_WAKEUP; the poller, before it sleeps, sets NEED_WAKEUP and then
    // (behind its own full barrier) re-reads the tail. Without a full fence
    // on our side the CPU may perform our flag load before the tail store is
    // visible (store buffering, allowed even on x86), so we could read "awake"
    // while the poller reads the old tail and sleeps: our SQEs would sit
    // unsubmitted. With both fences at least one side sees the other's store.
    fence(Ordering::SeqCst);
    if load_sq_flags(ring) & IORING_SQ_NEED_WAKEUP != 0 {
        *flags |= IORING_ENTER_SQ_WAKEUP;
        return true;
    }
    false
}

/// Hands out the next free SQE, or null when the SQ is full
/// (`io_uring_get_sqe`; with `IORING_SETUP_SQE128` an SQE spans two slots).
/// The fields no `io_uring_prep_*` helper sets on every path are cleared
/// (liburing's `io_uring_initialize_sqe`).
#[inline]
pub fn get_sqe(ring: LiveRing) -> *mut io_uring_sqe {
    let head = load_sq_head(ring);
    let tail = ring.sqe_tail();
    if tail.wrapping_sub(head) >= ring.sq_entries() {
        return null_mut();
    }
    let index = (tail & ring.sq_mask()) << sqe_shift(ring.flags());
    let sqe = ring.sqes().wrapping_add(index as usize);
    ring.set_sqe_tail(tail.wrapping_add(1));
    // SAFETY: `index` is below the SQE array's `entries << shift` slots,
    // and the slot is free: the kernel's head has passed it (checked above,
    // Acquire), and no SQE below our tail is handed out twice.
    unsafe {
        addr_of_mut!((*sqe).flags).write(0);
        addr_of_mut!((*sqe).ioprio).write(0);
        addr_of_mut!((*sqe).rw_flags).write(0);
        addr_of_mut!((*sqe).buf_index).write(0);
        addr_of_mut!((*sqe).personality).write(0);
        // `file_index` shares these four bytes.
        addr_of_mut!((*sqe).splice_fd_in).write(0);
        addr_of_mut!((*sqe).addr3).write(0);
        addr_of_mut!((*sqe).__pad2[0]).write(0);
    }
    sqe
}

/// Publishes every SQE handed out since the last flush by moving the
/// kernel's SQ tail, and returns how many SQEs the kernel has yet to consume
/// (liburing's `__io_uring_flush_sq`).
///
/// The SQ array (when the ring has one) is the identity map written once at
/// setup, so only the tail moves. With `IORING_SETUP_SQ_REWIND` the kernel
/// always starts from slot 0: the local tail is reset instead.
#[inline(always)]
pub fn flush_sq(ring: LiveRing) -> u32 {
    let tail = ring.sqe_tail();
    if ring.flags() & IORING_SETUP_SQ_REWIND != 0 {
        // Rare: laid out of the common path's way.
        cold_path();
        ring.set_sqe_tail(0);
        return tail;
    }
    if ring.sqe_head() != tail {
        ring.set_sqe_head(tail);
        // Release: the SQE contents written before are visible to anyone who
        // sees this tail (the SQPOLL thread may read it at any moment).
        ring.sq_ktail().store(tail, Ordering::Release);
    }
    tail.wrapping_sub(load_sq_head(ring))
}

/// Enters the kernel if `submitted` SQEs or the completion side need it
/// (liburing's `__io_uring_submit`). Returns the number submitted.
#[inline(always)]
fn submit_flushed(ring: LiveRing, submitted: u32, wait_nr: u32, getevents: bool) -> SysResult<u32> {
    submit_flushed_counted(ring, submitted, wait_nr, getevents).0
}

/// Flushes the SQ and enters if needed; an observed call then reports.
#[inline(always)]
fn submit_as<W: Watch>(ring: LiveRing<W>, wait_nr: u32, getevents: bool) -> SysResult<u32> {
    // The sanitizer build checks what the SQEs point at first, where
    // liburing's does (its `__io_uring_submit`).
    #[cfg(feature = "sanitize")]
    crate::sanitize::check_unconsumed(ring.unwatched());
    let n = flush_sq(ring.unwatched());
    match ring.watch().watched() {
        None => submit_flushed(ring.unwatched(), n, wait_nr, getevents),
        Some(w) => submit_reported(ring.unwatched(), w, n, wait_nr, getevents),
    }
}

/// [`submit_as`] under an observer, out of line and cold: the same work,
/// counting its enters, then the report. The clock is read (and held
/// across the enter) only in a copy of its own, for an observer that wants
/// call times.
#[cold]
#[inline(never)]
fn submit_reported(
    ring: LiveRing,
    w: Watched,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
) -> SysResult<u32> {
    if w.timed() {
        return submit_reported_timed(ring, w, submitted, wait_nr, getevents);
    }
    submit_reported_at(ring, w, submitted, wait_nr, getevents, 0)
}

#[cold]
#[inline(never)]
fn submit_reported_timed(
    ring: LiveRing,
    w: Watched,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
) -> SysResult<u32> {
    // Told only here, on the timed observers' path (see
    // `Observer::submitting`): the untimed one pays nothing for it.
    // SAFETY: the live ring of the submit call this thread is in.
    unsafe { w.submitting(ring.as_non_null()) };
    submit_reported_at(ring, w, submitted, wait_nr, getevents, w.clock())
}

#[inline(always)]
fn submit_reported_at(
    ring: LiveRing,
    w: Watched,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
    entered_ns: u64,
) -> SysResult<u32> {
    let (r, enters) = submit_flushed_counted(ring, submitted, wait_nr, getevents);
    let reaped = wait_nr != 0 || getevents;
    // SAFETY: the live ring of the submit call this thread is in.
    unsafe { w.submitted(ring.as_non_null(), reaped, r, enters, entered_ns) };
    r
}

/// The decision to enter (the same as liburing's, laid out for the hot
/// path: a caller that waits (`wait_nr != 0`) or must reap enters whatever
/// the SQ says, so that is settled first and the SQ is then only asked about
/// the SQPOLL wakeup flag). Also returns the number of enters made.
#[inline(always)]
pub(super) fn submit_flushed_counted(
    ring: LiveRing,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
) -> (SysResult<u32>, u32) {
    let mut flags = ring.enter_flags();
    let need_enter = if wait_nr != 0 || getevents {
        // Entering anyway: `sq_needs_enter` only adds the SQPOLL wakeup.
        let _ = sq_needs_enter(ring, submitted, &mut flags);
        flags |= IORING_ENTER_GETEVENTS;
        true
    } else if cq_needs_enter(ring) {
        let _ = sq_needs_enter(ring, submitted, &mut flags);
        flags |= IORING_ENTER_GETEVENTS;
        true
    } else {
        sq_needs_enter(ring, submitted, &mut flags)
    };
    if !need_enter {
        return (Ok(submitted), 0);
    }
    let r = enter(
        ring,
        submitted,
        wait_nr,
        flags,
        ptr::null(),
        KERNEL_SIGSET_BYTES,
    );
    (r, 1)
}

/// `io_uring_submit`: returns the number of SQEs submitted.
#[inline]
pub fn submit<W: Watch>(ring: LiveRing<W>) -> SysResult<u32> {
    submit_as(ring, 0, false)
}

/// `io_uring_submit_and_wait`: submits, then waits for `wait_nr` CQEs.
#[inline]
pub fn submit_and_wait<W: Watch>(ring: LiveRing<W>, wait_nr: u32) -> SysResult<u32> {
    submit_as(ring, wait_nr, false)
}

/// `io_uring_submit_and_get_events`: submits and always lets the kernel
/// flush completions (task work, overflow) into the CQ.
#[inline]
pub fn submit_and_get_events<W: Watch>(ring: LiveRing<W>) -> SysResult<u32> {
    submit_as(ring, 0, true)
}

/// `__io_uring_sqring_wait`: sleeps until the SQPOLL thread frees SQ space.
pub fn sqring_wait(ring: LiveRing) -> SysResult<u32> {
    let flags = IORING_ENTER_SQ_WAIT | ring.enter_flags();
    enter(ring, 0, 0, flags, ptr::null(), KERNEL_SIGSET_BYTES)
}
