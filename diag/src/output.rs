// SPDX-License-Identifier: MIT
//! Where diagnostic text goes, and the rules that keep writing it harmless.
//!
//! - A stream (stderr, a pipe, a socket, a terminal) is written only when
//!   `poll` says a write will not block and a reader is there; SIGPIPE is
//!   blocked for the write and a SIGPIPE the write raised is taken back, so
//!   a stderr whose reader has gone never kills the program. What cannot be
//!   written is dropped.
//! - A trace file is created `0600` (it holds addresses), never through a
//!   symbolic link, without becoming a controlling terminal, non-blocking,
//!   and only if it is a regular file. Before every write the descriptor
//!   is checked to be that file still (device and inode): a program that
//!   closed it and got the number back for a file of its own is never
//!   written into; tracing stops instead.
//! - The trace writes at most `LIBURING_TRACE_MAX` bytes (default
//!   [`DEFAULT_MAX`]; suffixes `k`, `m`, `g`; `0` for no limit), then one
//!   line saying so, then nothing but the summaries' fixed blocks.
//! - The caller's `errno` is the same afterwards.
//!
//! The settings are written once, by [`open_trace`] in the load-time
//! attach, before any other thread can reach this code.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

// Sizes, offsets and inodes in 64 bits on every target: glibc's 32-bit
// targets need the *64 calls, musl's plain calls are 64-bit already.
#[cfg(not(target_env = "gnu"))]
use libc::{fstat, lseek, pread, pwrite, stat};
#[cfg(target_env = "gnu")]
use libc::{
    fstat64 as fstat, lseek64 as lseek, pread64 as pread, pwrite64 as pwrite, stat64 as stat,
};

/// The default `LIBURING_TRACE_MAX`: 64 MiB.
pub const DEFAULT_MAX: u64 = 64 << 20;

/// The trace target, as opened at attach.
#[derive(Clone, Copy)]
struct Target {
    /// Where trace lines go (2: stderr), -1 when not tracing.
    fd: i32,
    /// For a file: a second descriptor without `O_APPEND`, for rewriting
    /// the summaries in place (-1: none).
    summary_fd: i32,
    /// For a file: its device and inode, checked before every write.
    file: Option<(u64, u64)>,
    /// Bytes of trace lines allowed (u64::MAX: no limit).
    max: u64,
}

/// A value written once before the library is callable, read plainly after.
struct SetAtAttach(UnsafeCell<Target>);

// SAFETY: written only by `open_trace`, which the library calls from its
// load-time constructor before any other thread exists; read-only after.
unsafe impl Sync for SetAtAttach {}

static TARGET: SetAtAttach = SetAtAttach(UnsafeCell::new(Target {
    fd: -1,
    summary_fd: -1,
    file: None,
    max: u64::MAX,
}));
/// Tracing is on: cleared for good when the target is lost or full.
static TRACING: AtomicBool = AtomicBool::new(false);
/// Trace bytes written so far (native width: no target's fallback for
/// 64-bit atomics, which takes a spin flag, may be used on this path).
static WRITTEN: AtomicUsize = AtomicUsize::new(0);
/// The trace is Chrome trace-event JSON (`LIBURING_TRACE_FORMAT=json`, or
/// a file name ending in `.json`): no text lines, no in-place summaries.
static JSON: AtomicBool = AtomicBool::new(false);

/// The trace is written as JSON events.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Ends the JSON array with `last` (an event without its comma): written
/// past `LIBURING_TRACE_MAX` too, so the file stays valid JSON.
pub fn json_close(last: &[u8]) {
    let t = target();
    if !json() || t.fd < 0 {
        return;
    }
    let _errno = SavedErrno::save();
    write_to(t, last);
}

fn target() -> Target {
    // SAFETY: see `SetAtAttach`.
    unsafe { *TARGET.0.get() }
}

/// Tracing is on.
pub fn tracing() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// Opens the `LIBURING_TRACE` target; whether tracing is on.
///
/// Call only from the load-time attach (see the module comment).
pub fn open_trace() -> bool {
    // SAFETY: getenv with a NUL-terminated name, at load (no other thread).
    let dest = unsafe { libc::getenv(c"LIBURING_TRACE".as_ptr()) };
    if dest.is_null() {
        return false;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let dest = unsafe { CStr::from_ptr(dest) };
    let mut t = Target {
        fd: 2,
        summary_fd: -1,
        file: None,
        max: trace_max(),
    };
    // SAFETY: getenv with a NUL-terminated name, at load.
    let format = unsafe { libc::getenv(c"LIBURING_TRACE_FORMAT".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let json = (!format.is_null() && unsafe { CStr::from_ptr(format) }.to_bytes() == b"json")
        || dest.to_bytes().ends_with(b".json");
    match dest.to_bytes() {
        b"" | b"0" => return false,
        b"stderr" | b"1" => {}
        _ => match open_file(dest) {
            Ok((fd, id)) => {
                t.fd = fd;
                t.file = Some(id);
                if !json {
                    t.summary_fd = open_again(dest, id);
                }
            }
            Err(why) => {
                let parts: [&[u8]; 5] = [
                    b"uring-trace: LIBURING_TRACE=",
                    dest.to_bytes(),
                    b": ",
                    why.as_bytes(),
                    b"; tracing stays off\n",
                ];
                let mut line = [0u8; 1024];
                stderr(joined(&mut line, &parts));
                return false;
            }
        },
    }
    // SAFETY: see `SetAtAttach`: this is the one write, before any read
    // can run alongside.
    unsafe { *TARGET.0.get() = t };
    TRACING.store(true, Ordering::Relaxed);
    if json {
        JSON.store(true, Ordering::Relaxed);
        trace(b"[\n");
    }
    true
}

const FILE_FLAGS: i32 = libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_NOFOLLOW;

/// The trace file: created 0600 or appended to; a regular file only.
fn open_file(path: &CStr) -> Result<(i32, (u64, u64)), &'static str> {
    // SAFETY: NUL-terminated path; the result is checked.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | FILE_FLAGS,
            0o600,
        )
    };
    if fd < 0 {
        return Err("cannot be opened for appending (a symbolic link, a FIFO without reader, or no permission)");
    }
    match identity(fd) {
        Some((true, id)) => Ok((fd, id)),
        _ => {
            // SAFETY: our own descriptor, just opened.
            unsafe { libc::close(fd) };
            Err("is not a regular file (use LIBURING_TRACE=stderr for a stream)")
        }
    }
}

/// A second descriptor of the same file, for in-place summaries, or -1.
fn open_again(path: &CStr, id: (u64, u64)) -> i32 {
    // SAFETY: NUL-terminated path; the result is checked.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | FILE_FLAGS) };
    if fd >= 0 && identity(fd) != Some((true, id)) {
        // SAFETY: our own descriptor, just opened.
        unsafe { libc::close(fd) };
        return -1;
    }
    fd
}

/// Whether `fd` is a regular file, and its device and inode.
fn identity(fd: i32) -> Option<(bool, (u64, u64))> {
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: stat = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { fstat(fd, &mut st) } != 0 {
        return None;
    }
    let regular = st.st_mode & libc::S_IFMT == libc::S_IFREG;
    #[allow(clippy::unnecessary_cast)] // u32 on some 32-bit targets
    Some((regular, (st.st_dev as u64, st.st_ino as u64)))
}

/// `LIBURING_TRACE_MAX`: bytes, with an optional k/m/g suffix; 0 = none.
fn trace_max() -> u64 {
    // SAFETY: getenv with a NUL-terminated name, at load.
    let v = unsafe { libc::getenv(c"LIBURING_TRACE_MAX".as_ptr()) };
    if v.is_null() {
        return DEFAULT_MAX;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    parse_size(unsafe { CStr::from_ptr(v) }.to_bytes()).unwrap_or(DEFAULT_MAX)
}

/// `123`, `64k`, `64M`, `1g` in bytes (`0`: no limit); None if malformed.
pub fn parse_size(s: &[u8]) -> Option<u64> {
    let (digits, unit) = match s.last() {
        Some(b'k' | b'K') => (s.get(..s.len() - 1)?, 10),
        Some(b'm' | b'M') => (s.get(..s.len() - 1)?, 20),
        Some(b'g' | b'G') => (s.get(..s.len() - 1)?, 30),
        _ => (s, 0),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    match n.checked_shl(unit).filter(|v| v >> unit == n)? {
        0 => Some(u64::MAX),
        v => Some(v),
    }
}

/// `parts` one after another in `buf` (cut at its end, which then holds
/// a newline).
fn joined<'a>(buf: &'a mut [u8], parts: &[&[u8]]) -> &'a [u8] {
    let mut n = 0;
    for &b in parts.iter().flat_map(|p| p.iter()) {
        match buf.get_mut(n) {
            Some(slot) => {
                *slot = b;
                n += 1;
            }
            None => {
                if let Some(last) = buf.last_mut() {
                    *last = b'\n';
                }
                break;
            }
        }
    }
    buf.get(..n).unwrap_or(&[])
}

/// Keeps the caller's `errno` across a diagnostic write.
struct SavedErrno(i32);

impl SavedErrno {
    fn save() -> Self {
        // SAFETY: the thread's errno location is always valid.
        SavedErrno(unsafe { *libc::__errno_location() })
    }
}

impl Drop for SavedErrno {
    fn drop(&mut self) {
        // SAFETY: as above.
        unsafe { *libc::__errno_location() = self.0 };
    }
}

/// Writes one trace line (or block) to the trace target.
pub fn trace(bytes: &[u8]) {
    if !tracing() {
        return;
    }
    let _errno = SavedErrno::save();
    let t = target();
    let max = usize::try_from(t.max).unwrap_or(usize::MAX);
    let n = bytes.len();
    let before = WRITTEN.load(Ordering::Relaxed);
    if before.saturating_add(n) > max {
        // One thread writes the notice; tracing stops for every thread.
        if TRACING.swap(false, Ordering::Relaxed) && !json() {
            write_to(
                t,
                b"uring-trace: LIBURING_TRACE_MAX reached; tracing stops here (summaries still follow in their blocks)\n",
            );
        }
        return;
    }
    WRITTEN.store(before.saturating_add(n), Ordering::Relaxed);
    if !write_to(t, bytes) && t.file.is_some() {
        TRACING.store(false, Ordering::Relaxed);
    }
}

/// Writes `bytes` to the target; false when the file is no longer ours.
fn write_to(t: Target, bytes: &[u8]) -> bool {
    match t.file {
        Some(id) => {
            if identity(t.fd) != Some((true, id)) {
                return false;
            }
            write_all(t.fd, bytes);
            true
        }
        None => {
            stream_write(t.fd, bytes);
            true
        }
    }
}

/// Writes one line to the program's stderr (`LIBURING_DEBUG`'s findings).
pub fn stderr(bytes: &[u8]) {
    let _errno = SavedErrno::save();
    stream_write(2, bytes);
}

fn write_all(fd: i32, bytes: &[u8]) {
    let mut done = 0;
    while let Some(rest) = bytes.get(done..) {
        if rest.is_empty() {
            break;
        }
        // SAFETY: `rest` is a live byte slice; write(2) only reads it.
        let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            break;
        }
        done += n as usize;
    }
}

/// A write to a stream that can neither block nor raise SIGPIPE.
fn stream_write(fd: i32, bytes: &[u8]) {
    // Lines are at most a few KiB: when POLLOUT is reported a pipe has a
    // free page, so the write does not block.
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no wait.
    let ready = unsafe { libc::poll(&mut p, 1, 0) } == 1
        && p.revents & libc::POLLOUT != 0
        && p.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) == 0;
    if !ready {
        return;
    }
    // The reader may still go between poll and write: SIGPIPE is blocked
    // for the write, and one it raised (not one already pending) is taken.
    // SAFETY: sigset_t is plain data; the calls below fill it.
    let mut pipe: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    let mut pending: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: valid sigset pointers for each call.
    unsafe {
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        libc::sigpending(&mut pending);
    }
    // SAFETY: as above.
    let was_pending = unsafe { libc::sigismember(&pending, libc::SIGPIPE) } == 1;
    write_all(fd, bytes);
    if !was_pending {
        // SAFETY: as above; the zero timeout only polls.
        unsafe {
            libc::sigpending(&mut pending);
            if libc::sigismember(&pending, libc::SIGPIPE) == 1 {
                let now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                libc::sigtimedwait(&pipe, core::ptr::null_mut(), &now);
            }
        }
    }
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, core::ptr::null_mut()) };
}

/// Appends a summary block at the end of a trace file and returns its
/// offset, when it can tell for sure (another writer may have appended in
/// between); None for a stream or a lost file.
pub fn append_block(block: &[u8]) -> Option<i64> {
    let t = target();
    if !tracing() || t.summary_fd < 0 {
        return None;
    }
    let _errno = SavedErrno::save();
    let id = t.file?;
    if identity(t.fd) != Some((true, id)) {
        TRACING.store(false, Ordering::Relaxed);
        return None;
    }
    // SAFETY: `block` is a live buffer of its length.
    let n = unsafe { libc::write(t.fd, block.as_ptr().cast(), block.len()) };
    if n != block.len() as isize {
        return None;
    }
    // SAFETY: lseek on our own descriptor.
    let end: i64 = unsafe { lseek(t.fd, 0, libc::SEEK_CUR) };
    let off = end - block.len() as i64;
    if off < 0 {
        return None;
    }
    // Room for the largest block (trace.rs: SUMMARY_BYTES).
    let mut check = [0u8; 4096];
    let check = check.get_mut(..block.len())?;
    // SAFETY: `check` is a writable buffer of its length.
    let got = unsafe {
        pread(
            t.summary_fd,
            check.as_mut_ptr().cast(),
            check.len(),
            off as _,
        )
    };
    (got == check.len() as isize && check == block).then_some(off)
}

/// Whether summaries are rewritten in place (a file target).
pub fn has_blocks() -> bool {
    target().summary_fd >= 0
}

/// Rewrites a block appended by [`append_block`], if the file is ours.
pub fn rewrite_block(block: &[u8], off: i64) {
    let t = target();
    let Some(id) = t.file else {
        return;
    };
    let _errno = SavedErrno::save();
    if identity(t.summary_fd) != Some((true, id)) {
        return;
    }
    // SAFETY: `block` is a live buffer of its length; pwrite only reads it.
    unsafe { pwrite(t.summary_fd, block.as_ptr().cast(), block.len(), off as _) };
}

#[cfg(test)]
mod tests;
