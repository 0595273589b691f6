// SPDX-License-Identifier: MIT
//! The diagnostics' own memory: one range of addresses reserved at attach,
//! before the program's `main`, and never the program's allocator.
//!
//! So a hook may run in a signal handler that interrupted `malloc`, or in a
//! process whose heap is corrupt; and a program that limits its address
//! space (`RLIMIT_AS`) once it runs has as much room as it would have
//! without the diagnostics: what they use later comes out of the range
//! already counted. The range is reserved without access (`PROT_NONE`,
//! no memory committed); a ring's record is made readable and writable
//! when the ring is set up and given back (its pages freed) when it is
//! torn down. (The trace file's mapping is made at attach too, see
//! `crate::output::trace_file`.)
//!
//! The range goes at the last detach, unless the process is exiting.

use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// Rings followed at once, by the trace and by the checker each.
pub const MAX_RINGS: usize = 64;

/// The kinds of per-ring record, each with its part of the range.
#[derive(Clone, Copy)]
pub enum Kind {
    Trace = 0,
    Check = 1,
}

#[derive(Clone, Copy)]
struct Layout {
    /// The reserved range (0: none).
    base: usize,
    len: usize,
    page: usize,
    /// Each kind's record size (page-rounded) and offset in the range (0
    /// size: that kind was not asked for).
    records: [(usize, usize); 2],
}

struct SetAtAttach(UnsafeCell<Layout>);

// SAFETY: written only by `reserve` and `release`, when no hook can run
// (the first attach, the last detach; see lib.rs), read-only in between.
unsafe impl Sync for SetAtAttach {}

static LAYOUT: SetAtAttach = SetAtAttach(UnsafeCell::new(Layout {
    base: 0,
    len: 0,
    page: 4096,
    records: [(0, 0); 2],
}));

fn layout() -> Layout {
    // SAFETY: see `SetAtAttach`.
    unsafe { *LAYOUT.0.get() }
}

/// Miri (`make check-miri`) maps memory readable and writable only
/// (private, anonymous, nothing more), and knows neither `mprotect` nor
/// `madvise`: there the range is open from the start and a record is
/// zeroed when it is claimed.
const OPEN_FROM_THE_START: bool = cfg!(miri);

fn round_up(n: usize, page: usize) -> usize {
    n.div_ceil(page) * page
}

/// Reserves the range at attach: `trace` and `check` bytes per record of
/// each kind (0: not asked for). False when the kernel refuses (an address
/// space limit already lower than that): the diagnostics then do without
/// records.
pub fn reserve(trace: usize, check: usize) -> bool {
    // SAFETY: sysconf has no preconditions.
    let page = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as usize;
    let trace = round_up(trace, page);
    let check = round_up(check, page);
    let Some(len) = trace
        .checked_add(check)
        .and_then(|r| r.checked_mul(MAX_RINGS))
    else {
        return false;
    };
    if len == 0 {
        return true;
    }
    // SAFETY: a new private anonymous mapping without access, no hint.
    let p = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            len,
            if OPEN_FROM_THE_START {
                libc::PROT_READ | libc::PROT_WRITE
            } else {
                libc::PROT_NONE
            },
            if OPEN_FROM_THE_START {
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS
            } else {
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE
            },
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return false;
    }
    let l = Layout {
        base: p as usize,
        len,
        page,
        records: [(trace, 0), (check, trace * MAX_RINGS)],
    };
    // SAFETY: see `SetAtAttach`: no hook runs yet.
    unsafe { *LAYOUT.0.get() = l };
    true
}

/// Unmaps the range (the last detach; never at exit, where other threads
/// may still be in a hook).
pub fn release() {
    let l = layout();
    if l.base != 0 {
        // SAFETY: the range `reserve` mapped; no hook uses it any more.
        unsafe { libc::munmap(l.base as *mut libc::c_void, l.len) };
    }
    // SAFETY: see `SetAtAttach`.
    unsafe {
        *LAYOUT.0.get() = Layout {
            base: 0,
            len: 0,
            page: l.page,
            records: [(0, 0); 2],
        }
    };
}

/// The record of ring slot `index` of `kind`, made writable and zeroed;
/// given back (its pages freed) when dropped. `T` must be valid as
/// all-zero bytes and fit the size reserved for `kind`.
pub struct Record<T> {
    ptr: NonNull<T>,
    len: usize,
    _owns: PhantomData<T>,
}

// SAFETY: a `Record<T>` owns its `T` as a `Box<T>` would.
unsafe impl<T: Send> Send for Record<T> {}

impl<T> Record<T> {
    /// Slot `index`'s record, or `None` (no range, a slot beyond
    /// [`MAX_RINGS`], or the kernel refused the memory). The caller holds
    /// the slot, so nobody else uses this record meanwhile.
    pub fn claim(kind: Kind, index: usize) -> Option<Record<T>> {
        let l = layout();
        let (size, offset) = *l.records.get(kind as usize)?;
        if l.base == 0 || index >= MAX_RINGS || core::mem::size_of::<T>() > size {
            return None;
        }
        let at = l.base + offset + index * size;
        if OPEN_FROM_THE_START {
            // SAFETY: a part of our range, open, that no record uses (the
            // caller holds its slot).
            unsafe { core::ptr::write_bytes(at as *mut u8, 0, size) };
        } else {
            let rw = libc::PROT_READ | libc::PROT_WRITE;
            // SAFETY: a page-aligned part of our reserved range; its pages
            // are fresh or were freed by `drop` (MADV_DONTNEED): zero.
            if unsafe { libc::mprotect(at as *mut libc::c_void, size, rw) } != 0 {
                return None;
            }
        }
        Some(Record {
            ptr: NonNull::new(at as *mut T)?,
            len: size,
            _owns: PhantomData,
        })
    }

    /// Gives the record up as a raw pointer (to a table slot); take it
    /// back with [`Record::from_raw`].
    pub fn into_raw(self) -> NonNull<T> {
        let me = core::mem::ManuallyDrop::new(self);
        me.ptr
    }

    /// # Safety
    /// `ptr` came from [`Record::into_raw`] of kind `kind`, and is given
    /// back once.
    pub unsafe fn from_raw(kind: Kind, ptr: NonNull<T>) -> Record<T> {
        let len = layout().records.get(kind as usize).map_or(0, |r| r.0);
        Record {
            ptr,
            len,
            _owns: PhantomData,
        }
    }
}

impl<T> core::ops::Deref for Record<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: a writable, zero-initialised part of the range holding
        // one `T` (which accepts zero bytes), owned by `self`.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T> core::ops::DerefMut for Record<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as for `deref`, and `&mut self` is the only access.
        unsafe { self.ptr.as_mut() }
    }
}

impl<T> Drop for Record<T> {
    fn drop(&mut self) {
        if OPEN_FROM_THE_START {
            return;
        }
        let at = self.ptr.as_ptr().cast::<libc::c_void>();
        // SAFETY: our record's pages, which nothing refers to any more:
        // freed (read back as zero) and closed again.
        unsafe {
            libc::madvise(at, self.len, libc::MADV_DONTNEED);
            libc::mprotect(at, self.len, libc::PROT_NONE);
        }
    }
}
