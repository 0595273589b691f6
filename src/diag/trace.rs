// SPDX-License-Identifier: MIT
//! `LIBURING_TRACE`: what a program hands to the kernel and gets back.
//!
//! SQEs are logged when the library publishes them (the SQ flush of every
//! submit call), decoded and checked for fields the kernel will refuse.
//!
//! CQEs are consumed by the program's inline code, so the library looks at
//! the CQ whenever it is called about the ring (a submit, a wait or peek,
//! teardown): it logs the entries between its own cursor and the kernel's
//! tail. Entries the program has already released are still intact while
//! the kernel has not reused their slots (the tail is less than a ring's
//! length past them); they are logged marked `late`, and only older ones,
//! whose slots may hold newer completions, are counted as not seen.
//!
//! `io_uring_enter` calls are counted process-wide and attributed to the
//! ring the library was last called about (exact for one ring per thread).
//!
//! State lives in a small table of traced rings behind one spin lock; its
//! cost only matters when tracing is on.

use crate::atomic_u64::AtomicU64;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

use super::line::Line;
use super::names::{self, CQE_FLAG, OPCODE, SETUP_FLAG, SQE_FLAG};
use super::{enters, trace_fd};
use crate::ring::LiveRing;
use crate::structs::io_uring;
use crate::uapi::*;

/// Rings traced at once; more are set up untraced (with a note).
const MAX_RINGS: usize = 64;
/// user_data -> opcode slots per ring (to attribute errors to opcodes).
const UDATA_SLOTS: usize = 4096;
/// Distinct (opcode, errno) pairs counted per ring.
const ERR_SLOTS: usize = 64;
/// `AT_FDCWD`: a negative fd that is valid for the *at() opcodes.
const AT_FDCWD: i32 = -100;

#[derive(Clone, Copy)]
struct UdataSlot {
    user_data: u64,
    opcode: u8,
    used: bool,
}

#[derive(Clone, Copy)]
struct ErrCount {
    opcode: u8,
    errno: u16,
    count: u32,
}

/// One traced ring. Allocated zeroed with `calloc`: every field is valid
/// as all-zero bytes.
struct RingTrace {
    id: u32,
    ring: *const io_uring,
    ring_fd: i32,
    setup_flags: u32,
    sq_kflags: *mut u32,
    sqes: *const io_uring_sqe,
    sq_mask: u32,
    sq_entries: u32,
    cq_khead: *mut u32,
    cq_ktail: *mut u32,
    cq_koverflow: *mut u32,
    cqes: *const io_uring_cqe,
    cq_mask: u32,
    cq_entries: u32,
    cq_cursor: u32,
    probed: bool,
    supported: [u8; 32],
    ops: [u64; 256],
    sqes_logged: u64,
    submits: u64,
    enters: u64,
    overflow_seen: u64,
    cqes_seen: u64,
    cqes_late: u64,
    cqes_not_seen: u64,
    warnings: u64,
    errs: [ErrCount; ERR_SLOTS],
    errs_uncounted: u64,
    udata: [UdataSlot; UDATA_SLOTS],
}

static RINGS: [AtomicPtr<RingTrace>; MAX_RINGS] = [const { AtomicPtr::new(null_mut()) }; MAX_RINGS];
static LOCK: AtomicBool = AtomicBool::new(false);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);
/// The ring the library was last called about, and the enter count then.
static LAST_RING: AtomicU32 = AtomicU32::new(0);
static LAST_ENTERS: AtomicU64 = AtomicU64::new(0);

/// Holds the table lock while alive.
struct Locked;

impl Locked {
    fn take() -> Locked {
        while LOCK
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
        Locked
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        LOCK.store(false, Ordering::Release);
    }
}

/// Loads a kernel-shared ring index.
///
/// # Safety
/// `p` must point into a live ring mapping.
unsafe fn load(p: *mut u32) -> u32 {
    if p.is_null() {
        return 0;
    }
    // SAFETY: per the caller; the kernel writes these words concurrently,
    // so they are only read atomically.
    unsafe { AtomicU32::from_ptr(p) }.load(Ordering::Acquire)
}

/// A line starting with the trace prefix and the ring's name.
fn ring_line(t: &RingTrace) -> Line {
    let mut l = Line::new();
    l.s("uring-trace: ring ")
        .u(u64::from(t.id))
        .s(" (fd ")
        .i(i64::from(t.ring_fd))
        .s("): ");
    l
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
    match names::errno_name(e) {
        Some(n) => l.s(n),
        None => l.s("errno ").u(e as u64),
    };
}

// ---------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------

/// Starts tracing a ring that was just set up; false if it is not traced.
pub fn ring_created(ring: &io_uring) -> bool {
    // SAFETY: calloc has no preconditions; zeroed bytes are a valid RingTrace.
    let t = unsafe { libc::calloc(1, core::mem::size_of::<RingTrace>()) }.cast::<RingTrace>();
    if t.is_null() {
        return false;
    }
    // SAFETY: freshly allocated, zeroed, exclusively ours until published.
    let tr = unsafe { &mut *t };
    tr.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    tr.ring = ring;
    tr.ring_fd = if ring.ring_fd >= 0 {
        ring.ring_fd
    } else {
        ring.enter_ring_fd
    };
    tr.setup_flags = ring.flags;
    tr.sq_kflags = ring.sq.kflags;
    tr.sqes = ring.sq.sqes;
    tr.sq_mask = ring.sq.ring_mask;
    tr.sq_entries = ring.sq.ring_entries;
    tr.cq_khead = ring.cq.khead;
    tr.cq_ktail = ring.cq.ktail;
    tr.cq_koverflow = ring.cq.koverflow;
    tr.cqes = ring.cq.cqes;
    tr.cq_mask = ring.cq.ring_mask;
    tr.cq_entries = ring.cq.ring_entries;
    // SAFETY: the ring was just set up: its indices are mapped.
    tr.cq_cursor = unsafe { load(tr.cq_khead) };
    // SAFETY: `ring` is a ring just set up, borrowed for this call.
    let live = unsafe { LiveRing::from_ptr(ptr::from_ref(ring).cast_mut()) };
    if let Some(Ok(probe)) = live.map(crate::probe::get_probe_ring) {
        // SAFETY: a probe from get_probe_ring has room for PROBE_OPS ops.
        unsafe {
            let n = u32::from((*probe).ops_len).min(crate::probe::PROBE_OPS);
            let ops = (*probe).ops.as_ptr();
            for i in 0..n as usize {
                let op = ops.add(i).read();
                if op.flags & IO_URING_OP_SUPPORTED != 0 {
                    if let Some(b) = tr.supported.get_mut(usize::from(op.op / 8)) {
                        *b |= 1 << (op.op % 8);
                    }
                }
            }
            crate::probe::free_probe(probe);
        }
        tr.probed = true;
    }

    let mut l = ring_line(tr);
    l.s("set up: ").u(u64::from(tr.sq_entries)).s(" SQ / ");
    l.u(u64::from(tr.cq_entries)).s(" CQ entries, flags ");
    flags(&mut l, SETUP_FLAG, u64::from(ring.flags));
    l.s(", features ");
    flags(&mut l, names::FEATURE, u64::from(ring.features));

    let _lock = Locked::take();
    for slot in &RINGS {
        if slot.load(Ordering::Relaxed).is_null() {
            slot.store(t, Ordering::Relaxed);
            l.emit(trace_fd());
            return true;
        }
    }
    l.s(" (not traced: more than 64 rings)");
    l.emit(trace_fd());
    // SAFETY: never published.
    unsafe { libc::free(t.cast()) };
    false
}

/// The traced ring `pred` picks, with the lock held.
fn find(
    _lock: &Locked,
    mut pred: impl FnMut(&RingTrace) -> bool,
) -> Option<(usize, &'static mut RingTrace)> {
    RINGS.iter().enumerate().find_map(|(i, slot)| {
        let p = slot.load(Ordering::Relaxed);
        // SAFETY: published entries stay allocated until removed under the
        // lock, which the caller holds; the lock makes the access exclusive.
        let t = unsafe { p.as_mut() }?;
        pred(t).then_some((i, t))
    })
}

// ---------------------------------------------------------------------------
// SQ side
// ---------------------------------------------------------------------------

/// Logs the SQE at SQ position `pos`; returns the slots it spans.
fn log_sqe_at(t: &mut RingTrace, pos: u32) -> u32 {
    // The SQ array, when the ring has one, is the identity map the library
    // wrote at setup, so position and SQE slot agree.
    let slot = pos & t.sq_mask;
    let shift = u32::from(t.setup_flags & IORING_SETUP_SQE128 != 0);
    // SAFETY: the SQE array has `sq_entries << shift` slots; the program
    // filled this one and hands it over now.
    let sqe = unsafe { t.sqes.add((slot << shift) as usize).read_volatile() };
    log_sqe(t, &sqe);
    let big = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
    if t.setup_flags & IORING_SETUP_SQE_MIXED != 0 && big {
        2
    } else {
        1
    }
}

/// Opcodes whose `fd` must be an open file (or a fixed-file index).
const FILE_OPS: &[u8] = &[
    IORING_OP_READV,
    IORING_OP_WRITEV,
    IORING_OP_FSYNC,
    IORING_OP_READ_FIXED,
    IORING_OP_WRITE_FIXED,
    IORING_OP_POLL_ADD,
    IORING_OP_SYNC_FILE_RANGE,
    IORING_OP_SENDMSG,
    IORING_OP_RECVMSG,
    IORING_OP_ACCEPT,
    IORING_OP_CONNECT,
    IORING_OP_FALLOCATE,
    IORING_OP_READ,
    IORING_OP_WRITE,
    IORING_OP_FADVISE,
    IORING_OP_SEND,
    IORING_OP_RECV,
    IORING_OP_EPOLL_CTL,
    IORING_OP_SPLICE,
    IORING_OP_TEE,
    IORING_OP_SHUTDOWN,
    IORING_OP_MSG_RING,
    IORING_OP_FSETXATTR,
    IORING_OP_FGETXATTR,
    IORING_OP_URING_CMD,
    IORING_OP_SEND_ZC,
    IORING_OP_SENDMSG_ZC,
    IORING_OP_READ_MULTISHOT,
    IORING_OP_FTRUNCATE,
    IORING_OP_BIND,
    IORING_OP_LISTEN,
    IORING_OP_RECV_ZC,
    IORING_OP_EPOLL_WAIT,
    IORING_OP_READV_FIXED,
    IORING_OP_WRITEV_FIXED,
    IORING_OP_URING_CMD128,
];

/// Opcodes that can pick a provided buffer (`IOSQE_BUFFER_SELECT`).
const BUFFER_SELECT_OPS: &[u8] = &[
    IORING_OP_READV,
    IORING_OP_READ,
    IORING_OP_RECVMSG,
    IORING_OP_RECV,
    IORING_OP_READ_MULTISHOT,
    IORING_OP_SEND,
    IORING_OP_SENDMSG,
    IORING_OP_URING_CMD,
    IORING_OP_URING_CMD128,
];

/// `sqe->flags` bits defined by the ABI.
const KNOWN_SQE_FLAGS: u8 = IOSQE_FIXED_FILE
    | IOSQE_IO_DRAIN
    | IOSQE_IO_LINK
    | IOSQE_IO_HARDLINK
    | IOSQE_ASYNC
    | IOSQE_BUFFER_SELECT
    | IOSQE_CQE_SKIP_SUCCESS;

fn log_sqe(t: &mut RingTrace, sqe: &io_uring_sqe) {
    let op = sqe.opcode;
    if let Some(n) = t.ops.get_mut(usize::from(op)) {
        *n += 1;
    }
    t.sqes_logged += 1;
    remember(t, sqe.user_data, op);

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
        l.s(" op_flags=").x(u64::from(sqe.rw_flags));
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
    l.emit(trace_fd());
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
        l.emit(trace_fd());
    };
    if op >= IORING_OP_LAST {
        warn(t, "sqe->opcode", "is not an io_uring opcode", "-EINVAL");
        return;
    }
    let supported = t
        .supported
        .get(usize::from(op / 8))
        .is_some_and(|b| b & (1 << (op % 8)) != 0);
    if t.probed && !supported {
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
        && FILE_OPS.contains(&op)
    {
        warn(
            t,
            "sqe->fd",
            "is negative without IOSQE_FIXED_FILE",
            "-EBADF",
        );
    }
    if sqe.flags & IOSQE_BUFFER_SELECT != 0 && !BUFFER_SELECT_OPS.contains(&op) {
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

/// Remembers which opcode `user_data` was submitted with.
fn remember(t: &mut RingTrace, user_data: u64, op: u8) {
    let start = hash(user_data);
    for k in 0..16 {
        if let Some(s) = t.udata.get_mut((start + k) % UDATA_SLOTS) {
            if !s.used || s.user_data == user_data {
                *s = UdataSlot {
                    user_data,
                    opcode: op,
                    used: true,
                };
                return;
            }
        }
    }
    // Crowded: evict the first candidate.
    if let Some(s) = t.udata.get_mut(start) {
        *s = UdataSlot {
            user_data,
            opcode: op,
            used: true,
        };
    }
}

/// The opcode `user_data` was submitted with; forgotten unless `keep`.
fn recall(t: &mut RingTrace, user_data: u64, keep: bool) -> Option<u8> {
    let start = hash(user_data);
    for k in 0..16 {
        let s = t.udata.get_mut((start + k) % UDATA_SLOTS)?;
        if s.used && s.user_data == user_data {
            let op = s.opcode;
            if !keep {
                s.used = false;
            }
            return Some(op);
        }
    }
    None
}

fn hash(v: u64) -> usize {
    (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % UDATA_SLOTS
}

// ---------------------------------------------------------------------------
// CQ side
// ---------------------------------------------------------------------------

/// Logs the CQEs between the cursor and the tail (those the program has
/// released already as late); counts those whose slots may be reused.
fn observe_cq(t: &mut RingTrace) {
    // SAFETY: the traced ring's indices stay mapped until it is torn down,
    // which removes it from the table first.
    let (head, tail) = unsafe { (load(t.cq_khead), load(t.cq_ktail)) };
    let pending = tail.wrapping_sub(t.cq_cursor);
    if pending > t.cq_entries.saturating_mul(4) {
        // Not a sane distance: the ring was reset behind our back.
        t.cq_cursor = head;
    } else if pending >= t.cq_entries {
        // The kernel may have reused the slots of the oldest ones.
        let lost = pending - t.cq_entries + 1;
        t.cqes_not_seen += u64::from(lost);
        t.cq_cursor = t.cq_cursor.wrapping_add(lost);
        let mut l = ring_line(t);
        l.u(u64::from(lost));
        l.s(" CQE(s) were consumed by the program and overwritten before the library could see them");
        l.emit(trace_fd());
    }
    let shift = u32::from(t.setup_flags & IORING_SETUP_CQE32 != 0);
    let mixed = t.setup_flags & IORING_SETUP_CQE_MIXED != 0;
    let mut budget = t.cq_entries;
    while t.cq_cursor != tail && budget > 0 {
        let slot = (t.cq_cursor & t.cq_mask) << shift;
        // SAFETY: the slot is below the kernel's tail and within the CQE array.
        let cqe = unsafe { t.cqes.add(slot as usize).read_volatile() };
        let step = if mixed && cqe.flags & IORING_CQE_F_32 != 0 {
            2
        } else {
            1
        };
        // Released by the program already: cursor before head.
        let late = (head.wrapping_sub(t.cq_cursor) as i32) > 0;
        log_cqe(t, &cqe, late);
        t.cq_cursor = t.cq_cursor.wrapping_add(step);
        budget = budget.saturating_sub(step);
    }
}

fn log_cqe(t: &mut RingTrace, cqe: &io_uring_cqe, late: bool) {
    if cqe.flags & IORING_CQE_F_SKIP != 0 {
        return;
    }
    t.cqes_seen += 1;
    t.cqes_late += u64::from(late);
    let op = recall(t, cqe.user_data, cqe.flags & IORING_CQE_F_MORE != 0);
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
    if late {
        l.s(" (late: already consumed by the program)");
    }
    if cqe.user_data == crate::queue::LIBURING_UDATA_TIMEOUT {
        l.s(" (the library's own wait timeout)");
    } else if let Some(op) = op {
        l.s(" (");
        opcode(&mut l, op);
        l.s(")");
    }
    l.emit(trace_fd());
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
// Hooks
// ---------------------------------------------------------------------------

/// Credits the enters since the last call about any ring to that ring,
/// and makes `id` the ring of the current call.
fn account_enters(lock: &Locked, id: u32) {
    let now = enters();
    let since = now.wrapping_sub(LAST_ENTERS.swap(now, Ordering::Relaxed));
    let last = LAST_RING.swap(id, Ordering::Relaxed);
    if let Some((_, t)) = find(lock, |t| t.id == last) {
        t.enters += since;
    }
}

/// The library touched a traced ring (SQ flush, or a wait's enter): the
/// CQEs in the ring, then the SQEs about to be published, if any.
pub fn saw_ring(ring: LiveRing) {
    let lock = Locked::take();
    let Some((_, t)) = find(&lock, |t| ptr::eq(t.ring, ring.as_ptr())) else {
        return;
    };
    let id = t.id;
    account_enters(&lock, id);
    let Some((_, t)) = find(&lock, |t| t.id == id) else {
        return;
    };
    observe_cq(t);
    let (first, end) = if t.setup_flags & IORING_SETUP_SQ_REWIND != 0 {
        (0, ring.sqe_tail())
    } else {
        (ring.sqe_head(), ring.sqe_tail())
    };
    if first == end {
        return;
    }
    t.submits += 1;
    let mut pos = first;
    let mut budget = t.sq_entries;
    while pos != end && budget > 0 {
        let step = log_sqe_at(t, pos);
        pos = pos.wrapping_add(step);
        budget = budget.saturating_sub(step);
    }
    // SAFETY: live ring.
    if unsafe { load(t.sq_kflags) } & IORING_SQ_CQ_OVERFLOW != 0 {
        t.overflow_seen += 1;
    }
}

/// `io_uring_queue_exit`: the last look and the summary.
pub fn ring_exit(ring: &io_uring) {
    let lock = Locked::take();
    let Some((_, t)) = find(&lock, |t| ptr::eq(t.ring, ring)) else {
        return;
    };
    let id = t.id;
    account_enters(&lock, id);
    if let Some((i, t)) = find(&lock, |t| t.id == id) {
        finish(i, t);
    }
}

/// Process exit: summaries of the rings never torn down.
pub fn finish_all() {
    let lock = Locked::take();
    account_enters(&lock, 0);
    while let Some((i, t)) = find(&lock, |_| true) {
        finish(i, t);
    }
}

/// Prints `t`'s summary and drops it from the table.
fn finish(index: usize, t: &mut RingTrace) {
    observe_cq(t);
    // SAFETY: the ring is still mapped (teardown has not started).
    let dropped = unsafe { load(t.cq_koverflow) };
    let mut l = ring_line(t);
    l.s("summary: ")
        .u(t.sqes_logged)
        .s(" SQEs in ")
        .u(t.submits)
        .s(" submits, ");
    l.u(t.enters)
        .s(" enters (")
        .ratio(t.enters, t.submits)
        .s(" per submit), ");
    l.u(t.cqes_seen).s(" CQEs seen (").u(t.cqes_late);
    l.s(" after the program had consumed them), ");
    l.u(t.cqes_not_seen).s(" not seen, ");
    l.u(u64::from(dropped))
        .s(" CQEs dropped by CQ overflow, overflow flagged at ");
    l.u(t.overflow_seen)
        .s(" submits, ")
        .u(t.warnings)
        .s(" warnings");
    l.emit(trace_fd());

    let mut l = ring_line(t);
    l.s("summary: ops per opcode:");
    let mut any = false;
    for (op, &n) in t.ops.iter().enumerate() {
        if n != 0 {
            any = true;
            l.s(" ");
            opcode(&mut l, op as u8);
            l.s("=").u(n);
        }
    }
    if !any {
        l.s(" none");
    }
    l.emit(trace_fd());

    let mut l = ring_line(t);
    l.s("summary: errors per opcode and errno:");
    let mut any = false;
    for e in t.errs.iter().filter(|e| e.count != 0) {
        any = true;
        l.s(" ");
        if e.opcode == u8::MAX {
            l.s("?");
        } else {
            opcode(&mut l, e.opcode);
        }
        l.s("/");
        errno(&mut l, i32::from(e.errno));
        l.s("=").u(u64::from(e.count));
    }
    if t.errs_uncounted != 0 {
        l.s(" other=").u(t.errs_uncounted);
        any = true;
    }
    if !any {
        l.s(" none seen");
    }
    l.emit(trace_fd());

    if let Some(slot) = RINGS.get(index) {
        let p = slot.swap(null_mut(), Ordering::Relaxed);
        // SAFETY: allocated by ring_created with calloc; unpublished now,
        // and the lock keeps every other user out.
        unsafe { libc::free(p.cast()) };
    }
}
