// SPDX-License-Identifier: MIT
//! `deferred-pending`: a `DEFER_TASKRUN` ring torn down
//! (`io_uring_queue_exit`), or still set up when the process exits, with
//! requests in flight whose owner thread never
//! entered the kernel for completions since it submitted them. Their completion work
//! runs only when the owner waits or gets events; other threads that only
//! peek (inline `io_uring_peek_cqe`, which never calls the library) cannot
//! run it, so the checker sees nothing until the end, and says so then.
//!
//! `DEFER_TASKRUN` rings always take the general submit path, so the
//! bookkeeping here costs the common path nothing.

use core::ffi::c_void;
use core::ptr::NonNull;

use super::report::{head, report, wants, Call, Finding};
use super::state::{RingCheck, WAYS};
use super::walk::walk_cq;
use crate::structs::io_uring;
use crate::uapi::IORING_SETUP_DEFER_TASKRUN;
use uring_core::observe::CompleteSide;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const PENDING: u32 = 1 << 12;

/// A submit call on a DEFER_TASKRUN ring: `entered_for_events` when it
/// waited (the kernel ran the ring's task work), else new requests now
/// wait for the owner.
pub(super) fn submitted(c: &mut RingCheck, entered_for_events: bool, result: i32) {
    if entered_for_events {
        c.events_entered = true;
    } else if result > 0 {
        c.events_entered = false;
    }
}

/// A wait or peek call entered the kernel (`result` not -EEXIST: the
/// owner's, which runs the task work).
pub(super) fn reaped(c: &mut RingCheck, enters: u32, result: i32) {
    if enters != 0 && result != -libc::EEXIST {
        c.events_entered = true;
    }
}

/// The ring's end (`io_uring_queue_exit`).
pub(super) fn at_end(c: &mut RingCheck, call: Call) {
    if !suspected(c) {
        return;
    }
    let single = single_in_flight(c);
    if single == 0 {
        return;
    }
    let l = head(c, "deferred-pending", call);
    finding(c, l, single, "");
}

/// Keeps a copy of the ring's `struct io_uring` for [`at_process_exit`]
/// (setup and ring changes: DEFER_TASKRUN rings only); whether it did.
pub(super) fn keep_shape(c: &mut RingCheck, ring: &io_uring) -> bool {
    if c.flags & IORING_SETUP_DEFER_TASKRUN == 0 {
        return false;
    }
    // SAFETY: `ring` is a live `struct io_uring`, plain data (integers and
    // pointers), copied bit for bit into the record.
    c.shape = unsafe { core::ptr::read(ring) };
    c.shape_copied = true;
    true
}

/// The process is exiting normally (`crate::look_at_exit`) with the ring still
/// set up: the same finding as at `io_uring_queue_exit`. The program's
/// `struct io_uring` may be gone (main's frame), so the CQ is read through
/// the copy [`keep_shape`] made, whose pointers lead into the ring's
/// mapping, left in place by a ring never torn down (`mincore` says so
/// first: a program that unmapped it by hand gets no look).
pub(super) fn at_process_exit(c: &mut RingCheck) {
    if !c.shape_copied || !suspected(c) || !mapped(&c.shape) {
        return;
    }
    // Findings name the ring's fd from the copy, not from the program's
    // struct (`report::ring_fd_now`), for the rest of this look.
    let program_ring = c.ring;
    let shape = NonNull::from(&c.shape);
    c.ring = shape.as_ptr() as usize;
    // SAFETY: the copy's pointers lead into the ring's mapping, which
    // `mapped` found in place; only kernel-shared words (atomically) and
    // CQE copies are read, as a submit call's look at the CQ does while
    // another thread may be reaping.
    let cq = unsafe { CompleteSide::new(shape) };
    // The CQEs the program consumed inline since the last call seen.
    walk_cq(c, cq, Call::ProcessExit);
    let single = if suspected(c) { single_in_flight(c) } else { 0 };
    if single != 0 {
        // The call site named is that of the ring's last library call.
        let l = head(c, "deferred-pending", Call::ProcessExit);
        finding(
            c,
            l,
            single,
            ", seen at process exit (the ring was never torn down)",
        );
    }
    c.ring = program_ring;
}

/// The ring could hold the mistake: DEFER_TASKRUN, counts kept, requests
/// in flight, no enter for events by the owner since it submitted them.
fn suspected(c: &RingCheck) -> bool {
    c.flags & IORING_SETUP_DEFER_TASKRUN != 0
        && !c.lost()
        && c.in_flight != 0
        && !c.events_entered
        && wants(c, PENDING)
}

/// The requests in flight but the multishot ones: one still armed at the
/// end is the usual case, not this mistake.
fn single_in_flight(c: &RingCheck) -> u32 {
    let mut single = 0u32;
    for (b, &bits) in c.occupied.iter().enumerate() {
        for way in 0..WAYS {
            if bits & (1 << way) != 0 {
                if let Some(r) = c.reqs.get(b * WAYS + way) {
                    if !r.multishot() {
                        single += r.count();
                    }
                }
            }
        }
    }
    single
}

/// Whether the pages of the CQ ring's head and of its CQEs (two mappings
/// on kernels without `IORING_FEAT_SINGLE_MMAP`) are mapped: `mincore`
/// fails with ENOMEM on an address that is not, and reads nothing.
fn mapped(shape: &io_uring) -> bool {
    // SAFETY: no preconditions; 0 when the entry is absent.
    let page = unsafe { libc::getauxval(libc::AT_PAGESZ) } as usize;
    if page == 0 {
        return false;
    }
    [shape.cq.khead as usize, shape.cq.cqes as usize]
        .iter()
        .all(|&addr| {
            let mut vec = 0u8;
            // SAFETY: one page from a page-aligned address; the kernel
            // writes one byte of residency into `vec` and reads no memory
            // of that page.
            addr != 0
                && unsafe { libc::mincore((addr & !(page - 1)) as *mut c_void, 1, &mut vec) } == 0
        })
}

/// The finding's text, after its head (`when`: what the head's call
/// leaves to say).
fn finding(c: &mut RingCheck, mut l: Finding, single: u32, when: &str) {
    l.u(u64::from(single))
        .s(" request(s) still in flight on this IORING_SETUP_DEFER_TASKRUN ring, and its owner thread never entered the kernel for completions (a wait, io_uring_get_events, a submit-and-wait) since submitting them")
        .s(when);
    report(
        c,
        PENDING,
        l,
        "with DEFER_TASKRUN a request's completion work runs only when the owner thread (the submitter) enters the kernel to wait or get events; peeking, by it or by other threads, never runs it, so their CQEs never came",
        "have the owner thread wait (io_uring_wait_cqe*, io_uring_submit_and_wait*) or call io_uring_get_events before peeking; if another thread must reap, set up the ring without IORING_SETUP_DEFER_TASKRUN",
    );
}
