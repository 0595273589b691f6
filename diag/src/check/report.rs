// SPDX-License-Identifier: MIT
//! How a finding is written: the library call it was seen in, its head
//! (tag, ring, thread, call and call site), names of opcodes and errors,
//! and the report itself (once per kind and ring; abort in abort mode).

use core::ptr::NonNull;
use core::sync::atomic::Ordering;

use super::state::RingCheck;
use super::threads::{gettid, this_thread_name, thread};
use super::MODE;
use crate::line::Line;
use crate::names::{self, OPCODE};
use crate::output::SavedErrno;
use crate::structs::io_uring;
use crate::sysinfo;
use uring_core::observe::{Caller, CompleteSide};

/// The library call a check runs in, as its findings name it.
#[derive(Clone, Copy)]
pub(super) enum Call {
    Submit,
    SubmitWait,
    Reap,
    Wait,
    Change,
    Exit,
    /// The exit handler of a process leaving with the ring still set up.
    ProcessExit,
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
            Call::ProcessExit => {
                "process exit (exit() or a return from main; the ring was never torn down with io_uring_queue_exit); the ring's last library call was"
            }
        }
    }
}

pub(super) fn opname(l: &mut Line, op: u8) {
    match names::short_name(OPCODE, u64::from(op)) {
        Some(n) => l.s(n),
        None => l.s("opcode ").u(u64::from(op)),
    };
}

pub(super) fn errname(l: &mut Line, res: i32) {
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
pub(super) fn ring_fd_now(c: &RingCheck) -> i32 {
    ring_fd_of(c.ring)
}

/// [`ring_fd_now`] of the ring at `ring`, which a hook of this thread's
/// library call on it keeps live.
fn ring_fd_of(ring: usize) -> i32 {
    let Some(p) = NonNull::new(ring as *mut io_uring) else {
        return -1;
    };
    // SAFETY: findings are made only inside a hook of a library call on the
    // ring this record follows, so it is live, or at process exit from the
    // record's own copy of it (`deferred::at_process_exit`); only its
    // settings are read, which the ring's either side may.
    unsafe { CompleteSide::new(p) }.ring_fd()
}

/// A finding being written: its first line, and the program's `errno`,
/// kept from before the first system call the finding makes until it is
/// reported.
pub(super) struct Finding {
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
pub(super) fn head(c: &RingCheck, tag: &str, call: Call) -> Finding {
    head_at(c.id, c.ring, c.caller, tag, call)
}

/// [`head`] of a finding made without the ring's record (another thread
/// has it checked out): the ring's number, address and the call site.
#[cold]
#[inline(never)]
pub(super) fn head_at(id: u32, ring: usize, caller: usize, tag: &str, call: Call) -> Finding {
    let _errno = SavedErrno::save();
    let mut l = Line::new();
    l.s("uring-check: ").s(tag).s(": ring ").u(u64::from(id));
    l.s(" (fd ").i(i64::from(ring_fd_of(ring))).s("), thread ");
    thread(&mut l, gettid(), &this_thread_name());
    l.s(", in ").s(call.text());
    crate::call_site::append(&mut l, caller as Caller);
    l.s(": ");
    Finding { line: l, _errno }
}

/// Prints a finding (once per kind and ring): the first line built by the
/// caller, then why and the fix; aborts in abort mode.
#[cold]
#[inline(never)]
pub(super) fn report(c: &mut RingCheck, kind: u32, first: Finding, why: &str, fix: &str) {
    c.reported |= kind;
    emit(first, why, fix);
}

/// Prints a finding's three lines; aborts in abort mode. (Once per kind
/// and ring is the caller's to see to.)
#[cold]
#[inline(never)]
pub(super) fn emit(mut first: Finding, why: &str, fix: &str) {
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

pub(super) fn wants(c: &RingCheck, kind: u32) -> bool {
    c.reported & kind == 0
}
