// SPDX-License-Identifier: MIT
//! The checker's per-ring records: `RingCheck` (one ring's state, with its
//! request table and chains, in the diagnostics' own memory), the slots
//! that hold them, and how a hook checks one out (an atomic swap, never a
//! wait) and takes it out for good.

use core::ptr::{null_mut, NonNull};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicUsize, Ordering};

use super::buf_taken;
use super::pbuf_groups;
use super::threads::{gettid, this_thread_name};
use crate::memory::{Kind, Record, MAX_RINGS};
use crate::structs::io_uring;

/// Buckets of the request table (a power of two) and slots of one bucket
/// (the bits of one occupancy byte): 4096 requests followed per ring.
pub(super) const BUCKET_BITS: u32 = 9;
const BUCKETS: usize = 1 << BUCKET_BITS;
pub(super) const WAYS: usize = 8;
const REQ_SLOTS: usize = BUCKETS * WAYS;
/// Chains remembered per ring (the most recent ones).
pub(super) const CHAIN_SLOTS: usize = 32;
/// Buffer groups whose -ENOBUFS streak is counted per ring.
pub(super) const GROUP_SLOTS: usize = 8;

/// The kind bits of `Req::state` (above its count); none for a plain
/// request. The fields they guard (`buf_group`, `chain`, `pos`) are
/// written only with them.
const KIND_MULTISHOT: u64 = 1 << 32;
pub(super) const KIND_BUF_SELECT: u64 = 1 << 33;
pub(super) const KIND_CHAINED: u64 = 1 << 34;
const COUNT_MASK: u64 = u32::MAX as u64;
/// `Req::state` of one plain request in flight, the fast walks' case:
/// one store makes it, one compare finds it.
pub(super) const ONE_PLAIN: u64 = 1;

#[derive(Clone, Copy)]
pub(super) struct Req {
    pub(super) user_data: u64,
    /// Requests in flight with this user_data (the low 32 bits; its
    /// occupancy bit is set while not 0), and the `KIND_*` bits.
    pub(super) state: u64,
    pub(super) opcode: u8,
    pub(super) buf_group: u16,
    pub(super) fd: i32,
    /// Chain number (0: not linked) and place in it (1-based).
    pub(super) chain: u32,
    pub(super) pos: u16,
}

impl Req {
    pub(super) fn count(&self) -> u32 {
        (self.state & COUNT_MASK) as u32
    }
    pub(super) fn multishot(&self) -> bool {
        self.state & KIND_MULTISHOT != 0
    }
    pub(super) fn buf_select(&self) -> bool {
        self.state & KIND_BUF_SELECT != 0
    }
}

/// The kind bits of a request: multishot, selecting a buffer, linked.
#[inline(always)]
pub(super) fn kind_of(multishot: bool, buf_select: bool, chain: u32) -> u64 {
    (if multishot { KIND_MULTISHOT } else { 0 })
        | (if buf_select { KIND_BUF_SELECT } else { 0 })
        | (if chain != 0 { KIND_CHAINED } else { 0 })
}

#[derive(Clone, Copy)]
pub(super) struct Chain {
    pub(super) id: u32,
    pub(super) has_link_timeout: bool,
    pub(super) done: bool,
    /// The member that failed: user_data, opcode, place, result.
    pub(super) failed: Option<(u64, u8, u16, i32)>,
    /// The first member seen cancelled before the failure was seen.
    pub(super) cancelled: Option<(u64, u8, u16)>,
}

/// `RingCheck::detour`: a CQE went by unseen (or the table filled), so
/// the in-flight counts are given up.
const DETOUR_LOST: u8 = 1 << 0;
/// `RingCheck::detour`: a multishot request ended (`RingCheck::ended`).
const DETOUR_ENDED: u8 = 1 << 1;
/// `RingCheck::detour`: a setup flag takes the ring off the fast walks
/// (`SLOW_SETUP`), or DEFER_TASKRUN (the peek streak).
pub(super) const DETOUR_SETUP: u8 = 1 << 2;
/// `RingCheck::detour`: the owner thread is not known yet.
pub(super) const DETOUR_OWNER: u8 = 1 << 3;

/// The room a ring's record takes.
pub const RECORD_BYTES: usize = core::mem::size_of::<RingCheck>();

/// One checked ring, in the diagnostics' own memory (`Record`), zeroed
/// (every field valid as zero bytes).
pub(super) struct RingCheck {
    pub(super) id: u32,
    pub(super) ring: usize,
    pub(super) flags: u32,
    /// The program's call site of the library call now being checked.
    pub(super) caller: usize,
    /// The thread that owns a SINGLE_ISSUER ring (0: not known yet), and
    /// its name when it became the owner.
    pub(super) owner_tid: i32,
    pub(super) owner_name: [u8; 16],
    /// A thread other than the owner of a SINGLE_ISSUER ring submitted to
    /// it (-EEXIST): the SQ side is not the owner's alone (`waiting`).
    pub(super) foreign_submitter: bool,
    pub(super) owner_from_enable: bool,
    pub(super) pid: i32,
    pub(super) fork_gen: u32,
    pub(super) sq_cursor: u32,
    pub(super) cq_cursor: u32,
    /// The `DETOUR_*` reasons why the submit hook's fast path leaves this
    /// ring to the general code (0: it takes it), in one byte so that one
    /// test answers; `lost()` is one of them.
    pub(super) detour: u8,
    /// No setup flag takes the ring off the fast walks (`SLOW_SETUP`).
    pub(super) simple: bool,
    pub(super) in_flight: u32,
    pub(super) reported: u32,
    pub(super) peeks_idle: u32,
    pub(super) overflow_last: u32,
    pub(super) cur_chain: u32,
    /// A member of the current chain had IOSQE_CQE_SKIP_SUCCESS: when one
    /// such fails, the kernel posts no CQE for the members after it.
    pub(super) chain_skip: bool,
    pub(super) next_chain: u32,
    pub(super) chain_pos: u16,
    /// A multishot request that ended: user_data, opcode, fd, result
    /// (set through `set_ended`).
    pub(super) ended: Option<(u64, u8, i32, i32)>,
    /// A user_data submitted while one of its value was in flight: the
    /// value, the new opcode, the old one.
    pub(super) suspect: Option<(u64, u8, u8)>,
    /// CQEs may come that the counts do not owe: a request was left
    /// unfollowed (its CQE skipped on success), or a CQE of no request
    /// followed arrived (another ring's message, say) (`waits.rs`).
    pub(super) uncounted: bool,
    /// The last linked SQE seen (user_data, opcode), and whether a walk
    /// ended with its chain still open (`links.rs`).
    pub(super) last_linked: (u64, u8),
    pub(super) link_left_open: bool,
    /// DEFER_TASKRUN: the owner entered the kernel for completions since
    /// its last submit (`deferred.rs`).
    pub(super) events_entered: bool,
    /// DEFER_TASKRUN: a copy of the program's `struct io_uring` as set up
    /// (or last changed), for the look at process exit (`deferred.rs`):
    /// the program's own struct may be gone by then (main's frame), its
    /// pointers into the ring's mapping are not. Valid once
    /// `shape_copied`.
    pub(super) shape: io_uring,
    pub(super) shape_copied: bool,
    pub(super) groups: [(u16, u32); GROUP_SLOTS],
    /// Per buffer group, the buffers its requests' CQEs took (`buf_taken`).
    pub(super) buf_taken: [(u16, u32); buf_taken::SLOTS],
    /// Per buffer group, what was put in it (`pbuf_groups`).
    pub(super) pbuf_groups: [pbuf_groups::Group; pbuf_groups::SLOTS],
    pub(super) chains: [Chain; CHAIN_SLOTS],
    /// Per bucket, a bit per slot holding a request in flight.
    pub(super) occupied: [u8; BUCKETS],
    pub(super) reqs: [Req; REQ_SLOTS],
}

impl RingCheck {
    /// The in-flight counts were given up.
    pub(super) fn lost(&self) -> bool {
        self.detour & DETOUR_LOST != 0
    }
    pub(super) fn set_lost(&mut self) {
        self.detour |= DETOUR_LOST;
    }
    pub(super) fn set_ended(&mut self, ended: Option<(u64, u8, i32, i32)>) {
        self.ended = ended;
        if ended.is_some() {
            self.detour |= DETOUR_ENDED;
        } else {
            self.detour &= !DETOUR_ENDED;
        }
    }
    /// The calling thread becomes the ring's owner.
    pub(super) fn set_owner_here(&mut self) {
        self.owner_tid = gettid();
        self.owner_name = this_thread_name();
        self.detour &= !DETOUR_OWNER;
    }
}

pub(super) struct Slot {
    pub(super) ring: AtomicUsize,
    pub(super) rec: AtomicPtr<RingCheck>,
    /// The record's `id`, for a finding made while another thread has the
    /// record checked out (`concurrent_submit.rs`): written before the
    /// record is first stored (Release), read after a failed check-out.
    pub(super) id: AtomicU32,
    /// The thread that has the record checked out is in a submit call's
    /// hook (`concurrent_submit.rs`, which says why Relaxed is enough).
    pub(super) submitting: AtomicBool,
    /// `concurrent-submit` was reported for the slot's ring.
    pub(super) overlap_reported: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
const FREE: Slot = Slot {
    ring: AtomicUsize::new(0),
    rec: AtomicPtr::new(null_mut()),
    id: AtomicU32::new(0),
    submitting: AtomicBool::new(false),
    overlap_reported: AtomicBool::new(false),
};
pub(super) static SLOTS: [Slot; MAX_RINGS] = [FREE; MAX_RINGS];

/// A ring's record checked out of its slot by this thread (the same
/// hand-over as the trace's table: Acquire swap out, Release back). Two
/// words, passed in registers: the submit hook's fast path hands it on to
/// a continuation in a tail call.
pub(super) struct CheckedOut {
    slot: &'static Slot,
    rec: NonNull<RingCheck>,
}

impl CheckedOut {
    /// `ring`'s record, unless it is not followed or checked out already.
    #[inline(always)]
    pub(super) fn take(ring: usize) -> Option<CheckedOut> {
        let slot = SLOTS
            .iter()
            .find(|s| s.ring.load(Ordering::Relaxed) == ring)?;
        let rec = NonNull::new(slot.rec.swap(null_mut(), Ordering::Acquire))?;
        Some(CheckedOut { slot, rec })
    }

    #[inline(always)]
    pub(super) fn rec(&mut self) -> &mut RingCheck {
        // SAFETY: checked out by the swap in `take`: this thread's alone
        // until `put_back` stores it again.
        unsafe { self.rec.as_mut() }
    }

    /// This thread is in a submit call's hook while it holds the record
    /// (`concurrent_submit.rs`).
    #[inline(always)]
    pub(super) fn mark_submitting(&self) {
        self.slot.submitting.store(true, Ordering::Relaxed);
    }

    #[inline(always)]
    pub(super) fn put_back(self) {
        // Before the Release store: a thread whose check-out then fails
        // sees no submit hook of ours that has ended.
        self.slot.submitting.store(false, Ordering::Relaxed);
        self.slot.rec.store(self.rec.as_ptr(), Ordering::Release);
    }
}

/// Runs `f` on `ring`'s record when this thread can check it out.
pub(super) fn with_ring<R>(ring: usize, f: impl FnOnce(&mut RingCheck) -> R) -> Option<R> {
    let mut out = CheckedOut::take(ring)?;
    let r = f(out.rec());
    out.put_back();
    Some(r)
}

/// A record taken out of the table for good: when dropped its memory is
/// given back, and then its slot (whose index the memory belongs to).
pub(super) struct Removed {
    slot: &'static Slot,
    rec: Option<Record<RingCheck>>,
}

impl Drop for Removed {
    fn drop(&mut self) {
        drop(self.rec.take());
        self.slot.ring.store(0, Ordering::Release);
    }
}

/// Takes `ring`'s record out of the table for good.
pub(super) fn remove(ring: usize) -> Option<Removed> {
    let slot = SLOTS
        .iter()
        .find(|s| s.ring.load(Ordering::Relaxed) == ring)?;
    let rec = NonNull::new(slot.rec.swap(null_mut(), Ordering::Acquire))?;
    // SAFETY: a record is put in a slot only from `Record::into_raw`, and
    // the swap above took it out for good.
    let rec = Some(unsafe { Record::from_raw(Kind::Check, rec) });
    Some(Removed { slot, rec })
}
