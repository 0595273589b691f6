// SPDX-License-Identifier: MIT
//! The ring lifecycle: creating a ring (`io_uring_queue_init*`, including
//! `IORING_SETUP_NO_MMAP` memory), resizing it, registering its own fd, and
//! tearing it down. Sizes, offsets and mappings come from
//! [`crate::geometry`]; registration calls go through the typed
//! [`crate::register::register_with`]. The ring-fd calls keep
//! `enter_ring_fd` and the private `int_flags` in step with the kernel;
//! resizing remaps the new rings and refills the ring struct, preserving the
//! application's private SQ counters.
//!
//! Everything here reproduces liburing 2.15's observable behaviour: which
//! `struct io_uring` fields hold what after setup, how the kernel's memory
//! is mapped (one mapping with `IORING_FEAT_SINGLE_MMAP`, a separate SQE
//! array), how `IORING_SETUP_NO_MMAP` rings are placed in application or
//! library-allocated (possibly huge-page) memory, and the errors returned.

use core::ffi::c_void;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicU32, Ordering};

use crate::geometry::{
    empty_cq, empty_ring, empty_sq, memory_size_params, mmap_rings, no_mmap_layout, ring_entries,
    setup_ring_pointers, sq_array_offset, sqe_array_bytes, sqe_bytes, unmap_rings,
};
use crate::register::{register_with, RegOp};
use crate::ring::LiveRing;
use crate::structs::{int_flags, io_uring, io_uring_cq, io_uring_sq};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    io_uring_params, io_uring_rsrc_update, IORING_FEAT_NATIVE_WORKERS, IORING_FEAT_NO_IOWAIT,
    IORING_FEAT_REG_REG_RING, IORING_FEAT_SINGLE_MMAP, IORING_REGISTER_RESIZE_RINGS,
    IORING_REGISTER_RING_FDS, IORING_SETUP_CLAMP, IORING_SETUP_CQSIZE, IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_IOPOLL, IORING_SETUP_NO_MMAP, IORING_SETUP_NO_SQARRAY,
    IORING_SETUP_REGISTERED_FD_ONLY, IORING_SETUP_SQPOLL, IORING_UNREGISTER_RING_FDS,
};

/// The huge page size liburing assumes for `IORING_SETUP_NO_MMAP` rings.
pub const HUGE_PAGE_SIZE: usize = 2 * 1024 * 1024;
/// `MAP_HUGE_2MB`: log2(2 MiB) in the mmap huge-page-size bits.
const MAP_HUGE_2MB: i32 = 21 << 26;

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
    if ring.int_flags & int_flags::APP_MEM == 0 && !ring.sq.ring_ptr.is_null() {
        // SAFETY: the caller hands the ring's mappings over.
        unsafe { release_library_memory(ring) };
    }
    // Freeing the slot now rather than at exit is a courtesy; errors are moot.
    if ring.int_flags & int_flags::REG_RING != 0 {
        let _ = unregister_ring_fd(ring);
    }
    if ring.ring_fd != -1 {
        let _ = syscall::close(ring.ring_fd);
    }
    // A second io_uring_queue_exit finds nothing to unmap or close (a
    // deliberate difference from liburing, which unmaps and closes again).
    *ring = crate::geometry::closed_ring();
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

// ---------------------------------------------------------------------------
// The ring fd
// ---------------------------------------------------------------------------

/// `io_uring_register_ring_fd`: registers the ring's own fd so
/// `io_uring_enter` can skip the fd lookup. Returns 1 (one fd registered).
///
/// From then on the ring enters through the index; with
/// `IORING_FEAT_REG_REG_RING`, registration calls use it too.
pub fn register_ring_fd(ring: &mut io_uring) -> SysResult<i32> {
    if ring.int_flags & int_flags::REG_RING != 0 {
        return Err(Errno::EEXIST);
    }
    // offset -1: let the kernel pick the slot and report it back.
    let mut up = io_uring_rsrc_update {
        offset: u32::MAX,
        resv: 0,
        data: i64::from(ring.ring_fd) as u64,
    };
    let ret = register_with(&*ring, RING_FDS, &mut up)?;
    if ret == 1 {
        ring.enter_ring_fd = up.offset as i32;
        ring.int_flags |= int_flags::REG_RING;
        if ring.features & IORING_FEAT_REG_REG_RING != 0 {
            ring.int_flags |= int_flags::REG_REG_RING;
        }
    }
    Ok(ret)
}

/// `io_uring_unregister_ring_fd`: drops the registered index and goes back to
/// entering through `ring_fd`. Returns 1.
pub fn unregister_ring_fd(ring: &mut io_uring) -> SysResult<i32> {
    if ring.int_flags & int_flags::REG_RING == 0 {
        return Err(Errno::EINVAL);
    }
    let mut up = io_uring_rsrc_update {
        offset: ring.enter_ring_fd as u32,
        resv: 0,
        data: 0,
    };
    let ret = register_with(&*ring, UNREGISTER_RING_FDS, &mut up)?;
    if ret == 1 {
        ring.enter_ring_fd = ring.ring_fd;
        ring.int_flags &= !(int_flags::REG_RING | int_flags::REG_REG_RING);
    }
    Ok(ret)
}

/// `io_uring_close_ring_fd`: closes the real fd of a ring whose fd is
/// registered, so only the index reaches it. Returns 1.
pub fn close_ring_fd(ring: &mut io_uring) -> SysResult<i32> {
    if ring.features & IORING_FEAT_REG_REG_RING == 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    if ring.int_flags & int_flags::REG_RING == 0 {
        return Err(Errno::EINVAL);
    }
    if ring.ring_fd == -1 {
        return Err(Errno::EBADF);
    }
    let _ = syscall::close(ring.ring_fd);
    ring.ring_fd = -1;
    Ok(1)
}

/// One update, read and written back (`offset`).
// SAFETY: with nr_args 1 one update; its `data` is an fd number here.
const RING_FDS: RegOp<io_uring_rsrc_update> = unsafe { RegOp::new(IORING_REGISTER_RING_FDS, 1) };
/// One update, read; only `offset` is used.
// SAFETY: with nr_args 1 one update; nothing in it is dereferenced.
const UNREGISTER_RING_FDS: RegOp<io_uring_rsrc_update> =
    unsafe { RegOp::new(IORING_UNREGISTER_RING_FDS, 1) };
/// The new sizes, read, and the offsets written back.
// SAFETY: one `io_uring_params`; no addresses in it.
const RESIZE_RINGS: RegOp<io_uring_params> = unsafe { RegOp::new(IORING_REGISTER_RESIZE_RINGS, 1) };

// ---------------------------------------------------------------------------
// Resizing
// ---------------------------------------------------------------------------

/// The `io_uring_params::flags` a resize request may carry.
const RESIZE_REQUEST_FLAGS: u32 = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;

/// `io_uring_resize_rings`: asks the kernel for rings of the sizes in `p`,
/// then maps the new rings and points `ring` at them.
///
/// The kernel carries over submitted-but-unconsumed SQEs and unreaped CQEs.
/// The library carries over the application's private SQ counters and
/// (beyond liburing) the SQEs it has handed out but not yet submitted. If
/// those SQEs together with the ones the kernel still holds would not fit
/// the new SQ, the call fails with `EOVERFLOW` before the kernel resizes,
/// leaving the ring as it was (a kernel that refuses the request anyway,
/// such as one without resizing, gives its own error, as with liburing) (liburing would resize and lose them; the
/// kernel answers `EOVERFLOW` itself for CQEs that do not fit).
///
/// `p.flags` is cleared on return, success or not, as liburing does
/// (except for the `IORING_SETUP_NO_MMAP` refusal). Refused up front: rings
/// whose memory the application provided (`IORING_SETUP_NO_MMAP`,
/// `EINVAL`, as liburing) and rings whose fd was closed (`EBADF`: the new
/// rings could not be mapped; liburing would resize in the kernel and then
/// fail to map them).
///
/// # Safety
/// `ring` must be a ring set up by this library (its mappings are unmapped
/// and replaced), used by no other call meanwhile.
pub unsafe fn resize_rings(ring: &mut io_uring, p: &mut io_uring_params) -> SysResult<()> {
    // Refused before anything is touched, `p` included (as liburing).
    if ring.flags & IORING_SETUP_NO_MMAP != 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: forwarded caller guarantee.
    let ret = unsafe { resize_inner(ring, p) };
    p.flags = 0;
    ret
}

/// Whether the SQEs the application holds (submitted but not consumed by
/// the kernel, and handed out but not submitted) fit the SQ the kernel would
/// make for `p`. Requests the kernel will refuse anyway (a ring without
/// DEFER_TASKRUN, unknown flags, bad sizes) pass, so its error stays the
/// answer.
fn pending_sqes_fit(ring: &io_uring, p: &io_uring_params) -> bool {
    if ring.flags & IORING_SETUP_DEFER_TASKRUN == 0 || p.flags & !RESIZE_REQUEST_FLAGS != 0 {
        return true;
    }
    let Ok((new_sq, _)) = ring_entries(p.sq_entries, p.flags, p.cq_entries) else {
        return true;
    };
    let sq = &ring.sq;
    // SAFETY: a live ring's khead/ktail are aligned u32s of its mapping,
    // accessed atomically. Acquire on the head: see crate::ring. The tail is
    // our own store (no SQPOLL with DEFER_TASKRUN), so Relaxed.
    let (khead, ktail) = unsafe {
        (
            AtomicU32::from_ptr(sq.khead).load(Ordering::Acquire),
            AtomicU32::from_ptr(sq.ktail).load(Ordering::Relaxed),
        )
    };
    let in_kernel = ktail.wrapping_sub(khead);
    let unsubmitted = sq.sqe_tail.wrapping_sub(sq.sqe_head);
    u64::from(in_kernel) + u64::from(unsubmitted) <= u64::from(new_sq)
}

/// Whether the kernel accepts a resize request on `ring` up to the point
/// where it reads the new sizes (`Ok`), or the error it refuses it with. It
/// is handed an unreadable page: a kernel that knows the opcode and lets
/// this task resize fails the copy with `EFAULT`, having changed nothing.
/// Any other answer is what a real request would get first (`EINVAL` from a
/// kernel without `IORING_REGISTER_RESIZE_RINGS`). A plain system call, not
/// [`crate::register::register`]: the observers hear of the real request,
/// not of this question.
fn kernel_would_resize(ring: &io_uring) -> SysResult<()> {
    let page = 4096;
    // SAFETY: a fresh private anonymous mapping clobbers nothing.
    let Ok(blocked) = (unsafe {
        syscall::mmap(
            null_mut(),
            page,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    }) else {
        return Ok(());
    };
    // SAFETY: the kernel can read nothing at a PROT_NONE page: it fails the
    // copy and keeps no reference to the address.
    let r = unsafe {
        syscall::io_uring_register(
            ring.ring_fd as u32,
            IORING_REGISTER_RESIZE_RINGS,
            blocked.cast_const(),
            1,
        )
    };
    // SAFETY: the mapping made above, used by nothing else.
    let _ = unsafe { syscall::munmap(blocked, page) };
    match r {
        Err(Errno::EFAULT) => Ok(()),
        Err(e) => Err(e),
        // Nothing readable was given: a success would be no answer at all.
        Ok(_) => Ok(()),
    }
}

/// # Safety
/// As for [`resize_rings`].
unsafe fn resize_inner(ring: &mut io_uring, p: &mut io_uring_params) -> SysResult<()> {
    if ring.ring_fd < 0 {
        return Err(Errno::EBADF);
    }
    // Only a kernel that would go on to resize makes this our answer; one
    // that refuses the request first (none before 6.13, a restricted ring,
    // another task's SINGLE_ISSUER ring) is asked below, as liburing asks
    // it, and its error is the answer.
    if !pending_sqes_fit(ring, p) && kernel_would_resize(ring).is_ok() {
        return Err(Errno::EOVERFLOW);
    }
    p.sq_off = Default::default();
    p.cq_off = Default::default();
    // A ring with an SQ index array needs to know where the kernel puts
    // the new one, which it does not report after a resize (see
    // `sq_array_offset`): make sure the rule holds for the ring as it is
    // before anything changes.
    let has_sq_array = ring.flags & IORING_SETUP_NO_SQARRAY == 0;
    if has_sq_array {
        let base = ring.sq.ring_ptr as usize;
        let cqes_off = (ring.cq.cqes as usize).wrapping_sub(base);
        let array_off = (ring.sq.array as usize).wrapping_sub(base);
        if ring.cq.ring_ptr != ring.sq.ring_ptr
            || sq_array_offset(ring.flags, cqes_off, ring.cq.ring_entries) != array_off
        {
            // A kernel that refuses the request anyway gives its own error,
            // as liburing's call does: before 6.13 (no resizing) a CQE32
            // ring's SQ array follows an older placement rule (measured on
            // 6.1: large-resize got EOPNOTSUPP here, EINVAL upstream). The
            // real request is not made: were it to resize, the new SQ
            // array could not be found.
            kernel_would_resize(ring)?;
            return Err(Errno::EOPNOTSUPP);
        }
    }
    register_with(&*ring, RESIZE_RINGS, p)?;

    // The kernel leaves `features` as the caller passed it (usually 0);
    // map as the ring's own features say (one mapping for both rings when
    // IORING_FEAT_SINGLE_MMAP), which also sizes the SQ mapping to cover
    // the shared ring header even without an SQ array.
    let mut layout = *p;
    layout.features |= ring.features & IORING_FEAT_SINGLE_MMAP;
    if has_sq_array && layout.sq_off.array == 0 {
        let off = sq_array_offset(ring.flags, p.cq_off.cqes as usize, p.cq_entries);
        // Fits: the kernel has just allocated a ring of this layout.
        layout.sq_off.array = off as u32;
    }
    let mut sq = empty_sq();
    let mut cq = empty_cq();
    mmap_rings(ring.ring_fd, &layout, &mut sq, &mut cq)?;

    // Every unsubmitted SQE fits (checked above): copy them to the slots
    // their indices name in the new array, where the kernel will look.
    let old = &ring.sq;
    let (sqe_head, sqe_tail) = (old.sqe_head, old.sqe_tail);
    let slot = sqe_bytes(ring.flags);
    let mut i = sqe_head;
    while i != sqe_tail {
        let from = old
            .sqes
            .cast::<u8>()
            .wrapping_add((i & old.ring_mask) as usize * slot);
        let to = sq
            .sqes
            .cast::<u8>()
            .wrapping_add((i & sq.ring_mask) as usize * slot);
        // SAFETY: both SQE arrays are live mappings of `ring_entries` slots
        // of `slot` bytes (the old one until unmapped below); the indexes are
        // masked into range. The kernel reads no SQE past the tail it was
        // given, so the unsubmitted ones are ours to copy.
        unsafe { ptr::copy_nonoverlapping(from, to, slot) };
        i = i.wrapping_add(1);
    }

    // SAFETY: the old mappings are the library's own (caller guarantee) and
    // nothing refers to them once `ring` points at the new ones (right after).
    unsafe {
        let _ = syscall::munmap(ring.sq.sqes.cast(), ring.sq.sqes_sz as usize);
        unmap_rings(&ring.sq, &ring.cq);
    }
    sq.sqe_head = sqe_head;
    sq.sqe_tail = sqe_tail;
    if p.flags & IORING_SETUP_NO_SQARRAY == 0 {
        // SAFETY: the new SQ array has `p.sq_entries` slots; the kernel reads
        // it only when told about new SQEs, so identity-filling it now is
        // race-free.
        unsafe {
            for i in 0..p.sq_entries {
                sq.array.add(i as usize).write(i);
            }
        }
    }
    ring.sq = sq;
    ring.cq = cq;
    Ok(())
}

#[cfg(test)]
mod tests;

/// Registering the ring fd and resizing, on real rings.
#[cfg(test)]
mod ring_fd_and_resize_tests;
