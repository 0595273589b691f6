// SPDX-License-Identifier: MIT
//! `LIBURING_TRACE`: what a program hands to the kernel and gets back.
//!
//! SQEs are logged once the kernel has consumed them: after each submit
//! call, the entries between the trace's SQ cursor and the kernel's SQ head
//! (with SQPOLL, whose thread consumes them later, the entries the call
//! published). So an SQE the kernel refused to look at is not counted.
//!
//! CQEs are logged by the calls that wait or reap (the completion side):
//! the entries between the trace's CQ cursor and the kernel's CQ tail.
//! Entries the program consumed inline meanwhile are logged too while
//! their slots cannot have been reused; older ones are counted as not seen.
//!
//! Nothing here keeps a pointer into the ring: every look goes through the
//! view the hook passes (see `uring_core::hooks`), which reads the live
//! `struct io_uring`, so a resize or a ring-fd change is simply seen.
//! Every walk over SQ or CQ entries is bounded by the index it walks to and
//! moves only from one entry's start to the next.
//!
//! Per-ring state lives in a small table without a lock: a call that
//! reports on a ring checks the ring's record out of its slot (an atomic
//! swap with null), works on it alone, and puts it back ([`with_ring`]).
//! A call that finds the record checked out (the submitting and the
//! reaping thread at once, a signal handler that interrupted the library,
//! or a forked child whose parent thread held it) does not wait: it adds
//! its counts to the slot's pending counters, which the holder folds in,
//! and its entries are logged by the next call that gets the record.
//! So nothing can deadlock, and nothing spins.
//!
//! For a file target each active ring also gets a fixed block of the file
//! that its summary is rewritten into (`pwrite` at that offset) after every
//! call the trace sees: a program that is killed leaves a current summary
//! without the library installing signal handlers.

pub mod binary;
pub mod format;

use core::ptr::{null_mut, NonNull};
use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};

use super::line::Line;
use super::memory::{Kind, Record, MAX_RINGS};
use super::names::{self, CQE_FLAG, OPCODE, SETUP_FLAG, SQE_FLAG};
use super::{output, sysinfo};
use crate::structs::io_uring;
use crate::uapi::*;
use uring_core::observe::{self, CompleteSide, SubmitSide};

/// user_data -> opcode slots per ring (to attribute errors to opcodes).
const UDATA_SLOTS: usize = 4096;
/// Distinct (opcode, errno) pairs counted per ring.
const ERR_SLOTS: usize = 64;
/// `AT_FDCWD`: a negative fd that is valid for the *at() opcodes.
const AT_FDCWD: i32 = -100;
/// Bytes of the in-place summary block of a file target.
const SUMMARY_BYTES: usize = 2560;
/// Latency buckets: bucket k holds latencies below 2^k ns (the last one
/// everything longer, about 9 minutes and up).
const LAT_BUCKETS: usize = 40;
/// Opcodes whose latency is kept per ring (the first ones seen).
const LAT_OPS: usize = 16;
/// Longest-waiting requests kept per ring.
const SLOWEST: usize = 4;

#[derive(Clone, Copy)]
struct UdataSlot {
    user_data: u64,
    /// When the trace saw the kernel consume its SQE (CLOCK_MONOTONIC ns).
    at_ns: u64,
    /// The submitting thread (`pthread_self`), for the JSON timeline.
    thread: u64,
    fd: i32,
    len: u32,
    opcode: u8,
    sqe_flags: u8,
    used: bool,
}

/// Request latencies of one opcode: a fixed log2 histogram, no allocation
/// per request.
#[derive(Clone, Copy)]
struct OpLatency {
    /// The opcode plus one (0: unused).
    op1: u16,
    count: u64,
    max_ns: u64,
    buckets: [u32; LAT_BUCKETS],
}

/// One of the longest-waiting requests.
#[derive(Clone, Copy)]
struct Slow {
    ns: u64,
    user_data: u64,
    opcode: u8,
}

#[derive(Clone, Copy)]
struct ErrCount {
    opcode: u8,
    errno: u16,
    count: u32,
}

/// The room a ring's record takes.
pub const RECORD_BYTES: usize = core::mem::size_of::<RingTrace>();

/// One traced ring, in the diagnostics' own memory (`Record`), zeroed: every
/// field is valid as all-zero bytes. Holds values only, never a pointer
/// into the ring.
struct RingTrace {
    id: u32,
    /// The C caller's ring pointer: identity only, never dereferenced.
    ring: usize,
    /// The ring fd last seen (for the line prefix).
    ring_fd: i32,
    setup_flags: u32,
    sq_cursor: u32,
    cq_cursor: u32,
    ops: [u64; 256],
    sqes_consumed: u64,
    submits: u64,
    waits: u64,
    enters: u64,
    overflow_seen: u64,
    cq_dropped: u64,
    cqes_seen: u64,
    cqes_not_seen: u64,
    warnings: u64,
    errs: [ErrCount; ERR_SLOTS],
    errs_uncounted: u64,
    lat: [OpLatency; LAT_OPS],
    lat_uncounted: u64,
    slowest: [Slow; SLOWEST],
    /// Where this ring's summary block is in the trace file.
    summary_at: Block,
    udata: [UdataSlot; UDATA_SLOTS],
}

/// Where a ring's summary block is kept current.
#[derive(Clone, Copy)]
// The tag first and `NotYet` 0: a zeroed record has no block yet.
#[repr(u8)]
enum Block {
    // Made by a zeroed record, never by name.
    #[allow(dead_code)]
    NotYet = 0,
    At(output::trace_file::BlockAt),
    /// None could be placed (the summary is appended at the end instead).
    Nowhere,
}

/// One ring's place in the table.
struct Slot {
    /// The C caller's ring pointer (identity only), 0 when free.
    ring: AtomicUsize,
    /// The record, null while checked out (or while the slot is free).
    rec: AtomicPtr<RingTrace>,
    /// Counts of calls that found the record checked out.
    pending_submits: AtomicU32,
    pending_waits: AtomicU32,
    pending_enters: AtomicU32,
}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const FREE: Slot = Slot {
    ring: AtomicUsize::new(0),
    rec: AtomicPtr::new(null_mut()),
    pending_submits: AtomicU32::new(0),
    pending_waits: AtomicU32::new(0),
    pending_enters: AtomicU32::new(0),
};
static SLOTS: [Slot; MAX_RINGS] = [FREE; MAX_RINGS];
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

// Orderings: a record is handed from thread to thread through its slot's
// `rec`: the swap that checks it out is Acquire (it sees every write of the
// thread that put it back) and the store that puts it back is Release.
// `ring` only names the slot's owner; a slot is claimed with a CAS from 0
// and its record published after, so a finder that sees the new `ring` and
// a null `rec` simply counts as pending.

fn slot_of(ring: usize) -> Option<&'static Slot> {
    SLOTS
        .iter()
        .find(|s| s.ring.load(Ordering::Relaxed) == ring)
}

/// A record checked out of its slot: this thread's alone until dropped,
/// which puts it back.
struct CheckedOut {
    slot: &'static Slot,
    rec: NonNull<RingTrace>,
}

impl CheckedOut {
    fn take(ring: usize) -> Option<CheckedOut> {
        let slot = slot_of(ring)?;
        let rec = NonNull::new(slot.rec.swap(null_mut(), Ordering::Acquire))?;
        let mut out = CheckedOut { slot, rec };
        let t = out.get();
        t.submits += u64::from(slot.pending_submits.swap(0, Ordering::Relaxed));
        t.waits += u64::from(slot.pending_waits.swap(0, Ordering::Relaxed));
        t.enters += u64::from(slot.pending_enters.swap(0, Ordering::Relaxed));
        Some(out)
    }

    fn get(&mut self) -> &mut RingTrace {
        // SAFETY: checked out by the swap in `take`: no other thread can
        // reach the record until `drop` stores it back; the borrow is tied
        // to `self`.
        unsafe { self.rec.as_mut() }
    }

    /// Takes the record out of the table for good (the slot is freed
    /// with it, once it is given back).
    fn remove(self) -> Removed {
        let me = core::mem::ManuallyDrop::new(self);
        Removed {
            slot: me.slot,
            rec: me.rec,
        }
    }
}

impl Drop for CheckedOut {
    fn drop(&mut self) {
        self.slot.rec.store(self.rec.as_ptr(), Ordering::Release);
    }
}

/// Runs `f` on the record of `ring` when this thread can have it; else
/// the call's counts wait in the slot (see the module comment).
fn with_ring<R>(
    ring: *const io_uring,
    calls: Pending,
    f: impl FnOnce(&mut RingTrace) -> R,
) -> Option<R> {
    match CheckedOut::take(ring as usize) {
        Some(mut rec) => Some(f(rec.get())),
        None => {
            if let Some(slot) = slot_of(ring as usize) {
                slot.pending_submits
                    .fetch_add(calls.submits, Ordering::Relaxed);
                slot.pending_waits.fetch_add(calls.waits, Ordering::Relaxed);
                slot.pending_enters
                    .fetch_add(calls.enters, Ordering::Relaxed);
            }
            None
        }
    }
}

/// What a call adds to the counts when it cannot have the record.
#[derive(Clone, Copy, Default)]
struct Pending {
    submits: u32,
    waits: u32,
    enters: u32,
}

/// A record taken out of the table: owned; when dropped its memory is
/// given back, and then its slot (whose index the memory belongs to).
struct Removed {
    slot: &'static Slot,
    rec: NonNull<RingTrace>,
}

impl Removed {
    fn get(&mut self) -> &mut RingTrace {
        // SAFETY: out of the table, so nobody else can reach it; the
        // borrow is tied to `self`, which frees it only when dropped.
        unsafe { self.rec.as_mut() }
    }
}

impl Drop for Removed {
    fn drop(&mut self) {
        // SAFETY: made by `ring_created` from `Record::into_raw`, out of
        // the table, and no borrow of it outlives `self`.
        drop(unsafe { Record::from_raw(Kind::Trace, self.rec) });
        self.slot.ring.store(0, Ordering::Release);
    }
}

/// Takes the record of `ring` out of the table (any ring when `None`).
fn remove(ring: Option<*const io_uring>) -> Option<Removed> {
    match ring {
        Some(r) => CheckedOut::take(r as usize).map(CheckedOut::remove),
        None => SLOTS.iter().find_map(|s| {
            let ring = s.ring.load(Ordering::Relaxed);
            if ring == 0 {
                return None;
            }
            CheckedOut::take(ring).map(CheckedOut::remove)
        }),
    }
}

/// A line starting with the trace prefix and the ring's name.
fn ring_line(t: &RingTrace) -> Line {
    let mut l = Line::new();
    ring_prefix(t, &mut l);
    l
}

fn ring_prefix(t: &RingTrace, l: &mut Line) {
    l.s("uring-trace: ring ")
        .u(u64::from(t.id))
        .s(" (fd ")
        .i(i64::from(t.ring_fd))
        .s("): ");
}

/// Appends `bits` of `family` as `A|B|0x..` (or `0`).
fn flags(l: &mut Line, family: names::Family, bits: u64) {
    if bits == 0 {
        l.s("0");
        return;
    }
    let mut first = true;
    names::for_each_flag(family, bits, |name, v| {
        if !first {
            l.s("|");
        }
        first = false;
        match name {
            Some(n) => l.s(n),
            None => l.x(v),
        };
    });
}

fn opcode(l: &mut Line, op: u8) {
    match names::short_name(OPCODE, u64::from(op)) {
        Some(n) => l.s(n),
        None => l.s("opcode ").u(u64::from(op)),
    };
}

fn errno(l: &mut Line, e: i32) {
    match sysinfo::errno_name(e) {
        Some(n) => l.s(n),
        None => l.s("errno ").u(e as u64),
    };
}

// ---------------------------------------------------------------------------
// What this kernel supports
// ---------------------------------------------------------------------------

/// Opcodes this kernel supports, one bit each, from one probe of a ring of
/// the trace's own (never the program's), made at attach: before the
/// program runs, so its descriptor is gone before the program could see it.
static SUPPORTED: [AtomicU32; 8] = [const { AtomicU32::new(0) }; 8];
/// 0: not probed, 1: probed, 2: the probe failed.
static PROBED: AtomicU32 = AtomicU32::new(0);

/// Tracing was switched on at attach: learns what the kernel supports.
pub fn started() {
    if PROBED.load(Ordering::Acquire) != 0 {
        return;
    }
    let probed = super::kernel_level::supported_ops(|op| {
        if let Some(w) = SUPPORTED.get(usize::from(op / 32)) {
            w.fetch_or(1 << (op % 32), Ordering::Relaxed);
        }
    });
    PROBED.store(if probed { 1 } else { 2 }, Ordering::Release);
}

/// Whether the kernel is known not to support `op` (false if unknown).
fn unsupported(op: u8) -> bool {
    PROBED.load(Ordering::Acquire) == 1
        && SUPPORTED
            .get(usize::from(op / 32))
            .is_some_and(|w| w.load(Ordering::Relaxed) & (1 << (op % 32)) == 0)
}

// ---------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------

/// Starts tracing a ring that was just set up (observer function).
pub extern "C" fn ring_created(ring: &io_uring) {
    if binary::on() {
        return binary::ring_created(ring);
    }
    // A record left for this address (a ring never torn down whose memory
    // was reused) is summed up first.
    if let Some(mut old) = remove(Some(core::ptr::from_ref(ring))) {
        finish(old.get());
    }
    let (sq, cq) = observe::both_sides(ring);
    let id = core::ptr::from_ref(ring) as usize;
    let index = SLOTS.iter().position(|s| {
        s.ring
            .compare_exchange(0, id, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    });
    let rec = index.and_then(|i| Some((i, Record::<RingTrace>::claim(Kind::Trace, i)?)));
    let Some((index, mut rec)) = rec else {
        if let Some(slot) = index.and_then(|i| SLOTS.get(i)) {
            slot.ring.store(0, Ordering::Release);
        }
        let mut l = Line::new();
        l.s("uring-trace: ring (fd ")
            .i(i64::from(sq.ring_fd()))
            .s(") set up, not traced: more than 64 rings, or no memory for its record");
        l.emit_trace();
        return;
    };
    let tr = &mut *rec;
    tr.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let id32 = tr.id;
    tr.ring = id;
    tr.ring_fd = sq.ring_fd();
    let fd = tr.ring_fd;
    tr.setup_flags = ring.flags;
    tr.sq_cursor = sq_consumed_mark(sq);
    tr.cq_cursor = cq.cq_khead();

    let mut l = ring_line(tr);
    l.s("set up: ").u(u64::from(sq.sq_entries())).s(" SQ / ");
    l.u(u64::from(cq.cq_entries())).s(" CQ entries, flags ");
    flags(&mut l, SETUP_FLAG, u64::from(ring.flags));
    l.s(", features ");
    flags(&mut l, names::FEATURE, u64::from(ring.features));

    let Some(slot) = SLOTS.get(index) else {
        return;
    };
    slot.pending_submits.store(0, Ordering::Relaxed);
    slot.pending_waits.store(0, Ordering::Relaxed);
    slot.pending_enters.store(0, Ordering::Relaxed);
    slot.rec.store(rec.into_raw().as_ptr(), Ordering::Release);
    l.emit_trace();
    if output::json() {
        // The ring's track, named as the text trace names it.
        let mut m = Line::new();
        m.s("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":")
            .u(u64::from(id32));
        m.s(",\"tid\":0,\"args\":{\"name\":\"ring ")
            .u(u64::from(id32));
        m.s(" (fd ").i(i64::from(fd)).s(")\"}}");
        m.emit_event();
    }
}

/// Where the SQ cursor starts: what the kernel has consumed (SQPOLL: what
/// the library has published).
fn sq_consumed_mark(sq: SubmitSide<'_>) -> u32 {
    if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    }
}

/// Resize or ring-fd change (observer function): the cursors follow the
/// ring as it is now.
pub extern "C" fn ring_changed(ring: &io_uring) {
    if binary::on() {
        return binary::ring_changed(ring);
    }
    let (sq, cq) = observe::both_sides(ring);
    with_ring(ring, Pending::default(), |t| {
        t.ring_fd = sq.ring_fd();
        observe_cq(t, cq);
        t.sq_cursor = sq_consumed_mark(sq);
        t.cq_cursor = cq.cq_khead();
        let mut l = ring_line(t);
        l.s("changed: now ")
            .u(u64::from(sq.sq_entries()))
            .s(" SQ / ");
        l.u(u64::from(cq.cq_entries())).s(" CQ entries");
        l.emit_trace();
    });
}

// ---------------------------------------------------------------------------
// SQ side
// ---------------------------------------------------------------------------

/// Logs the SQEs the kernel has consumed since the last look.
/// The SQEs the kernel consumed in this call, submitted at `at_ns` (the
/// call's first enter when the library timed it, else now: one clock read
/// for all of them).
fn observe_sq(t: &mut RingTrace, sq: SubmitSide<'_>, result: i32, at_ns: u64) {
    let rewind = t.setup_flags & IORING_SETUP_SQ_REWIND != 0;
    let (from, to) = if rewind {
        // The kernel starts at slot 0 on every enter and consumed `result`.
        (0, result.max(0) as u32)
    } else {
        (t.sq_cursor, sq_consumed_mark(sq))
    };
    let entries = sq.sq_entries();
    if to.wrapping_sub(from) > entries {
        // Not a sane distance: submitted behind the library's back.
        t.sq_cursor = to;
        return;
    }
    let mixed = t.setup_flags & IORING_SETUP_SQE_MIXED != 0;
    let shift = crate::geometry::sqe_shift(t.setup_flags);
    let mut pos = from;
    // Bounded by `to` (a distance, so a step of 2 cannot jump past it).
    while to.wrapping_sub(pos) != 0 && to.wrapping_sub(pos) <= entries {
        // The SQ array, when the ring has one, is the identity map the
        // library wrote at setup, so position and SQE slot agree.
        let Some(sqe) = sq.sqe((pos & sq.sq_mask()) << shift) else {
            break;
        };
        log_sqe(t, &sqe, at_ns);
        let big = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if mixed && big { 2 } else { 1 });
    }
    if !rewind {
        t.sq_cursor = to;
    }
    if sq.sq_kflags() & IORING_SQ_CQ_OVERFLOW != 0 {
        t.overflow_seen += 1;
        if output::json() {
            json_instant(t, "CQ overflow (IORING_SQ_CQ_OVERFLOW)", now_ns());
        }
    }
    if output::json() {
        json_counter(t, "SQ fill", sq.sqe_head().wrapping_sub(sq.sq_khead()));
    }
}

/// `sqe->flags` bits defined by the ABI.
const KNOWN_SQE_FLAGS: u8 = IOSQE_FIXED_FILE
    | IOSQE_IO_DRAIN
    | IOSQE_IO_LINK
    | IOSQE_IO_HARDLINK
    | IOSQE_ASYNC
    | IOSQE_BUFFER_SELECT
    | IOSQE_CQE_SKIP_SUCCESS;

fn log_sqe(t: &mut RingTrace, sqe: &io_uring_sqe, at_ns: u64) {
    let op = sqe.opcode;
    if let Some(n) = t.ops.get_mut(usize::from(op)) {
        *n += 1;
    }
    t.sqes_consumed += 1;
    remember(
        t,
        UdataSlot {
            user_data: sqe.user_data,
            at_ns,
            thread: this_thread(),
            fd: sqe.fd,
            len: sqe.len,
            opcode: op,
            sqe_flags: sqe.flags,
            used: true,
        },
    );
    if output::json() {
        return;
    }

    let mut l = ring_line(t);
    l.s("SQE ");
    opcode(&mut l, op);
    if sqe.flags & IOSQE_FIXED_FILE != 0 {
        l.s(" file=#").i(i64::from(sqe.fd));
    } else {
        l.s(" fd=").i(i64::from(sqe.fd));
    }
    l.s(" off=")
        .u(sqe.off)
        .s(" addr=")
        .x(sqe.addr)
        .s(" len=")
        .u(u64::from(sqe.len));
    l.s(" flags=");
    flags(&mut l, SQE_FLAG, u64::from(sqe.flags));
    if sqe.rw_flags != 0 {
        l.s(" op_flags=");
        let mut first = true;
        super::op_flags::for_each(op, sqe.rw_flags, |name, v| {
            if !first {
                l.s("|");
            }
            first = false;
            match name {
                Some(n) => l.s(n),
                None => l.x(u64::from(v)),
            };
        });
    }
    l.s(" user_data=").x(sqe.user_data);
    if sqe.flags & IOSQE_BUFFER_SELECT != 0 {
        l.s(" buf_group=").u(u64::from(sqe.buf_index));
    } else if sqe.buf_index != 0 {
        l.s(" buf_index=").u(u64::from(sqe.buf_index));
    }
    if sqe.personality != 0 {
        l.s(" personality=").u(u64::from(sqe.personality));
    }
    l.emit_trace();
    check_sqe(t, sqe);
}

/// Warns about fields the kernel will reject, before it answers.
fn check_sqe(t: &mut RingTrace, sqe: &io_uring_sqe) {
    let op = sqe.opcode;
    let warn = |t: &mut RingTrace, field: &str, why: &str, result: &str| {
        t.warnings += 1;
        let mut l = ring_line(t);
        l.s("WARNING: SQE user_data=").x(sqe.user_data).s(" ");
        opcode(&mut l, op);
        l.s(": ")
            .s(field)
            .s(" ")
            .s(why)
            .s("; the kernel will fail it with ")
            .s(result);
        l.emit_trace();
    };
    if op >= IORING_OP_LAST {
        warn(t, "sqe->opcode", "is not an io_uring opcode", "-EINVAL");
        return;
    }
    if unsupported(op) {
        warn(
            t,
            "sqe->opcode",
            "is not supported by this kernel (probe)",
            "-EINVAL",
        );
    }
    if sqe.flags & !KNOWN_SQE_FLAGS != 0 {
        warn(t, "sqe->flags", "has bits no kernel defines", "-EINVAL");
    }
    if sqe.__pad2[0] != 0 {
        warn(t, "sqe->__pad2", "(reserved) is not zero", "-EINVAL");
    }
    if sqe.fd < 0
        && sqe.fd != AT_FDCWD
        && sqe.flags & IOSQE_FIXED_FILE == 0
        && crate::uapi::opcode(op).is_some_and(|o| o.takes_file)
    {
        warn(
            t,
            "sqe->fd",
            "is negative without IOSQE_FIXED_FILE",
            "-EBADF",
        );
    }
    if sqe.flags & IOSQE_BUFFER_SELECT != 0
        && !crate::uapi::opcode(op).is_some_and(|o| o.buffer_select)
    {
        warn(
            t,
            "sqe->flags",
            "has IOSQE_BUFFER_SELECT, which this opcode cannot use",
            "-EINVAL",
        );
    }
    let multishot_recv = op == IORING_OP_RECV && sqe.ioprio & IORING_RECV_MULTISHOT != 0;
    if (op == IORING_OP_READ_MULTISHOT || multishot_recv) && sqe.flags & IOSQE_BUFFER_SELECT == 0 {
        warn(
            t,
            "sqe->flags",
            "lacks IOSQE_BUFFER_SELECT (a multishot receive needs a buffer group in sqe->buf_group)",
            "-EINVAL",
        );
    }
}

/// Remembers which opcode (and when, where) a `user_data` was submitted with.
fn remember(t: &mut RingTrace, new: UdataSlot) {
    let start = hash(new.user_data);
    for k in 0..16 {
        if let Some(s) = t.udata.get_mut((start + k) % UDATA_SLOTS) {
            if !s.used || s.user_data == new.user_data {
                *s = new;
                return;
            }
        }
    }
    // Crowded: evict the first candidate.
    if let Some(s) = t.udata.get_mut(start) {
        *s = new;
    }
}

/// The opcode `user_data` was submitted with and when; forgotten unless
/// `keep`.
fn recall(t: &mut RingTrace, user_data: u64, keep: bool) -> Option<UdataSlot> {
    let start = hash(user_data);
    for k in 0..16 {
        let s = t.udata.get_mut((start + k) % UDATA_SLOTS)?;
        if s.used && s.user_data == user_data {
            let op = *s;
            if !keep {
                s.used = false;
            }
            return Some(op);
        }
    }
    None
}

/// CLOCK_MONOTONIC in ns (the vDSO: no system call).
fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-parameter.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// Counts one request's latency, from its SQE seen consumed to its last
/// CQE seen, under its opcode; keeps the longest ones.
fn count_latency(t: &mut RingTrace, op: u8, user_data: u64, ns: u64) {
    let want = u16::from(op) + 1;
    let slot = t
        .lat
        .iter()
        .position(|l| l.op1 == want)
        .or_else(|| t.lat.iter().position(|l| l.op1 == 0));
    match slot.and_then(|i| t.lat.get_mut(i)) {
        Some(l) => {
            l.op1 = want;
            l.count += 1;
            l.max_ns = l.max_ns.max(ns);
            let k = (64 - ns.leading_zeros() as usize).min(LAT_BUCKETS - 1);
            if let Some(b) = l.buckets.get_mut(k) {
                *b = b.saturating_add(1);
            }
        }
        None => t.lat_uncounted += 1,
    }
    // The shortest of the kept ones makes room.
    if let Some(min) = t.slowest.iter_mut().min_by_key(|s| s.ns) {
        if ns > min.ns {
            *min = Slow {
                ns,
                user_data,
                opcode: op,
            };
        }
    }
}

/// The upper bound of the histogram bucket holding quantile `q` (in
/// hundredths) of `l`'s requests, in ns.
fn quantile(l: &OpLatency, q: u64) -> u64 {
    let want = (l.count * q).div_ceil(100).max(1);
    let mut seen = 0u64;
    for (k, &n) in l.buckets.iter().enumerate() {
        seen += u64::from(n);
        if seen >= want {
            // Bucket k holds [2^(k-1), 2^k): never report past the max.
            return (1u64 << k.min(63)).min(l.max_ns.max(1));
        }
    }
    l.max_ns
}

/// Appends a duration in a readable unit.
fn duration(l: &mut Line, ns: u64) {
    if ns >= 10_000_000_000 {
        l.u(ns / 1_000_000_000).s("s");
    } else if ns >= 10_000_000 {
        l.u(ns / 1_000_000).s("ms");
    } else if ns >= 10_000 {
        l.u(ns / 1_000).s("us");
    } else {
        l.u(ns).s("ns");
    }
}

fn hash(v: u64) -> usize {
    (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % UDATA_SLOTS
}

// ---------------------------------------------------------------------------
// CQ side
// ---------------------------------------------------------------------------

/// Logs the CQEs between the cursor and the kernel's tail; counts those
/// whose slots may have been reused as not seen.
///
/// The cursor only ever rests on the start of an entry: where the ring
/// was lapped (the program consumed entries inline and the kernel reused
/// their slots), it jumps to the program's head, which is an entry start
/// on every ring, 32-byte CQEs of a mixed ring included.
fn observe_cq(t: &mut RingTrace, cq: CompleteSide<'_>) {
    let entries = cq.cq_entries();
    let head = cq.cq_khead();
    let tail = cq.cq_ktail();
    let pending = tail.wrapping_sub(t.cq_cursor);
    if pending > entries.saturating_mul(4) {
        // Not a sane distance: the ring was reset behind our back.
        t.cq_cursor = head;
    } else if pending >= entries {
        // The kernel may be reusing the slots of the oldest ones.
        skip_to_head(t, head);
    }
    let dropped = u64::from(cq.cq_overflow());
    if dropped != t.cq_dropped && output::json() {
        json_instant(t, "CQ overflow: CQEs dropped", now_ns());
    }
    t.cq_dropped = dropped;
    let shift = crate::geometry::cqe_shift(t.setup_flags);
    let mixed = t.setup_flags & IORING_SETUP_CQE_MIXED != 0;
    loop {
        let left = tail.wrapping_sub(t.cq_cursor);
        if left == 0 || left > entries {
            break;
        }
        let Some(cqe) = cq.cqe((t.cq_cursor & cq.cq_mask()) << shift) else {
            break;
        };
        // An entry the program has released may be rewritten while we
        // read it: trust the copy only if the kernel has not come round.
        let released = (head.wrapping_sub(t.cq_cursor) as i32) > 0;
        if released && cq.cq_ktail().wrapping_sub(t.cq_cursor) >= entries {
            skip_to_head(t, head);
            continue;
        }
        let step = if mixed && cqe.flags & IORING_CQE_F_32 != 0 {
            2
        } else {
            1
        };
        if step > left {
            // Half an entry published: wait for the rest.
            break;
        }
        log_cqe(t, &cqe);
        t.cq_cursor = t.cq_cursor.wrapping_add(step);
    }
}

/// Moves the cursor to the program's head, counting the slots passed over
/// as not seen (nothing when the head is not ahead of the cursor).
fn skip_to_head(t: &mut RingTrace, head: u32) {
    let lost = head.wrapping_sub(t.cq_cursor);
    if lost == 0 || lost as i32 <= 0 {
        // The head is not ahead: nothing can be skipped to an entry start.
        t.cq_cursor = head;
        return;
    }
    note_not_seen(t, lost);
}

fn note_not_seen(t: &mut RingTrace, lost: u32) {
    t.cqes_not_seen += u64::from(lost);
    t.cq_cursor = t.cq_cursor.wrapping_add(lost);
    let mut l = ring_line(t);
    l.u(u64::from(lost));
    l.s(" CQE(s) were consumed by the program and their slots reused before the library could see them");
    l.emit_trace();
}

fn log_cqe(t: &mut RingTrace, cqe: &io_uring_cqe) {
    if cqe.flags & IORING_CQE_F_SKIP != 0 {
        return;
    }
    t.cqes_seen += 1;
    let more = cqe.flags & IORING_CQE_F_MORE != 0;
    let seen = recall(t, cqe.user_data, more);
    let op = seen.map(|r| r.opcode);
    if let Some(r) = seen {
        if !more && r.at_ns != 0 && cqe.user_data != crate::queue::LIBURING_UDATA_TIMEOUT {
            let now = now_ns();
            count_latency(t, r.opcode, cqe.user_data, now.saturating_sub(r.at_ns));
            if output::json() {
                json_request(t, &r, cqe, now);
            }
        }
    }
    if output::json() {
        if cqe.res == -libc::ENOBUFS {
            json_instant(t, "ENOBUFS: provided-buffer group empty", now_ns());
        }
        return;
    }
    let mut l = ring_line(t);
    l.s("CQE user_data=").x(cqe.user_data).s(" res=");
    if cqe.res < 0 {
        l.s("-");
        errno(&mut l, -cqe.res);
        count_error(t, op, -cqe.res);
    } else {
        l.i(i64::from(cqe.res));
    }
    l.s(" flags=");
    flags(&mut l, CQE_FLAG, u64::from(cqe.flags & 0xffff));
    if cqe.flags & IORING_CQE_F_BUFFER != 0 {
        l.s(" buf=")
            .u(u64::from(cqe.flags >> IORING_CQE_BUFFER_SHIFT));
    }
    if cqe.user_data == crate::queue::LIBURING_UDATA_TIMEOUT {
        l.s(" (the library's own wait timeout)");
    } else if let Some(op) = op {
        l.s(" (");
        opcode(&mut l, op);
        l.s(")");
    }
    l.emit_trace();
}

// ---------------------------------------------------------------------------
// Chrome trace-event JSON (LIBURING_TRACE_FORMAT=json)
// ---------------------------------------------------------------------------
//
// One process per ring (pid = the ring's trace id), one thread per thread
// of the program (tid = its pthread_self, cheap to read). Each request is
// a complete event ("X") from its SQE seen consumed to its last CQE seen,
// written when that CQE is seen; a call that entered the kernel is a
// complete event too (category "enter"), from its first enter to the end of
// the call; CQ overflows and dry buffer groups are instant events; SQ and
// CQ fill are counters. Every event is one line ending in a comma; the
// array is never closed (the format lets the `]` be left out, so a trace of
// several processes, or of one killed, stays readable).

/// The calling thread, as an id for the timeline (no system call).
fn this_thread() -> u64 {
    // SAFETY: no preconditions.
    (unsafe { libc::pthread_self() }) as u64 & ((1 << 53) - 1)
}

/// Appends `ns` as microseconds with three decimals.
fn micros(l: &mut Line, ns: u64) {
    l.u(ns / 1000).s(".");
    let frac = ns % 1000;
    if frac < 100 {
        l.s("0");
    }
    if frac < 10 {
        l.s("0");
    }
    l.u(frac);
}

fn json_head(l: &mut Line, t: &RingTrace, ph: &str, name: &str, tid: u64, ns: u64) {
    l.s("{\"ph\":\"").s(ph).s("\",\"name\":\"").s(name);
    l.s("\",\"pid\":").u(u64::from(t.id)).s(",\"tid\":").u(tid);
    l.s(",\"ts\":");
    micros(l, ns);
}

fn json_request(t: &RingTrace, r: &UdataSlot, cqe: &io_uring_cqe, now: u64) {
    let mut l = Line::new();
    let name = names::short_name(OPCODE, u64::from(r.opcode)).unwrap_or("opcode");
    json_head(&mut l, t, "X", name, r.thread, r.at_ns);
    l.s(",\"dur\":");
    micros(&mut l, now.saturating_sub(r.at_ns));
    l.s(",\"cat\":\"request\",\"args\":{\"opcode\":")
        .u(u64::from(r.opcode));
    l.s(",\"user_data\":\"")
        .x(r.user_data)
        .s("\",\"fd\":")
        .i(i64::from(r.fd));
    l.s(",\"len\":")
        .u(u64::from(r.len))
        .s(",\"sqe_flags\":")
        .u(u64::from(r.sqe_flags));
    l.s(",\"res\":")
        .i(i64::from(cqe.res))
        .s(",\"cqe_flags\":")
        .u(u64::from(cqe.flags));
    l.s("}}");
    l.emit_event();
}

fn json_instant(t: &RingTrace, name: &str, ns: u64) {
    let mut l = Line::new();
    json_head(&mut l, t, "i", name, this_thread(), ns);
    l.s(",\"s\":\"t\"}");
    l.emit_event();
}

fn json_counter(t: &RingTrace, name: &str, value: u32) {
    let mut l = Line::new();
    json_head(&mut l, t, "C", name, 0, now_ns());
    l.s(",\"args\":{\"entries\":").u(u64::from(value)).s("}}");
    l.emit_event();
}

/// A call that entered the kernel: a slice from its first enter to now
/// (an instant when the library did not time it).
fn json_call(t: &RingTrace, what: &str, enters: u32, result: i32, entered_ns: u64) {
    let mut l = Line::new();
    let now = now_ns();
    if entered_ns != 0 && entered_ns <= now {
        json_head(&mut l, t, "X", what, this_thread(), entered_ns);
        l.s(",\"dur\":");
        micros(&mut l, now - entered_ns);
        l.s(",\"cat\":\"enter\"");
    } else {
        json_head(&mut l, t, "i", what, this_thread(), now);
        l.s(",\"s\":\"t\"");
    }
    l.s(",\"args\":{\"enters\":").u(u64::from(enters));
    l.s(",\"result\":").i(i64::from(result)).s("}}");
    l.emit_event();
}

/// The last detach: ring numbers start again for a next attachment.
pub fn release(exiting: bool) {
    binary::release(exiting);
    if !exiting {
        NEXT_ID.store(1, Ordering::Relaxed);
    }
}

fn count_error(t: &mut RingTrace, op: Option<u8>, errno: i32) {
    let op = op.unwrap_or(u8::MAX);
    let errno = errno.clamp(0, i32::from(u16::MAX)) as u16;
    for e in t.errs.iter_mut() {
        if e.count != 0 && e.opcode == op && e.errno == errno {
            e.count += 1;
            return;
        }
        if e.count == 0 {
            *e = ErrCount {
                opcode: op,
                errno,
                count: 1,
            };
            return;
        }
    }
    t.errs_uncounted += 1;
}

// ---------------------------------------------------------------------------
// Observer functions
// ---------------------------------------------------------------------------

/// A submit call is done.
pub extern "C" fn submitted(
    sq: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
) {
    let calls = Pending {
        submits: 1,
        waits: 0,
        enters,
    };
    with_ring(sq.id(), calls, |t| {
        t.ring_fd = sq.ring_fd();
        t.submits += 1;
        t.enters += u64::from(enters);
        if result < 0 {
            let mut l = ring_line(t);
            l.s("submit failed: -");
            errno(&mut l, -result);
            l.emit_trace();
        }
        if enters != 0 && output::json() {
            json_call(t, "submit (entered the kernel)", enters, result, entered_ns);
        }
        let at_ns = if entered_ns != 0 {
            entered_ns
        } else {
            now_ns()
        };
        observe_sq(t, sq, result, at_ns);
        if let Some(cq) = cq {
            observe_cq(t, cq);
            if output::json() {
                json_counter(t, "CQ fill", cq.cq_ktail().wrapping_sub(cq.cq_khead()));
            }
        }
        keep_summary_current(t);
    });
}

/// A wait or peek call is done.
pub extern "C" fn reaped(cq: CompleteSide<'_>, result: i32, enters: u32, entered_ns: u64) {
    let calls = Pending {
        submits: 0,
        waits: 1,
        enters,
    };
    with_ring(cq.id(), calls, |t| {
        t.ring_fd = cq.ring_fd();
        t.waits += 1;
        t.enters += u64::from(enters);
        if enters != 0 && output::json() {
            json_call(t, "wait (entered the kernel)", enters, result, entered_ns);
        }
        observe_cq(t, cq);
        if output::json() {
            json_counter(t, "CQ fill", cq.cq_ktail().wrapping_sub(cq.cq_khead()));
        }
        keep_summary_current(t);
    });
}

/// `io_uring_queue_exit` (observer function): the last look and the summary.
pub extern "C" fn ring_exit(ring: &io_uring) {
    if binary::on() {
        return binary::ring_exit(ring);
    }
    let (_, cq) = observe::both_sides(ring);
    let Some(mut rec) = remove(Some(ring)) else {
        return;
    };
    let t = rec.get();
    observe_cq(t, cq);
    finish(t);
}

/// Process exit: summaries of the rings never torn down. Their `struct
/// io_uring` may be gone (a returned stack frame), so only the counts.
pub fn finish_all() {
    if binary::on() {
        return binary::finish_all();
    }
    while let Some(mut rec) = remove(None) {
        finish(rec.get());
    }
}

fn active(t: &RingTrace) -> bool {
    t.submits != 0 || t.waits != 0 || t.cqes_seen != 0 || t.cqes_not_seen != 0
}

/// The ring's summary: appended to a stream target, rewritten in its block
/// of a file target. Nothing for a ring that did nothing, unless asked
/// (`LIBURING_TRACE_IDLE`).
fn finish(t: &mut RingTrace) {
    if !active(t) && !super::idle_summaries() {
        return;
    }
    if output::has_blocks() {
        keep_summary_current(t);
        // Else no block could be placed for sure: appended below instead.
        if matches!(t.summary_at, Block::At(_)) {
            return;
        }
    }
    summary(t, &mut |l| l.emit_trace());
}

/// The summary's five lines, given to `each` one at a time in one buffer
/// (a summary may be written on a small stack: a fiber's, a handler's).
fn summary(t: &RingTrace, each: &mut dyn FnMut(&mut Line)) {
    let mut line = ring_line(t);
    let l = &mut line;
    l.s("summary: ")
        .u(t.sqes_consumed)
        .s(" SQEs consumed by the kernel in ")
        .u(t.submits)
        .s(" submit calls, ");
    l.u(t.waits).s(" wait calls, ");
    l.u(t.enters)
        .s(" enters (")
        .ratio(t.enters, t.submits + t.waits)
        .s(" per call), ");
    l.u(t.cqes_seen).s(" CQEs seen, ");
    l.u(t.cqes_not_seen).s(" not seen, ");
    l.u(t.cq_dropped)
        .s(" CQEs dropped by CQ overflow, overflow flagged at ");
    l.u(t.overflow_seen)
        .s(" submits, ")
        .u(t.warnings)
        .s(" warnings");

    each(l);
    ring_prefix(t, l.clear());
    l.s("summary: ops per opcode:");
    let mut any = false;
    for (op, &n) in t.ops.iter().enumerate() {
        if n != 0 {
            any = true;
            l.s(" ");
            opcode(l, op as u8);
            l.s("=").u(n);
        }
    }
    if !any {
        l.s(" none");
    }

    each(l);
    ring_prefix(t, l.clear());
    l.s("summary: errors per opcode and errno:");
    let mut any = false;
    for e in t.errs.iter().filter(|e| e.count != 0) {
        any = true;
        l.s(" ");
        if e.opcode == u8::MAX {
            l.s("?");
        } else {
            opcode(l, e.opcode);
        }
        l.s("/");
        errno(l, i32::from(e.errno));
        l.s("=").u(u64::from(e.count));
    }
    if t.errs_uncounted != 0 {
        l.s(" other=").u(t.errs_uncounted);
        any = true;
    }
    if !any {
        l.s(" none seen");
    }

    each(l);
    ring_prefix(t, l.clear());
    l.s("summary: request times per opcode (SQE consumed to last CQE, as the library saw them; p50/p99 are bucket bounds):");
    let mut any = false;
    for lat in t.lat.iter().filter(|lat| lat.op1 != 0 && lat.count != 0) {
        any = true;
        l.s(" ");
        opcode(l, (lat.op1 - 1) as u8);
        l.s(" n=").u(lat.count).s(" p50<=");
        duration(l, quantile(lat, 50));
        l.s(" p99<=");
        duration(l, quantile(lat, 99));
        l.s(" max=");
        duration(l, lat.max_ns);
        l.s(";");
    }
    if t.lat_uncounted != 0 {
        l.s(" other=").u(t.lat_uncounted);
        any = true;
    }
    if !any {
        l.s(" none");
    }

    each(l);
    ring_prefix(t, l.clear());
    l.s("summary: longest-waiting requests:");
    let mut slow = t.slowest;
    slow.sort_unstable_by_key(|s| core::cmp::Reverse(s.ns));
    let mut any = false;
    for s in slow.iter().filter(|s| s.ns != 0) {
        any = true;
        l.s(" ");
        opcode(l, s.opcode);
        l.s(" user_data=").x(s.user_data).s(" ");
        duration(l, s.ns);
        l.s(";");
    }
    if !any {
        l.s(" none");
    }
    each(l);
}

/// Writes the summary into its block: newline-terminated lines padded
/// with spaces to exactly `SUMMARY_BYTES`.
fn summary_block(t: &RingTrace, block: &mut output::BlockFill) {
    summary(t, &mut |l| {
        // Room for this line's newline and the block's last one.
        let text = l.as_bytes();
        let n = text
            .len()
            .min(SUMMARY_BYTES.saturating_sub(block.written() + 2));
        block.put(text.get(..n).unwrap_or(&[]));
        block.put(b"\n");
    });
    block.pad_to(SUMMARY_BYTES - 1, b' ');
    block.put(b"\n");
}

/// Rewrites the ring's summary block of a file target (reserving it at
/// the end of the file the first time).
fn keep_summary_current(t: &mut RingTrace) {
    if !output::has_blocks() {
        return;
    }
    let at = match t.summary_at {
        Block::NotYet => {
            let at = output::append_block(SUMMARY_BYTES);
            t.summary_at = at.map_or(Block::Nowhere, Block::At);
            at
        }
        Block::At(at) => Some(at),
        Block::Nowhere => None,
    };
    if let Some(at) = at {
        output::fill_block(at, |block| summary_block(t, block));
    }
}

#[cfg(test)]
mod tests;
