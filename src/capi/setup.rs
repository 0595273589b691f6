//! C entry points for ring setup and teardown, sizing, probing, the
//! version, and the raw system calls.
//!
//! Null pointers where liburing would dereference them give `-EINVAL`
//! (or nothing / NULL for functions without an error return) instead of a
//! crash. The raw syscall wrappers pass pointers to the kernel unchecked,
//! exactly as liburing does, so the kernel's own answer (`-EFAULT`) comes
//! back.

use core::ffi::{c_int, c_uint, c_void};

use super::{ret_bytes, ret_int, ret_size};
use crate::structs::{io_uring, io_uring_cq, io_uring_sq};
use crate::syscall::{self, KERNEL_SIGSET_BYTES};
use crate::uapi::{io_uring_params, io_uring_probe};
use crate::{probe, setup, version};

/// Sets up a ring of at least `entries` SQEs with setup `flags`.
///
/// # Safety
/// `ring` must be null or point to writable memory for a `struct io_uring`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_init(
    entries: c_uint,
    ring: *mut io_uring,
    flags: c_uint,
) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or valid.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    let r = setup::queue_init(entries, ring, flags);
    crate::diag::setup_done("io_uring_queue_init", entries, flags, None, ring, r.err()); // diag hook
    ret_int(r.map(|()| 0))
}

/// Sets up a ring from `p`, which receives the kernel's answer.
///
/// # Safety
/// `ring` and `p` must be null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_init_params(
    entries: c_uint,
    ring: *mut io_uring,
    p: *mut io_uring_params,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(p)) = (unsafe { (ring.as_mut(), p.as_mut()) }) else {
        return -libc::EINVAL;
    };
    let flags = p.flags;
    let r = setup::queue_init_params(entries, ring, p);
    crate::diag::setup_done(
        "io_uring_queue_init_params",
        entries,
        flags,
        Some(p),
        ring,
        r.err(),
    ); // diag hook
    ret_int(r.map(|()| 0))
}

/// Sets up an `IORING_SETUP_NO_MMAP` ring in `buf`; returns the bytes used.
///
/// # Safety
/// `ring` and `p` must be null or valid for writing; `buf`, if not null,
/// `buf_size` zeroed, page-aligned bytes that outlive the ring.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_init_mem(
    entries: c_uint,
    ring: *mut io_uring,
    p: *mut io_uring_params,
    buf: *mut c_void,
    buf_size: libc::size_t,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(p)) = (unsafe { (ring.as_mut(), p.as_mut()) }) else {
        return -libc::EINVAL;
    };
    let flags = p.flags;
    // SAFETY: the caller vouches for `buf`.
    let r = unsafe { setup::queue_init_mem(entries, ring, p, buf, buf_size) };
    crate::diag::setup_done(
        "io_uring_queue_init_mem",
        entries,
        flags,
        Some(p),
        ring,
        r.err(),
    ); // diag hook
    ret_bytes(r)
}

/// One setup attempt with exactly `p->flags` (liburing-internal, linked by
/// its tests). Returns the bytes used for `NO_MMAP` rings, else 0.
///
/// # Safety
/// As for [`io_uring_queue_init_mem`].
#[no_mangle]
pub unsafe extern "C" fn __io_uring_queue_init_params(
    entries: c_uint,
    ring: *mut io_uring,
    p: *mut io_uring_params,
    buf: *mut c_void,
    buf_size: libc::size_t,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(ring), Some(p)) = (unsafe { (ring.as_mut(), p.as_mut()) }) else {
        return -libc::EINVAL;
    };
    let flags = p.flags;
    // SAFETY: the caller vouches for `buf`.
    let r = unsafe { setup::queue_init_once(entries, ring, p, buf, buf_size) };
    crate::diag::setup_done(
        "__io_uring_queue_init_params",
        entries,
        flags,
        Some(p),
        ring,
        r.err(),
    ); // diag hook
    ret_bytes(r)
}

/// Maps the rings of an fd from `io_uring_setup(2)` into `ring`.
///
/// # Safety
/// `p` must be null or the params `io_uring_setup` filled for `fd`; `ring`
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_mmap(
    fd: c_int,
    p: *mut io_uring_params,
    ring: *mut io_uring,
) -> c_int {
    // SAFETY: the caller guarantees both pointers are null or valid.
    let (Some(p), Some(ring)) = (unsafe { (p.as_ref(), ring.as_mut()) }) else {
        return -libc::EINVAL;
    };
    let r = setup::queue_mmap(fd, p, ring);
    crate::diag::setup_done(
        "io_uring_queue_mmap",
        p.sq_entries,
        p.flags,
        Some(p),
        ring,
        r.err(),
    ); // diag hook
    ret_int(r.map(|()| 0))
}

/// Tears a ring down: unmaps, unregisters the ring fd, closes.
///
/// # Safety
/// `ring` must be null or a ring set up by this library, not used again.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_exit(ring: *mut io_uring) {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    if let Some(ring) = unsafe { ring.as_mut() } {
        crate::diag::ring_exit(ring); // diag hook (LIBURING_TRACE summary)
                                      // SAFETY: as above; the caller gives the ring up.
        unsafe { setup::queue_exit(ring) };
    }
}

/// Keeps the ring memory out of `fork(2)` children.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_ring_dontfork(ring: *mut io_uring) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_ref() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: as above.
    ret_int(unsafe { setup::ring_dontfork(ring) }.map(|()| 0))
}

/// `RLIMIT_MEMLOCK` bytes a ring would need (0 on current kernels).
#[no_mangle]
pub extern "C" fn io_uring_mlock_size(entries: c_uint, flags: c_uint) -> libc::ssize_t {
    ret_size(setup::mlock_size(entries, flags))
}

/// [`io_uring_mlock_size`] with full params.
///
/// # Safety
/// `p` must be null or point to a readable `struct io_uring_params`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_mlock_size_params(
    entries: c_uint,
    p: *mut io_uring_params,
) -> libc::ssize_t {
    // SAFETY: the caller guarantees `p` is null or valid.
    let Some(p) = (unsafe { p.as_ref() }) else {
        return -(libc::EINVAL as libc::ssize_t);
    };
    ret_size(setup::mlock_size_params(entries, p))
}

/// Bytes of ring memory (rings and SQEs) a ring would use.
#[no_mangle]
pub extern "C" fn io_uring_memory_size(entries: c_uint, flags: c_uint) -> libc::ssize_t {
    ret_size(setup::memory_size(entries, flags))
}

/// [`io_uring_memory_size`] with full params.
///
/// # Safety
/// `p` must be null or point to a readable `struct io_uring_params`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_memory_size_params(
    entries: c_uint,
    p: *mut io_uring_params,
) -> libc::ssize_t {
    // SAFETY: the caller guarantees `p` is null or valid.
    let Some(p) = (unsafe { p.as_ref() }) else {
        return -(libc::EINVAL as libc::ssize_t);
    };
    ret_size(setup::memory_size_params(entries, p))
}

/// The opcodes `ring` supports, or NULL. Release with `io_uring_free_probe`
/// (or `free`).
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_probe_ring(ring: *mut io_uring) -> *mut io_uring_probe {
    // SAFETY: the caller guarantees `ring` is null or a live ring.
    let Some(ring) = (unsafe { ring.as_ref() }) else {
        return core::ptr::null_mut();
    };
    probe::get_probe_ring(ring).unwrap_or(core::ptr::null_mut())
}

/// The opcodes the kernel supports, or NULL.
#[no_mangle]
pub extern "C" fn io_uring_get_probe() -> *mut io_uring_probe {
    probe::get_probe().unwrap_or(core::ptr::null_mut())
}

/// Frees a probe (NULL is fine).
///
/// # Safety
/// `probe` must be null or a probe from this library, not used again.
#[no_mangle]
pub unsafe extern "C" fn io_uring_free_probe(probe: *mut io_uring_probe) {
    // SAFETY: forwarded caller guarantee.
    unsafe { probe::free_probe(probe) }
}

/// Turns iowait accounting of waits on `ring` on or off.
///
/// # Safety
/// `ring` must be null or point to a `struct io_uring`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_set_iowait(ring: *mut io_uring, enable_iowait: bool) -> c_int {
    // SAFETY: the caller guarantees `ring` is null or valid.
    let Some(ring) = (unsafe { ring.as_mut() }) else {
        return -libc::EINVAL;
    };
    ret_int(setup::set_iowait(ring, enable_iowait).map(|()| 0))
}

/// The library's major version.
#[no_mangle]
pub extern "C" fn io_uring_major_version() -> c_int {
    version::major()
}

/// The library's minor version.
#[no_mangle]
pub extern "C" fn io_uring_minor_version() -> c_int {
    version::minor()
}

/// True if this library is *older* than `major.minor`.
#[no_mangle]
pub extern "C" fn io_uring_check_version(major: c_int, minor: c_int) -> bool {
    version::check_version(major, minor)
}

/// `io_uring_setup(2)`.
///
/// # Safety
/// `p` is handed to the kernel, which checks it.
#[no_mangle]
pub unsafe extern "C" fn io_uring_setup(entries: c_uint, p: *mut io_uring_params) -> c_int {
    // SAFETY: the kernel validates `p` (EFAULT if bad).
    let r = unsafe { syscall::io_uring_setup(entries, p.cast()) };
    // SAFETY: the kernel has read `p` unless the error is EFAULT, which the
    // hook does not look into.
    unsafe { crate::diag::raw_setup_done(entries, p, r.err()) }; // diag hook
    ret_int(r)
}

/// `io_uring_enter(2)` with an optional signal mask.
///
/// # Safety
/// `sig` is handed to the kernel, which checks it.
#[no_mangle]
pub unsafe extern "C" fn io_uring_enter(
    fd: c_uint,
    to_submit: c_uint,
    min_complete: c_uint,
    flags: c_uint,
    sig: *mut libc::sigset_t,
) -> c_int {
    // SAFETY: the kernel validates `sig` (EFAULT if bad).
    ret_int(unsafe {
        syscall::io_uring_enter2(
            fd,
            to_submit,
            min_complete,
            flags,
            sig.cast_const().cast(),
            KERNEL_SIGSET_BYTES,
        )
    })
}

/// `io_uring_enter(2)` with an explicit argument size.
///
/// # Safety
/// `arg` is handed to the kernel, which checks it.
#[no_mangle]
pub unsafe extern "C" fn io_uring_enter2(
    fd: c_uint,
    to_submit: c_uint,
    min_complete: c_uint,
    flags: c_uint,
    arg: *mut c_void,
    sz: libc::size_t,
) -> c_int {
    // SAFETY: the kernel validates `arg` (EFAULT if bad).
    ret_int(unsafe {
        syscall::io_uring_enter2(fd, to_submit, min_complete, flags, arg.cast_const(), sz)
    })
}

/// `io_uring_register(2)`.
///
/// # Safety
/// `arg` is handed to the kernel, which checks it.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register(
    fd: c_uint,
    opcode: c_uint,
    arg: *const c_void,
    nr_args: c_uint,
) -> c_int {
    // SAFETY: the kernel validates `arg` (EFAULT if bad).
    ret_int(unsafe { syscall::io_uring_register(fd, opcode, arg, nr_args) })
}

/// Maps the rings and SQEs of `fd` into `sq`/`cq` (liburing-internal).
///
/// # Safety
/// Pointers must be null or valid; `p` must describe `fd`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_mmap(
    fd: c_int,
    p: *mut io_uring_params,
    sq: *mut io_uring_sq,
    cq: *mut io_uring_cq,
) -> c_int {
    // SAFETY: the caller guarantees the pointers are null or valid.
    let (Some(p), Some(sq), Some(cq)) = (unsafe { (p.as_ref(), sq.as_mut(), cq.as_mut()) }) else {
        return -libc::EINVAL;
    };
    ret_int(setup::mmap_rings(fd, p, sq, cq).map(|()| 0))
}

/// Unmaps the ring memory `sq`/`cq` describe (liburing-internal).
///
/// # Safety
/// Pointers must be null or describe mappings that are no longer used.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unmap_rings(sq: *mut io_uring_sq, cq: *mut io_uring_cq) {
    // SAFETY: the caller guarantees the pointers are null or valid.
    if let (Some(sq), Some(cq)) = unsafe { (sq.as_ref(), cq.as_ref()) } {
        // SAFETY: the caller gives the mappings up.
        unsafe { setup::unmap_rings(sq, cq) };
    }
}

/// Points `sq`/`cq` into their ring memory per `p` (liburing-internal).
///
/// # Safety
/// Pointers must be null or valid, with `sq->ring_ptr`/`cq->ring_ptr` the
/// live ring memory `p` describes.
#[no_mangle]
pub unsafe extern "C" fn io_uring_setup_ring_pointers(
    p: *mut io_uring_params,
    sq: *mut io_uring_sq,
    cq: *mut io_uring_cq,
) {
    // SAFETY: the caller guarantees the pointers are null or valid.
    if let (Some(p), Some(sq), Some(cq)) = unsafe { (p.as_ref(), sq.as_mut(), cq.as_mut()) } {
        // SAFETY: forwarded caller guarantee about the ring memory.
        unsafe { setup::setup_ring_pointers(p, sq, cq) };
    }
}
