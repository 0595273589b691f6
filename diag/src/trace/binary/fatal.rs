// SPDX-License-Identifier: MIT
//! The binary trace at a fatal signal: each live ring gets a record of the
//! signal and its time before the process dies, so the decoder reckons
//! what was in flight, and for how long, to the crash rather than to the
//! last call (which may be long before it).
//!
//! A handler is installed at attach only for a fatal signal whose
//! disposition is then the default (a program's or a sanitizer's own
//! handler is left alone), reset to the default as it runs
//! (`SA_RESETHAND`), so the process dies of the same signal as without
//! the trace: a fault (`si_code > 0`) is raised again by the faulting
//! instruction when the handler returns; a signal sent by a process
//! (`kill`, `raise`, `abort`) is raised again by the handler. The last
//! detach puts back the default where the handler is still ours.

use core::ptr;
use core::sync::atomic::{AtomicU32, Ordering};

/// The signals whose default action ends the process with a fault or an
/// abort (the ones a crash raises).
const FATAL: [libc::c_int; 5] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
];

/// Bit i: `FATAL[i]`'s handler was installed by us.
static INSTALLED: AtomicU32 = AtomicU32::new(0);

/// The handler's address as `sa_sigaction` holds it.
fn ours() -> libc::sighandler_t {
    on_fatal as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
        as libc::sighandler_t
}

/// Installs the handler for each fatal signal left at its default.
pub fn install() {
    for (i, &sig) in FATAL.iter().enumerate() {
        // SAFETY: sigaction is plain old data; all zero is a valid value.
        let mut old: libc::sigaction = unsafe { core::mem::zeroed() };
        // SAFETY: a query: no new action, a valid out-parameter.
        if unsafe { libc::sigaction(sig, ptr::null(), &mut old) } != 0
            || old.sa_sigaction != libc::SIG_DFL
        {
            continue;
        }
        // SAFETY: as above.
        let mut new: libc::sigaction = unsafe { core::mem::zeroed() };
        new.sa_sigaction = ours();
        new.sa_flags = libc::SA_SIGINFO | libc::SA_RESETHAND | libc::SA_NODEFER | libc::SA_ONSTACK;
        // SAFETY: valid pointers; the mask is emptied before use.
        let set = unsafe {
            libc::sigemptyset(&mut new.sa_mask);
            libc::sigaction(sig, &new, ptr::null_mut())
        };
        if set == 0 {
            INSTALLED.fetch_or(1 << i, Ordering::Relaxed);
        }
    }
}

/// Puts back the default for each signal whose handler is still ours.
pub fn uninstall() {
    let installed = INSTALLED.swap(0, Ordering::Relaxed);
    for (i, &sig) in FATAL.iter().enumerate() {
        if installed & (1 << i) == 0 {
            continue;
        }
        // SAFETY: as in `install`.
        let mut now: libc::sigaction = unsafe { core::mem::zeroed() };
        // SAFETY: a query, as in `install`.
        if unsafe { libc::sigaction(sig, ptr::null(), &mut now) } != 0 || now.sa_sigaction != ours()
        {
            continue;
        }
        now.sa_sigaction = libc::SIG_DFL;
        now.sa_flags = 0;
        // SAFETY: a valid action, the default.
        unsafe { libc::sigaction(sig, &now, ptr::null_mut()) };
    }
}

extern "C" fn on_fatal(sig: libc::c_int, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    let _errno = crate::output::SavedErrno::save();
    super::fatal_signal(sig);
    let code = if info.is_null() {
        0
    } else {
        // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO
        // handler (non-null, checked).
        unsafe { (*info).si_code }
    };
    if code <= 0 {
        // Sent by a process: its default action now (the handler was
        // reset and does not block it), as it would have been.
        // SAFETY: no preconditions.
        unsafe { libc::raise(sig) };
    }
}
