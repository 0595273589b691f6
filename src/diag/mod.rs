// SPDX-License-Identifier: MIT
//! Diagnostics switched on by environment variables, read once at load:
//!
//! - `LIBURING_DEBUG=1`: a failed ring setup writes one line to stderr
//!   naming the cause the library could establish and the fix
//!   ([`setup_cause`]); a failed registration does the same when the cause
//!   is known ([`register_cause`]). Return values and errno are unchanged.
//! - `LIBURING_TRACE=stderr` or `LIBURING_TRACE=<path>`: every SQE handed to
//!   the kernel and every CQE the library can see is logged decoded, with a
//!   per-ring summary at `io_uring_queue_exit` or process exit ([`trace`]).
//!
//! # Cost when off
//! The existing code calls in through the small `#[inline]` hooks below, each
//! placed on a cold path (setup, registration, teardown) or behind one
//! predictable branch. The `io_uring_enter` path pays nothing: its success
//! test already compares the kernel's return value with a bound, and
//! [`enter_needs_look`] only moves that bound into a variable, which tracing
//! raises so that every return takes the slow path. Off, the bound keeps
//! the value the success test always had.
//!
//! Hooks in existing files (all marked `diag hook`): `capi/setup.rs` (every
//! setup entry point and `io_uring_queue_exit`), `capi/queue.rs` (the wait
//! and peek entry points), `register.rs` (`register`), `syscall.rs`
//! (`io_uring_enter2`), `queue.rs` (`sq_needs_enter`, SQPOLL only).

use core::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use crate::structs::io_uring;
use crate::syscall::{Errno, SysResult};
use crate::uapi::io_uring_params;

pub mod line;
pub mod names;
mod register_cause;
mod setup_cause;
pub mod since;
pub mod sysinfo;
mod trace;

/// `LIBURING_DEBUG` is set (to anything but empty or `0`).
static DEBUG: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE` is set: where trace lines go, else -1.
static TRACE_FD: AtomicI32 = AtomicI32::new(-1);
/// Tracing is on (`TRACE_FD` is valid).
static TRACING: AtomicBool = AtomicBool::new(false);

/// Raw syscall returns in `-MAX_ERRNO..0` are errors.
const MAX_ERRNO: usize = 4095;
/// The bound [`enter_needs_look`] compares against: `MAX_ERRNO` (only
/// errors look further) or, when tracing, `usize::MAX` (every return does).
static ENTER_BOUND: AtomicUsize = AtomicUsize::new(MAX_ERRNO);

// Read the environment once, when the library is loaded (or, for
// liburing.a, when the program starts), before any ring exists.
#[used]
#[link_section = ".init_array"]
static READ_ENV_AT_LOAD: extern "C" fn() = read_env;

// Print the summaries of rings the program never tore down.
#[used]
#[link_section = ".fini_array"]
static SUMMARIES_AT_EXIT: extern "C" fn() = at_exit;

extern "C" fn read_env() {
    // SAFETY: getenv with a NUL-terminated name; constructors run before
    // the program's threads exist, so the environment is not being changed.
    let debug = unsafe { libc::getenv(c"LIBURING_DEBUG".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    if !debug.is_null() && !matches!(unsafe { *debug } as u8, 0 | b'0') {
        DEBUG.store(true, Ordering::Relaxed);
    }
    // SAFETY: as above.
    let dest = unsafe { libc::getenv(c"LIBURING_TRACE".as_ptr()) };
    if dest.is_null() {
        return;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let dest = unsafe { core::ffi::CStr::from_ptr(dest) };
    let fd = match dest.to_bytes() {
        b"" | b"0" => return,
        b"stderr" => 2,
        // SAFETY: `dest` is NUL-terminated; a failure is handled below.
        _ => unsafe {
            libc::open(
                dest.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | libc::O_CLOEXEC,
                0o644,
            )
        },
    };
    if fd < 0 {
        let mut l = line::Line::new();
        l.s("uring-trace: cannot open LIBURING_TRACE=")
            .bytes(dest.to_bytes())
            .s(" for appending; tracing stays off");
        l.emit(2);
        return;
    }
    TRACE_FD.store(fd, Ordering::Relaxed);
    TRACING.store(true, Ordering::Relaxed);
    ENTER_BOUND.store(usize::MAX, Ordering::Relaxed);
}

extern "C" fn at_exit() {
    if tracing() {
        trace::finish_all();
    }
}

/// `LIBURING_DEBUG` is on.
#[inline(always)]
pub fn debugging() -> bool {
    DEBUG.load(Ordering::Relaxed)
}

/// `LIBURING_TRACE` is on.
#[inline(always)]
pub fn tracing() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// The fd trace lines go to.
fn trace_fd() -> i32 {
    TRACE_FD.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------
// Hooks called from the existing code
// ---------------------------------------------------------------------------

/// Hook after every setup entry point: explains a failure (debug) or
/// starts tracing a new ring. `p` is the caller's params when it gave any.
#[inline]
pub fn setup_done(
    call: &str,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    ring: &io_uring,
    err: Option<Errno>,
) {
    match err {
        Some(e) if debugging() => setup_cause::explain(call, entries, flags, p, e),
        None if tracing() => trace::ring_created(ring),
        _ => {}
    }
}

/// Hook after the raw `io_uring_setup(2)` entry point.
///
/// # Safety
/// `p` must be null or point to readable params (the kernel has read it).
#[inline]
pub unsafe fn raw_setup_done(entries: u32, p: *const io_uring_params, err: Option<Errno>) {
    if let Some(e) = err {
        if debugging() && e != Errno::EFAULT {
            // SAFETY: per the caller.
            let p = unsafe { p.as_ref() };
            let flags = p.map_or(0, |p| p.flags);
            setup_cause::explain("io_uring_setup", entries, flags, p, e);
        }
    }
}

/// Hook after every registration on a ring: explains a failure when the
/// cause can be established (debug).
#[inline]
pub fn register_done(opcode: u32, arg: *const core::ffi::c_void, nr_args: u32, r: &SysResult<i32>) {
    if let Err(e) = r {
        if debugging() {
            register_cause::explain(opcode, arg, nr_args, *e);
        }
    }
}

/// The `io_uring_enter` return check: true for an error, and for every
/// return while tracing (then [`enter_returned`] must see it). Compiles to
/// the same compare the plain error check needs, against a variable bound.
#[inline(always)]
pub fn enter_needs_look(raw_ret: isize) -> bool {
    (raw_ret as usize).wrapping_add(MAX_ERRNO) < ENTER_BOUND.load(Ordering::Relaxed)
}

/// The slow path of an `io_uring_enter` return (an error, or tracing on).
#[cold]
#[inline(never)]
pub fn enter_returned(fd: u32, to_submit: u32, min_complete: u32, flags: u32, raw_ret: isize) {
    if tracing() {
        trace::entered(fd, to_submit, min_complete, flags, raw_ret);
    }
}

/// Hook on the SQPOLL submit path, where no `io_uring_enter` may follow:
/// logs the SQEs just published.
#[inline(always)]
pub fn sqpoll_published(ring: &io_uring) {
    if tracing() {
        trace::sqpoll_published(ring);
    }
}

/// Hook after wait and peek entry points: logs the CQEs now in the ring.
#[inline(always)]
pub fn saw_cq(ring: &io_uring) {
    if tracing() {
        trace::observe(ring);
    }
}

/// Hook at the start of `io_uring_queue_exit`: the ring's summary.
#[inline]
pub fn ring_exit(ring: &io_uring) {
    if tracing() {
        trace::ring_exit(ring);
    }
}
