// SPDX-License-Identifier: MIT
//! Submission and completion: handing prepared SQEs to the kernel, deciding
//! when `io_uring_enter` is needed, and finding CQEs (liburing's `queue.c`
//! and the ring-walking inline helpers of `liburing.h`). One file per side:
//! [`submission`] (the SQ, submitting), [`completion`] (the CQ, peeking),
//! [`waiting`] (waits, their timeouts and the fallbacks for kernels without
//! `IORING_FEAT_EXT_ARG`); entering the kernel, which all three do, and the
//! SQ flags word, which both the SQ and the CQ side read, are here.
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
use core::mem::MaybeUninit;
use core::ptr;
use core::sync::atomic::Ordering;

use crate::ring::LiveRing;
use crate::syscall::{self, SysResult, KERNEL_SIGSET_BYTES};
use crate::uapi::{io_uring_cqe, IORING_ENTER_GETEVENTS};

mod completion;
mod submission;
mod waiting;

pub use completion::{
    cq_advance, cq_ready, cqe_slots, peek_batch_cqe, peek_cqe, LIBURING_UDATA_TIMEOUT,
};
pub use submission::{
    flush_sq, get_sqe, sqring_wait, submit, submit_and_get_events, submit_and_wait,
};
pub use waiting::{
    get_cqe, submit_and_wait_min_timeout, submit_and_wait_reg, submit_and_wait_timeout,
    wait_cqe_timeout_waited, wait_cqes_min_timeout, wait_cqes_waited, Waited,
};

/// A CQE pointer handed back through a C out-parameter (`struct io_uring_cqe
/// **`), which callers typically leave uninitialised.
pub type CqeOut = MaybeUninit<*mut io_uring_cqe>;

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

/// The kernel's `IORING_SQ_*` flags. Relaxed: only a hint to enter.
#[inline(always)]
fn load_sq_flags(ring: LiveRing) -> u32 {
    ring.sq_kflags().load(Ordering::Relaxed)
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

#[cfg(test)]
mod observed_tests;
#[cfg(test)]
pub(crate) mod tests;
