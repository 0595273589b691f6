// SPDX-License-Identifier: MIT
//! The trace file, written through shared mappings of it: the
//! diagnostics hold no descriptor of it while the program runs.
//!
//! A process appends the file a chunk at a time. A chunk is claimed with
//! one `O_APPEND` write of zeros (atomic against every other writer of the
//! file: this process's other threads, a forked child, another program
//! tracing to the same path), mapped shared, and the descriptor is closed
//! again, all in one call. Trace lines are then copies into the current
//! chunk, at a place reserved with an atomic add; a line never spans two
//! chunks. When a chunk is three quarters full the next one is claimed
//! ahead, so a writer seldom finds the current one full; when it does and
//! another thread is claiming, its line is counted as lost rather than
//! waited for (so a signal handler that interrupted the claimer cannot
//! deadlock). A forked child claims chunks of its own (`forked`).
//!
//! The trace ends, with a note in the room each chunk keeps for it, when it
//! would grow past `LIBURING_TRACE_MAX`, the file size limit
//! (`RLIMIT_FSIZE`: checked before each claim, and `SIGXFSZ` blocked and
//! taken back around it, so the program is never killed for the trace),
//! the space of its file system (the zeros are written, not a sparse hole,
//! so a full disk shows as a short write, never as `SIGBUS` on a store
//! into the mapping), or the address space the program may map.
//!
//! The unused rest of a chunk is filled with spaces ending in a newline
//! when it is left, so the file reads as text (and as JSON); only a process
//! killed outright leaves zeros after its last line.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

use super::{file_identity, write_all, FileId};

/// The first chunk's size; each next one doubles, up to [`LARGEST`].
const FIRST: usize = 16 << 10;
const LARGEST: usize = 16 << 20;
/// Room at the end of every chunk that only the end note may use.
const NOTE_ROOM: usize = 192;
/// Chunks one process may claim: about 4 GiB of trace (a larger
/// `LIBURING_TRACE_MAX`, or none, ends there).
const MAX_CHUNKS: usize = 256;
/// Bytes of zeros one `writev` element provides (untouched `.bss`: it
/// costs no memory).
const ZEROS: usize = 1 << 20;
static ZERO_PAGE: [u8; ZEROS] = [0; ZEROS];

/// One claimed chunk of the file, mapped in this process.
struct Chunk {
    /// Our first byte in the mapping, and how many are ours.
    data: UnsafeCell<*mut u8>,
    len: UnsafeCell<usize>,
    /// The mapping (page-aligned start, length), for `munmap`.
    map: UnsafeCell<(*mut u8, usize)>,
    /// Bytes reserved so far; may run past `len` (those writers move on).
    used: AtomicUsize,
}

// SAFETY: the cells are written only by the thread that holds `GROWING`
// before the chunk is published (Release) through `CURRENT`/`NEXT`, and
// read only after it was loaded from there (Acquire), or at release when
// no writer runs; `used` is atomic. The bytes of the mapping are written
// by whoever reserved them, each range by one thread.
unsafe impl Sync for Chunk {}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const UNUSED: Chunk = Chunk {
    data: UnsafeCell::new(null_mut()),
    len: UnsafeCell::new(0),
    map: UnsafeCell::new((null_mut(), 0)),
    used: AtomicUsize::new(0),
};
static CHUNKS: [Chunk; MAX_CHUNKS] = [UNUSED; MAX_CHUNKS];
/// Chunk descriptors handed out (the next free one's index).
static CLAIMS: AtomicUsize = AtomicUsize::new(0);
static CURRENT: AtomicPtr<Chunk> = AtomicPtr::new(null_mut());
static NEXT: AtomicPtr<Chunk> = AtomicPtr::new(null_mut());
/// Held by the one thread that claims or switches chunks.
static GROWING: AtomicBool = AtomicBool::new(false);
/// The trace has ended (its note written, or no room for one).
static ENDED: AtomicBool = AtomicBool::new(false);
/// Bytes of file this process has claimed, and lines it could not place.
static CLAIMED: AtomicUsize = AtomicUsize::new(0);
static LOST: AtomicUsize = AtomicUsize::new(0);

/// What `attach` learnt of the file: its path (to claim chunks), identity
/// and the limit; whether the trace is JSON (whose first chunk at the
/// file's start begins with `[`).
struct Settings {
    path: [u8; libc::PATH_MAX as usize + 1],
    id: FileId,
    max: usize,
    json: bool,
}

struct SetAtAttach(UnsafeCell<Settings>);

// SAFETY: written by `attach` before any hook can write a trace line
// (first attach of a process or reload), read-only afterwards.
unsafe impl Sync for SetAtAttach {}

static SETTINGS: SetAtAttach = SetAtAttach(UnsafeCell::new(Settings {
    path: [0; libc::PATH_MAX as usize + 1],
    id: FileId::NONE,
    max: 0,
    json: false,
}));

fn settings() -> &'static Settings {
    // SAFETY: see `SetAtAttach`.
    unsafe { &*SETTINGS.0.get() }
}

const FLAGS: i32 = libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_NOFOLLOW;

/// Opens the trace file at attach: created `0600` if new, never through a
/// symbolic link, a regular file only; then closed again. `max`: bytes of
/// trace this process may write. The first chunk is claimed at the first
/// line.
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
    let regular = super::is_regular(fd);
    let id = file_identity(fd);
    // SAFETY: our own descriptor, just opened.
    unsafe { libc::close(fd) };
    let (true, Some(id)) = (regular, id) else {
        return Err("is not a regular file (use LIBURING_TRACE=stderr for a stream)");
    };
    // SAFETY: see `SetAtAttach`: no hook runs yet.
    let s = unsafe { &mut *SETTINGS.0.get() };
    s.path = [0; libc::PATH_MAX as usize + 1];
    if let Some(dst) = s.path.get_mut(..bytes.len()) {
        dst.copy_from_slice(bytes);
    }
    s.id = id;
    s.max = usize::try_from(max).unwrap_or(usize::MAX);
    s.json = json;
    ENDED.store(false, Ordering::Relaxed);
    LOST.store(0, Ordering::Relaxed);
    Ok(())
}

/// Whether lines still go into the file.
pub fn open() -> bool {
    !ENDED.load(Ordering::Relaxed)
}

/// Appends `bytes` (a line, or an event) as one piece; false when it could
/// not be placed (counted as lost).
pub fn write(bytes: &[u8]) -> bool {
    place(bytes).is_some()
}

/// Appends `bytes` and returns where they are, for [`rewrite`] (a summary
/// block); `None` when they could not be placed.
pub fn append_block(bytes: &[u8]) -> Option<BlockAt> {
    place(bytes).map(BlockAt)
}

/// A placed block's bytes in the mapping (valid until release).
#[derive(Clone, Copy)]
pub struct BlockAt(*mut u8);

/// Overwrites a block placed by [`append_block`] with `bytes` of the same
/// length (its ring's record is this thread's alone meanwhile).
pub fn rewrite(at: BlockAt, bytes: &[u8]) {
    // SAFETY: `at` addresses `bytes.len()` bytes of a chunk reserved for
    // this block, mapped until release (at which no hook runs).
    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), at.0, bytes.len()) };
}

fn place(bytes: &[u8]) -> Option<*mut u8> {
    if ENDED.load(Ordering::Relaxed) {
        return None;
    }
    let n = bytes.len();
    for _ in 0..2 {
        let c = CURRENT.load(Ordering::Acquire);
        // SAFETY: a published chunk (see `Chunk`), or null.
        if let Some(c) = unsafe { c.as_ref() } {
            // SAFETY: published with Release before `CURRENT` pointed here.
            let (data, len) = unsafe { (*c.data.get(), *c.len.get()) };
            let room = len - NOTE_ROOM;
            let at = c.used.fetch_add(n, Ordering::Relaxed);
            if at + n <= room {
                // SAFETY: `at..at + n` of this chunk is ours alone (the
                // add above), inside its mapping.
                let dst = unsafe { data.add(at) };
                // SAFETY: as above.
                unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), dst, n) };
                if at + n > room / 4 * 3 {
                    claim_ahead();
                }
                return Some(dst);
            }
            if at < room {
                // The writer that crossed the end closes the chunk.
                // SAFETY: `at..len` is now ours (every later add is past it).
                unsafe { pad(data.add(at), len - at) };
            }
        }
        if !switch_chunk(c) {
            break;
        }
    }
    LOST.fetch_add(1, Ordering::Relaxed);
    None
}

/// Fills `len` bytes at `at` with spaces ending in a newline.
///
/// # Safety
/// `at..at + len` is mapped and this thread's alone.
unsafe fn pad(at: *mut u8, len: usize) {
    if len == 0 {
        return;
    }
    // SAFETY: per the caller.
    unsafe {
        ptr::write_bytes(at, b' ', len - 1);
        at.add(len - 1).write(b'\n');
    }
}

/// Claims the next chunk while the current one still has room.
fn claim_ahead() {
    if !NEXT.load(Ordering::Relaxed).is_null() || GROWING.swap(true, Ordering::Acquire) {
        return;
    }
    if NEXT.load(Ordering::Relaxed).is_null() && !ENDED.load(Ordering::Relaxed) {
        let next = claim();
        NEXT.store(next, Ordering::Release);
    }
    GROWING.store(false, Ordering::Release);
}

/// Moves on from the full chunk `full` (null: none yet): to the chunk
/// claimed ahead, or a new one. False when another thread is doing it, or
/// the trace has ended.
fn switch_chunk(full: *mut Chunk) -> bool {
    if ENDED.load(Ordering::Relaxed) || GROWING.swap(true, Ordering::Acquire) {
        return false;
    }
    if CURRENT.load(Ordering::Relaxed) == full {
        let mut next = NEXT.swap(null_mut(), Ordering::Acquire);
        if next.is_null() {
            next = claim();
        }
        if !next.is_null() {
            CURRENT.store(next, Ordering::Release);
        }
    }
    GROWING.store(false, Ordering::Release);
    !CURRENT.load(Ordering::Relaxed).is_null() && !ENDED.load(Ordering::Relaxed)
}

/// Claims a chunk at the end of the file (the caller holds `GROWING`), or
/// ends the trace and returns null.
fn claim() -> *mut Chunk {
    let s = settings();
    let index = CLAIMS.load(Ordering::Relaxed);
    let Some(chunk) = CHUNKS.get(index) else {
        end("it reached its largest size");
        return null_mut();
    };
    let claimed = CLAIMED.load(Ordering::Relaxed);
    let want = (FIRST << index.min(10)).min(LARGEST);
    let len = want.min(s.max.saturating_sub(claimed));
    if len < NOTE_ROOM * 4 {
        end("LIBURING_TRACE_MAX reached");
        return null_mut();
    }
    match claim_bytes(s, len) {
        Ok((data, got, map)) => {
            // SAFETY: this chunk descriptor is not published yet: ours.
            unsafe {
                *chunk.data.get() = data;
                *chunk.len.get() = got;
                *chunk.map.get() = map;
            }
            chunk.used.store(0, Ordering::Relaxed);
            CLAIMS.store(index + 1, Ordering::Relaxed);
            CLAIMED.store(claimed + got, Ordering::Relaxed);
            ptr::from_ref(chunk).cast_mut()
        }
        Err(why) => {
            end(why);
            null_mut()
        }
    }
}

/// Appends `len` zero bytes to the file and maps them: (our first byte,
/// how many, the mapping).
fn claim_bytes(s: &Settings, len: usize) -> Result<(*mut u8, usize, (*mut u8, usize)), &'static str> {
    // SAFETY: the NUL-terminated path saved at attach.
    let fd = unsafe { libc::open(s.path.as_ptr().cast(), libc::O_RDWR | libc::O_APPEND | FLAGS) };
    if fd < 0 {
        return Err("its file cannot be opened any more");
    }
    let r = claim_on(fd, s, len);
    // SAFETY: our own descriptor, opened above; mappings outlive it.
    unsafe { libc::close(fd) };
    r
}

fn claim_on(fd: i32, s: &Settings, len: usize) -> Result<(*mut u8, usize, (*mut u8, usize)), &'static str> {
    if file_identity(fd) != Some(s.id) {
        return Err("its file was replaced or removed");
    }
    let size = super::file_size(fd);
    let mut len = len as u64;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills one struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut lim) } == 0
        && lim.rlim_cur != libc::RLIM_INFINITY
    {
        len = len.min((lim.rlim_cur as u64).saturating_sub(size));
    }
    if len < (NOTE_ROOM * 4) as u64 {
        return Err("the file size limit (RLIMIT_FSIZE) is reached");
    }
    let len = len as usize;
    // One writev of zeros: one append, however many elements.
    let mut iov = [libc::iovec {
        iov_base: ZERO_PAGE.as_ptr().cast_mut().cast(),
        iov_len: 0,
    }; LARGEST / ZEROS];
    let mut left = len;
    let mut count = 0;
    for v in iov.iter_mut() {
        if left == 0 {
            break;
        }
        v.iov_len = left.min(ZEROS);
        left -= v.iov_len;
        count += 1;
    }
    // A write past the limit (another writer raced us) raises SIGXFSZ:
    // blocked for the call and taken back, so it only shortens the write.
    let written = super::with_signal_blocked(libc::SIGXFSZ, || {
        // SAFETY: `count` elements of `iov`, each within ZERO_PAGE (read).
        unsafe { libc::writev(fd, iov.as_ptr(), count) }
    });
    if written <= 0 {
        return Err("no space is left for it (its file system is full, or the file size limit is reached)");
    }
    let got = written as usize;
    // With O_APPEND the offset now is the end of what this call wrote.
    let end = super::file_offset(fd);
    let start = end.saturating_sub(got as u64);
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
    let map_start = start - start % page;
    let map_len = (end - map_start) as usize;
    // SAFETY: a shared mapping of bytes of the file that exist (written
    // just above), at a page-aligned offset.
    let p = unsafe {
        super::mmap_file(map_len, fd, map_start)
    };
    if p == libc::MAP_FAILED {
        // Leave spaces where the zeros are.
        super::pad_file(fd, start, got);
        return Err("it cannot be mapped (the address space limit, or a file system without shared mappings)");
    }
    let p = p.cast::<u8>();
    // SAFETY: `start - map_start` is within the mapping just made.
    let data = unsafe { p.add((start - map_start) as usize) };
    if start == 0 && s.json && got > 2 {
        // The file's first chunk opens the JSON array.
        // SAFETY: our chunk's first two bytes, not yet published.
        unsafe { ptr::copy_nonoverlapping(b"[\n".as_ptr(), data, 2) };
        return Ok((
            // SAFETY: past the two bytes just written, within the chunk.
            unsafe { data.add(2) },
            got - 2,
            (p, map_len),
        ));
    }
    Ok((data, got, (p, map_len)))
}

/// Ends the trace with a note saying why (in the current chunk's room).
fn end(why: &str) {
    if ENDED.swap(true, Ordering::Relaxed) {
        return;
    }
    let mut note = [0u8; NOTE_ROOM];
    let n = super::end_note(&mut note, why, LOST.load(Ordering::Relaxed));
    let Some(text) = note.get(..n) else {
        return;
    };
    let c = CURRENT.load(Ordering::Acquire);
    // SAFETY: a published chunk, or null.
    let Some(c) = (unsafe { c.as_ref() }) else {
        append_directly(text);
        return;
    };
    // SAFETY: published before `CURRENT` pointed here.
    let (data, len) = unsafe { (*c.data.get(), *c.len.get()) };
    // Past every normal line: the note room is the chunk's last bytes.
    let at = c.used.fetch_add(len, Ordering::Relaxed).min(len - NOTE_ROOM);
    if at + text.len() <= len {
        // SAFETY: `at..len`: lines stop at `len - NOTE_ROOM`, and the add
        // above moved every later writer past `len`.
        unsafe {
            ptr::copy_nonoverlapping(text.as_ptr(), data.add(at), text.len());
            pad(data.add(at + text.len()), len - at - text.len());
        }
    }
}

/// The unused rest of the claimed chunks becomes spaces (last detach, or
/// exit); unless `exiting`, the mappings go too.
pub fn release(exiting: bool) {
    let claims = CLAIMS.load(Ordering::Relaxed).min(MAX_CHUNKS);
    for c in CHUNKS.iter().take(claims) {
        // SAFETY: claimed chunks' descriptors, published; at release no
        // hook writes (unless exiting, where a late line may be cut).
        let (data, len, map) = unsafe { (*c.data.get(), *c.len.get(), *c.map.get()) };
        let at = c.used.fetch_add(len + NOTE_ROOM, Ordering::Relaxed);
        if at < len {
            // SAFETY: `at..len` is reserved now and mapped.
            unsafe { pad(data.add(at), len - at) };
        }
        if !exiting {
            // SAFETY: our mapping, which no hook uses any more.
            unsafe { libc::munmap(map.0.cast(), map.1) };
        }
    }
    if !exiting {
        CURRENT.store(null_mut(), Ordering::Relaxed);
        NEXT.store(null_mut(), Ordering::Relaxed);
        CLAIMS.store(0, Ordering::Relaxed);
        CLAIMED.store(0, Ordering::Relaxed);
    }
    ENDED.store(true, Ordering::Relaxed);
}

/// In a child after fork: chunks of its own from now on (the parent goes
/// on filling the ones it has). The inherited mappings stay, unused.
pub fn forked() {
    CURRENT.store(null_mut(), Ordering::Relaxed);
    NEXT.store(null_mut(), Ordering::Relaxed);
    GROWING.store(false, Ordering::Relaxed);
}

/// Writes `bytes` at the end of the file through a short-lived descriptor
/// (the JSON end event at the last detach, when no chunk has room).
pub fn append_directly(bytes: &[u8]) {
    let s = settings();
    // SAFETY: the NUL-terminated path saved at attach.
    let fd = unsafe { libc::open(s.path.as_ptr().cast(), libc::O_WRONLY | libc::O_APPEND | FLAGS) };
    if fd < 0 {
        return;
    }
    if file_identity(fd) == Some(s.id) {
        super::with_signal_blocked(libc::SIGXFSZ, || write_all(fd, bytes));
    }
    // SAFETY: our own descriptor.
    unsafe { libc::close(fd) };
}
