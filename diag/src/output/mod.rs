// SPDX-License-Identifier: MIT
//! Where diagnostic text goes, and the rules that keep writing it harmless.
//!
//! Nothing here holds a descriptor the program could see or reuse, but
//! one: standard error is written through a duplicate made at attach high
//! above the program's descriptors ([`stream`]). A trace file is written
//! through a shared mapping of a region of it claimed at attach, before the
//! program's `main` ([`trace_file`]), so the program's descriptor table,
//! its `RLIMIT_FSIZE` and a `dup2` onto any number it likes are none of
//! the trace's business.
//!
//! - A stream is written only when `poll` says a write will not block and
//!   a reader is there; `SIGPIPE` is blocked for the write and one the
//!   write raised is taken back. What cannot be written is dropped.
//! - A trace file is created `0600` (it holds addresses), never through a
//!   symbolic link, without becoming a controlling terminal, and only if it
//!   is a regular file.
//! - The trace writes at most `LIBURING_TRACE_MAX` bytes (default
//!   [`DEFAULT_MAX`]; suffixes `k`, `m`, `g`; `0` for no limit), then one
//!   line saying why it stops.
//! - The caller's `errno` is the same afterwards ([`SavedErrno`]).
//!
//! The settings are written once per attachment, by [`attach`], before any
//! hook can run, and cleared by [`release`] when none can any more.

use core::cell::UnsafeCell;
use core::ffi::{c_void, CStr};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub mod stream;
pub mod trace_file;

// Sizes, offsets and inodes in 64 bits on every target: glibc's 32-bit
// targets need the *64 calls, musl's plain calls are 64-bit already.
#[cfg(not(target_env = "gnu"))]
use libc::{fstat, ftruncate, mmap, stat};
#[cfg(target_env = "gnu")]
use libc::{fstat64 as fstat, ftruncate64 as ftruncate, mmap64 as mmap, stat64 as stat};

/// The default `LIBURING_TRACE_MAX`: 64 MiB.
pub const DEFAULT_MAX: u64 = 64 << 20;

/// Where trace lines go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    None,
    /// Standard error (`LIBURING_TRACE=stderr` or `1`).
    Stream,
    /// A file ([`trace_file`]).
    File,
}

struct Settings {
    target: Target,
    /// Bytes of trace lines a stream may take (u64::MAX: no limit).
    max: u64,
}

struct SetAtAttach(UnsafeCell<Settings>);

// SAFETY: written only by `attach` and `release`, when no hook can run
// (see lib.rs), read-only in between.
unsafe impl Sync for SetAtAttach {}

static SETTINGS: SetAtAttach = SetAtAttach(UnsafeCell::new(Settings {
    target: Target::None,
    max: u64::MAX,
}));

fn settings() -> &'static Settings {
    // SAFETY: see `SetAtAttach`.
    unsafe { &*SETTINGS.0.get() }
}

/// Bytes written to a stream target so far (native width: no target's
/// fallback for 64-bit atomics, which takes a spin flag, may be used on
/// this path).
static WRITTEN: AtomicUsize = AtomicUsize::new(0);
/// A stream target still takes lines (cleared for good at its limit).
static STREAMING: AtomicBool = AtomicBool::new(false);
/// The trace is Chrome trace-event JSON (`LIBURING_TRACE_FORMAT=json`, or
/// a file name ending in `.json`): no text lines, no in-place summaries.
static JSON: AtomicBool = AtomicBool::new(false);

/// The trace is binary records (`LIBURING_TRACE_FORMAT=binary`, or a file
/// name ending in `.utrace`; files only): `crate::trace::binary`.
static BINARY: AtomicBool = AtomicBool::new(false);

/// The trace is written as binary records.
#[inline(always)]
pub fn binary() -> bool {
    BINARY.load(Ordering::Relaxed)
}

/// The trace is written as JSON events.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Tracing is on (and its target still takes lines).
pub fn tracing() -> bool {
    match settings().target {
        Target::None => false,
        Target::Stream => STREAMING.load(Ordering::Relaxed),
        Target::File => trace_file::open(),
    }
}

/// Opens the outputs at attach: the stderr duplicate always (for
/// `LIBURING_DEBUG` and `LIBURING_CHECK`), and the `LIBURING_TRACE`
/// target; whether tracing is on. `lay_out_binary` lays the binary
/// trace's blocks out in the file's region (the trace's own code, passed in
/// by the caller: the trace writes through this module, not the reverse).
pub fn attach(lay_out_binary: fn() -> bool) -> bool {
    stream::attach();
    let t = open_trace(lay_out_binary);
    // SAFETY: see `SetAtAttach`: no hook runs yet.
    unsafe { (*SETTINGS.0.get()).target = t };
    t != Target::None
}

fn open_trace(lay_out_binary: fn() -> bool) -> Target {
    // SAFETY: getenv with a NUL-terminated name, at attach (the library's
    // constructor, before the program's threads).
    let dest = unsafe { libc::getenv(c"LIBURING_TRACE".as_ptr()) };
    if dest.is_null() {
        return Target::None;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let dest = unsafe { CStr::from_ptr(dest) };
    // SAFETY: as above.
    let format = unsafe { libc::getenv(c"LIBURING_TRACE_FORMAT".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let json = (!format.is_null() && unsafe { CStr::from_ptr(format) }.to_bytes() == b"json")
        || dest.to_bytes().ends_with(b".json");
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let binary = (!format.is_null() && unsafe { CStr::from_ptr(format) }.to_bytes() == b"binary")
        || dest.to_bytes().ends_with(b".utrace");
    let json = json && !binary;
    let max = trace_max();
    JSON.store(json, Ordering::Relaxed);
    BINARY.store(false, Ordering::Relaxed);
    match dest.to_bytes() {
        b"" | b"0" => Target::None,
        b"stderr" | b"1" => {
            if !stream::open() {
                return Target::None;
            }
            if binary {
                stream::write(b"uring-trace: binary records need a file (LIBURING_TRACE=<path>); tracing to stderr as text\n");
            }
            // SAFETY: see `SetAtAttach`.
            unsafe { (*SETTINGS.0.get()).max = max };
            WRITTEN.store(0, Ordering::Relaxed);
            STREAMING.store(true, Ordering::Relaxed);
            if json {
                stream::write(b"[\n");
            }
            Target::Stream
        }
        _ => match trace_file::attach(dest, max, json) {
            Ok(()) if binary => {
                if lay_out_binary() {
                    BINARY.store(true, Ordering::Relaxed);
                    return Target::File;
                }
                trace_file::release(false);
                stream::write(b"uring-trace: the binary trace needs a region of at least 17k (LIBURING_TRACE_MAX); tracing stays off\n");
                Target::None
            }
            Ok(()) => Target::File,
            Err(why) => {
                let parts: [&[u8]; 5] = [
                    b"uring-trace: LIBURING_TRACE=",
                    dest.to_bytes(),
                    b": ",
                    why.as_bytes(),
                    b"; tracing stays off\n",
                ];
                let mut line = [0u8; 1024];
                stream::write(joined(&mut line, &parts));
                Target::None
            }
        },
    }
}

/// Releases what the outputs hold (the last detach). `exiting`: the
/// process is exiting and other threads may still write: nothing is
/// unmapped or closed then, only finished.
pub fn release(exiting: bool) {
    if settings().target == Target::File {
        trace_file::release(exiting);
    }
    STREAMING.store(false, Ordering::Relaxed);
    if !exiting {
        BINARY.store(false, Ordering::Relaxed);
    }
    stream::release(exiting);
    if !exiting {
        // SAFETY: see `SetAtAttach`: no hook runs any more.
        unsafe {
            *SETTINGS.0.get() = Settings {
                target: Target::None,
                max: u64::MAX,
            }
        };
    }
}

/// In a forked child: a trace file gets chunks of its own.
pub fn forked() {
    if settings().target == Target::File {
        trace_file::forked();
    }
}

/// `LIBURING_TRACE_MAX`: bytes, with an optional k/m/g suffix; 0 = none.
fn trace_max() -> u64 {
    // SAFETY: getenv with a NUL-terminated name, at attach.
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

/// The note that ends a trace: a text line, or a JSON instant event.
/// Returns its length in `buf`.
fn end_note(buf: &mut [u8], why: &str, lost: usize) -> usize {
    let mut lost_text = [0u8; 24];
    let lost_text = decimal(&mut lost_text, lost as u64);
    let parts: [&[u8]; 5] = if json() {
        [
            b"{\"name\":\"trace stops: ",
            why.as_bytes(),
            b" (lines lost: ",
            lost_text,
            b")\",\"ph\":\"i\",\"s\":\"g\",\"ts\":0,\"pid\":0,\"tid\":0},\n",
        ]
    } else {
        [
            b"uring-trace: the trace stops here: ",
            why.as_bytes(),
            b" (lines lost: ",
            lost_text,
            b")\n",
        ]
    };
    joined(buf, &parts).len()
}

/// `v` in decimal, in `buf`.
fn decimal(buf: &mut [u8; 24], mut v: u64) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(d) = buf.get_mut(at) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || at == 0 {
            break;
        }
    }
    buf.get(at..).unwrap_or(&[])
}

/// Keeps the caller's `errno` across whatever the diagnostics do.
pub struct SavedErrno(i32);

impl SavedErrno {
    pub fn save() -> Self {
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

/// Writes one trace line (or block, or JSON event) to the trace target.
pub fn trace(bytes: &[u8]) {
    match settings().target {
        Target::None => {}
        // The binary trace's region holds blocks of records, no lines.
        Target::File if binary() => {}
        Target::File => {
            let _errno = SavedErrno::save();
            trace_file::write(bytes);
        }
        Target::Stream => {
            if !STREAMING.load(Ordering::Relaxed) {
                return;
            }
            let _errno = SavedErrno::save();
            let max = usize::try_from(settings().max).unwrap_or(usize::MAX);
            let before = WRITTEN.fetch_add(bytes.len(), Ordering::Relaxed);
            if before.saturating_add(bytes.len()) > max {
                // One thread writes the notice; tracing stops for all.
                if STREAMING.swap(false, Ordering::Relaxed) {
                    let mut note = [0u8; 192];
                    let n = end_note(&mut note, "LIBURING_TRACE_MAX reached", 0);
                    stream::write(note.get(..n).unwrap_or(&[]));
                }
                return;
            }
            stream::write(bytes);
        }
    }
}

/// Writes one line to the program's stderr (`LIBURING_DEBUG`'s causes and
/// `LIBURING_CHECK`'s findings).
pub fn stderr(bytes: &[u8]) {
    let _errno = SavedErrno::save();
    stream::write(bytes);
}

/// Whether summaries are kept current in place (a file target).
pub fn has_blocks() -> bool {
    settings().target == Target::File && !json() && !binary()
}

/// Reserves a summary block of `len` bytes at the end of a file target,
/// for [`fill_block`]; None when it could not be placed (or for a stream).
pub fn append_block(len: usize) -> Option<trace_file::BlockAt> {
    if !has_blocks() {
        return None;
    }
    let _errno = SavedErrno::save();
    trace_file::append_block(len)
}

/// (Re)writes a block placed by [`append_block`] through `f`.
pub fn fill_block(at: trace_file::BlockAt, f: impl FnOnce(&mut BlockFill)) {
    trace_file::fill(at, f);
}

pub use trace_file::BlockFill;

// ---------------------------------------------------------------------------
// Helpers of the two targets
// ---------------------------------------------------------------------------

/// A file's device and inode: what a descriptor is checked to still be.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    pub const NONE: FileId = FileId { dev: 0, ino: 0 };
}

fn fstat_of(fd: i32) -> Option<stat> {
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: stat = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    (unsafe { fstat(fd, &mut st) } == 0).then_some(st)
}

/// What `fd` is (None: not open).
#[allow(clippy::unnecessary_cast)] // u32 on some 32-bit targets
pub fn file_identity(fd: i32) -> Option<FileId> {
    fstat_of(fd).map(|st| FileId {
        dev: st.st_dev as u64,
        ino: st.st_ino as u64,
    })
}

fn is_regular(fd: i32) -> bool {
    fstat_of(fd).is_some_and(|st| st.st_mode & libc::S_IFMT == libc::S_IFREG)
}

#[allow(clippy::unnecessary_cast)] // i64 everywhere but some 32-bit targets
fn file_size(fd: i32) -> u64 {
    fstat_of(fd).map_or(0, |st| st.st_size as u64)
}

/// A shared, writable mapping of `len` bytes of `fd` from `offset`
/// (page-aligned), where the kernel picks.
///
/// # Safety
/// The bytes mapped exist in the file (a store past its end would fault).
unsafe fn mmap_file(len: usize, fd: i32, offset: u64) -> *mut c_void {
    // SAFETY: per the caller; a new mapping at a place the kernel picks.
    unsafe {
        mmap(
            core::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            offset as _,
        )
    }
}

/// Shrinks the file of `fd` back to `len` bytes (a region given up).
fn shrink_to(fd: i32, len: u64) {
    // SAFETY: our own descriptor; shrinking never raises SIGXFSZ.
    unsafe { ftruncate(fd, len as _) };
}

/// Writes all of `bytes` to `fd` (or as much as it takes).
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

extern "C" {
    // POSIX; not in the libc crate. Not a cancellation point itself.
    fn pthread_setcancelstate(
        state: core::ffi::c_int,
        old: *mut core::ffi::c_int,
    ) -> core::ffi::c_int;
}
/// `PTHREAD_CANCEL_DISABLE` (glibc and musl).
const CANCEL_DISABLE: core::ffi::c_int = 1;

/// Runs `f` with cancellation of this thread deferred: the diagnostics'
/// system calls that are cancellation points (open, write, poll, ...)
/// then cannot end the thread in the middle of a claim or a line, and a
/// cancel request waits for the program's own next cancellation point.
pub fn without_cancellation<R>(f: impl FnOnce() -> R) -> R {
    let mut old = 0;
    // SAFETY: a valid out-parameter; the state is restored below.
    unsafe { pthread_setcancelstate(CANCEL_DISABLE, &mut old) };
    let r = f();
    // SAFETY: as above.
    unsafe { pthread_setcancelstate(old, &mut old) };
    r
}

/// Runs `f` with `sig` blocked for this thread, then takes back a `sig`
/// that `f` raised (not one already pending): a write into a pipe without
/// reader (`SIGPIPE`) or past the file size limit (`SIGXFSZ`) then only
/// fails, as the program would never see it.
fn with_signal_blocked<R>(sig: i32, f: impl FnOnce() -> R) -> R {
    // SAFETY: sigset_t is plain data; the calls below fill it.
    let mut set: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    let mut pending: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: valid sigset pointers for each call.
    unsafe {
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        libc::sigpending(&mut pending);
    }
    // SAFETY: as above.
    let was_pending = unsafe { libc::sigismember(&pending, sig) } == 1;
    let r = f();
    if !was_pending {
        // SAFETY: as above; the zero timeout only polls.
        unsafe {
            libc::sigpending(&mut pending);
            if libc::sigismember(&pending, sig) == 1 {
                let now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                libc::sigtimedwait(&set, core::ptr::null_mut(), &now);
            }
        }
    }
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, core::ptr::null_mut()) };
    r
}

#[cfg(test)]
mod tests;
