// SPDX-License-Identifier: MIT
//! `LIBURING_CHECK`: misuse of io_uring caught inside the program.
//!
//! `LIBURING_CHECK=1` prints a finding on stderr when a call of the
//! program's shows one of the mistakes below; `LIBURING_CHECK=abort` also
//! aborts the process at the first one (for test suites). Each kind of
//! finding is printed once per ring. A finding names what happened, the
//! ring, the thread (id and name), the library call it was seen in, why it
//! matters, and the fix.
//!
//! The checks (each name is the finding's tag):
//! - `owner-thread`: a `SINGLE_ISSUER` or `DEFER_TASKRUN` ring answered
//!   -EEXIST because another thread owns it (named, and whether enabling an
//!   `R_DISABLED` ring made it the owner).
//! - `peek-only`: a `DEFER_TASKRUN` ring with requests in flight that the
//!   program only peeks at, so the kernel never runs their completion work.
//! - `unsubmitted-wait`: a wait about to sleep with nothing in flight while
//!   SQEs taken from the SQ were never submitted: it would sleep forever
//!   (a timed one would only time out, again and again).
//! - `multishot-ended`: the same, where a multishot request ended (no
//!   `IORING_CQE_F_MORE`) and was not armed again; if it was cancelled
//!   (-ECANCELED) the fix named is to wait only for the CQEs still to come.
//! - `cq-overflow`: the CQ overflowed because CQEs are not marked seen.
//! - `enobufs`: a provided-buffer group ran dry again and again.
//! - `link-cancelled`: a linked request was cancelled because an earlier
//!   member of its chain failed (that member is named).
//! - `user-data-reuse`: an SQE's `user_data` equals that of a request still
//!   in flight (0 is ignored: a program that leaves it 0 tells none apart).
//! - `fork`: a ring set up by one process used by a child after `fork`.
//! - `asan-poisoned`: in a program built with `-fsanitize=address`, an SQE
//!   that points at memory AddressSanitizer has poisoned (`check/asan.rs`).
//! - `wait-unsatisfiable`: an untimed wait for more CQEs than the ready ones
//!   and the requests in flight can post, nothing else able to add any
//!   (`check/waits.rs`, which also holds the timed `unsubmitted-wait`).
//! - `link-last`: `IOSQE_IO_LINK` on the last SQE of a submission
//!   (`check/links.rs`).
//!
//! Like the trace, the checker walks the SQEs the kernel consumed and the
//! CQEs it posted from the hooks (see `uring_core::hooks`), makes no system
//! call on the program's ring, and keeps its per-ring records in a table
//! without locks: a record is checked out with an atomic swap, and a call
//! that finds it checked out (two threads at once, a signal handler) skips
//! its checks rather than wait. Where it cannot follow every CQE (the
//! program consumed some inline and the kernel reused their slots), the
//! checks that count requests in flight stop for that ring rather than
//! guess.

// `asan-poisoned`: SQE memory against AddressSanitizer, when present.
mod asan;
// `link-last`: a link flag on the last SQE of a submission.
mod links;
// `wait-unsatisfiable` and the timed `unsubmitted-wait`.
mod waits;
// The CQEs a ring's fdinfo lists as held back (`cq-overflow`).
mod overflow_held;
// Buffers taken from each provided-buffer group (`enobufs`).
mod buf_taken;
// `deferred-pending`: a DEFER_TASKRUN ring's work left for an owner that never enters.
mod deferred;

use core::ptr::{null_mut, NonNull};
use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};

use super::line::Line;
use super::memory::{Kind, Record, MAX_RINGS};
use super::names::{self, OPCODE};
use super::output::SavedErrno;
use super::sysinfo;
use crate::structs::io_uring;
use crate::uapi::*;
use uring_core::observe::{self, Caller, CompleteSide, CqeArray, SqeArray, SubmitSide};

/// Buckets of the request table (a power of two) and slots of one bucket
/// (the bits of one occupancy byte): 4096 requests followed per ring.
const BUCKET_BITS: u32 = 9;
const BUCKETS: usize = 1 << BUCKET_BITS;
const WAYS: usize = 8;
const REQ_SLOTS: usize = BUCKETS * WAYS;
/// Chains remembered per ring (the most recent ones).
const CHAIN_SLOTS: usize = 32;
/// Buffer groups whose -ENOBUFS streak is counted per ring.
const GROUP_SLOTS: usize = 8;
/// Consecutive -ENOBUFS of one group that make a finding.
const ENOBUFS_STREAK: u32 = 8;
/// Consecutive peeks that did not enter, with requests in flight, that make
/// a finding on a DEFER_TASKRUN ring.
const PEEK_STREAK: u32 = 4096;

/// 0: off, 1: report, 2: report and abort.
static MODE: AtomicU32 = AtomicU32::new(0);
/// Bumped in every child of a fork (pthread_atfork).
static FORK_GEN: AtomicU32 = AtomicU32::new(0);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

// The kinds of finding (bits of `RingCheck::reported`).
const OWNER: u32 = 1 << 0;
const PEEK: u32 = 1 << 1;
const UNSUBMITTED: u32 = 1 << 2;
const MSHOT: u32 = 1 << 3;
const OVERFLOW: u32 = 1 << 4;
const ENOBUFS: u32 = 1 << 5;
const LINK: u32 = 1 << 6;
const REUSE: u32 = 1 << 7;
const FORK: u32 = 1 << 8;
// (1 << 9: asan::POISONED; 1 << 10: waits::NEVER; 1 << 11: links::LAST;
// 1 << 12: deferred::PENDING.)

/// Setup flags whose rings the general walks follow (SQPOLL's consumed
/// mark, SQEs or CQEs of two sizes or of double size).
const SLOW_SETUP: u32 = IORING_SETUP_SQPOLL
    | IORING_SETUP_SQE_MIXED
    | IORING_SETUP_CQE_MIXED
    | IORING_SETUP_SQE128
    | IORING_SETUP_CQE32;
/// SQE flags whose requests the general path follows.
const SLOW_SQE: u8 =
    IOSQE_IO_LINK | IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS | IOSQE_BUFFER_SELECT;

/// Whether `LIBURING_CHECK` is on.
pub fn checking() -> bool {
    MODE.load(Ordering::Relaxed) != 0
}

/// Reads `LIBURING_CHECK` (at attach); true when it asks for checks.
pub fn start() -> bool {
    // SAFETY: getenv with a NUL-terminated name, from the load-time attach.
    let v = unsafe { libc::getenv(c"LIBURING_CHECK".as_ptr()) };
    if v.is_null() {
        return false;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let v = unsafe { core::ffi::CStr::from_ptr(v) }.to_bytes();
    let mode = match v {
        b"" | b"0" => return false,
        b"abort" => 2,
        _ => 1,
    };
    MODE.store(mode, Ordering::Relaxed);
    find_single_threaded();
    asan::find();
    true
}

/// In a child after fork (the object's fork handler).
pub fn forked() {
    FORK_GEN.fetch_add(1, Ordering::Relaxed);
}

/// The last detach: checks stop; unless `exiting` (other threads may still
/// be in a hook), the records go too.
pub fn release(exiting: bool) {
    MODE.store(0, Ordering::Relaxed);
    if exiting {
        return;
    }
    for s in SLOTS.iter() {
        let ring = s.ring.load(Ordering::Relaxed);
        if ring != 0 {
            drop(remove(ring));
        }
    }
}

/// glibc's `__libc_single_threaded` (it stays 0 once a second thread was
/// made), found at attach; null where the C library has none.
static SINGLE_THREADED: AtomicPtr<u8> = AtomicPtr::new(null_mut());

fn find_single_threaded() {
    // SAFETY: a NUL-terminated name; RTLD_DEFAULT searches the process.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"__libc_single_threaded".as_ptr()) };
    SINGLE_THREADED.store(p.cast(), Ordering::Relaxed);
}

/// Whether no other thread of the process can be running (false when
/// unknown): glibc's flag says the process has only ever had one thread;
/// elsewhere (musl) the kernel's count of the process's threads now, the
/// link count of `/proc/self/task` (2 + threads), asked with `stat`, which
/// holds no descriptor. Only this thread could make another meanwhile.
fn single_threaded() -> bool {
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

/// The kind bits of `Req::state` (above its count); none for a plain
/// request. The fields they guard (`buf_group`, `chain`, `pos`) are
/// written only with them.
const KIND_MULTISHOT: u64 = 1 << 32;
const KIND_BUF_SELECT: u64 = 1 << 33;
const KIND_CHAINED: u64 = 1 << 34;
const COUNT_MASK: u64 = u32::MAX as u64;
/// `Req::state` of one plain request in flight, the fast walks' case:
/// one store makes it, one compare finds it.
const ONE_PLAIN: u64 = 1;

#[derive(Clone, Copy)]
struct Req {
    user_data: u64,
    /// Requests in flight with this user_data (the low 32 bits; its
    /// occupancy bit is set while not 0), and the `KIND_*` bits.
    state: u64,
    opcode: u8,
    buf_group: u16,
    fd: i32,
    /// Chain number (0: not linked) and place in it (1-based).
    chain: u32,
    pos: u16,
}

impl Req {
    fn count(&self) -> u32 {
        (self.state & COUNT_MASK) as u32
    }
    fn multishot(&self) -> bool {
        self.state & KIND_MULTISHOT != 0
    }
    fn buf_select(&self) -> bool {
        self.state & KIND_BUF_SELECT != 0
    }
}

/// The kind bits of a request: multishot, selecting a buffer, linked.
#[inline(always)]
fn kind_of(multishot: bool, buf_select: bool, chain: u32) -> u64 {
    (if multishot { KIND_MULTISHOT } else { 0 })
        | (if buf_select { KIND_BUF_SELECT } else { 0 })
        | (if chain != 0 { KIND_CHAINED } else { 0 })
}

#[derive(Clone, Copy)]
struct Chain {
    id: u32,
    has_link_timeout: bool,
    done: bool,
    /// The member that failed: user_data, opcode, place, result.
    failed: Option<(u64, u8, u16, i32)>,
    /// The first member seen cancelled before the failure was seen.
    cancelled: Option<(u64, u8, u16)>,
}

/// `RingCheck::detour`: a CQE went by unseen (or the table filled), so
/// the in-flight counts are given up.
const DETOUR_LOST: u8 = 1 << 0;
/// `RingCheck::detour`: a multishot request ended (`RingCheck::ended`).
const DETOUR_ENDED: u8 = 1 << 1;
/// `RingCheck::detour`: a setup flag takes the ring off the fast walks
/// (`SLOW_SETUP`), or DEFER_TASKRUN (the peek streak).
const DETOUR_SETUP: u8 = 1 << 2;
/// `RingCheck::detour`: the owner thread is not known yet.
const DETOUR_OWNER: u8 = 1 << 3;

/// The room a ring's record takes.
pub const RECORD_BYTES: usize = core::mem::size_of::<RingCheck>();

/// One checked ring, in the diagnostics' own memory (`Record`), zeroed
/// (every field valid as zero bytes).
struct RingCheck {
    id: u32,
    ring: usize,
    flags: u32,
    /// The program's call site of the library call now being checked.
    caller: usize,
    /// The thread that owns a SINGLE_ISSUER ring (0: not known yet), and
    /// its name when it became the owner.
    owner_tid: i32,
    owner_name: [u8; 16],
    /// A thread other than the owner of a SINGLE_ISSUER ring submitted to
    /// it (-EEXIST): the SQ side is not the owner's alone (`waiting`).
    foreign_submitter: bool,
    owner_from_enable: bool,
    pid: i32,
    fork_gen: u32,
    sq_cursor: u32,
    cq_cursor: u32,
    /// The `DETOUR_*` reasons why the submit hook's fast path leaves this
    /// ring to the general code (0: it takes it), in one byte so that one
    /// test answers; `lost()` is one of them.
    detour: u8,
    /// No setup flag takes the ring off the fast walks (`SLOW_SETUP`).
    simple: bool,
    in_flight: u32,
    reported: u32,
    peeks_idle: u32,
    overflow_last: u32,
    cur_chain: u32,
    /// A member of the current chain had IOSQE_CQE_SKIP_SUCCESS: when one
    /// such fails, the kernel posts no CQE for the members after it.
    chain_skip: bool,
    next_chain: u32,
    chain_pos: u16,
    /// A multishot request that ended: user_data, opcode, fd, result
    /// (set through `set_ended`).
    ended: Option<(u64, u8, i32, i32)>,
    /// A user_data submitted while one of its value was in flight: the
    /// value, the new opcode, the old one.
    suspect: Option<(u64, u8, u8)>,
    /// CQEs may come that the counts do not owe: a request was left
    /// unfollowed (its CQE skipped on success), or a CQE of no request
    /// followed arrived (another ring's message, say) (`waits.rs`).
    uncounted: bool,
    /// The last linked SQE seen (user_data, opcode), and whether a walk
    /// ended with its chain still open (`links.rs`).
    last_linked: (u64, u8),
    link_left_open: bool,
    /// DEFER_TASKRUN: the owner entered the kernel for completions since
    /// its last submit (`deferred.rs`).
    events_entered: bool,
    groups: [(u16, u32); GROUP_SLOTS],
    /// Per buffer group, the buffers its requests' CQEs took (`buf_taken`).
    buf_taken: [(u16, u32); buf_taken::SLOTS],
    chains: [Chain; CHAIN_SLOTS],
    /// Per bucket, a bit per slot holding a request in flight.
    occupied: [u8; BUCKETS],
    reqs: [Req; REQ_SLOTS],
}

impl RingCheck {
    /// The in-flight counts were given up.
    fn lost(&self) -> bool {
        self.detour & DETOUR_LOST != 0
    }
    fn set_lost(&mut self) {
        self.detour |= DETOUR_LOST;
    }
    fn set_ended(&mut self, ended: Option<(u64, u8, i32, i32)>) {
        self.ended = ended;
        if ended.is_some() {
            self.detour |= DETOUR_ENDED;
        } else {
            self.detour &= !DETOUR_ENDED;
        }
    }
    /// The calling thread becomes the ring's owner.
    fn set_owner_here(&mut self) {
        self.owner_tid = gettid();
        self.owner_name = this_thread_name();
        self.detour &= !DETOUR_OWNER;
    }
}

struct Slot {
    ring: AtomicUsize,
    rec: AtomicPtr<RingCheck>,
}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const FREE: Slot = Slot {
    ring: AtomicUsize::new(0),
    rec: AtomicPtr::new(null_mut()),
};
static SLOTS: [Slot; MAX_RINGS] = [FREE; MAX_RINGS];

/// A ring's record checked out of its slot by this thread (the same
/// hand-over as the trace's table: Acquire swap out, Release back). Two
/// words, passed in registers: the submit hook's fast path hands it on to
/// a continuation in a tail call.
struct CheckedOut {
    slot: &'static Slot,
    rec: NonNull<RingCheck>,
}

impl CheckedOut {
    /// `ring`'s record, unless it is not followed or checked out already.
    #[inline(always)]
    fn take(ring: usize) -> Option<CheckedOut> {
        let slot = SLOTS
            .iter()
            .find(|s| s.ring.load(Ordering::Relaxed) == ring)?;
        let rec = NonNull::new(slot.rec.swap(null_mut(), Ordering::Acquire))?;
        Some(CheckedOut { slot, rec })
    }

    #[inline(always)]
    fn rec(&mut self) -> &mut RingCheck {
        // SAFETY: checked out by the swap in `take`: this thread's alone
        // until `put_back` stores it again.
        unsafe { self.rec.as_mut() }
    }

    #[inline(always)]
    fn put_back(self) {
        self.slot.rec.store(self.rec.as_ptr(), Ordering::Release);
    }
}

/// Runs `f` on `ring`'s record when this thread can check it out.
fn with_ring<R>(ring: usize, f: impl FnOnce(&mut RingCheck) -> R) -> Option<R> {
    let mut out = CheckedOut::take(ring)?;
    let r = f(out.rec());
    out.put_back();
    Some(r)
}

/// A record taken out of the table for good: when dropped its memory is
/// given back, and then its slot (whose index the memory belongs to).
struct Removed {
    slot: &'static Slot,
    rec: Option<Record<RingCheck>>,
}

impl Drop for Removed {
    fn drop(&mut self) {
        drop(self.rec.take());
        self.slot.ring.store(0, Ordering::Release);
    }
}

/// Takes `ring`'s record out of the table for good.
fn remove(ring: usize) -> Option<Removed> {
    let slot = SLOTS
        .iter()
        .find(|s| s.ring.load(Ordering::Relaxed) == ring)?;
    let rec = NonNull::new(slot.rec.swap(null_mut(), Ordering::Acquire))?;
    // SAFETY: a record is put in a slot only from `Record::into_raw`, and
    // the swap above took it out for good.
    let rec = Some(unsafe { Record::from_raw(Kind::Check, rec) });
    Some(Removed { slot, rec })
}

/// The library call a check runs in, as its findings name it.
#[derive(Clone, Copy)]
enum Call {
    Submit,
    SubmitWait,
    Reap,
    Wait,
    Change,
    Exit,
}

impl Call {
    fn text(self) -> &'static str {
        match self {
            Call::Submit => "io_uring_submit",
            Call::SubmitWait => {
                "a submit-and-wait call (io_uring_submit_and_wait*/io_uring_wait_cqe* with SQEs to submit)"
            }
            Call::Reap => "a wait or peek call (io_uring_wait_cqe*/io_uring_peek_cqe)",
            Call::Wait => "a wait call about to sleep (io_uring_wait_cqe*)",
            Call::Change => "a ring change",
            Call::Exit => "io_uring_queue_exit (CQEs consumed before it)",
        }
    }
}

fn gettid() -> i32 {
    // SAFETY: no preconditions.
    unsafe { libc::gettid() }
}

// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------

/// The calling thread's name (as `prctl` gives it: no file is opened).
fn this_thread_name() -> [u8; 16] {
    let mut name = [0u8; 16];
    // SAFETY: PR_GET_NAME writes at most 16 bytes, NUL-terminated, into
    // the buffer.
    unsafe { libc::prctl(libc::PR_GET_NAME, name.as_mut_ptr()) };
    name
}

/// Appends `tid (name)` (`?` for a name not known).
fn thread(l: &mut Line, tid: i32, name: &[u8; 16]) {
    l.u(tid.max(0) as u64).s(" (");
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    match name.get(..len) {
        Some(n) if !n.is_empty() => l.bytes(n),
        _ => l.s("?"),
    };
    l.s(")");
}

fn opname(l: &mut Line, op: u8) {
    match names::short_name(OPCODE, u64::from(op)) {
        Some(n) => l.s(n),
        None => l.s("opcode ").u(u64::from(op)),
    };
}

fn errname(l: &mut Line, res: i32) {
    if res < 0 {
        l.s("-");
        match sysinfo::errno_name(-res) {
            Some(n) => l.s(n),
            None => l.s("errno ").u(u64::from(res.unsigned_abs())),
        };
    } else {
        l.i(i64::from(res));
    }
}

/// The ring's fd as the finding is made (closing it, once registered,
/// tells no hook, so it is read here rather than followed).
fn ring_fd_now(c: &RingCheck) -> i32 {
    let Some(p) = NonNull::new(c.ring as *mut io_uring) else {
        return -1;
    };
    // SAFETY: findings are made only inside a hook of a library call on the
    // ring this record follows, so it is live; only its settings are read,
    // which the ring's either side may.
    unsafe { CompleteSide::new(p) }.ring_fd()
}

/// A finding being written: its first line, and the program's `errno`,
/// kept from before the first system call the finding makes until it is
/// reported.
struct Finding {
    line: Line,
    _errno: SavedErrno,
}

impl core::ops::Deref for Finding {
    type Target = Line;
    fn deref(&self) -> &Line {
        &self.line
    }
}

impl core::ops::DerefMut for Finding {
    fn deref_mut(&mut self) -> &mut Line {
        &mut self.line
    }
}

/// The head of a finding: `uring-check: <tag>: ring N (fd F), thread T
/// (name), in <call> called from <return address>: `.
#[cold]
#[inline(never)]
fn head(c: &RingCheck, tag: &str, call: Call) -> Finding {
    let _errno = SavedErrno::save();
    let mut l = Line::new();
    l.s("uring-check: ").s(tag).s(": ring ").u(u64::from(c.id));
    l.s(" (fd ").i(i64::from(ring_fd_now(c))).s("), thread ");
    thread(&mut l, gettid(), &this_thread_name());
    l.s(", in ").s(call.text());
    super::call_site::append(&mut l, c.caller as Caller);
    l.s(": ");
    Finding { line: l, _errno }
}

/// Prints a finding (once per kind and ring): the first line built by the
/// caller, then why and the fix; aborts in abort mode.
#[cold]
#[inline(never)]
fn report(c: &mut RingCheck, kind: u32, mut first: Finding, why: &str, fix: &str) {
    c.reported |= kind;
    // One line buffer for all four lines: a finding may come on a small
    // stack (a fiber's, a signal handler's).
    let l: &mut Line = &mut first;
    l.emit_stderr();
    l.clear().s("uring-check:   why: ").s(why).emit_stderr();
    l.clear().s("uring-check:   fix: ").s(fix).emit_stderr();
    if MODE.load(Ordering::Relaxed) == 2 {
        l.clear()
            .s("uring-check: LIBURING_CHECK=abort: aborting at the first finding")
            .emit_stderr();
        // SAFETY: no preconditions; ends the process.
        unsafe { libc::abort() };
    }
}

fn wants(c: &RingCheck, kind: u32) -> bool {
    c.reported & kind == 0
}

// ---------------------------------------------------------------------------
// Requests in flight
// ---------------------------------------------------------------------------

/// `user_data`'s bucket: the requests of one value live in one of its
/// `WAYS` slots (a full bucket stops the counts). A multiplicative hash,
/// top bits: consecutive values (counters) spread over the buckets.
#[inline(always)]
fn bucket(v: u64) -> usize {
    (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUCKET_BITS)) as usize
}

/// The slot of a request in flight with `user_data`. The bucket's
/// occupancy bits make a miss (every new request) a load or two.
#[inline(always)]
fn find(c: &RingCheck, user_data: u64) -> Option<usize> {
    let b = bucket(user_data);
    let mut taken = *c.occupied.get(b)?;
    while taken != 0 {
        let i = b * WAYS + taken.trailing_zeros() as usize;
        if c.reqs.get(i)?.user_data == user_data {
            return Some(i);
        }
        taken &= taken - 1;
    }
    None
}

/// A free slot of `user_data`'s bucket.
#[inline(always)]
fn free_slot(c: &RingCheck, user_data: u64) -> Option<usize> {
    let b = bucket(user_data);
    let free = !*c.occupied.get(b)?;
    (free != 0).then(|| b * WAYS + free.trailing_zeros() as usize)
}

#[inline(always)]
fn is_multishot(sqe: &io_uring_sqe) -> bool {
    match sqe.opcode {
        IORING_OP_RECV | IORING_OP_RECVMSG => sqe.ioprio & IORING_RECV_MULTISHOT != 0,
        IORING_OP_ACCEPT => sqe.ioprio & IORING_ACCEPT_MULTISHOT != 0,
        IORING_OP_POLL_ADD => sqe.len & IORING_POLL_ADD_MULTI != 0,
        IORING_OP_READ_MULTISHOT => true,
        IORING_OP_TIMEOUT => sqe.rw_flags & IORING_TIMEOUT_MULTISHOT != 0,
        _ => false,
    }
}

fn chain_mut(c: &mut RingCheck, id: u32) -> Option<&mut Chain> {
    c.chains.iter_mut().find(|ch| ch.id == id && id != 0)
}

/// One SQE the kernel consumed.
fn on_sqe(c: &mut RingCheck, sqe: &io_uring_sqe) {
    if sqe.opcode == IORING_OP_MSG_RING {
        waits::message_sent();
    }
    // Chains: a member links to the next; the chain ends at the first SQE
    // without a link flag.
    let linked = sqe.flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK) != 0;
    let (chain, pos) = if c.cur_chain != 0 || linked {
        if c.cur_chain == 0 {
            c.next_chain = c.next_chain.wrapping_add(1).max(1);
            c.cur_chain = c.next_chain;
            c.chain_pos = 0;
            c.chain_skip = false;
            let slot = (c.cur_chain as usize) % CHAIN_SLOTS;
            if let Some(ch) = c.chains.get_mut(slot) {
                *ch = Chain {
                    id: c.cur_chain,
                    has_link_timeout: false,
                    done: false,
                    failed: None,
                    cancelled: None,
                };
            }
        }
        c.chain_pos = c.chain_pos.saturating_add(1);
        if linked {
            c.last_linked = (sqe.user_data, sqe.opcode);
        }
        let id = c.cur_chain;
        if sqe.opcode == IORING_OP_LINK_TIMEOUT {
            if let Some(ch) = chain_mut(c, id) {
                ch.has_link_timeout = true;
            }
        }
        if !linked {
            c.cur_chain = 0;
        }
        (id, c.chain_pos)
    } else {
        (0, 0)
    };
    // After a member that skips its CQE on success, the chain's CQEs are
    // not all owed: its later members are not followed.
    let after_skip = chain != 0 && c.chain_skip;
    if chain != 0 && sqe.flags & IOSQE_CQE_SKIP_SUCCESS != 0 {
        c.chain_skip = true;
    }

    // A multishot request of the same kind on the same file is a re-arm.
    if let Some((_, op, fd, _)) = c.ended {
        if op == sqe.opcode && fd == sqe.fd {
            c.set_ended(None);
        }
    }
    if c.lost() || after_skip || sqe.flags & IOSQE_CQE_SKIP_SUCCESS != 0 {
        // No CQE is owed on success: not followed.
        c.uncounted = true;
        return;
    }
    let user_data = sqe.user_data;
    if let Some(i) = find(c, user_data) {
        // Judged after this call's look at the CQ: the other request's
        // CQE may be there already, consumed by the program inline.
        if user_data != 0
            && user_data != crate::queue::LIBURING_UDATA_TIMEOUT
            && c.suspect.is_none()
        {
            c.suspect = Some((user_data, sqe.opcode, c.reqs[i].opcode));
        }
        if let Some(r) = c.reqs.get_mut(i) {
            r.state = u64::from(r.count() + 1) | kind_of(is_multishot(sqe), r.buf_select(), chain);
            r.opcode = sqe.opcode;
            r.chain = chain;
            r.pos = pos;
        }
        c.in_flight += 1;
        return;
    }
    match free_slot(c, user_data) {
        Some(i) => {
            if let Some(bits) = c.occupied.get_mut(i / WAYS) {
                *bits |= 1 << (i % WAYS);
            }
            let Some(r) = c.reqs.get_mut(i) else {
                return;
            };
            *r = Req {
                user_data,
                state: 1 | kind_of(
                    is_multishot(sqe),
                    sqe.flags & IOSQE_BUFFER_SELECT != 0,
                    chain,
                ),
                opcode: sqe.opcode,
                buf_group: sqe.buf_index,
                fd: sqe.fd,
                chain,
                pos,
            };
            c.in_flight += 1;
        }
        None => c.set_lost(),
    }
}

/// One CQE the kernel posted.
#[inline(always)]
fn on_cqe(c: &mut RingCheck, cqe: &io_uring_cqe, call: Call) {
    if cqe.flags & IORING_CQE_F_SKIP != 0 {
        return;
    }
    c.peeks_idle = 0;
    let Some(i) = find(c, cqe.user_data) else {
        c.uncounted = true;
        return;
    };
    let Some(r) = c.reqs.get_mut(i) else {
        return;
    };
    let (count, multishot, rare) = (
        r.count(),
        r.multishot(),
        r.state & (KIND_BUF_SELECT | KIND_CHAINED) != 0,
    );
    if cqe.flags & IORING_CQE_F_MORE == 0 {
        r.state -= 1;
        if r.count() == 0 {
            if let Some(bits) = c.occupied.get_mut(i / WAYS) {
                *bits &= !(1 << (i % WAYS));
            }
        }
        c.in_flight = c.in_flight.saturating_sub(1);
        if multishot {
            let r = &c.reqs[i];
            let ended = Some((r.user_data, r.opcode, r.fd, cqe.res));
            c.set_ended(ended);
        }
    }
    if rare {
        buffers_and_chains(c, c.reqs[i], count, cqe.res, cqe.flags, call);
    }
}

/// The checks of a CQE whose request selected a buffer or was linked.
#[inline(never)]
fn buffers_and_chains(c: &mut RingCheck, r: Req, count: u32, res: i32, flags: u32, call: Call) {
    if r.buf_select() {
        buf_taken::note(c, r.buf_group, flags);
        enobufs(c, &r, res, call);
    }
    // A chain member sharing its user_data with another request in flight
    // cannot be told apart from it: no chain finding from it.
    if r.state & KIND_CHAINED != 0 && count == 1 {
        chain_cqe(c, &r, res, call);
    }
}

/// Reports a user_data submitted while another request with the same
/// value is still in flight (both counted after the CQ was looked at).
#[inline(always)]
fn reuse(c: &mut RingCheck, call: Call) {
    // Tested before it is taken: no store on the common path.
    if c.suspect.is_some() {
        reuse_taken(c, call);
    }
}

#[cold]
#[inline(never)]
fn reuse_taken(c: &mut RingCheck, call: Call) {
    if let Some(suspect) = c.suspect.take() {
        reuse_judged(c, suspect, call);
    }
}

#[cold]
#[inline(never)]
fn reuse_judged(c: &mut RingCheck, (user_data, op, prev): (u64, u8, u8), call: Call) {
    let still = find(c, user_data)
        .and_then(|i| c.reqs.get(i))
        .map_or(0, Req::count);
    if still < 2 || c.lost() || !wants(c, REUSE) {
        return;
    }
    let mut l = head(c, "user-data-reuse", call);
    l.s("an SQE (");
    opname(&mut l, op);
    l.s(") was submitted with user_data=").x(user_data);
    l.s(", the value of a request still in flight (");
    opname(&mut l, prev);
    l.s(")");
    report(
        c,
        REUSE,
        l,
        "the CQEs of the two cannot be told apart, so a completion may be taken for the other request (and a buffer or object freed too early)",
        "give every request in flight its own user_data (a counter, or the address of the request's own state)",
    );
}

fn enobufs(c: &mut RingCheck, r: &Req, res: i32, call: Call) {
    let g = r.buf_group;
    let slot = c
        .groups
        .iter()
        .position(|&(grp, n)| grp == g && n != 0)
        .or_else(|| c.groups.iter().position(|&(_, n)| n == 0));
    let Some(slot) = slot else {
        return;
    };
    if res != -libc::ENOBUFS {
        if let Some(e) = c.groups.get_mut(slot) {
            *e = (0, 0);
        }
        return;
    }
    let n = c.groups.get(slot).map_or(0, |e| e.1) + 1;
    if let Some(e) = c.groups.get_mut(slot) {
        *e = (g, n);
    }
    if n >= ENOBUFS_STREAK && wants(c, ENOBUFS) {
        let mut l = head(c, "enobufs", call);
        l.u(u64::from(n)).s(" requests in a row (the last ");
        opname(&mut l, r.opcode);
        l.s(" user_data=").x(r.user_data);
        l.s(") failed with -ENOBUFS: provided-buffer group ")
            .u(u64::from(g))
            .s(" is empty");
        match buf_taken::taken(c, g) {
            Some(t) => l
                .s(" (")
                .u(u64::from(t))
                .s(" buffer(s) taken from it so far, in CQEs with IORING_CQE_F_BUFFER, and none left: fewer were given back)"),
            None => l.s(" (no buffer taken from it was seen: it was never filled, or filled too little)"),
        };
        report(
            c,
            ENOBUFS,
            l,
            "the buffers taken from the group are not given back (or too few were provided), so every request that selects one fails and a multishot request stops",
            "return each buffer to the ring once its data is used (io_uring_buf_ring_add + io_uring_buf_ring_advance, or io_uring_buf_ring_cq_advance), provide more or larger buffers, or use IOU_PBUF_RING_INC",
        );
    }
}

fn chain_cqe(c: &mut RingCheck, r: &Req, res: i32, call: Call) {
    let Some(ch) = chain_mut(c, r.chain) else {
        return;
    };
    if ch.has_link_timeout || ch.done {
        return;
    }
    if res == -libc::ECANCELED {
        if ch.failed.is_none() {
            if ch.cancelled.is_none() {
                ch.cancelled = Some((r.user_data, r.opcode, r.pos));
            }
            return;
        }
    } else if res < 0 && ch.failed.is_none() {
        ch.failed = Some((r.user_data, r.opcode, r.pos, res));
        if ch.cancelled.is_none() {
            return;
        }
    } else {
        return;
    }
    // Both a failure and a cancelled member are known.
    ch.done = true;
    let (Some((fu, fop, fpos, fres)), Some((cu, cop, cpos))) = (
        ch.failed,
        ch.cancelled.or(Some((r.user_data, r.opcode, r.pos))),
    ) else {
        return;
    };
    if !wants(c, LINK) {
        return;
    }
    let mut l = head(c, "link-cancelled", call);
    l.s("linked request #").u(u64::from(cpos)).s(" (");
    opname(&mut l, cop);
    l.s(" user_data=")
        .x(cu)
        .s(") completed with -ECANCELED because member #");
    l.u(u64::from(fpos)).s(" (");
    opname(&mut l, fop);
    l.s(" user_data=").x(fu).s(") failed with ");
    errname(&mut l, fres);
    report(
        c,
        LINK,
        l,
        "with IOSQE_IO_LINK a failed member cancels the rest of the chain: their -ECANCELED is a consequence, the cause is the member named",
        "fix the failing member (its own CQE carries the error), or use IOSQE_IO_HARDLINK where later members must run anyway",
    );
}

// ---------------------------------------------------------------------------
// Walks (as the trace's, see trace.rs)
// ---------------------------------------------------------------------------

fn consumed_mark(sq: SubmitSide<'_>) -> u32 {
    if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    }
}

/// Opcodes that may be multishot (`is_multishot` decides), by opcode: one
/// load tells the fast walk to leave such an SQE to `on_sqe`.
static MAYBE_MULTISHOT: [bool; 256] = {
    let mut t = [false; 256];
    t[IORING_OP_RECV as usize] = true;
    t[IORING_OP_RECVMSG as usize] = true;
    t[IORING_OP_ACCEPT as usize] = true;
    t[IORING_OP_POLL_ADD as usize] = true;
    t[IORING_OP_READ_MULTISHOT as usize] = true;
    t[IORING_OP_TIMEOUT as usize] = true;
    // Not multishot, but `on_sqe` must see it (`waits::message_sent`).
    t[IORING_OP_MSG_RING as usize] = true;
    t
};

/// Follows a plain request (no link, buffer, skip or multishot) whose
/// bucket is empty, as `on_sqe` would; false when `on_sqe` must. Only the
/// fields a plain request's checks read are written (see `Req::kind`).
#[inline(always)]
fn insert_plain(c: &mut RingCheck, user_data: u64, opcode: u8, fd: i32) -> bool {
    let b = bucket(user_data);
    let Some(bits) = c.occupied.get_mut(b) else {
        return false;
    };
    if *bits != 0 {
        return false;
    }
    *bits = 1;
    if let Some(r) = c.reqs.get_mut(b * WAYS) {
        r.user_data = user_data;
        r.state = ONE_PLAIN;
        r.opcode = opcode;
        r.fd = fd;
    }
    c.in_flight += 1;
    true
}

/// The SQEs from `pos` to `to` through `on_sqe` (the fast walk met one it
/// does not follow itself), ending the submission's chain.
#[inline(never)]
fn walk_sq_rest(c: &mut RingCheck, sqes: SqeArray<'_>, mask: u32, mut pos: u32, to: u32) {
    while pos != to {
        let Some(sqe) = sqes.get(pos & mask) else {
            break;
        };
        on_sqe(c, &sqe);
        pos = pos.wrapping_add(1);
    }
    links::submission_ends(c);
    c.cur_chain = 0;
}

/// The plain requests among the SQEs from `pos` to `to` of a plain ring,
/// followed as `on_sqe` would; stops at the first SQE it does not follow
/// itself (or cannot read) and returns its position, for `walk_sq_rest`.
#[inline(always)]
fn sq_pass(c: &mut RingCheck, sqes: SqeArray<'_>, mask: u32, mut pos: u32, to: u32) -> Option<u32> {
    while pos != to {
        let Some(sqe) = sqes.get(pos & mask) else {
            return Some(pos);
        };
        if sqe.flags & SLOW_SQE != 0
            || MAYBE_MULTISHOT[usize::from(sqe.opcode)]
            || !insert_plain(c, sqe.user_data, sqe.opcode, sqe.fd)
        {
            return Some(pos);
        }
        pos = pos.wrapping_add(1);
    }
    None
}

/// The SQEs the kernel consumed: the common case (a plain ring, plain
/// requests with their own user_data) in one lean pass, the rest through
/// the general walk or `on_sqe`, with the same outcome. Between calls no
/// chain is open (`cur_chain` is 0), so only the ring's state is tested
/// before the pass.
#[inline(always)]
fn walk_sq_fast(c: &mut RingCheck, sq: SubmitSide<'_>) {
    let to = sq.sq_khead();
    let from = c.sq_cursor;
    if !c.simple || c.lost() || c.ended.is_some() || to.wrapping_sub(from) > sq.sq_entries() {
        walk_sq(c, sq);
        return;
    }
    c.sq_cursor = to;
    let (sqes, mask) = (sq.plain_sqes(), sq.sq_mask());
    if let Some(pos) = sq_pass(c, sqes, mask, from, to) {
        walk_sq_rest(c, sqes, mask, pos, to);
    }
}

/// Retires a plain request's last CQE found in its bucket's first slot, as
/// `on_cqe` would but for the peek streak (the caller resets it); false
/// when `on_cqe` must.
#[inline(always)]
fn remove_plain(c: &mut RingCheck, user_data: u64, flags: u32) -> bool {
    if flags & (IORING_CQE_F_SKIP | IORING_CQE_F_MORE) != 0 {
        return false;
    }
    let b = bucket(user_data);
    let Some(r) = c.reqs.get_mut(b * WAYS) else {
        return false;
    };
    // A slot's count is not 0 exactly while its occupancy bit is set, so
    // the state alone says the slot is taken.
    if r.state != ONE_PLAIN || r.user_data != user_data {
        return false;
    }
    r.state = 0;
    if let Some(bits) = c.occupied.get_mut(b) {
        *bits &= !1;
    }
    // `in_flight` is the sum of the slots' counts: this one's was 1.
    c.in_flight = c.in_flight.wrapping_sub(1);
    true
}

/// The CQEs from `pos` to `tail` through `on_cqe` (as `walk_sq_rest`);
/// returns where it stopped.
#[inline(never)]
fn walk_cq_rest(
    c: &mut RingCheck,
    cqes: CqeArray<'_>,
    mask: u32,
    mut pos: u32,
    tail: u32,
    call: Call,
) -> u32 {
    while pos != tail {
        let Some(cqe) = cqes.get(pos & mask) else {
            break;
        };
        on_cqe(c, &cqe, call);
        pos = pos.wrapping_add(1);
    }
    pos
}

/// The CQEs posted since the last look: when none of the program's CQ
/// slots were released past the cursor (so the kernel cannot be rewriting
/// them), one lean pass; otherwise the general walk.
#[inline(always)]
fn walk_cq_fast(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let (head, tail) = (cq.cq_khead(), cq.cq_ktail());
    let cursor = c.cq_cursor;
    if !c.simple
        || tail.wrapping_sub(cursor) > cq.cq_entries()
        || (head.wrapping_sub(cursor) as i32) > 0
    {
        walk_cq(c, cq, call);
        return;
    }
    if tail != cursor {
        let (cqes, mask) = (cq.plain_cqes(), cq.cq_mask());
        let stop = cq_pass(c, cqes, mask, cursor, tail);
        if stop != Some(cursor) {
            // A CQE was retired (`on_cqe` would have reset it).
            c.peeks_idle = 0;
        }
        c.cq_cursor = match stop {
            None => tail,
            Some(pos) => walk_cq_rest(c, cqes, mask, pos, tail, call),
        };
    }
    dropped_check(c, cq, call);
}

/// The plain requests' last CQEs from `pos` to `tail`, retired as
/// `on_cqe` would; stops at the first CQE it does not retire itself (or
/// cannot read) and returns its position, for `walk_cq_rest`.
#[inline(always)]
fn cq_pass(
    c: &mut RingCheck,
    cqes: CqeArray<'_>,
    mask: u32,
    mut pos: u32,
    tail: u32,
) -> Option<u32> {
    while pos != tail {
        let Some(cqe) = cqes.get(pos & mask) else {
            return Some(pos);
        };
        if !remove_plain(c, cqe.user_data, cqe.flags) {
            return Some(pos);
        }
        pos = pos.wrapping_add(1);
    }
    None
}

/// CQEs the kernel dropped since the last look.
#[inline(always)]
fn dropped_check(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let dropped = cq.cq_overflow();
    if dropped != c.overflow_last {
        c.overflow_last = dropped;
        c.set_lost();
        overflow(c, call, Some(dropped));
    }
}

#[inline(never)]
fn walk_sq(c: &mut RingCheck, sq: SubmitSide<'_>) {
    let to = consumed_mark(sq);
    let from = c.sq_cursor;
    c.sq_cursor = to;
    let entries = sq.sq_entries();
    if to.wrapping_sub(from) > entries {
        c.set_lost();
        return;
    }
    let mixed = c.flags & IORING_SETUP_SQE_MIXED != 0;
    let shift = crate::geometry::sqe_shift(c.flags);
    let (sqes, mask) = (sq.sqes(), sq.sq_mask());
    let mut pos = from;
    while to.wrapping_sub(pos) != 0 && to.wrapping_sub(pos) <= entries {
        let Some(sqe) = sqes.get((pos & mask) << shift) else {
            break;
        };
        on_sqe(c, &sqe);
        let big = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if mixed && big { 2 } else { 1 });
    }
    // A chain does not run on past the SQEs of one submission.
    links::submission_ends(c);
    c.cur_chain = 0;
}

#[inline(never)]
fn walk_cq(c: &mut RingCheck, cq: CompleteSide<'_>, call: Call) {
    let entries = cq.cq_entries();
    let head = cq.cq_khead();
    let tail = cq.cq_ktail();
    let pending = tail.wrapping_sub(c.cq_cursor);
    // Past a full lap, or a full one whose oldest slots the program has
    // released (the kernel may be rewriting them): not all can be seen.
    let ahead = (head.wrapping_sub(c.cq_cursor) as i32) > 0;
    if pending > entries || pending == entries && ahead {
        c.set_lost();
        c.cq_cursor = head;
    }
    let shift = crate::geometry::cqe_shift(c.flags);
    let mixed = c.flags & IORING_SETUP_CQE_MIXED != 0;
    let (cqes, mask) = (cq.cqes(), cq.cq_mask());
    loop {
        let left = tail.wrapping_sub(c.cq_cursor);
        if left == 0 || left > entries {
            break;
        }
        let Some(cqe) = cqes.get((c.cq_cursor & mask) << shift) else {
            break;
        };
        let released = (head.wrapping_sub(c.cq_cursor) as i32) > 0;
        if released && cq.cq_ktail().wrapping_sub(c.cq_cursor) >= entries {
            // Lapped while we looked: the counts can no longer be trusted.
            c.set_lost();
            c.cq_cursor = head;
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
        on_cqe(c, &cqe, call);
        c.cq_cursor = c.cq_cursor.wrapping_add(step);
    }
    let dropped = cq.cq_overflow();
    if dropped != c.overflow_last {
        c.overflow_last = dropped;
        c.set_lost();
        overflow(c, call, Some(dropped));
    }
}

#[cold]
#[inline(never)]
fn overflow(c: &mut RingCheck, call: Call, dropped: Option<u32>) {
    if !wants(c, OVERFLOW) {
        return;
    }
    let held = match dropped {
        Some(_) => None,
        None => overflow_held::held_back(ring_fd_now(c)),
    };
    let mut l = head(c, "cq-overflow", call);
    match (dropped, held) {
        (Some(n), _) => l.s("the CQ overflowed: the kernel dropped ").u(u64::from(n)).s(" CQEs, which are lost"),
        (None, Some(n)) => l
            .s("the CQ overflowed: the kernel holds back ")
            .u(u64::from(n))
            .s(" CQE(s) for want of room (IORING_SQ_CQ_OVERFLOW; CqOverflowList of the ring's fdinfo)"),
        (None, None) => l.s("the CQ overflowed: the kernel holds back CQEs for want of room (IORING_SQ_CQ_OVERFLOW)"),
    };
    report(
        c,
        OVERFLOW,
        l,
        "CQEs are taken off the CQ only when marked seen (io_uring_cqe_seen / io_uring_cq_advance); kept back, they fill it, the kernel must stash further completions (slow, memory-bound) or drop them, and a program waiting for a dropped one waits forever",
        "mark every CQE seen once handled; the held-back CQEs then move into the CQ at the next call that enters the kernel for completions (io_uring_get_events flushes them without waiting); reap before submitting more than the CQ holds, or set up a larger CQ (IORING_SETUP_CQSIZE)",
    );
}

/// Checks common to every call: a ring of another process.
#[inline(always)]
fn common(c: &mut RingCheck, call: Call) {
    if c.fork_gen != FORK_GEN.load(Ordering::Relaxed) {
        forked_use(c, call);
    }
}

#[cold]
#[inline(never)]
fn forked_use(c: &mut RingCheck, call: Call) {
    if wants(c, FORK) {
        c.set_lost();
        let mut l = head(c, "fork", call);
        l.s("the ring was set up by process ")
            .u(c.pid.max(0) as u64);
        l.s(" and is used by its child ");
        // SAFETY: no preconditions.
        l.u(unsafe { libc::getpid() }.max(0) as u64)
            .s(" after fork");
        report(
            c,
            FORK,
            l,
            "parent and child share the ring's memory and kernel context: the SQ and CQ indices of one overwrite the other's, requests complete in the wrong process and buffers are read after they are freed",
            "set up a ring of its own in the child (io_uring_queue_init after fork) and leave the parent's alone there (or close it: io_uring_queue_exit in the child only unmaps its copy)",
        );
    }
}

#[inline(always)]
fn eexist(c: &mut RingCheck, call: Call, result: i32) {
    if result == -libc::EEXIST {
        owner_thread(c, call);
    }
}

#[cold]
#[inline(never)]
fn owner_thread(c: &mut RingCheck, call: Call) {
    if c.flags & (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN) == 0 || !wants(c, OWNER)
    {
        return;
    }
    let mut l = head(c, "owner-thread", call);
    l.s("-EEXIST: this ");
    l.s(if c.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        "IORING_SETUP_DEFER_TASKRUN"
    } else {
        "IORING_SETUP_SINGLE_ISSUER"
    });
    l.s(" ring belongs to the thread ");
    if c.owner_tid > 0 {
        thread(&mut l, c.owner_tid, &c.owner_name);
        if c.owner_from_enable {
            l.s(", which enabled it (the ring was set up IORING_SETUP_R_DISABLED: the thread that calls io_uring_enable_rings becomes its owner) and submitted first");
        } else {
            l.s(", which set it up");
        }
    } else {
        l.s("that enabled it, not known here (set up IORING_SETUP_R_DISABLED: io_uring_enable_rings makes its caller the owner)");
    }
    report(
        c,
        OWNER,
        l,
        "the kernel lets only the owner thread submit to such a ring (and, with DEFER_TASKRUN, wait on it); any other thread gets -EEXIST and its SQEs stay unsubmitted",
        "submit (and wait) from the owner thread only, passing work to it (a queue, or IORING_OP_MSG_RING from a ring of the other thread), or drop SINGLE_ISSUER/DEFER_TASKRUN from the setup flags; with R_DISABLED, call io_uring_enable_rings in the thread that will submit",
    );
}

// ---------------------------------------------------------------------------
// Observer functions (called from lib.rs when checking)
// ---------------------------------------------------------------------------

pub fn ring_created(ring: &io_uring) {
    let id = core::ptr::from_ref(ring) as usize;
    // A record left for this address (a ring never torn down whose memory
    // was reused) goes.
    drop(remove(id));
    let index = SLOTS.iter().position(|s| {
        s.ring
            .compare_exchange(0, id, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    });
    let (Some(index), Some(slot)) = (index, index.and_then(|i| SLOTS.get(i))) else {
        return;
    };
    let Some(mut rec) = Record::<RingCheck>::claim(Kind::Check, index) else {
        slot.ring.store(0, Ordering::Release);
        return;
    };
    let (sq, cq) = observe::both_sides(ring);
    let c = &mut *rec;
    c.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    c.ring = id;
    c.flags = ring.flags;
    c.detour = DETOUR_OWNER;
    if ring.flags & IORING_SETUP_R_DISABLED == 0 {
        c.set_owner_here();
    }
    // SAFETY: no preconditions.
    c.pid = unsafe { libc::getpid() };
    c.fork_gen = FORK_GEN.load(Ordering::Relaxed);
    c.sq_cursor = consumed_mark(sq);
    c.cq_cursor = cq.cq_khead();
    c.overflow_last = cq.cq_overflow();
    if ring.flags & IORING_SETUP_SQ_REWIND != 0 {
        c.set_lost();
    }
    c.simple = ring.flags & SLOW_SETUP == 0;
    if !c.simple || ring.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        c.detour |= DETOUR_SETUP;
    }
    slot.rec.store(rec.into_raw().as_ptr(), Ordering::Release);
}

pub fn ring_changed(ring: &io_uring, caller: Caller) {
    let (sq, cq) = observe::both_sides(ring);
    with_ring(core::ptr::from_ref(ring) as usize, |c| {
        c.caller = caller as usize;
        walk_cq(c, cq, Call::Change);
        c.sq_cursor = consumed_mark(sq);
        c.cq_cursor = cq.cq_khead();
    });
}

pub fn ring_exit(ring: &io_uring, caller: Caller) {
    let (_, cq) = observe::both_sides(ring);
    // The CQEs the program consumed inline since the last call seen.
    with_ring(core::ptr::from_ref(ring) as usize, |c| {
        c.caller = caller as usize;
        walk_cq(c, cq, Call::Exit);
        deferred::at_end(c, Call::Exit);
    });
    drop(remove(core::ptr::from_ref(ring) as usize));
}

/// A submit call is done. The common case (a plain ring the checks have
/// nothing to say about, plain requests, their CQEs at hand) runs here
/// with no call but the tail calls that hand the rest of the work to a
/// continuation where the general code takes over, with the same outcome
/// as `submitted_general` from the start: so it keeps nothing in saved
/// registers.
#[inline(always)]
pub fn submitted(
    sq: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    caller: Caller,
) {
    let call = if cq.is_some() {
        Call::SubmitWait
    } else {
        Call::Submit
    };
    let Some(mut out) = CheckedOut::take(sq.id() as usize) else {
        return;
    };
    let c = out.rec();
    c.caller = caller as usize;
    // A fork, -EEXIST, an owner to learn, the peek streak of a
    // DEFER_TASKRUN ring, a ring the general walks follow, counts given up,
    // a multishot request that ended: the general code (whose own tests of
    // these come to nothing a second time for the others).
    if c.fork_gen != FORK_GEN.load(Ordering::Relaxed) || result == -libc::EEXIST || c.detour != 0 {
        return submitted_general(out, sq, call, result, enters);
    }
    // The SQEs the kernel consumed (`walk_sq` on a plain ring: its head).
    let to = sq.sq_khead();
    let from = c.sq_cursor;
    if to.wrapping_sub(from) > sq.sq_entries() {
        return submitted_general(out, sq, call, result, enters);
    }
    c.sq_cursor = to;
    let (sqes, mask) = (sq.plain_sqes(), sq.sq_mask());
    if let Some(pos) = sq_pass(c, sqes, mask, from, to) {
        return resume_sqes(out, sq, call, pos, to);
    }
    // Between calls no chain is open, and the pass opened none.
    // The CQ, as `walk_cq_fast` but for the peek streak (not counted on
    // this ring); no reused user_data can have been seen.
    let Some(cq) = complete_side(sq) else {
        return out.put_back();
    };
    let (head, tail) = (cq.cq_khead(), cq.cq_ktail());
    let cursor = c.cq_cursor;
    if tail.wrapping_sub(cursor) > cq.cq_entries() || (head.wrapping_sub(cursor) as i32) > 0 {
        return resume_cq(out, sq, call);
    }
    if tail != cursor {
        let (cqes, mask) = (cq.plain_cqes(), cq.cq_mask());
        if let Some(pos) = cq_pass(c, cqes, mask, cursor, tail) {
            return resume_cqes(out, sq, call, pos, tail);
        }
        c.cq_cursor = tail;
    }
    if cq.cq_overflow() != c.overflow_last || sq.sq_kflags() & IORING_SQ_CQ_OVERFLOW != 0 {
        return resume_after_cqes(out, sq, call);
    }
    out.put_back();
}

/// [`submitted`] as the observer's hook itself, when the checker observes
/// alone (no trace): the library's call lands here directly.
pub extern "C" fn submitted_hook(
    sq: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    _entered_ns: u64,
    caller: Caller,
) {
    submitted(sq, cq, result, enters, caller);
}

/// Whether the observer must tell [`submitting`] (ASan is in the process).
pub fn looks_at_sqes() -> bool {
    checking() && asan::present()
}

/// A submit call is about to hand its SQEs to the kernel: the checks that
/// must come first (`asan-poisoned`).
pub extern "C" fn submitting(sq: SubmitSide<'_>, caller: Caller) {
    let Some(mut out) = CheckedOut::take(sq.id() as usize) else {
        return;
    };
    let c = out.rec();
    c.caller = caller as usize;
    asan::check_pending(c, sq, Call::Submit);
    out.put_back();
}

/// The ring's CQ view in a submit call, whether or not the call reaped.
#[inline(always)]
fn complete_side(sq: SubmitSide<'_>) -> Option<CompleteSide<'_>> {
    let p = NonNull::new(sq.id().cast_mut())?;
    // SAFETY: the ring is live for this call. A submit call does not own
    // the CQ side: another thread may be reaping meanwhile, so the walk
    // reads only kernel-shared words (atomically) and CQE copies, and
    // drops its counts (`lost`) when the CQ was lapped under it.
    Some(unsafe { CompleteSide::new(p) })
}

/// `submitted` from the start, for every ring and call.
#[inline(never)]
fn submitted_general(
    mut out: CheckedOut,
    sq: SubmitSide<'_>,
    call: Call,
    result: i32,
    enters: u32,
) {
    let c = out.rec();
    common(c, call);
    eexist(c, call, result);
    if result == -libc::EEXIST {
        c.foreign_submitter = true;
    }
    if c.owner_tid == 0 && result > 0 {
        c.set_owner_here();
        c.owner_from_enable = true;
    }
    walk_sq_fast(c, sq);
    links::report_open(c, call);
    submitted_cq(c, sq, call);
    // The peek streak is counted (and read) on DEFER_TASKRUN rings only.
    if c.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        let entered_for_events = enters != 0 && matches!(call, Call::SubmitWait);
        deferred::submitted(c, entered_for_events, result);
        if entered_for_events {
            // Entered to get events: the kernel ran the ring's task work.
            c.peeks_idle = 0;
        } else {
            idle_deferred(c, call, result);
        }
    }
    submitted_overflow(c, sq, call);
    out.put_back();
}

/// `submitted` on from the SQE at `pos` (the pass did not follow it).
#[cold]
#[inline(never)]
fn resume_sqes(mut out: CheckedOut, sq: SubmitSide<'_>, call: Call, pos: u32, to: u32) {
    walk_sq_rest(out.rec(), sq.plain_sqes(), sq.sq_mask(), pos, to);
    links::report_open(out.rec(), call);
    resume_cq(out, sq, call);
}

/// `submitted` on from the CQ walk (the fast pass does not take it).
#[cold]
#[inline(never)]
fn resume_cq(mut out: CheckedOut, sq: SubmitSide<'_>, call: Call) {
    let c = out.rec();
    submitted_cq(c, sq, call);
    submitted_overflow(c, sq, call);
    out.put_back();
}

/// `submitted` on from the CQE at `pos` (the pass did not retire it).
#[cold]
#[inline(never)]
fn resume_cqes(mut out: CheckedOut, sq: SubmitSide<'_>, call: Call, pos: u32, tail: u32) {
    let c = out.rec();
    if let Some(cq) = complete_side(sq) {
        c.cq_cursor = walk_cq_rest(c, cq.plain_cqes(), cq.cq_mask(), pos, tail, call);
        dropped_check(c, cq, call);
    }
    reuse(c, call);
    submitted_overflow(c, sq, call);
    out.put_back();
}

/// `submitted` on from the CQ's overflow counter.
#[cold]
#[inline(never)]
fn resume_after_cqes(mut out: CheckedOut, sq: SubmitSide<'_>, call: Call) {
    let c = out.rec();
    if let Some(cq) = complete_side(sq) {
        dropped_check(c, cq, call);
    }
    submitted_overflow(c, sq, call);
    out.put_back();
}

/// The CQ after the SQ (so that every CQE's request is known: the program
/// may have consumed CQEs inline since the last call), then a reused
/// user_data.
#[inline(always)]
fn submitted_cq(c: &mut RingCheck, sq: SubmitSide<'_>, call: Call) {
    if let Some(cq) = complete_side(sq) {
        walk_cq_fast(c, cq, call);
    }
    reuse(c, call);
}

/// The kernel holds back CQEs for want of CQ room.
#[inline(always)]
fn submitted_overflow(c: &mut RingCheck, sq: SubmitSide<'_>, call: Call) {
    if sq.sq_kflags() & IORING_SQ_CQ_OVERFLOW != 0 {
        overflow(c, call, None);
    }
}

pub fn reaped(cq: CompleteSide<'_>, result: i32, enters: u32, caller: Caller) {
    let call = Call::Reap;
    with_ring(cq.id() as usize, |c| {
        c.caller = caller as usize;
        common(c, call);
        eexist(c, call, result);
        walk_cq_fast(c, cq, call);
        deferred::reaped(c, enters, result);
        if enters != 0 {
            c.peeks_idle = 0;
            return;
        }
        idle_call(c, call, result);
    });
}

/// A call that neither found a CQE nor entered the kernel to get events:
/// on a DEFER_TASKRUN ring with requests in flight, many in a row mean the
/// kernel is never given the chance to complete them.
#[inline(always)]
fn idle_call(c: &mut RingCheck, call: Call, result: i32) {
    if c.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        idle_deferred(c, call, result);
    }
}

#[inline(never)]
fn idle_deferred(c: &mut RingCheck, call: Call, result: i32) {
    if c.lost() || c.in_flight == 0 || result < 0 && result != -libc::EAGAIN {
        return;
    }
    c.peeks_idle += 1;
    if c.peeks_idle >= PEEK_STREAK && wants(c, PEEK) {
        let mut l = head(c, "peek-only", call);
        l.u(u64::from(c.peeks_idle))
            .s(" calls in a row submitted or peeked without entering the kernel to get events, with ")
            .u(u64::from(c.in_flight))
            .s(" request(s) in flight on this IORING_SETUP_DEFER_TASKRUN ring");
        report(
            c,
            PEEK,
            l,
            "with DEFER_TASKRUN the kernel completes requests only when the owner thread enters it to wait or get events; submitting and peeking never do, so these completions arrive late or never",
            "wait (io_uring_wait_cqe*, io_uring_submit_and_wait*) instead of spinning, or call io_uring_get_events (or io_uring_submit_and_get_events) before peeking",
        );
    }
}

pub fn waiting(cq: CompleteSide<'_>, wait_nr: u32, timed: bool, caller: Caller) {
    let call = Call::Wait;
    with_ring(cq.id() as usize, |c| {
        c.caller = caller as usize;
        common(c, call);
        walk_cq_fast(c, cq, call);
        let ready = cq.cq_ktail().wrapping_sub(cq.cq_khead());
        if c.lost() || ready >= wait_nr {
            return;
        }
        if timed {
            // A timed wait ends anyway; only SQEs it never submits are
            // worth a word.
            if c.in_flight == 0 && wants(c, UNSUBMITTED) {
                let unsubmitted = unsubmitted_here(c, cq);
                if unsubmitted != 0 {
                    waits::unsubmitted(c, unsubmitted, wait_nr, call, true);
                }
            }
            return;
        }
        if c.in_flight != 0 {
            waits::unsatisfiable(c, cq, wait_nr, ready, call);
            return;
        }
        let unsubmitted = unsubmitted_here(c, cq);
        if unsubmitted != 0 && wants(c, UNSUBMITTED) {
            waits::unsubmitted(c, unsubmitted, wait_nr, call, false);
        } else if let Some((ud, op, _, res)) = c.ended {
            if wants(c, MSHOT) {
                let mut l = head(c, "multishot-ended", call);
                l.s("waiting for ")
                    .u(u64::from(wait_nr))
                    .s(" CQE(s) with no request in flight: the multishot ");
                opname(&mut l, op);
                l.s(" user_data=").x(ud).s(" ended (its last CQE, res=");
                errname(&mut l, res);
                l.s(", had no IORING_CQE_F_MORE) and was not armed again");
                // A cancelled one was most likely stopped on purpose: the
                // mistake is then counting on more CQEs than can come, and
                // arming it again is not the fix.
                let (why, fix) = if res == -libc::ECANCELED {
                    (
                        "the multishot request was cancelled (by a cancel, or a poll or timeout remove) and posted its last CQE; every other request has completed too, so the CQE this wait counts on will never come and it can sleep forever",
                        "count the CQEs still to come: a multishot request posts one CQE per event (events that arrive together may give one CQE), then one last without IORING_CQE_F_MORE; stop waiting when that last one is seen, or wait with a timeout",
                    )
                } else {
                    (
                        "a multishot request stops for good when a CQE without IORING_CQE_F_MORE arrives (an error, -ENOBUFS, a full CQ, cancellation); nothing more will complete, so this wait can sleep forever",
                        "check IORING_CQE_F_MORE on every CQE of a multishot request and submit it again when it is clear",
                    )
                };
                report(c, MSHOT, l, why, fix);
            }
        } else if unsubmitted == 0 {
            waits::unsatisfiable(c, cq, wait_nr, ready, call);
        }
    });
}

/// SQEs taken from the SQ that no submit call has handed to the kernel,
/// when the waiting thread may know; else 0.
///
/// The count reads the SQ's private tail, a plain variable that
/// `io_uring_get_sqe` (inline in the program) moves on whichever thread
/// takes SQEs, with no synchronisation the waiting thread could share:
/// liburing lets one thread submit while another waits. So it is read only
/// where no other thread can be taking SQEs: the process has only ever had
/// this one thread, or the ring is `SINGLE_ISSUER`, this thread is its
/// owner (the one thread the kernel lets submit, hence the SQ side's), and
/// no other thread has tried to submit to it.
fn unsubmitted_here(c: &RingCheck, cq: CompleteSide<'_>) -> u32 {
    let owner = c.flags & IORING_SETUP_SINGLE_ISSUER != 0
        && !c.foreign_submitter
        && c.owner_tid == gettid();
    if !owner && !single_threaded() {
        return 0;
    }
    let Some(p) = NonNull::new(cq.id().cast_mut()) else {
        return 0;
    };
    // SAFETY: the ring is live for this wait call, and no other thread
    // takes its SQEs (see above): this thread is the submitter, whose own
    // variables these are.
    let sq = unsafe { SubmitSide::new(p) };
    // With SQPOLL the kernel's thread takes what was published by itself:
    // only the SQEs not yet published are stuck; else, all the kernel has
    // not consumed.
    let head = if sq.flags() & IORING_SETUP_SQPOLL != 0 {
        sq.sqe_head()
    } else {
        sq.sq_khead()
    };
    let n = sq.sqe_tail().wrapping_sub(head);
    // More than the SQ holds: another process (after fork) moved the
    // kernel's head past this one's private tail; nothing to say.
    if n > sq.sq_entries() {
        0
    } else {
        n
    }
}
