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
//!   full fence (see `queue::submission::sq_needs_enter`).
//! - CQ tail (`*cq.ktail`): stored by the kernel after it filled the CQEs
//!   below it; we load it with Acquire before reading any CQE.
//! - CQ head (`*cq.khead`): only the application stores it, with Release
//!   after it is done reading the CQEs it releases (pairs with the kernel's
//!   acquire before it reuses the slots); our own loads of it are Relaxed.
//! - The ring masks and sizes are written by the kernel once, before
//!   `io_uring_setup` (or a resize, with the ring quiesced) returns, and
//!   copied into the struct at that time: plain reads.

use core::ops::Deref;
use core::ptr::NonNull;

use crate::observe::{Unwatched, Watch};
use crate::ring_fields::RingFields;
use crate::structs::io_uring;

/// A ring set up by this library, as a C caller hands it to a call that
/// may run alongside other calls on the same ring.
///
/// Built once per C call by [`LiveRing::from_ptr`], which is where the C
/// caller's promise is taken; the field accessors ([`RingFields`], which it
/// dereferences to) are safe because of it. `W` says whether the call is
/// observed (decided at the C boundary, see [`crate::observe`]); the
/// unobserved handle is one pointer.
#[derive(Clone, Copy)]
pub struct LiveRing<'a, W: Watch = Unwatched> {
    fields: RingFields<'a>,
    watch: W,
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
            // SAFETY: the caller's promise, the same as `RingFields::new`'s.
            fields: unsafe { RingFields::new(NonNull::new(ring)?) },
            watch: Unwatched,
        })
    }

    /// The same ring, observed as `watch` says.
    #[inline(always)]
    pub fn observed_by<W: Watch>(self, watch: W) -> LiveRing<'a, W> {
        LiveRing {
            fields: self.fields,
            watch,
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
            fields: self.fields,
            watch: Unwatched,
        }
    }
}

impl<'a, W: Watch> Deref for LiveRing<'a, W> {
    type Target = RingFields<'a>;

    #[inline(always)]
    fn deref(&self) -> &RingFields<'a> {
        &self.fields
    }
}
