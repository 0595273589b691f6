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
use crate::syscall::{self, Errno, SysResult, KERNEL_SIGSET_BYTES};
use crate::uapi::{
    __kernel_timespec, io_uring_cqe, io_uring_getevents_arg, io_uring_reg_wait, io_uring_sqe,
    IORING_CQE_F_32, IORING_CQE_F_SKIP, IORING_ENTER_EXT_ARG, IORING_ENTER_EXT_ARG_REG,
    IORING_ENTER_GETEVENTS, IORING_ENTER_SQ_WAIT, IORING_ENTER_SQ_WAKEUP, IORING_FEAT_EXT_ARG,
    IORING_FEAT_MIN_TIMEOUT, IORING_OP_TIMEOUT, IORING_SETUP_CQE_MIXED, IORING_SETUP_SQPOLL,
    IORING_SETUP_SQ_REWIND, IORING_SQ_CQ_OVERFLOW, IORING_SQ_NEED_WAKEUP, IORING_SQ_TASKRUN,
};

/// `user_data` of the timeout SQE the library queues itself on kernels
/// without `IORING_FEAT_EXT_ARG` (liburing's `LIBURING_UDATA_TIMEOUT`).
/// Its completion is consumed internally and never shown to the caller.
pub const LIBURING_UDATA_TIMEOUT: u64 = u64::MAX;

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
        head.store(
            head.load(Ordering::Relaxed).wrapping_add(nr),
            Ordering::Release,
        );
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
unsafe fn enter(
    ring: &io_uring,
    to_submit: u32,
    min_complete: u32,
    flags: u32,
    arg: *const c_void,
    argsz: usize,
) -> SysResult<u32> {
    // SAFETY: forwarded caller guarantee about `arg`.
    let n = unsafe {
        syscall::io_uring_enter2(
            ring.enter_ring_fd as u32,
            to_submit,
            min_complete,
            flags,
            arg,
            argsz,
        )
    }?;
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
    // diag hook: traced rings carry diag::TRACED_RING in `flags`, so this one
    // test also routes them to the trace (no extra instruction when off).
    if ring.flags & (IORING_SETUP_SQ_REWIND | crate::diag::TRACED_RING) != 0 {
        crate::diag::flushing(ring);
        if ring.flags & IORING_SETUP_SQ_REWIND != 0 {
            ring.sq.sqe_tail = 0;
            return tail;
        }
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
unsafe fn submit_flushed(
    ring: &mut io_uring,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
) -> SysResult<u32> {
    // SAFETY: forwarded live-ring guarantee.
    let cq_enter = getevents || wait_nr != 0 || unsafe { cq_needs_enter(ring) };
    let mut flags = ring.enter_flags();
    // SAFETY: see above.
    if unsafe { sq_needs_enter(ring, submitted, &mut flags) } || cq_enter {
        if cq_enter {
            flags |= IORING_ENTER_GETEVENTS;
        }
        // SAFETY: no argument pointer is passed.
        unsafe {
            enter(
                ring,
                submitted,
                wait_nr,
                flags,
                ptr::null(),
                KERNEL_SIGSET_BYTES,
            )
        }
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
unsafe fn get_cqe_loop(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    spec: &mut WaitSpec,
) -> SysResult<u32> {
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
unsafe fn queue_fallback_timeout(
    ring: &mut io_uring,
    wait_nr: u32,
    ts: *const __kernel_timespec,
) -> SysResult<u32> {
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
/// With `IORING_FEAT_EXT_ARG` the timeout travels in the enter argument and
/// nothing is submitted. Older kernels get a timeout SQE queued behind the
/// SQEs already prepared, and all of them are submitted by this wait; the
/// result is then the count that first enter submitted, as in liburing.
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
pub unsafe fn wait_cqe_timeout(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    ts: *const __kernel_timespec,
) -> SysResult<u32> {
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
pub unsafe fn submit_and_wait_reg(
    ring: &mut io_uring,
    cqe_out: &mut *mut io_uring_cqe,
    wait_nr: u32,
    reg_index: i32,
) -> SysResult<u32> {
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
        // Iterating (not slicing) keeps a panic path out of the library.
        let count = (ready as usize).min(out.len());
        for slot in out.iter_mut().take(count) {
            // SAFETY: live ring: the index is within the CQE array.
            *slot = unsafe { cqes.add(((head & mask) << shift) as usize) };
            head = head.wrapping_add(1);
        }
        return Some(count as u32);
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
        let Some(slot) = out.get_mut(nr) else { break };
        *slot = cqe;
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

#[cfg(test)]
mod tests {
    //! Round trips against the running kernel. Rings come from the real
    //! setup code; SQEs are filled by hand (the prep helpers are C inlines).
    use super::*;
    use crate::setup;
    use crate::uapi::{
        io_uring_mem_region_reg, io_uring_params, io_uring_region_desc, io_uring_rsrc_update,
        IORING_FEAT_NODROP, IORING_FEAT_NO_IOWAIT, IORING_MEM_REGION_REG_WAIT_ARG,
        IORING_MEM_REGION_TYPE_USER, IORING_NOP_CQE32, IORING_OP_NOP, IORING_OP_READ,
        IORING_REGISTER_ENABLE_RINGS, IORING_REGISTER_MEM_REGION, IORING_REGISTER_RING_FDS,
        IORING_REG_WAIT_TS, IORING_SETUP_CQE32, IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_IOPOLL,
        IORING_SETUP_R_DISABLED, IORING_SETUP_SINGLE_ISSUER, IORING_SETUP_SQE128,
        IORING_SETUP_TASKRUN_FLAG,
    };
    use std::collections::HashSet;
    use std::ops::{Deref, DerefMut};
    use std::time::{Duration, Instant};

    /// A ring that is torn down on drop.
    struct Ring(io_uring);

    impl Ring {
        fn with_params(entries: u32, p: &mut io_uring_params) -> SysResult<Ring> {
            let mut r = setup::empty_ring();
            setup::queue_init_params(entries, &mut r, p)?;
            Ok(Ring(r))
        }

        fn new(entries: u32, flags: u32) -> SysResult<Ring> {
            let mut p = io_uring_params {
                flags,
                ..Default::default()
            };
            Ring::with_params(entries, &mut p)
        }
    }

    impl Drop for Ring {
        fn drop(&mut self) {
            // SAFETY: the ring was set up by `setup` and is not used again.
            unsafe { setup::queue_exit(&mut self.0) }
        }
    }

    impl Deref for Ring {
        type Target = io_uring;
        fn deref(&self) -> &io_uring {
            &self.0
        }
    }

    impl DerefMut for Ring {
        fn deref_mut(&mut self) -> &mut io_uring {
            &mut self.0
        }
    }

    /// Sets a ring up, or returns from the test with a SKIP line when the
    /// kernel rejects the flags.
    macro_rules! ring_or_skip {
        ($entries:expr, $flags:expr) => {
            match Ring::new($entries, $flags) {
                Ok(r) => r,
                Err(e) => {
                    println!("SKIP: kernel refuses setup flags {:#x}: {:?}", $flags, e);
                    return;
                }
            }
        };
    }

    /// Grabs an SQE and fills the fields every prep helper sets.
    fn prep(
        ring: &mut io_uring,
        opcode: u8,
        fd: i32,
        addr: u64,
        len: u32,
        off: u64,
        user_data: u64,
    ) -> *mut io_uring_sqe {
        // SAFETY: the ring is live (owned by a `Ring`).
        let sqe = unsafe { get_sqe(ring) };
        assert!(!sqe.is_null(), "SQ unexpectedly full");
        // SAFETY: the SQE was just handed out to us.
        let s = unsafe { &mut *sqe };
        s.opcode = opcode;
        s.fd = fd;
        s.addr = addr;
        s.len = len;
        s.off = off;
        s.user_data = user_data;
        sqe
    }

    fn nop(ring: &mut io_uring, user_data: u64) {
        prep(ring, IORING_OP_NOP, -1, 0, 0, 0, user_data);
    }

    fn ts_ms(ms: i64) -> __kernel_timespec {
        __kernel_timespec {
            tv_sec: ms / 1000,
            tv_nsec: (ms % 1000) * 1_000_000,
        }
    }

    /// Waits up to `ms` for one CQE; returns (user_data, res, flags) and
    /// releases it.
    fn reap(ring: &mut io_uring, ms: i64) -> SysResult<(u64, i32, u32)> {
        let ts = ts_ms(ms);
        let mut cqe = null_mut();
        // SAFETY: live ring; `ts` outlives the call.
        unsafe { wait_cqe_timeout(ring, &mut cqe, &ts) }?;
        assert!(!cqe.is_null());
        // SAFETY: a CQE returned by the wait is readable until released.
        let v = unsafe { ((*cqe).user_data, (*cqe).res, (*cqe).flags) };
        // SAFETY: live ring; done with the CQE.
        unsafe { cq_advance(ring, cqe_nr(cqe)) };
        Ok(v)
    }

    fn pipe() -> (i32, i32) {
        let mut fds = [0i32; 2];
        // SAFETY: `fds` has room for the two descriptors.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    fn write_byte(fd: i32) {
        // SAFETY: one readable byte.
        assert_eq!(unsafe { libc::write(fd, b"x".as_ptr().cast(), 1) }, 1);
    }

    fn close_fds(fds: &[i32]) {
        for &fd in fds {
            let _ = syscall::close(fd);
        }
    }

    #[test]
    fn nop_round_trip() {
        let mut r = Ring::new(8, 0).unwrap();
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            assert_eq!(sq_space_left(&r), 8);
            nop(&mut r, 7);
            assert_eq!(sq_ready(&r), 1);
            assert_eq!(submit(&mut r), Ok(1));
            // Nothing new: no SQEs, and the CQ needs no flush.
            assert_eq!(submit(&mut r), Ok(0));
            let mut cqe = null_mut();
            assert_eq!(get_cqe(&mut r, &mut cqe, 0, 1, ptr::null()), Ok(0));
            assert!(!cqe.is_null());
            assert_eq!(((*cqe).user_data, (*cqe).res), (7, 0));
            assert_eq!(cq_ready(&r), 1);
            cq_advance(&r, 1);
            assert_eq!(cq_ready(&r), 0);
        }
    }

    #[test]
    fn ring_with_sq_array() {
        // Set up without trying IORING_SETUP_NO_SQARRAY first, so the ring
        // has the (identity) SQ index array.
        let mut raw = setup::empty_ring();
        let mut p = io_uring_params::default();
        // SAFETY: no application memory is involved.
        unsafe { setup::queue_init_once(4, &mut raw, &mut p, null_mut(), 0) }.unwrap();
        let mut r = Ring(raw);
        assert!(!r.sq.array.is_null());
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            // Several laps around the 4-entry SQ.
            for round in 0..5u64 {
                for i in 0..3 {
                    nop(&mut r, round * 10 + i);
                }
                assert_eq!(submit_and_wait(&mut r, 3), Ok(3));
                let mut out = [null_mut(); 4];
                assert_eq!(peek_batch_cqe(&mut r, &mut out), 3);
                for (i, c) in out[..3].iter().enumerate() {
                    assert_eq!((**c).user_data, round * 10 + i as u64);
                }
                cq_advance(&r, 3);
            }
        }
    }

    #[test]
    fn get_cqe_submits_and_reports_count() {
        let mut r = Ring::new(8, 0).unwrap();
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(&mut r, 1);
            nop(&mut r, 2);
            let n = flush_sq(&mut r);
            assert_eq!(n, 2);
            let mut cqe = null_mut();
            // The first enter submits both and its count is the result.
            assert_eq!(get_cqe(&mut r, &mut cqe, n, 1, ptr::null()), Ok(2));
            assert_eq!((*cqe).user_data, 1);
        }
    }

    #[test]
    fn sq_full_then_refilled() {
        let mut r = Ring::new(4, 0).unwrap();
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..4 {
                nop(&mut r, i);
            }
            assert!(get_sqe(&mut r).is_null(), "a 4-entry SQ hands out 4 SQEs");
            assert_eq!(sq_space_left(&r), 0);
            assert_eq!(submit_and_wait(&mut r, 4), Ok(4));
            assert_eq!(sq_space_left(&r), 4);
            assert!(!get_sqe(&mut r).is_null());
            // Turn the extra SQE into a NOP so it completes harmlessly.
            (*r.sq
                .sqes
                .add(((r.sq.sqe_tail - 1) & r.sq.ring_mask) as usize))
            .opcode = IORING_OP_NOP;
        }
    }

    #[test]
    fn peek_on_empty_cq_is_eagain() {
        let mut r = Ring::new(4, 0).unwrap();
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        // SAFETY: live ring.
        let ret = unsafe { get_cqe(&mut r, &mut cqe, 0, 0, ptr::null()) };
        assert_eq!(ret, Err(Errno::EAGAIN));
        assert!(cqe.is_null());
    }

    #[test]
    fn batch_submit_wait_and_peek() {
        let mut r = Ring::new(16, 0).unwrap();
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..8 {
                nop(&mut r, 100 + i);
            }
            assert_eq!(submit_and_wait(&mut r, 8), Ok(8));
            let mut out = [null_mut(); 16];
            assert_eq!(peek_batch_cqe(&mut r, &mut out[..5]), 5);
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 8);
            for (i, c) in out[..8].iter().enumerate() {
                assert_eq!((**c).user_data, 100 + i as u64);
            }
            // A zero-sized batch finds nothing to return.
            assert_eq!(peek_batch_cqe(&mut r, &mut []), 0);
            cq_advance(&r, 8);
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 0);
        }
    }

    #[test]
    fn submit_and_wait_timeout_returns_submitted() {
        let mut r = Ring::new(8, 0).unwrap();
        let ts = ts_ms(1000);
        // SAFETY: (whole test) `r` is a live ring; `ts` outlives the calls.
        unsafe {
            nop(&mut r, 1);
            nop(&mut r, 2);
            let mut cqe = null_mut();
            assert_eq!(
                submit_and_wait_timeout(&mut r, &mut cqe, 2, &ts, ptr::null()),
                Ok(2)
            );
            assert!(!cqe.is_null());
            assert_eq!(cq_ready(&r), 2);
            cq_advance(&r, 2);
            // Without a timeout: the plain submit-and-wait path.
            nop(&mut r, 3);
            assert_eq!(
                submit_and_wait_timeout(&mut r, &mut cqe, 1, ptr::null(), ptr::null()),
                Ok(1)
            );
            assert_eq!((*cqe).user_data, 3);
        }
    }

    #[test]
    fn wait_timeout_gives_etime() {
        let mut r = Ring::new(4, 0).unwrap();
        if r.features & IORING_FEAT_EXT_ARG == 0 {
            println!("SKIP: kernel lacks IORING_FEAT_EXT_ARG");
            return;
        }
        let ts = ts_ms(50);
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        // SAFETY: live ring; `ts` outlives the call.
        let ret = unsafe { wait_cqe_timeout(&mut r, &mut cqe, &ts) };
        assert_eq!(ret, Err(Errno::ETIME));
        let waited = start.elapsed();
        assert!(cqe.is_null());
        assert!(
            waited >= Duration::from_millis(45) && waited < Duration::from_secs(2),
            "waited {waited:?}"
        );

        // Same through wait_cqes with an (empty) signal mask: the kernel
        // checks the mask size we pass.
        // SAFETY: an all-zero sigset_t is a valid empty set.
        let mask: libc::sigset_t = unsafe { core::mem::zeroed() };
        // SAFETY: live ring; `ts` and `mask` outlive the call.
        let ret = unsafe { wait_cqes(&mut r, &mut cqe, 1, &ts, &mask) };
        assert_eq!(ret, Err(Errno::ETIME));
        // And a completion that is already there is returned at once.
        nop(&mut r, 5);
        // SAFETY: live ring.
        assert_eq!(unsafe { submit(&mut r) }, Ok(1));
        // SAFETY: live ring; `ts` and `mask` outlive the call.
        assert_eq!(unsafe { wait_cqes(&mut r, &mut cqe, 1, &ts, &mask) }, Ok(0));
        // SAFETY: returned by the wait.
        assert_eq!(unsafe { (*cqe).user_data }, 5);
    }

    #[test]
    fn timeout_fallback_without_ext_arg() {
        let mut r = Ring::new(4, 0).unwrap();
        // Pretend to be an old kernel: the wait queues its own timeout SQE.
        r.features &= !IORING_FEAT_EXT_ARG;
        let ts = ts_ms(30);
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        // SAFETY: live ring; `ts` outlives the submission inside the call.
        let res = unsafe { wait_cqe_timeout(&mut r, &mut cqe, &ts) };
        // liburing reports the first enter's count (the timeout SQE it
        // submitted) and no CQE; the timeout's own CQE is consumed.
        assert_eq!(res, Ok(1));
        assert!(cqe.is_null());
        assert!(start.elapsed() >= Duration::from_millis(25));
        // SAFETY: (rest) live ring.
        unsafe {
            assert_eq!(cq_ready(&r), 0);
            assert_eq!(sq_ready(&r), 0);

            // A pending timeout CQE that failed is reported by the next peek.
            nop(&mut r, 9);
            let long = ts_ms(100);
            let res = wait_cqe_timeout(&mut r, &mut cqe, &long);
            assert_eq!(res, Ok(2), "NOP and timeout submitted together");
            assert_eq!((*cqe).user_data, 9);
            cq_advance(&r, 1);
            std::thread::sleep(Duration::from_millis(150));
            let res = get_cqe(&mut r, &mut cqe, 0, 0, ptr::null());
            assert!(
                res == Err(Errno::EAGAIN) || res == Err(Errno::ETIME),
                "{res:?}"
            );
            assert!(cqe.is_null());
            assert_eq!(cq_ready(&r), 0, "the internal timeout CQE is never shown");
        }
    }

    #[test]
    fn min_timeout_waits() {
        let mut r = Ring::new(8, 0).unwrap();
        if r.features & IORING_FEAT_MIN_TIMEOUT == 0 {
            println!("SKIP: kernel lacks IORING_FEAT_MIN_TIMEOUT");
            return;
        }
        let ts = ts_ms(60);
        let mut cqe = null_mut();
        let start = Instant::now();
        // SAFETY: live ring; `ts` outlives the call.
        let res = unsafe { wait_cqes_min_timeout(&mut r, &mut cqe, 1, &ts, 10_000, ptr::null()) };
        assert_eq!(res, Err(Errno::ETIME));
        assert!(start.elapsed() >= Duration::from_millis(55));

        // One of four: the batch timeout (30 ms) ends the wait, not `long`.
        let long = ts_ms(3000);
        nop(&mut r, 1);
        let start = Instant::now();
        // SAFETY: live ring; `long` outlives the call.
        let res =
            unsafe { submit_and_wait_min_timeout(&mut r, &mut cqe, 4, &long, 30_000, ptr::null()) };
        let waited = start.elapsed();
        assert_eq!(res, Ok(1));
        assert!(!cqe.is_null());
        assert!(waited < Duration::from_millis(1500), "waited {waited:?}");
        println!("min-timeout wait for 1 of 4 CQEs took {waited:?} (batch timeout 30ms)");
        // SAFETY: live ring.
        unsafe { cq_advance(&r, 1) };

        // Without the feature: EINVAL, and the out pointer is left alone.
        r.features &= !IORING_FEAT_MIN_TIMEOUT;
        let sentinel = ptr::dangling_mut::<io_uring_cqe>();
        cqe = sentinel;
        // SAFETY: live ring.
        unsafe {
            assert_eq!(
                wait_cqes_min_timeout(&mut r, &mut cqe, 1, &ts, 10, ptr::null()),
                Err(Errno::EINVAL)
            );
            assert_eq!(
                submit_and_wait_min_timeout(&mut r, &mut cqe, 1, &ts, 10, ptr::null()),
                Err(Errno::EINVAL)
            );
        }
        assert_eq!(cqe, sentinel);
    }

    /// Moves a copy of a ring's (plain-data) handle to another thread.
    struct SendRing(io_uring);
    // SAFETY: the copy is only used to issue io_uring_enter from the other
    // thread (which the kernel polices); the test keeps the ring alive.
    unsafe impl Send for SendRing {}

    #[test]
    fn defer_taskrun_completions_need_enter() {
        let mut r = ring_or_skip!(8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
        let (rd, wr) = pipe();
        let mut buf = [0u8; 8];
        // SAFETY: (whole test) `r` is live; `buf` outlives every read.
        unsafe {
            prep(
                &mut r,
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                1,
            );
            assert_eq!(submit(&mut r), Ok(1));
            write_byte(wr);
            std::thread::sleep(Duration::from_millis(20));
            // The completion waits as task work for an enter from us.
            assert_eq!(cq_ready(&r), 0);
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 0);
            let mut cqe = null_mut();
            assert_eq!(
                get_cqe(&mut r, &mut cqe, 0, 0, ptr::null()),
                Err(Errno::EAGAIN)
            );
        }

        // Another task may not run it: the kernel's EEXIST comes back.
        // SAFETY: a bitwise copy of the handle; the ring outlives the thread.
        let copy = SendRing(unsafe { ptr::read(&r.0) });
        let (ev, wait) = std::thread::spawn(move || {
            let mut copy = copy;
            let mut cqe = null_mut();
            // SAFETY: the ring outlives this thread (joined below).
            unsafe {
                (
                    get_events(&mut copy.0),
                    get_cqe(&mut copy.0, &mut cqe, 0, 1, ptr::null()),
                )
            }
        })
        .join()
        .unwrap();

        // SAFETY: (rest of the test) `r` is live; `buf` outlives every read.
        unsafe {
            let mut cqe = null_mut();
            assert_eq!(ev, Err(Errno::EEXIST));
            assert_eq!(wait, Err(Errno::EEXIST));
            assert_eq!(cq_ready(&r), 0);

            assert_eq!(get_events(&mut r), Ok(0));
            assert_eq!(cq_ready(&r), 1);
            let (ud, res, _) = reap(&mut r, 1000).unwrap();
            assert_eq!((ud, res), (1, 1));

            // submit_and_get_events runs it too, with nothing to submit.
            prep(
                &mut r,
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                2,
            );
            assert_eq!(submit(&mut r), Ok(1));
            write_byte(wr);
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(cq_ready(&r), 0);
            assert_eq!(submit_and_get_events(&mut r), Ok(0));
            assert_eq!(cq_ready(&r), 1);
            assert_eq!(reap(&mut r, 1000).unwrap().0, 2);

            // And so does a wait.
            prep(
                &mut r,
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                3,
            );
            assert_eq!(submit(&mut r), Ok(1));
            write_byte(wr);
            assert_eq!(get_cqe(&mut r, &mut cqe, 0, 1, ptr::null()), Ok(0));
            assert_eq!(((*cqe).user_data, (*cqe).res), (3, 1));
            cq_advance(&r, 1);
        }
        close_fds(&[rd, wr]);
    }

    #[test]
    fn taskrun_flag_makes_peek_enter() {
        let mut r = ring_or_skip!(
            8,
            IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG
        );
        let (rd, wr) = pipe();
        let mut buf = [0u8; 8];
        // SAFETY: (whole test) `r` is live; `buf` outlives every read.
        unsafe {
            for ud in [1u64, 2] {
                prep(
                    &mut r,
                    IORING_OP_READ,
                    rd,
                    buf.as_mut_ptr() as u64,
                    1,
                    u64::MAX,
                    ud,
                );
                assert_eq!(submit(&mut r), Ok(1));
                write_byte(wr);
                std::thread::sleep(Duration::from_millis(20));
                assert_eq!(cq_ready(&r), 0);
                assert!(load_sq_flags(&r) & IORING_SQ_TASKRUN != 0);
                if ud == 1 {
                    let mut out = [null_mut(); 4];
                    assert_eq!(peek_batch_cqe(&mut r, &mut out), 1);
                    assert_eq!((*out[0]).user_data, 1);
                    cq_advance(&r, 1);
                } else {
                    let mut cqe = null_mut();
                    assert_eq!(get_cqe(&mut r, &mut cqe, 0, 0, ptr::null()), Ok(0));
                    assert_eq!((*cqe).user_data, 2);
                    cq_advance(&r, 1);
                }
            }
        }
        close_fds(&[rd, wr]);
    }

    #[test]
    fn cq_overflow_loses_nothing() {
        let mut r = Ring::new(4, 0).unwrap();
        if r.features & IORING_FEAT_NODROP == 0 {
            println!("SKIP: kernel lacks IORING_FEAT_NODROP");
            return;
        }
        let cq_entries = r.cq.ring_entries;
        let total = cq_entries + 4;
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            let mut id = 0;
            while id < total {
                for _ in 0..4 {
                    nop(&mut r, u64::from(id));
                    id += 1;
                }
                assert_eq!(submit(&mut r), Ok(4));
            }
            assert_eq!(cq_ready(&r), cq_entries);
            assert!(load_sq_flags(&r) & IORING_SQ_CQ_OVERFLOW != 0);

            let mut seen = HashSet::new();
            let mut out = [null_mut(); 64];
            loop {
                let n = peek_batch_cqe(&mut r, &mut out);
                if n == 0 {
                    break;
                }
                for c in &out[..n as usize] {
                    assert_eq!((**c).res, 0);
                    assert!(seen.insert((**c).user_data), "duplicate CQE");
                }
                cq_advance(&r, n);
            }
            assert_eq!(seen.len() as u32, total, "every completion arrives");
            assert!(load_sq_flags(&r) & IORING_SQ_CQ_OVERFLOW == 0);
        }
    }

    #[test]
    fn sqpoll_wakeup() {
        let mut p = io_uring_params {
            flags: IORING_SETUP_SQPOLL,
            sq_thread_idle: 10,
            ..Default::default()
        };
        let mut r = match Ring::with_params(8, &mut p) {
            Ok(r) => r,
            Err(e) => {
                println!("SKIP: SQPOLL setup failed: {e:?}");
                return;
            }
        };
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(&mut r, 1);
            // The awake poller may consume the SQE before the count is
            // taken, so 0 is as right as 1 here.
            let n = submit(&mut r).unwrap();
            assert!(n <= 1);
            assert_eq!(reap(&mut r, 1000).unwrap().0, 1);
            // Let the poller go idle and ask for a wakeup.
            let start = Instant::now();
            while load_sq_flags(&r) & IORING_SQ_NEED_WAKEUP == 0 {
                assert!(
                    start.elapsed() < Duration::from_secs(5),
                    "SQ thread never went idle"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            nop(&mut r, 2);
            assert_eq!(submit(&mut r), Ok(1));
            assert_eq!(
                reap(&mut r, 1000).unwrap().0,
                2,
                "the sleeping poller was woken"
            );
            // With SQ space free, waiting for space returns at once.
            assert_eq!(sqring_wait(&mut r), Ok(0));
        }
    }

    #[test]
    fn registered_ring_fd() {
        let mut r = Ring::new(4, 0).unwrap();
        let mut upd = io_uring_rsrc_update {
            offset: u32::MAX,
            resv: 0,
            data: r.ring_fd as u64,
        };
        // SAFETY: the kernel reads and updates one io_uring_rsrc_update.
        let ret = unsafe {
            syscall::io_uring_register(
                r.ring_fd as u32,
                IORING_REGISTER_RING_FDS,
                ptr::from_mut(&mut upd).cast(),
                1,
            )
        };
        if ret != Ok(1) {
            println!("SKIP: ring fd registration: {ret:?}");
            return;
        }
        r.enter_ring_fd = upd.offset as i32;
        r.int_flags |= int_flags::REG_RING;
        nop(&mut r, 11);
        // SAFETY: live ring.
        assert_eq!(unsafe { submit(&mut r) }, Ok(1));
        assert_eq!(reap(&mut r, 1000).unwrap().0, 11);
        // SAFETY: live ring.
        assert_eq!(unsafe { get_events(&mut r) }, Ok(0));
    }

    #[test]
    fn no_iowait_flag_reaches_kernel() {
        let mut r = Ring::new(4, 0).unwrap();
        if r.features & IORING_FEAT_NO_IOWAIT == 0 || r.features & IORING_FEAT_EXT_ARG == 0 {
            println!("SKIP: kernel lacks IORING_FEAT_NO_IOWAIT");
            return;
        }
        r.int_flags |= int_flags::NO_IOWAIT;
        // An unknown enter flag would be EINVAL; this one is a plain wait.
        assert_eq!(reap(&mut r, 10), Err(Errno::ETIME));
        nop(&mut r, 4);
        // SAFETY: live ring.
        assert_eq!(unsafe { submit_and_wait(&mut r, 1) }, Ok(1));
        assert_eq!(reap(&mut r, 10).unwrap().0, 4);
    }

    #[test]
    fn iopoll_peek_enters_once() {
        let mut r = ring_or_skip!(4, IORING_SETUP_IOPOLL);
        assert!(r.int_flags & int_flags::CQ_ENTER != 0);
        let mut cqe = null_mut();
        // SAFETY: live ring.
        let ret = unsafe { get_cqe(&mut r, &mut cqe, 0, 0, ptr::null()) };
        assert_eq!(ret, Err(Errno::EAGAIN));
    }

    #[test]
    fn big_cqes_are_strided() {
        let mut r = ring_or_skip!(4, IORING_SETUP_CQE32);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..3 {
                nop(&mut r, i);
            }
            assert_eq!(submit_and_wait(&mut r, 3), Ok(3));
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 3);
            for (i, c) in out[..3].iter().enumerate() {
                assert_eq!((**c).user_data, i as u64);
            }
            assert_eq!(out[1] as usize - out[0] as usize, 32);
            cq_advance(&r, 3);
        }
    }

    #[test]
    fn big_sqes_are_strided() {
        let mut r = ring_or_skip!(4, IORING_SETUP_SQE128);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            let a = get_sqe(&mut r);
            let b = get_sqe(&mut r);
            assert_eq!(b as usize - a as usize, 128);
            for (s, ud) in [(a, 1), (b, 2)] {
                (*s).opcode = IORING_OP_NOP;
                (*s).fd = -1;
                (*s).user_data = ud;
            }
            assert_eq!(submit_and_wait(&mut r, 2), Ok(2));
            assert_eq!(reap(&mut r, 1000).unwrap().0, 1);
            assert_eq!(reap(&mut r, 1000).unwrap().0, 2);
        }
    }

    #[test]
    fn mixed_cqes_and_skip_entries() {
        let mut r = ring_or_skip!(4, IORING_SETUP_CQE_MIXED);
        let slots = r.cq.ring_entries;
        let nop32 = |r: &mut Ring, ud: u64| {
            let sqe = prep(r, IORING_OP_NOP, -1, 0, 0, 0, ud);
            // SAFETY: the SQE is still ours.
            unsafe { (*sqe).rw_flags = IORING_NOP_CQE32 };
        };
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(&mut r, 1);
            nop32(&mut r, 2);
            nop(&mut r, 3);
            assert_eq!(submit_and_wait(&mut r, 3), Ok(3));
            assert_eq!(cq_ready(&r), 4, "a big CQE takes two slots");
            let mut out = [null_mut(); 8];
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 3);
            let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
            assert_eq!(uds, [1, 2, 3]);
            assert!((*out[1]).flags & IORING_CQE_F_32 != 0);
            assert_eq!(out[2] as usize - out[1] as usize, 32);
            cq_advance(&r, 4);

            // Bring the head to the last slot, then post a big CQE: the
            // kernel pads the last slot with a skip entry and wraps.
            let mut head = load_cq_head(&r);
            while (head & r.cq.ring_mask) != slots - 1 {
                nop(&mut r, 50);
                assert_eq!(submit_and_wait(&mut r, 1), Ok(1));
                assert_eq!(reap(&mut r, 1000).unwrap().0, 50);
                head = load_cq_head(&r);
            }
            nop32(&mut r, 60);
            assert_eq!(submit_and_wait(&mut r, 1), Ok(1));
            assert_eq!(cq_ready(&r), 3, "skip entry plus a two-slot CQE");
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 1);
            assert_eq!((*out[0]).user_data, 60);
            assert_eq!(
                load_cq_head(&r) & r.cq.ring_mask,
                0,
                "the skip entry was released"
            );
            assert_eq!(out[0], r.cq.cqes);
            cq_advance(&r, 2);

            // Same through the single-CQE path.
            while (load_cq_head(&r) & r.cq.ring_mask) != slots - 1 {
                nop(&mut r, 70);
                assert_eq!(submit_and_wait(&mut r, 1), Ok(1));
                assert_eq!(reap(&mut r, 1000).unwrap().0, 70);
            }
            nop32(&mut r, 80);
            assert_eq!(submit_and_wait(&mut r, 1), Ok(1));
            let (ud, _, flags) = reap(&mut r, 1000).unwrap();
            assert_eq!(ud, 80);
            assert!(flags & IORING_CQE_F_32 != 0);
            assert_eq!(cq_ready(&r), 0);
        }
    }

    #[test]
    fn sq_rewind_resets_tail() {
        let mut r = ring_or_skip!(4, IORING_SETUP_SQ_REWIND);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(&mut r, 1);
            nop(&mut r, 2);
            assert_eq!(submit_and_wait(&mut r, 2), Ok(2));
            assert_eq!(r.sq.sqe_tail, 0, "the kernel starts from slot 0 every time");
            nop(&mut r, 3);
            assert_eq!(submit_and_wait(&mut r, 3), Ok(1));
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(&mut r, &mut out), 3);
            let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
            assert_eq!(uds, [1, 2, 3]);
            cq_advance(&r, 3);
        }
    }

    #[test]
    fn registered_wait_region() {
        let mut r = ring_or_skip!(8, IORING_SETUP_R_DISABLED);
        let page = syscall::page_size();
        // SAFETY: a fresh anonymous private mapping.
        let mem = unsafe {
            syscall::mmap(
                ptr::null_mut(),
                page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        }
        .unwrap();
        let rd = io_uring_region_desc {
            user_addr: mem as u64,
            size: page as u64,
            flags: IORING_MEM_REGION_TYPE_USER,
            ..Default::default()
        };
        let mr = io_uring_mem_region_reg {
            region_uptr: ptr::from_ref(&rd) as u64,
            flags: IORING_MEM_REGION_REG_WAIT_ARG,
            ..Default::default()
        };
        // SAFETY: the kernel reads `mr` and the descriptor it points to.
        let ret = unsafe {
            syscall::io_uring_register(
                r.ring_fd as u32,
                IORING_REGISTER_MEM_REGION,
                ptr::from_ref(&mr).cast(),
                1,
            )
        };
        if ret.is_err() {
            println!("SKIP: wait region registration: {ret:?}");
            // SAFETY: our mapping, unused.
            let _ = unsafe { syscall::munmap(mem, page) };
            return;
        }
        // SAFETY: no argument.
        let ret = unsafe {
            syscall::io_uring_register(
                r.ring_fd as u32,
                IORING_REGISTER_ENABLE_RINGS,
                ptr::null(),
                0,
            )
        };
        assert_eq!(ret, Ok(0));

        let waits = mem.cast::<io_uring_reg_wait>();
        // SAFETY: the page holds 64 entries; the kernel reads them only
        // during our waits.
        unsafe {
            (*waits).ts = ts_ms(40);
            (*waits).flags = IORING_REG_WAIT_TS;
            (*waits.add(1)).ts = ts_ms(1000);
            (*waits.add(1)).flags = IORING_REG_WAIT_TS;
        }
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        // SAFETY: (rest) live ring.
        unsafe {
            assert_eq!(
                submit_and_wait_reg(&mut r, &mut cqe, 1, 0),
                Err(Errno::ETIME)
            );
            assert!(cqe.is_null());
            assert!(start.elapsed() >= Duration::from_millis(35));

            nop(&mut r, 5);
            nop(&mut r, 6);
            assert_eq!(submit_and_wait_reg(&mut r, &mut cqe, 2, 1), Ok(2));
            assert_eq!((*cqe).user_data, 5);
            assert_eq!(cq_ready(&r), 2);
            cq_advance(&r, 2);

            // An old kernel: EINVAL, but the SQ was flushed first.
            r.features &= !IORING_FEAT_EXT_ARG;
            nop(&mut r, 7);
            assert_eq!(
                submit_and_wait_reg(&mut r, &mut cqe, 1, 0),
                Err(Errno::EINVAL)
            );
            assert_eq!(r.sq.sqe_head, r.sq.sqe_tail);
            assert_eq!(*r.sq.ktail, r.sq.sqe_tail);
            r.features |= IORING_FEAT_EXT_ARG;
            assert_eq!(submit_and_wait(&mut r, 1), Ok(1));
            assert_eq!(reap(&mut r, 1000).unwrap().0, 7);
        }
        drop(r);
        // SAFETY: the ring (and its use of the region) is gone.
        let _ = unsafe { syscall::munmap(mem, page) };
    }
}
