// SPDX-License-Identifier: MIT
//! Probing without being misled by `RLIMIT_MEMLOCK`: the kernel charges a
//! ring's memory to the user's locked-memory limit (without
//! `CAP_IPC_LOCK`) and gives it back only once the closed ring's teardown
//! has run, a moment after `close`. Probe rings made back to back can so
//! use up a small limit between them, and a flag's `-ENOMEM` then says
//! nothing about the flag.
//!
//! So a setup refused with `-ENOMEM` under a finite limit is tried again
//! while earlier probe rings are torn down; if it still fails, the verdict
//! is "unknown", never "refused". The largest ring sizes are learnt from
//! the kernel's size checks (they come before any memory is taken), not
//! from a ring of that size.

use std::time::Duration;

use uring_uapi::*;

use crate::syscalls::{close, setup};

/// Whether the soft `RLIMIT_MEMLOCK` is finite (it may then be what an
/// `-ENOMEM` means).
pub fn limited() -> bool {
    uring_sysinfo::rlimit(libc::RLIMIT_MEMLOCK).is_some_and(|(soft, _)| soft != u64::MAX)
}

/// `io_uring_setup(2)` with `p`, tried again on `-ENOMEM` under a finite
/// limit while earlier rings' memory comes back (about 0.6 s at most):
/// the fd and the params the kernel filled, or the last errno.
pub fn setup_settled(entries: u32, p: &io_uring_params) -> Result<(i32, io_uring_params), i32> {
    let mut wait_ms = 5;
    loop {
        let mut q = *p;
        match setup(entries, &mut q) {
            Ok(fd) => return Ok((fd, q)),
            Err(e) if e == libc::ENOMEM && wait_ms <= 320 && limited() => {
                std::thread::sleep(Duration::from_millis(wait_ms));
                wait_ms *= 2;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Whether an `errno` of a probe ring says nothing about what was probed:
/// `-ENOMEM` under a finite memory-lock limit.
pub fn inconclusive(errno: i32) -> bool {
    errno == libc::ENOMEM && limited()
}

/// The largest SQ and CQ sizes, learnt from the kernel's size checks: a
/// size above its maximum is refused with `-EINVAL` before any memory is
/// taken, one within it gets a ring or `-ENOMEM`. The largest power of two
/// not refused so is the maximum (both are powers of two).
pub fn max_entries_by_checks() -> Option<(u32, u32)> {
    let within = |entries: u32, cq: Option<u32>| {
        let mut p = io_uring_params::default();
        if let Some(n) = cq {
            p.flags = IORING_SETUP_CQSIZE;
            p.cq_entries = n;
        }
        match setup(entries, &mut p) {
            Ok(fd) => {
                close(fd);
                true
            }
            Err(e) => e != libc::EINVAL,
        }
    };
    let largest = |ok: &dyn Fn(u32) -> bool| {
        let mut best = None;
        for shift in 0..31 {
            if !ok(1 << shift) {
                break;
            }
            best = Some(1u32 << shift);
        }
        best
    };
    let sq = largest(&|n| within(n, None))?;
    let cq = largest(&|n| within(1, Some(n)))?;
    Some((sq, cq))
}
