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
use core::ptr::{self, addr_of_mut, null_mut};
use core::sync::atomic::{fence, Ordering};

use crate::geometry::{cqe_shift, sqe_shift};
use crate::hint::cold_path;
use crate::observe::{Watch, Watched};
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
        Some(w) => from_code(submit_reported(ring.unwatched(), w, n, wait_nr, getevents)),
    }
}

/// [`submit_as`] under an observer, out of line and cold: the same work,
/// counting its enters, then the report, in liburing's encoding (the C
/// entry point's result) so that the report is the last call. The clock is
/// read (and held across the enter) only in a copy of its own, for an
/// observer that wants call times.
#[cold]
#[inline(never)]
fn submit_reported(
    ring: LiveRing,
    w: Watched,
    submitted: u32,
    wait_nr: u32,
    getevents: bool,
) -> i32 {
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
) -> i32 {
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
) -> i32 {
    let (r, enters) = submit_flushed_counted(ring, submitted, wait_nr, getevents);
    let reaped = wait_nr != 0 || getevents;
    // SAFETY: the live ring of the submit call this thread is in.
    unsafe {
        w.submitted(
            ring.as_non_null(),
            reaped,
            liburing_code(&r),
            enters,
            entered_ns,
        )
    }
}

/// A result in liburing's encoding (count or `-errno`), as an observer is
/// told it.
#[inline]
fn liburing_code(r: &SysResult<u32>) -> i32 {
    match r {
        Ok(n) => *n as i32,
        Err(e) => e.neg(),
    }
}

/// A result in liburing's encoding, back as a result.
#[inline(always)]
fn from_code(code: i32) -> SysResult<u32> {
    if code < 0 {
        Err(Errno::from_neg(code))
    } else {
        Ok(code as u32)
    }
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
            return Err(Errno::from_neg(res));
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
            Err(Errno::from_neg(self.0))
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
/// extra enter flags) costs it nothing; in its observed copy (`W` is
/// [`Watched`]) it also reports before sleeping, times its first enter and
/// reports at the end.
#[inline(always)]
fn get_cqe_loop<W: Watch>(
    ring: LiveRing,
    watch: W,
    cqe_out: &mut CqeOut,
    spec: WaitSpec,
) -> Waited {
    match watch.watched() {
        None => wait_loop(ring, None, cqe_out, spec),
        Some(w) => wait_loop_reported(ring, w, cqe_out, spec),
    }
}

/// The observed copy of the wait loop: one, out of line, for every kind of
/// wait.
#[cold]
#[inline(never)]
fn wait_loop_reported(ring: LiveRing, w: Watched, cqe_out: &mut CqeOut, spec: WaitSpec) -> Waited {
    wait_loop(ring, Some(w), cqe_out, spec)
}

/// [`get_cqe_loop`] itself; `watch` is `None` (folded away) in the fast
/// copies.
#[inline(always)]
fn wait_loop(
    ring: LiveRing,
    watch: Option<Watched>,
    cqe_out: &mut CqeOut,
    mut spec: WaitSpec,
) -> Waited {
    let mut cqe: *mut io_uring_cqe;
    let mut looped = false;
    // liburing's `err`: 0 = nothing yet, > 0 = first enter's count, < 0 = -errno.
    let mut err: i32 = 0;
    // For the report: what the call did.
    let submits = spec.submit != 0;
    let mut enters: u32 = 0;
    let mut entered_ns: u64 = 0;

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

        if let Some(w) = watch {
            report_waiting(ring, w, &spec, available, looped);
            if enters == 0 {
                entered_ns = w.clock();
            }
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
    if let Some(w) = watch {
        return Waited(report_wait(ring, w, submits, err, enters, entered_ns));
    }
    Waited(err)
}

/// Tells the observer that a wait submitting nothing is about to sleep.
/// It reads nothing of the SQ side: the waiting thread need not be the
/// submitter, whose private SQ words another thread may not read.
#[cold]
#[inline(never)]
fn report_waiting(ring: LiveRing, w: Watched, spec: &WaitSpec, available: u32, looped: bool) {
    if looped || spec.submit != 0 || spec.wait_nr <= available {
        return;
    }
    // SAFETY: this thread is in a wait call on the live ring.
    unsafe { w.waiting(ring.as_non_null(), spec.wait_nr, spec.has_ts) }
}

/// The wait loop's report at its end, out of line and cold.
#[cold]
#[inline(never)]
fn report_wait(
    ring: LiveRing,
    w: Watched,
    submits: bool,
    err: i32,
    enters: u32,
    entered_ns: u64,
) -> i32 {
    let p = ring.as_non_null();
    if submits {
        // SAFETY: a wait that submits is made by the ring's submitter, which
        // is reaping too.
        unsafe { w.submitted(p, true, err, enters, entered_ns) }
    } else {
        // SAFETY: this thread is in a wait call on the live ring.
        unsafe { w.reaped(p, err, enters, entered_ns) }
    }
}

/// `__io_uring_get_cqe`: submits `submit` already-flushed SQEs and waits
/// for `wait_nr` CQEs, with `sigmask` (null for none) applied meanwhile.
#[inline]
pub fn get_cqe<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    wait_sigmask(
        ring.unwatched(),
        ring.watch(),
        cqe_out,
        submit,
        wait_nr,
        sigmask,
    )
    .result()
}

/// [`get_cqe`] in the wait loop's encoding (out of line: one copy per
/// [`Watch`]).
#[inline(never)]
fn wait_sigmask<W: Watch>(
    ring: LiveRing,
    watch: W,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    sigmask: *const libc::sigset_t,
) -> Waited {
    let spec = WaitSpec {
        submit,
        wait_nr,
        get_flags: 0,
        arg: sigmask.cast(),
        argsz: KERNEL_SIGSET_BYTES,
        has_ts: false,
    };
    get_cqe_loop(ring, watch, cqe_out, spec)
}

/// What a wait through `IORING_ENTER_EXT_ARG` hands the kernel besides
/// the counts: the timeout (null for none), the batch timeout and the
/// signal mask (null for none).
#[derive(Clone, Copy)]
struct ExtArgs {
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
}

/// Waits through `IORING_ENTER_EXT_ARG` (liburing's `io_uring_wait_cqes_new`
/// and the EXT_ARG branch of `__io_uring_submit_and_wait_timeout`).
#[inline(always)]
fn wait_ext_arg<W: Watch>(
    ring: LiveRing,
    watch: W,
    cqe_out: &mut CqeOut,
    submit: u32,
    wait_nr: u32,
    ExtArgs {
        ts,
        min_wait_usec,
        sigmask,
    }: ExtArgs,
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
    get_cqe_loop(ring, watch, cqe_out, spec)
}

/// [`wait_ext_arg`] with nothing to submit (the waits proper; out of line:
/// one copy per [`Watch`]).
#[inline(never)]
fn wait_ext_arg_only<W: Watch>(
    ring: LiveRing,
    watch: W,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    args: ExtArgs,
) -> Waited {
    wait_ext_arg(ring, watch, cqe_out, 0, wait_nr, args)
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

/// `io_uring_wait_cqes`: waits for `wait_nr` CQEs, up to `ts` if given,
/// in liburing's encoding (see [`Waited`]).
///
/// With `IORING_FEAT_EXT_ARG` the timeout travels in the enter argument and
/// nothing is submitted. Older kernels get a timeout SQE queued behind the
/// SQEs already prepared, and all of them are submitted by this wait; the
/// result is then the count that first enter submitted, as in liburing.
#[inline(always)]
pub fn wait_cqes_waited<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> Waited {
    let (watch, ring) = (ring.watch(), ring.unwatched());
    let mut to_submit = 0;
    if !ts.is_null() {
        if ring.features() & IORING_FEAT_EXT_ARG != 0 {
            let args = ExtArgs {
                ts,
                min_wait_usec: 0,
                sigmask,
            };
            return wait_ext_arg_only(ring, watch, cqe_out, wait_nr, args);
        }
        to_submit = match queue_fallback_timeout(ring, wait_nr, ts) {
            Ok(n) => n,
            Err(e) => return Waited(e.neg()),
        };
    }
    wait_sigmask(ring, watch, cqe_out, to_submit, wait_nr, sigmask)
}

/// `EINVAL` for a call the ring's kernel cannot serve without `feature`
/// (told to an observer).
#[cold]
#[inline(never)]
fn refused<W: Watch>(watch: W, call: &'static str, feature: u32) -> Errno {
    if let Some(w) = watch.watched() {
        w.feature_missing(call, feature, Errno::EINVAL);
    }
    Errno::EINVAL
}

/// `io_uring_wait_cqes_min_timeout`: like [`wait_cqes_waited`] with a batch
/// timeout of `min_wait_usec`; `EINVAL` without `IORING_FEAT_MIN_TIMEOUT`.
#[inline]
pub fn wait_cqes_min_timeout<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let (watch, ring) = (ring.watch(), ring.unwatched());
    if ring.features() & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(refused(
            watch,
            "io_uring_wait_cqes_min_timeout",
            IORING_FEAT_MIN_TIMEOUT,
        ));
    }
    let args = ExtArgs {
        ts,
        min_wait_usec,
        sigmask,
    };
    wait_ext_arg_only(ring, watch, cqe_out, wait_nr, args).result()
}

/// `io_uring_wait_cqe_timeout`: [`wait_cqes_waited`] for one CQE, no
/// sigmask.
#[inline(always)]
pub fn wait_cqe_timeout_waited<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    ts: *const __kernel_timespec,
) -> Waited {
    wait_cqes_waited(ring, cqe_out, 1, ts, ptr::null())
}

/// liburing's `__io_uring_submit_and_wait_timeout`.
#[inline]
fn submit_and_wait_ts<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    let (watch, ring) = (ring.watch(), ring.unwatched());
    let to_submit = if !ts.is_null() {
        if ring.features() & IORING_FEAT_EXT_ARG != 0 {
            let n = flush_sq(ring);
            let args = ExtArgs {
                ts,
                min_wait_usec,
                sigmask,
            };
            return wait_ext_arg(ring, watch, cqe_out, n, wait_nr, args).result();
        }
        queue_fallback_timeout(ring, wait_nr, ts)?
    } else {
        flush_sq(ring)
    };
    wait_sigmask(ring, watch, cqe_out, to_submit, wait_nr, sigmask).result()
}

/// `io_uring_submit_and_wait_timeout`: submits and waits for `wait_nr`
/// CQEs, up to `ts` if given. Returns the number of SQEs submitted.
#[inline]
pub fn submit_and_wait_timeout<W: Watch>(
    ring: LiveRing<W>,
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
pub fn submit_and_wait_min_timeout<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    min_wait_usec: u32,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    if ring.features() & IORING_FEAT_MIN_TIMEOUT == 0 {
        return Err(refused(
            ring.watch(),
            "io_uring_submit_and_wait_min_timeout",
            IORING_FEAT_MIN_TIMEOUT,
        ));
    }
    submit_and_wait_ts(ring, cqe_out, wait_nr, ts, min_wait_usec, sigmask)
}

/// `io_uring_submit_and_wait_reg`: submits and waits as described by entry
/// `reg_index` of the registered wait region (`IORING_ENTER_EXT_ARG_REG`).
/// The SQ is flushed even when the kernel lacks `IORING_FEAT_EXT_ARG`
/// (then `EINVAL`), as in liburing.
pub fn submit_and_wait_reg<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    reg_index: i32,
) -> SysResult<u32> {
    let (watch, ring) = (ring.watch(), ring.unwatched());
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
    get_cqe_loop(ring, watch, cqe_out, spec).result()
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
mod observed_tests;
#[cfg(test)]
pub(crate) mod tests;
