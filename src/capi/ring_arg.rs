// SPDX-License-Identifier: MIT
//! The one conversion of a C caller's `struct io_uring *` into what the
//! core takes: every entry point that is given a ring goes through
//! `ring_arg!`, naming the mode its C contract allows.
//!
//! | mode | gives | for |
//! |---|---|---|
//! | [`live`] | [`LiveRing`] | a ring the caller keeps using, that other threads may use alongside (submit, wait, register, ...) |
//! | [`live_not_null`] | [`LiveRing`] | the same, past a null test the entry point already made (`observed!`'s one compare, which also catches null): no second test |
//! | [`exclusive`] | `&mut io_uring` | a call that rewrites the ring struct, which liburing's contract runs with no other call on the ring: teardown, resize, ring-fd changes, `set_iowait` |
//! | [`uninit`] | `&mut MaybeUninit<io_uring>` | the memory a setup call writes a new ring into: only written (`MaybeUninit::write` then gives the new ring to report) |
//!
//! Each mode is the place its promise about `ring` is taken; a null `ring`
//! (where the mode can see one) makes the entry point return its error
//! value instead.

use core::mem::MaybeUninit;

use crate::ring::LiveRing;
use crate::structs::io_uring;

/// `ring` as the `$mode` of this module says; when it is null, `$null`
/// (`return` and the entry point's error value, by default `return`
/// [`NULL_ARGUMENT`](crate::capi::NULL_ARGUMENT), `-EINVAL`).
macro_rules! ring_arg {
    ($mode:ident $ring:expr) => {
        ring_arg!($mode $ring, else return $crate::capi::NULL_ARGUMENT)
    };
    ($mode:ident $ring:expr, else $null:expr) => {
        // SAFETY: the entry point's C contract for `ring`, which is what
        // the mode's own `# Safety` asks (src/capi/ring_arg.rs): each entry
        // point names the mode its contract gives.
        match unsafe { $crate::capi::ring_arg::$mode($ring) } {
            Some(r) => r,
            None => $null,
        }
    };
}

/// A ring other threads may use alongside this call; `None` if null.
///
/// # Safety
/// `ring` is null or a ring set up by this library (and not torn down)
/// for `'a`, used meanwhile only as liburing allows: the promise of
/// [`LiveRing::from_ptr`].
#[inline(always)]
pub(crate) unsafe fn live<'a>(ring: *mut io_uring) -> Option<LiveRing<'a>> {
    // SAFETY: per the caller.
    unsafe { LiveRing::from_ptr(ring) }
}

/// [`live`] for a pointer known not to be null, which is never `None`.
/// The entry point's own compare found it not null: testing again would
/// cost every `observed!` entry point two instructions per call (a test and
/// a branch after the compare; seen in io_uring_submit, __io_uring_get_cqe
/// and io_uring_register_eventfd built with [`live`] there), since the
/// compiler cannot see that `observe::detour` returning false implies not
/// null.
///
/// # Safety
/// As for [`live`], and `ring` is not null.
#[inline(always)]
pub(crate) unsafe fn live_not_null<'a>(ring: *mut io_uring) -> Option<LiveRing<'a>> {
    // SAFETY: per the caller, not null, and valid as `live` asks.
    Some(unsafe { live(ring).unwrap_unchecked() })
}

/// A ring this call alone uses: liburing runs the calls that rewrite the
/// struct (teardown, resize, ring-fd changes, `set_iowait`) with no other
/// call on the ring, and a ring being set up is not yet anyone else's.
///
/// # Safety
/// `ring` is null or a valid, initialised `struct io_uring` that nothing
/// else reads or writes for `'a`.
#[inline(always)]
pub(crate) unsafe fn exclusive<'a>(ring: *mut io_uring) -> Option<&'a mut io_uring> {
    // SAFETY: per the caller.
    unsafe { ring.as_mut() }
}

/// The memory a setup call writes a ring into, usually uninitialised:
/// only written (`MaybeUninit` claims nothing about what it holds).
///
/// # Safety
/// `ring` is null or valid for writing a `struct io_uring`, which nothing
/// else uses for `'a`.
#[inline(always)]
pub(crate) unsafe fn uninit<'a>(ring: *mut io_uring) -> Option<&'a mut MaybeUninit<io_uring>> {
    // SAFETY: per the caller; `MaybeUninit<T>` has `T`'s layout.
    unsafe { ring.cast::<MaybeUninit<io_uring>>().as_mut() }
}
