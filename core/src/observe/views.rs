// SPDX-License-Identifier: MIT
//! The views an observer reads a ring through.
//!
//! They carry liburing's threading rule: [`SubmitSide`] is made only by
//! calls that submit (the SQ-private counters and SQE slots belong to the
//! submitting thread), [`CompleteSide`] only by calls that wait or reap,
//! and `&io_uring` only where the caller owns the whole ring (setup,
//! resize, ring-fd changes, teardown). No view caches a pointer: every read
//! goes through the live `struct io_uring`.

use core::marker::PhantomData;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU32, Ordering};

use crate::ring_fields::{RingFields, SharedWord};
use crate::structs::io_uring;
use crate::uapi::{io_uring_cqe, io_uring_sqe};

/// Loads a kernel-shared word of the viewed ring (Acquire), or 0 while the
/// ring is not mapped.
#[inline(always)]
fn load_shared(ring: RingFields<'_>, word: SharedWord) -> u32 {
    let word = ring.shared_word_ptr(word);
    if word.is_null() {
        0
    } else {
        // SAFETY: a live ring's `k*` pointers address aligned `u32`s of
        // its mapping, which stays mapped for 'a; every access to them,
        // ours or the kernel's, is atomic.
        unsafe { AtomicU32::from_ptr(word) }.load(Ordering::Acquire)
    }
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
            self.ring.flags()
        }
        /// The ring fd (-1 when closed after registering it).
        pub fn ring_fd(self) -> i32 {
            let fd = self.ring.ring_fd();
            if fd >= 0 {
                fd
            } else {
                self.ring.enter_ring_fd()
            }
        }
    };
}

/// The submitting thread's view of a ring: the SQ side and the settings.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct SubmitSide<'a> {
    ring: RingFields<'a>,
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
            // SAFETY: the caller's promise includes `RingFields::new`'s.
            ring: unsafe { RingFields::new(ring) },
        }
    }

    common_reads!();

    /// The library's private SQ head (first SQE not yet published).
    pub fn sqe_head(self) -> u32 {
        self.ring.sqe_head()
    }
    /// The library's private SQ tail (one past the last SQE taken with
    /// `io_uring_get_sqe`).
    pub fn sqe_tail(self) -> u32 {
        self.ring.sqe_tail()
    }
    /// The kernel's SQ head: SQEs it has consumed.
    pub fn sq_khead(self) -> u32 {
        load_shared(self.ring, SharedWord::SqHead)
    }
    /// The kernel's `IORING_SQ_*` flags.
    pub fn sq_kflags(self) -> u32 {
        load_shared(self.ring, SharedWord::SqFlags)
    }
    pub fn sq_mask(self) -> u32 {
        self.ring.sq_mask()
    }
    pub fn sq_entries(self) -> u32 {
        self.ring.sq_entries()
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
        let base: *const io_uring_sqe = self.ring.sqes();
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
    ring: RingFields<'a>,
}

impl<'a> CompleteSide<'a> {
    /// # Safety
    /// `ring` is a live ring for 'a, used as liburing allows, and the
    /// calling thread is inside a call that waits for or reaps its CQEs.
    #[inline(always)]
    pub unsafe fn new(ring: NonNull<io_uring>) -> Self {
        CompleteSide {
            // SAFETY: the caller's promise includes `RingFields::new`'s.
            ring: unsafe { RingFields::new(ring) },
        }
    }

    common_reads!();

    pub fn cq_khead(self) -> u32 {
        load_shared(self.ring, SharedWord::CqHead)
    }
    pub fn cq_ktail(self) -> u32 {
        load_shared(self.ring, SharedWord::CqTail)
    }
    /// CQEs the kernel dropped for want of CQ room.
    pub fn cq_overflow(self) -> u32 {
        load_shared(self.ring, SharedWord::CqOverflow)
    }
    pub fn cq_mask(self) -> u32 {
        self.ring.cq_mask()
    }
    pub fn cq_entries(self) -> u32 {
        self.ring.cq_entries()
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
        let base: *const io_uring_cqe = self.ring.cqes();
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
