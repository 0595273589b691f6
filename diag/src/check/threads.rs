// SPDX-License-Identifier: MIT
//! Threads as findings name them: the calling thread's id and name (no
//! file opened), and whether the process can have another thread running.

use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, Ordering};

use crate::line::Line;

/// glibc's `__libc_single_threaded` (it stays 0 once a second thread was
/// made), found at attach; null where the C library has none.
static SINGLE_THREADED: AtomicPtr<u8> = AtomicPtr::new(null_mut());

pub(super) fn find_single_threaded() {
    // SAFETY: a NUL-terminated name; RTLD_DEFAULT searches the process.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"__libc_single_threaded".as_ptr()) };
    SINGLE_THREADED.store(p.cast(), Ordering::Relaxed);
}

/// Whether no other thread of the process can be running (false when
/// unknown): glibc's flag says the process has only ever had one thread;
/// elsewhere (musl) the kernel's count of the process's threads now, the
/// link count of `/proc/self/task` (2 + threads), asked with `stat`, which
/// holds no descriptor. Only this thread could make another meanwhile.
pub(super) fn single_threaded() -> bool {
    let p = SINGLE_THREADED.load(Ordering::Relaxed);
    if !p.is_null() {
        // SAFETY: the C library's flag, a `char` it documents as readable
        // by programs at any time (a volatile read: it changes behind our
        // back).
        return unsafe { p.read_volatile() } != 0;
    }
    let _errno = crate::output::SavedErrno::save();
    let mut st = core::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a NUL-terminated path and a buffer stat fills on success.
    let ok = unsafe { libc::stat(c"/proc/self/task".as_ptr(), st.as_mut_ptr()) } == 0;
    // SAFETY: filled by the successful stat.
    ok && unsafe { st.assume_init() }.st_nlink == 3
}

pub(super) fn gettid() -> i32 {
    // SAFETY: no preconditions.
    unsafe { libc::gettid() }
}

/// The calling thread's name (as `prctl` gives it: no file is opened).
pub(super) fn this_thread_name() -> [u8; 16] {
    let mut name = [0u8; 16];
    // SAFETY: PR_GET_NAME writes at most 16 bytes, NUL-terminated, into
    // the buffer.
    unsafe { libc::prctl(libc::PR_GET_NAME, name.as_mut_ptr()) };
    name
}

/// Appends `tid (name)` (`?` for a name not known).
pub(super) fn thread(l: &mut Line, tid: i32, name: &[u8; 16]) {
    l.u(tid.max(0) as u64).s(" (");
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    match name.get(..len) {
        Some(n) if !n.is_empty() => l.bytes(n),
        _ => l.s("?"),
    };
    l.s(")");
}

/// Whether the thread `tid` of this process has exited: its directory
/// under `/proc/self/task` is gone (ENOENT) while this thread's own is
/// there, so `/proc` is mounted and counts threads as this process does.
/// `stat` holds no descriptor; `errno` is kept. (A tid the kernel has
/// already given to a new thread reads as alive: a finding missed.)
pub(super) fn thread_gone(tid: i32) -> bool {
    let _errno = crate::output::SavedErrno::save();
    let here = task_path(gettid());
    let there = task_path(tid);
    let mut st = core::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a NUL-terminated path and a buffer stat fills on success.
    if unsafe { libc::stat(here.as_ptr().cast(), st.as_mut_ptr()) } != 0 {
        return false;
    }
    // SAFETY: as above.
    let missing = unsafe { libc::stat(there.as_ptr().cast(), st.as_mut_ptr()) } != 0;
    // SAFETY: no preconditions; the thread's errno, read right after the
    // failed call.
    missing && unsafe { *libc::__errno_location() } == libc::ENOENT
}

/// `/proc/self/task/<tid>`, NUL-terminated.
fn task_path(tid: i32) -> [u8; 32] {
    const PREFIX: &[u8] = b"/proc/self/task/";
    let mut path = [0u8; 32];
    let mut digits = [0u8; 10];
    let mut n = tid.max(0).unsigned_abs();
    let mut len = 0;
    loop {
        if let Some(d) = digits.get_mut(len) {
            *d = b'0' + (n % 10) as u8;
        }
        len += 1;
        n /= 10;
        if n == 0 || len == digits.len() {
            break;
        }
    }
    for (dst, src) in path.iter_mut().zip(PREFIX) {
        *dst = *src;
    }
    for (i, d) in digits.iter().take(len).rev().enumerate() {
        if let Some(dst) = path.get_mut(PREFIX.len() + i) {
            *dst = *d;
        }
    }
    path
}

#[cfg(test)]
mod tests;
