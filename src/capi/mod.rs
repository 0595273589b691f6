// SPDX-License-Identifier: MIT
//! The C boundary: the only `#[no_mangle] extern "C"` functions.
//!
//! Each entry point turns its pointers into what the core takes, once, here:
//! a ring the caller keeps using becomes a [`LiveRing`](crate::ring::LiveRing) through
//! [`live_ring!`] (the single place the C caller's promise about `ring` is
//! taken; a null ring returns the entry's error value), out-parameters that
//! may be uninitialised are only written, and results become `-errno`.

/// `ring` as a [`crate::ring::LiveRing`], or `return $fail` (default
/// `-EINVAL`) from the entry point when it is null.
macro_rules! live_ring {
    ($ring:expr, $fail:expr) => {
        // SAFETY: every entry point's C contract: `ring` is null or a ring
        // set up by this library, used only as liburing allows.
        match unsafe { $crate::ring::LiveRing::from_ptr($ring) } {
            Some(r) => r,
            None => return $fail,
        }
    };
    ($ring:expr) => {
        live_ring!($ring, -libc::EINVAL)
    };
}

mod buf_ring;
mod queue;
mod register;
// Generated from tools/gen/src/register_calls/table.rs (`make headers`);
// rustfmt leaves it as the generator writes it.
#[rustfmt::skip]
mod register_pass_through;
mod setup;

use core::ffi::c_int;

use crate::syscall::SysResult;

// The one place where core results become liburing's return convention:
// the value on success, `-errno` on failure.

/// An `int` result.
#[inline]
pub(crate) fn ret_int(r: SysResult<i32>) -> c_int {
    match r {
        Ok(v) => v,
        Err(e) => e.neg(),
    }
}

/// A count of SQEs or CQEs (at most the ring size, so it fits an `int`).
#[inline(always)]
pub(crate) fn ret_count(r: SysResult<u32>) -> c_int {
    ret_int(r.map(|n| n as i32))
}

/// A byte count that fits an `int` by construction (ring memory is at most
/// a few MiB).
#[inline]
pub(crate) fn ret_bytes(r: SysResult<usize>) -> c_int {
    ret_int(r.map(|n| n as i32))
}

/// An `ssize_t` size.
#[inline]
pub(crate) fn ret_size(r: SysResult<usize>) -> libc::ssize_t {
    match r {
        Ok(n) => n as libc::ssize_t,
        Err(e) => e.neg() as libc::ssize_t,
    }
}
