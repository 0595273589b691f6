// SPDX-License-Identifier: MIT
//! Creating, mapping and tearing down rings.
//!
//! Everything here reproduces liburing 2.15's observable behaviour: which
//! `struct io_uring` fields hold what after setup, how the kernel's memory
//! is mapped (one mapping with `IORING_FEAT_SINGLE_MMAP`, a separate SQE
//! array), how `IORING_SETUP_NO_MMAP` rings are placed in application or
//! library-allocated (possibly huge-page) memory, and the errors returned.
//!
//! The pure size arithmetic (ring sizes for given entries and flags) lives in
//! small functions at the top so it can be tested without a kernel.

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::{self, null_mut};

use crate::ring::LiveRing;
use crate::structs::{int_flags, io_uring, io_uring_cq, io_uring_sq};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    io_uring_cqe, io_uring_params, io_uring_sqe, IORING_FEAT_NATIVE_WORKERS, IORING_FEAT_NO_IOWAIT,
    IORING_FEAT_SINGLE_MMAP, IORING_OFF_CQ_RING, IORING_OFF_SQES, IORING_OFF_SQ_RING,
    IORING_SETUP_CLAMP, IORING_SETUP_CQE32, IORING_SETUP_CQSIZE, IORING_SETUP_IOPOLL,
    IORING_SETUP_NO_MMAP, IORING_SETUP_NO_SQARRAY, IORING_SETUP_REGISTERED_FD_ONLY,
    IORING_SETUP_SQE128, IORING_SETUP_SQPOLL,
};

/// The largest SQ the kernel creates; more needs `IORING_SETUP_CLAMP`.
pub const KERN_MAX_ENTRIES: u32 = 32768;
/// The largest CQ the kernel creates; more needs `IORING_SETUP_CLAMP`.
pub const KERN_MAX_CQ_ENTRIES: u32 = 2 * KERN_MAX_ENTRIES;
/// What liburing budgets for the ring header (heads, tails, masks, flags)
/// when it sizes ring memory itself.
const RING_HEADER_BUDGET: usize = 64;
/// The huge page size liburing assumes for `IORING_SETUP_NO_MMAP` rings.
pub const HUGE_PAGE_SIZE: usize = 2 * 1024 * 1024;
/// `MAP_HUGE_2MB`: log2(2 MiB) in the mmap huge-page-size bits.
const MAP_HUGE_2MB: i32 = 21 << 26;

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
const fn page_round(n: usize, page_size: usize) -> usize {
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

/// `io_uring_mlock_size_params`: 0 on kernels whose rings are charged to the
/// memory cgroup instead of `RLIMIT_MEMLOCK` (`IORING_FEAT_NATIVE_WORKERS`,
/// found out by setting up a throwaway ring), else the ring memory size.
/// `p` is only needed for the latter (`EINVAL` without one).
pub fn mlock_size_params(entries: u32, p: Option<&io_uring_params>) -> SysResult<usize> {
    let mut probe_params = io_uring_params::default();
    let mut ring = empty_ring();
    if queue_init_params(entries, &mut ring, &mut probe_params).is_ok() {
        // SAFETY: `ring` was just set up by queue_init_params and is not
        // used afterwards.
        unsafe { queue_exit(&mut ring) };
    }
    // On failure the kernel did not write back the params, so `features`
    // is still 0 and the memlock size is reported, as liburing does.
    if probe_params.features & IORING_FEAT_NATIVE_WORKERS != 0 {
        return Ok(0);
    }
    memory_size_params(entries, p.ok_or(Errno::EINVAL)?)
}

/// `io_uring_mlock_size`.
pub fn mlock_size(entries: u32, setup_flags: u32) -> SysResult<usize> {
    let p = io_uring_params {
        flags: setup_flags,
        ..Default::default()
    };
    mlock_size_params(entries, Some(&p))
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

/// An all-zero `io_uring_params`.
pub fn zeroed_params() -> io_uring_params {
    io_uring_params::default()
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

/// `io_uring_queue_mmap`: resets `ring`, maps the rings of `fd` as `p`
/// describes, and on success records the flags, features and fd.
pub fn queue_mmap(fd: i32, p: &io_uring_params, ring: &mut io_uring) -> SysResult<()> {
    *ring = empty_ring();
    mmap_rings(fd, p, &mut ring.sq, &mut ring.cq)?;
    ring.flags = p.flags;
    ring.features = p.features;
    ring.ring_fd = fd;
    ring.enter_ring_fd = fd;
    Ok(())
}

// ---------------------------------------------------------------------------
// IORING_SETUP_NO_MMAP memory
// ---------------------------------------------------------------------------

/// Anonymous shared memory for `need` bytes: one page if that is enough,
/// else one 2 MiB huge page. Returns the mapping and its length.
fn map_anon_for(need: usize, page_size: usize) -> SysResult<(*mut c_void, usize)> {
    let (len, huge) = if need <= page_size {
        (page_size, 0)
    } else {
        (HUGE_PAGE_SIZE, libc::MAP_HUGETLB | MAP_HUGE_2MB)
    };
    // SAFETY: a fresh anonymous mapping cannot overlap live memory.
    let ptr = unsafe {
        syscall::mmap(
            null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS | huge,
            -1,
            0,
        )
    }?;
    Ok((ptr, len))
}

/// Provides the memory of a `NO_MMAP` ring and tells the kernel where it is
/// (`p.sq_off.user_addr`/`p.cq_off.user_addr`).
///
/// With a `buf`, the SQEs go at its start and the rings after them; nothing
/// is recorded as mapped (`sqes_sz` and both `ring_sz` are 0). Without one,
/// the SQEs get their own page or huge page (`sqes_sz` is its length); the
/// rings share it when they fit, else get a mapping of their own recorded in
/// `sq.ring_sz`. Returns the bytes the layout uses.
///
/// # Safety
/// `buf`, if not null, must be `buf_size` writable, zeroed, page-aligned
/// bytes that stay valid for the ring's life.
unsafe fn provide_no_mmap_memory(
    entries: u32,
    p: &mut io_uring_params,
    sq: &mut io_uring_sq,
    cq: &mut io_uring_cq,
    buf: *mut c_void,
    buf_size: usize,
) -> SysResult<usize> {
    let page_size = syscall::page_size();
    let layout = no_mmap_layout(entries, p.flags, p.cq_entries, page_size)?;

    let (base, sqes_len, room) = if buf.is_null() {
        // Each part must fit one huge page (a maxed CQE32 CQ does not).
        if layout.sqes_mem > HUGE_PAGE_SIZE || layout.ring_mem > HUGE_PAGE_SIZE {
            return Err(Errno::ENOMEM);
        }
        let (ptr, len) = map_anon_for(layout.sqes_mem, page_size)?;
        (ptr, len, len)
    } else {
        if layout.mem_used > buf_size {
            return Err(Errno::ENOMEM);
        }
        (buf, 0, buf_size)
    };

    sq.sqes = base.cast();
    sq.sqes_sz = sqes_len as u32;
    if layout.mem_used <= room {
        sq.ring_ptr = base.cast::<u8>().wrapping_add(layout.sqes_mem).cast();
        sq.ring_sz = 0;
        cq.ring_sz = 0;
    } else {
        match map_anon_for(layout.ring_mem, page_size) {
            Ok((ptr, len)) => {
                sq.ring_ptr = ptr;
                sq.ring_sz = len;
                cq.ring_sz = 0;
            }
            Err(e) => {
                if sqes_len != 0 {
                    // SAFETY: the SQE mapping was made above and is not
                    // referenced anywhere else yet.
                    let _ = unsafe { syscall::munmap(base, sqes_len) };
                }
                return Err(e);
            }
        }
    }
    cq.ring_ptr = sq.ring_ptr;
    p.sq_off.user_addr = sq.sqes as u64;
    p.cq_off.user_addr = sq.ring_ptr as u64;
    Ok(layout.mem_used)
}

// ---------------------------------------------------------------------------
// Setup and teardown
// ---------------------------------------------------------------------------

/// One setup attempt with exactly `p.flags` (`__io_uring_queue_init_params`).
///
/// Returns the bytes of memory used for a `NO_MMAP` ring, else 0.
///
/// # Safety
/// As for [`queue_init_mem`] when `buf` is not null.
pub unsafe fn queue_init_once(
    entries: u32,
    ring: &mut io_uring,
    p: &mut io_uring_params,
    buf: *mut c_void,
    buf_size: usize,
) -> SysResult<usize> {
    *ring = empty_ring();
    let no_mmap = p.flags & IORING_SETUP_NO_MMAP != 0;

    // A ring with no fd can only be used if it was never to be mmap()ed.
    if p.flags & IORING_SETUP_REGISTERED_FD_ONLY != 0 && !no_mmap {
        return Err(Errno::EINVAL);
    }

    let mut used = 0;
    if no_mmap {
        // SAFETY: the caller vouches for `buf`.
        used = unsafe {
            provide_no_mmap_memory(entries, p, &mut ring.sq, &mut ring.cq, buf, buf_size)
        }?;
        if !buf.is_null() {
            ring.int_flags |= int_flags::APP_MEM;
        }
    }

    // SAFETY: `p` is a live, writable io_uring_params.
    let fd = match unsafe { syscall::io_uring_setup(entries, ptr::from_mut(p).cast()) } {
        Ok(fd) => fd,
        Err(e) => {
            if no_mmap && ring.int_flags & int_flags::APP_MEM == 0 {
                // SAFETY: the memory was mapped just above for this ring
                // only, and the kernel refused it.
                unsafe { release_library_memory(ring) };
            }
            return Err(e);
        }
    };

    if no_mmap {
        // SAFETY: the ring memory was provided above and the kernel has
        // just initialised it as `p` describes.
        unsafe { setup_ring_pointers(p, &mut ring.sq, &mut ring.cq) };
    } else if let Err(e) = queue_mmap(fd, p, ring) {
        let _ = syscall::close(fd);
        return Err(e);
    }

    // Without NO_SQARRAY, slot i of the SQ array names SQE i for good.
    if p.flags & IORING_SETUP_NO_SQARRAY == 0 {
        for i in 0..ring.sq.ring_entries {
            // SAFETY: the SQ array has `ring_entries` slots in live ring
            // memory; the kernel reads it only after a submission.
            unsafe { ring.sq.array.add(i as usize).write(i) };
        }
    }

    ring.features = p.features;
    ring.flags = p.flags;
    ring.enter_ring_fd = fd;
    if p.flags & IORING_SETUP_REGISTERED_FD_ONLY != 0 {
        ring.ring_fd = -1;
        ring.int_flags |= int_flags::REG_RING | int_flags::REG_REG_RING;
    } else {
        ring.ring_fd = fd;
    }
    // Polled I/O completes only when someone polls: unless an SQPOLL thread
    // does it, looking for completions has to enter the kernel.
    if ring.flags & (IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL) == IORING_SETUP_IOPOLL {
        ring.int_flags |= int_flags::CQ_ENTER;
    }
    Ok(used)
}

/// Sets up with `IORING_SETUP_NO_SQARRAY` added; if the kernel rejects that
/// with `EINVAL` and the caller had not asked for it, tries again without.
///
/// # Safety
/// As for [`queue_init_once`].
unsafe fn queue_init_prefer_no_sqarray(
    entries: u32,
    ring: &mut io_uring,
    p: &mut io_uring_params,
    buf: *mut c_void,
    buf_size: usize,
) -> SysResult<usize> {
    let asked = p.flags;
    p.flags |= IORING_SETUP_NO_SQARRAY;
    // SAFETY: forwarded caller guarantee.
    let first = unsafe { queue_init_once(entries, ring, p, buf, buf_size) };
    if first != Err(Errno::EINVAL) || asked & IORING_SETUP_NO_SQARRAY != 0 {
        return first;
    }
    p.flags = asked;
    // SAFETY: forwarded caller guarantee.
    unsafe { queue_init_once(entries, ring, p, buf, buf_size) }
}

/// `io_uring_queue_init_mem`: sets up a `NO_MMAP` ring in the application's
/// `buf` (the library maps the memory itself if `buf` is null) and returns
/// the number of bytes of it the ring uses.
///
/// # Safety
/// `buf`, if not null, must be `buf_size` writable, zeroed, page-aligned
/// bytes that outlive the ring (the library never unmaps them).
pub unsafe fn queue_init_mem(
    entries: u32,
    ring: &mut io_uring,
    p: &mut io_uring_params,
    buf: *mut c_void,
    buf_size: usize,
) -> SysResult<usize> {
    p.flags |= IORING_SETUP_NO_MMAP;
    // SAFETY: forwarded caller guarantee.
    unsafe { queue_init_prefer_no_sqarray(entries, ring, p, buf, buf_size) }
}

/// `io_uring_queue_init_params`. The kernel's answer is written back to
/// `p` (including `IORING_SETUP_NO_SQARRAY` in `p.flags` when it was used).
pub fn queue_init_params(
    entries: u32,
    ring: &mut io_uring,
    p: &mut io_uring_params,
) -> SysResult<()> {
    // SAFETY: no application memory is involved (null buffer).
    unsafe { queue_init_prefer_no_sqarray(entries, ring, p, null_mut(), 0) }.map(|_| ())
}

/// `io_uring_queue_init`.
pub fn queue_init(entries: u32, ring: &mut io_uring, setup_flags: u32) -> SysResult<()> {
    let mut p = io_uring_params {
        flags: setup_flags,
        ..Default::default()
    };
    queue_init_params(entries, ring, &mut p)
}

/// Unmaps the memory the library mapped for `ring`: the SQE array and the
/// ring mappings.
///
/// # Safety
/// The mappings must be the ring's own and unused from now on.
unsafe fn release_library_memory(ring: &io_uring) {
    // SAFETY: the caller hands the mappings over. A zero-length unmap (no
    // SQE mapping recorded) fails harmlessly, as in liburing.
    unsafe {
        let _ = syscall::munmap(ring.sq.sqes.cast(), ring.sq.sqes_sz as usize);
        unmap_rings(&ring.sq, &ring.cq);
    }
}

/// `io_uring_queue_exit`: unmaps the library's mappings (never application
/// memory), drops the registered ring slot, and closes the ring fd.
///
/// # Safety
/// `ring` must have been set up by this library and must not be used again.
pub unsafe fn queue_exit(ring: &mut io_uring) {
    if ring.int_flags & int_flags::APP_MEM == 0 {
        // SAFETY: the caller hands the ring's mappings over.
        unsafe { release_library_memory(ring) };
    }
    // Freeing the slot now rather than at exit is a courtesy; errors are moot.
    if ring.int_flags & int_flags::REG_RING != 0 {
        let _ = crate::register::unregister_ring_fd(ring);
    }
    if ring.ring_fd != -1 {
        let _ = syscall::close(ring.ring_fd);
    }
}

/// `io_uring_ring_dontfork`: keeps the ring memory out of forked children.
/// A ring without mappings (a zeroed struct) gets `EINVAL`.
pub fn ring_dontfork(ring: LiveRing) -> SysResult<()> {
    let (sq_ring, sq_ring_sz) = ring.sq_ring_mapping();
    let (cq_ring, cq_ring_sz) = ring.cq_ring_mapping();
    let sqes = ring.sqes();
    if sq_ring.is_null() || sqes.is_null() || cq_ring.is_null() {
        return Err(Errno::EINVAL);
    }
    let sqes_len = sqe_array_bytes(ring.flags(), ring.sq_entries());
    // SAFETY: MADV_DONTFORK changes neither the contents nor the mapping in
    // this process (only what a child inherits); the kernel checks the ranges.
    unsafe {
        syscall::madvise(sqes.cast(), sqes_len, libc::MADV_DONTFORK)?;
        syscall::madvise(sq_ring, sq_ring_sz, libc::MADV_DONTFORK)?;
        if cq_ring != sq_ring {
            syscall::madvise(cq_ring, cq_ring_sz, libc::MADV_DONTFORK)?;
        }
    }
    Ok(())
}

/// `io_uring_set_iowait`: whether waits on this ring count as iowait.
/// Needs `IORING_FEAT_NO_IOWAIT` (else `EOPNOTSUPP`).
pub fn set_iowait(ring: &mut io_uring, enable_iowait: bool) -> SysResult<()> {
    if ring.features & IORING_FEAT_NO_IOWAIT == 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    if enable_iowait {
        ring.int_flags &= !int_flags::NO_IOWAIT;
    } else {
        ring.int_flags |= int_flags::NO_IOWAIT;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uapi::IORING_SETUP_REGISTERED_FD_ONLY as FD_ONLY;

    const PAGE: usize = 4096;
    const SQE128: u32 = IORING_SETUP_SQE128;
    const CQE32: u32 = IORING_SETUP_CQE32;
    const NOSQ: u32 = IORING_SETUP_NO_SQARRAY;
    const CLAMP: u32 = IORING_SETUP_CLAMP;
    const CQSIZE: u32 = IORING_SETUP_CQSIZE;

    fn as_c(r: SysResult<usize>) -> i64 {
        match r {
            Ok(n) => n as i64,
            Err(e) => -(e.0 as i64),
        }
    }

    // (entries, flags, io_uring_memory_size) measured from upstream
    // liburing 2.15 (4 KiB pages).
    const MEMORY_SIZE: &[(u32, u32, i64)] = &[
        (0, 0, -22),
        (1, 0, 8192),
        (8, 0, 8192),
        (100, 0, 16384),
        (1000, 0, 106496),
        (4096, 0, 413696),
        (32768, 0, 3280896),
        (32769, 0, -22),
        (65536, 0, -22),
        (0, SQE128, -22),
        (1, SQE128, 8192),
        (8, SQE128, 8192),
        (100, SQE128, 24576),
        (1000, SQE128, 172032),
        (4096, SQE128, 675840),
        (32768, SQE128, 5378048),
        (32769, SQE128, -22),
        (1, CQE32, 8192),
        (64, CQE32, 12288),
        (100, CQE32, 20480),
        (1000, CQE32, 139264),
        (4096, CQE32, 544768),
        (5000, CQE32, 1085440),
        (32768, CQE32, 4329472),
        (65536, CQE32, -22),
        (1, SQE128 | CQE32, 8192),
        (64, SQE128 | CQE32, 16384),
        (100, SQE128 | CQE32, 28672),
        (1000, SQE128 | CQE32, 204800),
        (4096, SQE128 | CQE32, 806912),
        (32768, SQE128 | CQE32, 6426624),
        (0, NOSQ, -22),
        (1, NOSQ, 8192),
        (100, NOSQ, 16384),
        (1000, NOSQ, 102400),
        (4096, NOSQ, 397312),
        (32768, NOSQ, 3149824),
        (32769, NOSQ, -22),
        (100, NOSQ | CQE32, 20480),
        (1000, NOSQ | CQE32, 135168),
        (4096, NOSQ | CQE32, 528384),
        (32768, NOSQ | CQE32, 4198400),
        (0, CLAMP, -22),
        (100, CLAMP, 16384),
        (32768, CLAMP, 3280896),
        (32769, CLAMP, 3280896),
        (65536, CLAMP, 3280896),
        (65536, CLAMP | CQE32 | SQE128, 6426624),
    ];

    // (entries, flags, cq_entries, io_uring_memory_size_params) from upstream.
    const MEMORY_SIZE_CQ: &[(u32, u32, u32, i64)] = &[
        (8, CQSIZE, 0, -22),
        (8, CQSIZE, 1, -22),
        (8, CQSIZE, 8, 8192),
        (8, CQSIZE, 9, 8192),
        (8, CQSIZE, 1024, 24576),
        (8, CQSIZE, 65536, 1056768),
        (8, CQSIZE, 65537, -22),
        (100, CQSIZE, 100, 12288),
        (100, CQSIZE, 9, -22),
        (100, CQSIZE, 65536, 1060864),
        (32768, CQSIZE, 1024, -22),
        (32768, CQSIZE, 65536, 3280896),
        (65536, CQSIZE, 65536, -22),
        (8, CQSIZE | CLAMP, 200000, 1056768),
        (100, CQSIZE | CLAMP, 65537, 1060864),
        (65536, CQSIZE | CLAMP, 65536, 3280896),
        (65536, CQSIZE | CLAMP, 1024, -22),
        (8, CQSIZE | CLAMP | CQE32, 100, 12288),
        (8, CQSIZE | CLAMP | CQE32, 1024, 40960),
        (100, CQSIZE | CLAMP | CQE32, 200000, 2109440),
        (32768, CQSIZE | CLAMP | CQE32, 65537, 4329472),
    ];

    // (entries, flags, io_uring_queue_init_mem result) from upstream, with
    // an 8 MiB buffer; NO_SQARRAY is added by the library on this kernel.
    const INIT_MEM_USED: &[(u32, u32, usize)] = &[
        (1, 0, 8192),
        (2, 0, 8192),
        (8, 0, 8192),
        (64, 0, 8192),
        (100, 0, 16384),
        (128, 0, 16384),
        (256, 0, 28672),
        (1024, 0, 102400),
        (4096, 0, 397312),
        (1, SQE128, 8192),
        (64, SQE128, 12288),
        (100, SQE128, 24576),
        (256, SQE128, 45056),
        (1024, SQE128, 167936),
        (4096, SQE128, 659456),
        (16, CQE32, 8192),
        (64, CQE32, 12288),
        (100, CQE32, 20480),
        (256, CQE32, 36864),
        (1024, CQE32, 135168),
        (4096, CQE32, 528384),
        (64, SQE128 | CQE32, 16384),
        (256, SQE128 | CQE32, 53248),
        (1024, SQE128 | CQE32, 200704),
        (4096, SQE128 | CQE32, 790528),
    ];

    #[test]
    fn memory_size_matches_upstream() {
        for &(entries, flags, want) in MEMORY_SIZE {
            assert_eq!(
                as_c(memory_size_for(entries, flags, 0, PAGE)),
                want,
                "entries {entries} flags {flags:#x}"
            );
        }
        for &(entries, flags, cq, want) in MEMORY_SIZE_CQ {
            assert_eq!(
                as_c(memory_size_for(entries, flags, cq, PAGE)),
                want,
                "{entries} {flags:#x} cq {cq}"
            );
        }
    }

    #[test]
    fn no_mmap_layout_matches_upstream_bytes_used() {
        for &(entries, flags, want) in INIT_MEM_USED {
            let l = no_mmap_layout(entries, flags | NOSQ, 0, PAGE).unwrap();
            assert_eq!(l.mem_used, want, "entries {entries} flags {flags:#x}");
            assert_eq!(l.sqes_mem % PAGE, 0);
        }
    }

    #[test]
    fn ring_entries_rounding_and_limits() {
        assert_eq!(ring_entries(1, 0, 0), Ok((1, 2)));
        assert_eq!(ring_entries(3, 0, 0), Ok((4, 8)));
        assert_eq!(ring_entries(5, CQSIZE, 5), Ok((8, 8)));
        assert_eq!(ring_entries(5, CQSIZE, 4), Err(Errno::EINVAL));
        assert_eq!(ring_entries(5, CQSIZE, 0), Err(Errno::EINVAL));
        assert_eq!(ring_entries(40000, CLAMP, 0), Ok((32768, 65536)));
        assert_eq!(ring_entries(40000, 0, 0), Err(Errno::EINVAL));
        assert_eq!(ring_entries(0, CLAMP, 0), Err(Errno::EINVAL));
    }

    /// Page-aligned zeroed anonymous memory for NO_MMAP tests.
    struct Buf(*mut c_void, usize);
    impl Buf {
        fn new(len: usize) -> Buf {
            // SAFETY: fresh anonymous mapping.
            let p = unsafe {
                syscall::mmap(
                    null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            }
            .unwrap();
            Buf(p, len)
        }
    }
    impl Drop for Buf {
        fn drop(&mut self) {
            // SAFETY: our own mapping, dropped last.
            let _ = unsafe { syscall::munmap(self.0, self.1) };
        }
    }

    fn addr<T>(p: *mut T) -> usize {
        p as usize
    }

    /// Checks every field of `ring` against what the kernel said in `p`.
    fn assert_ring_matches(ring: &io_uring, p: &io_uring_params) {
        let (sq, cq) = (&ring.sq, &ring.cq);
        assert_eq!(ring.flags, p.flags);
        assert_eq!(ring.features, p.features);
        assert_eq!((ring.pad, ring.pad2), ([0; 3], 0));

        let sb = sq.ring_ptr as usize;
        assert_ne!(sb, 0);
        assert_eq!(addr(sq.khead), sb + p.sq_off.head as usize);
        assert_eq!(addr(sq.ktail), sb + p.sq_off.tail as usize);
        assert_eq!(addr(sq.kring_mask), sb + p.sq_off.ring_mask as usize);
        assert_eq!(addr(sq.kring_entries), sb + p.sq_off.ring_entries as usize);
        assert_eq!(addr(sq.kflags), sb + p.sq_off.flags as usize);
        assert_eq!(addr(sq.kdropped), sb + p.sq_off.dropped as usize);
        assert_eq!(sq.ring_entries, p.sq_entries);
        assert_eq!(sq.ring_mask, p.sq_entries - 1);
        assert_eq!((sq.sqe_head, sq.sqe_tail, sq.pad), (0, 0, 0));
        assert!(!sq.sqes.is_null());

        let cb = cq.ring_ptr as usize;
        assert_ne!(cb, 0);
        assert_eq!(addr(cq.khead), cb + p.cq_off.head as usize);
        assert_eq!(addr(cq.ktail), cb + p.cq_off.tail as usize);
        assert_eq!(addr(cq.kring_mask), cb + p.cq_off.ring_mask as usize);
        assert_eq!(addr(cq.kring_entries), cb + p.cq_off.ring_entries as usize);
        assert_eq!(addr(cq.koverflow), cb + p.cq_off.overflow as usize);
        assert_eq!(addr(cq.cqes), cb + p.cq_off.cqes as usize);
        assert_ne!(p.cq_off.flags, 0);
        assert_eq!(addr(cq.kflags), cb + p.cq_off.flags as usize);
        assert_eq!(cq.ring_entries, p.cq_entries);
        assert_eq!(cq.ring_mask, p.cq_entries - 1);
        assert_eq!(cq.pad, [0; 2]);

        // SAFETY: the ring is live; these are the kernel's copies.
        unsafe {
            assert_eq!(*sq.kring_mask, sq.ring_mask);
            assert_eq!(*sq.kring_entries, sq.ring_entries);
            assert_eq!(*cq.kring_mask, cq.ring_mask);
            assert_eq!(*cq.kring_entries, cq.ring_entries);
            assert_eq!((*sq.khead, *sq.ktail, *cq.khead, *cq.ktail), (0, 0, 0, 0));
        }

        if p.flags & NOSQ != 0 {
            assert!(sq.array.is_null());
        } else {
            assert_eq!(addr(sq.array), sb + p.sq_off.array as usize);
            for i in 0..sq.ring_entries {
                // SAFETY: the SQ array has ring_entries slots.
                assert_eq!(unsafe { *sq.array.add(i as usize) }, i);
            }
        }

        if p.flags & IORING_SETUP_NO_MMAP == 0 {
            // Kernel-mapped: sizes from the kernel's offsets, one mapping.
            assert_ne!(p.features & IORING_FEAT_SINGLE_MMAP, 0);
            let sq_sz = p.sq_off.array as usize + p.sq_entries as usize * 4;
            let cq_sz = p.cq_off.cqes as usize + cqe_array_bytes(p.flags, p.cq_entries);
            assert_eq!(sq.ring_sz, sq_sz.max(cq_sz));
            assert_eq!(cq.ring_sz, sq.ring_sz);
            assert_eq!(cq.ring_ptr, sq.ring_ptr);
            assert_eq!(sq.sqes_sz as usize, sqe_array_bytes(p.flags, p.sq_entries));
            assert_eq!(ring.ring_fd, ring.enter_ring_fd);
            assert!(ring.ring_fd >= 0);
        }
        let mut want_int = 0;
        if p.flags & (IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL) == IORING_SETUP_IOPOLL {
            want_int |= int_flags::CQ_ENTER;
        }
        assert_eq!(ring.int_flags & int_flags::CQ_ENTER, want_int);
    }

    fn init_with(entries: u32, flags: u32) -> SysResult<(io_uring, io_uring_params)> {
        let mut ring = empty_ring();
        let mut p = io_uring_params {
            flags,
            ..Default::default()
        };
        queue_init_params(entries, &mut ring, &mut p)?;
        Ok((ring, p))
    }

    #[test]
    fn default_ring_uses_no_sqarray_and_matches_params() {
        let (mut ring, p) = init_with(8, 0).unwrap();
        // This kernel accepts NO_SQARRAY, so the library chose it.
        assert_eq!(p.flags, NOSQ);
        assert_eq!((p.sq_entries, p.cq_entries), (8, 16));
        assert_ring_matches(&ring, &p);
        assert_eq!(ring.int_flags, 0);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn queue_init_rounds_entries() {
        let mut ring = empty_ring();
        queue_init(5, &mut ring, 0).unwrap();
        assert_eq!((ring.sq.ring_entries, ring.cq.ring_entries), (8, 16));
        assert_eq!(ring.flags, NOSQ);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn sq_array_ring_is_identity_mapped() {
        // One attempt without NO_SQARRAY: the classic layout.
        let mut ring = empty_ring();
        let mut p = io_uring_params::default();
        // SAFETY: no application memory.
        let used = unsafe { queue_init_once(16, &mut ring, &mut p, null_mut(), 0) }.unwrap();
        assert_eq!(used, 0);
        assert_eq!(p.flags & NOSQ, 0);
        assert!(!ring.sq.array.is_null());
        assert_ring_matches(&ring, &p);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn einval_retry_restores_flags_unless_no_sqarray_was_asked() {
        // entries == 0 fails both attempts: the retry must have put the
        // caller's flags back.
        let mut ring = empty_ring();
        let mut p = io_uring_params::default();
        assert_eq!(queue_init_params(0, &mut ring, &mut p), Err(Errno::EINVAL));
        assert_eq!(p.flags, 0);
        let mut p = io_uring_params {
            flags: NOSQ,
            ..Default::default()
        };
        assert_eq!(queue_init_params(0, &mut ring, &mut p), Err(Errno::EINVAL));
        assert_eq!(p.flags, NOSQ);
        // An explicit NO_SQARRAY request is kept on success.
        let (mut ring, p) = init_with(4, NOSQ).unwrap();
        assert_eq!(p.flags, NOSQ);
        assert!(ring.sq.array.is_null());
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn big_sqe_and_cqe_rings() {
        for flags in [SQE128, CQE32, SQE128 | CQE32] {
            let (mut ring, p) = init_with(32, flags).unwrap();
            assert_eq!(p.flags, flags | NOSQ);
            assert_ring_matches(&ring, &p);
            let sqe = if flags & SQE128 != 0 { 128 } else { 64 };
            assert_eq!(ring.sq.sqes_sz, 32 * sqe);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
    }

    #[test]
    fn cqsize_ring() {
        let mut ring = empty_ring();
        let mut p = io_uring_params {
            flags: CQSIZE,
            cq_entries: 100,
            ..Default::default()
        };
        queue_init_params(8, &mut ring, &mut p).unwrap();
        assert_eq!((p.sq_entries, p.cq_entries), (8, 128));
        assert_ring_matches(&ring, &p);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
        let mut p = io_uring_params {
            flags: CQSIZE,
            cq_entries: 4,
            ..Default::default()
        };
        assert_eq!(queue_init_params(8, &mut ring, &mut p), Err(Errno::EINVAL));
    }

    #[test]
    fn sqpoll_and_iopoll_rings() {
        match init_with(8, IORING_SETUP_SQPOLL) {
            Ok((mut ring, p)) => {
                assert_ne!(p.flags & IORING_SETUP_SQPOLL, 0);
                assert_ring_matches(&ring, &p);
                assert_eq!(ring.int_flags, 0);
                // SAFETY: set up above, not used again.
                unsafe { queue_exit(&mut ring) };
            }
            Err(e) => println!("SKIP sqpoll: {e:?}"),
        }
        let (mut ring, p) = init_with(8, IORING_SETUP_IOPOLL).unwrap();
        assert_ring_matches(&ring, &p);
        assert_eq!(ring.int_flags, int_flags::CQ_ENTER);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
        if let Ok((mut ring, p)) = init_with(8, IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL) {
            assert_ring_matches(&ring, &p);
            assert_eq!(ring.int_flags, 0);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
    }

    #[test]
    fn init_mem_uses_application_buffer() {
        for &(entries, flags, used) in INIT_MEM_USED.iter().filter(|t| t.0 <= 1024) {
            let buf = Buf::new(1 << 20);
            let mut ring = empty_ring();
            let mut p = io_uring_params {
                flags,
                ..Default::default()
            };
            // SAFETY: `buf` is zeroed, aligned, and outlives the ring.
            let got = unsafe { queue_init_mem(entries, &mut ring, &mut p, buf.0, buf.1) }.unwrap();
            assert_eq!(got, used, "entries {entries} flags {flags:#x}");
            assert_eq!(p.flags, flags | NOSQ | IORING_SETUP_NO_MMAP);
            assert_ring_matches(&ring, &p);
            let l = no_mmap_layout(entries, p.flags, 0, PAGE).unwrap();
            assert_eq!(ring.int_flags, int_flags::APP_MEM);
            assert_eq!(ring.sq.sqes.cast::<c_void>(), buf.0);
            assert_eq!(ring.sq.ring_ptr as usize, buf.0 as usize + l.sqes_mem);
            assert_eq!(ring.cq.ring_ptr, ring.sq.ring_ptr);
            assert_eq!(
                (ring.sq.sqes_sz, ring.sq.ring_sz, ring.cq.ring_sz),
                (0, 0, 0)
            );
            assert_eq!(p.sq_off.user_addr, buf.0 as u64);
            assert_eq!(p.cq_off.user_addr, ring.sq.ring_ptr as u64);
            assert_eq!(ring.ring_fd, ring.enter_ring_fd);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
            // The application's memory is still mapped and writable.
            // SAFETY: `buf` is still our live mapping.
            unsafe { buf.0.cast::<u8>().add(buf.1 - 1).write(1) };
        }
    }

    #[test]
    fn init_mem_too_small_is_enomem() {
        let buf = Buf::new(PAGE);
        let mut ring = empty_ring();
        let mut p = io_uring_params::default();
        // SAFETY: `buf` is zeroed, aligned, and outlives the call.
        let r = unsafe { queue_init_mem(8, &mut ring, &mut p, buf.0, buf.1) };
        assert_eq!(r, Err(Errno::ENOMEM));
    }

    #[test]
    fn no_mmap_without_buffer_maps_its_own_memory() {
        let (mut ring, p) = init_with(8, IORING_SETUP_NO_MMAP).unwrap();
        assert_ring_matches(&ring, &p);
        assert_eq!(ring.int_flags & int_flags::APP_MEM, 0);
        // The SQEs fill their own page; the rings get a second page,
        // recorded in sq.ring_sz only.
        assert_eq!(ring.sq.sqes_sz as usize, PAGE);
        assert_eq!((ring.sq.ring_sz, ring.cq.ring_sz), (PAGE, 0));
        assert_ne!(ring.sq.ring_ptr as usize, ring.sq.sqes as usize + PAGE);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };

        // A ring that needs more than a page wants a huge page.
        match init_with(256, IORING_SETUP_NO_MMAP) {
            Ok((mut ring, p)) => {
                assert_ring_matches(&ring, &p);
                assert_eq!(ring.sq.sqes_sz as usize, HUGE_PAGE_SIZE);
                // SAFETY: set up above, not used again.
                unsafe { queue_exit(&mut ring) };
            }
            Err(e) => assert_eq!(e, Errno::ENOMEM, "no huge pages available"),
        }
    }

    #[test]
    fn registered_fd_only_ring() {
        let mut ring = empty_ring();
        let mut p = io_uring_params {
            flags: FD_ONLY,
            ..Default::default()
        };
        // Without NO_MMAP the library refuses before asking the kernel.
        assert_eq!(queue_init_params(8, &mut ring, &mut p), Err(Errno::EINVAL));

        let mut p = io_uring_params {
            flags: FD_ONLY | IORING_SETUP_NO_MMAP,
            ..Default::default()
        };
        if let Err(e) = queue_init_params(8, &mut ring, &mut p) {
            println!("SKIP registered-fd-only: {e:?}");
            return;
        }
        assert_ring_matches(&ring, &p);
        assert_eq!(ring.ring_fd, -1);
        assert_eq!(
            ring.int_flags,
            int_flags::REG_RING | int_flags::REG_REG_RING
        );
        let slot = ring.enter_ring_fd;
        assert!(slot >= 0);
        // Register opcodes go through the registered slot.
        // SAFETY: a live ring.
        let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
        let probe = crate::probe::get_probe_ring(live).expect("probe through registered ring");
        // SAFETY: from get_probe_ring.
        unsafe { crate::probe::free_probe(probe) };
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };

        // Exit freed the slot: the next such ring on this thread reuses it.
        let mut ring = empty_ring();
        let mut p = io_uring_params {
            flags: FD_ONLY | IORING_SETUP_NO_MMAP,
            ..Default::default()
        };
        queue_init_params(8, &mut ring, &mut p).unwrap();
        assert_eq!(ring.enter_ring_fd, slot);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn queue_mmap_of_raw_setup() {
        let mut p = io_uring_params::default();
        // SAFETY: `p` is a valid params struct.
        let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
        let mut ring = empty_ring();
        ring.int_flags = 0xff; // must be reset
        queue_mmap(fd, &p, &mut ring).unwrap();
        // queue_mmap does not fill the SQ array: check the pointers only.
        assert_eq!(ring.int_flags, 0);
        assert_eq!(ring.ring_fd, fd);
        assert_eq!(ring.enter_ring_fd, fd);
        assert_eq!(ring.sq.ring_mask, 3);
        assert_eq!(
            ring.sq.array as usize,
            ring.sq.ring_ptr as usize + p.sq_off.array as usize
        );
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };

        // A bad fd maps nothing.
        let mut ring = empty_ring();
        assert_eq!(queue_mmap(-1, &p, &mut ring), Err(Errno::EBADF));

        // Offsets pointing outside the mapping are refused, not read.
        let mut p = io_uring_params::default();
        // SAFETY: `p` is a valid params struct.
        let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
        let mut bad = p;
        bad.cq_off.ring_entries = 1 << 30;
        assert_eq!(queue_mmap(fd, &bad, &mut ring), Err(Errno::EINVAL));
        let mut bad = p;
        bad.sq_off.ring_mask = 2;
        assert_eq!(queue_mmap(fd, &bad, &mut ring), Err(Errno::EINVAL));
        queue_mmap(fd, &p, &mut ring).unwrap();
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }

    #[test]
    fn dontfork_and_iowait() {
        let mut empty = empty_ring();
        // SAFETY: a zeroed struct, as bad_args.c passes one: only its null
        // mapping pointers are read.
        let zeroed = unsafe { LiveRing::from_ptr(&mut empty) }.unwrap();
        assert_eq!(ring_dontfork(zeroed), Err(Errno::EINVAL));

        for flags in [0, SQE128 | CQE32] {
            let (mut ring, _) = init_with(8, flags).unwrap();
            // SAFETY: a live ring.
            let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
            assert_eq!(ring_dontfork(live), Ok(()));
            if ring.features & IORING_FEAT_NO_IOWAIT != 0 {
                assert_eq!(set_iowait(&mut ring, false), Ok(()));
                assert_eq!(ring.int_flags, int_flags::NO_IOWAIT);
                assert_eq!(ring.enter_flags(), crate::uapi::IORING_ENTER_NO_IOWAIT);
                assert_eq!(set_iowait(&mut ring, true), Ok(()));
                assert_eq!(ring.int_flags, 0);
            } else {
                assert_eq!(set_iowait(&mut ring, false), Err(Errno::EOPNOTSUPP));
            }
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
        let mut old = empty_ring();
        assert_eq!(set_iowait(&mut old, true), Err(Errno::EOPNOTSUPP));
    }

    #[test]
    fn mlock_size_is_zero_on_native_worker_kernels() {
        let (mut ring, _) = init_with(2, 0).unwrap();
        let native = ring.features & IORING_FEAT_NATIVE_WORKERS != 0;
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
        if native {
            assert_eq!(mlock_size(8, 0), Ok(0));
            assert_eq!(mlock_size(4096, SQE128), Ok(0));
        }
        // A ring that cannot be set up reports the memory size (or its error).
        assert_eq!(mlock_size(0, 0), Err(Errno::EINVAL));
    }
}
