//! C entry points for submitting SQEs and waiting for / peeking at CQEs.
//!
//! A null `ring` or `cqe_ptr`, which liburing would dereference, gives
//! `-EINVAL` (NULL or 0 for functions without an error return). `ts` and
//! `sigmask` go to the kernel untouched, so a bad pointer there gets the
//! kernel's own `-EFAULT`, as with liburing.

use core::ffi::{c_int, c_uint};
use core::ptr::null_mut;

use super::ret_count;
use crate::queue;
use crate::structs::io_uring;
use crate::uapi::{__kernel_timespec, io_uring_cqe, io_uring_sqe};

/// Publishes the SQEs prepared since the last submit; returns how many were
/// submitted.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit(ring: *mut io_uring) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring, as just established.
    ret_count(unsafe { queue::submit(ring) })
}

/// Submits, then waits until `wait_nr` completions are available.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait(ring: *mut io_uring, wait_nr: c_uint) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring.
    ret_count(unsafe { queue::submit_and_wait(ring, wait_nr) })
}

/// Submits and waits for `wait_nr` completions, up to `ts` if given, with
/// `sigmask` applied while waiting.
///
/// # Safety
/// `ring` and `cqe_ptr` must be null or valid; `ts` and `sigmask` null or
/// valid for the kernel to read.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_wait_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    wait_nr: c_uint,
    ts: *mut __kernel_timespec,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `ts`/`sigmask` are only passed to the kernel.
    ret_count(unsafe { queue::submit_and_wait_timeout(ring, out, wait_nr, ts, sigmask) })
}

/// [`io_uring_submit_and_wait_timeout`] with a batch timeout of `min_wait`
/// microseconds (`-EINVAL` if the kernel lacks `IORING_FEAT_MIN_TIMEOUT`).
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
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `ts`/`sigmask` are only passed to the kernel.
    ret_count(unsafe {
        queue::submit_and_wait_min_timeout(ring, out, wait_nr, ts, min_wait, sigmask)
    })
}

/// Submits and waits as entry `reg_index` of the registered wait region
/// describes.
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
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring.
    ret_count(unsafe { queue::submit_and_wait_reg(ring, out, wait_nr, reg_index) })
}

/// Submits and lets the kernel flush pending completions into the CQ.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_submit_and_get_events(ring: *mut io_uring) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring.
    ret_count(unsafe { queue::submit_and_get_events(ring) })
}

/// Runs pending task work and flushes overflowed completions into the CQ.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_events(ring: *mut io_uring) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring.
    let r = unsafe { queue::get_events(ring) };
    crate::diag::saw_cq(ring); // diag hook (LIBURING_TRACE)
    ret_count(r)
}

/// Waits for `wait_nr` completions, up to `ts` if given.
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
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `ts`/`sigmask` are only passed to the kernel.
    let r = unsafe { queue::wait_cqes(ring, out, wait_nr, ts, sigmask) };
    crate::diag::saw_cq(ring); // diag hook (LIBURING_TRACE)
    ret_count(r)
}

/// [`io_uring_wait_cqes`] with a batch timeout of `min_wait_usec`.
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
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `ts`/`sigmask` are only passed to the kernel.
    ret_count(unsafe {
        queue::wait_cqes_min_timeout(ring, out, wait_nr, ts, min_wait_usec, sigmask)
    })
}

/// Waits for one completion, up to `ts` if given.
///
/// # Safety
/// As for [`io_uring_submit_and_wait_timeout`].
#[no_mangle]
pub unsafe extern "C" fn io_uring_wait_cqe_timeout(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    ts: *mut __kernel_timespec,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `ts` is only passed to the kernel.
    let r = unsafe { queue::wait_cqe_timeout(ring, out, ts) };
    crate::diag::saw_cq(ring); // diag hook (LIBURING_TRACE)
    ret_count(r)
}

/// Fills `cqes` with up to `count` ready completions; returns how many.
///
/// # Safety
/// `ring` must be null or a live ring; `cqes` null or valid for writing
/// `count` pointers.
#[no_mangle]
pub unsafe extern "C" fn io_uring_peek_batch_cqe(
    ring: *mut io_uring,
    cqes: *mut *mut io_uring_cqe,
    count: c_uint,
) -> c_uint {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return 0;
    };
    let out: &mut [*mut io_uring_cqe] = if count == 0 {
        &mut []
    } else if cqes.is_null() {
        return 0;
    } else {
        // SAFETY: the caller guarantees `count` writable, aligned slots.
        unsafe { core::slice::from_raw_parts_mut(cqes, count as usize) }
    };
    // SAFETY: live ring.
    let n = unsafe { queue::peek_batch_cqe(ring, out) };
    crate::diag::saw_cq(ring); // diag hook (LIBURING_TRACE)
    n
}

/// Liburing's internal wait primitive (used by its inline `io_uring_peek_cqe`
/// and `io_uring_wait_cqe*`): submits `submit` flushed SQEs and waits for
/// `wait_nr` completions.
///
/// # Safety
/// `ring` and `cqe_ptr` must be null or valid; `sigmask` null or valid for
/// the kernel to read.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_get_cqe(
    ring: *mut io_uring,
    cqe_ptr: *mut *mut io_uring_cqe,
    submit: c_uint,
    wait_nr: c_uint,
    sigmask: *mut libc::sigset_t,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(out)) = (unsafe { (ring.as_mut(), cqe_ptr.as_mut()) }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring; `sigmask` is only passed to the kernel.
    let r = unsafe { queue::get_cqe(ring, out, submit, wait_nr, sigmask) };
    crate::diag::saw_cq(ring); // diag hook (LIBURING_TRACE)
    ret_count(r)
}

/// Liburing's internal half of `io_uring_sqring_wait`: sleeps until the
/// SQPOLL thread frees SQ space.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_sqring_wait(ring: *mut io_uring) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: live ring.
    ret_count(unsafe { queue::sqring_wait(ring) })
}

/// Returns the next free SQE, or NULL when the SQ is full. liburing.h
/// defines this inline; the symbol serves binaries built against older
/// headers.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_sqe(ring: *mut io_uring) -> *mut io_uring_sqe {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return null_mut();
    };
    // SAFETY: live ring.
    unsafe { queue::get_sqe(ring) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup;
    use core::ptr::null_mut;

    #[test]
    fn null_pointers_are_refused() {
        let mut cqe = null_mut();
        // SAFETY: (whole test) null is allowed for every pointer checked.
        unsafe {
            assert_eq!(io_uring_submit(null_mut()), -libc::EINVAL);
            assert_eq!(io_uring_submit_and_wait(null_mut(), 1), -libc::EINVAL);
            assert_eq!(io_uring_get_events(null_mut()), -libc::EINVAL);
            assert_eq!(
                io_uring_wait_cqe_timeout(null_mut(), &mut cqe, null_mut()),
                -libc::EINVAL
            );
            assert_eq!(
                __io_uring_get_cqe(null_mut(), &mut cqe, 0, 1, null_mut()),
                -libc::EINVAL
            );
            assert!(io_uring_get_sqe(null_mut()).is_null());
            assert_eq!(io_uring_peek_batch_cqe(null_mut(), &mut cqe, 1), 0);
        }
    }

    #[test]
    fn c_round_trip() {
        let mut ring = setup::empty_ring();
        setup::queue_init(4, &mut ring, 0).unwrap();
        // SAFETY: (whole test) `ring` is live until queue_exit.
        unsafe {
            // A null out pointer where liburing would write the CQE.
            assert_eq!(
                io_uring_wait_cqes(&mut ring, null_mut(), 1, null_mut(), null_mut()),
                -libc::EINVAL
            );
            let sqe = io_uring_get_sqe(&mut ring);
            assert!(!sqe.is_null());
            (*sqe).opcode = crate::uapi::IORING_OP_NOP;
            (*sqe).fd = -1;
            (*sqe).user_data = 77;
            assert_eq!(io_uring_submit(&mut ring), 1);
            let mut cqes = [null_mut(); 2];
            let mut n = 0;
            for _ in 0..1000 {
                n = io_uring_peek_batch_cqe(&mut ring, cqes.as_mut_ptr(), 2);
                if n != 0 {
                    break;
                }
                let mut cqe = null_mut();
                assert_eq!(__io_uring_get_cqe(&mut ring, &mut cqe, 0, 1, null_mut()), 0);
            }
            assert_eq!(n, 1);
            assert_eq!((*cqes[0]).user_data, 77);
            // With a null array and a non-zero count nothing is written.
            assert_eq!(io_uring_peek_batch_cqe(&mut ring, null_mut(), 2), 0);
            queue::cq_advance(&ring, 1);
            let mut cqe = null_mut();
            let mut ts = __kernel_timespec {
                tv_sec: 0,
                tv_nsec: 5_000_000,
            };
            assert_eq!(
                io_uring_wait_cqe_timeout(&mut ring, &mut cqe, &mut ts),
                -libc::ETIME
            );
            setup::queue_exit(&mut ring);
        }
    }
}
