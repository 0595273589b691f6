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
//!   process exit, kept current in place for a file ([`trace`]). With
//!   `LIBURING_TRACE_FORMAT=binary` (or a `.utrace` file) the trace is
//!   fixed-size records decoded afterwards by `uring-info trace`
//!   (`trace::binary`).
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
//! loads only when one of the variables is set, and verifies before it
//! loads it. It is an observer behind the core's observation points
//! (`uring_core::observe`): nothing in the library depends on it, and it
//! makes no system call on the program's rings. Every library that loads
//! it (`liburing.so.2`, `liburing-ffi.so.2`) or links it (`liburing-diag.a`)
//! calls [`uring_diag_attach`] once and [`uring_diag_detach`] when it is
//! unloaded; the object keeps one attachment for all of them (one trace,
//! one duplicate of stderr), set up at the first attach and released at
//! the last detach (or at exit).
//!
//! # What it must never do
//! Change what the program does. It holds no descriptor of the program's
//! but one duplicate of stderr high above the program's numbers, and a
//! trace file only as shared mappings ([`output`]); its memory is mappings
//! of its own, never the program's allocator ([`memory`]); it reads no
//! stack (a finding's call site is the return address the C boundary
//! recorded, [`call_site`]); `errno` is saved around everything that may
//! set it; no lock is held across a system call or waited for (records are
//! checked out lock-free), so fork and signal handlers cannot deadlock on
//! it.
#![cfg_attr(not(test), no_std)]

use core::ffi::c_void;
use core::sync::atomic::{AtomicBool, Ordering};

use uring_core::observe::{self, Attachment, CallName, Caller};
use uring_core::syscall::Errno;
use uring_core::uapi::io_uring_params;
// The core's modules under their own names.
use core::sync::atomic::AtomicUsize;
use uring_core::{geometry, queue, setup, structs, syscall, uapi};
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
mod memlock_held;
mod memory;
mod op_flags;
pub mod output;
mod proc_dir;
mod quiet_copy;
mod register_cause;
mod setup_cause;
pub mod since;
mod static_attach;
mod test_ring;
mod trace;

/// `LIBURING_DEBUG` is set (to anything but empty or `0`).
static DEBUG: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE_IDLE` is set: rings that did nothing get a summary too.
static IDLE_SUMMARIES: AtomicBool = AtomicBool::new(false);

/// Summaries of rings that did nothing were asked for.
pub(crate) fn idle_summaries() -> bool {
    IDLE_SUMMARIES.load(Ordering::Relaxed)
}

// The last release at exit, when no library detached (a static program),
// after the exit handlers. Not under Miri.
#[cfg(not(miri))]
#[used]
#[link_section = ".fini_array"]
static RELEASE_AT_EXIT: extern "C" fn() = at_exit;

/// The observer installed when any variable is set.
static OBSERVER: observe::Observer = observe::Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted,
    reaped,
    waiting,
    buf_ring,
    register_failed,
    feature_missing,
    submitting: None,
    // The JSON trace draws each call's enters as a slice from the first.
    timed: true,
};

/// [`OBSERVER`] where the checker looks at SQEs before the kernel gets
/// them (`LIBURING_CHECK` in an AddressSanitizer program, check/asan.rs).
static OBSERVER_SQES: observe::Observer = observe::Observer {
    submitting: Some(check::submitting),
    ..OBSERVER
};

/// The observer installed when `LIBURING_CHECK` is on without the trace:
/// the per-call hooks go straight to the checker (no test of the trace, and
/// a frame only as large as the checker needs).
static CHECK_OBSERVER: observe::Observer = observe::Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted: check::submitted_hook,
    reaped: check_reaped,
    waiting,
    buf_ring,
    register_failed,
    feature_missing,
    submitting: None,
    timed: false,
};

/// [`CHECK_OBSERVER`] where the checker looks at SQEs before the kernel
/// gets them, as [`OBSERVER_SQES`]; timed, as the library tells
/// `submitting` only to timed observers (an AddressSanitizer program pays
/// the clock reads).
static CHECK_OBSERVER_SQES: observe::Observer = observe::Observer {
    submitting: Some(check::submitting),
    timed: true,
    ..CHECK_OBSERVER
};

/// The observer installed for the binary trace (without the checker): the
/// per-call hooks go straight to its writer.
static BINARY_OBSERVER: observe::Observer = observe::Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted: trace::binary::submitted,
    reaped: trace::binary::reaped,
    waiting,
    buf_ring,
    register_failed,
    feature_missing,
    submitting: None,
    // One clock read per hook call, the writer's own (a call's record
    // carries its end).
    timed: false,
};

extern "C" fn check_reaped(
    cq: observe::CompleteSide<'_>,
    result: i32,
    enters: u32,
    _entered_ns: u64,
    caller: Caller,
) {
    check::reaped(cq, result, enters, caller);
}

/// `LIBURING_TRACE` was on at attach: the trace follows rings (its
/// records live on when its target stops taking lines).
static TRACE_ON: AtomicBool = AtomicBool::new(false);

fn trace_on() -> bool {
    TRACE_ON.load(Ordering::Relaxed)
}

// The ring hooks go to the trace and to the checker, each when asked for.
// They run at setup, teardown and ring changes: errno is kept around them
// whole (the trace's and the checker's mappings are made or unmapped here).

extern "C" fn ring_created(ring: &structs::io_uring) {
    let _errno = output::SavedErrno::save();
    look_at_exit();
    if trace_on() {
        trace::ring_created(ring);
    }
    if check::checking() {
        check::ring_created(ring);
    }
}

extern "C" fn ring_changed(ring: &structs::io_uring, caller: Caller) {
    let _errno = output::SavedErrno::save();
    if trace_on() {
        trace::ring_changed(ring);
    }
    if check::checking() {
        check::ring_changed(ring, caller);
    }
}

extern "C" fn ring_exit(ring: &structs::io_uring, caller: Caller) {
    let _errno = output::SavedErrno::save();
    if trace_on() {
        trace::ring_exit(ring);
    }
    if check::checking() {
        check::ring_exit(ring, caller);
    }
}

extern "C" fn submitted(
    sq: observe::SubmitSide<'_>,
    cq: Option<observe::CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
    caller: Caller,
) {
    if trace_on() {
        if trace::binary::on() {
            trace::binary::submitted(sq, cq, result, enters, entered_ns, caller);
        } else {
            trace::submitted(sq, cq, result, enters, entered_ns);
        }
    }
    if check::checking() {
        check::submitted(sq, cq, result, enters, caller);
    }
}

extern "C" fn reaped(
    cq: observe::CompleteSide<'_>,
    result: i32,
    enters: u32,
    entered_ns: u64,
    caller: Caller,
) {
    if trace_on() {
        if trace::binary::on() {
            trace::binary::reaped(cq, result, enters, entered_ns, caller);
        } else {
            trace::reaped(cq, result, enters, entered_ns);
        }
    }
    if check::checking() {
        check::reaped(cq, result, enters, caller);
    }
}

extern "C" fn buf_ring(
    ring: *const structs::io_uring,
    bgid: u16,
    br: *const c_void,
    entries: u32,
    flags: u32,
) {
    if check::checking() {
        let _errno = output::SavedErrno::save();
        check::buf_ring(ring as usize, bgid, br as usize, entries, flags);
    }
}

extern "C" fn waiting(cq: observe::CompleteSide<'_>, wait_nr: u32, timed: bool, caller: Caller) {
    if trace_on() && trace::binary::on() {
        let _errno = output::SavedErrno::save();
        trace::binary::waiting(cq, wait_nr, timed);
    }
    if check::checking() {
        check::waiting(cq, wait_nr, timed, caller);
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

/// Libraries attached (see the module comment).
static ATTACHED: AtomicUsize = AtomicUsize::new(0);
/// The first attach asked for something (so the others get the observer).
static ASKED: AtomicBool = AtomicBool::new(false);
/// The process is exiting: threads may still be running, so the last
/// release unmaps and closes nothing. Set by `last_look`, registered at
/// the first ring (before the loader's handler that runs the libraries'
/// destructors, so it runs first), and by `exiting`, registered at load
/// (which runs after them: it covers a static program's release).
static EXITING: AtomicBool = AtomicBool::new(false);
/// This load of the object registered its exit and fork handlers (they go
/// with it when it is unloaded).
static HANDLERS: AtomicBool = AtomicBool::new(false);

extern "C" fn exiting() {
    EXITING.store(true, Ordering::Relaxed);
}

/// The look at process exit is registered (once per process).
static EXIT_LOOK: AtomicBool = AtomicBool::new(false);

/// Registers the look at process exit (`last_look`: the exit marked, and
/// the checker's [`check::process_exiting`]) at the first ring, during the
/// program's run: a handler registered now runs before the ones registered
/// earlier, among them the loader's, which runs the libraries' destructors
/// (a shared library's constructor, and so `exiting`, comes before the
/// loader registers it). So when the library's destructor detaches this
/// object at exit, the release knows threads may still be in a hook and
/// unmaps nothing. Exit handlers run on exit() and a return from main only
/// (not on _exit, a signal's default action, or in a child that ends with
/// _exit).
pub(crate) fn look_at_exit() {
    if !EXIT_LOOK.swap(true, Ordering::Relaxed) {
        // SAFETY: registers a handler with no preconditions (unregistered
        // when this object is unloaded, as `exiting` is).
        unsafe { libc::atexit(last_look) };
    }
}

extern "C" fn last_look() {
    EXITING.store(true, Ordering::Relaxed);
    // Attached still: a normal exit, not this object's unloading (whose
    // detach came first and took the records).
    if ATTACHED.load(Ordering::Acquire) != 0 && check::checking() {
        let _errno = output::SavedErrno::save();
        check::process_exiting();
    }
}

extern "C" fn forked_child() {
    check::forked();
    output::forked();
    trace::binary::forked();
}

/// The diagnostics object's entry point, called once by each library that
/// loads or links it, with the digest of the interface it was built with
/// and an address inside its own code (null for a static program): on the
/// first call reads the variables and opens the outputs; returns the
/// observer to install (or why not).
#[no_mangle]
pub extern "C" fn uring_diag_attach(interface: u64, library: *const c_void) -> Attachment {
    let nothing = |status| Attachment {
        status,
        observer: None,
    };
    // The library loads this object only when a variable is set, but a
    // static program that links it in comes here regardless, and a
    // secure-execution one must get nothing.
    // SAFETY: getauxval has no preconditions; 0 when the entry is absent.
    if unsafe { libc::getauxval(libc::AT_SECURE) } != 0 {
        return nothing(observe::NOTHING_ASKED);
    }
    if interface != observe::INTERFACE {
        return nothing(observe::OTHER_INTERFACE);
    }
    let _errno = output::SavedErrno::save();
    if ATTACHED.fetch_add(1, Ordering::AcqRel) == 0 {
        ASKED.store(start(), Ordering::Release);
    }
    call_site::library_at(library);
    if !ASKED.load(Ordering::Acquire) {
        uring_diag_detach();
        return nothing(observe::NOTHING_ASKED);
    }
    Attachment {
        status: observe::ATTACHED,
        observer: Some(match (trace_on(), check::looks_at_sqes()) {
            (true, false) if trace::binary::on() && !check::checking() => &BINARY_OBSERVER,
            (true, false) => &OBSERVER,
            (true, true) => &OBSERVER_SQES,
            (false, false) => &CHECK_OBSERVER,
            (false, true) => &CHECK_OBSERVER_SQES,
        }),
    }
}

/// The first attach: reads the variables, opens the outputs; whether any
/// of them asks for something.
fn start() -> bool {
    if !HANDLERS.swap(true, Ordering::Relaxed) {
        // SAFETY: registers handlers with no preconditions: one stores a
        // flag, the other resets this object's state in a forked child.
        // (Both are unregistered when this object is unloaded.)
        unsafe {
            libc::atexit(exiting);
            libc::pthread_atfork(None, None, Some(forked_child));
        }
    }
    EXITING.store(false, Ordering::Relaxed);
    DEBUG.store(asks(c"LIBURING_DEBUG"), Ordering::Relaxed);
    IDLE_SUMMARIES.store(asks(c"LIBURING_TRACE_IDLE"), Ordering::Relaxed);
    let tracing = output::attach(trace::binary::attach);
    let checking = check::start();
    // The diagnostics' memory, reserved now: before the program's main.
    let reserved = memory::reserve(
        if tracing { trace::RECORD_BYTES } else { 0 },
        if checking { check::RECORD_BYTES } else { 0 },
    );
    if !reserved && (tracing || checking) {
        output::stderr(
            b"uring-trace: no address space for the diagnostics' records: rings are not followed\n",
        );
    }
    TRACE_ON.store(tracing, Ordering::Relaxed);
    // The text and JSON traces name opcodes the kernel lacks, from a probe
    // ring made now; the binary trace formats nothing while the program
    // runs, so recording in production sets up no ring of its own.
    if tracing && !trace::binary::on() {
        trace::started();
    }
    tracing || checking || debugging()
}

/// Undoes one [`uring_diag_attach`]; the last one releases the outputs
/// and records (a library being unloaded, or exiting). Returns whether
/// the process is exiting.
#[no_mangle]
pub extern "C" fn uring_diag_detach() -> bool {
    let exiting = EXITING.load(Ordering::Relaxed);
    if ATTACHED.fetch_sub(1, Ordering::AcqRel) == 1 {
        let _errno = output::SavedErrno::save();
        release(exiting);
    }
    exiting
}

/// Ends the attachment: the summaries of the rings never torn down, then
/// the records and outputs go (only finished when `exiting`).
fn release(exiting: bool) {
    if tracing() {
        trace::finish_all();
    }
    trace::release(exiting);
    check::release(exiting);
    output::release(exiting);
    if !exiting {
        memory::release();
    }
    TRACE_ON.store(false, Ordering::Relaxed);
    DEBUG.store(false, Ordering::Relaxed);
    ASKED.store(false, Ordering::Relaxed);
}

#[cfg_attr(miri, allow(dead_code))]
extern "C" fn at_exit() {
    // A static program, whose library never detaches: its last release.
    if ATTACHED.swap(0, Ordering::AcqRel) != 0 {
        let _errno = output::SavedErrno::save();
        release(true);
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
        let _errno = output::SavedErrno::save();
        setup_cause::explain(call.as_str(), entries, flags, p, Errno::new(errno));
    }
}

extern "C" fn register_failed(opcode: u32, arg: *const c_void, nr_args: u32, errno: i32) {
    if debugging() {
        let _errno = output::SavedErrno::save();
        register_cause::explain(opcode, arg, nr_args, Errno::new(errno));
    }
}

extern "C" fn feature_missing(call: CallName, feature: u32, errno: i32) {
    if debugging() {
        let _errno = output::SavedErrno::save();
        feature_cause::explain(call.as_str(), feature, Errno::new(errno));
    }
}
