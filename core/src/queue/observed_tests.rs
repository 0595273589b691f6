// SPDX-License-Identifier: MIT
//! What the wait loop tells an installed observer, checked against the
//! running kernel.
//!
//! An observer is installed once per process, before any ring exists
//! (`hooks::install`), and every test of this binary shares the process; so
//! each test here runs its body in a child: the test binary again, asked for
//! that one test alone, with `OBSERVED_CHILD` naming the observer to
//! install first. The parent only starts it and checks that it passed.
use super::tests::{close_fds, cqe_out, nop, pipe, prep, write_byte};
use super::*;
use crate::hooks::{CallName, CompleteSide, Observer, SubmitSide};
use crate::structs::io_uring;
use crate::test_ring::{require_uring, test_name, TestRing as Ring};
use crate::uapi::{io_uring_params, IORING_OP_READ};
use std::sync::atomic::AtomicI32;
use std::sync::Mutex;

/// The environment variable that makes a test run its observed body.
const CHILD: &str = "OBSERVED_CHILD";

/// One report, as the test observer records it (`timed`: a nonzero
/// `entered_ns`; `unsubmitted`: what the ring's SQ side shows when told,
/// taken SQEs the kernel has not consumed).
#[derive(Debug, PartialEq, Eq)]
enum Told {
    Waiting {
        unsubmitted: u32,
        wait_nr: u32,
        timed: bool,
    },
    Submitted {
        reaped: bool,
        result: i32,
        enters: u32,
        timed: bool,
    },
    Reaped {
        result: i32,
        enters: u32,
        timed: bool,
    },
    /// Setup, teardown and failure reports, by name.
    Other(&'static str),
}

static TOLD: Mutex<Vec<Told>> = Mutex::new(Vec::new());
/// A pipe's write end the `waiting` report writes one byte to (-1: none),
/// so that the wait it announces has a completion to return with. Whoever
/// swaps it out writes: the report, or [`wake_anyway`] when no report came.
static WAKE_FD: AtomicI32 = AtomicI32::new(-1);

/// Writes one byte to [`WAKE_FD`] if nobody has yet.
fn wake() {
    let fd = WAKE_FD.swap(-1, Ordering::Relaxed);
    if fd >= 0 {
        write_byte(fd);
    }
}

/// A thread that wakes the wait after 10 s if the report never does: a
/// wait the observer was not told of then fails the test rather than
/// hanging it.
fn wake_anyway() -> std::thread::JoinHandle<()> {
    std::thread::spawn(|| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while WAKE_FD.load(Ordering::Relaxed) >= 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        wake();
    })
}

fn tell(t: Told) {
    TOLD.lock().unwrap().push(t);
}

/// The reports since the last call.
fn told() -> Vec<Told> {
    std::mem::take(&mut *TOLD.lock().unwrap())
}

extern "C" fn setup_failed(_: CallName, _: u32, _: u32, _: Option<&io_uring_params>, _: i32) {
    tell(Told::Other("setup_failed"));
}
extern "C" fn ring_created(_: &io_uring) {
    tell(Told::Other("ring_created"));
}
extern "C" fn ring_changed(_: &io_uring) {
    tell(Told::Other("ring_changed"));
}
extern "C" fn ring_exit(_: &io_uring) {
    tell(Told::Other("ring_exit"));
}
extern "C" fn submitted(
    _: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
) {
    tell(Told::Submitted {
        reaped: cq.is_some(),
        result,
        enters,
        timed: entered_ns != 0,
    });
}
extern "C" fn reaped(_: CompleteSide<'_>, result: i32, enters: u32, entered_ns: u64) {
    tell(Told::Reaped {
        result,
        enters,
        timed: entered_ns != 0,
    });
}
extern "C" fn waiting(cq: CompleteSide<'_>, wait_nr: u32, timed: bool) {
    // SAFETY: the ring is live for the wait that reports, and the test's
    // one thread both submits and waits: it is the ring's submitter.
    let sq = unsafe { SubmitSide::new(NonNull::new(cq.id().cast_mut()).unwrap()) };
    tell(Told::Waiting {
        unsubmitted: sq.sqe_tail().wrapping_sub(sq.sq_khead()),
        wait_nr,
        timed,
    });
    wake();
}
extern "C" fn register_failed(_: u32, _: *const c_void, _: u32, _: i32) {
    tell(Told::Other("register_failed"));
}
extern "C" fn feature_missing(_: CallName, _: u32, _: i32) {
    tell(Told::Other("feature_missing"));
}

static OBSERVER: Observer = Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted,
    reaped,
    waiting,
    register_failed,
    feature_missing,
    timed: true,
};

/// Whether this process is the child started to run a test's body
/// under the observer `mode`.
fn is_child(mode: &str) -> bool {
    std::env::var(CHILD).as_deref() == Ok(mode)
}

/// Installs the test observer (`rings`: it watches the submit and wait
/// paths too), in the child, first thing.
fn install(rings: bool) {
    // SAFETY: the child runs this one test on one thread (the parent asked
    // for it alone), and nothing has called the library in it yet.
    unsafe { hooks::install(&OBSERVER, rings) };
}

/// The start of an observed test: in the parent, runs the test alone in a
/// child under observer `mode` and returns; in that child, installs the
/// observer (`rings`: watching the submit and wait paths too) and goes on.
macro_rules! in_observed_child {
    ($mode:literal, $rings:expr) => {
        fn here() {}
        if !is_child($mode) {
            require_uring!();
            run_child(test_name(core::any::type_name_of_val(&here)), $mode);
            return;
        }
        install($rings);
    };
}

/// Runs `test` alone in a child with `CHILD` set to `mode` and checks that
/// it passed.
fn run_child(test: &str, mode: &str) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, mode)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "the observed child failed:\n{text}");
    // A filter that matched nothing would pass without running the body.
    assert!(text.contains("1 passed"), "the child ran no test:\n{text}");
}

/// The CQE a wait returned: (user_data, res), released.
fn take_cqe(ring: LiveRing, cqe: *mut io_uring_cqe) -> (u64, i32) {
    assert!(!cqe.is_null(), "the wait returned no CQE");
    // SAFETY: a CQE a wait returned is readable until released.
    let v = unsafe { ((*cqe).user_data, (*cqe).res) };
    cq_advance(ring, 1);
    v
}

/// A wait that times out, through the timed (`IORING_ENTER_EXT_ARG`) path:
/// its result.
fn timed_wait_that_expires(ring: LiveRing) -> SysResult<u32> {
    let ts = __kernel_timespec {
        tv_sec: 0,
        tv_nsec: 1_000_000,
    };
    let mut cqe = null_mut();
    wait_cqe_timeout_waited(ring, cqe_out(&mut cqe), &ts).result()
}

#[test]
fn a_ring_watcher_is_told_each_wait_with_its_enters() {
    in_observed_child!("rings", true);
    let mut r = Ring::new(8, 0).unwrap();
    // (Setup and teardown are reported by the C boundary, not here.)
    told();

    // A plain wait that submits: one submit report (the call reaped too),
    // one enter, timed; no report before sleeping (it submits).
    nop(r.live(), 1);
    let n = flush_sq(r.live());
    assert_eq!(n, 1);
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), n, 1, ptr::null()),
        Ok(1)
    );
    assert_eq!(take_cqe(r.live(), cqe), (1, 0));
    assert_eq!(
        told(),
        [Told::Submitted {
            reaped: true,
            result: 1,
            enters: 1,
            timed: true
        }]
    );

    // The submit calls the C entry points make under a watcher: told
    // whether the call reaped too (it waits, or asks for events).
    nop(r.live(), 4);
    assert_eq!(submit_observed(r.live(), 0, false), 1);
    nop(r.live(), 5);
    assert_eq!(submit_observed(r.live(), 1, false), 1);
    let submitted = |reaped| Told::Submitted {
        reaped,
        result: 1,
        enters: 1,
        timed: true,
    };
    assert_eq!(told(), [submitted(false), submitted(true)]);
    for user_data in [4, 5] {
        let mut cqe = null_mut();
        assert_eq!(
            get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
            Ok(0)
        );
        assert_eq!(take_cqe(r.live(), cqe), (user_data, 0));
    }

    // A plain wait that submits nothing, with one SQE published but not
    // yet consumed by the kernel: told before sleeping, with that SQE as
    // unsubmitted. The report itself writes the byte the pending read
    // completes with.
    let (rd, wr) = pipe();
    let mut byte = 0u8;
    let addr = ptr::from_mut(&mut byte) as u64;
    prep(r.live(), IORING_OP_READ, rd, addr, 1, u64::MAX, 2);
    assert_eq!(submit(r.live()), Ok(1));
    nop(r.live(), 3);
    assert_eq!(flush_sq(r.live()), 1);
    told();
    WAKE_FD.store(wr, Ordering::Relaxed);
    let backstop = wake_anyway();
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    backstop.join().unwrap();
    assert_eq!(take_cqe(r.live(), cqe), (2, 1));
    assert_eq!(byte, b'x');
    assert_eq!(
        told(),
        [
            Told::Waiting {
                unsubmitted: 1,
                wait_nr: 1,
                timed: false
            },
            Told::Reaped {
                result: 0,
                enters: 1,
                timed: true
            }
        ]
    );
    // The NOP left published, submitted and reaped (reports not checked).
    assert_eq!(submit(r.live()), Ok(1));
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    assert_eq!(take_cqe(r.live(), cqe), (3, 0));
    close_fds(&[rd, wr]);

    // A wait with a timeout that expires: told before sleeping (with the
    // timeout), then at its end with its error and its one enter, timed.
    // Kernels before 5.11 (no IORING_FEAT_EXT_ARG, asked of uname, not of
    // the ring) take the fallback through a timeout SQE, which reports
    // otherwise.
    if crate::test_ring::kernel_release_at_least((5, 11)) {
        told();
        assert_eq!(timed_wait_that_expires(r.live()), Err(Errno::ETIME));
        assert_eq!(
            told(),
            [
                Told::Waiting {
                    unsubmitted: 0,
                    wait_nr: 1,
                    timed: true
                },
                Told::Reaped {
                    result: Errno::ETIME.neg(),
                    enters: 1,
                    timed: true
                }
            ]
        );
    }
}

#[test]
fn a_failure_only_observer_is_told_nothing_of_waits() {
    in_observed_child!("failures", false);
    let mut r = Ring::new(8, 0).unwrap();
    // A plain wait that submits, one whose CQE is already there, and a
    // timed one that expires: results as ever, and no report at all.
    nop(r.live(), 1);
    let n = flush_sq(r.live());
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), n, 1, ptr::null()),
        Ok(1)
    );
    assert_eq!(take_cqe(r.live(), cqe), (1, 0));
    nop(r.live(), 2);
    assert_eq!(submit(r.live()), Ok(1));
    let mut cqe = null_mut();
    assert_eq!(
        get_cqe(r.live(), cqe_out(&mut cqe), 0, 1, ptr::null()),
        Ok(0)
    );
    assert_eq!(take_cqe(r.live(), cqe), (2, 0));
    assert_eq!(timed_wait_that_expires(r.live()), Err(Errno::ETIME));
    drop(r);
    assert_eq!(told(), []);
}
