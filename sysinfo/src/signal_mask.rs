// SPDX-License-Identifier: MIT
//! Code that holds a descriptor for a moment runs with the thread's signals
//! blocked. The library's diagnostics run inside the program's calls, and a
//! program may leave a signal handler by `siglongjmp` from whatever the
//! signal interrupted: a descriptor opened before such a jump and closed
//! after it would stay open in the program, under the number its next
//! `open` expected (capi-tests/diag-hostile.c, case longjmp). Blocked, a
//! signal waits until the descriptor is closed and the mask restored, a
//! few microseconds; SIGKILL and SIGSTOP cannot be blocked and leave no
//! program behind to see the descriptor.

/// Runs `f` with every signal this thread can block blocked, then restores
/// the thread's mask as it was (a signal that came meanwhile is delivered
/// then). For short work only: the program's handlers wait for it.
pub fn signals_deferred<R>(f: impl FnOnce() -> R) -> R {
    // Miri runs no signal handler, and has no signal mask to set.
    if cfg!(miri) {
        return f();
    }
    // SAFETY: sigset_t is plain data, all-zero a valid (empty) set.
    let mut all: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: as above; filled by pthread_sigmask.
    let mut old: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: `all` is a live sigset_t.
    unsafe { libc::sigfillset(&mut all) };
    // SAFETY: both sets are live sigset_t; neither call sets errno.
    let blocked = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut old) } == 0;
    let r = f();
    if blocked {
        // SAFETY: `old` is the mask saved above.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, core::ptr::null_mut()) };
    }
    r
}
