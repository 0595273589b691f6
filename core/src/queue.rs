// SPDX-License-Identifier: MIT
//! Submission and completion: handing prepared SQEs to the kernel, deciding
//! when `io_uring_enter` is needed, and finding CQEs (liburing's `queue.c`
//! and the ring-walking inline helpers of `liburing.h`).
//!
//! Every function takes the ring as a [`LiveRing`]: the submit path and the
//! wait path may run on two threads at once, so neither holds a reference
//! to the ring struct (see [`crate::ring`] for who touches which field, and
//! for the memory ordering of every kernel-shared index).
//!
//! The application-supplied `ts` and `sigmask` pointers are never read
//! here: they travel to the kernel, which only reads them and answers
//! `EFAULT` for a bad one, as with liburing. Out-parameters in caller memory
//! that may be uninitialised arrive as `MaybeUninit` and are only written.

use core::ffi::c_void;
use core::mem::{size_of, MaybeUninit};
use core::ptr::{self, addr_of_mut, null_mut, NonNull};
use core::sync::atomic::{fence, Ordering};

use crate::geometry::{cqe_shift, sqe_shift};
use crate::hint::cold_path;
use crate::hooks;
use crate::ring::LiveRing;
use crate::structs::int_flags;
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

/// A CQE pointer handed back through a C out-parameter (`struct io_uring_cqe
/// **`), which callers typically leave uninitialised.
pub type CqeOut = MaybeUninit<*mut io_uring_cqe>;

// ---------------------------------------------------------------------------
// Shared-index access (orderings: see `crate::ring`)
// ---------------------------------------------------------------------------

/// The kernel's SQ head. Acquire: the slots below it are done being read.
#[inline(always)]
fn load_sq_head(ring: LiveRing) -> u32 {
    ring.sq_khead().load(Ordering::Acquire)
}

/// The kernel's `IORING_SQ_*` flags. Relaxed: only a hint to enter.
#[inline(always)]
fn load_sq_flags(ring: LiveRing) -> u32 {
    ring.sq_kflags().load(Ordering::Relaxed)
}

/// The kernel's CQ tail. Acquire: the CQEs below it are fully written.
#[inline(always)]
fn load_cq_tail(ring: LiveRing) -> u32 {
    ring.cq_ktail().load(Ordering::Acquire)
}

/// Our own CQ head. Only the application writes it: Relaxed.
#[inline(always)]
fn load_cq_head(ring: LiveRing) -> u32 {
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
fn cqe_at(ring: LiveRing, index: u32, shift: u32) -> *mut io_uring_cqe {
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
unsafe fn read_cqe(cqe: *const io_uring_cqe) -> (u32, u64, i32) {
    // SAFETY: per the caller.
    unsafe { ((*cqe).flags, (*cqe).user_data, (*cqe).res) }
}

// ---------------------------------------------------------------------------
// Ring state helpers (the inline functions of liburing.h)
// ---------------------------------------------------------------------------

/// SQEs handed out but not yet consumed by the kernel (`io_uring_sq_ready`;
/// the C callers use the inline header version).
#[cfg(test)]
#[inline]
pub fn sq_ready(ring: LiveRing) -> u32 {
    ring.sqe_tail().wrapping_sub(load_sq_head(ring))
}

/// Free SQ slots (`io_uring_sq_space_left`).
#[cfg(test)]
#[inline]
pub fn sq_space_left(ring: LiveRing) -> u32 {
    ring.sq_entries().wrapping_sub(sq_ready(ring))
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
fn cq_needs_flush(ring: LiveRing) -> bool {
    load_sq_flags(ring) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN) != 0
}

/// Whether looking for completions requires `io_uring_enter`.
#[inline(always)]
fn cq_needs_enter(ring: LiveRing) -> bool {
    ring.int_flags() & int_flags::CQ_ENTER != 0 || cq_needs_flush(ring)
}

/// Whether `submit` pending SQEs require `io_uring_enter`: always without
/// SQPOLL; with SQPOLL only when the poller thread went to sleep, in which
/// case `IORING_ENTER_SQ_WAKEUP` is added to `flags`.
#[inline(always)]
fn sq_needs_enter(ring: LiveRing, submit: u32, flags: &mut u32) -> bool {
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

/// `io_uring_enter` on the ring's enter fd (the registered index when
/// `int_flags::REG_RING` is set; the caller includes `ring.enter_flags()`).
///
/// `arg` is whatever `flags` tell the kernel it is (a sigmask, an
/// `io_uring_getevents_arg`, an offset into the registered wait region):
/// the kernel only ever reads it, and answers `EFAULT` if it cannot.
#[inline(always)]
fn enter(
    ring: LiveRing,
    to_submit: u32,
    min_complete: u32,
    flags: u32,
    arg: *const c_void,
    argsz: usize,
) -> SysResult<u32> {
    // SAFETY: io_uring_enter writes nothing through `arg` (see above), and
    // the SQEs it reads are in the ring's own mapping.
    let n = unsafe {
        syscall::io_uring_enter2(
            ring.enter_ring_fd() as u32,
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

/// The submit calls as seen by an observer (the C entry points come here
/// when [`hooks::watching_rings`]): the same work, then the hook. Out of
/// line and cold, returning liburing's encoding (count or `-errno`) so that
/// the entry point tail-calls it and its own path keeps nothing for it.
#[cold]
#[inline(never)]
pub fn submit_observed(ring: LiveRing, wait_nr: u32, getevents: bool) -> i32 {
    let n = flush_sq(ring);
    let (r, enters) = submit_flushed_counted(ring, n, wait_nr, getevents);
    let code = match r {
        Ok(n) => n as i32,
        Err(e) => e.neg(),
    };
    let Some(p) = NonNull::new(ring.as_ptr().cast_mut()) else {
        return code;
    };
    // SAFETY: `p` is the live ring of the submit call this thread is in.
    unsafe { hooks::submitted(p, wait_nr != 0 || getevents, code, enters) }
}

/// The decision to enter (the same as liburing's, laid out for the hot
/// path: a caller that waits (`wait_nr != 0`) or must reap enters whatever
/// the SQ says, so that is settled first and the SQ is then only asked about
/// the SQPOLL wakeup flag). Also returns the number of enters made.
#[inline(always)]
fn submit_flushed_counted(
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
pub fn submit(ring: LiveRing) -> SysResult<u32> {
    let n = flush_sq(ring);
    submit_flushed(ring, n, 0, false)
}

/// `io_uring_submit_and_wait`: submits, then waits for `wait_nr` CQEs.
#[inline]
pub fn submit_and_wait(ring: LiveRing, wait_nr: u32) -> SysResult<u32> {
    let n = flush_sq(ring);
    submit_flushed(ring, n, wait_nr, false)
}

/// `io_uring_submit_and_get_events`: submits and always lets the kernel
/// flush completions (task work, overflow) into the CQ.
#[inline]
pub fn submit_and_get_events(ring: LiveRing) -> SysResult<u32> {
    let n = flush_sq(ring);
    submit_flushed(ring, n, 0, true)
}

/// `io_uring_get_events`: enters with `IORING_ENTER_GETEVENTS` only, which
/// runs pending task work and flushes overflowed CQEs.
pub fn get_events(ring: LiveRing) -> SysResult<u32> {
    let flags = IORING_ENTER_GETEVENTS | ring.enter_flags();
    // Costs no instruction; it only keeps the fd's load after the flags',
    // so the fd is loaded straight into its argument register instead of
    // a temporary while the ring pointer is still needed.
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    enter(ring, 0, 0, flags, ptr::null(), KERNEL_SIGSET_BYTES)
}

/// `__io_uring_sqring_wait`: sleeps until the SQPOLL thread frees SQ space.
pub fn sqring_wait(ring: LiveRing) -> SysResult<u32> {
    let flags = IORING_ENTER_SQ_WAIT | ring.enter_flags();
    enter(ring, 0, 0, flags, ptr::null(), KERNEL_SIGSET_BYTES)
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
    /// offset into the registered wait region; only the kernel reads it.
    arg: *const c_void,
    argsz: usize,
    /// The wait has a timeout the kernel enforces: do not wait twice.
    has_ts: bool,
}

/// The result of a wait in liburing's own encoding: the count, or `-errno`.
/// Kept in that form between the (out of line) wait loop and the C entry
/// points, where it turns into a [`SysResult`] and straight back for free.
/// Where the round trip does not fold (a wait with several paths, whose
/// merged result the optimiser turns into an absolute value), the C entry
/// point takes the code itself ([`Waited::code`]).
#[derive(Clone, Copy)]
pub struct Waited(i32);

impl Waited {
    /// liburing's return value: the count, or `-errno`.
    #[inline(always)]
    pub fn code(self) -> i32 {
        self.0
    }

    #[inline(always)]
    fn result(self) -> SysResult<u32> {
        if self.0 < 0 {
            Err(Errno(self.0.wrapping_neg()))
        } else {
            Ok(self.0 as u32)
        }
    }
}

/// The completion loop behind every wait (liburing's `_io_uring_get_cqe`).
///
/// Returns liburing's result: the count the first `io_uring_enter` returned
/// (SQEs submitted), 0 if none was needed, or an error: the first one seen
/// wins, and an error after a first successful enter that submitted
/// something is not reported. `cqe_out` always receives the CQE found, or
/// null.
///
/// Inlined into each kind of wait, so what a kind never does (a timeout,
/// extra enter flags) costs it nothing. It counts its enters (one register
/// increment) and, when an observer watches rings, reports at the end.
#[inline(always)]
fn get_cqe_loop(ring: LiveRing, cqe_out: &mut CqeOut, spec: WaitSpec) -> Waited {
    get_cqe_loop_as(ring, cqe_out, spec, Watch::AtEnd)
}

/// How a copy of the wait loop reports to an observer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Watch {
    /// Known unwatched: no test at all.
    Never,
    /// Tests [`hooks::watching_rings`] at the end and reports then.
    AtEnd,
    /// Watched: reports before sleeping too.
    Always,
}

#[inline(always)]
fn get_cqe_loop_as(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    mut spec: WaitSpec,
    watch: Watch,
) -> Waited {
    let mut cqe: *mut io_uring_cqe;
    let mut looped = false;
    // liburing's `err`: 0 = nothing yet, > 0 = first enter's count, < 0 = -errno.
    let mut err: i32 = 0;
    // For the hook: what the call did.
    let submits = spec.submit != 0;
    let mut enters: u32 = 0;

    loop {
        let mut need_enter = false;
        let mut flags = ring.enter_flags();

        let available = match peek_cqe(ring) {
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
            if looped || !cq_needs_enter(ring) {
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
        if sq_needs_enter(ring, spec.submit, &mut flags) {
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

        if watch == Watch::Always {
            report_waiting(ring, &spec, available, looped);
        }
        let entered = enter(ring, spec.submit, spec.wait_nr, flags, spec.arg, spec.argsz);
        enters += 1;
        match entered {
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

    cqe_out.write(cqe);
    if watch == Watch::Always || watch == Watch::AtEnd && hooks::watching_rings() {
        cold_path();
        return Waited(report_wait(ring, submits, err, enters));
    }
    Waited(err)
}

/// Tells an observer that a wait submitting nothing is about to sleep.
#[cold]
#[inline(never)]
fn report_waiting(ring: LiveRing, spec: &WaitSpec, available: u32, looped: bool) {
    if looped || spec.submit != 0 || spec.wait_nr <= available {
        return;
    }
    let Some(p) = NonNull::new(ring.as_ptr().cast_mut()) else {
        return;
    };
    // SQEs not yet handed to the kernel: with SQPOLL those not yet
    // published (its thread takes published ones by itself), else those
    // the kernel has not consumed.
    let unsubmitted = if ring.flags() & IORING_SETUP_SQPOLL != 0 {
        ring.sqe_tail().wrapping_sub(ring.sqe_head())
    } else {
        ring.sqe_tail().wrapping_sub(load_sq_head(ring))
    };
    // SAFETY: this thread is in a wait call on the live ring.
    unsafe { hooks::waiting(p, unsubmitted, spec.wait_nr, spec.has_ts) }
}

/// The wait loop's hook call, out of line and cold.
#[cold]
#[inline(never)]
fn report_wait(ring: LiveRing, submits: bool, err: i32, enters: u32) -> i32 {
    let Some(p) = NonNull::new(ring.as_ptr().cast_mut()) else {
        return err;
    };
    if submits {
        // SAFETY: a wait that submits is made by the ring's submitter, which
        // is reaping too.
        unsafe { hooks::submitted(p, true, err, enters) }
    } else {
        // SAFETY: this thread is in a wait call on the live ring.
        unsafe { hooks::reaped(p, err, enters) }
    }
}

/// `__io_uring_get_cqe`: submits `submit` already-flushed SQEs and waits
/// for `wait_nr` CQEs, with `sigmask` (null for none) applied meanwhile.
#[inline]
pub fn get_cqe(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    wait_sigmask(ring, cqe_out, submit, wait_nr, sigmask).result()
}

/// [`get_cqe`] in the wait loop's encoding.
#[inline(never)]
fn wait_sigmask(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> Waited {
    // The plain waits can sleep with no end: watched, they run a cold copy
    // of the loop that also reports before sleeping (one test either way).
    if hooks::watching_rings() {
        cold_path();
        return wait_sigmask_watched(ring, cqe_out, submit, wait_nr, sigmask);
    }
    get_cqe_loop_as(
        ring,
        cqe_out,
        sigmask_spec(submit, wait_nr, sigmask),
        Watch::Never,
    )
}

/// [`wait_sigmask`] under an observer, out of line and cold.
#[cold]
#[inline(never)]
fn wait_sigmask_watched(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> Waited {
    get_cqe_loop_as(
        ring,
        cqe_out,
        sigmask_spec(submit, wait_nr, sigmask),
        Watch::Always,
    )
}

#[inline(always)]
fn sigmask_spec(submit: u32, wait_nr: u32, sigmask: *const libc::sigset_t) -> WaitSpec {
    WaitSpec {
        submit,
        wait_nr,
        get_flags: 0,
        arg: sigmask.cast(),
        argsz: KERNEL_SIGSET_BYTES,
        has_ts: false,
    }
}

/// Waits through `IORING_ENTER_EXT_ARG` (liburing's `io_uring_wait_cqes_new`
/// and the EXT_ARG branch of `__io_uring_submit_and_wait_timeout`).
#[inline(always)]
fn wait_ext_arg(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> Waited {
    let arg = io_uring_getevents_arg {
        sigmask: sigmask as u64,
        sigmask_sz: KERNEL_SIGSET_BYTES as u32,
        min_wait_usec,
        ts: ts as u64,
    };
    let spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: IORING_ENTER_EXT_ARG,
        // `arg` lives across the loop.
        arg: ptr::from_ref(&arg).cast(),
        argsz: size_of::<io_uring_getevents_arg>(),
        has_ts: !ts.is_null(),
    };
    get_cqe_loop(ring, cqe_out, spec)
}

/// [`wait_ext_arg`] with nothing to submit (the waits proper).
#[inline(never)]
fn wait_ext_arg_only(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> Waited {
    wait_ext_arg(ring, cqe_out, 0, wait_nr, ts, min_wait_usec, sigmask)
}

/// Queues the fallback timeout SQE (kernels without `IORING_FEAT_EXT_ARG`)
/// and flushes the SQ; returns the SQEs now pending (liburing's
/// `__io_uring_submit_timeout`). The kernel reads `*ts` when the SQE is
/// submitted, within this wait.
fn queue_fallback_timeout(
    ring: LiveRing,
    wait_nr: u32,
    ts: *const __kernel_timespec,
) -> SysResult<u32> {
    let mut sqe = get_sqe(ring);
    if sqe.is_null() {
        // SQ full: push what is there to make room.
        submit(ring)?;
        sqe = get_sqe(ring);
        if sqe.is_null() {
            return Err(Errno::EAGAIN);
        }
    }
    // SAFETY: `sqe` was just handed out to us (a free slot of the live
    // ring's SQE array) and is not yet published.
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
    Ok(flush_sq(ring))
}

/// `io_uring_wait_cqes`: waits for `wait_nr` CQEs, up to `ts` if given.
///
/// With `IORING_FEAT_EXT_ARG` the timeout travels in the enter argument and
/// nothing is submitted. Older kernels get a timeout SQE queued behind the
/// SQEs already prepared, and all of them are submitted by this wait; the
/// result is then the count that first enter submitted, as in liburing.
// For the unit tests; the C entry points take the `_waited` form.
#[cfg(test)]
pub fn wait_cqes(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    wait_cqes_waited(ring, cqe_out, wait_nr, ts, sigmask).result()
}

/// [`wait_cqes`] in liburing's encoding (see [`Waited`]).
#[inline(always)]
pub fn wait_cqes_waited(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> Waited {
    let mut to_submit = 0;
    if !ts.is_null() {
        if ring.features() & IORING_FEAT_EXT_ARG != 0 {
            return wait_ext_arg_only(ring, cqe_out, wait_nr, ts, 0, sigmask);
        }
        to_submit = match queue_fallback_timeout(ring, wait_nr, ts) {
            Ok(n) => n,
            Err(e) => return Waited(e.neg()),
        };
    }
    wait_sigmask(ring, cqe_out, to_submit, wait_nr, sigmask)
}

/// `io_uring_wait_cqes_min_timeout`: like [`wait_cqes`] with a batch
/// timeout of `min_wait_usec`; `EINVAL` without `IORING_FEAT_MIN_TIMEOUT`.
#[inline]
pub fn wait_cqes_min_timeout(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    if ring.features() & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(Errno::EINVAL);
    }
    wait_ext_arg_only(ring, cqe_out, wait_nr, ts, min_wait_usec, sigmask).result()
}

/// `io_uring_wait_cqe_timeout`: [`wait_cqes`] for one CQE, no sigmask.
// For the unit tests; the C entry points take the `_waited` form.
#[cfg(test)]
pub fn wait_cqe_timeout(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    ts: *const __kernel_timespec,
) -> SysResult<u32> {
    wait_cqe_timeout_waited(ring, cqe_out, ts).result()
}

/// [`wait_cqe_timeout`] in liburing's encoding (see [`Waited`]).
#[inline(always)]
pub fn wait_cqe_timeout_waited(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    ts: *const __kernel_timespec,
) -> Waited {
    wait_cqes_waited(ring, cqe_out, 1, ts, ptr::null())
}

/// liburing's `__io_uring_submit_and_wait_timeout`.
#[inline]
fn submit_and_wait_ts(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let to_submit = if !ts.is_null() {
        if ring.features() & IORING_FEAT_EXT_ARG != 0 {
            let n = flush_sq(ring);
            return wait_ext_arg(ring, cqe_out, n, wait_nr, ts, min_wait_usec, sigmask).result();
        }
        queue_fallback_timeout(ring, wait_nr, ts)?
    } else {
        flush_sq(ring)
    };
    get_cqe(ring, cqe_out, to_submit, wait_nr, sigmask)
}

/// `io_uring_submit_and_wait_timeout`: submits and waits for `wait_nr`
/// CQEs, up to `ts` if given. Returns the number of SQEs submitted.
#[inline]
pub fn submit_and_wait_timeout(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    submit_and_wait_ts(ring, cqe_out, wait_nr, ts, 0, sigmask)
}

/// `io_uring_submit_and_wait_min_timeout`: [`submit_and_wait_timeout`] with
/// a batch timeout; `EINVAL` without `IORING_FEAT_MIN_TIMEOUT`.
#[inline]
pub fn submit_and_wait_min_timeout(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    if ring.features() & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(Errno::EINVAL);
    }
    submit_and_wait_ts(ring, cqe_out, wait_nr, ts, min_wait_usec, sigmask)
}

/// `io_uring_submit_and_wait_reg`: submits and waits as described by entry
/// `reg_index` of the registered wait region (`IORING_ENTER_EXT_ARG_REG`).
/// The SQ is flushed even when the kernel lacks `IORING_FEAT_EXT_ARG`
/// (then `EINVAL`), as in liburing.
pub fn submit_and_wait_reg(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    reg_index: i32,
) -> SysResult<u32> {
    // C: `reg_index * sizeof(struct io_uring_reg_wait)` in unsigned long.
    let offset = (reg_index as isize as usize).wrapping_mul(size_of::<io_uring_reg_wait>());
    let submit = flush_sq(ring);
    if ring.features() & IORING_FEAT_EXT_ARG == 0 {
        return Err(Errno::EINVAL);
    }
    let spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: IORING_ENTER_EXT_ARG | IORING_ENTER_EXT_ARG_REG,
        // Not a pointer: the kernel takes the offset into its wait region,
        // which it bounds-checks itself.
        arg: offset as *const c_void,
        argsz: size_of::<io_uring_reg_wait>(),
        has_ts: true,
    };
    get_cqe_loop(ring, cqe_out, spec).result()
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

#[cfg(test)]
mod tests {
    //! Round trips against the running kernel. Rings come from the real
    //! setup code; SQEs are filled by hand (the prep helpers are C inlines).
    use super::*;
    use crate::structs::io_uring;
    use crate::test_ring::{
        errno, require_uring, ring, ring_or_skip, skip, wait_until, TestRing as Ring,
    };
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
    use std::time::{Duration, Instant};

    /// `&mut *mut io_uring_cqe` as the out-parameter the waits take.
    fn cqe_out(p: &mut *mut io_uring_cqe) -> &mut CqeOut {
        // SAFETY: `MaybeUninit<T>` has `T`'s layout; the borrow is exclusive.
        unsafe { &mut *ptr::from_mut(p).cast::<CqeOut>() }
    }

    /// A CQE pointer array as the out-slots `peek_batch_cqe` takes.
    fn cqe_slots_of(a: &mut [*mut io_uring_cqe]) -> &mut [CqeOut] {
        // SAFETY: as for `cqe_out`, element by element.
        unsafe { core::slice::from_raw_parts_mut(a.as_mut_ptr().cast::<CqeOut>(), a.len()) }
    }

    /// Grabs an SQE and fills the fields every prep helper sets.
    fn prep(
        ring: LiveRing,
        opcode: u8,
        fd: i32,
        addr: u64,
        len: u32,
        off: u64,
        user_data: u64,
    ) -> *mut io_uring_sqe {
        let sqe = get_sqe(ring);
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

    fn nop(ring: LiveRing, user_data: u64) {
        prep(ring, IORING_OP_NOP, -1, 0, 0, 0, user_data);
    }

    fn ts_ms(ms: i64) -> __kernel_timespec {
        __kernel_timespec {
            tv_sec: ms / 1000,
            tv_nsec: (ms % 1000) * 1_000_000,
        }
    }

    /// How long a test waits for a completion that is due: long enough for
    /// any loaded machine, and the wait ends as soon as it is there.
    const PATIENCE_MS: i64 = 10_000;

    /// Waits up to `ms` for one CQE; returns (user_data, res, flags) and
    /// releases it.
    fn reap(ring: LiveRing, ms: i64) -> SysResult<(u64, i32, u32)> {
        let ts = ts_ms(ms);
        let mut cqe = null_mut();
        wait_cqe_timeout(ring, cqe_out(&mut cqe), &ts)?;
        assert!(!cqe.is_null());
        // SAFETY: a CQE returned by the wait is readable until released.
        let v = unsafe { ((*cqe).user_data, (*cqe).res, (*cqe).flags) };
        // SAFETY: live ring; done with the CQE.
        cq_advance(ring, cqe_slots(v.2));
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

    /// The ring pointer, handed to a second thread as liburing allows.
    #[derive(Clone, Copy)]
    struct SharedRing(*mut io_uring);
    // SAFETY: the ring outlives both threads, and they split it as the
    // threading contract says: one only submits, the other only reaps.
    unsafe impl Send for SharedRing {}

    #[test]
    fn submitter_and_reaper_threads_share_a_ring() {
        const TOTAL: u64 = 20_000;
        let mut r = ring!(64);
        let shared = SharedRing(&mut r.0);
        let reaper = std::thread::spawn(move || {
            let shared = shared;
            // SAFETY: the ring is live until after the join below.
            let ring = unsafe { LiveRing::from_ptr(shared.0) }.unwrap();
            let mut seen = vec![false; TOTAL as usize];
            let mut got = 0;
            while got < TOTAL {
                let mut cqe = null_mut();
                let ret = get_cqe(ring, cqe_out(&mut cqe), 0, 1, ptr::null());
                assert_eq!(ret, Ok(0));
                // SAFETY: a CQE just found, not yet released.
                let ud = unsafe { (*cqe).user_data };
                assert!(!seen[ud as usize], "CQE {ud} twice");
                seen[ud as usize] = true;
                cq_advance(ring, 1);
                got += 1;
            }
        });
        // SAFETY: as above; this thread only submits.
        let ring = unsafe { LiveRing::from_ptr(shared.0) }.unwrap();
        let mut next = 0;
        while next < TOTAL {
            // At most 32 in flight, so the 128-entry CQ never overflows.
            if sq_space_left(ring) == 0 || next - reaped_estimate(ring) >= 32 {
                std::thread::yield_now();
                continue;
            }
            nop(ring, next);
            next += 1;
            submit(ring).unwrap();
        }
        reaper.join().unwrap();
        assert_eq!(cq_ready(r.live()), 0);
    }

    /// CQEs the reaper has released so far (the CQ head is monotonic).
    fn reaped_estimate(ring: LiveRing) -> u64 {
        u64::from(ring.cq_khead().load(Ordering::Acquire))
    }

    #[test]
    fn nop_round_trip() {
        let mut r = ring!(8);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            assert_eq!(sq_space_left(r.live()), 8);
            nop(r.live(), 7);
            assert_eq!(sq_ready(r.live()), 1);
            assert_eq!(submit(r.live()), Ok(1));
            // Nothing new: no SQEs, and the CQ needs no flush.
            assert_eq!(submit(r.live()), Ok(0));
            let mut cqe = null_mut();
            assert_eq!(
                get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
                Ok(0)
            );
            assert!(!cqe.is_null());
            assert_eq!(((*cqe).user_data, (*cqe).res), (7, 0));
            assert_eq!(cq_ready(r.live()), 1);
            cq_advance(r.live(), 1);
            assert_eq!(cq_ready(r.live()), 0);
        }
    }

    #[test]
    fn ring_with_sq_array() {
        // Set up without trying IORING_SETUP_NO_SQARRAY first, so the ring
        // has the (identity) SQ index array.
        require_uring!();
        let mut r = Ring::exactly(4, 0).unwrap();
        assert!(!r.sq.array.is_null());
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            // Several laps around the 4-entry SQ.
            for round in 0..5u64 {
                for i in 0..3 {
                    nop(r.live(), round * 10 + i);
                }
                assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
                let mut out = [null_mut(); 4];
                assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
                for (i, c) in out[..3].iter().enumerate() {
                    assert_eq!((**c).user_data, round * 10 + i as u64);
                }
                cq_advance(r.live(), 3);
            }
        }
    }

    #[test]
    fn get_cqe_submits_and_reports_count() {
        let mut r = ring!(8);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(r.live(), 1);
            nop(r.live(), 2);
            let n = flush_sq(r.live());
            assert_eq!(n, 2);
            let mut cqe = null_mut();
            // The first enter submits both and its count is the result.
            assert_eq!(
                get_cqe(r.live(), cqe_out(&mut cqe), n, 1, ptr::null()),
                Ok(2)
            );
            assert_eq!((*cqe).user_data, 1);
        }
    }

    #[test]
    fn sq_full_then_refilled() {
        let mut r = ring!(4);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..4 {
                nop(r.live(), i);
            }
            assert!(get_sqe(r.live()).is_null(), "a 4-entry SQ hands out 4 SQEs");
            assert_eq!(sq_space_left(r.live()), 0);
            assert_eq!(submit_and_wait(r.live(), 4), Ok(4));
            assert_eq!(sq_space_left(r.live()), 4);
            assert!(!get_sqe(r.live()).is_null());
            // Turn the extra SQE into a NOP so it completes harmlessly.
            (*r.sq
                .sqes
                .add(((r.sq.sqe_tail - 1) & r.sq.ring_mask) as usize))
            .opcode = IORING_OP_NOP;
        }
    }

    #[test]
    fn peek_on_empty_cq_is_eagain() {
        let mut r = ring!(4);
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let ret = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
        assert_eq!(ret, Err(Errno::EAGAIN));
        assert!(cqe.is_null());
    }

    #[test]
    fn batch_submit_wait_and_peek() {
        let mut r = ring!(16);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..8 {
                nop(r.live(), 100 + i);
            }
            assert_eq!(submit_and_wait(r.live(), 8), Ok(8));
            let mut out = [null_mut(); 16];
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out[..5])), 5);
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 8);
            for (i, c) in out[..8].iter().enumerate() {
                assert_eq!((**c).user_data, 100 + i as u64);
            }
            // A zero-sized batch finds nothing to return.
            assert_eq!(peek_batch_cqe(r.live(), &mut []), 0);
            cq_advance(r.live(), 8);
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 0);
        }
    }

    #[test]
    fn submit_and_wait_timeout_returns_submitted() {
        let mut r = ring!(8);
        let ts = ts_ms(PATIENCE_MS);
        // SAFETY: (whole test) `r` is a live ring; `ts` outlives the calls.
        unsafe {
            nop(r.live(), 1);
            nop(r.live(), 2);
            let mut cqe = null_mut();
            assert_eq!(
                submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 2, &ts, ptr::null()),
                Ok(2)
            );
            assert!(!cqe.is_null());
            assert_eq!(cq_ready(r.live()), 2);
            cq_advance(r.live(), 2);
            // Without a timeout: the plain submit-and-wait path.
            nop(r.live(), 3);
            assert_eq!(
                submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 1, ptr::null(), ptr::null()),
                Ok(1)
            );
            assert_eq!((*cqe).user_data, 3);
        }
    }

    #[test]
    fn wait_timeout_gives_etime() {
        let mut r = ring!(4);
        if r.features & IORING_FEAT_EXT_ARG == 0 {
            skip!("kernel lacks IORING_FEAT_EXT_ARG");
        }
        let ts = ts_ms(50);
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        let ret = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &ts);
        assert_eq!(ret, Err(Errno::ETIME));
        let waited = start.elapsed();
        assert!(cqe.is_null());
        // A lower bound only: a loaded machine may wake the waiter late.
        assert!(waited >= Duration::from_millis(45), "waited {waited:?}");

        // Same through wait_cqes with an (empty) signal mask: the kernel
        // checks the mask size we pass.
        // SAFETY: an all-zero sigset_t is a valid empty set.
        let mask: libc::sigset_t = unsafe { core::mem::zeroed() };
        let ret = wait_cqes(r.live(), cqe_out(&mut cqe), 1, &ts, &mask);
        assert_eq!(ret, Err(Errno::ETIME));
        // And a completion that is already there is returned at once.
        nop(r.live(), 5);
        assert_eq!(submit(r.live()), Ok(1));
        assert_eq!(wait_cqes(r.live(), cqe_out(&mut cqe), 1, &ts, &mask), Ok(0));
        // SAFETY: returned by the wait.
        assert_eq!(unsafe { (*cqe).user_data }, 5);
    }

    #[test]
    fn timeout_fallback_without_ext_arg() {
        let mut r = ring!(4);
        // Pretend to be an old kernel: the wait queues its own timeout SQE.
        r.features &= !IORING_FEAT_EXT_ARG;
        let ts = ts_ms(30);
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        let res = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &ts);
        // liburing reports the first enter's count (the timeout SQE it
        // submitted) and no CQE; the timeout's own CQE is consumed.
        assert_eq!(res, Ok(1));
        assert!(cqe.is_null());
        assert!(start.elapsed() >= Duration::from_millis(25));
        // SAFETY: (rest) live ring.
        unsafe {
            assert_eq!(cq_ready(r.live()), 0);
            assert_eq!(sq_ready(r.live()), 0);

            // A pending timeout CQE that failed is reported by the next peek.
            nop(r.live(), 9);
            let long = ts_ms(100);
            let res = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &long);
            assert_eq!(res, Ok(2), "NOP and timeout submitted together");
            assert_eq!((*cqe).user_data, 9);
            cq_advance(r.live(), 1);
            // The internal timeout ends (100 ms) and posts its own CQE.
            wait_until("the internal timeout's CQE", || cq_ready(r.live()) == 1);
            let res = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
            assert!(
                res == Err(Errno::EAGAIN) || res == Err(Errno::ETIME),
                "{res:?}"
            );
            assert!(cqe.is_null());
            assert_eq!(
                cq_ready(r.live()),
                0,
                "the internal timeout CQE is never shown"
            );
        }
    }

    #[test]
    fn min_timeout_waits() {
        let mut r = ring!(8);
        if r.features & IORING_FEAT_MIN_TIMEOUT == 0 {
            skip!("kernel lacks IORING_FEAT_MIN_TIMEOUT");
        }
        let ts = ts_ms(60);
        let mut cqe = null_mut();
        let start = Instant::now();
        let res = wait_cqes_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10_000, ptr::null());
        assert_eq!(res, Err(Errno::ETIME));
        assert!(start.elapsed() >= Duration::from_millis(55));

        // One of four: the batch timeout (30 ms) ends the wait, not `long`.
        let long = ts_ms(3000);
        nop(r.live(), 1);
        let start = Instant::now();
        // SAFETY: live ring; `long` outlives the call.
        let res =
            submit_and_wait_min_timeout(r.live(), cqe_out(&mut cqe), 4, &long, 30_000, ptr::null());
        let waited = start.elapsed();
        // The result and the CQE are asserted, not the wall time: a loaded
        // machine may delay any wake-up (the time is printed below).
        assert_eq!(res, Ok(1));
        assert!(!cqe.is_null());
        println!("min-timeout wait for 1 of 4 CQEs took {waited:?} (batch timeout 30ms)");
        cq_advance(r.live(), 1);

        // Without the feature: EINVAL, and the out pointer is left alone.
        r.features &= !IORING_FEAT_MIN_TIMEOUT;
        let sentinel = ptr::dangling_mut::<io_uring_cqe>();
        cqe = sentinel;
        assert_eq!(
            wait_cqes_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10, ptr::null()),
            Err(Errno::EINVAL)
        );
        assert_eq!(
            submit_and_wait_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10, ptr::null()),
            Err(Errno::EINVAL)
        );
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
        prep(
            r.live(),
            IORING_OP_READ,
            rd,
            buf.as_mut_ptr() as u64,
            1,
            u64::MAX,
            1,
        );
        assert_eq!(submit(r.live()), Ok(1));
        // The write wakes the armed read, which queues it as task work
        // before write(2) returns (the wake-up runs in the writer's call),
        // so there is nothing to wait for: the completion is pending now,
        // and without an enter from us it stays there. (A ring without
        // DEFER_TASKRUN would have run it on the way back from write(2).)
        write_byte(wr);
        assert_eq!(cq_ready(r.live()), 0);
        let mut out = [null_mut(); 4];
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 0);
        let mut cqe = null_mut();
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null()),
            Err(Errno::EAGAIN)
        );

        // Another task may not run it: the kernel's EEXIST comes back.
        // SAFETY: a bitwise copy of the handle; the ring outlives the thread.
        let copy = SendRing(unsafe { ptr::read(&r.0) });
        let (ev, wait) = std::thread::spawn(move || {
            let mut copy = copy;
            let mut cqe = null_mut();
            // SAFETY: the ring outlives this thread (joined below).
            unsafe {
                (
                    get_events(LiveRing::from_ptr(&mut copy.0).unwrap()),
                    get_cqe(
                        LiveRing::from_ptr(&mut copy.0).unwrap(),
                        cqe_out(&mut cqe),
                        0,
                        1,
                        ptr::null(),
                    ),
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
            assert_eq!(cq_ready(r.live()), 0);

            assert_eq!(get_events(r.live()), Ok(0));
            assert_eq!(cq_ready(r.live()), 1);
            let (ud, res, _) = reap(r.live(), PATIENCE_MS).unwrap();
            assert_eq!((ud, res), (1, 1));

            // submit_and_get_events runs it too, with nothing to submit.
            prep(
                r.live(),
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                2,
            );
            assert_eq!(submit(r.live()), Ok(1));
            write_byte(wr); // pending as task work on return, as above
            assert_eq!(cq_ready(r.live()), 0);
            assert_eq!(submit_and_get_events(r.live()), Ok(0));
            assert_eq!(cq_ready(r.live()), 1);
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 2);

            // And so does a wait.
            prep(
                r.live(),
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                3,
            );
            assert_eq!(submit(r.live()), Ok(1));
            write_byte(wr);
            assert_eq!(
                get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
                Ok(0)
            );
            assert_eq!(((*cqe).user_data, (*cqe).res), (3, 1));
            cq_advance(r.live(), 1);
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
                    r.live(),
                    IORING_OP_READ,
                    rd,
                    buf.as_mut_ptr() as u64,
                    1,
                    u64::MAX,
                    ud,
                );
                assert_eq!(submit(r.live()), Ok(1));
                write_byte(wr);
                // The kernel flags the queued task work in the SQ ring.
                wait_until("IORING_SQ_TASKRUN", || {
                    load_sq_flags(r.live()) & IORING_SQ_TASKRUN != 0
                });
                assert_eq!(cq_ready(r.live()), 0);
                if ud == 1 {
                    let mut out = [null_mut(); 4];
                    assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 1);
                    assert_eq!((*out[0]).user_data, 1);
                    cq_advance(r.live(), 1);
                } else {
                    let mut cqe = null_mut();
                    assert_eq!(
                        get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null()),
                        Ok(0)
                    );
                    assert_eq!((*cqe).user_data, 2);
                    cq_advance(r.live(), 1);
                }
            }
        }
        close_fds(&[rd, wr]);
    }

    #[test]
    fn cq_overflow_loses_nothing() {
        let mut r = ring!(4);
        if r.features & IORING_FEAT_NODROP == 0 {
            skip!("kernel lacks IORING_FEAT_NODROP");
        }
        let cq_entries = r.cq.ring_entries;
        let total = cq_entries + 4;
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            let mut id = 0;
            while id < total {
                for _ in 0..4 {
                    nop(r.live(), u64::from(id));
                    id += 1;
                }
                assert_eq!(submit(r.live()), Ok(4));
            }
            assert_eq!(cq_ready(r.live()), cq_entries);
            assert!(load_sq_flags(r.live()) & IORING_SQ_CQ_OVERFLOW != 0);

            let mut seen = HashSet::new();
            let mut out = [null_mut(); 64];
            loop {
                let n = peek_batch_cqe(r.live(), cqe_slots_of(&mut out));
                if n == 0 {
                    break;
                }
                for c in &out[..n as usize] {
                    assert_eq!((**c).res, 0);
                    assert!(seen.insert((**c).user_data), "duplicate CQE");
                }
                cq_advance(r.live(), n);
            }
            assert_eq!(seen.len() as u32, total, "every completion arrives");
            assert!(load_sq_flags(r.live()) & IORING_SQ_CQ_OVERFLOW == 0);
        }
    }

    #[test]
    fn sqpoll_wakeup() {
        let mut p = io_uring_params {
            flags: IORING_SETUP_SQPOLL,
            sq_thread_idle: 10,
            ..Default::default()
        };
        require_uring!();
        let mut r = match Ring::with_params(8, &mut p) {
            Ok(r) => r,
            Err(e) => skip!("SQPOLL setup failed: {}", errno(e)),
        };
        nop(r.live(), 1);
        // The awake poller may consume the SQE before the count is
        // taken, so 0 is as right as 1 here.
        let n = submit(r.live()).unwrap();
        assert!(n <= 1);
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 1);
        // Let the poller go idle and ask for a wakeup.
        wait_until("the SQ thread to go idle", || {
            load_sq_flags(r.live()) & IORING_SQ_NEED_WAKEUP != 0
        });
        nop(r.live(), 2);
        assert_eq!(submit(r.live()), Ok(1));
        assert_eq!(
            reap(r.live(), PATIENCE_MS).unwrap().0,
            2,
            "the sleeping poller was woken"
        );
        // With SQ space free, waiting for space returns at once.
        assert_eq!(sqring_wait(r.live()), Ok(0));
    }

    #[test]
    fn registered_ring_fd() {
        let mut r = ring!(4);
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
            skip!("ring fd registration: {ret:?}");
        }
        r.enter_ring_fd = upd.offset as i32;
        r.int_flags |= int_flags::REG_RING;
        nop(r.live(), 11);
        assert_eq!(submit(r.live()), Ok(1));
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 11);
        assert_eq!(get_events(r.live()), Ok(0));
    }

    #[test]
    fn no_iowait_flag_reaches_kernel() {
        let mut r = ring!(4);
        if r.features & IORING_FEAT_NO_IOWAIT == 0 || r.features & IORING_FEAT_EXT_ARG == 0 {
            skip!("kernel lacks IORING_FEAT_NO_IOWAIT");
        }
        r.int_flags |= int_flags::NO_IOWAIT;
        // An unknown enter flag would be EINVAL; this one is a plain wait.
        assert_eq!(reap(r.live(), 10), Err(Errno::ETIME));
        nop(r.live(), 4);
        assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
        assert_eq!(reap(r.live(), 10).unwrap().0, 4);
    }

    #[test]
    fn iopoll_peek_enters_once() {
        let mut r = ring_or_skip!(4, IORING_SETUP_IOPOLL);
        assert!(r.int_flags & int_flags::CQ_ENTER != 0);
        let mut cqe = null_mut();
        let ret = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
        assert_eq!(ret, Err(Errno::EAGAIN));
    }

    #[test]
    fn big_cqes_are_strided() {
        let mut r = ring_or_skip!(4, IORING_SETUP_CQE32);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            for i in 0..3 {
                nop(r.live(), i);
            }
            assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
            for (i, c) in out[..3].iter().enumerate() {
                assert_eq!((**c).user_data, i as u64);
            }
            assert_eq!(out[1] as usize - out[0] as usize, 32);
            cq_advance(r.live(), 3);
        }
    }

    #[test]
    fn big_sqes_are_strided() {
        let mut r = ring_or_skip!(4, IORING_SETUP_SQE128);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            let a = get_sqe(r.live());
            let b = get_sqe(r.live());
            assert_eq!(b as usize - a as usize, 128);
            for (s, ud) in [(a, 1), (b, 2)] {
                (*s).opcode = IORING_OP_NOP;
                (*s).fd = -1;
                (*s).user_data = ud;
            }
            assert_eq!(submit_and_wait(r.live(), 2), Ok(2));
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 1);
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 2);
        }
    }

    #[test]
    fn mixed_cqes_and_skip_entries() {
        let mut r = ring_or_skip!(4, IORING_SETUP_CQE_MIXED);
        let slots = r.cq.ring_entries;
        let nop32 = |r: LiveRing, ud: u64| {
            let sqe = prep(r, IORING_OP_NOP, -1, 0, 0, 0, ud);
            // SAFETY: the SQE is still ours.
            unsafe { (*sqe).rw_flags = IORING_NOP_CQE32 };
        };
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(r.live(), 1);
            nop32(r.live(), 2);
            nop(r.live(), 3);
            assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
            assert_eq!(cq_ready(r.live()), 4, "a big CQE takes two slots");
            let mut out = [null_mut(); 8];
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
            let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
            assert_eq!(uds, [1, 2, 3]);
            assert!((*out[1]).flags & IORING_CQE_F_32 != 0);
            assert_eq!(out[2] as usize - out[1] as usize, 32);
            cq_advance(r.live(), 4);

            // Bring the head to the last slot, then post a big CQE: the
            // kernel pads the last slot with a skip entry and wraps.
            let mut head = load_cq_head(r.live());
            while (head & r.cq.ring_mask) != slots - 1 {
                nop(r.live(), 50);
                assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
                assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 50);
                head = load_cq_head(r.live());
            }
            nop32(r.live(), 60);
            assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
            assert_eq!(cq_ready(r.live()), 3, "skip entry plus a two-slot CQE");
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 1);
            assert_eq!((*out[0]).user_data, 60);
            assert_eq!(
                load_cq_head(r.live()) & r.cq.ring_mask,
                0,
                "the skip entry was released"
            );
            assert_eq!(out[0], r.cq.cqes);
            cq_advance(r.live(), 2);

            // Same through the single-CQE path.
            while (load_cq_head(r.live()) & r.cq.ring_mask) != slots - 1 {
                nop(r.live(), 70);
                assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
                assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 70);
            }
            nop32(r.live(), 80);
            assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
            let (ud, _, flags) = reap(r.live(), PATIENCE_MS).unwrap();
            assert_eq!(ud, 80);
            assert!(flags & IORING_CQE_F_32 != 0);
            assert_eq!(cq_ready(r.live()), 0);
        }
    }

    #[test]
    fn sq_rewind_resets_tail() {
        let mut r = ring_or_skip!(4, IORING_SETUP_SQ_REWIND);
        // SAFETY: (whole test) `r` is a live ring.
        unsafe {
            nop(r.live(), 1);
            nop(r.live(), 2);
            assert_eq!(submit_and_wait(r.live(), 2), Ok(2));
            assert_eq!(r.sq.sqe_tail, 0, "the kernel starts from slot 0 every time");
            nop(r.live(), 3);
            assert_eq!(submit_and_wait(r.live(), 3), Ok(1));
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
            let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
            assert_eq!(uds, [1, 2, 3]);
            cq_advance(r.live(), 3);
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
            // SAFETY: our mapping, unused.
            let _ = unsafe { syscall::munmap(mem, page) };
            skip!("wait region registration: {ret:?}");
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
            (*waits.add(1)).ts = ts_ms(PATIENCE_MS);
            (*waits.add(1)).flags = IORING_REG_WAIT_TS;
        }
        let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
        let start = Instant::now();
        // SAFETY: (rest) live ring.
        unsafe {
            assert_eq!(
                submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 1, 0),
                Err(Errno::ETIME)
            );
            assert!(cqe.is_null());
            assert!(start.elapsed() >= Duration::from_millis(35));

            nop(r.live(), 5);
            nop(r.live(), 6);
            assert_eq!(
                submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 2, 1),
                Ok(2)
            );
            assert_eq!((*cqe).user_data, 5);
            assert_eq!(cq_ready(r.live()), 2);
            cq_advance(r.live(), 2);

            // An old kernel: EINVAL, but the SQ was flushed first.
            r.features &= !IORING_FEAT_EXT_ARG;
            nop(r.live(), 7);
            assert_eq!(
                submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 1, 0),
                Err(Errno::EINVAL)
            );
            assert_eq!(r.sq.sqe_head, r.sq.sqe_tail);
            assert_eq!(*r.sq.ktail, r.sq.sqe_tail);
            r.features |= IORING_FEAT_EXT_ARG;
            assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 7);
        }
        drop(r);
        // SAFETY: the ring (and its use of the region) is gone.
        let _ = unsafe { syscall::munmap(mem, page) };
    }
}
