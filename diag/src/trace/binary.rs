// SPDX-License-Identifier: MIT
//! The binary trace (`LIBURING_TRACE_FORMAT=binary`, or a file name ending
//! in `.utrace`): fixed-size records ([`format`]) copied into the trace
//! file's mapping while the program runs, decoded afterwards by
//! `uring-info trace`. Nothing is formatted, looked up by name or
//! allocated on the way, so a NOP round trip costs at most three times its
//! untraced instructions (`make bench-calls` holds it there).
//!
//! Each thread writes into a block of the region of its own, found by its
//! `pthread_self` in a small table ([`THREADS`]) without a lock: a record
//! is a copy and an add. A thread takes a new block (one atomic add on the
//! region's block counter, then its kernel id and name into the block's
//! head) when its block is full. With `LIBURING_TRACE_MAX` given, the
//! region is a ring of blocks: the oldest block no thread holds is reused.
//!
//! Each hook reads the clock once, for all the records it writes. Per ring
//! the trace keeps only its SQ and CQ cursors ([`RINGS`]): which request is
//! in flight, how long requests took, and what a program that was killed
//! was waiting for are worked out by the decoder.
//!
//! A signal handler that interrupts a writer and calls the library finds
//! its thread's block in use and drops its records (counted as lost in the
//! region's head); a forked child takes blocks of its own.

mod fatal;
mod snapshot;

use crate::quiet_copy::copy_quietly;
use core::cell::UnsafeCell;
use core::ptr;
use core::sync::atomic::{compiler_fence, AtomicBool, AtomicU32, AtomicU8, AtomicUsize, Ordering};

use super::format::{self, block, head, kind, Record};
use crate::memory::MAX_RINGS;
use crate::output::trace_file;
use crate::structs::{io_uring, io_uring_sq};
use crate::uapi::*;
use uring_core::observe::{self, Caller, CompleteSide, SubmitSide};

/// The region as laid out at attach, read-only until release.
struct Layout {
    /// The region's head (8-byte aligned) and its first block.
    head: *mut u8,
    blocks_at: *mut u8,
    blocks: u32,
    wraps: bool,
}

struct SetAtAttach(UnsafeCell<Layout>);

// SAFETY: written only by `attach` and `release`, when no hook can run
// (see lib.rs), read-only in between. The region's bytes are written by
// the thread holding each block; the head's counters are atomic.
unsafe impl Sync for SetAtAttach {}

static LAYOUT: SetAtAttach = SetAtAttach(UnsafeCell::new(Layout {
    head: ptr::null_mut(),
    blocks_at: ptr::null_mut(),
    blocks: 0,
    wraps: false,
}));

fn layout() -> &'static Layout {
    // SAFETY: see `SetAtAttach`.
    unsafe { &*LAYOUT.0.get() }
}

/// The binary trace is on.
static ON: AtomicBool = AtomicBool::new(false);

#[inline(always)]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// An atomic u32 of the mapped region at `p`.
///
/// # Safety
/// `p` is 4-aligned, inside the region, which stays mapped until release.
unsafe fn word(p: *mut u8) -> &'static AtomicU32 {
    // SAFETY: per the caller; the word is only ever accessed atomically.
    unsafe { AtomicU32::from_ptr(p.cast()) }
}

/// Lays out the region the trace file claimed: writes its head. False
/// when it has no room for one block.
pub fn attach() -> bool {
    let Some((data, len)) = trace_file::region() else {
        return false;
    };
    // The region may start anywhere in the file: its head goes at the
    // first 8-byte boundary (the mapping is page-aligned, so addresses and
    // file offsets agree modulo 8).
    let pad = (8 - data as usize % 8) % 8;
    let room = len.saturating_sub(pad + format::HEAD_BYTES);
    let blocks = (room / format::BLOCK_BYTES).min(u32::MAX as usize);
    if blocks == 0 || !trace_file::allocated_to(pad + format::HEAD_BYTES) {
        return false;
    }
    // SAFETY: `pad + HEAD_BYTES <= len`: inside the region.
    let h = unsafe { data.add(pad) };
    let wraps = wraps_asked();
    let mut bytes = [0u8; format::HEAD_BYTES];
    fn put_at(bytes: &mut [u8], at: usize, v: &[u8]) {
        if let Some(d) = bytes.get_mut(at..at + v.len()) {
            d.copy_from_slice(v);
        }
    }
    let mut put = |at: usize, v: &[u8]| put_at(&mut bytes, at, v);
    put(head::MAGIC, &format::MAGIC);
    put(head::VERSION, &format::VERSION.to_ne_bytes());
    put(head::ORDER, &format::ORDER.to_ne_bytes());
    for (i, n) in [
        format::HEAD_BYTES,
        format::BLOCK_BYTES,
        format::BLOCK_HEAD_BYTES,
        format::RECORD_BYTES,
    ]
    .iter()
    .enumerate()
    {
        put(head::SIZES + 4 * i, &(*n as u32).to_ne_bytes());
    }
    put(
        head::REGION_BYTES,
        &((format::HEAD_BYTES + blocks * format::BLOCK_BYTES) as u64).to_ne_bytes(),
    );
    put(head::BLOCKS, &(blocks as u32).to_ne_bytes());
    put(
        head::FLAGS,
        &(if wraps { format::WRAPS } else { 0 }).to_ne_bytes(),
    );
    // SAFETY: no preconditions.
    put(head::PID, &(unsafe { libc::getpid() } as u32).to_ne_bytes());
    let digest = format::digest(bytes.get(..head::CHECKED).unwrap_or(&[]));
    let mut put = |at: usize, v: &[u8]| put_at(&mut bytes, at, v);
    put(head::DIGEST, &digest.to_ne_bytes());
    let (ticks0, mono0, rate) = calibrate();
    put(head::START_MONO, &mono0.to_ne_bytes());
    put(head::TICKS0, &ticks0.to_ne_bytes());
    put(head::RATE, &rate.to_ne_bytes());
    put(head::START_REAL, &clock(libc::CLOCK_REALTIME).to_ne_bytes());
    // Where a reader with ptrace access to this process finds each live
    // ring's address (`RingSlot::ring`), and in it the SQ's own words.
    put(
        head::RINGS_AT,
        &(ptr::addr_of!(RINGS[0].ring) as usize as u64).to_ne_bytes(),
    );
    put(
        head::RINGS_STRIDE,
        &(core::mem::size_of::<RingSlot>() as u32).to_ne_bytes(),
    );
    put(head::RINGS_COUNT, &(MAX_RINGS as u32).to_ne_bytes());
    put(
        head::ADDRESS_BYTES,
        &(core::mem::size_of::<usize>() as u32).to_ne_bytes(),
    );
    put(head::SQE_HEAD_AT, &(SQE_HEAD_AT as u32).to_ne_bytes());
    let mut name = [0u8; 17];
    thread_name(&mut name);
    put(head::PROGRAM, name.get(..16).unwrap_or(&[]));
    // SAFETY: HEAD_BYTES of the region from `h`, allocated above.
    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), h, bytes.len()) };
    trace_file::used_to(pad + format::HEAD_BYTES);
    // SAFETY: see `SetAtAttach`: no hook runs yet.
    let l = unsafe { &mut *LAYOUT.0.get() };
    l.head = h;
    // SAFETY: within the region, as above.
    l.blocks_at = unsafe { h.add(format::HEAD_BYTES) };
    l.blocks = blocks as u32;
    l.wraps = wraps;
    for t in THREADS.iter() {
        t.reset();
    }
    for r in RINGS.iter() {
        r.ring.store(0, Ordering::Relaxed);
    }
    ON.store(true, Ordering::Relaxed);
    fatal::install();
    snapshot::arm();
    true
}

/// `LIBURING_TRACE_MAX` was given (not 0): keep the newest events.
fn wraps_asked() -> bool {
    // SAFETY: getenv with a NUL-terminated name, at attach.
    let v = unsafe { libc::getenv(c"LIBURING_TRACE_MAX".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    !v.is_null() && !matches!(unsafe { *v } as u8, 0 | b'0')
}

/// The last detach: nothing is written any more (the region is unmapped
/// by the trace file's release, unless exiting).
pub fn release(exiting: bool) {
    if !exiting {
        fatal::uninstall();
        snapshot::uninstall();
        ON.store(false, Ordering::Relaxed);
        // SAFETY: see `SetAtAttach`: no hook runs any more.
        let l = unsafe { &mut *LAYOUT.0.get() };
        l.head = ptr::null_mut();
        l.blocks = 0;
    }
}

/// In a forked child: its threads take blocks of their own (the parent's
/// threads keep writing into theirs).
pub fn forked() {
    for t in THREADS.iter() {
        t.reset();
    }
}

fn clock(id: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-parameter (the vDSO: no system call).
    unsafe { libc::clock_gettime(id, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// The TSC is the records' clock (x86-64 only; decided at attach by
/// [`tsc_usable`], before any hook runs).
static TSC: AtomicBool = AtomicBool::new(false);

/// The records' clock: on x86-64 the time stamp counter when it is
/// usable (one `rdtsc`, a compiler intrinsic: no call, nothing kept in
/// saved registers), else CLOCK_MONOTONIC in ns (the vDSO: no system
/// call). The decoder converts ticks with the rate measured at attach
/// ([`calibrate`]).
#[inline(always)]
fn now_ns() -> u64 {
    #[cfg(target_arch = "x86_64")]
    if TSC.load(Ordering::Relaxed) {
        // SAFETY: RDTSC has no memory operands; every x86-64 CPU has it,
        // and `tsc_usable` found it allowed to user space (PR_GET_TSC).
        return unsafe { core::arch::x86_64::_rdtsc() };
    }
    clock(libc::CLOCK_MONOTONIC)
}

/// Whether the TSC can stand for time: the CPU says it is invariant
/// (CPUID 0x8000_0007 EDX bit 8, what Linux shows as `constant_tsc` and
/// `nonstop_tsc`: one rate whatever the frequency or sleep state, so the
/// rate measured at attach holds; the kernel keeps the cores' counters in
/// step, or a decoded time is off by their skew), and this process may
/// read it (`PR_GET_TSC`; a process set to fault on it would be killed by
/// our read). Without both the records take CLOCK_MONOTONIC: a varying
/// rate would make the attach-time calibration wrong. Asked with an instruction and a
/// `prctl`: no descriptor, no allocation. (A program that turns the TSC
/// off for itself after attach, `PR_SET_TSC`, is not foreseen.)
#[cfg(target_arch = "x86_64")]
fn tsc_usable() -> bool {
    use core::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86-64 CPU; the extended leaf is
    // asked only when the CPU reports it. (A safe function since Rust
    // 1.87; unsafe for the MSRV.)
    #[allow(unused_unsafe)]
    let invariant = unsafe {
        __cpuid(0x8000_0000).eax >= 0x8000_0007 && __cpuid(0x8000_0007).edx & (1 << 8) != 0
    };
    let mut state: libc::c_int = 0;
    // SAFETY: PR_GET_TSC writes one int through the pointer.
    let asked = unsafe { libc::prctl(libc::PR_GET_TSC, &mut state as *mut libc::c_int) } == 0;
    invariant && asked && state == libc::PR_TSC_ENABLE
}

#[cfg(not(target_arch = "x86_64"))]
fn tsc_usable() -> bool {
    false
}

/// The records' clock against CLOCK_MONOTONIC: (its reading, the
/// monotonic time then, ns per tick times 2^32), the TSC's rate measured
/// over about 200 us at attach (the monotonic clock itself: 1 ns per
/// tick).
fn calibrate() -> (u64, u64, u64) {
    let _errno = crate::output::SavedErrno::save();
    TSC.store(tsc_usable(), Ordering::Relaxed);
    if !TSC.load(Ordering::Relaxed) {
        let m = clock(libc::CLOCK_MONOTONIC);
        return (m, m, 1 << 32);
    }
    // The first read of the monotonic clock is slow (the vDSO's page
    // faulted in): measured here without it, a 200 us window came out
    // 3.5% short.
    clock(libc::CLOCK_MONOTONIC);
    let (t0, m0) = tick_and_time();
    let (mut t1, mut m1) = (t0, m0);
    while m1.saturating_sub(m0) < 200_000 {
        (t1, m1) = tick_and_time();
    }
    let ticks = t1.saturating_sub(t0).max(1);
    let rate = ((u128::from(m1 - m0) << 32) / u128::from(ticks)).min(u128::from(u64::MAX)) as u64;
    (t0, m0, rate)
}

/// A tick count and the monotonic time at once: the monotonic read
/// between two tick reads, matched with their middle, the closest of a
/// few tries (an interrupt between the reads would skew the pair).
fn tick_and_time() -> (u64, u64) {
    let mut best = (u64::MAX, 0, 0);
    for _ in 0..4 {
        let before = now_ns();
        let m = clock(libc::CLOCK_MONOTONIC);
        let after = now_ns();
        let spread = after.wrapping_sub(before);
        if spread < best.0 {
            best = (spread, before.wrapping_add(spread / 2), m);
        }
    }
    (best.1, best.2)
}

/// The calling thread's name (`PR_GET_NAME`: 16 bytes, NUL-terminated).
fn thread_name(buf: &mut [u8; 17]) {
    // SAFETY: PR_GET_NAME writes at most 16 bytes into `buf`.
    unsafe { libc::prctl(libc::PR_GET_NAME, buf.as_mut_ptr()) };
}

// ---------------------------------------------------------------------------
// Threads and their blocks
// ---------------------------------------------------------------------------

/// Threads followed at once (more are found by probing, up to
/// `PROBE` slots from their own; a thread that finds none writes nothing).
const THREAD_SLOTS: usize = 256;
const PROBE: usize = 8;

/// One thread's place: its block and where its next record goes. Written
/// by that thread only (relaxed atomics: plain moves), but for claiming
/// the slot.
struct ThreadSlot {
    /// `pthread_self` of the thread, 0 when free.
    owner: AtomicUsize,
    /// Its kernel id (for finding a slot whose thread is gone).
    tid: AtomicU32,
    /// Its block's index plus one (0: none yet).
    block: AtomicU32,
    /// The address of its next record, and the end of its block (0 while
    /// the thread is writing: a signal handler that interrupted it then
    /// takes a block of its own).
    next: AtomicUsize,
    end: AtomicUsize,
}

impl ThreadSlot {
    fn reset(&self) {
        self.owner.store(0, Ordering::Relaxed);
        self.clear();
    }

    fn clear(&self) {
        self.block.store(0, Ordering::Relaxed);
        self.next.store(0, Ordering::Relaxed);
        self.end.store(0, Ordering::Relaxed);
    }
}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const FREE_THREAD: ThreadSlot = ThreadSlot {
    owner: AtomicUsize::new(0),
    tid: AtomicU32::new(0),
    block: AtomicU32::new(0),
    next: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
};
static THREADS: [ThreadSlot; THREAD_SLOTS] = [FREE_THREAD; THREAD_SLOTS];

/// The calling thread, as its slot knows it: `pthread_self`, a plain
/// call (glibc and musl return the thread's control block, read from the
/// thread pointer). Unique among live threads, never 0.
#[inline(always)]
fn me() -> usize {
    // SAFETY: no preconditions.
    (unsafe { libc::pthread_self() }) as usize
}

#[inline(always)]
fn home(me: usize) -> usize {
    (me.wrapping_mul(0x9e37_79b9) >> 12) % THREAD_SLOTS
}

/// This thread's right to write into its block, for one hook call.
struct Writer {
    slot: &'static ThreadSlot,
    /// Where the next record goes and where the block ends (0, 0: no
    /// block).
    next: usize,
    end: usize,
    block: u32,
    /// A signal handler interrupted this thread's writer (the slot's
    /// next record was taken out): this one writes into a block of its
    /// own, given back at the end, and leaves the slot alone.
    nested: bool,
}

impl Writer {
    /// The calling thread's writer (None: no slot is left).
    #[inline(always)]
    fn get() -> Option<Writer> {
        let me = me();
        let slot = THREADS.get(home(me))?;
        if slot.owner.load(Ordering::Relaxed) != me {
            return Writer::find(me);
        }
        Some(Writer::enter(slot))
    }

    #[inline(always)]
    fn enter(slot: &'static ThreadSlot) -> Writer {
        // Taken out of the slot: a signal handler that runs meanwhile on
        // this thread finds none and takes a block of its own.
        let next = slot.next.swap(0, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        let end = slot.end.load(Ordering::Relaxed);
        // A slot holds either both (a block) or neither: a next record
        // taken out of a block means an interrupted writer.
        let nested = next == 0 && end != 0;
        Writer {
            slot,
            next,
            end: if nested { 0 } else { end },
            block: if nested {
                0
            } else {
                slot.block.load(Ordering::Relaxed)
            },
            nested,
        }
    }

    /// A thread away from its home slot, or new.
    #[cold]
    #[inline(never)]
    fn find(me: usize) -> Option<Writer> {
        let _errno = crate::output::SavedErrno::save();
        let at = home(me);
        let candidates = (0..PROBE).filter_map(|k| THREADS.get((at + k) % THREAD_SLOTS));
        for slot in candidates.clone() {
            if slot.owner.load(Ordering::Relaxed) == me {
                return Some(Writer::enter(slot));
            }
        }
        // SAFETY: no preconditions.
        let tid = unsafe { libc::syscall(libc::SYS_gettid) } as u32;
        for slot in candidates.clone() {
            if slot
                .owner
                .compare_exchange(0, me, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                slot.tid.store(tid, Ordering::Relaxed);
                slot.clear();
                return Some(Writer::enter(slot));
            }
        }
        // All taken: a slot whose thread has exited is given over.
        // SAFETY: no preconditions.
        let pid = unsafe { libc::getpid() };
        for slot in candidates {
            let old = slot.owner.load(Ordering::Relaxed);
            let old_tid = slot.tid.load(Ordering::Relaxed) as i32;
            // SAFETY: signal 0 only checks that the thread exists.
            let gone = unsafe { libc::syscall(libc::SYS_tgkill, pid, old_tid, 0) } != 0
                // SAFETY: the thread's errno location is always valid.
                && unsafe { *libc::__errno_location() } == libc::ESRCH;
            if gone
                && slot
                    .owner
                    .compare_exchange(old, me, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                give_back(slot.block.load(Ordering::Relaxed));
                slot.tid.store(tid, Ordering::Relaxed);
                slot.clear();
                return Some(Writer::enter(slot));
            }
        }
        lost();
        None
    }

    /// Appends one record (its kind stored last).
    #[inline(always)]
    fn put(&mut self, r: Record) {
        if (self.next == self.end || self.next == 0) && !self.next_block() {
            lost();
            return;
        }
        let p = self.next as *mut u8;
        let body = Record { kind: 0, ..r };
        // SAFETY: `next < end`: a record's room in this thread's block,
        // which is mapped until release and written by this thread alone.
        unsafe { ptr::write_unaligned(p.cast::<Record>(), body) };
        // SAFETY: as above; the kind byte last, so a reader (or the file a
        // killed writer leaves) sees the record whole or not at all.
        unsafe { AtomicU8::from_ptr(p) }.store(r.kind, Ordering::Release);
        self.next += format::RECORD_BYTES;
    }

    /// Gives up the full block and takes the next; false when none is left.
    #[cold]
    #[inline(never)]
    fn next_block(&mut self) -> bool {
        let _errno = crate::output::SavedErrno::save();
        give_back(self.block);
        self.block = 0;
        self.next = 0;
        self.end = 0;
        let l = layout();
        if l.head.is_null() || !trace_file::open() {
            return false;
        }
        // SAFETY: the head's counter, 4-aligned, mapped until release.
        let next = unsafe { word(l.head.add(head::NEXT_SEQ)) };
        // A held block (a thread's that is still filling it) is passed
        // over when the ring comes round to it; a few tries at most.
        for _ in 0..8 {
            let seq = next.fetch_add(1, Ordering::Relaxed);
            if seq >= l.blocks && !l.wraps {
                // The region is full: the trace stops (kept from counting
                // on and wrapping the counter).
                next.store(l.blocks, Ordering::Relaxed);
                return false;
            }
            let index = (seq % l.blocks) as usize;
            let end = (index + 1) * format::BLOCK_BYTES;
            let offset = l.blocks_at as usize - trace_region_start();
            if !trace_file::allocated_to(offset + end) {
                return false;
            }
            // SAFETY: block `index < blocks` of the region, allocated.
            let b = unsafe { l.blocks_at.add(index * format::BLOCK_BYTES) };
            // SAFETY: the block head's words, 4-aligned, mapped.
            let (seq_word, owner) = unsafe { (word(b.add(block::SEQ)), word(b.add(block::OWNER))) };
            if owner
                .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            seq_word.store(0, Ordering::Relaxed);
            compiler_fence(Ordering::SeqCst);
            if seq >= l.blocks {
                // Reused: its old records go first.
                // SAFETY: the block's records, this thread's now.
                unsafe {
                    ptr::write_bytes(
                        b.add(format::BLOCK_HEAD_BYTES),
                        0,
                        format::BLOCK_BYTES - format::BLOCK_HEAD_BYTES,
                    )
                };
            }
            let mut name = [0u8; 17];
            thread_name(&mut name);
            // SAFETY: no preconditions.
            let (tid, pid) = unsafe {
                (
                    libc::syscall(libc::SYS_gettid) as u32,
                    libc::getpid() as u32,
                )
            };
            // SAFETY: the block head's plain fields, this thread's now.
            unsafe {
                ptr::write_unaligned(b.add(block::TID).cast::<u32>(), tid);
                ptr::write_unaligned(b.add(block::PID).cast::<u32>(), pid);
                ptr::copy_nonoverlapping(name.as_ptr(), b.add(block::NAME), 16);
            }
            self.slot.tid.store(tid, Ordering::Relaxed);
            // Its records are to be read from now on.
            seq_word.store(seq.wrapping_add(1).max(1), Ordering::Release);
            trace_file::used_to(offset + end);
            self.block = index as u32 + 1;
            self.next = b as usize + format::BLOCK_HEAD_BYTES;
            // The last record's room ends the block exactly.
            self.end = self.next + format::RECORDS_PER_BLOCK * format::RECORD_BYTES;
            return true;
        }
        false
    }
}

/// Where the trace file's region starts (the head may be a few bytes in).
fn trace_region_start() -> usize {
    trace_file::region().map_or(0, |(d, _)| d as usize)
}

/// A block a thread held is free for reuse (flight recorder).
fn give_back(block_plus_one: u32) {
    let l = layout();
    if block_plus_one == 0 || l.head.is_null() || block_plus_one > l.blocks {
        return;
    }
    let index = (block_plus_one - 1) as usize;
    // SAFETY: the block's owner word, inside the region, mapped.
    let owner = unsafe { word(l.blocks_at.add(index * format::BLOCK_BYTES + block::OWNER)) };
    owner.store(0, Ordering::Release);
}

impl Drop for Writer {
    #[inline(always)]
    fn drop(&mut self) {
        if self.nested {
            give_back(self.block);
            return;
        }
        self.slot.block.store(self.block, Ordering::Relaxed);
        self.slot.end.store(self.end, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        self.slot.next.store(self.next, Ordering::Relaxed);
    }
}

/// A record that could not be written.
#[cold]
fn lost() {
    let l = layout();
    if !l.head.is_null() {
        // SAFETY: the head's counter, 4-aligned, mapped until release.
        unsafe { word(l.head.add(head::LOST)) }.fetch_add(1, Ordering::Relaxed);
    }
}

// ---------------------------------------------------------------------------
// Rings
// ---------------------------------------------------------------------------

/// One ring's cursors. The SQ side is touched by its submitter only, the
/// CQ side by its reaper only (liburing's rules), so relaxed loads and
/// stores of each word suffice; two reapers at once could log a CQE twice.
struct RingSlot {
    /// The C caller's ring pointer (identity only), 0 when free.
    ring: AtomicUsize,
    sq_cursor: AtomicU32,
    cq_cursor: AtomicU32,
    setup_flags: AtomicU32,
    /// `cq_overflow` last seen, and the overflow flag last seen set.
    dropped: AtomicU32,
    flagged: AtomicBool,
    /// Where the plain path finds the ring's words and entries.
    plain: PlainGeometry,
}

/// A plain ring's (no setup flag of [`NOT_PLAIN`]) kernel words and
/// entry arrays, as addresses read from its `struct io_uring` when it was
/// made or changed, so that [`submitted`] reads them without looking
/// through the ring's pointers and testing each for null. `sqes` 0: the
/// ring takes the general path. The masks are one less than the entries
/// (checked when noted), so a masked position is inside its array.
struct PlainGeometry {
    sq_khead: AtomicUsize,
    sq_kflags: AtomicUsize,
    sqes: AtomicUsize,
    sq_mask: AtomicU32,
    cq_khead: AtomicUsize,
    cq_ktail: AtomicUsize,
    cqes: AtomicUsize,
    cq_mask: AtomicU32,
}

impl PlainGeometry {
    /// Notes `ring`'s addresses, or that it is not plain.
    fn note(&self, ring: &io_uring) {
        let (sq, cq) = (&ring.sq, &ring.cq);
        let words = [sq.khead, sq.kflags, cq.khead, cq.ktail];
        let plain = ring.flags & NOT_PLAIN == 0
            && words.iter().all(|w| !w.is_null())
            && !sq.sqes.is_null()
            && !cq.cqes.is_null()
            && sq.ring_entries.is_power_of_two()
            && sq.ring_mask == sq.ring_entries - 1
            && cq.ring_entries.is_power_of_two()
            && cq.ring_mask == cq.ring_entries - 1;
        self.sq_khead.store(sq.khead as usize, Ordering::Relaxed);
        self.sq_kflags.store(sq.kflags as usize, Ordering::Relaxed);
        self.sq_mask.store(sq.ring_mask, Ordering::Relaxed);
        self.cq_khead.store(cq.khead as usize, Ordering::Relaxed);
        self.cq_ktail.store(cq.ktail as usize, Ordering::Relaxed);
        self.cqes.store(cq.cqes as usize, Ordering::Relaxed);
        self.cq_mask.store(cq.ring_mask, Ordering::Relaxed);
        self.sqes
            .store(if plain { sq.sqes as usize } else { 0 }, Ordering::Relaxed);
    }
}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const FREE_RING: RingSlot = RingSlot {
    ring: AtomicUsize::new(0),
    sq_cursor: AtomicU32::new(0),
    cq_cursor: AtomicU32::new(0),
    setup_flags: AtomicU32::new(0),
    dropped: AtomicU32::new(0),
    flagged: AtomicBool::new(false),
    plain: PlainGeometry {
        sq_khead: AtomicUsize::new(0),
        sq_kflags: AtomicUsize::new(0),
        sqes: AtomicUsize::new(0),
        sq_mask: AtomicU32::new(0),
        cq_khead: AtomicUsize::new(0),
        cq_ktail: AtomicUsize::new(0),
        cqes: AtomicUsize::new(0),
        cq_mask: AtomicU32::new(0),
    },
};
static RINGS: [RingSlot; MAX_RINGS] = [FREE_RING; MAX_RINGS];

/// The ring's slot and its number in the trace (index plus one).
#[inline(always)]
fn ring_of(ring: *const io_uring) -> Option<(&'static RingSlot, u8)> {
    let id = ring as usize;
    let i = RINGS
        .iter()
        .position(|s| s.ring.load(Ordering::Relaxed) == id)?;
    Some((RINGS.get(i)?, i as u8 + 1))
}

/// Where the SQ cursor rests: what the kernel consumed (SQPOLL: what the
/// library published).
#[inline(always)]
fn consumed_mark(sq: SubmitSide<'_>) -> u32 {
    if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    }
}

pub fn ring_created(ring: &io_uring) {
    let (sq, cq) = observe::both_sides(ring);
    let id = core::ptr::from_ref(ring) as usize;
    // A slot left for this address (a ring never torn down whose memory
    // was reused) is taken over.
    let i = RINGS
        .iter()
        .position(|s| s.ring.load(Ordering::Relaxed) == id)
        .or_else(|| {
            RINGS.iter().position(|s| {
                s.ring
                    .compare_exchange(0, id, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            })
        });
    let Some((slot, i)) = i.and_then(|i| Some((RINGS.get(i)?, i))) else {
        return;
    };
    slot.sq_cursor.store(consumed_mark(sq), Ordering::Relaxed);
    slot.cq_cursor.store(cq.cq_khead(), Ordering::Relaxed);
    slot.setup_flags.store(ring.flags, Ordering::Relaxed);
    slot.dropped.store(cq.cq_overflow(), Ordering::Relaxed);
    slot.flagged.store(false, Ordering::Relaxed);
    slot.plain.note(ring);
    snapshot::install();
    if let Some(mut w) = Writer::get() {
        w.put(Record {
            kind: kind::RING,
            ring: i as u8 + 1,
            a: sq.sq_entries(),
            b: sq.ring_fd(),
            c: ring.flags,
            user_data: u64::from(cq.cq_entries()) | u64::from(ring.features) << 32,
            ns: now_ns(),
            ..Record::default()
        });
    }
}

pub fn ring_changed(ring: &io_uring) {
    let (sq, cq) = observe::both_sides(ring);
    let Some((slot, id)) = ring_of(ring) else {
        return;
    };
    // (Resized rings have new arrays and masks.)
    slot.plain.note(ring);
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    walk_cq(&mut w, slot, id, cq, now);
    slot.sq_cursor.store(consumed_mark(sq), Ordering::Relaxed);
    slot.cq_cursor.store(cq.cq_khead(), Ordering::Relaxed);
    w.put(Record {
        kind: kind::CHANGED,
        ring: id,
        a: sq.sq_entries(),
        b: sq.ring_fd(),
        ns: now,
        ..Record::default()
    });
}

pub fn ring_exit(ring: &io_uring) {
    let (sq, cq) = observe::both_sides(ring);
    let Some((slot, id)) = ring_of(ring) else {
        return;
    };
    if let Some(mut w) = Writer::get() {
        let now = now_ns();
        walk_cq(&mut w, slot, id, cq, now);
        w.put(Record {
            kind: kind::EXIT,
            ring: id,
            a: sq.sqe_tail().wrapping_sub(sq.sqe_head()),
            b: sq.ring_fd(),
            ns: now,
            ..Record::default()
        });
    }
    slot.ring.store(0, Ordering::Relaxed);
}

/// Where a ring's `sqe_head` is in its `struct io_uring`, `sqe_tail` the
/// word after it (one read takes both).
const SQE_HEAD_AT: usize =
    core::mem::offset_of!(io_uring, sq) + core::mem::offset_of!(io_uring_sq, sqe_head);
const _: () = assert!(
    core::mem::offset_of!(io_uring_sq, sqe_tail)
        == core::mem::offset_of!(io_uring_sq, sqe_head) + 4
);
/// `sq.sqes` is the address just before `sqe_head` (one read takes the
/// three).
const SQES_AT: usize =
    core::mem::offset_of!(io_uring, sq) + core::mem::offset_of!(io_uring_sq, sqes);
const _: () = assert!(SQES_AT + core::mem::size_of::<usize>() == SQE_HEAD_AT);

/// What a snapshot reads of a ring's SQEs prepared and never submitted.
#[derive(Clone, Copy)]
struct Unsubmitted {
    count: u32,
    /// The oldest of them: opcode, SQE flags, user_data (when it could be
    /// read).
    oldest: Option<(u8, u8, u64)>,
}

fn u32_in(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_ne_bytes)
}

/// The SQEs the program took from the ring at `ring` (`io_uring_get_sqe`,
/// inline in its header: no hook sees it) and has not submitted:
/// `sqe_tail - sqe_head` of its `struct io_uring`, and the oldest one's
/// opcode and user_data, read at a snapshot (a fatal signal, the snapshot
/// signal, process exit), never on a hot path. None when it cannot be
/// read or reads as nothing a ring of `entries` holds.
///
/// That struct is the program's memory: a crash may have freed or
/// unmapped it, and its submitting thread may be writing it now (the
/// house rule keeps observers from reading ring memory another thread
/// owns). So it is not read through a pointer: [`copy_quietly`] copies
/// the words in the kernel, which returns `EFAULT` for memory not mapped
/// instead of faulting, and forms no Rust reference that another thread's
/// write could race with. What it copies may be stale or torn between the
/// words, which a snapshot's value may be; a count above the ring's
/// entries (memory reused) is dropped. No descriptor, no allocation;
/// `errno` is restored. Under a seccomp filter nothing is read (a filter
/// may kill the process for a call it does not list, which would change
/// how the program ends).
fn unsubmitted_at(ring: usize, entries: u32, setup_flags: u32) -> Option<Unsubmitted> {
    const ADDRESS: usize = core::mem::size_of::<usize>();
    let _errno = crate::output::SavedErrno::save();
    // SAFETY: a query of this thread's seccomp mode, no pointers.
    if unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) } != 0 {
        return None;
    }
    // sqes, sqe_head, sqe_tail.
    let mut words = [0u8; ADDRESS + 8];
    if !copy_quietly(&mut words, ring.checked_add(SQES_AT)?) {
        return None;
    }
    let sqes = words
        .get(..ADDRESS)
        .and_then(|s| s.try_into().ok())
        .map_or(0, usize::from_ne_bytes);
    let head = u32_in(&words, ADDRESS);
    let count = u32_in(&words, ADDRESS + 4).wrapping_sub(head);
    if count > entries {
        return None;
    }
    let mut oldest = None;
    if count != 0 && sqes != 0 && entries.is_power_of_two() {
        const SQE: usize = core::mem::size_of::<io_uring_sqe>();
        let shift = u32::from(setup_flags & IORING_SETUP_SQE128 != 0);
        let index = ((head & (entries - 1)) as usize) << shift;
        let mut sqe = [0u8; SQE];
        let at = index.checked_mul(SQE).and_then(|o| sqes.checked_add(o));
        if at.is_some_and(|at| copy_quietly(&mut sqe, at)) {
            let byte = |at: usize| sqe.get(at).copied().unwrap_or(0);
            let user_data = sqe
                .get(core::mem::offset_of!(io_uring_sqe, user_data)..)
                .and_then(|s| s.get(..8))
                .and_then(|s| s.try_into().ok())
                .map_or(0, u64::from_ne_bytes);
            oldest = Some((
                byte(core::mem::offset_of!(io_uring_sqe, opcode)),
                byte(core::mem::offset_of!(io_uring_sqe, flags)),
                user_data,
            ));
        }
    }
    Some(Unsubmitted { count, oldest })
}

/// [`unsubmitted_at`] for a live slot's ring.
fn unsubmitted(slot: &RingSlot, ring: usize) -> Option<Unsubmitted> {
    let entries = slot.plain.sq_mask.load(Ordering::Relaxed).wrapping_add(1);
    unsubmitted_at(ring, entries, slot.setup_flags.load(Ordering::Relaxed))
}

/// A record of a fatal or snapshot signal for each live ring: a = the
/// signal, b = its SQEs prepared and never submitted, c bit 0 when b could
/// be read ([`unsubmitted`]), c bit 1 when opcode, sqe_flags and
/// user_data are the oldest of them.
fn signal_records(what: u8, sig: i32) {
    if !on() {
        return;
    }
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    for (i, slot) in RINGS.iter().enumerate() {
        let ring = slot.ring.load(Ordering::Relaxed);
        if ring != 0 {
            let n = unsubmitted(slot, ring);
            let oldest = n.and_then(|n| n.oldest);
            let (opcode, sqe_flags, user_data) = oldest.unwrap_or_default();
            w.put(Record {
                kind: what,
                ring: i as u8 + 1,
                opcode,
                sqe_flags,
                a: sig as u32,
                b: n.map_or(0, |n| n.count) as i32,
                c: u32::from(n.is_some()) | u32::from(oldest.is_some()) << 1,
                user_data,
                ns: now,
            });
        }
    }
}

/// A fatal signal ([`fatal`]): a record of it for each live ring (their
/// `struct io_uring` may be what the crash damaged: read only as
/// [`unsubmitted`] reads it).
fn fatal_signal(sig: i32) {
    signal_records(kind::SIGNAL, sig);
}

/// The snapshot signal ([`mod@snapshot`]): a record of it for each live ring
/// (their `struct io_uring`, which another thread may be using, is read
/// only as [`unsubmitted`] reads it).
fn snapshot(sig: i32) {
    signal_records(kind::SNAPSHOT, sig);
}

/// Process exit: a record for each ring never torn down (their `struct
/// io_uring` may be gone: read only as [`unsubmitted`] reads it).
pub fn finish_all() {
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    for (i, slot) in RINGS.iter().enumerate() {
        let ring = slot.ring.swap(0, Ordering::Relaxed);
        if ring != 0 {
            w.put(Record {
                kind: kind::AT_EXIT,
                ring: i as u8 + 1,
                a: unsubmitted(slot, ring).map_or(u32::MAX, |n| n.count),
                ns: now,
                ..Record::default()
            });
        }
    }
}

// ---------------------------------------------------------------------------
// The hot path
// ---------------------------------------------------------------------------

/// Setup flags that change where entries are (or who consumes the SQ):
/// rings with any of them take the general walks.
const NOT_PLAIN: u32 = IORING_SETUP_SQPOLL
    | IORING_SETUP_SQ_REWIND
    | IORING_SETUP_SQE128
    | IORING_SETUP_SQE_MIXED
    | IORING_SETUP_CQE32
    | IORING_SETUP_CQE_MIXED;

/// A submit call is done (observer function). The common case (a plain
/// ring, one enter that consumed every SQE since the last look, the CQ
/// neither lapped nor overflowing, room left in this thread's block) is
/// straight-line code: the ring's words and arrays where
/// [`PlainGeometry`] noted them, one record per SQE and per CQE, stored
/// with a few moves each; the call itself gets no record of its own (the decoder
/// takes a run of SQE records with one time as one such call). Anything
/// else goes to [`submitted_general`].
pub extern "C" fn submitted(
    sq: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
    _caller: Caller,
) {
    // The thread first: the call to `pthread_self` then comes before
    // anything worth keeping across it (3 instructions fewer per call,
    // in spills).
    let me = me();
    let Some((slot, id)) = ring_of(sq.id()) else {
        return;
    };
    let g = &slot.plain;
    let sqes = g.sqes.load(Ordering::Relaxed) as *const io_uring_sqe;
    if sqes.is_null() || enters != 1 {
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    }
    // The CQ too when the call did not reap: the program consumes most CQEs
    // inline (liburing's header), unseen by the library, and they are read
    // here while their slots hold them. A reaper on another thread may walk
    // the CQ meanwhile: a CQE logged twice carries the same CQ position,
    // which the decoder drops.
    // SAFETY: non-null addresses of kernel-shared words of this ring's
    // mapping, noted from its `struct io_uring` when it was made or last
    // changed (`PlainGeometry`); the ring is live for this call, so they
    // are mapped; every access to them is atomic.
    let (sq_khead, sq_kflags, cq_khead, cq_ktail) = unsafe {
        (
            AtomicU32::from_ptr(g.sq_khead.load(Ordering::Relaxed) as *mut u32),
            AtomicU32::from_ptr(g.sq_kflags.load(Ordering::Relaxed) as *mut u32),
            AtomicU32::from_ptr(g.cq_khead.load(Ordering::Relaxed) as *mut u32),
            AtomicU32::from_ptr(g.cq_ktail.load(Ordering::Relaxed) as *mut u32),
        )
    };
    let from = slot.sq_cursor.load(Ordering::Relaxed);
    let to = sq_khead.load(Ordering::Acquire);
    let n_sq = to.wrapping_sub(from);
    // (`result` is at most the SQ's size: the kernel consumes no more.)
    if result != n_sq as i32
        || n_sq == 0
        || sq_kflags.load(Ordering::Relaxed) & IORING_SQ_CQ_OVERFLOW != 0
    {
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    }
    // (CQEs the kernel dropped outright, its overflow counter, are noted
    // by the next wait or the teardown: kernels since 5.5 hold CQEs back
    // instead, which the flag above shows.)
    let cursor = slot.cq_cursor.load(Ordering::Relaxed);
    // The program has released none of the CQEs not yet logged, so the
    // kernel cannot be rewriting them (it reuses released slots only) and
    // their copies need no second look.
    if (cursor.wrapping_sub(cq_khead.load(Ordering::Acquire)) as i32) < 0 {
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    }
    let tail = cq_ktail.load(Ordering::Acquire);
    let n_cq = tail.wrapping_sub(cursor);
    let Some(thread) = THREADS.get(home(me)) else {
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    };
    if thread.owner.load(Ordering::Relaxed) != me {
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    }
    let next = thread.next.swap(0, Ordering::Relaxed);
    compiler_fence(Ordering::SeqCst);
    let end = thread.end.load(Ordering::Relaxed);
    // In 64 bits: a CQ reset behind the library's back (a cursor far from
    // the tail) asks for more room than any block has.
    let room = (u64::from(n_sq) + u64::from(n_cq)) * format::RECORD_BYTES as u64;
    if next == 0 || ((end - next) as u64) < room {
        thread.next.store(next, Ordering::Relaxed);
        return submitted_general(slot, id, sq, cq, result, enters, entered_ns);
    }
    let now = now_ns();
    let mut p = next;
    let mask = g.sq_mask.load(Ordering::Relaxed);
    let mut pos = from;
    while pos != to {
        // SAFETY: `pos & mask` is below the SQ's entries (`mask` is one
        // less, `PlainGeometry::note`), each a 64-byte SQE of the live
        // ring's array; the kernel only reads SQEs and this thread, the
        // submitter, is inside the call: a plain read.
        let sqe = unsafe { sqes.add((pos & mask) as usize).read() };
        // SAFETY: `room` bytes from `next` are in this thread's block.
        unsafe {
            store(
                p,
                [kind::SQE, id, sqe.opcode, sqe.flags],
                sqe.len,
                sqe.fd as u32,
                u32::from(sqe.buf_index) | u32::from(sqe.personality) << 16,
                sqe.user_data,
                now,
            )
        };
        p += format::RECORD_BYTES;
        pos = pos.wrapping_add(1);
    }
    let cqes = g.cqes.load(Ordering::Relaxed) as *const io_uring_cqe;
    let cmask = g.cq_mask.load(Ordering::Relaxed);
    let mut pos = cursor;
    while pos != tail {
        // SAFETY: as for the SQEs, a 16-byte CQE of the live ring's array
        // below the tail loaded with acquire and not yet released by the
        // program (checked above): the kernel does not write it.
        let cqe = unsafe { cqes.add((pos & cmask) as usize).read_volatile() };
        if cqe.flags & IORING_CQE_F_SKIP == 0 {
            // SAFETY: as above.
            unsafe {
                store(
                    p,
                    [kind::CQE, id, 0, 0],
                    cqe.flags,
                    cqe.res as u32,
                    pos,
                    cqe.user_data,
                    now,
                )
            };
            p += format::RECORD_BYTES;
        }
        pos = pos.wrapping_add(1);
    }
    compiler_fence(Ordering::SeqCst);
    thread.next.store(p, Ordering::Relaxed);
    slot.sq_cursor.store(to, Ordering::Relaxed);
    slot.cq_cursor.store(pos, Ordering::Relaxed);
    // The overflow flag was clear: a next one is a new episode.
    slot.flagged.store(false, Ordering::Relaxed);
}

/// Stores one record at `p` in a few moves, the word holding its kind
/// last (an aligned 32-bit store): a reader, or the file a killed writer
/// leaves, sees the record whole or not at all.
///
/// # Safety
/// `p` is 8-aligned with `RECORD_BYTES` of this thread's block from it.
#[inline(always)]
unsafe fn store(p: usize, first: [u8; 4], a: u32, b: u32, c: u32, user_data: u64, ns: u64) {
    let p = p as *mut u8;
    // SAFETY: per the caller: aligned, in the block, this thread's alone.
    unsafe {
        p.add(4).cast::<u32>().write(a);
        p.add(8).cast::<u32>().write(b);
        p.add(12).cast::<u32>().write(c);
        p.add(16).cast::<u64>().write(user_data);
        p.add(24).cast::<u64>().write(ns);
        AtomicU32::from_ptr(p.cast::<u32>()).store(u32::from_ne_bytes(first), Ordering::Release);
    }
}

#[cold]
#[inline(never)]
fn call_record(w: &mut Writer, what: u8, id: u8, result: i32, enters: u32, now: u64) {
    w.put(Record {
        kind: what,
        ring: id,
        a: enters,
        b: result,
        ns: now,
        ..Record::default()
    });
}

#[cold]
#[inline(never)]
fn overflow_flag(w: &mut Writer, slot: &RingSlot, id: u8, sq: SubmitSide<'_>, now: u64) {
    if sq.sq_kflags() & IORING_SQ_CQ_OVERFLOW != 0 {
        if !slot.flagged.swap(true, Ordering::Relaxed) {
            overflow(w, slot, id, 1, now);
        }
    } else {
        slot.flagged.store(false, Ordering::Relaxed);
    }
}

/// [`submitted`] for every ring.
#[cold]
#[inline(never)]
fn submitted_general(
    slot: &RingSlot,
    id: u8,
    sq: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
) {
    let _ = entered_ns;
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    let n = walk_sq(&mut w, slot, id, sq, result, now);
    let expected = u32::from(slot.setup_flags.load(Ordering::Relaxed) & IORING_SETUP_SQPOLL == 0);
    // A call that neither entered the kernel nor failed (nothing to
    // submit; SQPOLL) gets none.
    let plain = enters == expected && result == n as i32 && n != 0;
    if (enters != 0 || result < 0) && !plain {
        call_record(&mut w, kind::SUBMIT, id, result, enters, now);
    }
    overflow_flag(&mut w, slot, id, sq, now);
    let cq = cq.or_else(|| {
        let p = core::ptr::NonNull::new(sq.id().cast_mut())?;
        // SAFETY: as in `submitted`.
        Some(unsafe { CompleteSide::new(p) })
    });
    if let Some(cq) = cq {
        walk_cq(&mut w, slot, id, cq, now);
    }
}

/// A wait or peek call is done (observer function).
pub extern "C" fn reaped(
    cq: CompleteSide<'_>,
    result: i32,
    enters: u32,
    entered_ns: u64,
    _caller: Caller,
) {
    let Some((slot, id)) = ring_of(cq.id()) else {
        return;
    };
    if enters == 0 && cq.cq_ktail() == slot.cq_cursor.load(Ordering::Relaxed) {
        return;
    }
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    if enters != 0 {
        w.put(Record {
            kind: kind::WAIT,
            ring: id,
            a: enters,
            b: result,
            user_data: entered_ns,
            ns: now,
            ..Record::default()
        });
    }
    walk_cq(&mut w, slot, id, cq, now);
}

/// A wait is about to sleep in the kernel (observer function).
pub fn waiting(cq: CompleteSide<'_>, wait_nr: u32, timed: bool) {
    let Some((slot, id)) = ring_of(cq.id()) else {
        return;
    };
    let Some(mut w) = Writer::get() else {
        return;
    };
    let now = now_ns();
    walk_cq(&mut w, slot, id, cq, now);
    w.put(Record {
        kind: kind::WAITING,
        ring: id,
        a: wait_nr,
        b: i32::from(timed),
        ns: now,
        ..Record::default()
    });
}

/// The SQEs the kernel consumed since the last look; how many.
fn walk_sq(
    w: &mut Writer,
    slot: &RingSlot,
    id: u8,
    sq: SubmitSide<'_>,
    result: i32,
    now: u64,
) -> u32 {
    let flags = slot.setup_flags.load(Ordering::Relaxed);
    let rewind = flags & IORING_SETUP_SQ_REWIND != 0;
    let (from, to) = if rewind {
        (0, result.max(0) as u32)
    } else {
        (slot.sq_cursor.load(Ordering::Relaxed), consumed_mark(sq))
    };
    let entries = sq.sq_entries();
    if !rewind {
        slot.sq_cursor.store(to, Ordering::Relaxed);
    }
    if to.wrapping_sub(from) > entries {
        // Not a sane distance: submitted behind the library's back.
        return 0;
    }
    let plain = flags & (IORING_SETUP_SQE128 | IORING_SETUP_SQE_MIXED) == 0;
    let sqes = if plain { sq.plain_sqes() } else { sq.sqes() };
    let mixed = flags & IORING_SETUP_SQE_MIXED != 0;
    let shift = crate::geometry::sqe_shift(flags);
    let mask = sq.sq_mask();
    let mut pos = from;
    while to.wrapping_sub(pos) != 0 && to.wrapping_sub(pos) <= entries {
        let Some(sqe) = sqes.get((pos & mask) << shift) else {
            break;
        };
        w.put(Record {
            kind: kind::SQE,
            ring: id,
            opcode: sqe.opcode,
            sqe_flags: sqe.flags,
            a: sqe.len,
            b: sqe.fd,
            c: u32::from(sqe.buf_index) | u32::from(sqe.personality) << 16,
            user_data: sqe.user_data,
            ns: now,
        });
        let big = mixed && matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if big { 2 } else { 1 });
    }
    to.wrapping_sub(from)
}

/// The CQEs between the ring's CQ cursor and the kernel's tail. Entries
/// the program consumed and the kernel may have rewritten since are
/// counted as not seen.
#[inline(never)]
fn walk_cq(w: &mut Writer, slot: &RingSlot, id: u8, cq: CompleteSide<'_>, now: u64) {
    let flags = slot.setup_flags.load(Ordering::Relaxed);
    let entries = cq.cq_entries();
    let head = cq.cq_khead();
    let tail = cq.cq_ktail();
    let mut cursor = slot.cq_cursor.load(Ordering::Relaxed);
    let pending = tail.wrapping_sub(cursor);
    if pending > entries.saturating_mul(4) {
        // The ring was reset behind the library's back.
        cursor = head;
    } else if pending >= entries && (head.wrapping_sub(cursor) as i32) > 0 {
        not_seen(w, id, head.wrapping_sub(cursor), now);
        cursor = head;
    }
    let plain = flags & (IORING_SETUP_CQE32 | IORING_SETUP_CQE_MIXED) == 0;
    let cqes = if plain { cq.plain_cqes() } else { cq.cqes() };
    let mixed = flags & IORING_SETUP_CQE_MIXED != 0;
    let shift = crate::geometry::cqe_shift(flags);
    let mask = cq.cq_mask();
    loop {
        let left = tail.wrapping_sub(cursor);
        if left == 0 || left > entries {
            break;
        }
        let Some(cqe) = cqes.get((cursor & mask) << shift) else {
            break;
        };
        // An entry the program released may be rewritten while it is read:
        // the copy is trusted only if the kernel has not come round.
        if (head.wrapping_sub(cursor) as i32) > 0 && cq.cq_ktail().wrapping_sub(cursor) >= entries {
            not_seen(w, id, head.wrapping_sub(cursor), now);
            cursor = head;
            continue;
        }
        let step = if mixed && cqe.flags & IORING_CQE_F_32 != 0 {
            2
        } else {
            1
        };
        if step > left {
            break;
        }
        if cqe.flags & IORING_CQE_F_SKIP == 0 {
            w.put(Record {
                kind: kind::CQE,
                ring: id,
                a: cqe.flags,
                b: cqe.res,
                c: cursor,
                user_data: cqe.user_data,
                ns: now,
                ..Record::default()
            });
        }
        cursor = cursor.wrapping_add(step);
    }
    slot.cq_cursor.store(cursor, Ordering::Relaxed);
    let dropped = cq.cq_overflow();
    if dropped != slot.dropped.load(Ordering::Relaxed) {
        slot.dropped.store(dropped, Ordering::Relaxed);
        overflow(w, slot, id, 0, now);
    }
}

#[cold]
#[inline(never)]
fn not_seen(w: &mut Writer, id: u8, n: u32, now: u64) {
    w.put(Record {
        kind: kind::NOT_SEEN,
        ring: id,
        a: n,
        ns: now,
        ..Record::default()
    });
}

#[cold]
#[inline(never)]
fn overflow(w: &mut Writer, slot: &RingSlot, id: u8, flagged: i32, now: u64) {
    w.put(Record {
        kind: kind::OVERFLOW,
        ring: id,
        a: slot.dropped.load(Ordering::Relaxed),
        b: flagged,
        ns: now,
        ..Record::default()
    });
}
