// SPDX-License-Identifier: MIT
//! The binary trace on demand: with `LIBURING_TRACE_SNAPSHOT_SIGNAL` naming
//! a signal (`SIGUSR1`, `SIGUSR2`, or a number), that signal writes a
//! record on each live ring, so the decoder says what was in flight, and
//! for how long, and which threads slept in the kernel, at each moment the
//! user asked, also after the program has gone on or been killed.
//!
//! A handler changes what a program does, so it is installed only when the
//! variable asks for one, for that signal alone. The handler it replaces
//! (the program's, when it installed one before the trace attached) runs
//! after the record, with the same arguments; a signal whose action was
//! the default or ignored is then consumed by the snapshot. It is
//! installed when the first ring is set up; a handler the program installs
//! for that signal after that replaces ours (no snapshot any more). The
//! last detach puts back the replaced action where the handler is still
//! ours. Like any handled signal, it ends a wait in the kernel with
//! `-EINTR`, which the program sees.

use core::cell::UnsafeCell;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The signal asked for, 0 when none is installed.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

struct Replaced(UnsafeCell<Option<libc::sigaction>>);

// SAFETY: written by `install` (once per attach, [`TRIED`]) before the
// handler is installed; read by the handler and by `uninstall` (at the
// last detach, when no hook runs: see lib.rs) after.
unsafe impl Sync for Replaced {}

/// The action our handler replaced.
static REPLACED: Replaced = Replaced(UnsafeCell::new(None));

fn ours() -> libc::sighandler_t {
    on_snapshot as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
        as libc::sighandler_t
}

/// The signal `LIBURING_TRACE_SNAPSHOT_SIGNAL` names: `SIGUSR1`, `USR1`,
/// `SIGUSR2`, `USR2` or a number from 1 to 64 that neither kills nor stops
/// unconditionally nor is a fatal fault (the crash records take those).
fn asked() -> Option<libc::c_int> {
    // SAFETY: getenv with a NUL-terminated name, at attach.
    let v = unsafe { libc::getenv(c"LIBURING_TRACE_SNAPSHOT_SIGNAL".as_ptr()) };
    if v.is_null() {
        return None;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let s = unsafe { core::ffi::CStr::from_ptr(v) }.to_bytes();
    let s = s.strip_prefix(b"SIG").unwrap_or(s);
    let sig = match s {
        b"USR1" => libc::SIGUSR1,
        b"USR2" => libc::SIGUSR2,
        digits if !digits.is_empty() && digits.len() <= 2 => {
            let mut n = 0;
            for &d in digits {
                if !d.is_ascii_digit() {
                    return None;
                }
                n = n * 10 + libc::c_int::from(d - b'0');
            }
            n
        }
        _ => return None,
    };
    let refused = [
        libc::SIGKILL,
        libc::SIGSTOP,
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGABRT,
    ];
    ((1..=64).contains(&sig) && !refused.contains(&sig)).then_some(sig)
}

/// The handler was installed, or tried, since attach.
static TRIED: AtomicBool = AtomicBool::new(false);

/// At attach: the first ring set up installs the handler.
pub fn arm() {
    TRIED.store(false, Ordering::Relaxed);
}

/// Installs the handler for the asked signal, keeping the action it
/// replaces: once, at the first ring set up after attach rather than at
/// attach (the library's load, before `main`), so a handler the program
/// installed for the signal in its start-up is the one replaced and
/// chained to, not the one that silently replaces ours.
pub fn install() {
    if TRIED
        .compare_exchange(false, true, Ordering::Relaxed, Ordering::Relaxed)
        .is_err()
    {
        return;
    }
    let Some(sig) = asked() else {
        return;
    };
    // SAFETY: sigaction is plain old data; all zero is a valid value.
    let mut old: libc::sigaction = unsafe { core::mem::zeroed() };
    // SAFETY: a query: no new action, a valid out-parameter.
    if unsafe { libc::sigaction(sig, ptr::null(), &mut old) } != 0 {
        return;
    }
    // SAFETY: see `Replaced`: the handler is not installed yet.
    unsafe { *REPLACED.0.get() = Some(old) };
    // SAFETY: as above.
    let mut new: libc::sigaction = unsafe { core::mem::zeroed() };
    new.sa_sigaction = ours();
    // SA_RESTART: the program's interrupted system calls go on, as they
    // would for most handlers it could install.
    new.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART | libc::SA_ONSTACK;
    // SAFETY: valid pointers; the mask is emptied before use.
    let set = unsafe {
        libc::sigemptyset(&mut new.sa_mask);
        libc::sigaction(sig, &new, ptr::null_mut())
    };
    if set == 0 {
        SIGNAL.store(sig, Ordering::Relaxed);
    }
}

/// Puts back the replaced action where the handler is still ours.
pub fn uninstall() {
    let sig = SIGNAL.swap(0, Ordering::Relaxed);
    if sig == 0 {
        return;
    }
    // SAFETY: sigaction is plain old data; all zero is a valid value.
    let mut now: libc::sigaction = unsafe { core::mem::zeroed() };
    // SAFETY: a query: no new action, a valid out-parameter.
    if unsafe { libc::sigaction(sig, ptr::null(), &mut now) } != 0 || now.sa_sigaction != ours() {
        return;
    }
    // SAFETY: see `Replaced`: read before the handler is removed; a
    // signal arriving meanwhile only reads it too.
    if let Some(old) = unsafe { *REPLACED.0.get() } {
        // SAFETY: the action read back at install, valid.
        unsafe { libc::sigaction(sig, &old, ptr::null_mut()) };
    }
}

extern "C" fn on_snapshot(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    {
        let _errno = crate::output::SavedErrno::save();
        super::snapshot(sig);
    }
    // SAFETY: see `Replaced`: set before this handler was installed.
    let Some(old) = (unsafe { *REPLACED.0.get() }) else {
        return;
    };
    if old.sa_sigaction == libc::SIG_DFL || old.sa_sigaction == libc::SIG_IGN {
        return;
    }
    if old.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: an SA_SIGINFO action's address is such a handler, given
        // the arguments the kernel gave ours.
        let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
            unsafe { core::mem::transmute(old.sa_sigaction) };
        f(sig, info, ctx);
    } else {
        // SAFETY: a plain action's address is a one-argument handler.
        let f: extern "C" fn(libc::c_int) = unsafe { core::mem::transmute(old.sa_sigaction) };
        f(sig);
    }
}
