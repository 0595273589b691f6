// SPDX-License-Identifier: MIT
//! The trace file, written through one shared mapping of it: after attach
//! the diagnostics hold no descriptor of it and open none.
//!
//! At attach (the library's constructor, before the program's `main`) the
//! file is opened, this process's region of it is claimed at its end (the
//! file grows by the region, sparse, under a lock so that other programs
//! tracing to the same path claim regions after it), the region is mapped
//! shared, and the descriptor is closed. From then on a trace line is a
//! copy into the mapping, at a place reserved with an atomic add; a forked
//! child shares the region and its cursor (both live in shared memory).
//!
//! The file's blocks are allocated ahead of the cursor, a slice at a time,
//! with `MADV_POPULATE_WRITE`, which reports a full file system (or quota)
//! as an error instead of the `SIGBUS` a store into an unallocated page
//! would raise; a kernel without it (before Linux 5.14) gets the whole
//! region allocated at attach. The region is sized at attach within
//! `LIBURING_TRACE_MAX` and the file size limit (`RLIMIT_FSIZE`, whose
//! `SIGXFSZ` is blocked and taken back around the one call that grows the
//! file), so the trace ends, with a note in the room kept for it, when the
//! region is full, the file system is, or a limit is reached: never the
//! program.
//!
//! At the last detach (or exit) the process that claimed the last region
//! of the file truncates it to what was written; otherwise the unused rest
//! of the region stays as zero bytes, unallocated.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{file_identity, FileId};

// Sizes and offsets in 64 bits on every target: glibc's 32-bit targets
// need the *64 calls, musl's plain calls are 64-bit already.
#[cfg(not(target_env = "gnu"))]
use libc::{fallocate, ftruncate};
#[cfg(target_env = "gnu")]
use libc::{fallocate64 as fallocate, ftruncate64 as ftruncate};

/// `MADV_POPULATE_WRITE` (Linux 5.14; the same number on every
/// architecture; not in the libc crate).
const MADV_POPULATE_WRITE: i32 = 23;
/// Room at the end of the region that only the end note may use.
const NOTE_ROOM: usize = 192;
/// Blocks are allocated this far ahead of the cursor, a slice at a time.
const SLICE: usize = 1 << 20;
/// The smallest region worth a trace.
const SMALLEST: u64 = 4 * NOTE_ROOM as u64;

/// What a forked child shares with its parent: the cursor and the
/// allocation mark of their one region (a shared anonymous page, made at
/// attach).
#[repr(C)]
struct Shared {
    /// Bytes of the region reserved so far (may run past its end).
    cursor: AtomicUsize,
    /// Bytes from the region's start whose blocks are allocated.
    allocated: AtomicUsize,
    /// The thread (`pthread_self`, and the process: forked children share
    /// the page) allocating the next slice, 0 when none is.
    allocator: AtomicUsize,
    /// The trace has ended (its note written).
    ended: AtomicBool,
    /// Lines that could not be placed.
    lost: AtomicUsize,
    /// Processes sharing the region (the one that attached, and its forked
    /// children that have not exited).
    processes: AtomicUsize,
}

/// What `attach` set up, read-only until release.
struct Settings {
    /// The region in this process's address space, and its length.
    data: *mut u8,
    len: usize,
    /// The mapping, page-aligned (for `munmap`), and the page size.
    map: (*mut u8, usize),
    page: usize,
    shared: *const Shared,
    /// Where the region starts in the file, for the final truncation.
    file_start: u64,
    path: [u8; libc::PATH_MAX as usize + 1],
    id: FileId,
    max: u64,
}

struct SetAtAttach(UnsafeCell<Settings>);

// SAFETY: written only by `attach` and `release`, when no hook can run
// (the first attach of a process or reload, the last detach; see lib.rs),
// read-only in between. The region's bytes are written by whoever
// reserved them, each range by one thread; the shared words are atomic.
unsafe impl Sync for SetAtAttach {}

static SETTINGS: SetAtAttach = SetAtAttach(UnsafeCell::new(Settings {
    data: null_mut(),
    len: 0,
    map: (null_mut(), 0),
    page: 4096,
    shared: ptr::null(),
    file_start: 0,
    path: [0; libc::PATH_MAX as usize + 1],
    id: FileId::NONE,
    max: 0,
}));

fn settings() -> &'static Settings {
    // SAFETY: see `SetAtAttach`.
    unsafe { &*SETTINGS.0.get() }
}

fn shared() -> Option<&'static Shared> {
    // SAFETY: null, or the shared page `attach` made, mapped until release.
    unsafe { settings().shared.as_ref() }
}

const FLAGS: i32 = libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_NOFOLLOW;

/// Opens the trace file at attach and claims this process's region: the
/// file is created `0600` if new, never through a symbolic link, and must
/// be a regular file. `max`: bytes of trace (u64::MAX: as many as the
/// address space and the file size limit allow).
pub fn attach(path: &CStr, max: u64, json: bool) -> Result<(), &'static str> {
    let bytes = path.to_bytes_with_nul();
    if bytes.len() > libc::PATH_MAX as usize {
        return Err("is too long a path");
    }
    // SAFETY: NUL-terminated path; the result is checked.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CREAT | FLAGS, 0o600) };
    if fd < 0 {
        return Err("cannot be opened for writing (a symbolic link, a FIFO without reader, a read-only file system, or no permission)");
    }
    let r = claim_region(fd, max, json);
    // SAFETY: our own descriptor, opened above; the mapping outlives it.
    unsafe { libc::close(fd) };
    let (data, len, map, file_start, id) = r?;
    // SAFETY: sysconf has no preconditions.
    let page_size = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as usize;
    // The shared page: cursor and marks, shared with forked children.
    // SAFETY: a new shared anonymous page, no hint.
    let page = unsafe {
        libc::mmap(
            null_mut(),
            core::mem::size_of::<Shared>(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if page == libc::MAP_FAILED {
        // SAFETY: the region just mapped, not used.
        unsafe { libc::munmap(map.0.cast(), map.1) };
        return Err("cannot be followed (no memory)");
    }
    let shared = page.cast::<Shared>();
    // SAFETY: a fresh, zeroed shared page: atomics valid as zero bytes.
    let sh = unsafe { &*shared };
    sh.processes.store(1, Ordering::Relaxed);
    sh.allocated.store(
        if populate_ahead_works() { 0 } else { len },
        Ordering::Relaxed,
    );
    // SAFETY: see `SetAtAttach`: no hook runs yet.
    let s = unsafe { &mut *SETTINGS.0.get() };
    s.data = data;
    s.len = len;
    s.map = map;
    s.page = page_size;
    s.shared = shared;
    s.file_start = file_start;
    s.path = [0; libc::PATH_MAX as usize + 1];
    if let Some(dst) = s.path.get_mut(..bytes.len()) {
        dst.copy_from_slice(bytes);
    }
    s.id = id;
    s.max = max;
    if file_start == 0 && json {
        // The file's first region opens the JSON array.
        write(b"[\n");
    }
    Ok(())
}

/// Claims the region on `fd`: (its first byte and length in this
/// process, the mapping, its offset in the file, the file's identity).
#[allow(clippy::type_complexity)]
fn claim_region(
    fd: i32,
    max: u64,
    json: bool,
) -> Result<(*mut u8, usize, (*mut u8, usize), u64, FileId), &'static str> {
    let _ = json;
    let (true, Some(id)) = (super::is_regular(fd), file_identity(fd)) else {
        return Err("is not a regular file (use LIBURING_TRACE=stderr for a stream)");
    };
    // Other programs claiming regions of the same file wait for this one.
    // SAFETY: a zeroed flock is a valid argument once its fields are set.
    let mut lock: libc::flock = unsafe { core::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as _;
    lock.l_whence = libc::SEEK_SET as _;
    // SAFETY: a valid flock for the whole file; released by `close`.
    if unsafe { libc::fcntl(fd, libc::F_SETLKW, &lock) } != 0 {
        return Err("cannot be locked to claim a place in it");
    }
    let start = super::file_size(fd);
    let cap: u64 = if cfg!(target_pointer_width = "64") {
        1 << 30
    } else {
        256 << 20
    };
    let mut len = max.min(cap);
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills one struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut lim) } == 0
        && lim.rlim_cur != libc::RLIM_INFINITY
    {
        #[allow(clippy::useless_conversion)] // u32 on some 32-bit targets
        let limit = u64::from(lim.rlim_cur);
        len = len.min(limit.saturating_sub(start));
    }
    if len < SMALLEST {
        return Err("has no room left for a trace (LIBURING_TRACE_MAX, or the file size limit RLIMIT_FSIZE)");
    }
    // Sparse: no block is allocated by growing the file.
    let grown = super::with_signal_blocked(libc::SIGXFSZ, || {
        // SAFETY: our own descriptor; the new size is checked above
        // against the limit.
        unsafe { ftruncate(fd, (start + len) as _) }
    });
    if grown != 0 {
        return Err("cannot be grown (the file size limit, or its file system)");
    }
    if !populate_ahead_works() {
        // Before Linux 5.14 the blocks are allocated now, all of them: a
        // store into an unallocated page of a full file system would
        // raise SIGBUS in the program.
        // SAFETY: our own descriptor, a range within the file.
        if unsafe { fallocate(fd, 0, start as _, len as _) } != 0 {
            super::shrink_to(fd, start);
            return Err("has no space left on its file system");
        }
    }
    // SAFETY: sysconf has no preconditions.
    let page = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as u64;
    let map_start = start - start % page;
    let map_len = (start + len - map_start) as usize;
    // SAFETY: a shared mapping of bytes of the file that exist (the file
    // was grown above), at a page-aligned offset, where the kernel picks.
    let p = unsafe { super::mmap_file(map_len, fd, map_start) };
    if p == libc::MAP_FAILED {
        super::shrink_to(fd, start);
        return Err(
            "cannot be mapped (the address space limit, or a file system without shared mappings)",
        );
    }
    let p = p.cast::<u8>();
    // SAFETY: `start - map_start` is within the mapping just made.
    let data = unsafe { p.add((start - map_start) as usize) };
    Ok((data, len as usize, (p, map_len), start, id))
}

/// Whether this kernel has `MADV_POPULATE_WRITE` (asked once).
fn populate_ahead_works() -> bool {
    // 0: not asked, 1: yes, 2: no.
    static KNOWN: AtomicUsize = AtomicUsize::new(0);
    match KNOWN.load(Ordering::Relaxed) {
        1 => return true,
        2 => return false,
        _ => {}
    }
    // An empty range answers 0 where the advice is known, EINVAL where not
    // (the kernel checks the advice first).
    // SAFETY: a zero-length range touches nothing.
    let known = unsafe { libc::madvise(null_mut(), 0, MADV_POPULATE_WRITE) } == 0;
    KNOWN.store(if known { 1 } else { 2 }, Ordering::Relaxed);
    known
}

/// Whether lines still go into the file.
pub fn open() -> bool {
    shared().is_some_and(|sh| !sh.ended.load(Ordering::Relaxed))
}

/// Appends `bytes` (a line, or an event) as one piece; false when it could
/// not be placed (counted as lost).
pub fn write(bytes: &[u8]) -> bool {
    let Some(dst) = reserve(bytes.len()) else {
        return false;
    };
    // SAFETY: `reserve` gave this thread `bytes.len()` bytes at `dst`.
    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
    true
}

/// Reserves `len` bytes at the end for a summary block, written (and
/// rewritten) by [`fill`]; `None` when they could not be placed.
pub fn append_block(len: usize) -> Option<BlockAt> {
    reserve(len).map(|at| BlockAt(at, len))
}

/// A placed block's bytes in the mapping (valid until release).
#[derive(Clone, Copy)]
pub struct BlockAt(*mut u8, usize);

/// Writes a block placed by [`append_block`] through `f`, straight into
/// the mapping (its ring's record is this thread's alone meanwhile).
pub fn fill(at: BlockAt, f: impl FnOnce(&mut BlockFill)) {
    f(&mut BlockFill {
        dst: at.0,
        cap: at.1,
        len: 0,
    });
}

/// The writer of one block: bytes past its size are dropped.
pub struct BlockFill {
    dst: *mut u8,
    cap: usize,
    len: usize,
}

impl BlockFill {
    /// The bytes written so far.
    pub fn written(&self) -> usize {
        self.len
    }

    /// Appends `bytes`, as many as fit.
    pub fn put(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(self.cap - self.len);
        // SAFETY: `len + n <= cap`: inside the block, which is mapped until
        // release (at which no hook runs).
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), self.dst.add(self.len), n) };
        self.len += n;
    }

    /// Appends `byte` until the block holds `to` bytes.
    pub fn pad_to(&mut self, to: usize, byte: u8) {
        let end = to.min(self.cap);
        if end > self.len {
            // SAFETY: `len..end` is inside the block, as in `put`.
            unsafe { ptr::write_bytes(self.dst.add(self.len), byte, end - self.len) };
            self.len = end;
        }
    }
}

/// Reserves `n` bytes at the end of the region, allocated in the file.
fn reserve(n: usize) -> Option<*mut u8> {
    let sh = shared()?;
    if sh.ended.load(Ordering::Relaxed) {
        return None;
    }
    let s = settings();
    let room = s.len - NOTE_ROOM;
    let at = sh.cursor.fetch_add(n, Ordering::Relaxed);
    if at + n > room {
        end(
            sh,
            "the trace reached its size (LIBURING_TRACE_MAX, or the file size limit)",
        );
        sh.lost.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    if at + n > sh.allocated.load(Ordering::Acquire) && !allocate_to(sh, s, at + n, true) {
        sh.lost.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    // SAFETY: `at..at + n` of the region is ours alone (the add above) and
    // its blocks are allocated.
    let dst = unsafe { s.data.add(at) };
    if at + n + SLICE / 2 > sh.allocated.load(Ordering::Relaxed)
        && sh.allocator.load(Ordering::Relaxed) == 0
    {
        allocate_to(sh, s, at + n + SLICE / 2, true);
    }
    Some(dst)
}

/// This thread, as `Shared::allocator` names it: its `pthread_self`
/// mixed with the process id (forked children share the page).
fn me() -> usize {
    // SAFETY: no preconditions; neither is 0.
    let (t, p) = unsafe { (libc::pthread_self() as usize, libc::getpid() as usize) };
    t ^ p.rotate_left(17) | 1
}

/// How long a writer waits for another thread's allocation before its
/// line is counted as lost (the other thread may have been stopped for
/// good: a `longjmp` out of a signal handler that interrupted it).
const WAIT_AT_MOST_NS: u64 = 2_000_000_000;

/// A wait for another thread: yields first, then sleeps 50 us at a time,
/// until `WAIT_AT_MOST_NS` have passed.
struct Waiting {
    rounds: u32,
    since: u64,
}

impl Waiting {
    fn new() -> Waiting {
        Waiting {
            rounds: 0,
            since: 0,
        }
    }

    /// Waits a little; false once the time is up.
    fn again(&mut self) -> bool {
        self.rounds += 1;
        if self.rounds < 100 {
            // SAFETY: no preconditions.
            unsafe { libc::sched_yield() };
            return true;
        }
        let now = monotonic_ns();
        if self.rounds == 100 {
            self.since = now;
        } else if now.saturating_sub(self.since) > WAIT_AT_MOST_NS {
            return false;
        }
        let nap = libc::timespec {
            tv_sec: 0,
            tv_nsec: 50_000,
        };
        // nanosleep is a cancellation point: the program's cancel request
        // waits for its own next one.
        super::without_cancellation(|| {
            // SAFETY: a valid duration; the remainder is not asked for.
            unsafe { libc::nanosleep(&nap, null_mut()) }
        });
        true
    }
}

fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: fills one timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64).wrapping_mul(1_000_000_000) + ts.tv_nsec as u64
}

/// Allocates the blocks of the region up to `to` (a slice beyond it);
/// false when they cannot be. A thread that finds another allocating
/// waits for it (yielding, then sleeping: with many threads on few CPUs
/// the allocating one may not run for a while), up to `WAIT_AT_MOST`; one
/// that would wait on itself (a signal handler that interrupted it) does
/// not. A full file system ends the trace (with its note when `note`).
fn allocate_to(sh: &Shared, s: &Settings, to: usize, note: bool) -> bool {
    let me = me();
    let mut waited = Waiting::new();
    while sh
        .allocator
        .compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        if sh.allocated.load(Ordering::Acquire) >= to {
            return true;
        }
        if sh.allocator.load(Ordering::Relaxed) == me || !waited.again() {
            return false;
        }
    }
    let from = sh.allocated.load(Ordering::Relaxed);
    let mut ok = true;
    if from < to {
        let end = (to + SLICE).min(s.len);
        if populate(s, from, end) {
            sh.allocated.store(end, Ordering::Release);
        } else {
            ok = false;
        }
    }
    sh.allocator.store(0, Ordering::Release);
    if !ok && !note {
        sh.ended.store(true, Ordering::Relaxed);
    } else if !ok {
        end(
            sh,
            "no space is left for it (its file system is full, or a quota is reached)",
        );
    }
    ok || sh.allocated.load(Ordering::Acquire) >= to
}

/// Allocates the blocks behind bytes `from..to` of the region: false
/// when the kernel cannot (the file system is full).
fn populate(s: &Settings, from: usize, to: usize) -> bool {
    // Page-aligned in the mapping, from the page holding `from`.
    let base = s.map.0 as usize;
    let first = (s.data as usize + from - base) / s.page * s.page;
    let last = s.data as usize + to - base;
    // SAFETY: a range of our mapping; the kernel allocates the file's
    // blocks behind it and reports a failure instead of faulting.
    let r = unsafe {
        libc::madvise(
            (base + first) as *mut libc::c_void,
            last - first,
            MADV_POPULATE_WRITE,
        )
    };
    r == 0
}

/// Ends the trace with a note saying why, in the room kept for it.
fn end(sh: &Shared, why: &str) {
    if sh.ended.swap(true, Ordering::Relaxed) {
        return;
    }
    let s = settings();
    let mut note = [0u8; NOTE_ROOM];
    let n = super::end_note(&mut note, why, sh.lost.load(Ordering::Relaxed));
    let Some(text) = note.get(..n) else {
        return;
    };
    // After every line placed (or at the room's start, when lines filled
    // the region); its blocks allocated if they can be.
    let at = sh
        .cursor
        .fetch_add(NOTE_ROOM, Ordering::Relaxed)
        .min(s.len - NOTE_ROOM);
    if at + text.len() > sh.allocated.load(Ordering::Acquire) && !populate(s, at, s.len) {
        return;
    }
    // SAFETY: `at..at + text.len()` is past every other writer's bytes
    // (the add above), within the region, its blocks allocated.
    unsafe { ptr::copy_nonoverlapping(text.as_ptr(), s.data.add(at), text.len()) };
}

/// The last detach, or exit: the process that claimed the file's last
/// region cuts the file to what was written (the last to leave of the
/// processes sharing it); unless `exiting`, the mapping goes.
pub fn release(exiting: bool) {
    let s = settings();
    let Some(sh) = shared() else {
        return;
    };
    sh.ended.store(true, Ordering::Relaxed);
    let last = sh.processes.fetch_sub(1, Ordering::AcqRel) == 1;
    if last {
        let used = sh.cursor.load(Ordering::Relaxed).min(s.len);
        // At exit other threads may still be writing: a block or line they
        // took but have not yet counted in `used` lies past it, and a cut
        // there would make their next store a SIGBUS. So, unless this
        // thread is the process's only one, the cut is at what is
        // allocated, with allocation stopped for good (every writer writes
        // only below `allocated`); when allocation cannot be stopped, the
        // file is left uncut.
        let end = if !exiting || alone() {
            Some(used)
        } else if stop_allocating(sh) {
            Some(sh.allocated.load(Ordering::Acquire).clamp(used, s.len))
        } else {
            None
        };
        if let Some(end) = end {
            truncate_if_last(s, s.file_start + end as u64);
        }
    }
    if exiting {
        return;
    }
    // SAFETY: the region's mapping and the shared page, which no hook uses
    // any more.
    unsafe {
        libc::munmap(s.map.0.cast(), s.map.1);
        libc::munmap(s.shared.cast_mut().cast(), core::mem::size_of::<Shared>());
    }
    // SAFETY: see `SetAtAttach`.
    let w = unsafe { &mut *SETTINGS.0.get() };
    w.data = null_mut();
    w.len = 0;
    w.map = (null_mut(), 0);
    w.shared = ptr::null();
}

/// Whether this thread is the process's only one apart from the kernel's
/// io_uring workers (`iou-wrk-*`, `iou-sqp-*`, which never write a trace):
/// at exit, then, no other thread can still be writing.
fn alone() -> bool {
    // SAFETY: no preconditions.
    let me = unsafe { libc::syscall(libc::SYS_gettid) } as u64;
    let mut others = false;
    let whole = crate::proc_dir::each_numbered(c"/proc/self/task", |_, name, tid| {
        others = u64::from(tid) != me && !io_worker(name);
        !others
    });
    whole && !others
}

/// Whether the task named `tid` (digits) is one of the kernel's io_uring
/// threads, by its `comm`.
fn io_worker(tid: &[u8]) -> bool {
    let mut path = [0u8; 48];
    let parts: [&[u8]; 3] = [b"/proc/self/task/", tid, b"/comm\0"];
    let mut at = 0;
    for p in parts {
        let Some(dst) = path.get_mut(at..at + p.len()) else {
            return false;
        };
        dst.copy_from_slice(p);
        at += p.len();
    }
    let Ok(path) = core::ffi::CStr::from_bytes_until_nul(&path) else {
        return false;
    };
    let mut comm = [0u8; 16];
    crate::sysinfo::read_file(path, &mut comm)
        .is_some_and(|n| comm.get(..n).is_some_and(|c| c.starts_with(b"iou-")))
}

/// Takes the allocation for good (at exit): `allocated` grows no more.
/// False when another thread keeps it past the wait, or this one holds it
/// (exit called from a signal handler that interrupted an allocation).
fn stop_allocating(sh: &Shared) -> bool {
    let me = me();
    let mut waited = Waiting::new();
    while sh
        .allocator
        .compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        if sh.allocator.load(Ordering::Relaxed) == me || !waited.again() {
            return false;
        }
    }
    true
}

/// Cuts the file at `end` if no other program claimed a region after ours
/// (its size is still where our region ends).
fn truncate_if_last(s: &Settings, end: u64) {
    // SAFETY: the NUL-terminated path saved at attach.
    let fd = unsafe { libc::open(s.path.as_ptr().cast(), libc::O_RDWR | FLAGS) };
    if fd < 0 {
        return;
    }
    // SAFETY: a zeroed flock is a valid argument once its fields are set.
    let mut lock: libc::flock = unsafe { core::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as _;
    lock.l_whence = libc::SEEK_SET as _;
    if file_identity(fd) == Some(s.id)
        // SAFETY: a valid flock for the whole file; released by `close`.
        && unsafe { libc::fcntl(fd, libc::F_SETLKW, &lock) } == 0
        && super::file_size(fd) == s.file_start + s.len as u64
    {
        // SAFETY: our own descriptor; shrinking never raises SIGXFSZ.
        unsafe { ftruncate(fd, end as _) };
    }
    // SAFETY: our own descriptor, opened above.
    unsafe { libc::close(fd) };
}

/// In a child after fork: it shares the region, and counts among its users.
pub fn forked() {
    if let Some(sh) = shared() {
        sh.processes.fetch_add(1, Ordering::Relaxed);
    }
}

// The binary trace (`crate::trace::binary`) lays the region out itself:
// blocks, not lines, and no text note at the end.

/// The region: its first byte and length.
pub fn region() -> Option<(*mut u8, usize)> {
    shared()?;
    let s = settings();
    Some((s.data, s.len))
}

/// Allocates the region's blocks up to byte `to` (and a slice beyond) if
/// they are not yet; false when they cannot be (the file system is full:
/// the trace then ends, without a note).
pub fn allocated_to(to: usize) -> bool {
    let Some(sh) = shared() else {
        return false;
    };
    let s = settings();
    let to = to.min(s.len);
    to <= sh.allocated.load(Ordering::Acquire) || allocate_to(sh, s, to, false)
}

/// The region holds trace up to byte `to`: the file is cut there at exit.
pub fn used_to(to: usize) {
    if let Some(sh) = shared() {
        sh.cursor.fetch_max(to, Ordering::Relaxed);
    }
}

/// The trace limit given at attach.
pub fn max() -> u64 {
    settings().max
}

#[cfg(test)]
mod tests;
