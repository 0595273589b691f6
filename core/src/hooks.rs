// SPDX-License-Identifier: MIT
//! The points where the core tells an observer what happened.
//!
//! The core (setup, queue, registration, syscalls) calls only this module;
//! an observer (the `uring-diag` object, loaded when `LIBURING_DEBUG` or
//! `LIBURING_TRACE` is set) installs itself here once at load. So nothing
//! in the core knows the diagnostics, and the hooks are ordinary portable
//! Rust with a C-layout table ([`Observer`]) between the two objects.
//!
//! # Cost when nobody watches
//! Failures (setup, registration) reach the observer from their error
//! path only, and teardown tests after the fact: nothing on a success
//! path. The submit entry points fold the hook test into their null-ring
//! check: one compare of the ring address with a bound set at load
//! ([`detour`]); off the fast path, a cold out-of-line copy of the same
//! call reports to the observer. The out-of-line waits test
//! [`watching_rings`] once before their loop and run either a fast copy
//! of it or a cold one that counts enters and reports.
//!
//! # Who may see what
//! The observer sees a ring through views that carry liburing's threading
//! rule: [`SubmitSide`] is made only by calls that submit (the SQ-private
//! counters and SQE slots belong to the submitting thread), [`CompleteSide`]
//! only by calls that wait or reap, and `&io_uring` only where the caller
//! owns the whole ring (setup, resize, ring-fd changes, teardown). No view
//! caches a pointer: every read goes through the live `struct io_uring`.

use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::marker::PhantomData;
use core::ptr::{addr_of, NonNull};
use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

use crate::structs::io_uring;
use crate::syscall::Errno;
use crate::uapi::{io_uring_cqe, io_uring_params, io_uring_sqe};

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

/// What an observer is told. Every function runs on the calling thread,
/// inside the library call it reports. The table crosses from the
/// diagnostics object to the library (two separately linked objects), so
/// it has the C layout and C calling convention, and both sides check
/// [`INTERFACE`] before one trusts the other's table.
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
    pub ring_changed: extern "C" fn(ring: &io_uring),
    /// `io_uring_queue_exit` is about to tear the ring down.
    pub ring_exit: extern "C" fn(ring: &io_uring),
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
    ),
    /// A wait or peek call that did not submit is done (`entered_ns` as
    /// for `submitted`).
    pub reaped: extern "C" fn(cq: CompleteSide<'_>, result: i32, enters: u32, entered_ns: u64),
    /// A call that submits nothing is about to sleep in the kernel for
    /// `wait_nr` CQEs (`timed`: with a timeout). The waiting thread may
    /// not be the ring's submitter, so it gets the CQ side only: the SQ's
    /// private words are the submitter's (see [`SubmitSide::new`]).
    pub waiting: extern "C" fn(cq: CompleteSide<'_>, wait_nr: u32, timed: bool),
    /// `io_uring_register` failed with `errno`.
    pub register_failed: extern "C" fn(opcode: u32, arg: *const c_void, nr_args: u32, errno: i32),
    /// The library refused `call` itself with `errno`, without asking the
    /// kernel, because the ring lacks `feature` (an `IORING_FEAT_*` bit).
    pub feature_missing: extern "C" fn(call: CallName, feature: u32, errno: i32),
    /// The observer wants the time of each call's first enter (a trace
    /// that draws enters as slices): the observed paths read the clock.
    pub timed: bool,
}

/// What the diagnostics object answers when the library attaches it.
#[repr(C)]
pub struct Attachment {
    /// [`ATTACHED`], [`NOTHING_ASKED`] or [`OTHER_INTERFACE`].
    pub status: u32,
    /// The observer, when attached.
    pub observer: Option<&'static Observer>,
    /// It wants the submit and wait paths too (tracing), not only failures.
    pub rings: bool,
}

/// [`Attachment::status`]: install `observer`.
pub const ATTACHED: u32 = 0;
/// [`Attachment::status`]: the variables ask for nothing (`0` or empty).
pub const NOTHING_ASKED: u32 = 1;
/// [`Attachment::status`]: the object was built against another interface.
pub const OTHER_INTERFACE: u32 = 2;

/// The name under which the diagnostics object exports its attach
/// function, `extern "C" fn(interface: u64) -> Attachment`.
pub const ATTACH_SYMBOL: &core::ffi::CStr = c"uring_diag_attach";

/// A digest of everything the library and the diagnostics object must
/// agree on: this file (the observer table and the ring views) and the
/// layout of liburing's structs. An object built from other sources than
/// the library that loads it has another digest and is refused.
pub const INTERFACE: u64 = {
    let mut h = fnv1a(0xcbf2_9ce4_8422_2325, include_bytes!("hooks.rs"));
    h = fnv1a(h, include_bytes!("../../uapi/src/ring_types.rs"));
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

static OBSERVER: AtomicPtr<Observer> = AtomicPtr::new(core::ptr::null_mut());

/// A value written once, by the library's load-time constructor, before
/// any other function of the library can run; read plainly afterwards
/// (the compiler folds a plain read into the compare that uses it).
struct SetAtLoad<T>(UnsafeCell<T>);

// SAFETY: the only writes happen in `install`, whose callers promise it
// runs before any thread can call into the library, so every read happens
// after them.
unsafe impl<T: Sync> Sync for SetAtLoad<T> {}

/// The observer wants the submit and wait paths.
static WATCHING_RINGS: SetAtLoad<bool> = SetAtLoad(UnsafeCell::new(false));
/// The observer wants the time of each call's first enter.
static TIMED: SetAtLoad<bool> = SetAtLoad(UnsafeCell::new(false));

/// The lowest ring address the hot C entry points take straight: 1 when
/// nobody watches (only a null ring leaves the fast path, for its
/// `-EINVAL`), `usize::MAX` when an observer watches rings (every call
/// leaves it). One compare makes both tests; see [`detour`].
static FAST_FROM: SetAtLoad<usize> = SetAtLoad(UnsafeCell::new(1));

/// Installs the observer; `rings`: it wants the submit and wait paths too.
///
/// # Safety
/// Called at most once, from the library's load-time constructor: before
/// any ring exists and before any other thread can call the library
/// (dlopen returns, or main starts, after constructors have run).
pub unsafe fn install(observer: &'static Observer, rings: bool) {
    OBSERVER.store(core::ptr::from_ref(observer).cast_mut(), Ordering::Release);
    // SAFETY: per the caller, no read of these runs alongside.
    unsafe {
        *WATCHING_RINGS.0.get() = rings;
        *TIMED.0.get() = rings && observer.timed;
        // Opaque to the optimiser: told the two values, it would turn the
        // address compare into a flag test of more instructions.
        *FAST_FROM.0.get() = core::hint::black_box(if rings { usize::MAX } else { 1 });
    }
}

/// Whether any observer is installed.
#[inline]
pub fn observing() -> bool {
    !OBSERVER.load(Ordering::Relaxed).is_null()
}

/// Whether a hot C entry point must leave its fast path for `ring`: the
/// ring is null, or an observer watches rings. When false, `ring` is not
/// null.
#[inline(always)]
pub fn detour(ring: *const io_uring) -> bool {
    // SAFETY: written only before the library is callable (`install`).
    (ring as usize) < unsafe { *FAST_FROM.0.get() }
}

fn observer() -> Option<&'static Observer> {
    // SAFETY: only `install` stores here, from a `&'static Observer`.
    unsafe { OBSERVER.load(Ordering::Acquire).as_ref() }
}

/// The time to pass as `entered_ns` (CLOCK_MONOTONIC in ns) when the
/// observer asked for it, else 0 (one byte tested, no clock read). Called
/// just before a call's first `io_uring_enter`.
#[inline(always)]
pub fn entering_clock() -> u64 {
    if timed() {
        clock_ns()
    } else {
        0
    }
}

/// Whether the observer wants `entered_ns` (one byte).
#[inline(always)]
pub fn timed() -> bool {
    // SAFETY: written only before the library is callable (`install`).
    unsafe { *TIMED.0.get() }
}

/// CLOCK_MONOTONIC in ns, for `entered_ns`.
#[cold]
#[inline(never)]
pub fn clock_ns() -> u64 {
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

/// Whether the submit and wait paths must report (one byte, one branch).
#[inline(always)]
pub fn watching_rings() -> bool {
    // SAFETY: written only before the library is callable (`install`).
    unsafe { *WATCHING_RINGS.0.get() }
}

// ---------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------

/// Reads one field of the viewed ring by value.
macro_rules! field {
    ($self:ident . $($f:ident).+) => {
        // SAFETY: the view's constructor promised a live, aligned `struct
        // io_uring` for 'a whose settings nobody changes meanwhile, and
        // this view's thread owns the side the field belongs to.
        unsafe { addr_of!((*$self.ring.as_ptr()).$($f).+).read() }
    };
}

/// Loads a kernel-shared ring word of the viewed ring.
macro_rules! shared_word {
    ($self:ident . $($f:ident).+) => {{
        let word: *mut u32 = field!($self.$($f).+);
        if word.is_null() {
            0
        } else {
            // SAFETY: a live ring's `k*` pointers address aligned `u32`s of
            // its mapping, which stays mapped for 'a; every access to them,
            // ours or the kernel's, is atomic.
            unsafe { AtomicU32::from_ptr(word) }.load(Ordering::Acquire)
        }
    }};
}

/// The settings both sides may read.
macro_rules! common_reads {
    () => {
        /// The ring's identity (the C caller's pointer), never dereferenced.
        pub fn id(self) -> *const io_uring {
            self.ring.as_ptr()
        }
        /// `IORING_SETUP_*` flags.
        pub fn flags(self) -> u32 {
            field!(self.flags)
        }
        /// The ring fd (-1 when closed after registering it).
        pub fn ring_fd(self) -> i32 {
            let fd = field!(self.ring_fd);
            if fd >= 0 {
                fd
            } else {
                field!(self.enter_ring_fd)
            }
        }
    };
}

/// The submitting thread's view of a ring: the SQ side and the settings.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct SubmitSide<'a> {
    ring: NonNull<io_uring>,
    _ring: PhantomData<&'a io_uring>,
}

impl<'a> SubmitSide<'a> {
    /// # Safety
    /// `ring` is a live ring for 'a, used as liburing allows, and the
    /// calling thread is its submitter for 'a: the one thread that takes
    /// its SQEs meanwhile (inside a submit call, or known to be the thread
    /// that made the ring's last one), since the private SQ words it reads
    /// are that thread's plain variables.
    #[inline(always)]
    pub unsafe fn new(ring: NonNull<io_uring>) -> Self {
        SubmitSide {
            ring,
            _ring: PhantomData,
        }
    }

    common_reads!();

    /// The library's private SQ head (first SQE not yet published).
    pub fn sqe_head(self) -> u32 {
        field!(self.sq.sqe_head)
    }
    /// The library's private SQ tail (one past the last SQE taken with
    /// `io_uring_get_sqe`).
    pub fn sqe_tail(self) -> u32 {
        field!(self.sq.sqe_tail)
    }
    /// The kernel's SQ head: SQEs it has consumed.
    pub fn sq_khead(self) -> u32 {
        shared_word!(self.sq.khead)
    }
    /// The kernel's `IORING_SQ_*` flags.
    pub fn sq_kflags(self) -> u32 {
        shared_word!(self.sq.kflags)
    }
    pub fn sq_mask(self) -> u32 {
        field!(self.sq.ring_mask)
    }
    pub fn sq_entries(self) -> u32 {
        field!(self.sq.ring_entries)
    }
    /// A copy of SQE slot `slot` (already scaled for SQE128), or `None`
    /// outside the array.
    pub fn sqe(self, slot: u32) -> Option<io_uring_sqe> {
        self.sqes().get(slot)
    }
    /// The SQE array, for a walk over many slots in this call (its
    /// address and size read once).
    #[inline(always)]
    pub fn sqes(self) -> SqeArray<'a> {
        let big = u32::from(self.flags() & crate::uapi::IORING_SETUP_SQE128 != 0);
        let plain = self.plain_sqes();
        SqeArray {
            slots: plain.slots << big,
            ..plain
        }
    }
    /// The SQE array as a ring of 64-byte SQEs lays it out, one slot per
    /// entry, for an observer that knows the ring has them (no SQE128, no
    /// SQE_MIXED): no flag is read. On any ring its slots lie within the
    /// array, as it holds at least one per entry.
    #[inline(always)]
    pub fn plain_sqes(self) -> SqeArray<'a> {
        let base: *const io_uring_sqe = field!(self.sq.sqes);
        SqeArray {
            base,
            slots: if base.is_null() { 0 } else { self.sq_entries() },
            _ring: PhantomData,
        }
    }
}

/// A ring's SQE array as seen by the submitting thread inside one call.
#[derive(Clone, Copy)]
pub struct SqeArray<'a> {
    base: *const io_uring_sqe,
    /// 0 when the ring has no SQE array.
    slots: u32,
    _ring: PhantomData<&'a io_uring>,
}

impl SqeArray<'_> {
    /// A copy of slot `slot` (already scaled for SQE128), or `None`
    /// outside the array.
    #[inline(always)]
    pub fn get(self, slot: u32) -> Option<io_uring_sqe> {
        if slot >= self.slots {
            return None;
        }
        // SAFETY: `slots` is the SQE array's length in the live mapping
        // (non-null), which stays for 'a; the submitting thread (this one)
        // is the only writer of slots the kernel has not consumed, and it
        // is inside this call; the kernel only reads them. Nothing writes
        // the slot meanwhile, so a plain read, of which the compiler keeps
        // only the fields used.
        Some(unsafe { self.base.add(slot as usize).read() })
    }
}

/// The reaping thread's view of a ring: the CQ side and the settings.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct CompleteSide<'a> {
    ring: NonNull<io_uring>,
    _ring: PhantomData<&'a io_uring>,
}

impl<'a> CompleteSide<'a> {
    /// # Safety
    /// `ring` is a live ring for 'a, used as liburing allows, and the
    /// calling thread is inside a call that waits for or reaps its CQEs.
    #[inline(always)]
    pub unsafe fn new(ring: NonNull<io_uring>) -> Self {
        CompleteSide {
            ring,
            _ring: PhantomData,
        }
    }

    common_reads!();

    pub fn cq_khead(self) -> u32 {
        shared_word!(self.cq.khead)
    }
    pub fn cq_ktail(self) -> u32 {
        shared_word!(self.cq.ktail)
    }
    /// CQEs the kernel dropped for want of CQ room.
    pub fn cq_overflow(self) -> u32 {
        shared_word!(self.cq.koverflow)
    }
    pub fn cq_mask(self) -> u32 {
        field!(self.cq.ring_mask)
    }
    pub fn cq_entries(self) -> u32 {
        field!(self.cq.ring_entries)
    }
    /// A copy of CQE slot `slot` (already scaled for CQE32), or `None`
    /// outside the array. The kernel may be rewriting a slot it has been
    /// given back; a reader checks the indices around it.
    pub fn cqe(self, slot: u32) -> Option<io_uring_cqe> {
        self.cqes().get(slot)
    }
    /// The CQE array, for a walk over many slots in this call (its
    /// address and size read once).
    #[inline(always)]
    pub fn cqes(self) -> CqeArray<'a> {
        let big = u32::from(self.flags() & crate::uapi::IORING_SETUP_CQE32 != 0);
        let plain = self.plain_cqes();
        CqeArray {
            slots: plain.slots << big,
            ..plain
        }
    }
    /// The CQE array as a ring of 16-byte CQEs lays it out (no CQE32, no
    /// CQE_MIXED), one slot per entry, as [`SubmitSide::plain_sqes`].
    #[inline(always)]
    pub fn plain_cqes(self) -> CqeArray<'a> {
        let base: *const io_uring_cqe = field!(self.cq.cqes);
        CqeArray {
            base,
            slots: if base.is_null() { 0 } else { self.cq_entries() },
            _ring: PhantomData,
        }
    }
}

/// A ring's CQE array as seen by a reaping thread inside one call.
#[derive(Clone, Copy)]
pub struct CqeArray<'a> {
    base: *const io_uring_cqe,
    /// 0 when the ring has no CQE array.
    slots: u32,
    _ring: PhantomData<&'a io_uring>,
}

impl CqeArray<'_> {
    /// A copy of slot `slot` (already scaled for CQE32), or `None` outside
    /// the array. The kernel may be rewriting a slot it has been given
    /// back; a reader checks the indices around it.
    #[inline(always)]
    pub fn get(self, slot: u32) -> Option<io_uring_cqe> {
        if slot >= self.slots {
            return None;
        }
        // SAFETY: within the CQE array of the live mapping (`slots` is its
        // length, the base non-null), which stays for 'a; read by value
        // (volatile: the kernel owns slots at and past the tail).
        Some(unsafe { self.base.add(slot as usize).read_volatile() })
    }
}

/// Both sides of a ring owned exclusively by the caller (setup, resize,
/// teardown), for observers that look at everything.
pub fn both_sides(ring: &io_uring) -> (SubmitSide<'_>, CompleteSide<'_>) {
    let p = NonNull::from(ring);
    // SAFETY: `&io_uring` is exclusive use by liburing's contract for the
    // calls that pass one (no submit or wait runs alongside them).
    unsafe { (SubmitSide::new(p), CompleteSide::new(p)) }
}

// ---------------------------------------------------------------------------
// Hook points (the core calls these)
// ---------------------------------------------------------------------------

/// After a setup entry point failed with `errno`.
#[cold]
#[inline(never)]
pub fn setup_failed(
    call: &'static str,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    errno: i32,
) {
    if let Some(o) = observer() {
        (o.setup_failed)(CallName::new(call), entries, flags, p, errno);
    }
}

/// After a ring was set up.
#[inline]
pub fn ring_created(ring: &io_uring) {
    if watching_rings() {
        ring_created_cold(ring);
    }
}

#[cold]
#[inline(never)]
fn ring_created_cold(ring: &io_uring) {
    if let Some(o) = observer() {
        (o.ring_created)(ring);
    }
}

/// After a resize or a ring-fd (un)registration.
#[inline]
pub fn ring_changed(ring: &io_uring) {
    if watching_rings() {
        ring_changed_cold(ring);
    }
}

#[cold]
#[inline(never)]
fn ring_changed_cold(ring: &io_uring) {
    if let Some(o) = observer() {
        (o.ring_changed)(ring);
    }
}

/// Before a ring is torn down.
#[inline]
pub fn ring_exit(ring: &io_uring) {
    if watching_rings() {
        ring_exit_cold(ring);
    }
}

#[cold]
#[inline(never)]
fn ring_exit_cold(ring: &io_uring) {
    if let Some(o) = observer() {
        (o.ring_exit)(ring);
    }
}

/// A submit call is done (call only when [`watching_rings`]): returns
/// `result` unchanged, so the caller can tail-call it. `reaped`: the call
/// also waited for or reaped CQEs.
///
/// # Safety
/// `ring` is the live ring of the submit call this thread is in.
#[cold]
#[inline(never)]
pub unsafe fn submitted(
    ring: NonNull<io_uring>,
    reaped: bool,
    result: i32,
    enters: u32,
    entered_ns: u64,
) -> i32 {
    if let Some(o) = observer() {
        // SAFETY: per the caller: this thread is the ring's submitter now,
        // and a call that waits is its reaper too.
        let (sq, cq) = unsafe {
            (
                SubmitSide::new(ring),
                reaped.then(|| CompleteSide::new(ring)),
            )
        };
        (o.submitted)(sq, cq, result, enters, entered_ns);
    }
    result
}

/// A wait or peek call that did not submit is done (call only when
/// [`watching_rings`]); returns `result` unchanged.
///
/// # Safety
/// `ring` is the live ring of the wait call this thread is in.
#[cold]
#[inline(never)]
pub unsafe fn reaped(ring: NonNull<io_uring>, result: i32, enters: u32, entered_ns: u64) -> i32 {
    if let Some(o) = observer() {
        // SAFETY: per the caller.
        (o.reaped)(
            unsafe { CompleteSide::new(ring) },
            result,
            enters,
            entered_ns,
        );
    }
    result
}

/// A wait that submits nothing is about to enter the kernel to sleep (call
/// only when [`watching_rings`]).
///
/// # Safety
/// `ring` is the live ring of the wait call this thread is in.
#[cold]
#[inline(never)]
pub unsafe fn waiting(ring: NonNull<io_uring>, wait_nr: u32, timed: bool) {
    if let Some(o) = observer() {
        // SAFETY: per the caller.
        (o.waiting)(unsafe { CompleteSide::new(ring) }, wait_nr, timed);
    }
}

/// The library refuses `call` with `e` because the ring lacks `feature`;
/// returns `e`.
#[cold]
#[inline(never)]
pub fn feature_missing(call: &'static str, feature: u32, e: Errno) -> Errno {
    if let Some(o) = observer() {
        (o.feature_missing)(CallName::new(call), feature, e.0);
    }
    e
}

/// `io_uring_register` failed with `e`; returns `e`, so that the caller's
/// error path ends in this call and keeps nothing alive across it.
#[cold]
#[inline(never)]
pub fn register_failed(opcode: u32, arg: *const c_void, nr_args: u32, e: Errno) -> Errno {
    if let Some(o) = observer() {
        (o.register_failed)(opcode, arg, nr_args, e.0);
    }
    // Opaque: told that `e` comes back unchanged, the optimiser would keep
    // the caller's raw result alive across this call instead, in a
    // callee-saved register that every registration call then saves and
    // restores on its fast path too.
    core::hint::black_box(e)
}
