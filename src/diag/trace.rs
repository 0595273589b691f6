// SPDX-License-Identifier: MIT
//! `LIBURING_TRACE`: what a program hands to the kernel and gets back.
//!
//! SQEs are logged when the kernel takes them: after each `io_uring_enter`
//! the slots between the ring's log cursor and the kernel's SQ head (on an
//! SQPOLL ring: the tail just published) are decoded. The slots still hold
//! what the program wrote, because the SQ side only reuses a slot through
//! the library's next `io_uring_get_sqe`, after we return.
//!
//! CQEs are consumed by the program's inline code, so the library looks at
//! the CQ whenever it is called (after an enter, a wait or a peek): it logs
//! the entries between its own cursor and the tail, and counts the ones the
//! program had already released past the cursor as not seen.
//!
//! State lives in a small table of traced rings behind one spin lock; the
//! cost only matters when tracing is on.

use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

use super::line::Line;
use super::names::{self, CQE_FLAG, ENTER_FLAG, OPCODE, SETUP_FLAG, SQE_FLAG};
use super::trace_fd;
use crate::structs::{int_flags, io_uring};
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
    sq_khead: *mut u32,
    sq_ktail: *mut u32,
    sq_kflags: *mut u32,
    sq_array: *const u32,
    sqes: *const io_uring_sqe,
    sq_mask: u32,
    sq_entries: u32,
    cq_khead: *mut u32,
    cq_ktail: *mut u32,
    cq_koverflow: *mut u32,
    cqes: *const io_uring_cqe,
    cq_mask: u32,
    cq_entries: u32,
    sq_cursor: u32,
    cq_cursor: u32,
    probed: bool,
    supported: [u8; 32],
    ops: [u64; 256],
    sqes_logged: u64,
    sqes_not_seen: u64,
    submits: u64,
    enters: u64,
    overflow_seen: u64,
    cqes_seen: u64,
    cqes_not_seen: u64,
    warnings: u64,
    errs: [ErrCount; ERR_SLOTS],
    errs_uncounted: u64,
    udata: [UdataSlot; UDATA_SLOTS],
}

static RINGS: [AtomicPtr<RingTrace>; MAX_RINGS] = [const { AtomicPtr::new(null_mut()) }; MAX_RINGS];
static LOCK: AtomicBool = AtomicBool::new(false);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

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

/// Starts tracing a ring that was just set up.
pub fn ring_created(ring: &io_uring) {
    // SAFETY: calloc has no preconditions; zeroed bytes are a valid RingTrace.
    let t = unsafe { libc::calloc(1, core::mem::size_of::<RingTrace>()) }.cast::<RingTrace>();
    if t.is_null() {
        return;
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
    tr.sq_khead = ring.sq.khead;
    tr.sq_ktail = ring.sq.ktail;
    tr.sq_kflags = ring.sq.kflags;
    tr.sq_array = ring.sq.array;
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
    unsafe {
        tr.sq_cursor = load(tr.sq_khead);
        tr.cq_cursor = load(tr.cq_khead);
    }
    if let Ok(probe) = crate::probe::get_probe_ring(ring) {
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
            return;
        }
    }
    l.s(" (not traced: more than 64 rings)");
    l.emit(trace_fd());
    // SAFETY: never published.
    unsafe { libc::free(t.cast()) };
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

/// Logs the SQEs from the cursor up to `upto` (a kernel SQ index).
fn log_sqes(t: &mut RingTrace, upto: u32) {
    let mut pending = upto.wrapping_sub(t.sq_cursor);
    if pending == 0 {
        return;
    }
    if pending > t.sq_entries {
        // The program moved the SQ behind the library's back.
        t.sqes_not_seen += u64::from(pending - t.sq_entries);
        t.sq_cursor = upto.wrapping_sub(t.sq_entries);
        pending = t.sq_entries;
    }
    t.submits += 1;
    let mut i = t.sq_cursor;
    let end = t.sq_cursor.wrapping_add(pending);
    while i != end {
        i = i.wrapping_add(log_sqe_at(t, i));
    }
    t.sq_cursor = end;
}

/// Logs the SQE at SQ position `pos`; returns the slots it spans.
fn log_sqe_at(t: &mut RingTrace, pos: u32) -> u32 {
    let mut slot = pos & t.sq_mask;
    if !t.sq_array.is_null() {
        // SAFETY: the SQ array has `sq_entries` entries in ring memory.
        slot = unsafe { t.sq_array.add(slot as usize).read_volatile() } & t.sq_mask;
    }
    let shift = u32::from(t.setup_flags & IORING_SETUP_SQE128 != 0);
    // SAFETY: the SQE array has `sq_entries << shift` slots; the program
    // wrote this one before publishing it and cannot reuse it yet.
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

/// Logs the CQEs between the cursor and the tail; counts those the program
/// released before the library could see them.
fn observe_cq(t: &mut RingTrace) {
    // SAFETY: the traced ring's indices stay mapped until it is torn down,
    // which removes it from the table first.
    let (head, tail) = unsafe { (load(t.cq_khead), load(t.cq_ktail)) };
    let behind = head.wrapping_sub(t.cq_cursor);
    if behind != 0 && behind <= t.cq_entries.saturating_mul(2) {
        t.cqes_not_seen += u64::from(behind);
        t.cq_cursor = head;
        let mut l = ring_line(t);
        l.u(u64::from(behind));
        l.s(" CQE(s) were consumed by the program before the library could see them");
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
        log_cqe(t, &cqe);
        t.cq_cursor = t.cq_cursor.wrapping_add(step);
        budget = budget.saturating_sub(step);
    }
}

fn log_cqe(t: &mut RingTrace, cqe: &io_uring_cqe) {
    if cqe.flags & IORING_CQE_F_SKIP != 0 {
        return;
    }
    t.cqes_seen += 1;
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

/// After an `io_uring_enter` on `fd` returned `ret`.
pub fn entered(fd: u32, to_submit: u32, min_complete: u32, enter_flags: u32, ret: isize) {
    let lock = Locked::take();
    let registered = enter_flags & IORING_ENTER_REGISTERED_RING != 0;
    let found = find(&lock, |t| {
        if registered {
            // A registered index is only known to the ring struct itself.
            // SAFETY: traced rings are live until queue_exit removes them.
            let r = unsafe { &*t.ring };
            r.int_flags & int_flags::REG_RING != 0 && r.enter_ring_fd == fd as i32
        } else {
            t.ring_fd == fd as i32
        }
    });
    let Some((_, t)) = found else {
        return;
    };
    t.enters += 1;
    if t.setup_flags & IORING_SETUP_SQ_REWIND != 0 {
        // The kernel took `ret` SQEs from slot 0 on.
        if ret > 0 {
            t.submits += 1;
            let n = (ret as u32).min(t.sq_entries);
            let mut i = 0;
            while i < n {
                i += log_sqe_at(t, i);
            }
        }
    } else {
        // SAFETY: traced rings are live until queue_exit removes them.
        let upto = unsafe {
            if t.setup_flags & IORING_SETUP_SQPOLL != 0 {
                load(t.sq_ktail)
            } else {
                load(t.sq_khead)
            }
        };
        log_sqes(t, upto);
    }
    if ret < 0 {
        let mut l = ring_line(t);
        l.s("io_uring_enter(to_submit ").u(u64::from(to_submit));
        l.s(", min_complete ")
            .u(u64::from(min_complete))
            .s(", flags ");
        flags(&mut l, ENTER_FLAG, u64::from(enter_flags));
        l.s(") failed with -");
        errno(&mut l, -(ret as i32));
        l.emit(trace_fd());
    }
    // SAFETY: as above.
    if unsafe { load(t.sq_kflags) } & IORING_SQ_CQ_OVERFLOW != 0 {
        t.overflow_seen += 1;
    }
    observe_cq(t);
}

/// After the library published SQEs on an SQPOLL ring.
pub fn sqpoll_published(ring: &io_uring) {
    let lock = Locked::take();
    if let Some((_, t)) = find(&lock, |t| ptr::eq(t.ring, ring)) {
        // SAFETY: live ring.
        let tail = unsafe { load(t.sq_ktail) };
        log_sqes(t, tail);
    }
}

/// The program called the library about `ring`'s completions.
pub fn observe(ring: &io_uring) {
    let lock = Locked::take();
    if let Some((_, t)) = find(&lock, |t| ptr::eq(t.ring, ring)) {
        observe_cq(t);
    }
}

/// `io_uring_queue_exit`: the last look and the summary.
pub fn ring_exit(ring: &io_uring) {
    let lock = Locked::take();
    if let Some((i, t)) = find(&lock, |t| ptr::eq(t.ring, ring)) {
        finish(i, t);
    }
}

/// Process exit: summaries of the rings never torn down.
pub fn finish_all() {
    let lock = Locked::take();
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
    l.u(t.cqes_seen)
        .s(" CQEs seen, ")
        .u(t.cqes_not_seen)
        .s(" not seen, ");
    l.u(u64::from(dropped))
        .s(" CQ overflows dropped, CQ overflow flagged at ");
    l.u(t.overflow_seen)
        .s(" enters, ")
        .u(t.warnings)
        .s(" warnings");
    if t.sqes_not_seen != 0 {
        l.s(", ").u(t.sqes_not_seen).s(" SQEs not seen");
    }
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
