// SPDX-License-Identifier: MIT
//! The live-ring handle: how the core reaches a `struct io_uring` that C code
//! owns and that two threads may use at once.
//!
//! # Why not `&mut io_uring`
//! liburing lets one thread submit while another waits for completions on
//! the same ring. A `&mut io_uring` (or `&io_uring`) in each of those calls
//! would claim the whole struct for one thread while the other writes or
//! reads it: undefined behaviour in Rust's model whether or not the
//! optimiser ever exploits it. So calls that may run concurrently never
//! form a reference to the struct, nor to its `sq` or `cq` member. They get a
//! [`LiveRing`]: a copyable raw pointer, checked once at the C boundary,
//! whose methods read or write one field at a time through the pointer.
//!
//! # Who touches what
//! | fields | written by | read by |
//! |---|---|---|
//! | `flags`, `features`, `ring_fd`, `enter_ring_fd`, `int_flags`, every pointer, mask and size in `sq`/`cq` | setup, resize, ring-fd (un)registration, `set_iowait`: calls liburing's contract never runs alongside any other call on the ring (they take `&mut io_uring`) | everyone |
//! | `sq.sqe_head`, `sq.sqe_tail` (application-private SQ counters) | the submitting thread only | the submitting thread only |
//! | kernel-shared words (`*sq.khead`, `*cq.ktail`, ...) | the kernel and us, atomically | everyone, atomically |
//!
//! So the submit path and the wait path share only fields nobody writes
//! while they run, plus atomics: no data race and no aliasing reference.
//!
//! # Memory ordering of the kernel-shared words
//! - SQ tail (`*sq.ktail`): stored by us with Release, so the SQE contents
//!   written before are visible to whoever sees the new tail (the SQPOLL
//!   thread reads it at any moment; without SQPOLL the `io_uring_enter`
//!   syscall orders it anyway). On x86-64 the Release store is a plain `mov`.
//! - SQ head (`*sq.khead`): stored by the kernel once it has finished reading
//!   SQEs; we load it with Acquire so our later writes to freed slots cannot
//!   overtake the kernel's reads of them.
//! - SQ flags (`*sq.kflags`, `IORING_SQ_*`): Relaxed. They only tell us
//!   whether to enter the kernel; no data is read on their strength. The one
//!   place where ordering matters, the SQPOLL wakeup check, is preceded by a
//!   full fence (see `queue::sq_needs_enter`).
//! - CQ tail (`*cq.ktail`): stored by the kernel after it filled the CQEs
//!   below it; we load it with Acquire before reading any CQE.
//! - CQ head (`*cq.khead`): only the application stores it, with Release
//!   after it is done reading the CQEs it releases (pairs with the kernel's
//!   acquire before it reuses the slots); our own loads of it are Relaxed.
//! - The ring masks and sizes are written by the kernel once, before
//!   `io_uring_setup` (or a resize, with the ring quiesced) returns, and
//!   copied into the struct at that time: plain reads.

use core::marker::PhantomData;
use core::ptr::{addr_of, addr_of_mut, NonNull};
use core::sync::atomic::AtomicU32;

use crate::observe::{Unwatched, Watch};
use crate::structs::{int_flags, io_uring};
use crate::uapi::{io_uring_cqe, io_uring_sqe};

/// A ring set up by this library, as a C caller hands it to a call that
/// may run alongside other calls on the same ring.
///
/// Built once per C call by [`LiveRing::from_ptr`], which is where the C
/// caller's promise is taken; every method below is safe because of it.
/// `W` says whether the call is observed (decided at the C boundary, see
/// [`crate::observe`]); the unobserved handle is one pointer.
#[derive(Clone, Copy)]
pub struct LiveRing<'a, W: Watch = Unwatched> {
    ring: NonNull<io_uring>,
    watch: W,
    _ring: PhantomData<&'a io_uring>,
}

/// Reads one field of the ring struct by value.
macro_rules! field {
    ($self:ident . $($f:ident).+) => {
        // SAFETY: `ring` points at an initialised, aligned `struct io_uring`
        // for 'a (the promise of `from_ptr`), and this field is only written
        // by calls that never run alongside this one (module docs).
        unsafe { addr_of!((*$self.ring.as_ptr()).$($f).+).read() }
    };
}

/// A kernel-shared `u32` of the ring memory, as an atomic.
macro_rules! shared_word {
    ($self:ident . $($f:ident).+) => {{
        let word: *mut u32 = field!($self.$($f).+);
        // SAFETY: a live ring's `k*` pointers address aligned `u32`s of the
        // ring mapping, which stays mapped for 'a. Every access to them, by
        // us or by the kernel, is atomic.
        unsafe { AtomicU32::from_ptr(word) }
    }};
}

impl<'a> LiveRing<'a> {
    /// Takes the C caller's ring pointer; `None` if it is null.
    ///
    /// # Safety
    /// `ring` must be null or point at a `struct io_uring` set up by this
    /// library (or liburing-compatible code) and not yet torn down, for as
    /// long as `'a`; other threads may use the same ring meanwhile only as
    /// liburing allows (one submitter, one reaper, and nothing alongside
    /// setup, teardown, resize or ring-fd (un)registration).
    #[inline(always)]
    pub unsafe fn from_ptr(ring: *mut io_uring) -> Option<LiveRing<'a>> {
        Some(LiveRing {
            ring: NonNull::new(ring)?,
            watch: Unwatched,
            _ring: PhantomData,
        })
    }

    /// The same ring, observed as `watch` says.
    #[inline(always)]
    pub fn observed_by<W: Watch>(self, watch: W) -> LiveRing<'a, W> {
        LiveRing {
            ring: self.ring,
            watch,
            _ring: PhantomData,
        }
    }
}

impl<'a, W: Watch> LiveRing<'a, W> {
    /// Whether (and by whom) this call is observed.
    #[inline(always)]
    pub fn watch(self) -> W {
        self.watch
    }

    /// The same ring, for work inside a call that is not reported on its
    /// own (the call reports once, at its end).
    #[inline(always)]
    pub fn unwatched(self) -> LiveRing<'a> {
        LiveRing {
            ring: self.ring,
            watch: Unwatched,
            _ring: PhantomData,
        }
    }

    /// The ring pointer, for the observer's views.
    #[inline(always)]
    pub fn as_non_null(self) -> NonNull<io_uring> {
        self.ring
    }

    /// The C caller's pointer, for identity only (diagnostics find their
    /// per-ring record by it).
    #[inline(always)]
    pub fn as_ptr(self) -> *const io_uring {
        self.ring.as_ptr()
    }

    // ---- settings every call reads; see the table in the module docs ----

    /// The `IORING_SETUP_*` flags.
    #[inline(always)]
    pub fn flags(self) -> u32 {
        field!(self.flags)
    }

    /// The kernel's `IORING_FEAT_*` bits.
    #[inline(always)]
    pub fn features(self) -> u32 {
        field!(self.features)
    }

    /// The library-private `int_flags`.
    #[inline(always)]
    pub fn int_flags(self) -> u8 {
        field!(self.int_flags)
    }

    /// The real ring fd (-1 once closed or never had).
    #[inline(always)]
    pub fn ring_fd(self) -> i32 {
        field!(self.ring_fd)
    }

    /// The fd `io_uring_enter` takes: `ring_fd` or the registered index.
    #[inline(always)]
    pub fn enter_ring_fd(self) -> i32 {
        field!(self.enter_ring_fd)
    }

    /// The `io_uring_enter` flags implied by the ring's private state.
    #[inline(always)]
    pub fn enter_flags(self) -> u32 {
        u32::from(self.int_flags() & int_flags::ENTER_MASK)
    }

    // ---- submission side ----

    /// The kernel's SQ head (see the ordering notes).
    #[inline(always)]
    pub fn sq_khead(self) -> &'a AtomicU32 {
        shared_word!(self.sq.khead)
    }

    /// The SQ tail the kernel reads.
    #[inline(always)]
    pub fn sq_ktail(self) -> &'a AtomicU32 {
        shared_word!(self.sq.ktail)
    }

    /// The kernel's `IORING_SQ_*` flags word.
    #[inline(always)]
    pub fn sq_kflags(self) -> &'a AtomicU32 {
        shared_word!(self.sq.kflags)
    }

    #[inline(always)]
    pub fn sq_mask(self) -> u32 {
        field!(self.sq.ring_mask)
    }

    #[inline(always)]
    pub fn sq_entries(self) -> u32 {
        field!(self.sq.ring_entries)
    }

    /// The SQE array (`sq_entries << sqe_shift` slots).
    #[inline(always)]
    pub fn sqes(self) -> *mut io_uring_sqe {
        field!(self.sq.sqes)
    }

    /// First SQE not yet handed to the kernel (submitting thread only).
    #[inline(always)]
    pub fn sqe_head(self) -> u32 {
        field!(self.sq.sqe_head)
    }

    /// Next SQE to hand out (submitting thread only).
    #[inline(always)]
    pub fn sqe_tail(self) -> u32 {
        field!(self.sq.sqe_tail)
    }

    /// Moves the private SQ head (submitting thread only).
    #[inline(always)]
    pub fn set_sqe_head(self, head: u32) {
        // SAFETY: as for `field!`; by liburing's contract only the
        // submitting thread (this one) reads or writes this counter.
        unsafe { addr_of_mut!((*self.ring.as_ptr()).sq.sqe_head).write(head) }
    }

    /// Moves the private SQ tail (submitting thread only).
    #[inline(always)]
    pub fn set_sqe_tail(self, tail: u32) {
        // SAFETY: as for `set_sqe_head`.
        unsafe { addr_of_mut!((*self.ring.as_ptr()).sq.sqe_tail).write(tail) }
    }

    // ---- completion side ----

    /// The CQ head, which only the application moves.
    #[inline(always)]
    pub fn cq_khead(self) -> &'a AtomicU32 {
        shared_word!(self.cq.khead)
    }

    /// The kernel's CQ tail.
    #[inline(always)]
    pub fn cq_ktail(self) -> &'a AtomicU32 {
        shared_word!(self.cq.ktail)
    }

    #[inline(always)]
    pub fn cq_mask(self) -> u32 {
        field!(self.cq.ring_mask)
    }

    /// The CQE array (`cq_entries << cqe_shift` slots).
    #[inline(always)]
    pub fn cqes(self) -> *mut io_uring_cqe {
        field!(self.cq.cqes)
    }

    // ---- the mappings, for madvise ----

    /// `(sq.ring_ptr, sq.ring_sz)`.
    #[inline]
    pub fn sq_ring_mapping(self) -> (*mut core::ffi::c_void, usize) {
        (field!(self.sq.ring_ptr), field!(self.sq.ring_sz))
    }

    /// `(cq.ring_ptr, cq.ring_sz)`.
    #[inline]
    pub fn cq_ring_mapping(self) -> (*mut core::ffi::c_void, usize) {
        (field!(self.cq.ring_ptr), field!(self.cq.ring_sz))
    }
}
