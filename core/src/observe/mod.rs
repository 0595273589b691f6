// SPDX-License-Identifier: MIT
//! Observation: the one place that decides whether a library call is
//! observed, and how the core then tells an observer what the call did.
//!
//! An observer (the `uring-diag` object, loaded when `LIBURING_DEBUG`,
//! `LIBURING_TRACE` or `LIBURING_CHECK` is set) [`install`]s itself at
//! load; nothing in the core knows it, and the table between the two is
//! [`interface::Observer`].
//!
//! # The decision, once per call, at the C boundary
//! Each C entry point that can report asks [`detour`] about its ring
//! pointer: one compare with a bound set at install, which also catches a
//! null ring. On the fast path the ring reaches the core as a
//! `LiveRing<Unwatched>`; off it, as a `LiveRing<Watched>` carrying the
//! observer and the program's call site. The core is written once, generic
//! over [`Watch`]: every report is `if let Some(w) = ring.watch().watched()`,
//! which the unwatched copy folds away, so a program that asks for no
//! diagnostics pays one compare per call and nothing else. Nothing below
//! the boundary tests a global.
//!
//! # When the state changes
//! [`install`] runs in a load-time constructor and [`uninstall`] when the
//! library is unloaded (never at exit, where other threads may still call
//! it): no library call runs alongside either, so the two words are read
//! plainly, the bound in the one compare of every entry point.

use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::ptr::NonNull;

use crate::structs::io_uring;
use crate::syscall::{Errno, SysResult};
use crate::uapi::io_uring_params;

pub mod interface;
pub mod views;

pub use interface::{
    Attachment, CallName, Caller, Observer, ATTACHED, ATTACH_SYMBOL, DETACH_SYMBOL, INTERFACE,
    NOTHING_ASKED, OTHER_INTERFACE,
};
pub use views::{both_sides, CompleteSide, CqeArray, SqeArray, SubmitSide};

/// A value written only when no library call can run (see the module
/// comment), read plainly otherwise.
struct SetWhileIdle<T>(UnsafeCell<T>);

// SAFETY: the writes happen only in `install` and `uninstall`, whose
// callers promise no library call runs alongside them.
unsafe impl<T: Sync> Sync for SetWhileIdle<T> {}

static OBSERVER: SetWhileIdle<Option<&'static Observer>> = SetWhileIdle(UnsafeCell::new(None));

/// The lowest ring address a C entry point takes straight: 1 when nobody
/// observes (only a null ring leaves the fast path, for its `-EINVAL`),
/// `usize::MAX` while an observer is installed (every call leaves it).
static FAST_FROM: SetWhileIdle<usize> = SetWhileIdle(UnsafeCell::new(1));

/// Installs the observer: from now on every call that can report is
/// observed.
///
/// # Safety
/// Called from a load-time constructor (of the library, or of a static
/// program that links the diagnostics archive), before any ring exists and
/// while no other thread can call the library.
pub unsafe fn install(observer: &'static Observer) {
    // SAFETY: per the caller, nothing reads these meanwhile.
    unsafe {
        *OBSERVER.0.get() = Some(observer);
        // Opaque to the optimiser: told the two values, it would turn the
        // address compare into a flag test of more instructions.
        *FAST_FROM.0.get() = core::hint::black_box(usize::MAX);
    }
}

/// Removes the observer: calls take their fast path again.
///
/// # Safety
/// Called when the library is being unloaded: no call of it runs, and
/// none will.
pub unsafe fn uninstall() {
    // SAFETY: per the caller, nothing reads these meanwhile.
    unsafe {
        *FAST_FROM.0.get() = core::hint::black_box(1);
        *OBSERVER.0.get() = None;
    }
}

fn observer() -> Option<&'static Observer> {
    if cfg!(feature = "unobserved") {
        return None;
    }
    // SAFETY: see `SetWhileIdle`.
    unsafe { *OBSERVER.0.get() }
}

/// The bound [`detour`] compares with: [`FAST_FROM`], or its idle value 1
/// in the build that is never observed (feature `unobserved`: liburing.a's
/// code, see core/Cargo.toml), where the compare is then the null test
/// and every observed copy is dead code the link drops.
#[inline(always)]
fn fast_from() -> usize {
    if cfg!(feature = "unobserved") {
        return 1;
    }
    // SAFETY: see `SetWhileIdle`.
    unsafe { *FAST_FROM.0.get() }
}

/// Whether an observer is installed.
#[inline]
pub fn installed() -> bool {
    observer().is_some()
}

/// Whether a C entry point must leave its fast path for `ring`: it is
/// null, or an observer is installed. When false, `ring` is not null.
#[inline(always)]
pub fn detour<T>(ring: *const T) -> bool {
    (ring as usize) < fast_from()
}

/// The observation of a call that is not hot (setup, teardown, ring
/// changes), or `None` when no observer is installed. `caller`: the
/// program's call site, when the entry point recorded it.
#[inline]
pub fn watched(caller: Caller) -> Option<Watched> {
    observer().map(|observer| Watched { observer, caller })
}

/// The observation of a call on its observed path.
///
/// # Safety
/// The call took [`detour`] for a ring that is not null: an observer is
/// installed (the bound is raised only by [`install`], which stores it
/// first, and lowered only by [`uninstall`], when no call runs).
#[inline(always)]
pub unsafe fn observed_call(caller: Caller) -> Watched {
    // SAFETY: per the caller, an observer is installed.
    let observer = unsafe { observer().unwrap_unchecked() };
    Watched { observer, caller }
}

// ---------------------------------------------------------------------------
// Watch: observed or not, as a type
// ---------------------------------------------------------------------------

/// Whether a call is observed, decided at the C boundary and carried by
/// the ring handle ([`crate::ring::LiveRing`]): [`Unwatched`] (nothing to
/// report, folded away) or [`Watched`].
pub trait Watch: Copy {
    /// The observation, or `None` (always, for [`Unwatched`]).
    fn watched(self) -> Option<Watched>;
}

/// A call nobody observes: a zero-sized type, so reports cost nothing.
#[derive(Clone, Copy, Default, Debug)]
pub struct Unwatched;

impl Watch for Unwatched {
    #[inline(always)]
    fn watched(self) -> Option<Watched> {
        None
    }
}

/// An observed call: the observer to tell, and the program's call site.
#[derive(Clone, Copy)]
pub struct Watched {
    observer: &'static Observer,
    caller: Caller,
}

impl Watch for Watched {
    #[inline(always)]
    fn watched(self) -> Option<Watched> {
        Some(self)
    }
}

impl Watched {
    /// An observation by `observer` of a call from `caller` (the tests'
    /// own observers; the library's calls get theirs from [`watched`] and
    /// [`observed_call`]).
    pub fn by(observer: &'static Observer, caller: Caller) -> Watched {
        Watched { observer, caller }
    }

    /// The program's call site ([`Caller`]).
    #[inline]
    pub fn caller(self) -> Caller {
        self.caller
    }

    /// CLOCK_MONOTONIC in ns when the observer wants call times
    /// ([`Observer::timed`]), else 0. Read just before a first enter.
    #[inline]
    pub fn clock(self) -> u64 {
        if self.observer.timed {
            clock_ns()
        } else {
            0
        }
    }

    /// After a setup entry point failed with `e`.
    #[cold]
    #[inline(never)]
    pub fn setup_failed(
        self,
        call: &'static str,
        entries: u32,
        flags: u32,
        p: Option<&io_uring_params>,
        e: Errno,
    ) {
        (self.observer.setup_failed)(CallName::new(call), entries, flags, p, e.get());
    }

    /// After a ring was set up.
    #[cold]
    #[inline(never)]
    pub fn ring_created(self, ring: &io_uring) {
        (self.observer.ring_created)(ring);
    }

    /// After a resize or a ring-fd (un)registration.
    #[cold]
    #[inline(never)]
    pub fn ring_changed(self, ring: &io_uring) {
        (self.observer.ring_changed)(ring, self.caller);
    }

    /// Before a ring is torn down.
    #[cold]
    #[inline(never)]
    pub fn ring_exit(self, ring: &io_uring) {
        (self.observer.ring_exit)(ring, self.caller);
    }

    /// Whether the observer wants call times ([`Observer::timed`]).
    #[inline]
    pub fn timed(self) -> bool {
        self.observer.timed
    }

    /// A submit call is done with `result`. `reaped`: the call also waited
    /// for or reaped CQEs.
    ///
    /// # Safety
    /// `ring` is the live ring of the submit call this thread is in.
    #[inline(always)]
    pub unsafe fn submitted(
        self,
        ring: NonNull<io_uring>,
        reaped: bool,
        result: SysResult<u32>,
        enters: u32,
        entered_ns: u64,
    ) {
        // SAFETY: per the caller: this thread is the ring's submitter now,
        // and a call that waits is its reaper too.
        let (sq, cq) = unsafe {
            (
                SubmitSide::new(ring),
                reaped.then(|| CompleteSide::new(ring)),
            )
        };
        (self.observer.submitted)(sq, cq, table_code(result), enters, entered_ns, self.caller);
    }

    /// A submit call is about to enter the kernel with its SQEs, for an
    /// observer that looks at them first ([`Observer::submitting`]).
    ///
    /// # Safety
    /// `ring` is the live ring of the submit call this thread is in.
    #[inline(always)]
    pub unsafe fn submitting(self, ring: NonNull<io_uring>) {
        if let Some(f) = self.observer.submitting {
            // SAFETY: per the caller: this thread is the ring's submitter.
            f(unsafe { SubmitSide::new(ring) }, self.caller);
        }
    }

    /// A wait or peek call that did not submit is done with `result`.
    ///
    /// # Safety
    /// `ring` is the live ring of the wait call this thread is in.
    #[inline(always)]
    pub unsafe fn reaped(
        self,
        ring: NonNull<io_uring>,
        result: SysResult<u32>,
        enters: u32,
        entered_ns: u64,
    ) {
        // SAFETY: per the caller.
        let cq = unsafe { CompleteSide::new(ring) };
        (self.observer.reaped)(cq, table_code(result), enters, entered_ns, self.caller);
    }

    /// A wait that submits nothing is about to enter the kernel to sleep.
    ///
    /// # Safety
    /// `ring` is the live ring of the wait call this thread is in.
    #[cold]
    #[inline(never)]
    pub unsafe fn waiting(self, ring: NonNull<io_uring>, wait_nr: u32, timed: bool) {
        // SAFETY: per the caller.
        let cq = unsafe { CompleteSide::new(ring) };
        (self.observer.waiting)(cq, wait_nr, timed, self.caller);
    }

    /// The library refuses `call` with `e` because the ring lacks `feature`.
    #[cold]
    #[inline(never)]
    pub fn feature_missing(self, call: &'static str, feature: u32, e: Errno) {
        (self.observer.feature_missing)(CallName::new(call), feature, e.get());
    }

    /// A provided-buffer ring was registered, or unregistered
    /// (`entries` 0), see [`Observer::buf_ring`].
    #[cold]
    #[inline(never)]
    pub fn buf_ring(
        self,
        ring: *const io_uring,
        bgid: u16,
        br: *const c_void,
        entries: u32,
        flags: u32,
    ) {
        (self.observer.buf_ring)(ring, bgid, br, entries, flags);
    }

    /// `io_uring_register` failed with `e`.
    #[cold]
    #[inline(never)]
    pub fn register_failed(self, opcode: u32, arg: *const c_void, nr_args: u32, e: Errno) {
        (self.observer.register_failed)(opcode, arg, nr_args, e.get());
    }
}

/// CLOCK_MONOTONIC in ns.
#[cold]
#[inline(never)]
fn clock_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-parameter; CLOCK_MONOTONIC is served by the vDSO.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// A call's result as the observer's table carries it: liburing's return
/// value (the count, or `-errno`), since the table is a C-layout interface
/// between two objects (`interface.rs`).
#[inline]
fn table_code(r: SysResult<u32>) -> i32 {
    match r {
        Ok(n) => n as i32,
        Err(e) => e.neg(),
    }
}
