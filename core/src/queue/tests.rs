// SPDX-License-Identifier: MIT
//! Round trips against the running kernel. Rings come from the real
//! setup code; SQEs are filled by hand (the prep helpers are C inlines).
use super::completion::load_cq_head;
use super::submission::{load_sq_head, submit_flushed_counted};
use super::*;
use crate::structs::int_flags;
use crate::structs::io_uring;
use crate::syscall::Errno;
use crate::test_ring::{
    errno, kernel_refuses_flags, require_uring, ring, ring_or_skip, skip, wait_until, write_byte,
    TestRing as Ring,
};
use crate::uapi::{
    __kernel_timespec, io_uring_mem_region_reg, io_uring_params, io_uring_reg_wait,
    io_uring_region_desc, io_uring_rsrc_update, io_uring_sqe, IORING_CQE_F_32, IORING_FEAT_EXT_ARG,
    IORING_FEAT_MIN_TIMEOUT, IORING_FEAT_NODROP, IORING_FEAT_NO_IOWAIT,
    IORING_MEM_REGION_REG_WAIT_ARG, IORING_MEM_REGION_TYPE_USER, IORING_NOP_CQE32, IORING_OP_NOP,
    IORING_OP_READ, IORING_REGISTER_ENABLE_RINGS, IORING_REGISTER_MEM_REGION,
    IORING_REGISTER_RING_FDS, IORING_REG_WAIT_TS, IORING_SETUP_CQE32, IORING_SETUP_CQE_MIXED,
    IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_IOPOLL, IORING_SETUP_R_DISABLED,
    IORING_SETUP_SINGLE_ISSUER, IORING_SETUP_SQE128, IORING_SETUP_SQPOLL, IORING_SETUP_SQ_REWIND,
    IORING_SETUP_TASKRUN_FLAG, IORING_SQ_CQ_OVERFLOW, IORING_SQ_NEED_WAKEUP, IORING_SQ_TASKRUN,
};
use core::ptr::{self, null_mut};
use core::sync::atomic::Ordering;
use std::collections::HashSet;
use std::time::{Duration, Instant};

// The header's inline helpers and the C entry points' result form, for
// the tests (the library itself has them in C, or in another form).

/// SQEs handed out but not yet consumed by the kernel (`io_uring_sq_ready`).
pub(crate) fn sq_ready(ring: LiveRing) -> u32 {
    ring.sqe_tail().wrapping_sub(load_sq_head(ring))
}

/// Free SQ slots (`io_uring_sq_space_left`).
fn sq_space_left(ring: LiveRing) -> u32 {
    ring.sq_entries().wrapping_sub(sq_ready(ring))
}

fn wait_cqes(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    wait_nr: u32,
    ts: *const __kernel_timespec,
    sigmask: *const libc::sigset_t,
) -> SysResult<u32> {
    wait_cqes_waited(ring, cqe_out, wait_nr, ts, sigmask).result()
}

fn wait_cqe_timeout(
    ring: LiveRing,
    cqe_out: &mut CqeOut,
    ts: *const __kernel_timespec,
) -> SysResult<u32> {
    wait_cqe_timeout_waited(ring, cqe_out, ts).result()
}

/// `&mut *mut io_uring_cqe` as the out-parameter the waits take.
pub(super) fn cqe_out(p: &mut *mut io_uring_cqe) -> &mut CqeOut {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout; the borrow is exclusive.
    unsafe { &mut *ptr::from_mut(p).cast::<CqeOut>() }
}

/// A CQE pointer array as the out-slots `peek_batch_cqe` takes.
fn cqe_slots_of(a: &mut [*mut io_uring_cqe]) -> &mut [CqeOut] {
    // SAFETY: as for `cqe_out`, element by element.
    unsafe { core::slice::from_raw_parts_mut(a.as_mut_ptr().cast::<CqeOut>(), a.len()) }
}

/// Grabs an SQE and fills the fields every prep helper sets.
pub(super) fn prep(
    ring: LiveRing,
    opcode: u8,
    fd: i32,
    addr: u64,
    len: u32,
    off: u64,
    user_data: u64,
) -> *mut io_uring_sqe {
    let sqe = get_sqe(ring);
    assert!(!sqe.is_null(), "SQ unexpectedly full");
    // SAFETY: the SQE was just handed out to us.
    let s = unsafe { &mut *sqe };
    s.opcode = opcode;
    s.fd = fd;
    s.addr = addr;
    s.len = len;
    s.off = off;
    s.user_data = user_data;
    sqe
}

pub(super) fn nop(ring: LiveRing, user_data: u64) {
    prep(ring, IORING_OP_NOP, -1, 0, 0, 0, user_data);
}

fn ts_ms(ms: i64) -> __kernel_timespec {
    __kernel_timespec {
        tv_sec: ms / 1000,
        tv_nsec: (ms % 1000) * 1_000_000,
    }
}

/// How long a test waits for a completion that is due: long enough for
/// any loaded machine, and the wait ends as soon as it is there.
const PATIENCE_MS: i64 = 10_000;

/// Waits up to `ms` for one CQE; returns (user_data, res, flags) and
/// releases it.
fn reap(ring: LiveRing, ms: i64) -> SysResult<(u64, i32, u32)> {
    let ts = ts_ms(ms);
    let mut cqe = null_mut();
    wait_cqe_timeout(ring, cqe_out(&mut cqe), &ts)?;
    assert!(!cqe.is_null());
    // SAFETY: a CQE returned by the wait is readable until released.
    let v = unsafe { ((*cqe).user_data, (*cqe).res, (*cqe).flags) };
    // SAFETY: live ring; done with the CQE.
    cq_advance(ring, cqe_slots(v.2));
    Ok(v)
}

pub(super) fn pipe() -> (i32, i32) {
    let mut fds = [0i32; 2];
    // SAFETY: `fds` has room for the two descriptors.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    (fds[0], fds[1])
}

pub(super) fn close_fds(fds: &[i32]) {
    for &fd in fds {
        let _ = syscall::close(fd);
    }
}

/// The ring pointer, handed to a second thread as liburing allows.
#[derive(Clone, Copy)]
struct SharedRing(*mut io_uring);
// SAFETY: the ring outlives both threads, and they split it as the
// threading contract says: one only submits, the other only reaps.
unsafe impl Send for SharedRing {}

#[test]
fn submitter_and_reaper_threads_share_a_ring() {
    const TOTAL: u64 = 20_000;
    let mut r = ring!(64);
    let shared = SharedRing(&mut r.0);
    let reaper = std::thread::spawn(move || {
        let shared = shared;
        // SAFETY: the ring is live until after the join below.
        let ring = unsafe { LiveRing::from_ptr(shared.0) }.unwrap();
        let mut seen = vec![false; TOTAL as usize];
        let mut got = 0;
        while got < TOTAL {
            let mut cqe = null_mut();
            let ret = get_cqe(ring, cqe_out(&mut cqe), 0, 1, ptr::null());
            assert_eq!(ret, Ok(0));
            // SAFETY: a CQE just found, not yet released.
            let ud = unsafe { (*cqe).user_data };
            assert!(!seen[ud as usize], "CQE {ud} twice");
            seen[ud as usize] = true;
            cq_advance(ring, 1);
            got += 1;
        }
    });
    // SAFETY: as above; this thread only submits.
    let ring = unsafe { LiveRing::from_ptr(shared.0) }.unwrap();
    let mut next = 0;
    while next < TOTAL {
        // At most 32 in flight, so the 128-entry CQ never overflows.
        if sq_space_left(ring) == 0 || next - reaped_estimate(ring) >= 32 {
            std::thread::yield_now();
            continue;
        }
        nop(ring, next);
        next += 1;
        submit(ring).unwrap();
    }
    reaper.join().unwrap();
    assert_eq!(cq_ready(r.live()), 0);
}

/// CQEs the reaper has released so far (the CQ head is monotonic).
fn reaped_estimate(ring: LiveRing) -> u64 {
    u64::from(ring.cq_khead().load(Ordering::Acquire))
}

#[test]
fn nop_round_trip() {
    let mut r = ring!(8);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        assert_eq!(sq_space_left(r.live()), 8);
        nop(r.live(), 7);
        assert_eq!(sq_ready(r.live()), 1);
        assert_eq!(submit(r.live()), Ok(1));
        // Nothing new: no SQEs, and the CQ needs no flush.
        assert_eq!(submit(r.live()), Ok(0));
        let mut cqe = null_mut();
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
            Ok(0)
        );
        assert!(!cqe.is_null());
        assert_eq!(((*cqe).user_data, (*cqe).res), (7, 0));
        assert_eq!(cq_ready(r.live()), 1);
        cq_advance(r.live(), 1);
        assert_eq!(cq_ready(r.live()), 0);
    }
}

#[test]
fn ring_with_sq_array() {
    // Set up without trying IORING_SETUP_NO_SQARRAY first, so the ring
    // has the (identity) SQ index array.
    require_uring!();
    let mut r = Ring::exactly(4, 0).unwrap();
    assert!(!r.sq.array.is_null());
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        // Several laps around the 4-entry SQ.
        for round in 0..5u64 {
            for i in 0..3 {
                nop(r.live(), round * 10 + i);
            }
            assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
            let mut out = [null_mut(); 4];
            assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
            for (i, c) in out[..3].iter().enumerate() {
                assert_eq!((**c).user_data, round * 10 + i as u64);
            }
            cq_advance(r.live(), 3);
        }
    }
}

#[test]
fn get_cqe_submits_and_reports_count() {
    let mut r = ring!(8);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        nop(r.live(), 1);
        nop(r.live(), 2);
        let n = flush_sq(r.live());
        assert_eq!(n, 2);
        let mut cqe = null_mut();
        // The first enter submits both and its count is the result.
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), n, 1, ptr::null()),
            Ok(2)
        );
        assert_eq!((*cqe).user_data, 1);
    }
}

#[test]
fn sq_full_then_refilled() {
    let mut r = ring!(4);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        for i in 0..4 {
            nop(r.live(), i);
        }
        assert!(get_sqe(r.live()).is_null(), "a 4-entry SQ hands out 4 SQEs");
        assert_eq!(sq_space_left(r.live()), 0);
        assert_eq!(submit_and_wait(r.live(), 4), Ok(4));
        assert_eq!(sq_space_left(r.live()), 4);
        assert!(!get_sqe(r.live()).is_null());
        // Turn the extra SQE into a NOP so it completes harmlessly.
        (*r.sq
            .sqes
            .add(((r.sq.sqe_tail - 1) & r.sq.ring_mask) as usize))
        .opcode = IORING_OP_NOP;
    }
}

#[test]
fn peek_on_empty_cq_is_eagain() {
    let mut r = ring!(4);
    let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
    let ret = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
    assert_eq!(ret, Err(Errno::EAGAIN));
    assert!(cqe.is_null());
}

#[test]
fn batch_submit_wait_and_peek() {
    let mut r = ring!(16);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        for i in 0..8 {
            nop(r.live(), 100 + i);
        }
        assert_eq!(submit_and_wait(r.live(), 8), Ok(8));
        let mut out = [null_mut(); 16];
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out[..5])), 5);
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 8);
        for (i, c) in out[..8].iter().enumerate() {
            assert_eq!((**c).user_data, 100 + i as u64);
        }
        // A zero-sized batch finds nothing to return.
        assert_eq!(peek_batch_cqe(r.live(), &mut []), 0);
        cq_advance(r.live(), 8);
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 0);
    }
}

#[test]
fn submit_and_wait_timeout_returns_submitted() {
    let mut r = ring!(8);
    let ts = ts_ms(PATIENCE_MS);
    // SAFETY: (whole test) `r` is a live ring; `ts` outlives the calls.
    unsafe {
        nop(r.live(), 1);
        nop(r.live(), 2);
        let mut cqe = null_mut();
        assert_eq!(
            submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 2, &ts, ptr::null()),
            Ok(2)
        );
        assert!(!cqe.is_null());
        assert_eq!(cq_ready(r.live()), 2);
        cq_advance(r.live(), 2);
        // Without a timeout: the plain submit-and-wait path.
        nop(r.live(), 3);
        assert_eq!(
            submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 1, ptr::null(), ptr::null()),
            Ok(1)
        );
        assert_eq!((*cqe).user_data, 3);
    }
}

#[test]
fn wait_timeout_gives_etime() {
    let mut r = ring!(4);
    if r.features & IORING_FEAT_EXT_ARG == 0 {
        skip!("kernel lacks IORING_FEAT_EXT_ARG");
    }
    let ts = ts_ms(50);
    let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
    let start = Instant::now();
    let ret = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &ts);
    assert_eq!(ret, Err(Errno::ETIME));
    let waited = start.elapsed();
    assert!(cqe.is_null());
    // A lower bound only: a loaded machine may wake the waiter late.
    assert!(waited >= Duration::from_millis(45), "waited {waited:?}");

    // Same through wait_cqes with an (empty) signal mask: the kernel
    // checks the mask size we pass.
    // SAFETY: an all-zero sigset_t is a valid empty set.
    let mask: libc::sigset_t = unsafe { core::mem::zeroed() };
    let ret = wait_cqes(r.live(), cqe_out(&mut cqe), 1, &ts, &mask);
    assert_eq!(ret, Err(Errno::ETIME));
    // And a completion that is already there is returned at once.
    nop(r.live(), 5);
    assert_eq!(submit(r.live()), Ok(1));
    assert_eq!(wait_cqes(r.live(), cqe_out(&mut cqe), 1, &ts, &mask), Ok(0));
    // SAFETY: returned by the wait.
    assert_eq!(unsafe { (*cqe).user_data }, 5);
}

#[test]
fn timeout_fallback_without_ext_arg() {
    let mut r = ring!(4);
    // Pretend to be an old kernel: the wait queues its own timeout SQE.
    r.features &= !IORING_FEAT_EXT_ARG;
    let ts = ts_ms(30);
    let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
    let start = Instant::now();
    let res = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &ts);
    // liburing reports the first enter's count (the timeout SQE it
    // submitted) and no CQE; the timeout's own CQE is consumed.
    assert_eq!(res, Ok(1));
    assert!(cqe.is_null());
    assert!(start.elapsed() >= Duration::from_millis(25));
    // SAFETY: (rest) live ring.
    unsafe {
        assert_eq!(cq_ready(r.live()), 0);
        assert_eq!(sq_ready(r.live()), 0);

        // A pending timeout CQE that failed is reported by the next peek.
        nop(r.live(), 9);
        let long = ts_ms(100);
        let res = wait_cqe_timeout(r.live(), cqe_out(&mut cqe), &long);
        assert_eq!(res, Ok(2), "NOP and timeout submitted together");
        assert_eq!((*cqe).user_data, 9);
        cq_advance(r.live(), 1);
        // The internal timeout ends (100 ms) and posts its own CQE.
        wait_until("the internal timeout's CQE", || cq_ready(r.live()) == 1);
        let res = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
        assert!(
            res == Err(Errno::EAGAIN) || res == Err(Errno::ETIME),
            "{res:?}"
        );
        assert!(cqe.is_null());
        assert_eq!(
            cq_ready(r.live()),
            0,
            "the internal timeout CQE is never shown"
        );
    }
}

#[test]
fn min_timeout_waits() {
    let mut r = ring!(8);
    if r.features & IORING_FEAT_MIN_TIMEOUT == 0 {
        skip!("kernel lacks IORING_FEAT_MIN_TIMEOUT");
    }
    let ts = ts_ms(60);
    let mut cqe = null_mut();
    let start = Instant::now();
    let res = wait_cqes_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10_000, ptr::null());
    assert_eq!(res, Err(Errno::ETIME));
    assert!(start.elapsed() >= Duration::from_millis(55));

    // One of four: the batch timeout (30 ms) ends the wait, not `long`.
    let long = ts_ms(3000);
    nop(r.live(), 1);
    let start = Instant::now();
    // SAFETY: live ring; `long` outlives the call.
    let res =
        submit_and_wait_min_timeout(r.live(), cqe_out(&mut cqe), 4, &long, 30_000, ptr::null());
    let waited = start.elapsed();
    // The result and the CQE are asserted, not the wall time: a loaded
    // machine may delay any wake-up (the time is printed below).
    assert_eq!(res, Ok(1));
    assert!(!cqe.is_null());
    println!("min-timeout wait for 1 of 4 CQEs took {waited:?} (batch timeout 30ms)");
    cq_advance(r.live(), 1);

    // Without the feature: EINVAL, and the out pointer is left alone.
    r.features &= !IORING_FEAT_MIN_TIMEOUT;
    let sentinel = ptr::dangling_mut::<io_uring_cqe>();
    cqe = sentinel;
    assert_eq!(
        wait_cqes_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10, ptr::null()),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        submit_and_wait_min_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, 10, ptr::null()),
        Err(Errno::EINVAL)
    );
    assert_eq!(cqe, sentinel);
}

/// Moves a copy of a ring's (plain-data) handle to another thread.
struct SendRing(io_uring);
// SAFETY: the copy is only used to issue io_uring_enter from the other
// thread (which the kernel polices); the test keeps the ring alive.
unsafe impl Send for SendRing {}

#[test]
fn defer_taskrun_completions_need_enter() {
    let mut r = ring_or_skip!(8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    let (rd, wr) = pipe();
    let mut buf = [0u8; 8];
    prep(
        r.live(),
        IORING_OP_READ,
        rd,
        buf.as_mut_ptr() as u64,
        1,
        u64::MAX,
        1,
    );
    assert_eq!(submit(r.live()), Ok(1));
    // The write wakes the armed read, which queues it as task work
    // before write(2) returns (the wake-up runs in the writer's call),
    // so there is nothing to wait for: the completion is pending now,
    // and without an enter from us it stays there. (A ring without
    // DEFER_TASKRUN would have run it on the way back from write(2).)
    write_byte(wr);
    assert_eq!(cq_ready(r.live()), 0);
    let mut out = [null_mut(); 4];
    assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 0);
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null()),
        Err(Errno::EAGAIN)
    );

    // Another task may not run it: the kernel's EEXIST comes back.
    // SAFETY: a bitwise copy of the handle; the ring outlives the thread.
    let copy = SendRing(unsafe { ptr::read(&r.0) });
    let (ev, wait) = std::thread::spawn(move || {
        let mut copy = copy;
        let mut cqe = null_mut();
        // SAFETY: the ring outlives this thread (joined below).
        unsafe {
            (
                get_events(LiveRing::from_ptr(&mut copy.0).unwrap()),
                get_cqe(
                    LiveRing::from_ptr(&mut copy.0).unwrap(),
                    cqe_out(&mut cqe),
                    0,
                    1,
                    ptr::null(),
                ),
            )
        }
    })
    .join()
    .unwrap();

    // SAFETY: (rest of the test) `r` is live; `buf` outlives every read.
    unsafe {
        let mut cqe = null_mut();
        assert_eq!(ev, Err(Errno::EEXIST));
        assert_eq!(wait, Err(Errno::EEXIST));
        assert_eq!(cq_ready(r.live()), 0);

        // Measured (as capi-tests/defer_taskrun.c): 6.1 runs no deferred
        // task work for an enter without a wait, 6.12 and later do; there
        // the wait in `reap` delivers it.
        let enter_runs_task_work = crate::test_ring::kernel_release_at_least((6, 12));
        assert_eq!(get_events(r.live()), Ok(0));
        if enter_runs_task_work {
            assert_eq!(cq_ready(r.live()), 1);
        }
        let (ud, res, _) = reap(r.live(), PATIENCE_MS).unwrap();
        assert_eq!((ud, res), (1, 1));

        // submit_and_get_events runs it too, with nothing to submit.
        prep(
            r.live(),
            IORING_OP_READ,
            rd,
            buf.as_mut_ptr() as u64,
            1,
            u64::MAX,
            2,
        );
        assert_eq!(submit(r.live()), Ok(1));
        write_byte(wr); // pending as task work on return, as above
        assert_eq!(cq_ready(r.live()), 0);
        assert_eq!(submit_and_get_events(r.live()), Ok(0));
        if enter_runs_task_work {
            assert_eq!(cq_ready(r.live()), 1);
        }
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 2);

        // And so does a wait.
        prep(
            r.live(),
            IORING_OP_READ,
            rd,
            buf.as_mut_ptr() as u64,
            1,
            u64::MAX,
            3,
        );
        assert_eq!(submit(r.live()), Ok(1));
        write_byte(wr);
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
            Ok(0)
        );
        assert_eq!(((*cqe).user_data, (*cqe).res), (3, 1));
        cq_advance(r.live(), 1);
    }
    close_fds(&[rd, wr]);
}

#[test]
fn taskrun_flag_makes_peek_enter() {
    let mut r = ring_or_skip!(
        8,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG
    );
    let (rd, wr) = pipe();
    let mut buf = [0u8; 8];
    // SAFETY: (whole test) `r` is live; `buf` outlives every read.
    unsafe {
        for ud in [1u64, 2] {
            prep(
                r.live(),
                IORING_OP_READ,
                rd,
                buf.as_mut_ptr() as u64,
                1,
                u64::MAX,
                ud,
            );
            assert_eq!(submit(r.live()), Ok(1));
            write_byte(wr);
            // The kernel flags the queued task work in the SQ ring.
            wait_until("IORING_SQ_TASKRUN", || {
                load_sq_flags(r.live()) & IORING_SQ_TASKRUN != 0
            });
            assert_eq!(cq_ready(r.live()), 0);
            if !crate::test_ring::kernel_release_at_least((6, 12)) {
                // Measured: 6.1 runs no deferred task work for the peek's
                // enter without a wait (as capi-tests/defer_taskrun.c); a
                // wait delivers it.
                assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, ud);
            } else if ud == 1 {
                let mut out = [null_mut(); 4];
                assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 1);
                assert_eq!((*out[0]).user_data, 1);
                cq_advance(r.live(), 1);
            } else {
                let mut cqe = null_mut();
                assert_eq!(
                    get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null()),
                    Ok(0)
                );
                assert_eq!((*cqe).user_data, 2);
                cq_advance(r.live(), 1);
            }
        }
    }
    close_fds(&[rd, wr]);
}

#[test]
fn cq_overflow_loses_nothing() {
    let mut r = ring!(4);
    if r.features & IORING_FEAT_NODROP == 0 {
        skip!("kernel lacks IORING_FEAT_NODROP");
    }
    let cq_entries = r.cq.ring_entries;
    let total = cq_entries + 4;
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        let mut id = 0;
        while id < total {
            for _ in 0..4 {
                nop(r.live(), u64::from(id));
                id += 1;
            }
            assert_eq!(submit(r.live()), Ok(4));
        }
        assert_eq!(cq_ready(r.live()), cq_entries);
        assert!(load_sq_flags(r.live()) & IORING_SQ_CQ_OVERFLOW != 0);

        let mut seen = HashSet::new();
        let mut out = [null_mut(); 64];
        loop {
            let n = peek_batch_cqe(r.live(), cqe_slots_of(&mut out));
            if n == 0 {
                break;
            }
            for c in &out[..n as usize] {
                assert_eq!((**c).res, 0);
                assert!(seen.insert((**c).user_data), "duplicate CQE");
            }
            cq_advance(r.live(), n);
        }
        assert_eq!(seen.len() as u32, total, "every completion arrives");
        assert!(load_sq_flags(r.live()) & IORING_SQ_CQ_OVERFLOW == 0);
    }
}

#[test]
fn sqpoll_wakeup() {
    let mut p = io_uring_params {
        flags: IORING_SETUP_SQPOLL,
        sq_thread_idle: 10,
        ..Default::default()
    };
    require_uring!();
    let mut r = match Ring::with_params(8, &mut p) {
        Ok(r) => r,
        Err(e) => skip!("SQPOLL setup failed: {}", errno(e)),
    };
    nop(r.live(), 1);
    // The awake poller may consume the SQE before the count is
    // taken, so 0 is as right as 1 here.
    let n = submit(r.live()).unwrap();
    assert!(n <= 1);
    assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 1);
    // Let the poller go idle and ask for a wakeup.
    wait_until("the SQ thread to go idle", || {
        load_sq_flags(r.live()) & IORING_SQ_NEED_WAKEUP != 0
    });
    nop(r.live(), 2);
    assert_eq!(submit(r.live()), Ok(1));
    assert_eq!(
        reap(r.live(), PATIENCE_MS).unwrap().0,
        2,
        "the sleeping poller was woken"
    );
    // With SQ space free, waiting for space returns at once.
    assert_eq!(sqring_wait(r.live()), Ok(0));
}

#[test]
fn registered_ring_fd() {
    let mut r = ring!(4);
    let mut upd = io_uring_rsrc_update {
        offset: u32::MAX,
        resv: 0,
        data: r.ring_fd as u64,
    };
    // SAFETY: the kernel reads and updates one io_uring_rsrc_update.
    let ret = unsafe {
        syscall::io_uring_register(
            r.ring_fd as u32,
            IORING_REGISTER_RING_FDS,
            ptr::from_mut(&mut upd).cast(),
            1,
        )
    };
    if ret != Ok(1) {
        skip!("ring fd registration: {ret:?}");
    }
    r.enter_ring_fd = upd.offset as i32;
    r.int_flags |= int_flags::REG_RING;
    nop(r.live(), 11);
    assert_eq!(submit(r.live()), Ok(1));
    assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 11);
    assert_eq!(get_events(r.live()), Ok(0));
    // The wait for SQ room enters through the registered index too (the
    // kernel ignores IORING_ENTER_SQ_WAIT without SQPOLL: 0 at once).
    assert_eq!(sqring_wait(r.live()), Ok(0));
}

#[test]
fn an_awake_sq_thread_takes_submissions_without_an_enter() {
    // While the SQ thread is awake (it idles 10 s before it sleeps), a
    // submit only publishes its SQEs. A submit as the thread falls asleep
    // (the test held up 10 s) enters to wake it, so the test wants one of
    // five submits without an enter, not all.
    require_uring!();
    if let Some(e) = kernel_refuses_flags(8, IORING_SETUP_SQPOLL) {
        skip!("kernel refuses IORING_SETUP_SQPOLL: {}", errno(e));
    }
    let mut p = io_uring_params {
        flags: IORING_SETUP_SQPOLL,
        sq_thread_idle: 10_000,
        ..Default::default()
    };
    let mut r = Ring::with_params(8, &mut p).unwrap();
    let mut enters = Vec::new();
    for user_data in 1..=5 {
        nop(r.live(), user_data);
        let n = flush_sq(r.live());
        let (submitted, entered) = submit_flushed_counted(r.live(), n, 0, false);
        assert_eq!(submitted, Ok(1));
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, user_data);
        enters.push(entered);
        if entered == 0 {
            break;
        }
    }
    assert!(enters.contains(&0), "every submit entered: {enters:?}");
}

#[test]
fn no_iowait_flag_reaches_kernel() {
    let mut r = ring!(4);
    if r.features & IORING_FEAT_NO_IOWAIT == 0 || r.features & IORING_FEAT_EXT_ARG == 0 {
        skip!("kernel lacks IORING_FEAT_NO_IOWAIT");
    }
    r.int_flags |= int_flags::NO_IOWAIT;
    // An unknown enter flag would be EINVAL; this one is a plain wait.
    assert_eq!(reap(r.live(), 10), Err(Errno::ETIME));
    nop(r.live(), 4);
    assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
    assert_eq!(reap(r.live(), 10).unwrap().0, 4);
}

#[test]
fn iopoll_peek_enters_once() {
    let mut r = ring_or_skip!(4, IORING_SETUP_IOPOLL);
    assert!(r.int_flags & int_flags::CQ_ENTER != 0);
    let mut cqe = null_mut();
    let ret = get_cqe(r.live(), cqe_out(&mut cqe), 0, 0, ptr::null());
    assert_eq!(ret, Err(Errno::EAGAIN));
}

#[test]
fn big_cqes_are_strided() {
    let mut r = ring_or_skip!(4, IORING_SETUP_CQE32);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        for i in 0..3 {
            nop(r.live(), i);
        }
        assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
        let mut out = [null_mut(); 4];
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
        for (i, c) in out[..3].iter().enumerate() {
            assert_eq!((**c).user_data, i as u64);
        }
        assert_eq!(out[1] as usize - out[0] as usize, 32);
        cq_advance(r.live(), 3);
    }
}

#[test]
fn big_sqes_are_strided() {
    let mut r = ring_or_skip!(4, IORING_SETUP_SQE128);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        let a = get_sqe(r.live());
        let b = get_sqe(r.live());
        assert_eq!(b as usize - a as usize, 128);
        for (s, ud) in [(a, 1), (b, 2)] {
            (*s).opcode = IORING_OP_NOP;
            (*s).fd = -1;
            (*s).user_data = ud;
        }
        assert_eq!(submit_and_wait(r.live(), 2), Ok(2));
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 1);
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 2);
    }
}

#[test]
fn mixed_cqes_and_skip_entries() {
    let mut r = ring_or_skip!(4, IORING_SETUP_CQE_MIXED);
    let slots = r.cq.ring_entries;
    let nop32 = |r: LiveRing, ud: u64| {
        let sqe = prep(r, IORING_OP_NOP, -1, 0, 0, 0, ud);
        // SAFETY: the SQE is still ours.
        unsafe { (*sqe).rw_flags = IORING_NOP_CQE32 };
    };
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        nop(r.live(), 1);
        nop32(r.live(), 2);
        nop(r.live(), 3);
        assert_eq!(submit_and_wait(r.live(), 3), Ok(3));
        assert_eq!(cq_ready(r.live()), 4, "a big CQE takes two slots");
        let mut out = [null_mut(); 8];
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
        let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
        assert_eq!(uds, [1, 2, 3]);
        assert!((*out[1]).flags & IORING_CQE_F_32 != 0);
        assert_eq!(out[2] as usize - out[1] as usize, 32);
        cq_advance(r.live(), 4);

        // Bring the head to the last slot, then post a big CQE: the
        // kernel pads the last slot with a skip entry and wraps.
        let mut head = load_cq_head(r.live());
        while (head & r.cq.ring_mask) != slots - 1 {
            nop(r.live(), 50);
            assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 50);
            head = load_cq_head(r.live());
        }
        nop32(r.live(), 60);
        assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
        assert_eq!(cq_ready(r.live()), 3, "skip entry plus a two-slot CQE");
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 1);
        assert_eq!((*out[0]).user_data, 60);
        assert_eq!(
            load_cq_head(r.live()) & r.cq.ring_mask,
            0,
            "the skip entry was released"
        );
        assert_eq!(out[0], r.cq.cqes);
        cq_advance(r.live(), 2);

        // Same through the single-CQE path.
        while (load_cq_head(r.live()) & r.cq.ring_mask) != slots - 1 {
            nop(r.live(), 70);
            assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
            assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 70);
        }
        nop32(r.live(), 80);
        assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
        let (ud, _, flags) = reap(r.live(), PATIENCE_MS).unwrap();
        assert_eq!(ud, 80);
        assert!(flags & IORING_CQE_F_32 != 0);
        assert_eq!(cq_ready(r.live()), 0);
    }
}

#[test]
fn sq_rewind_resets_tail() {
    let mut r = ring_or_skip!(4, IORING_SETUP_SQ_REWIND);
    // SAFETY: (whole test) `r` is a live ring.
    unsafe {
        nop(r.live(), 1);
        nop(r.live(), 2);
        assert_eq!(submit_and_wait(r.live(), 2), Ok(2));
        assert_eq!(r.sq.sqe_tail, 0, "the kernel starts from slot 0 every time");
        nop(r.live(), 3);
        assert_eq!(submit_and_wait(r.live(), 3), Ok(1));
        let mut out = [null_mut(); 4];
        assert_eq!(peek_batch_cqe(r.live(), cqe_slots_of(&mut out)), 3);
        let uds: Vec<u64> = out[..3].iter().map(|c| (**c).user_data).collect();
        assert_eq!(uds, [1, 2, 3]);
        cq_advance(r.live(), 3);
    }
}

#[test]
fn registered_wait_region() {
    let mut r = ring_or_skip!(8, IORING_SETUP_R_DISABLED);
    let page = syscall::page_size();
    // SAFETY: a fresh anonymous private mapping.
    let mem = unsafe {
        syscall::mmap(
            ptr::null_mut(),
            page,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    }
    .unwrap();
    let rd = io_uring_region_desc {
        user_addr: mem as u64,
        size: page as u64,
        flags: IORING_MEM_REGION_TYPE_USER,
        ..Default::default()
    };
    let mr = io_uring_mem_region_reg {
        region_uptr: ptr::from_ref(&rd) as u64,
        flags: IORING_MEM_REGION_REG_WAIT_ARG,
        ..Default::default()
    };
    // SAFETY: the kernel reads `mr` and the descriptor it points to.
    let ret = unsafe {
        syscall::io_uring_register(
            r.ring_fd as u32,
            IORING_REGISTER_MEM_REGION,
            ptr::from_ref(&mr).cast(),
            1,
        )
    };
    if ret.is_err() {
        // SAFETY: our mapping, unused.
        let _ = unsafe { syscall::munmap(mem, page) };
        skip!("wait region registration: {ret:?}");
    }
    // SAFETY: no argument.
    let ret = unsafe {
        syscall::io_uring_register(
            r.ring_fd as u32,
            IORING_REGISTER_ENABLE_RINGS,
            ptr::null(),
            0,
        )
    };
    assert_eq!(ret, Ok(0));

    let waits = mem.cast::<io_uring_reg_wait>();
    // SAFETY: the page holds 64 entries; the kernel reads them only
    // during our waits.
    unsafe {
        (*waits).ts = ts_ms(40);
        (*waits).flags = IORING_REG_WAIT_TS;
        (*waits.add(1)).ts = ts_ms(PATIENCE_MS);
        (*waits.add(1)).flags = IORING_REG_WAIT_TS;
    }
    let mut cqe = ptr::dangling_mut::<io_uring_cqe>();
    let start = Instant::now();
    // SAFETY: (rest) live ring.
    unsafe {
        assert_eq!(
            submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 1, 0),
            Err(Errno::ETIME)
        );
        assert!(cqe.is_null());
        assert!(start.elapsed() >= Duration::from_millis(35));

        nop(r.live(), 5);
        nop(r.live(), 6);
        assert_eq!(
            submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 2, 1),
            Ok(2)
        );
        assert_eq!((*cqe).user_data, 5);
        assert_eq!(cq_ready(r.live()), 2);
        cq_advance(r.live(), 2);

        // An old kernel: EINVAL, and the SQ tail stays unpublished (the
        // NOP is still the caller's to submit).
        r.features &= !IORING_FEAT_EXT_ARG;
        let ktail_before = *r.sq.ktail;
        nop(r.live(), 7);
        assert_eq!(
            submit_and_wait_reg(r.live(), cqe_out(&mut cqe), 1, 0),
            Err(Errno::EINVAL)
        );
        assert_eq!(r.sq.sqe_tail.wrapping_sub(r.sq.sqe_head), 1);
        assert_eq!(*r.sq.ktail, ktail_before);
        r.features |= IORING_FEAT_EXT_ARG;
        assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
        assert_eq!(reap(r.live(), PATIENCE_MS).unwrap().0, 7);
    }
    drop(r);
    // SAFETY: the ring (and its use of the region) is gone.
    let _ = unsafe { syscall::munmap(mem, page) };
}

#[test]
fn observed_submit_gives_the_plain_result() {
    // The observed copy of the submit calls (no observer is installed
    // here: the result alone is compared).
    let mut r = ring!(8);
    for ud in 1..=3 {
        nop(r.live(), ud);
    }
    assert_eq!(submit(r.watched()), Ok(3));
    assert_eq!(cq_ready(r.live()), 3);
    // Nothing to submit, one CQE wanted and there: no wait.
    assert_eq!(submit_and_wait(r.watched(), 1), Ok(0));
    cq_advance(r.live(), 3);
}

#[test]
fn submit_and_wait_returns_with_the_completion() {
    // A read of an empty pipe completes only when another thread writes:
    // submit_and_wait must not return before its CQE is in the ring.
    let mut r = ring!(8);
    let (rd, wr) = pipe();
    let mut buf = [0u8; 1];
    prep(
        r.live(),
        IORING_OP_READ,
        rd,
        buf.as_mut_ptr() as u64,
        1,
        u64::MAX,
        11,
    );
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        write_byte(wr);
    });
    assert_eq!(submit_and_wait(r.live(), 1), Ok(1));
    assert_eq!(cq_ready(r.live()), 1);
    writer.join().unwrap();
    assert_eq!(reap(r.live(), PATIENCE_MS).unwrap(), (11, 1, 0));
    close_fds(&[rd, wr]);
}

#[test]
fn a_timed_submit_whose_wait_expires_returns_the_count_submitted() {
    // A read of an empty pipe submitted with a 1 ms wait for its CQE
    // (IORING_ENTER_EXT_ARG): the enter submits it and its wait expires.
    // The call returns the one SQE submitted and no CQE, as liburing does;
    // ETIME only when it submitted nothing.
    let mut r = ring!(8);
    if !crate::test_ring::kernel_release_at_least((5, 11)) {
        skip!("IORING_FEAT_EXT_ARG needs Linux 5.11");
    }
    let (rd, wr) = pipe();
    let mut buf = [0u8; 1];
    let addr = buf.as_mut_ptr() as u64;
    prep(r.live(), IORING_OP_READ, rd, addr, 1, u64::MAX, 31);
    let ts = ts_ms(1);
    let mut cqe = null_mut();
    let ret = submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, ptr::null());
    assert_eq!(ret, Ok(1));
    assert!(cqe.is_null());
    let ret = submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, ptr::null());
    assert_eq!(ret, Err(Errno::ETIME));
    write_byte(wr);
    assert_eq!(reap(r.live(), PATIENCE_MS).unwrap(), (31, 1, 0));
    close_fds(&[rd, wr]);
}

#[test]
fn submit_and_wait_timeout_falls_back_without_ext_arg() {
    // An old kernel (no IORING_FEAT_EXT_ARG): the timeout goes in as an
    // SQE of its own, submitted with the caller's, and counted, as liburing
    // counts it.
    let mut r = ring!(8);
    r.features &= !IORING_FEAT_EXT_ARG;
    let ts = ts_ms(PATIENCE_MS);
    let mut cqe = null_mut();
    nop(r.live(), 21);
    assert_eq!(
        submit_and_wait_timeout(r.live(), cqe_out(&mut cqe), 1, &ts, ptr::null()),
        Ok(2)
    );
    assert!(!cqe.is_null());
    // SAFETY: a CQE the wait returned is readable until released.
    assert_eq!(unsafe { (*cqe).user_data }, 21);
    cq_advance(r.live(), 1);
    assert_eq!(sq_ready(r.live()), 0);
}

#[test]
fn flushed_big_cqes_are_strided() {
    // The batch peek's second pass (after letting the kernel run task work)
    // on a CQE32 ring reads 32-byte CQEs, as the first pass does.
    let mut r = ring_or_skip!(
        8,
        IORING_SETUP_SINGLE_ISSUER
            | IORING_SETUP_DEFER_TASKRUN
            | IORING_SETUP_TASKRUN_FLAG
            | IORING_SETUP_CQE32
    );
    let (rd, wr) = pipe();
    let mut buf = [0u8; 8];
    for ud in [1u64, 2] {
        prep(
            r.live(),
            IORING_OP_READ,
            rd,
            buf.as_mut_ptr() as u64,
            1,
            u64::MAX,
            ud,
        );
    }
    assert_eq!(submit(r.live()), Ok(2));
    write_byte(wr);
    write_byte(wr);
    wait_until("IORING_SQ_TASKRUN", || {
        load_sq_flags(r.live()) & IORING_SQ_TASKRUN != 0
    });
    assert_eq!(cq_ready(r.live()), 0);
    if !crate::test_ring::kernel_release_at_least((6, 12)) {
        // Measured: 6.1 runs no deferred task work for the peek's enter
        // without a wait (as capi-tests/defer_taskrun.c), so there is no
        // second pass to look at.
        skip!("the kernel (before 6.12) runs no task work for an enter without a wait");
    }
    let mut out = [null_mut(); 4];
    let n = peek_batch_cqe(r.live(), cqe_slots_of(&mut out));
    assert!(n >= 1, "the flush posted nothing");
    // SAFETY: the CQEs returned are readable until released.
    let seen: Vec<u64> = out[..n as usize]
        .iter()
        .map(|c| unsafe { (**c).user_data })
        .collect();
    // Task work runs in no promised order: each read once, nothing else.
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "{seen:?}");
    assert!(seen.iter().all(|ud| [1, 2].contains(ud)), "{seen:?}");
    if n == 2 {
        assert_eq!(out[1] as usize - out[0] as usize, 32);
    }
    cq_advance(r.live(), n);
    close_fds(&[rd, wr]);
}

#[test]
fn wait_with_its_completions_in_the_ring_makes_no_system_call() {
    // As liburing: a wait for CQEs already in the CQ returns them without
    // entering the kernel (shown with an enter descriptor that would fail).
    let mut r = ring!(4);
    nop(r.live(), 31);
    assert_eq!(submit(r.live()), Ok(1));
    wait_until("the NOP's CQE", || cq_ready(r.live()) == 1);
    let fd = r.enter_ring_fd;
    r.enter_ring_fd = -1;
    let mut cqe = null_mut();
    let res = get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null());
    r.enter_ring_fd = fd;
    assert_eq!(res, Ok(0));
    assert!(!cqe.is_null());
    // SAFETY: a CQE the wait returned is readable until released.
    assert_eq!(unsafe { (*cqe).user_data }, 31);
    cq_advance(r.live(), 1);
}
