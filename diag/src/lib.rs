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
//! - `LIBURING_CHECK=1` (or `abort`): misuse of io_uring is reported as
//!   it happens, one finding per kind and ring ([`check`]).
//!
//! The variables are ignored in a secure-execution process (setuid,
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
//! This crate is built into its own shared object, which the library
//! loads only when one of the variables is set ([`attach`] is the one
//! function it exports). It is an observer behind the core's hooks
//! (`uring_core::hooks`): nothing in the library depends on it, and it
//! makes no system call on the program's rings.
//!
//! # What it must never do
//! Change what the program does: every write goes through [`output`]
//! (no SIGPIPE, no blocking, never into a descriptor that is no longer the
//! trace's own, a size cap), and no lock is held across a system call or
//! waited for (the trace's records are checked out lock-free, see
//! [`trace`]), so fork and signal handlers cannot deadlock on it.
#![cfg_attr(not(test), no_std)]

use core::ffi::c_void;
use core::sync::atomic::{AtomicBool, Ordering};

use uring_core::hooks::{self, Attachment, CallName};
use uring_core::syscall::Errno;
use uring_core::uapi::io_uring_params;
// The core's modules under their own names.
use uring_core::{geometry, probe, queue, setup, structs, syscall, uapi};
// Names from the uapi tables, and facts about the system (with errno names)
// from the sysinfo crate: `uring-info` reads both too, so the two agree.
use uring_core::uapi::names;
use uring_sysinfo as sysinfo;

mod atomic_u64;
mod call_site;
mod check;
mod feature_cause;
mod kernel_level;
pub mod line;
mod op_flags;
pub mod output;
mod register_cause;
mod setup_cause;
pub mod since;
mod static_attach;
mod trace;

/// `LIBURING_DEBUG` is set (to anything but empty or `0`).
static DEBUG: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE_IDLE` is set: rings that did nothing get a summary too.
static IDLE_SUMMARIES: AtomicBool = AtomicBool::new(false);

/// Summaries of rings that did nothing were asked for.
pub(crate) fn idle_summaries() -> bool {
    IDLE_SUMMARIES.load(Ordering::Relaxed)
}

// Print the summaries of rings the program never tore down. Not under Miri.
#[cfg(not(miri))]
#[used]
#[link_section = ".fini_array"]
static SUMMARIES_AT_EXIT: extern "C" fn() = at_exit;

/// The observer installed when either variable is set.
static OBSERVER: hooks::Observer = hooks::Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted,
    reaped,
    waiting,
    register_failed,
    feature_missing,
    // The JSON trace draws each call's enters as a slice from the first.
    timed: true,
};

/// The observer installed when `LIBURING_CHECK` is on without the trace:
/// the per-call hooks go straight to the checker (no test of the trace, and
/// a frame only as large as the checker needs).
static CHECK_OBSERVER: hooks::Observer = hooks::Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted: check_submitted,
    reaped: check_reaped,
    waiting,
    register_failed,
    feature_missing,
    timed: false,
};

extern "C" fn check_submitted(
    sq: hooks::SubmitSide<'_>,
    cq: Option<hooks::CompleteSide<'_>>,
    result: i32,
    enters: u32,
    _entered_ns: u64,
) {
    check::submitted(sq, cq, result, enters);
}

extern "C" fn check_reaped(
    cq: hooks::CompleteSide<'_>,
    result: i32,
    enters: u32,
    _entered_ns: u64,
) {
    check::reaped(cq, result, enters);
}

/// `LIBURING_TRACE` was on at attach: the trace follows rings (its
/// records live on when its target stops taking lines).
static TRACE_ON: AtomicBool = AtomicBool::new(false);

fn trace_on() -> bool {
    TRACE_ON.load(Ordering::Relaxed)
}

// The ring hooks go to the trace and to the checker, each when asked for.

extern "C" fn ring_created(ring: &structs::io_uring) {
    if trace_on() {
        trace::ring_created(ring);
    }
    if check::checking() {
        check::ring_created(ring);
    }
}

extern "C" fn ring_changed(ring: &structs::io_uring) {
    if trace_on() {
        trace::ring_changed(ring);
    }
    if check::checking() {
        check::ring_changed(ring);
    }
}

extern "C" fn ring_exit(ring: &structs::io_uring) {
    if trace_on() {
        trace::ring_exit(ring);
    }
    if check::checking() {
        check::ring_exit(ring);
    }
}

extern "C" fn submitted(
    sq: hooks::SubmitSide<'_>,
    cq: Option<hooks::CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
) {
    if trace_on() {
        trace::submitted(sq, cq, result, enters, entered_ns);
    }
    if check::checking() {
        check::submitted(sq, cq, result, enters);
    }
}

extern "C" fn reaped(cq: hooks::CompleteSide<'_>, result: i32, enters: u32, entered_ns: u64) {
    if trace_on() {
        trace::reaped(cq, result, enters, entered_ns);
    }
    if check::checking() {
        check::reaped(cq, result, enters);
    }
}

extern "C" fn waiting(cq: hooks::CompleteSide<'_>, wait_nr: u32, timed: bool) {
    if check::checking() {
        check::waiting(cq, wait_nr, timed);
    }
}

/// Whether the variable `name` asks for something (set, not empty, not `0`).
fn asks(name: &core::ffi::CStr) -> bool {
    // SAFETY: getenv with a NUL-terminated name; the library calls attach
    // from its load-time constructor, before the program's threads exist.
    let v = unsafe { libc::getenv(name.as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    !v.is_null() && !matches!(unsafe { *v } as u8, 0 | b'0')
}

/// The diagnostics object's one entry point, called by the library's
/// load-time constructor with the digest of the interface it was built
/// with: reads the variables, opens the trace target, and returns the
/// observer to install (or why not).
#[no_mangle]
pub extern "C" fn uring_diag_attach(interface: u64) -> Attachment {
    // The library loads this object only when a variable is set, but a
    // static program that links it in comes here regardless, and a
    // secure-execution one must get nothing.
    // SAFETY: getauxval has no preconditions; 0 when the entry is absent.
    if unsafe { libc::getauxval(libc::AT_SECURE) } != 0 {
        return Attachment {
            status: hooks::NOTHING_ASKED,
            observer: None,
            rings: false,
        };
    }
    let nothing = |status| Attachment {
        status,
        observer: None,
        rings: false,
    };
    if interface != hooks::INTERFACE {
        return nothing(hooks::OTHER_INTERFACE);
    }
    DEBUG.store(asks(c"LIBURING_DEBUG"), Ordering::Relaxed);
    IDLE_SUMMARIES.store(asks(c"LIBURING_TRACE_IDLE"), Ordering::Relaxed);
    let tracing = output::open_trace();
    if tracing {
        TRACE_ON.store(true, Ordering::Relaxed);
        trace::started();
    }
    let checking = check::start();
    if !tracing && !checking && !debugging() {
        return nothing(hooks::NOTHING_ASKED);
    }
    Attachment {
        status: hooks::ATTACHED,
        observer: Some(if tracing { &OBSERVER } else { &CHECK_OBSERVER }),
        rings: tracing || checking,
    }
}

#[cfg_attr(miri, allow(dead_code))]
extern "C" fn at_exit() {
    if tracing() {
        trace::finish_all();
    }
    if trace_on() && output::json() {
        trace::json_finish();
    }
}

/// `LIBURING_DEBUG` is on.
#[inline(always)]
pub fn debugging() -> bool {
    DEBUG.load(Ordering::Relaxed)
}

/// `LIBURING_TRACE` is on (and its target still ours).
#[inline(always)]
pub fn tracing() -> bool {
    output::tracing()
}

// ---------------------------------------------------------------------------
// Observer functions for LIBURING_DEBUG
// ---------------------------------------------------------------------------

extern "C" fn setup_failed(
    call: CallName,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    errno: i32,
) {
    if debugging() {
        setup_cause::explain(call.as_str(), entries, flags, p, Errno(errno));
    }
}

extern "C" fn register_failed(opcode: u32, arg: *const c_void, nr_args: u32, errno: i32) {
    if debugging() {
        register_cause::explain(opcode, arg, nr_args, Errno(errno));
    }
}

extern "C" fn feature_missing(call: CallName, feature: u32, errno: i32) {
    if debugging() {
        feature_cause::explain(call.as_str(), feature, Errno(errno));
    }
}
