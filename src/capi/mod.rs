// SPDX-License-Identifier: MIT
//! The C boundary: the only `#[no_mangle] extern "C"` functions.
//!
//! Each entry point turns its pointers into what the core takes, once, here:
//! a `struct io_uring *` through `ring_arg!` (`src/capi/ring_arg.rs`), in the mode the
//! call's contract allows (a [`LiveRing`](crate::ring::LiveRing) for a ring
//! other threads may use meanwhile, `&mut io_uring` for a call that rewrites
//! it, `&mut MaybeUninit<io_uring>` for setup; a null ring returns the
//! entry's error value), out-parameters that may be uninitialised are only
//! written, and results become `-errno`.
//!
//! An entry point that can report to an observer (`LIBURING_DEBUG`,
//! `LIBURING_TRACE`, `LIBURING_CHECK`) is written with `observed!`: the
//! decision is made there and nowhere else (see `crate::observe`).

// The one conversion of a ring pointer, `ring_arg!` (before the macros that
// use it).
#[macro_use]
mod ring_arg;

/// The body of an entry point that may be observed, written once for its
/// fast path and its observed one:
///
/// ```text
/// observed!(caller, io_uring_submit(ring) -> c_int {
///     ret_count(queue::submit(ring))
/// })
/// ```
///
/// `ring` is the C caller's ring pointer, and a `LiveRing<W>` in the body;
/// the entry point's other parameters follow with their types. One compare
/// ([`crate::observe::detour`]) sends a null ring to `$fail` (default
/// `-EINVAL`, else `, else { $fail }` after the return type) and, while an observer is
/// installed, every call to the body's observed copy (out of line, cold),
/// reached by a tail call: with `caller` through the entry point's function
/// in `detour.c`, which passes on the program's return address (the call
/// site a finding names); with `no_caller` directly.
macro_rules! observed {
    ($site:ident, $name:ident($ring:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty $body:block) => {
        observed!($site, $name($ring $(, $arg: $ty)*) -> $ret, else { $crate::capi::NULL_ARGUMENT } $body)
    };
    ($site:ident, $name:ident($ring:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty, else $fail:block $body:block) => {{
        #[inline(always)]
        #[allow(unused_unsafe)]
        fn body<W: $crate::observe::Watch>(
            $ring: $crate::ring::LiveRing<'_, W> $(, $arg: $ty)*
        ) -> $ret $body

        /// The observed copy; `caller`: the program's call site, or null.
        ///
        /// # Safety
        /// The entry point's own contract, for its arguments, and `ring`
        /// is not null (the entry point checked).
        #[cold]
        #[inline(never)]
        unsafe fn observed(
            $ring: *mut $crate::structs::io_uring $(, $arg: $ty)*,
            caller: $crate::observe::Caller,
        ) -> $ret {
            // Not null, per the caller.
            let r = ring_arg!(live_not_null $ring, else return $fail);
            // SAFETY: the call took the detour for a ring that is not null.
            let w = unsafe { $crate::observe::observed_call(caller) };
            body(r.observed_by(w) $(, $arg)*)
        }
        observed!(@export $site, $name, observed, $ring $(, $arg: $ty)* => $ret);

        if $crate::observe::detour($ring) {
            if $ring.is_null() {
                return $fail;
            }
            return observed!(@detour $site, $name, $ring $(, $arg: $ty)* => $ret);
        }
        // Not null: `detour` is false.
        body(ring_arg!(live_not_null $ring, else return $fail) $(, $arg)*)
    }};
    (@detour caller, $name:ident, $ring:ident $(, $arg:ident: $ty:ty)* => $ret:ty) => {{
        // Built without the shims (no C compiler for the target, see
        // build_detour.rs): the observed call names no call site.
        #[cfg(uring_no_detour)]
        // SAFETY: the entry point's arguments, unchanged.
        let r = unsafe { exported($ring $(, $arg)*, core::ptr::null()) };
        #[cfg(not(uring_no_detour))]
        let r = {
            // Linked statically into the library (build_detour.rs).
            #[link(name = "uring_rs_detour", kind = "static")]
            extern "C" {
                /// `detour.c`: calls `observed` with its own return address,
                /// which is the program's call site (it is reached by a tail
                /// call from the entry point).
                #[link_name = concat!("__uring_rs_detour_", stringify!($name))]
                fn detour($ring: *mut $crate::structs::io_uring $(, $arg: $ty)*) -> $ret;
            }
            // SAFETY: passes the entry point's arguments on unchanged.
            unsafe { detour($ring $(, $arg)*) }
        };
        r
    }};
    (@detour no_caller, $name:ident, $ring:ident $(, $arg:ident: $ty:ty)* => $ret:ty) => {
        // SAFETY: the entry point's arguments, unchanged.
        unsafe { observed($ring $(, $arg)*, core::ptr::null()) }
    };
    // The name `detour.c` calls `$inner` by (only with `caller`: Rust code
    // calls `$inner` itself, directly).
    (@export caller, $name:ident, $inner:ident, $ring:ident $(, $arg:ident: $ty:ty)* => $ret:ty) => {
        /// `$inner` under the name `detour.c` calls.
        ///
        /// # Safety
        /// As for `$inner`.
        #[export_name = concat!("__uring_rs_observed_", stringify!($name))]
        unsafe extern "C" fn exported(
            $ring: *mut $crate::structs::io_uring $(, $arg: $ty)*,
            caller: $crate::observe::Caller,
        ) -> $ret {
            // SAFETY: per the caller.
            unsafe { $inner($ring $(, $arg)*, caller) }
        }
    };
    (@export no_caller, $name:ident, $inner:ident, $ring:ident $(, $arg:ident: $ty:ty)* => $ret:ty) => {};
}

/// The detour of `observed!` for an entry point without a fast copy (one
/// that owns the ring for the call, none of them hot: teardown, resize,
/// ring-fd changes). `$body` sees the entry point's parameters and
/// `$caller`, the program's call site while an observer is installed
/// (reached through `detour.c`) and null otherwise; it asks
/// `crate::observe::watched` itself and handles a null ring.
macro_rules! with_call_site {
    ($name:ident($ring:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty, |$caller:ident| $body:block) => {{
        /// The entry point's body, called from `caller` (or null).
        ///
        /// # Safety
        /// The entry point's own contract, for its arguments.
        unsafe fn from(
            $ring: *mut $crate::structs::io_uring $(, $arg: $ty)*,
            $caller: $crate::observe::Caller,
        ) -> $ret $body
        observed!(@export caller, $name, from, $ring $(, $arg: $ty)* => $ret);

        if $crate::observe::detour($ring) && !$ring.is_null() {
            return observed!(@detour caller, $name, $ring $(, $arg: $ty)* => $ret);
        }
        // SAFETY: the entry point's arguments, unchanged.
        unsafe { from($ring $(, $arg)*, core::ptr::null()) }
    }};
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

use crate::syscall::{Errno, SysResult};

// The one place where core results become liburing's return convention:
// the value on success, `-errno` on failure.

/// An error as a C entry point returns it: `-errno`.
#[inline(always)]
pub(crate) const fn ret_err(e: Errno) -> c_int {
    e.neg()
}

/// What an entry point returns for a null pointer it cannot do without.
pub(crate) const NULL_ARGUMENT: c_int = ret_err(Errno::EINVAL);

/// An `int` result.
#[inline]
pub(crate) fn ret_int(r: SysResult<i32>) -> c_int {
    match r {
        Ok(v) => v,
        Err(e) => ret_err(e),
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
        Err(e) => ret_err(e) as libc::ssize_t,
    }
}
