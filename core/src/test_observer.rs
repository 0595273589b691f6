// SPDX-License-Identifier: MIT
//! A recording observer for the tests of what the hooks are told, in the
//! core and at the C boundary, and the child process it must run in.
//!
//! An observer is installed once per process, before any ring exists
//! (`observe::install`), and every test of a test binary shares the process;
//! so an observed test runs its body in a child: the test binary again,
//! asked for that one test alone, with `OBSERVED_CHILD` naming the observer
//! mode to install first ([`in_observed_child!`]). The parent only starts
//! it and checks that it passed.

use core::ffi::c_void;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use crate::observe::{self, CallName, Caller, CompleteSide, Observer, SubmitSide};
use crate::structs::io_uring;
use crate::test_ring::write_byte;
use crate::uapi::io_uring_params;

/// The environment variable that makes a test run its observed body.
const CHILD: &str = "OBSERVED_CHILD";

/// One report, as the test observer records it (`timed`: a nonzero
/// `entered_ns`; `unsubmitted`: what the ring's SQ side shows when told,
/// taken SQEs the kernel has not consumed).
#[derive(Debug, PartialEq, Eq)]
pub enum Told {
    /// `params`: the caller's params were passed along.
    SetupFailed {
        call: &'static str,
        entries: u32,
        flags: u32,
        params: bool,
        errno: i32,
    },
    RingCreated {
        fd: i32,
        sq_entries: u32,
    },
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
    /// Ring changes, teardown and registration failures, by name.
    Other(&'static str),
}

static TOLD: Mutex<Vec<Told>> = Mutex::new(Vec::new());
/// A pipe's write end the `waiting` report writes one byte to (-1: none),
/// so that the wait it announces has a completion to return with. Whoever
/// swaps it out writes: the report, or [`wake_anyway`] when no report came.
pub static WAKE_FD: AtomicI32 = AtomicI32::new(-1);

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
pub fn wake_anyway() -> std::thread::JoinHandle<()> {
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
pub fn told() -> Vec<Told> {
    std::mem::take(&mut *TOLD.lock().unwrap())
}

extern "C" fn setup_failed(
    call: CallName,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    errno: i32,
) {
    tell(Told::SetupFailed {
        call: call.as_str(),
        entries,
        flags,
        params: p.is_some(),
        errno,
    });
}
extern "C" fn ring_created(ring: &io_uring) {
    tell(Told::RingCreated {
        fd: ring.ring_fd,
        sq_entries: ring.sq.ring_entries,
    });
}
extern "C" fn ring_changed(_: &io_uring, _: Caller) {
    tell(Told::Other("ring_changed"));
}
extern "C" fn ring_exit(_: &io_uring, _: Caller) {
    tell(Told::Other("ring_exit"));
}
extern "C" fn submitted(
    _: SubmitSide<'_>,
    cq: Option<CompleteSide<'_>>,
    result: i32,
    enters: u32,
    entered_ns: u64,
    _: Caller,
) {
    tell(Told::Submitted {
        reaped: cq.is_some(),
        result,
        enters,
        timed: entered_ns != 0,
    });
}
extern "C" fn reaped(_: CompleteSide<'_>, result: i32, enters: u32, entered_ns: u64, _: Caller) {
    tell(Told::Reaped {
        result,
        enters,
        timed: entered_ns != 0,
    });
}
extern "C" fn waiting(cq: CompleteSide<'_>, wait_nr: u32, timed: bool, _: Caller) {
    // SAFETY: the ring is live for the wait that reports, and each test's
    // one thread both submits and waits: it is the ring's submitter.
    let sq = unsafe { SubmitSide::new(core::ptr::NonNull::new(cq.id().cast_mut()).unwrap()) };
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
extern "C" fn buf_ring(_: *const io_uring, _: u16, _: *const c_void, _: u32, _: u32) {}

static OBSERVER: Observer = Observer {
    setup_failed,
    ring_created,
    ring_changed,
    ring_exit,
    submitted,
    reaped,
    waiting,
    buf_ring,
    register_failed,
    feature_missing,
    submitting: None,
    timed: true,
};

extern "C" fn quiet_setup_failed(_: CallName, _: u32, _: u32, _: Option<&io_uring_params>, _: i32) {
}
extern "C" fn quiet_ring(_: &io_uring) {}
extern "C" fn quiet_ring_at(_: &io_uring, _: Caller) {}
extern "C" fn quiet_submitted(
    _: SubmitSide<'_>,
    _: Option<CompleteSide<'_>>,
    _: i32,
    _: u32,
    _: u64,
    _: Caller,
) {
}
extern "C" fn quiet_reaped(_: CompleteSide<'_>, _: i32, _: u32, _: u64, _: Caller) {}
extern "C" fn quiet_waiting(_: CompleteSide<'_>, _: u32, _: bool, _: Caller) {}
extern "C" fn quiet_register_failed(_: u32, _: *const c_void, _: u32, _: i32) {}
extern "C" fn quiet_feature_missing(_: CallName, _: u32, _: i32) {}

/// An observer that is told everything and does nothing (for the tests of
/// an observed call's results, without a recording observer installed).
pub static QUIET: Observer = Observer {
    setup_failed: quiet_setup_failed,
    ring_created: quiet_ring,
    ring_changed: quiet_ring_at,
    ring_exit: quiet_ring_at,
    submitted: quiet_submitted,
    reaped: quiet_reaped,
    waiting: quiet_waiting,
    buf_ring,
    register_failed: quiet_register_failed,
    feature_missing: quiet_feature_missing,
    submitting: None,
    timed: true,
};

/// Whether this process is the child started to run a test's body
/// under the observer `mode`.
pub fn is_child(mode: &str) -> bool {
    std::env::var(CHILD).as_deref() == Ok(mode)
}

/// Installs the test observer, in the child, first thing.
pub fn install() {
    // SAFETY: the child runs this one test on one thread (the parent asked
    // for it alone), and nothing has called the library in it yet.
    unsafe { observe::install(&OBSERVER) };
}

/// The start of an observed test: in the parent, runs the test alone in a
/// child (`mode` names it) and returns; in that child, installs the
/// observer and goes on.
#[macro_export]
macro_rules! in_observed_child {
    ($mode:literal) => {
        fn here() {}
        if !$crate::test_observer::is_child($mode) {
            $crate::test_ring::require_uring!();
            $crate::test_observer::run_child(
                $crate::test_ring::test_name(::core::any::type_name_of_val(&here)),
                $mode,
            );
            return;
        }
        $crate::test_observer::install();
    };
}
pub use crate::in_observed_child;

/// Runs `test` alone in a child with `CHILD` set to `mode` and checks that
/// it passed.
pub fn run_child(test: &str, mode: &str) {
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

impl crate::test_ring::TestRing {
    /// The ring as an observed call takes it (reporting to the installed
    /// observer, else to one that does nothing), as the C boundary's
    /// observed path makes it.
    pub fn watched(&mut self) -> crate::ring::LiveRing<'_, crate::observe::Watched> {
        use crate::observe::{watched, Watched};
        let quiet = || Watched::by(&QUIET, core::ptr::null());
        self.live()
            .observed_by(watched(core::ptr::null()).unwrap_or_else(quiet))
    }
}
