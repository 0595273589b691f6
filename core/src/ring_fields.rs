// SPDX-License-Identifier: MIT
//! The fields of a live `struct io_uring`, read and written one at a time
//! through its pointer: the one place that reaches into the struct. Who
//! writes which field, and the memory ordering of the kernel-shared words,
//! are in [`crate::ring`]'s docs.

use core::marker::PhantomData;
use core::ptr::{addr_of, addr_of_mut, NonNull};
use core::sync::atomic::AtomicU32;

use crate::structs::{int_flags, io_uring};
use crate::uapi::{io_uring_cqe, io_uring_sqe};

/// The fields of a live ring, one read or write at a time through the
/// pointer: the one place that reaches into a `struct io_uring`. The core's
/// handle [`crate::ring::LiveRing`] dereferences to it; the observer's views
/// ([`crate::observe::SubmitSide`], [`crate::observe::CompleteSide`]) wrap
/// it and show one side each.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct RingFields<'a> {
    ring: NonNull<io_uring>,
    _ring: PhantomData<&'a io_uring>,
}

/// Reads one field of the ring struct by value.
macro_rules! field {
    ($self:ident . $($f:ident).+) => {
        // SAFETY: `ring` points at an initialised, aligned `struct io_uring`
        // for 'a (the promise of `RingFields::new`), and this field is only
        // written by calls that never run alongside this one (the table in `crate::ring`'s docs).
        unsafe { addr_of!((*$self.ring.as_ptr()).$($f).+).read() }
    };
}

/// The kernel-shared `u32`s of the ring memory.
#[derive(Clone, Copy)]
pub enum SharedWord {
    SqHead,
    SqTail,
    SqFlags,
    CqHead,
    CqTail,
    CqOverflow,
}

impl<'a> RingFields<'a> {
    /// # Safety
    /// `ring` points at a `struct io_uring` set up by this library (or
    /// liburing-compatible code) and not yet torn down, for as long as
    /// `'a`, used meanwhile only as liburing allows (see [`crate::ring::LiveRing::from_ptr`]).
    #[inline(always)]
    pub unsafe fn new(ring: NonNull<io_uring>) -> Self {
        RingFields {
            ring,
            _ring: PhantomData,
        }
    }

    /// The ring pointer.
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

    // ---- settings every call reads; see the table in `crate::ring` ----

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

    // ---- the kernel-shared words ----

    /// Where kernel-shared word `word` lives (null while the ring is not
    /// mapped).
    #[inline(always)]
    pub fn shared_word_ptr(self, word: SharedWord) -> *mut u32 {
        match word {
            SharedWord::SqHead => field!(self.sq.khead),
            SharedWord::SqTail => field!(self.sq.ktail),
            SharedWord::SqFlags => field!(self.sq.kflags),
            SharedWord::CqHead => field!(self.cq.khead),
            SharedWord::CqTail => field!(self.cq.ktail),
            SharedWord::CqOverflow => field!(self.cq.koverflow),
        }
    }

    /// Kernel-shared word `word` of a mapped ring, as an atomic.
    #[inline(always)]
    fn shared_word(self, word: SharedWord) -> &'a AtomicU32 {
        // SAFETY: a live ring's `k*` pointers address aligned `u32`s of the
        // ring mapping, which stays mapped for 'a. Every access to them, by
        // us or by the kernel, is atomic.
        unsafe { AtomicU32::from_ptr(self.shared_word_ptr(word)) }
    }

    // ---- submission side ----

    /// The kernel's SQ head (see the ordering notes).
    #[inline(always)]
    pub fn sq_khead(self) -> &'a AtomicU32 {
        self.shared_word(SharedWord::SqHead)
    }

    /// The SQ tail the kernel reads.
    #[inline(always)]
    pub fn sq_ktail(self) -> &'a AtomicU32 {
        self.shared_word(SharedWord::SqTail)
    }

    /// The kernel's `IORING_SQ_*` flags word.
    #[inline(always)]
    pub fn sq_kflags(self) -> &'a AtomicU32 {
        self.shared_word(SharedWord::SqFlags)
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
        self.shared_word(SharedWord::CqHead)
    }

    /// The kernel's CQ tail.
    #[inline(always)]
    pub fn cq_ktail(self) -> &'a AtomicU32 {
        self.shared_word(SharedWord::CqTail)
    }

    #[inline(always)]
    pub fn cq_mask(self) -> u32 {
        field!(self.cq.ring_mask)
    }

    #[inline(always)]
    pub fn cq_entries(self) -> u32 {
        field!(self.cq.ring_entries)
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
