// SPDX-License-Identifier: MIT
//! Ring geometry: the one place that knows how big a ring is and where its
//! parts sit. Entry counts the kernel will choose, SQE and CQE sizes
//! (shifts), the memory a ring needs, the SQ index array's placement rule,
//! and mapping and unmapping the kernel's rings into a `struct io_uring`.
//! Setup, resize and the queue read it; nothing here keeps state.

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::null_mut;

use crate::structs::{io_uring, io_uring_cq, io_uring_sq};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    io_uring_cqe, io_uring_params, io_uring_sqe, IORING_FEAT_SINGLE_MMAP, IORING_OFF_CQ_RING,
    IORING_OFF_SQES, IORING_OFF_SQ_RING, IORING_SETUP_CLAMP, IORING_SETUP_CQE32,
    IORING_SETUP_CQSIZE, IORING_SETUP_NO_SQARRAY, IORING_SETUP_SQE128,
};

/// The largest SQ the kernel creates; more needs `IORING_SETUP_CLAMP`.
pub const KERN_MAX_ENTRIES: u32 = 32768;
/// The largest CQ the kernel creates; more needs `IORING_SETUP_CLAMP`.
pub const KERN_MAX_CQ_ENTRIES: u32 = 2 * KERN_MAX_ENTRIES;
/// What liburing budgets for the ring header (heads, tails, masks, flags)
/// when it sizes ring memory itself.
const RING_HEADER_BUDGET: usize = 64;
// ---------------------------------------------------------------------------
// Pure size arithmetic
// ---------------------------------------------------------------------------

/// log2 of the SQE slots one 64-byte SQE takes (1 with `IORING_SETUP_SQE128`).
#[inline]
pub const fn sqe_shift(setup_flags: u32) -> u32 {
    (setup_flags & IORING_SETUP_SQE128 != 0) as u32
}

/// log2 of the CQE slots one 16-byte CQE takes (1 with `IORING_SETUP_CQE32`).
#[inline]
pub const fn cqe_shift(setup_flags: u32) -> u32 {
    (setup_flags & IORING_SETUP_CQE32 != 0) as u32
}

/// Bytes of the SQE array for `sqes` entries under `setup_flags`.
/// (The count is shifted as a 32-bit value, as liburing does.)
#[inline]
pub const fn sqe_array_bytes(setup_flags: u32, sqes: u32) -> usize {
    (sqes << sqe_shift(setup_flags)) as usize * size_of::<io_uring_sqe>()
}

/// Bytes of the CQE array for `cqes` entries under `setup_flags`.
#[inline]
pub const fn cqe_array_bytes(setup_flags: u32, cqes: u32) -> usize {
    (cqes << cqe_shift(setup_flags)) as usize * size_of::<io_uring_cqe>()
}

#[inline]
pub const fn page_round(n: usize, page_size: usize) -> usize {
    (n + page_size - 1) & !(page_size - 1)
}

/// The SQ and CQ sizes the kernel will choose for `entries` given the setup
/// flags and the `cq_entries` the application asked for (used only with
/// `IORING_SETUP_CQSIZE`). Mirrors the kernel's own validation.
pub fn ring_entries(entries: u32, setup_flags: u32, cq_entries: u32) -> SysResult<(u32, u32)> {
    let clamp = setup_flags & IORING_SETUP_CLAMP != 0;
    if entries == 0 {
        return Err(Errno::EINVAL);
    }
    let sq = if entries > KERN_MAX_ENTRIES {
        if !clamp {
            return Err(Errno::EINVAL);
        }
        KERN_MAX_ENTRIES
    } else {
        entries
    }
    .next_power_of_two();

    let cq = if setup_flags & IORING_SETUP_CQSIZE != 0 {
        if cq_entries == 0 {
            return Err(Errno::EINVAL);
        }
        let wanted = if cq_entries > KERN_MAX_CQ_ENTRIES {
            if !clamp {
                return Err(Errno::EINVAL);
            }
            KERN_MAX_CQ_ENTRIES
        } else {
            cq_entries
        };
        let cq = wanted.next_power_of_two();
        if cq < sq {
            return Err(Errno::EINVAL);
        }
        cq
    } else {
        2 * sq
    };
    Ok((sq, cq))
}

/// How an `IORING_SETUP_NO_MMAP` ring is laid out in memory: the SQE array
/// first (page aligned), the rings right after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoMmapLayout {
    /// Bytes for the SQE array, rounded up to whole pages.
    pub sqes_mem: usize,
    /// Bytes for the header, CQEs and (unless `NO_SQARRAY`) the SQ array.
    pub ring_mem: usize,
    /// `sqes_mem + ring_mem` rounded up to whole pages: what
    /// `io_uring_queue_init_mem` reports as used.
    pub mem_used: usize,
}

/// Lays out a `NO_MMAP` ring of `entries` under `setup_flags`/`cq_entries`.
pub fn no_mmap_layout(
    entries: u32,
    setup_flags: u32,
    cq_entries: u32,
    page_size: usize,
) -> SysResult<NoMmapLayout> {
    let (sq, cq) = ring_entries(entries, setup_flags, cq_entries)?;
    let sqes_mem = page_round(sqe_array_bytes(setup_flags, sq), page_size);
    let mut ring_mem = RING_HEADER_BUDGET + cqe_array_bytes(setup_flags, cq);
    if setup_flags & IORING_SETUP_NO_SQARRAY == 0 {
        ring_mem += sq as usize * size_of::<u32>();
    }
    let mem_used = page_round(sqes_mem + ring_mem, page_size);
    Ok(NoMmapLayout {
        sqes_mem,
        ring_mem,
        mem_used,
    })
}

/// Memory a ring of `entries` needs under `setup_flags`/`cq_entries`: the
/// rings (header, CQEs, SQ array) and the SQEs, each rounded to whole pages.
/// This is `io_uring_memory_size_params`.
pub fn memory_size_for(
    entries: u32,
    setup_flags: u32,
    cq_entries: u32,
    page_size: usize,
) -> SysResult<usize> {
    // The clamp of `entries` happens inside ring_entries, exactly as the
    // separate early check in liburing would (same bound, same error).
    let (sq, cq) = ring_entries(entries, setup_flags, cq_entries)?;
    let mut rings = cqe_array_bytes(setup_flags, cq) + RING_HEADER_BUDGET;
    if setup_flags & IORING_SETUP_NO_SQARRAY == 0 {
        rings += sq as usize * size_of::<u32>();
    }
    let sqes = sqe_array_bytes(setup_flags, sq);
    Ok(page_round(rings, page_size) + page_round(sqes, page_size))
}

/// `io_uring_memory_size_params`.
pub fn memory_size_params(entries: u32, p: &io_uring_params) -> SysResult<usize> {
    memory_size_for(entries, p.flags, p.cq_entries, syscall::page_size())
}

/// `io_uring_memory_size`.
pub fn memory_size(entries: u32, setup_flags: u32) -> SysResult<usize> {
    memory_size_for(entries, setup_flags, 0, syscall::page_size())
}

/// The kernel aligns the SQ index array (and its ring sections) to this.
pub const CACHE_LINE: usize = 64;

/// Bytes of one SQE slot group for a ring with these setup flags.
#[inline]
pub fn sqe_bytes(setup_flags: u32) -> usize {
    sqe_array_bytes(setup_flags, 1)
}

/// Where the kernel puts a ring's SQ index array: right after the CQEs,
/// cache-line aligned (its `rings_size`). `io_uring_setup` reports this in
/// `sq_off.array`, but a resize leaves that field 0 while the kernel still
/// reads a fresh, zeroed array there; liburing 2.15 then identity-fills
/// "offset 0", over the ring's head and tail. Resizing checks this rule
/// against the offset the kernel reported at setup before relying on it.
pub fn sq_array_offset(setup_flags: u32, cqes_off: usize, cq_entries: u32) -> usize {
    (cqes_off + cqe_array_bytes(setup_flags, cq_entries)).next_multiple_of(CACHE_LINE)
}

// ---------------------------------------------------------------------------
// Blank structures
// ---------------------------------------------------------------------------

/// An all-zero `io_uring_sq` (what liburing's memset leaves).
pub const fn empty_sq() -> io_uring_sq {
    io_uring_sq {
        khead: null_mut(),
        ktail: null_mut(),
        kring_mask: null_mut(),
        kring_entries: null_mut(),
        kflags: null_mut(),
        kdropped: null_mut(),
        array: null_mut(),
        sqes: null_mut(),
        sqe_head: 0,
        sqe_tail: 0,
        ring_sz: 0,
        ring_ptr: null_mut(),
        ring_mask: 0,
        ring_entries: 0,
        sqes_sz: 0,
        pad: 0,
    }
}

/// An all-zero `io_uring_cq`.
pub const fn empty_cq() -> io_uring_cq {
    io_uring_cq {
        khead: null_mut(),
        ktail: null_mut(),
        kring_mask: null_mut(),
        kring_entries: null_mut(),
        kflags: null_mut(),
        koverflow: null_mut(),
        cqes: null_mut(),
        ring_sz: 0,
        ring_ptr: null_mut(),
        ring_mask: 0,
        ring_entries: 0,
        pad: [0; 2],
    }
}

/// An all-zero `io_uring` (fd 0, no mappings): the state every setup path
/// starts from.
/// A `struct io_uring` that holds nothing: no mapping and no descriptor
/// (-1). What a failed setup leaves and what `io_uring_queue_exit` leaves,
/// so that a cleanup call after either closes nothing of the program's
/// (liburing leaves `ring_fd` 0 there, and closes the program's stdin).
pub const fn closed_ring() -> io_uring {
    let mut r = empty_ring();
    r.ring_fd = -1;
    r.enter_ring_fd = -1;
    r
}

pub const fn empty_ring() -> io_uring {
    io_uring {
        sq: empty_sq(),
        cq: empty_cq(),
        flags: 0,
        ring_fd: 0,
        features: 0,
        enter_ring_fd: 0,
        int_flags: 0,
        pad: [0; 3],
        pad2: 0,
    }
}

// ---------------------------------------------------------------------------
// Mapping the kernel's rings
// ---------------------------------------------------------------------------

/// `base + off` as a typed pointer (no dereference, so no unsafety).
#[inline]
fn field_at<T>(base: *mut c_void, off: u32) -> *mut T {
    base.cast::<u8>().wrapping_add(off as usize).cast()
}

/// Maps `len` bytes of the ring fd at `offset`, shared and pre-faulted.
fn map_ring_region(fd: i32, len: usize, offset: u64) -> SysResult<*mut c_void> {
    // SAFETY: a fresh mapping at an address of the kernel's choosing cannot
    // overlap live memory.
    unsafe {
        syscall::mmap(
            null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_POPULATE,
            fd,
            offset,
        )
    }
}

/// Points every kernel-shared field of `sq`/`cq` into the ring memory at
/// `sq.ring_ptr`/`cq.ring_ptr`, using the offsets the kernel reported in
/// `p`, and caches the ring masks and sizes (`io_uring_setup_ring_pointers`).
///
/// `sq.array` is only set when the ring has an SQ array, and `cq.kflags`
/// only when the kernel reported a CQ flags offset; both keep their
/// previous value otherwise.
///
/// # Safety
/// `sq.ring_ptr` and `cq.ring_ptr` must be the live ring memory of the ring
/// `p` describes (as filled by `io_uring_setup`).
pub unsafe fn setup_ring_pointers(p: &io_uring_params, sq: &mut io_uring_sq, cq: &mut io_uring_cq) {
    let so = &p.sq_off;
    sq.khead = field_at(sq.ring_ptr, so.head);
    sq.ktail = field_at(sq.ring_ptr, so.tail);
    sq.kring_mask = field_at(sq.ring_ptr, so.ring_mask);
    sq.kring_entries = field_at(sq.ring_ptr, so.ring_entries);
    sq.kflags = field_at(sq.ring_ptr, so.flags);
    sq.kdropped = field_at(sq.ring_ptr, so.dropped);
    if p.flags & IORING_SETUP_NO_SQARRAY == 0 {
        sq.array = field_at(sq.ring_ptr, so.array);
    }

    let co = &p.cq_off;
    cq.khead = field_at(cq.ring_ptr, co.head);
    cq.ktail = field_at(cq.ring_ptr, co.tail);
    cq.kring_mask = field_at(cq.ring_ptr, co.ring_mask);
    cq.kring_entries = field_at(cq.ring_ptr, co.ring_entries);
    cq.koverflow = field_at(cq.ring_ptr, co.overflow);
    cq.cqes = field_at(cq.ring_ptr, co.cqes);
    if co.flags != 0 {
        cq.kflags = field_at(cq.ring_ptr, co.flags);
    }

    // SAFETY: the caller guarantees the ring memory is live; the kernel
    // writes masks and sizes once at setup (or under a quiesced resize), so
    // plain reads are enough.
    unsafe {
        sq.ring_mask = sq.kring_mask.read();
        sq.ring_entries = sq.kring_entries.read();
        cq.ring_mask = cq.kring_mask.read();
        cq.ring_entries = cq.kring_entries.read();
    }
}

/// Unmaps the SQ and CQ ring memory (not the SQE array): the SQ ring if it
/// has a size, the CQ ring if it is a separate mapping with a size
/// (`io_uring_unmap_rings`). Unmap failures are ignored.
///
/// # Safety
/// The mappings `sq`/`cq` describe must be unused from now on.
pub unsafe fn unmap_rings(sq: &io_uring_sq, cq: &io_uring_cq) {
    if sq.ring_sz != 0 {
        // SAFETY: the caller hands the mapping over.
        let _ = unsafe { syscall::munmap(sq.ring_ptr, sq.ring_sz) };
    }
    if !cq.ring_ptr.is_null() && cq.ring_sz != 0 && cq.ring_ptr != sq.ring_ptr {
        // SAFETY: as above, for the separate CQ mapping.
        let _ = unsafe { syscall::munmap(cq.ring_ptr, cq.ring_sz) };
    }
}

/// Maps the rings and SQE array of ring `fd`, which the kernel described in
/// `p`, and fills `sq`/`cq` (`io_uring_mmap`). On failure everything mapped
/// so far is unmapped again.
///
/// With `IORING_FEAT_SINGLE_MMAP` both rings share one mapping, sized for
/// the larger of the two; `sqes_sz` is the SQE array's size.
pub fn mmap_rings(
    fd: i32,
    p: &io_uring_params,
    sq: &mut io_uring_sq,
    cq: &mut io_uring_cq,
) -> SysResult<()> {
    sq.ring_sz = p.sq_off.array as usize + p.sq_entries as usize * size_of::<u32>();
    cq.ring_sz = p.cq_off.cqes as usize + cqe_array_bytes(p.flags, p.cq_entries);
    let single = p.features & IORING_FEAT_SINGLE_MMAP != 0;
    if single {
        sq.ring_sz = sq.ring_sz.max(cq.ring_sz);
        cq.ring_sz = sq.ring_sz;
    }

    sq.ring_ptr = map_ring_region(fd, sq.ring_sz, IORING_OFF_SQ_RING)?;
    if single {
        cq.ring_ptr = sq.ring_ptr;
    } else {
        match map_ring_region(fd, cq.ring_sz, IORING_OFF_CQ_RING) {
            Ok(ptr) => cq.ring_ptr = ptr,
            Err(e) => {
                cq.ring_ptr = null_mut();
                // SAFETY: only this function has seen the SQ mapping.
                unsafe { unmap_rings(sq, cq) };
                return Err(e);
            }
        }
    }

    let sqes = sqe_array_bytes(p.flags, p.sq_entries);
    sq.sqes_sz = sqes as u32;
    // A size that does not fit the 32-bit field cannot be described.
    let mapped = if sq.sqes_sz as usize == sqes {
        map_ring_region(fd, sqes, IORING_OFF_SQES)
    } else {
        Err(Errno::EINVAL)
    };
    match mapped {
        Ok(ptr) => sq.sqes = ptr.cast(),
        Err(e) => {
            // SAFETY: only this function has seen the ring mappings.
            unsafe { unmap_rings(sq, cq) };
            return Err(e);
        }
    }

    // This function is safe to call with any `p`: the four values read
    // below must lie, aligned, inside the mappings, which the kernel makes
    // whole pages (a ring without an SQ array can compute a ring_sz smaller
    // than the offsets it legitimately uses). Anything else is refused
    // rather than read out of bounds.
    let page = syscall::page_size();
    let inside = |off: u32, len: usize| {
        off % 4 == 0 && off as usize + size_of::<u32>() <= page_round(len, page)
    };
    let (so, co) = (&p.sq_off, &p.cq_off);
    if !(inside(so.ring_mask, sq.ring_sz)
        && inside(so.ring_entries, sq.ring_sz)
        && inside(co.ring_mask, cq.ring_sz)
        && inside(co.ring_entries, cq.ring_sz))
    {
        // SAFETY: only this function has seen the mappings.
        unsafe {
            let _ = syscall::munmap(sq.sqes.cast(), sqes);
            unmap_rings(sq, cq);
        }
        return Err(Errno::EINVAL);
    }

    // SAFETY: both ring pointers are the live mappings made above, and the
    // fields read are inside them.
    unsafe { setup_ring_pointers(p, sq, cq) };
    Ok(())
}

#[cfg(test)]
pub mod tests;
