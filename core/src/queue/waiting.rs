// SPDX-License-Identifier: MIT
//! Waiting for completions: the wait loop behind every wait and submit-and-
//! wait, the timeouts (in the enter argument with `IORING_FEAT_EXT_ARG`, a
//! timeout SQE of our own on older kernels), the registered wait region,
//! and the reports an observed wait makes.

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::{self, null_mut};

use super::completion::{cq_needs_enter, peek_cqe, LIBURING_UDATA_TIMEOUT};
use super::submission::{flush_sq, get_sqe, sq_needs_enter, submit};
use super::{enter, CqeOut};
use crate::observe::{Watch, Watched};
use crate::ring::LiveRing;
use crate::syscall::{Errno, SysResult, KERNEL_SIGSET_BYTES};
use crate::uapi::{
    __kernel_timespec, io_uring_cqe, io_uring_getevents_arg, io_uring_reg_wait,
    IORING_ENTER_EXT_ARG, IORING_ENTER_EXT_ARG_REG, IORING_ENTER_GETEVENTS, IORING_FEAT_EXT_ARG,
    IORING_FEAT_MIN_TIMEOUT, IORING_OP_TIMEOUT,
};

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
///
/// The one place the core keeps liburing's encoding, for what it saves:
/// the loop's `err` and its result as a [`SysResult`] instead (a tag and a
/// value across the out-of-line call, compared and merged as a pair) cost,
/// by `make bench-calls`, `__io_uring_get_cqe` 58 -> 66 instructions a call,
/// `io_uring_wait_cqes` 82 -> 87, `io_uring_wait_cqe_timeout` 87 -> 92.
#[derive(Clone, Copy)]
pub struct Waited(i32);

impl Waited {
    /// liburing's return value: the count, or `-errno`.
    #[inline(always)]
    pub fn code(self) -> i32 {
        self.0
    }

    #[inline(always)]
    pub(super) fn result(self) -> SysResult<u32> {
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
    let result = Waited(err).result();
    if submits {
        // SAFETY: a wait that submits is made by the ring's submitter, which
        // is reaping too.
        unsafe { w.submitted(p, true, result, enters, entered_ns) };
    } else {
        // SAFETY: this thread is in a wait call on the live ring.
        unsafe { w.reaped(p, result, enters, entered_ns) };
    }
    err
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
/// A kernel without `IORING_FEAT_EXT_ARG` (before 5.11) gets `EINVAL` before
/// the SQ is flushed: the caller was told nothing was submitted, so no entry
/// may reach the kernel (an SQPOLL thread would run a published tail).
/// liburing 2.15 flushes first; its master checks first, as here.
pub fn submit_and_wait_reg<W: Watch>(
    ring: LiveRing<W>,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    reg_index: i32,
) -> SysResult<u32> {
    let (watch, ring) = (ring.watch(), ring.unwatched());
    // C: `reg_index * sizeof(struct io_uring_reg_wait)` in unsigned long.
    let offset = (reg_index as isize as usize).wrapping_mul(size_of::<io_uring_reg_wait>());
    if ring.features() & IORING_FEAT_EXT_ARG == 0 {
        return Err(Errno::EINVAL);
    }
    let submit = flush_sq(ring);
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
