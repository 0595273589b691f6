//! Submission and completion: handing prepared SQEs to the kernel, deciding
//! when `io_uring_enter` is needed, and finding CQEs (liburing's `queue.c`
//! and the ring-walking inline helpers of `liburing.h`).
//!
//! # The live-ring contract
//! Every `unsafe fn` here takes a ring that is *live*: filled in by a
//! successful `io_uring_queue_init*` of this library (or an equivalent that
//! sets the same pointers) and not yet torn down. All pointers in it then
//! address the kernel-shared ring memory, are aligned, and stay valid for the
//! duration of the call. That is the "live ring" every SAFETY comment below
//! relies on.
//!
//! # Memory ordering
//! The four ring indices are shared with the kernel and are only touched
//! through [`AtomicU32`]:
//! - SQ tail: written by us with a Release store, so the SQE contents we
//!   wrote before it are visible to whoever sees the new tail (the SQPOLL
//!   thread reads it at any time; a plain `io_uring_enter` would be ordered
//!   by the syscall anyway, and on x86-64 the Release store is a plain `mov`).
//! - SQ head: written by the kernel once it has finished reading SQEs; we
//!   Acquire-load it so that our later writes to freed slots cannot overtake
//!   the kernel's reads of them.
//! - CQ tail: written by the kernel after it filled the CQEs below it; we
//!   Acquire-load it before reading any CQE.
//! - CQ head: only we write it (Release, after we are done reading the CQEs
//!   it releases); our own reads of it are Relaxed.
//!
//! The SQ flags word (`IORING_SQ_*`) is only a hint to enter the kernel, so
//! it is read Relaxed; the one place where its ordering matters (SQPOLL
//! wakeup) is preceded by a full fence, see [`sq_needs_enter`].

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::{self, null_mut};
use core::sync::atomic::{fence, AtomicU32, Ordering};

use crate::setup::{cqe_shift, sqe_shift};
use crate::structs::{int_flags, io_uring};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    __kernel_timespec, io_uring_cqe, io_uring_getevents_arg, io_uring_reg_wait, io_uring_sqe,
    IORING_CQE_F_32, IORING_CQE_F_SKIP, IORING_ENTER_EXT_ARG, IORING_ENTER_EXT_ARG_REG,
    IORING_ENTER_GETEVENTS, IORING_ENTER_SQ_WAIT, IORING_ENTER_SQ_WAKEUP, IORING_FEAT_EXT_ARG,
    IORING_FEAT_MIN_TIMEOUT, IORING_OP_TIMEOUT, IORING_SETUP_CQE_MIXED, IORING_SETUP_SQPOLL, IORING_SETUP_SQ_REWIND, IORING_SQ_CQ_OVERFLOW,
    IORING_SQ_NEED_WAKEUP, IORING_SQ_TASKRUN,
};

/// `user_data` of the timeout SQE the library queues itself on kernels
/// without `IORING_FEAT_EXT_ARG` (liburing's `LIBURING_UDATA_TIMEOUT`).
/// Its completion is consumed internally and never shown to the caller.
pub const LIBURING_UDATA_TIMEOUT: u64 = u64::MAX;

/// `_NSIG / 8`: the size of the kernel's signal set, passed along with every
/// plain (non-`EXT_ARG`) sigmask argument, as liburing does.
const KERNEL_SIGSET_BYTES: usize = 8;

// ---------------------------------------------------------------------------
// Shared-index access
// ---------------------------------------------------------------------------

/// Views one of the ring's kernel-shared `u32`s as an atomic.
///
/// # Safety
/// `p` must point at an aligned `u32` of a live ring's shared memory.
#[inline(always)]
unsafe fn shared<'a>(p: *mut u32) -> &'a AtomicU32 {
    // SAFETY: per the caller, `p` is valid and aligned for the ring's
    // lifetime, which covers every use of the returned reference (callers
    // never keep it beyond their own call); all our accesses to these words
    // are atomic, and the kernel's are its own marked accesses.
    unsafe { AtomicU32::from_ptr(p) }
}

/// The kernel's SQ head (Acquire: slots below it are done being read).
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn load_sq_head(ring: &io_uring) -> u32 {
    // SAFETY: live ring: `khead` points into the SQ ring.
    unsafe { shared(ring.sq.khead) }.load(Ordering::Acquire)
}

/// The kernel's `IORING_SQ_*` flags word. Relaxed: it only tells us whether
/// to enter the kernel; no data is read on the strength of it.
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn load_sq_flags(ring: &io_uring) -> u32 {
    // SAFETY: live ring: `kflags` points into the SQ ring.
    unsafe { shared(ring.sq.kflags) }.load(Ordering::Relaxed)
}

/// The kernel's CQ tail (Acquire: the CQEs below it are fully written).
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn load_cq_tail(ring: &io_uring) -> u32 {
    // SAFETY: live ring: `ktail` points into the CQ ring.
    unsafe { shared(ring.cq.ktail) }.load(Ordering::Acquire)
}

/// Our own CQ head. Only the application writes it, so Relaxed suffices.
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn load_cq_head(ring: &io_uring) -> u32 {
    // SAFETY: live ring: `khead` points into the CQ ring.
    unsafe { shared(ring.cq.khead) }.load(Ordering::Relaxed)
}

/// How many CQ slots `cqe` occupies: 2 for a 32-byte CQE on a
/// `IORING_SETUP_CQE_MIXED` ring, else 1 (liburing's `io_uring_cqe_nr`).
///
/// # Safety
/// `cqe` must point at a readable CQE.
#[inline(always)]
pub unsafe fn cqe_nr(cqe: *const io_uring_cqe) -> u32 {
    // SAFETY: per the caller.
    let flags = unsafe { (*cqe).flags };
    1 << ((flags & IORING_CQE_F_32 != 0) as u32)
}

// ---------------------------------------------------------------------------
// Ring state helpers (the inline functions of liburing.h)
// ---------------------------------------------------------------------------

/// SQEs handed out but not yet consumed by the kernel (`io_uring_sq_ready`).
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn sq_ready(ring: &io_uring) -> u32 {
    // SAFETY: forwarded live-ring guarantee.
    ring.sq.sqe_tail.wrapping_sub(unsafe { load_sq_head(ring) })
}

/// Free SQ slots (`io_uring_sq_space_left`).
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn sq_space_left(ring: &io_uring) -> u32 {
    // SAFETY: forwarded live-ring guarantee.
    ring.sq.ring_entries.wrapping_sub(unsafe { sq_ready(ring) })
}

/// CQ slots filled by the kernel and not yet released (`io_uring_cq_ready`).
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn cq_ready(ring: &io_uring) -> u32 {
    // SAFETY: forwarded live-ring guarantee.
    unsafe { load_cq_tail(ring).wrapping_sub(load_cq_head(ring)) }
}

/// Releases `nr` CQ slots to the kernel (`io_uring_cq_advance`).
///
/// # Safety
/// `ring` must be live, and the caller must be done with the CQEs released.
#[inline]
pub unsafe fn cq_advance(ring: &io_uring, nr: u32) {
    if nr != 0 {
        // SAFETY: live ring: `khead` points into the CQ ring.
        let head = unsafe { shared(ring.cq.khead) };
        // Release: our reads of the released CQEs happen before the kernel
        // can see the slots as free and overwrite them.
        head.store(head.load(Ordering::Relaxed).wrapping_add(nr), Ordering::Release);
    }
}

/// Whether the kernel holds completions it has not yet posted: overflowed
/// CQEs, or task work (`IORING_SQ_TASKRUN`) that would produce some.
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn cq_needs_flush(ring: &io_uring) -> bool {
    // SAFETY: forwarded live-ring guarantee.
    let flags = unsafe { load_sq_flags(ring) };
    flags & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN) != 0
}

/// Whether looking for completions requires `io_uring_enter`.
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn cq_needs_enter(ring: &io_uring) -> bool {
    // SAFETY: forwarded live-ring guarantee.
    ring.int_flags & int_flags::CQ_ENTER != 0 || unsafe { cq_needs_flush(ring) }
}

/// Whether `submit` pending SQEs require `io_uring_enter`: always without
/// SQPOLL; with SQPOLL only when the poller thread went to sleep, in which
/// case `IORING_ENTER_SQ_WAKEUP` is added to `flags`.
///
/// # Safety
/// `ring` must be live.
#[inline(always)]
unsafe fn sq_needs_enter(ring: &io_uring, submit: u32, flags: &mut u32) -> bool {
    if submit == 0 {
        return false;
    }
    if ring.flags & IORING_SETUP_SQPOLL == 0 {
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
    // SAFETY: forwarded live-ring guarantee.
    if unsafe { load_sq_flags(ring) } & IORING_SQ_NEED_WAKEUP != 0 {
        *flags |= IORING_ENTER_SQ_WAKEUP;
        return true;
    }
    false
}

/// `io_uring_enter` on the ring's enter fd (the registered index when
/// `int_flags::REG_RING` is set; the caller includes `ring.enter_flags()`).
///
/// # Safety
/// `arg`/`argsz` must be what `flags` tell the kernel to read.
#[inline(always)]
unsafe fn enter(ring: &io_uring, to_submit: u32, min_complete: u32, flags: u32, arg: *const c_void, argsz: usize) -> SysResult<u32> {
    // SAFETY: forwarded caller guarantee about `arg`.
    let n = unsafe { syscall::io_uring_enter2(ring.enter_ring_fd as u32, to_submit, min_complete, flags, arg, argsz) }?;
    Ok(n as u32)
}

// ---------------------------------------------------------------------------
// Submission side
// ---------------------------------------------------------------------------

/// Clears the SQE fields that no `io_uring_prep_*` helper sets on every
/// path (liburing's `io_uring_initialize_sqe`).
///
/// # Safety
/// `sqe` must be a writable SQE slot the application owns.
#[inline(always)]
unsafe fn initialize_sqe(sqe: *mut io_uring_sqe) {
    // SAFETY: per the caller the slot is ours to write; the kernel reads it
    // only after the tail covering it is published.
    unsafe {
        let s = &mut *sqe;
        s.flags = 0;
        s.ioprio = 0;
        s.rw_flags = 0;
        s.buf_index = 0;
        s.personality = 0;
        // `file_index` shares these four bytes.
        s.splice_fd_in = 0;
        s.addr3 = 0;
        s.__pad2[0] = 0;
    }
}

/// Hands out the next free SQE, or null when the SQ is full
/// (`io_uring_get_sqe`; with `IORING_SETUP_SQE128` an SQE spans two slots).
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn get_sqe(ring: &mut io_uring) -> *mut io_uring_sqe {
    // SAFETY: live ring.
    let head = unsafe { load_sq_head(ring) };
    let tail = ring.sq.sqe_tail;
    if tail.wrapping_sub(head) >= ring.sq.ring_entries {
        return null_mut();
    }
    let index = (tail & ring.sq.ring_mask) << sqe_shift(ring.flags);
    // SAFETY: live ring: the SQE array has `ring_entries << shift` slots and
    // `index` is below that. The slot is free (checked against the head).
    let sqe = unsafe { ring.sq.sqes.add(index as usize) };
    ring.sq.sqe_tail = tail.wrapping_add(1);
    // SAFETY: the slot was just handed to the application side.
    unsafe { initialize_sqe(sqe) };
    sqe
}

/// Publishes every SQE handed out since the last flush by moving the
/// kernel's SQ tail, and returns how many SQEs the kernel has yet to consume
/// (liburing's `__io_uring_flush_sq`).
///
/// The SQ array (when the ring has one) is the identity map written once at
/// setup, so only the tail moves. With `IORING_SETUP_SQ_REWIND` the kernel
/// always starts from slot 0: the local tail is reset instead.
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn flush_sq(ring: &mut io_uring) -> u32 {
    let tail = ring.sq.sqe_tail;
    if ring.flags & IORING_SETUP_SQ_REWIND != 0 {
        ring.sq.sqe_tail = 0;
        return tail;
    }
    if ring.sq.sqe_head != tail {
        ring.sq.sqe_head = tail;
        // SAFETY: live ring: `ktail` points into the SQ ring.
        let ktail = unsafe { shared(ring.sq.ktail) };
        // Release: the SQE contents written before are visible to anyone who
        // sees this tail (the SQPOLL thread may read it at any moment).
        ktail.store(tail, Ordering::Release);
    }
    // SAFETY: live ring.
    tail.wrapping_sub(unsafe { load_sq_head(ring) })
}

/// Enters the kernel if `submitted` SQEs or the completion side need it
/// (liburing's `__io_uring_submit`). Returns the number submitted.
///
/// # Safety
/// `ring` must be live.
#[inline]
unsafe fn submit_flushed(ring: &mut io_uring, submitted: u32, wait_nr: u32, getevents: bool) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    let cq_enter = getevents || wait_nr != 0 || unsafe { cq_needs_enter(ring) };
    let mut flags = ring.enter_flags();
    // SAFETY: see above.
    if unsafe { sq_needs_enter(ring, submitted, &mut flags) } || cq_enter {
        if cq_enter {
            flags |= IORING_ENTER_GETEVENTS;
        }
        // SAFETY: no argument pointer is passed.
        unsafe { enter(ring, submitted, wait_nr, flags, ptr::null(), KERNEL_SIGSET_BYTES) }
    } else {
        Ok(submitted)
    }
}

/// `io_uring_submit`: returns the number of SQEs submitted.
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn submit(ring: &mut io_uring) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    unsafe {
        let n = flush_sq(ring);
        submit_flushed(ring, n, 0, false)
    }
}

/// `io_uring_submit_and_wait`: submits, then waits for `wait_nr` CQEs.
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn submit_and_wait(ring: &mut io_uring, wait_nr: u32) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    unsafe {
        let n = flush_sq(ring);
        submit_flushed(ring, n, wait_nr, false)
    }
}

/// `io_uring_submit_and_get_events`: submits and always lets the kernel
/// flush completions (task work, overflow) into the CQ.
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn submit_and_get_events(ring: &mut io_uring) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    unsafe {
        let n = flush_sq(ring);
        submit_flushed(ring, n, 0, true)
    }
}

/// `io_uring_get_events`: enters with `IORING_ENTER_GETEVENTS` only, which
/// runs pending task work and flushes overflowed CQEs.
///
/// # Safety
/// `ring` must be live.
pub unsafe fn get_events(ring: &mut io_uring) -> SysResult<u32> {
    let flags = IORING_ENTER_GETEVENTS | ring.enter_flags();
    // SAFETY: no argument pointer is passed.
    unsafe { enter(ring, 0, 0, flags, ptr::null(), KERNEL_SIGSET_BYTES) }
}

/// `__io_uring_sqring_wait`: sleeps until the SQPOLL thread frees SQ space.
///
/// # Safety
/// `ring` must be live.
pub unsafe fn sqring_wait(ring: &mut io_uring) -> SysResult<u32> {
    let flags = IORING_ENTER_SQ_WAIT | ring.enter_flags();
    // SAFETY: no argument pointer is passed.
    unsafe { enter(ring, 0, 0, flags, ptr::null(), KERNEL_SIGSET_BYTES) }
}

// ---------------------------------------------------------------------------
// Completion side
// ---------------------------------------------------------------------------

/// Finds the first CQE the caller should see (liburing's
/// `__io_uring_peek_cqe`). Skip entries (`IORING_CQE_F_SKIP`) are released
/// on the way, and so is the completion of our own fallback timeout (on
/// kernels without `IORING_FEAT_EXT_ARG`); if that timeout failed (normally
/// with `ETIME`), its error is returned.
///
/// On success returns the CQE (null if none) and the number of CQ slots
/// ready at that point.
///
/// # Safety
/// `ring` must be live.
#[inline]
pub unsafe fn peek_cqe(ring: &io_uring) -> SysResult<(*mut io_uring_cqe, u32)> {
    let mask = ring.cq.ring_mask;
    let shift = cqe_shift(ring.flags);
    loop {
        // SAFETY: live ring. The tail is Acquire-loaded first, which orders
        // the CQE reads below after the kernel's writes of them.
        let (tail, head) = unsafe { (load_cq_tail(ring), load_cq_head(ring)) };
        let available = tail.wrapping_sub(head);
        if available == 0 {
            return Ok((null_mut(), 0));
        }
        // SAFETY: live ring: the index is within the CQE array, and the slot
        // is below the tail, so the kernel has finished writing it.
        let cqe = unsafe { ring.cq.cqes.add(((head & mask) << shift) as usize) };
        // SAFETY: as just said, the CQE is readable.
        let (flags, user_data, res) = unsafe { ((*cqe).flags, (*cqe).user_data, (*cqe).res) };
        let ours = flags & IORING_CQE_F_SKIP != 0
            || (ring.features & IORING_FEAT_EXT_ARG == 0 && user_data == LIBURING_UDATA_TIMEOUT);
        if !ours {
            return Ok((cqe, available));
        }
        // SAFETY: live ring; the entry is consumed here and never shown.
        unsafe { cq_advance(ring, cqe_nr(cqe)) };
        if flags & IORING_CQE_F_SKIP == 0 && res < 0 {
            return Err(Errno(res.wrapping_neg()));
        }
    }
}

/// Parameters of one `get_cqe` call (liburing's `struct get_data`).
struct WaitSpec {
    /// SQEs still to submit.
    submit: u32,
    /// CQEs to wait for.
    wait_nr: u32,
    /// Extra enter flags when waiting (`EXT_ARG`, `EXT_ARG_REG`).
    get_flags: u32,
    /// The enter argument: a sigmask, an `io_uring_getevents_arg`, or an
    /// offset into the registered wait region.
    arg: *const c_void,
    argsz: usize,
    /// The wait has a timeout the kernel enforces: do not wait twice.
    has_ts: bool,
}

/// The completion loop behind every wait (liburing's `_io_uring_get_cqe`).
///
/// Returns liburing's result: the count the first `io_uring_enter` returned
/// (SQEs submitted), 0 if none was needed, or an error: the first one seen
/// wins, and an error after a first successful enter that submitted
/// something is not reported. `*cqe_out` always receives the CQE found, or
/// null.
///
/// # Safety
/// `ring` must be live and `spec.arg` valid for what `spec.get_flags`
/// tells the kernel it is.
unsafe fn get_cqe_loop(ring: &mut io_uring, cqe_out: &mut *mut io_uring_cqe, spec: &mut WaitSpec) -> SysResult<u32> {
    let mut cqe: *mut io_uring_cqe;
    let mut looped = false;
    // liburing's `err`: 0 = nothing yet, > 0 = first enter's count, < 0 = -errno.
    let mut err: i32 = 0;

    loop {
        let mut need_enter = false;
        let mut flags = ring.enter_flags();

        // SAFETY: forwarded live-ring guarantee.
        let available = match unsafe { peek_cqe(ring) } {
            Ok((found, available)) => {
                cqe = found;
                available
            }
            Err(e) => {
                cqe = null_mut();
                if err == 0 {
                    err = e.neg();
                }
                break;
            }
        };

        if cqe.is_null() && spec.wait_nr == 0 && spec.submit == 0 {
            // A pure peek: enter at most once, and only if the kernel
            // may have completions to flush.
            // SAFETY: forwarded live-ring guarantee.
            if looped || !unsafe { cq_needs_enter(ring) } {
                if err == 0 {
                    err = Errno::EAGAIN.neg();
                }
                break;
            }
            need_enter = true;
        }
        if spec.wait_nr > available || need_enter {
            flags |= IORING_ENTER_GETEVENTS | spec.get_flags;
            need_enter = true;
        }
        // SAFETY: forwarded live-ring guarantee.
        if unsafe { sq_needs_enter(ring, spec.submit, &mut flags) } {
            need_enter = true;
        }
        if !need_enter {
            break;
        }
        if looped && spec.has_ts {
            // The kernel already waited out the timeout once.
            if cqe.is_null() && err == 0 {
                err = Errno::ETIME.neg();
            }
            break;
        }

        // SAFETY: the caller vouches for `spec.arg`.
        match unsafe { enter(ring, spec.submit, spec.wait_nr, flags, spec.arg, spec.argsz) } {
            Err(e) => {
                if err == 0 {
                    err = e.neg();
                }
                break;
            }
            Ok(n) => {
                spec.submit = spec.submit.wrapping_sub(n);
                if !cqe.is_null() {
                    break;
                }
                if !looped {
                    looped = true;
                    err = n as i32;
                }
            }
        }
    }

    *cqe_out = cqe;
    if err < 0 {
        Err(Errno(err.wrapping_neg()))
    } else {
        Ok(err as u32)
    }
}

/// `__io_uring_get_cqe`: submits `submit` already-flushed SQEs and waits
/// for `wait_nr` CQEs, with an optional signal mask.
///
/// # Safety
/// `ring` must be live; `sigmask` null or a readable `sigset_t`.
pub unsafe fn get_cqe(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let mut spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: 0,
        arg: sigmask.cast(),
        argsz: KERNEL_SIGSET_BYTES,
        has_ts: false,
    };
    // SAFETY: forwarded caller guarantees; a plain sigmask is what the
    // kernel reads without EXT_ARG.
    unsafe { get_cqe_loop(ring, cqe_out, &mut spec) }
}

/// Waits through `IORING_ENTER_EXT_ARG` (liburing's `io_uring_wait_cqes_new`
/// and the EXT_ARG branch of `__io_uring_submit_and_wait_timeout`).
///
/// # Safety
/// `ring` must be live; `ts` null or a readable `__kernel_timespec`;
/// `sigmask` null or a readable `sigset_t`.
unsafe fn wait_ext_arg(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    submit: u32,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let arg = io_uring_getevents_arg {
        sigmask: sigmask as u64,
        sigmask_sz: KERNEL_SIGSET_BYTES as u32,
        min_wait_usec,
        ts: ts as u64,
    };
    let mut spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: IORING_ENTER_EXT_ARG,
        arg: ptr::from_ref(&arg).cast(),
        argsz: size_of::<io_uring_getevents_arg>(),
        has_ts: !ts.is_null(),
    };
    // SAFETY: `arg` lives across the loop and is what EXT_ARG makes the
    // kernel read; the pointers inside it are vouched for by the caller.
    unsafe { get_cqe_loop(ring, cqe_out, &mut spec) }
}

/// Queues the fallback timeout SQE (kernels without `IORING_FEAT_EXT_ARG`)
/// and flushes the SQ; returns the SQEs now pending (liburing's
/// `__io_uring_submit_timeout`).
///
/// # Safety
/// `ring` must be live; `ts` a readable `__kernel_timespec` that stays
/// valid until the SQE is submitted (within this wait).
unsafe fn queue_fallback_timeout(ring: &mut io_uring, wait_nr: u32, ts: *const __kernel_timespec) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    let mut sqe = unsafe { get_sqe(ring) };
    if sqe.is_null() {
        // SQ full: push what is there to make room.
        // SAFETY: see above.
        unsafe { submit(ring) }?;
        // SAFETY: see above.
        sqe = unsafe { get_sqe(ring) };
        if sqe.is_null() {
            return Err(Errno::EAGAIN);
        }
    }
    // SAFETY: `sqe` was just handed out to us and is not yet published.
    unsafe {
        let s = &mut *sqe;
        s.opcode = IORING_OP_TIMEOUT;
        s.fd = -1;
        s.addr = ts as u64;
        s.len = 1;
        // A timeout's completion count goes in `off`.
        s.off = u64::from(wait_nr);
        // `timeout_flags`.
        s.rw_flags = 0;
        s.user_data = LIBURING_UDATA_TIMEOUT;
    }
    // SAFETY: see above.
    Ok(unsafe { flush_sq(ring) })
}

/// `io_uring_wait_cqes`: waits for `wait_nr` CQEs, up to `ts` if given.
///
/// # Safety
/// `ring` must be live; `ts` null or a readable `__kernel_timespec`;
/// `sigmask` null or a readable `sigset_t`.
pub unsafe fn wait_cqes(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let mut to_submit = 0;
    if !ts.is_null() {
        if ring.features & IORING_FEAT_EXT_ARG != 0 {
            // SAFETY: forwarded caller guarantees.
            return unsafe { wait_ext_arg(ring, cqe_out, 0, wait_nr, ts, 0, sigmask) };
        }
        // SAFETY: forwarded caller guarantees.
        to_submit = unsafe { queue_fallback_timeout(ring, wait_nr, ts) }?;
    }
    // SAFETY: forwarded caller guarantees.
    unsafe { get_cqe(ring, cqe_out, to_submit, wait_nr, sigmask) }
}

/// `io_uring_wait_cqes_min_timeout`: like [`wait_cqes`] with a batch
/// timeout of `min_wait_usec`; `EINVAL` without `IORING_FEAT_MIN_TIMEOUT`.
///
/// # Safety
/// As for [`wait_cqes`].
pub unsafe fn wait_cqes_min_timeout(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    if ring.features & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: forwarded caller guarantees.
    unsafe { wait_ext_arg(ring, cqe_out, 0, wait_nr, ts, min_wait_usec, sigmask) }
}

/// `io_uring_wait_cqe_timeout`: [`wait_cqes`] for one CQE, no sigmask.
///
/// # Safety
/// As for [`wait_cqes`].
pub unsafe fn wait_cqe_timeout(ring: &mut io_uring, cqe_out: &mut *mut io_uring_cqe, ts: *const __kernel_timespec) -> SysResult<u32> {
    // SAFETY: forwarded caller guarantees.
    unsafe { wait_cqes(ring, cqe_out, 1, ts, ptr::null()) }
}

/// liburing's `__io_uring_submit_and_wait_timeout`.
///
/// # Safety
/// As for [`wait_cqes`].
unsafe fn submit_and_wait_ts(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let to_submit = if !ts.is_null() {
        if ring.features & IORING_FEAT_EXT_ARG != 0 {
            // SAFETY: forwarded caller guarantees.
            return unsafe {
                let n = flush_sq(ring);
                wait_ext_arg(ring, cqe_out, n, wait_nr, ts, min_wait_usec, sigmask)
            };
        }
        // SAFETY: forwarded caller guarantees.
        unsafe { queue_fallback_timeout(ring, wait_nr, ts) }?
    } else {
        // SAFETY: forwarded live-ring guarantee.
        unsafe { flush_sq(ring) }
    };
    // SAFETY: forwarded caller guarantees.
    unsafe { get_cqe(ring, cqe_out, to_submit, wait_nr, sigmask) }
}

/// `io_uring_submit_and_wait_timeout`: submits and waits for `wait_nr`
/// CQEs, up to `ts` if given. Returns the number of SQEs submitted.
///
/// # Safety
/// As for [`wait_cqes`].
pub unsafe fn submit_and_wait_timeout(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    // SAFETY: forwarded caller guarantees.
    unsafe { submit_and_wait_ts(ring, cqe_out, wait_nr, ts, 0, sigmask) }
}

/// `io_uring_submit_and_wait_min_timeout`: [`submit_and_wait_timeout`] with
/// a batch timeout; `EINVAL` without `IORING_FEAT_MIN_TIMEOUT`.
///
/// # Safety
/// As for [`wait_cqes`].
pub unsafe fn submit_and_wait_min_timeout(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    if ring.features & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: forwarded caller guarantees.
    unsafe { submit_and_wait_ts(ring, cqe_out, wait_nr, ts, min_wait_usec, sigmask) }
}

/// `io_uring_submit_and_wait_reg`: submits and waits as described by entry
/// `reg_index` of the registered wait region (`IORING_ENTER_EXT_ARG_REG`).
/// The SQ is flushed even when the kernel lacks `IORING_FEAT_EXT_ARG`
/// (then `EINVAL`), as in liburing.
///
/// # Safety
/// `ring` must be live.
pub unsafe fn submit_and_wait_reg(ring: &mut io_uring, cqe_out: &mut *mut io_uring_cqe, wait_nr: u32, reg_index: i32) -> SysResult<u32> {
    // C: `reg_index * sizeof(struct io_uring_reg_wait)` in unsigned long.
    let offset = (reg_index as isize as usize).wrapping_mul(size_of::<io_uring_reg_wait>());
    // SAFETY: forwarded live-ring guarantee.
    let submit = unsafe { flush_sq(ring) };
    if ring.features & IORING_FEAT_EXT_ARG == 0 {
        return Err(Errno::EINVAL);
    }
    let mut spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: IORING_ENTER_EXT_ARG | IORING_ENTER_EXT_ARG_REG,
        // Not a pointer: the kernel takes the offset into its wait region.
        arg: offset as *const c_void,
        argsz: size_of::<io_uring_reg_wait>(),
        has_ts: true,
    };
    // SAFETY: with EXT_ARG_REG the kernel treats `arg` as an offset it
    // bounds-checks itself; nothing is dereferenced on our side.
    unsafe { get_cqe_loop(ring, cqe_out, &mut spec) }
}

/// One pass of `io_uring_peek_batch_cqe`: fills `out` from the CQ without
/// entering the kernel. `None` means nothing was found.
///
/// # Safety
/// `ring` must be live.
#[inline]
unsafe fn peek_batch_once(ring: &io_uring, out: &mut [*mut io_uring_cqe]) -> Option<u32> {
    // SAFETY: forwarded live-ring guarantee (Acquire on the tail orders the
    // CQE reads below after the kernel's writes).
    let ready = unsafe { cq_ready(ring) };
    if ready == 0 {
        return None;
    }
    // SAFETY: forwarded live-ring guarantee.
    let mut head = unsafe { load_cq_head(ring) };
    let mask = ring.cq.ring_mask;
    let cqes = ring.cq.cqes;

    if ring.flags & IORING_SETUP_CQE_MIXED == 0 {
        let shift = cqe_shift(ring.flags);
        let count = ready.min(out.len() as u32);
        for slot in &mut out[..count as usize] {
            // SAFETY: live ring: the index is within the CQE array.
            *slot = unsafe { cqes.add(((head & mask) << shift) as usize) };
            head = head.wrapping_add(1);
        }
        return Some(count);
    }

    // Mixed ring: a CQE takes one or two slots, and skip entries pad the
    // ring at wrap time. Only real CQEs are returned; a skip entry can be
    // released only while it is at the CQ head, so one found after a real
    // CQE ends the batch (it will be at the head next time).
    let last = head.wrapping_add(ready);
    let mut nr = 0usize;
    while head != last && nr < out.len() {
        // SAFETY: live ring: index within the CQE array, below the tail.
        let cqe = unsafe { cqes.add((head & mask) as usize) };
        // SAFETY: the CQE is below the Acquire-loaded tail, so readable.
        let flags = unsafe { (*cqe).flags };
        if flags & IORING_CQE_F_SKIP != 0 {
            if nr != 0 {
                break;
            }
            // SAFETY: live ring; the skip entry is never shown to anyone.
            unsafe { cq_advance(ring, 1) };
            head = head.wrapping_add(1);
            continue;
        }
        // SAFETY: readable, as above.
        head = head.wrapping_add(unsafe { cqe_nr(cqe) });
        out[nr] = cqe;
        nr += 1;
    }
    (nr != 0).then_some(nr as u32)
}

/// `io_uring_peek_batch_cqe`: fills `out` with up to `out.len()` ready
/// CQEs and returns how many. Enters the kernel (once) only when the CQ is
/// empty and the kernel holds overflowed CQEs or pending task work.
///
/// # Safety
/// `ring` must be live.
pub unsafe fn peek_batch_cqe(ring: &mut io_uring, out: &mut [*mut io_uring_cqe]) -> u32 {
    // SAFETY: forwarded live-ring guarantee.
    if let Some(n) = unsafe { peek_batch_once(ring, out) } {
        return n;
    }
    // SAFETY: see above.
    if !unsafe { cq_needs_flush(ring) } {
        return 0;
    }
    // As in liburing, a failed flush just means nothing more is found.
    // SAFETY: see above.
    let _ = unsafe { get_events(ring) };
    // SAFETY: see above.
    unsafe { peek_batch_once(ring, out) }.unwrap_or(0)
}
