// SPDX-License-Identifier: MIT
//! The program's standard error, as the diagnostics write to it: through a
//! duplicate of fd 2 made at attach, numbered high above the descriptors a
//! program uses (`F_DUPFD_CLOEXEC` from just below the soft
//! `RLIMIT_NOFILE`, at most 1023), and only if fd 2 was open then. So a
//! program that closes its stderr and opens a file that gets number 2
//! never finds diagnostic lines in that file, and a program that starts
//! with fd 2 closed gets its descriptors numbered as without them.
//!
//! Each write checks first that the duplicate is still the file it was
//! made of (a program may close every descriptor, and a later `open` may
//! reuse the number), and is made only when it can neither block nor raise
//! `SIGPIPE` (see [`write_stream`]).
//!
//! Where the soft limit leaves no room above the program's reach (below
//! 128 descriptors), no duplicate is made and fd 2 itself is written, with
//! the same check against the file it was at attach.

use core::cell::UnsafeCell;

use super::{file_identity, FileId};

/// The duplicate (or 2, see the module comment; -1: none) and what it is.
#[derive(Clone, Copy)]
struct Target {
    fd: i32,
    id: FileId,
    /// `fd` is our duplicate, closed at release.
    owned: bool,
}

struct SetAtAttach(UnsafeCell<Target>);

// SAFETY: written only by `attach` and `release`, which run when no hook
// can (the first attach of a process or of a reload, the last detach; see
// lib.rs), and read by hooks only in between.
unsafe impl Sync for SetAtAttach {}

static TARGET: SetAtAttach = SetAtAttach(UnsafeCell::new(Target {
    fd: -1,
    id: FileId::NONE,
    owned: false,
}));

fn target() -> Target {
    // SAFETY: see `SetAtAttach`.
    unsafe { *TARGET.0.get() }
}

/// The highest descriptor number a duplicate is made at or below.
const HIGHEST: i32 = 1023;
/// Below this soft limit fd 2 is written itself.
const LOWEST_LIMIT: u64 = 128;

/// Makes the duplicate, if fd 2 is open (first attach only).
pub fn attach() {
    let Some(id) = file_identity(2) else {
        return;
    };
    let mut t = Target {
        fd: 2,
        id,
        owned: false,
    };
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills one struct.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0;
    #[allow(clippy::useless_conversion)] // u32 on some 32-bit targets
    let soft = if got { u64::from(lim.rlim_cur) } else { 0 };
    if soft >= LOWEST_LIMIT {
        let floor = (soft - 1).min(HIGHEST as u64) as i32;
        // The lowest free number at or above `floor`, then lower floors
        // while the ones above are all taken.
        for back in [0, 8, 64] {
            // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor of fd 2's file
            // (checked open above); the result is checked.
            let fd = unsafe { libc::fcntl(2, libc::F_DUPFD_CLOEXEC, floor - back) };
            if fd >= 0 {
                t = Target {
                    fd,
                    id,
                    owned: true,
                };
                break;
            }
        }
    }
    // SAFETY: see `SetAtAttach`.
    unsafe { *TARGET.0.get() = t };
}

/// Closes the duplicate (last detach). `exiting`: the process is exiting,
/// where other threads may still write: left to the kernel.
pub fn release(exiting: bool) {
    let t = target();
    if exiting {
        return;
    }
    if t.owned {
        // SAFETY: our own duplicate, made at attach.
        unsafe { libc::close(t.fd) };
    }
    // SAFETY: see `SetAtAttach`.
    unsafe {
        *TARGET.0.get() = Target {
            fd: -1,
            id: FileId::NONE,
            owned: false,
        }
    };
}

/// Whether there is a standard error to write to.
pub fn open() -> bool {
    target().fd >= 0
}

/// Writes `bytes` to the program's standard error, if it is still the file
/// it was at attach (the caller keeps `errno`).
pub fn write(bytes: &[u8]) {
    let t = target();
    if t.fd < 0 {
        return;
    }
    super::without_cancellation(|| {
        if file_identity(t.fd) == Some(t.id) {
            write_stream(t.fd, bytes);
        }
    });
}

/// A write to a stream that can neither block nor raise SIGPIPE.
fn write_stream(fd: i32, bytes: &[u8]) {
    // Lines are at most a few KiB: when POLLOUT is reported a pipe has a
    // free page, so the write does not block.
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no wait.
    let ready = unsafe { libc::poll(&mut p, 1, 0) } == 1
        && p.revents & libc::POLLOUT != 0
        && p.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) == 0;
    if !ready {
        return;
    }
    // The reader may still go between poll and write: SIGPIPE is blocked
    // for the write, and one it raised (not one already pending) is taken.
    super::with_signal_blocked(libc::SIGPIPE, || super::write_all(fd, bytes));
}
