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
//! The checks (each name is the finding's tag, each in a file of its own
//! under `check/`):
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
//! - `enobufs`: a provided-buffer group ran dry again and again (with the
//!   buffers taken from it and returned to it, `check/pbuf_groups.rs`).
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
//! - `deferred-pending`: a `DEFER_TASKRUN` ring torn down (or still set up
//!   at process exit) with requests whose owner never entered the kernel
//!   for completions (`check/deferred.rs`).
//! - `cq-head-past-tail`: more CQEs marked seen than the kernel posted.
//! - `concurrent-submit`: two submit calls on one ring at the same time.
//! - `owner-exited`: -EEXIST from a `SINGLE_ISSUER` or `DEFER_TASKRUN`
//!   ring whose owner thread has exited.
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
//!
//! This file is the module's root: the mode, and the observer functions
//! (the hooks `lib.rs` calls), which run the walks and findings below.

// The per-ring records and their table (check-out, removal).
mod state;
// Thread ids and names; whether the process has one thread.
mod threads;
// A finding's head, its why and fix, once per kind and ring.
mod report;
// The requests in flight, by user_data, and the chains.
mod requests;
// The SQEs consumed and CQEs posted since the last call: fast and general walks.
mod walk;

// `owner-thread`: -EEXIST from a ring another thread owns.
mod owner_thread;
// `peek-only`: a DEFER_TASKRUN ring only peeked at.
mod peek_only;
// `multishot-ended`: a wait with nothing in flight after a multishot request ended.
mod multishot_ended;
// `cq-overflow`: CQEs held back or dropped.
mod cq_overflow;
// `enobufs`: a provided-buffer group ran dry again and again.
mod enobufs;
// `link-cancelled`: a chain member cancelled by an earlier one's failure.
mod link_cancelled;
// `user-data-reuse`: a user_data still in flight submitted again.
mod user_data_reuse;
// `fork`: a ring used by a child of the process that set it up.
mod fork;
// `cq-head-past-tail`: more CQEs marked seen than the kernel posted.
mod cq_head_past_tail;
// `concurrent-submit`: two submit calls on one ring at once.
mod concurrent_submit;
// `owner-exited`: -EEXIST from a ring whose owner thread has exited.
mod owner_exited;
// `asan-poisoned`: SQE memory against AddressSanitizer, when present.
mod asan;
// `link-last`: a link flag on the last SQE of a submission.
mod links;
// `wait-unsatisfiable` and `unsubmitted-wait`.
mod waits;
// The CQEs a ring's fdinfo lists as held back (`cq-overflow`).
mod overflow_held;
// Buffers taken from each provided-buffer group (`enobufs`).
mod buf_taken;
// `deferred-pending`: a DEFER_TASKRUN ring's work left for an owner that never enters.
mod deferred;
// Buffers put in each provided-buffer group, given back (`enobufs`).
mod pbuf_groups;

use core::ptr::NonNull;
use core::sync::atomic::{AtomicU32, Ordering};

use super::memory::{Kind, Record};
use crate::structs::io_uring;
use crate::uapi::*;
use cq_overflow::overflow;
use fork::{common, FORK_GEN};
use owner_thread::eexist;
use peek_only::{idle_call, idle_deferred};
use report::wants;
use report::Call;
use state::{remove, with_ring, CheckedOut, RingCheck, DETOUR_OWNER, DETOUR_SETUP, SLOTS};
use uring_core::observe::{self, Caller, CompleteSide, SubmitSide};
use user_data_reuse::reuse;
use waits::{unsubmitted_here, UNSUBMITTED};
use walk::{
    consumed_mark, cq_pass, dropped_check, sq_pass, walk_cq, walk_cq_fast, walk_cq_rest,
    walk_sq_fast, walk_sq_rest, SLOW_SETUP,
};

pub use state::RECORD_BYTES;

/// 0: off, 1: report, 2: report and abort.
static MODE: AtomicU32 = AtomicU32::new(0);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

// The kinds of finding, bits of `RingCheck::reported`, each defined by its
// finding's file: 1 << 0 owner_thread::OWNER, 1 << 1 peek_only::PEEK,
// 1 << 2 waits::UNSUBMITTED, 1 << 3 multishot_ended::MSHOT,
// 1 << 4 cq_overflow::OVERFLOW, 1 << 5 enobufs::ENOBUFS,
// 1 << 6 link_cancelled::LINK, 1 << 7 user_data_reuse::REUSE,
// 1 << 8 fork::FORK, 1 << 9 asan::POISONED, 1 << 10 waits::NEVER,
// 1 << 11 links::LAST, 1 << 12 deferred::PENDING,
// 1 << 13 cq_head_past_tail::PAST, 1 << 14 owner_exited::EXITED.

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
    threads::find_single_threaded();
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
    // The look at exit is registered by every first ring (lib.rs).
    deferred::keep_shape(c, ring);
    if !c.simple || ring.flags & IORING_SETUP_DEFER_TASKRUN != 0 {
        c.detour |= DETOUR_SETUP;
    }
    // Read by a submit hook that finds the record checked out (ordered by
    // the Release store below, see `concurrent_submit.rs`).
    slot.id.store(c.id, Ordering::Relaxed);
    slot.submitting.store(false, Ordering::Relaxed);
    slot.overlap_reported.store(false, Ordering::Relaxed);
    slot.rec.store(rec.into_raw().as_ptr(), Ordering::Release);
}

pub fn ring_changed(ring: &io_uring, caller: Caller) {
    let (sq, cq) = observe::both_sides(ring);
    with_ring(core::ptr::from_ref(ring) as usize, |c| {
        c.caller = caller as usize;
        walk_cq(c, cq, Call::Change);
        c.sq_cursor = consumed_mark(sq);
        c.cq_cursor = cq.cq_khead();
        deferred::keep_shape(c, ring);
    });
}

/// The process is exiting normally (the handler `look_at_exit` registers,
/// which runs before the program's earlier ones and the libraries'
/// destructors): the rings of this process never torn down get the
/// look `io_uring_queue_exit` gives them (`deferred-pending`). A record
/// another thread has checked out is left alone, as is a parent's ring in
/// a child after fork.
pub fn process_exiting() {
    if !checking() {
        return;
    }
    // SAFETY: no preconditions.
    let pid = unsafe { libc::getpid() };
    let gen = FORK_GEN.load(Ordering::Relaxed);
    for s in SLOTS.iter() {
        let ring = s.ring.load(Ordering::Relaxed);
        if ring == 0 {
            continue;
        }
        with_ring(ring, |c| {
            if c.pid == pid && c.fork_gen == gen {
                deferred::at_process_exit(c);
            }
        });
    }
}

/// A provided-buffer ring registered for group `bgid` (`br`: its memory,
/// 0 when not known), or unregistered (`entries` 0).
pub fn buf_ring(ring: usize, bgid: u16, br: usize, entries: u32, flags: u32) {
    with_ring(ring, |c| {
        pbuf_groups::registered(c, bgid, br, entries, flags)
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
        return concurrent_submit::record_busy(sq.id() as usize, call, caller);
    };
    out.mark_submitting();
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
        } else if let Some(ended) = c.ended {
            multishot_ended::waiting(c, ended, wait_nr, call);
        } else if unsubmitted == 0 {
            waits::unsatisfiable(c, cq, wait_nr, ready, call);
        }
    });
}
