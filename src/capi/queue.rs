// SPDX-License-Identifier: MIT
//! C entry points for submitting SQEs and waiting for / peeking at CQEs.
//!
//! A null `ring` or `cqe_ptr`, which liburing would dereference, gives
//! `-EINVAL` (NULL or 0 for functions without an error return). `ts` and
//! `sigmask` go to the kernel untouched, so a bad pointer there gets the
//! kernel's own `-EFAULT`, as with liburing.
//!
//! These calls may run on a submitting and a reaping thread at once: the
//! ring reaches the core as a `LiveRing` (no reference to the struct), and
//! the `cqe_ptr` / `cqes` out-parameters, which callers usually leave
//! uninitialised, are only ever written.

use core::ffi::{c_int, c_uint};
use core::ptr::null_mut;

use super::{ret_count, NULL_ARGUMENT};
use crate::queue::{self, CqeOut};
use crate::structs::io_uring;
use crate::uapi::{__kernel_timespec, io_uring_cqe, io_uring_sqe};

/// `cqe_ptr` as a write-only out-parameter, or `return -EINVAL` when null.
macro_rules! cqe_out {
    ($cqe_ptr:expr) => {
        // SAFETY: the C contract: `cqe_ptr` is null or valid for writing one
        // pointer for the duration of the call; `MaybeUninit` makes no claim
        // about what it holds now.
        match unsafe { $cqe_ptr.cast::<CqeOut>().as_mut() } {
            Some(out) => out,
            None => return NULL_ARGUMENT,
        }
    };
}

/// Submits the prepared requests without waiting for them. Every SQE
/// prepared with io_uring_get_sqe() since the last submission goes to the
/// kernel, and the call returns at once. The requests then run on their own;
/// each posts a CQE when it is done, which io_uring_wait_cqe() or
/// io_uring_peek_cqe() fetch.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// The number of SQEs handed to the kernel, or a negated errno value.
///
/// # Errors
/// - `EAGAIN`: the kernel could not allocate request memory; reap and retry. [unchecked: the kernel fails request allocation only when memory runs out]
/// - `EBUSY`: older kernels only: completions are waiting in the kernel's
///   overflow list (`IORING_SQ_CQ_OVERFLOW` set) and could not all be moved
///   into the CQ ring; reap completions first. Linux 6.18 (checked here; the
///   release that changed this is not established) keeps accepting
///   submissions while the flag is set. [check: submit-during-overflow]
/// - `EEXIST`: a `IORING_SETUP_SINGLE_ISSUER` ring was used by another task. [check: err-io_uring_submit-EEXIST]
///
/// # Notes
/// With SQPOLL the call makes no system call unless the polling thread sleeps.
/// The count it returns is then the number of entries in the SQ ring that the
/// polling thread had not consumed yet when the call looked: it can include
/// entries of earlier calls, and it can be smaller than the number just
/// prepared (even 0) when the thread was quick. It does not say that the
/// kernel has started the requests.
///
/// A request that fails after submission reports its error in its CQE, not
/// here. Without `IORING_SETUP_SUBMIT_ALL` (Linux 5.18) the kernel stops at an
/// entry it rejects while preparing it: the count includes that entry, whose
/// CQE carries the error, and the entries after it stay queued for the next
/// submit. [check: submit-stops-at-failed-prep]
///
/// On kernels with `IORING_FEAT_SUBMIT_STABLE` (Linux 5.5), what only
/// describes a request (an iovec array, a msghdr, a timespec, a path name) is
/// copied while it is submitted and may be reused once this call returns
/// (with SQPOLL: once the polling thread has consumed the SQE); the data
/// buffers must stay valid until the CQE. [check: submit-stable-iovec]
///
/// # See also
/// io_uring_get_sqe, io_uring_submit_and_wait, io_uring_wait_cqe,
/// io_uring_enter(2)
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit(ring: *mut io_uring) -> c_int {
    observed!(caller, io_uring_submit(ring) -> c_int {
        ret_count(queue::submit(ring))
    })
}

/// Submits and waits for completions in one system call. It submits like
/// io_uring_submit() and then waits until at least `wait_nr` completions are
/// in the CQ ring. It hands back no CQE:
/// read them afterwards with io_uring_peek_cqe() or io_uring_for_each_cqe().
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// The number of SQEs submitted, or a negated errno value.
///
/// # Errors
/// - `EINTR`: a signal arrived while waiting. [check: err-io_uring_submit_and_wait-EINTR]
/// - `EBUSY`: older kernels only, as for io_uring_submit(): completions wait
///   in the overflow list; Linux 6.18 keeps accepting submissions.
///   [check: submit-during-overflow]
///
/// # See also
/// io_uring_submit, io_uring_submit_and_wait_timeout, io_uring_wait_cqe
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait(ring: *mut io_uring, wait_nr: c_uint) -> c_int {
    observed!(caller, io_uring_submit_and_wait(ring, wait_nr: c_uint) -> c_int {
        ret_count(queue::submit_and_wait(ring, wait_nr))
    })
}

/// Submits and waits for completions, with a timeout. After submitting, the
/// call waits until `wait_nr` completions are ready or the time `ts` has
/// passed, whichever comes first. The oldest
/// completion is stored in `*cqe_ptr` and stays in the ring until
/// io_uring_cqe_seen(). While the call waits, `sigmask` (when not NULL)
/// replaces the thread's signal mask, as with pselect(2).
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `cqe_ptr`: receives the first CQE.
/// - `wait_nr`: how many completions to wait for.
/// - `ts`: the longest time to wait, relative, or NULL to wait without limit.
/// - `sigmask`: the signal mask to apply while waiting, or NULL.
///
/// # Return value
/// The number of SQEs submitted (0 when there were none) once `wait_nr`
/// completions are ready, with the first in `*cqe_ptr`; or a negated errno
/// value.
///
/// # Errors
/// - `ETIME`: the timeout expired first. [check: submit-and-wait-timeout-ETIME]
/// - `EINTR`: a signal arrived while waiting. [check: err-io_uring_submit_and_wait_timeout-EINTR]
///
/// # Notes
/// Without `IORING_FEAT_EXT_ARG` (kernels before 5.11) the timeout is an
/// internal timeout request that uses an SQE.
///
/// # See also
/// io_uring_submit_and_wait, io_uring_wait_cqes
///
/// # Safety
/// `ring` and `cqe_ptr` must be null or valid; `ts` and `sigmask` are only
/// handed to the kernel.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    ts: *mut __kernel_timespec,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    observed!(caller, io_uring_submit_and_wait_timeout(
        ring, cqe_ptr: *mut *mut io_uring_cqe, wait_nr: c_uint,
        ts: *mut __kernel_timespec, sigmask: *mut libc::sigset_t
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        ret_count(queue::submit_and_wait_timeout(ring, out, wait_nr, ts, sigmask))
    })
}

/// Submits and waits for a batch, but not long for a lone completion. It
/// works as io_uring_submit_and_wait_timeout() does, with one more rule:
/// once `min_wait` microseconds have passed, the wait ends as
/// soon as at least one completion is there, even if fewer than `wait_nr`
/// arrived. A server can so wait for a full batch while it comes quickly,
/// without delaying a lone request for long.
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `cqe_ptr`: receives the first CQE.
/// - `wait_nr`: how many completions to wait for.
/// - `ts`: the longest time to wait, relative, or NULL to wait without limit.
/// - `min_wait`: microseconds to wait for the full batch before returning
///   with what has arrived.
/// - `sigmask`: the signal mask to apply while waiting, or NULL.
///
/// # Return value
/// The number of SQEs submitted, with the oldest completion in `*cqe_ptr`;
/// or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the kernel lacks `IORING_FEAT_MIN_TIMEOUT` (Linux 6.12). [check: err-io_uring_submit_and_wait_min_timeout-EINVAL]
/// - `ETIME`: `ts` passed before any completion arrived. [check: err-io_uring_submit_and_wait_min_timeout-ETIME]
/// - `EINTR`: a signal arrived while waiting. [check: err-io_uring_submit_and_wait_min_timeout-EINTR]
///
/// # See also
/// io_uring_submit_and_wait_timeout, io_uring_wait_cqes_min_timeout
///
/// # Safety
/// As for [`io_uring_submit_and_wait_timeout`].
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait_min_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    ts: *mut __kernel_timespec,
    min_wait: c_uint,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    observed!(caller, io_uring_submit_and_wait_min_timeout(
        ring, cqe_ptr: *mut *mut io_uring_cqe, wait_nr: c_uint,
        ts: *mut __kernel_timespec, min_wait: c_uint, sigmask: *mut libc::sigset_t
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        ret_count(queue::submit_and_wait_min_timeout(
            ring, out, wait_nr, ts, min_wait, sigmask,
        ))
    })
}

/// Submits and waits as entry `reg_index` of the registered wait region
/// describes.
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Errors
/// - `EINVAL`: the kernel lacks `IORING_FEAT_EXT_ARG` (before Linux 5.11);
///   nothing was submitted and the prepared SQEs are still in the SQ, unseen
///   by the kernel. [unchecked: upstream liburing 2.15, which the checks also drive, publishes the SQ first; capi-tests/fallback-wait-reg checks this library]
///
/// # Notes
/// A deliberate difference from liburing 2.15, which publishes the SQ tail
/// before it looks at the kernel's features: there, after `-EINVAL`, an
/// `IORING_SETUP_SQPOLL` thread could still run the entries the caller was
/// told were not submitted. Here the features are checked first, as in
/// liburing's master branch since 2.15.
///
/// # See also
/// io_uring_register_region, io_uring_submit_and_wait_timeout
///
/// # Safety
/// `ring` and `cqe_ptr` must be null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait_reg(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    reg_index: c_int,
) -> c_int {
    observed!(caller, io_uring_submit_and_wait_reg(
        ring, cqe_ptr: *mut *mut io_uring_cqe, wait_nr: c_uint, reg_index: c_int
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        ret_count(queue::submit_and_wait_reg(ring, out, wait_nr, reg_index))
    })
}

/// Submits and lets the kernel flush pending completions into the CQ.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// The number of SQEs submitted, or a negated errno value.
///
/// # Notes
/// One system call instead of io_uring_submit() followed by
/// io_uring_get_events(): the natural call at the top of a DEFER_TASKRUN loop.
///
/// # See also
/// io_uring_submit, io_uring_get_events
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_get_events(ring: *mut io_uring) -> c_int {
    observed!(caller, io_uring_submit_and_get_events(ring) -> c_int {
        ret_count(queue::submit_and_get_events(ring))
    })
}

/// Runs pending task work and flushes overflowed completions into the CQ.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value from io_uring_enter(2).
///
/// # Errors
/// - `EEXIST`: a ring set up with `IORING_SETUP_SINGLE_ISSUER` and
///   `IORING_SETUP_DEFER_TASKRUN` was used by a task other than its owner
///   (without `IORING_SETUP_DEFER_TASKRUN` the call works from any task). [check: err-io_uring_get_events-EEXIST]
///
/// # Notes
/// The call enters the kernel with `IORING_ENTER_GETEVENTS` and nothing to
/// submit or wait for. That is what a `IORING_SETUP_DEFER_TASKRUN` ring needs
/// after its registered eventfd or a poll(2) wake-up: the deferred completion
/// work runs and its CQEs appear in the ring, ready for io_uring_peek_cqe() or
/// io_uring_for_each_cqe(). On other rings it moves completions the kernel
/// held back after a CQ overflow (see io_uring_cq_has_overflow()).
///
/// # See also
/// io_uring_submit_and_get_events, io_uring_register_eventfd,
/// io_uring_cq_has_overflow, io_uring(7)
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_events(ring: *mut io_uring) -> c_int {
    let ring = ring_arg!(live ring);
    ret_count(queue::get_events(ring))
}

/// Waits for several completions, with a timeout. The call returns when
/// `wait_nr` completions are ready or the time `ts` has passed, and stores
/// the oldest in `*cqe_ptr`. The completions stay in the ring:
/// consume each with io_uring_cqe_seen(), or a batch with
/// io_uring_cq_advance().
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `cqe_ptr`: receives the first CQE.
/// - `wait_nr`: how many completions to wait for.
/// - `ts`: the longest time to wait, relative, or NULL to wait without limit.
/// - `sigmask`: the signal mask to apply while waiting, or NULL.
///
/// # Return value
/// 0 with the first CQE in `*cqe_ptr`, or a negated errno value.
///
/// # Errors
/// - `ETIME`: `ts` expired before `wait_nr` completions arrived. [check: err-io_uring_wait_cqes-ETIME]
/// - `EINTR`: a signal arrived while waiting. [check: err-io_uring_wait_cqes-EINTR]
///
/// # See also
/// io_uring_wait_cqe, io_uring_wait_cqe_timeout, io_uring_submit_and_wait_timeout
///
/// # Safety
/// As for [`io_uring_submit_and_wait_timeout`].
#[no_mangle]
pub unsafe extern "C" fn io_uring_wait_cqes(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    ts: *mut __kernel_timespec,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    observed!(caller, io_uring_wait_cqes(
        ring, cqe_ptr: *mut *mut io_uring_cqe, wait_nr: c_uint,
        ts: *mut __kernel_timespec, sigmask: *mut libc::sigset_t
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        queue::wait_cqes_waited(ring, out, wait_nr, ts, sigmask).code()
    })
}

/// Waits for a batch of completions, but not long for a lone one. It waits
/// as io_uring_wait_cqes() does; once `min_wait_usec` microseconds have
/// passed, the wait ends as soon as one completion is there. Needs
/// `IORING_FEAT_MIN_TIMEOUT` (Linux 6.12); `-EINVAL` without it.
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// As for [`io_uring_submit_and_wait_timeout`].
#[no_mangle]
pub unsafe extern "C" fn io_uring_wait_cqes_min_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    ts: *mut __kernel_timespec,
    min_wait_usec: c_uint,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    observed!(caller, io_uring_wait_cqes_min_timeout(
        ring, cqe_ptr: *mut *mut io_uring_cqe, wait_nr: c_uint,
        ts: *mut __kernel_timespec, min_wait_usec: c_uint, sigmask: *mut libc::sigset_t
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        ret_count(queue::wait_cqes_min_timeout(
            ring, out, wait_nr, ts, min_wait_usec, sigmask,
        ))
    })
}

/// Waits for one completion, with a timeout. The call waits at most the
/// time `ts` (NULL: as long as it takes) and stores the completion in
/// `*cqe_ptr`; it stays in the ring until
/// io_uring_cqe_seen(). Use it where a loop must also do other work on a
/// schedule.
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `cqe_ptr`: receives the CQE.
/// - `ts`: the longest time to wait, relative, or NULL to wait without limit.
///
/// # Return value
/// 0 with a CQE in `*cqe_ptr`, or a negated errno value.
///
/// # Errors
/// - `ETIME`: no completion arrived before `ts` expired. [check: wait-cqe-timeout-ETIME]
/// - `EINTR`: a signal arrived while waiting. [check: wait-cqe-timeout-EINTR]
///
/// # See also
/// io_uring_wait_cqe, io_uring_wait_cqes
///
/// # Safety
/// As for [`io_uring_submit_and_wait_timeout`].
#[no_mangle]
pub unsafe extern "C" fn io_uring_wait_cqe_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    ts: *mut __kernel_timespec,
) -> c_int {
    observed!(caller, io_uring_wait_cqe_timeout(
        ring, cqe_ptr: *mut *mut io_uring_cqe, ts: *mut __kernel_timespec
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        queue::wait_cqe_timeout_waited(ring, out, ts).code()
    })
}

/// Fills `cqes` with up to `count` ready completions; returns how many.
/// A null `cqes` (where liburing would crash) is taken as room for none.
///
/// # Arguments
/// - `cqes`: an array that receives CQE pointers.
/// - `count`: its length.
///
/// # Return value
/// The number of CQE pointers stored, possibly 0. [check: cq-ready-and-peek-batch-count]
///
/// # Notes
/// The CQEs stay in the ring; give their slots back with io_uring_cq_advance().
///
/// # See also
/// io_uring_cq_advance, io_uring_for_each_cqe
///
/// # Safety
/// `ring` must be null or a live ring; `cqes` null or valid for writing
/// `count` pointers (its contents are never read).
#[no_mangle]
pub unsafe extern "C" fn io_uring_peek_batch_cqe(
    ring: *mut io_uring,
    cqes: *mut *mut io_uring_cqe,
    count: c_uint,
) -> c_uint {
    let ring = ring_arg!(live ring, else return 0);
    if cqes.is_null() {
        return peek_batch_without_room(ring);
    }
    // SAFETY: the caller guarantees `count` writable, aligned slots, which
    // are ours for the call; as `MaybeUninit` they may hold anything.
    let out = unsafe { core::slice::from_raw_parts_mut(cqes.cast::<CqeOut>(), count as usize) };
    queue::peek_batch_cqe(ring, out)
}

/// `io_uring_peek_batch_cqe` with a null array: room for nothing. Out of
/// line, off the hot path.
#[cold]
#[inline(never)]
fn peek_batch_without_room(ring: crate::ring::LiveRing) -> c_uint {
    queue::peek_batch_cqe(ring, &mut [])
}

/// Liburing's internal wait primitive (used by its inline `io_uring_peek_cqe`
/// and `io_uring_wait_cqe*`): submits `submit` flushed SQEs and waits for
/// `wait_nr` completions.
/// A null `ring` or `cqe_ptr` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 with `*cqe_ptr` set (or NULL when nothing was asked to wait for), or a
/// negated errno value.
///
/// # Notes
/// Programs should call the wait and peek functions; this symbol serves
/// binaries built against headers that call it directly.
///
/// # See also
/// io_uring_wait_cqe, io_uring_peek_cqe
///
/// # Safety
/// `ring` and `cqe_ptr` must be null or valid; `sigmask` is only handed to
/// the kernel.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_get_cqe(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    submit: c_uint,
    wait_nr: c_uint,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    observed!(caller, __io_uring_get_cqe(
        ring, cqe_ptr: *mut *mut io_uring_cqe, submit: c_uint, wait_nr: c_uint,
        sigmask: *mut libc::sigset_t
    ) -> c_int {
        let out = cqe_out!(cqe_ptr);
        ret_count(queue::get_cqe(ring, out, submit, wait_nr, sigmask))
    })
}

/// Liburing's internal half of `io_uring_sqring_wait`: sleeps until the
/// SQPOLL thread frees SQ space.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 once an SQ slot is free, or a negated errno value.
///
/// # See also
/// io_uring_sqring_wait
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_sqring_wait(ring: *mut io_uring) -> c_int {
    let ring = ring_arg!(live ring);
    ret_count(queue::sqring_wait(ring))
}

/// Returns the next free SQE, or NULL when the SQ is full. liburing.h
/// defines this inline; the symbol serves binaries built against older
/// headers.
/// A null `ring` gives NULL where liburing would dereference it.
///
/// # Return value
/// The next free SQE, or NULL when the submission queue is full: submit, then
/// try again. [check: ret-io_uring_get_sqe]
///
/// The SQE is not cleared. `flags`, `ioprio`, the opcode flags (`rw_flags`
/// and its aliases), `buf_index`, `personality`, `file_index` and `addr3` are
/// reset to 0; every other field, `user_data`, `fd`, `addr`, `len` and `off`
/// among them, still holds what the request that last used the slot wrote.
/// The `io_uring_prep_*` helpers set the fields their operation reads, but not
/// `user_data`: set it with io_uring_sqe_set_data64() or
/// io_uring_sqe_set_data() for every request whose completion you look at.
/// [check: get-sqe-not-cleared]
///
/// # See also
/// io_uring_submit, io_uring_sq_space_left, io_uring_get_sqe128
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_sqe(ring: *mut io_uring) -> *mut io_uring_sqe {
    let ring = ring_arg!(live ring, else return null_mut());
    queue::get_sqe(ring)
}

#[cfg(test)]
mod tests;
