// SPDX-License-Identifier: MIT
//! The table between the library and the diagnostics object: what an
//! observer is told, how it attaches and detaches, and the digest both
//! sides compare before one trusts the other's table.
//!
//! The two are linked separately (the object is loaded on demand), so the
//! table has the C layout and the C calling convention.

use core::ffi::c_void;

use super::views::{CompleteSide, SubmitSide};
use crate::structs::io_uring;
use crate::uapi::io_uring_params;

/// A library function's name, as an observer is told it: `&str` across
/// the C ABI between the library and the diagnostics object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CallName {
    ptr: *const u8,
    len: usize,
}

impl CallName {
    pub const fn new(name: &'static str) -> Self {
        CallName {
            ptr: name.as_ptr(),
            len: name.len(),
        }
    }
    pub fn as_str(self) -> &'static str {
        // SAFETY: made only by `new` from a `&'static str`.
        unsafe { core::str::from_utf8_unchecked(core::slice::from_raw_parts(self.ptr, self.len)) }
    }
}

/// Where the program called the library: the return address of its call
/// into the entry point, recorded by the C boundary on the observed path
/// (`src/capi/detour.c`), or null where the boundary does not record it.
/// An observer only names it (`dladdr`); it never reads memory there.
pub type Caller = *const c_void;

/// What an observer is told. Every function runs on the calling thread,
/// inside the library call it reports; `caller` is that call's [`Caller`].
#[repr(C)]
pub struct Observer {
    /// A setup entry point failed with `errno` (`p`: the caller's params).
    pub setup_failed: extern "C" fn(
        call: CallName,
        entries: u32,
        flags: u32,
        p: Option<&io_uring_params>,
        errno: i32,
    ),
    /// A ring was set up (the caller owns it exclusively meanwhile).
    pub ring_created: extern "C" fn(ring: &io_uring),
    /// Resize or ring-fd (un)registration changed the ring's layout or fd.
    pub ring_changed: extern "C" fn(ring: &io_uring, caller: Caller),
    /// `io_uring_queue_exit` is about to tear the ring down.
    pub ring_exit: extern "C" fn(ring: &io_uring, caller: Caller),
    /// A submit call is done: `result` in liburing's encoding, `enters` the
    /// `io_uring_enter` calls it made; `cq` when the call also reaped.
    /// `entered_ns`: when it first entered the kernel (CLOCK_MONOTONIC), for
    /// an observer that asked for it ([`Observer::timed`]); else 0.
    pub submitted: extern "C" fn(
        sq: SubmitSide<'_>,
        cq: Option<CompleteSide<'_>>,
        result: i32,
        enters: u32,
        entered_ns: u64,
        caller: Caller,
    ),
    /// A wait or peek call that did not submit is done (`entered_ns` as
    /// for `submitted`).
    pub reaped: extern "C" fn(
        cq: CompleteSide<'_>,
        result: i32,
        enters: u32,
        entered_ns: u64,
        caller: Caller,
    ),
    /// A call that submits nothing is about to sleep in the kernel for
    /// `wait_nr` CQEs (`timed`: with a timeout). The waiting thread may
    /// not be the ring's submitter, so it gets the CQ side only: the SQ's
    /// private words are the submitter's (see [`SubmitSide::new`]).
    pub waiting: extern "C" fn(cq: CompleteSide<'_>, wait_nr: u32, timed: bool, caller: Caller),
    /// A provided-buffer ring was registered for group `bgid` on the ring
    /// at `ring` (`br`: its memory as the program reaches it, null when
    /// the library does not know it; `flags`: its `IOU_PBUF_RING_*`), or
    /// unregistered (`entries` 0).
    pub buf_ring: extern "C" fn(
        ring: *const io_uring,
        bgid: u16,
        br: *const c_void,
        entries: u32,
        flags: u32,
    ),
    /// `io_uring_register` failed with `errno`.
    pub register_failed: extern "C" fn(opcode: u32, arg: *const c_void, nr_args: u32, errno: i32),
    /// The library refused `call` itself with `errno`, without asking the
    /// kernel, because the ring lacks `feature` (an `IORING_FEAT_*` bit).
    pub feature_missing: extern "C" fn(call: CallName, feature: u32, errno: i32),
    /// A submit call is about to hand the SQEs from the kernel's SQ head
    /// to the SQ's private tail to the kernel (only `io_uring_submit`,
    /// `io_uring_submit_and_wait` and `io_uring_submit_and_get_events`, the
    /// calls liburing's sanitizer build checks in), before the clock is
    /// read: told only to an observer that is also [`Observer::timed`], so
    /// that the untimed path (`LIBURING_CHECK`'s) pays nothing for it.
    /// `None`: the observer does not look at them first.
    pub submitting: Option<extern "C" fn(sq: SubmitSide<'_>, caller: Caller)>,
    /// The observer wants the time of each call's first enter (a trace
    /// that draws enters as slices): the observed paths read the clock.
    pub timed: bool,
}

/// What the diagnostics object answers when a library attaches it.
#[repr(C)]
pub struct Attachment {
    /// [`ATTACHED`], [`NOTHING_ASKED`] or [`OTHER_INTERFACE`].
    pub status: u32,
    /// The observer, when attached.
    pub observer: Option<&'static Observer>,
}

/// [`Attachment::status`]: install `observer`.
pub const ATTACHED: u32 = 0;
/// [`Attachment::status`]: the variables ask for nothing (`0` or empty).
pub const NOTHING_ASKED: u32 = 1;
/// [`Attachment::status`]: the object was built against another interface.
pub const OTHER_INTERFACE: u32 = 2;

/// The name under which the diagnostics object exports its attach
/// function, `extern "C" fn(interface: u64, library: *const c_void) ->
/// Attachment` (`library`: an address in the attaching library's code,
/// null for a static program). Each library
/// (shared or static) that attaches calls it once and [`DETACH_SYMBOL`]
/// once when it is unloaded; the object keeps one attachment for all of
/// them, released when the last one detaches.
pub const ATTACH_SYMBOL: &core::ffi::CStr = c"uring_diag_attach";

/// The diagnostics object's `extern "C" fn() -> bool` that undoes one
/// attach; true when the process is exiting (the observer must then stay
/// installed: other threads may still be in the library).
pub const DETACH_SYMBOL: &core::ffi::CStr = c"uring_diag_detach";

/// A digest of everything the library and the diagnostics object must
/// agree on: this table, the ring views, the ring fields they read through
/// (`core/src/ring_fields.rs`) and the layout of liburing's structs. An object built from other sources than the library that loads
/// it has another digest and is refused.
pub const INTERFACE: u64 = {
    let mut h = fnv1a(0xcbf2_9ce4_8422_2325, include_bytes!("interface.rs"));
    h = fnv1a(h, include_bytes!("views.rs"));
    h = fnv1a(h, include_bytes!("../ring_fields.rs"));
    h = fnv1a(h, include_bytes!("../../../uapi/src/ring_types.rs"));
    fnv1a(h, env!("CARGO_PKG_VERSION").as_bytes())
};

/// 64-bit FNV-1a over `bytes`, from `h` (usable in a const).
const fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}
