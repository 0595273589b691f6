// SPDX-License-Identifier: MIT
//! Diagnostics switched on by environment variables, read once at load:
//!
//! - `LIBURING_DEBUG=1`: a failed ring setup writes one line to stderr
//!   naming the cause the library could establish and the fix
//!   ([`setup_cause`]); a failed registration does the same when the cause
//!   is known ([`register_cause`]). Return values and errno are unchanged.
//! - `LIBURING_TRACE=stderr` or `LIBURING_TRACE=<path>`: every SQE the
//!   kernel consumed and every CQE the library sees when the program waits
//!   is logged decoded, with a per-ring summary at `io_uring_queue_exit` or
//!   process exit, kept current in place for a file ([`trace`]).
//!
//! Both variables are ignored in a secure-execution process (setuid,
//! setgid or file capabilities: `getauxval(AT_SECURE)` is non-zero), as the
//! C library ignores its own debugging variables there: otherwise any user
//! could make a privileged program create or append to a file of their
//! choosing, or print its internals.
//!
//! `LIBURING_TRACE=1` means stderr too; any other value but `0` and empty
//! is a path, opened for appending. A ring that did nothing gets no
//! summary unless `LIBURING_TRACE_IDLE` is set (to anything but `0`).
//!
//! # How it attaches
//! Diagnostics are an observer behind [`crate::hooks`]: the core calls
//! only the hooks, and this module installs its [`hooks::Observer`] once,
//! at load. With neither variable set nothing is installed, and the hot
//! entry points pay nothing beyond the null-ring compare they already make
//! (see [`crate::hooks::detour`]).

use core::ffi::c_void;
use core::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use crate::hooks;
use crate::syscall::Errno;
use crate::uapi::io_uring_params;
// Names from the uapi tables, and facts about the system (with errno names)
// from the sysinfo crate: `uring-info` reads both too, so the two agree.
use crate::uapi::names;
use uring_sysinfo as sysinfo;

pub mod line;
mod op_flags;
mod register_cause;
mod setup_cause;
pub mod since;
mod trace;

/// `LIBURING_DEBUG` is set (to anything but empty or `0`).
static DEBUG: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE` is set: where trace lines go, else -1.
static TRACE_FD: AtomicI32 = AtomicI32::new(-1);
/// Tracing is on (`TRACE_FD` is valid).
static TRACING: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE_IDLE` is set: rings that did nothing get a summary too.
static IDLE_SUMMARIES: AtomicBool = AtomicBool::new(false);

/// Summaries of rings that did nothing were asked for.
pub(crate) fn idle_summaries() -> bool {
    IDLE_SUMMARIES.load(Ordering::Relaxed)
}

// Read the environment once, when the library is loaded (or, for
// liburing.a, when the program starts), before any ring exists. Not under
// Miri, which runs the kernel-free unit tests and has no getauxval.
#[cfg(not(miri))]
#[used]
#[link_section = ".init_array"]
static READ_ENV_AT_LOAD: extern "C" fn() = read_env;

// Print the summaries of rings the program never tore down.
#[cfg(not(miri))]
#[used]
#[link_section = ".fini_array"]
static SUMMARIES_AT_EXIT: extern "C" fn() = at_exit;

/// The observer installed when either variable is set.
static OBSERVER: hooks::Observer = hooks::Observer {
    setup_failed,
    ring_created: trace::ring_created,
    ring_changed: trace::ring_changed,
    ring_exit: trace::ring_exit,
    submitted: trace::submitted,
    reaped: trace::reaped,
    register_failed,
};

#[cfg_attr(miri, allow(dead_code))]
extern "C" fn read_env() {
    // SAFETY: getauxval has no preconditions; 0 when the entry is absent.
    if unsafe { libc::getauxval(libc::AT_SECURE) } != 0 {
        return;
    }
    // SAFETY: getenv with a NUL-terminated name; constructors run before
    // the program's threads exist, so the environment is not being changed.
    let debug = unsafe { libc::getenv(c"LIBURING_DEBUG".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    if !debug.is_null() && !matches!(unsafe { *debug } as u8, 0 | b'0') {
        DEBUG.store(true, Ordering::Relaxed);
    }
    // SAFETY: as above.
    let idle = unsafe { libc::getenv(c"LIBURING_TRACE_IDLE".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    if !idle.is_null() && !matches!(unsafe { *idle } as u8, 0 | b'0') {
        IDLE_SUMMARIES.store(true, Ordering::Relaxed);
    }
    // SAFETY: as above.
    let dest = unsafe { libc::getenv(c"LIBURING_TRACE".as_ptr()) };
    if dest.is_null() {
        if debugging() {
            // SAFETY: only ever in the load-time constructor (`READ_ENV_AT_LOAD`).
            unsafe { hooks::install(&OBSERVER, false) };
        }
        return;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let dest = unsafe { core::ffi::CStr::from_ptr(dest) };
    let fd = match dest.to_bytes() {
        b"" | b"0" => {
            if debugging() {
                // SAFETY: only ever in the load-time constructor (`READ_ENV_AT_LOAD`).
                unsafe { hooks::install(&OBSERVER, false) };
            }
            return;
        }
        b"stderr" | b"1" => 2,
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
        if debugging() {
            // SAFETY: only ever in the load-time constructor (`READ_ENV_AT_LOAD`).
            unsafe { hooks::install(&OBSERVER, false) };
        }
        return;
    }
    TRACE_FD.store(fd, Ordering::Relaxed);
    TRACING.store(true, Ordering::Relaxed);
    trace::target_opened(fd, (fd != 2).then_some(dest));
    // SAFETY: only ever in the load-time constructor (`READ_ENV_AT_LOAD`).
    unsafe { hooks::install(&OBSERVER, true) };
}

#[cfg_attr(miri, allow(dead_code))]
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
// Observer functions for LIBURING_DEBUG
// ---------------------------------------------------------------------------

fn setup_failed(call: &str, entries: u32, flags: u32, p: Option<&io_uring_params>, errno: i32) {
    if debugging() {
        setup_cause::explain(call, entries, flags, p, Errno(errno));
    }
}

fn register_failed(opcode: u32, arg: *const c_void, nr_args: u32, errno: i32) {
    if debugging() {
        register_cause::explain(opcode, arg, nr_args, Errno(errno));
    }
}
