// SPDX-License-Identifier: MIT
//! C entry points for ring setup and teardown, sizing, probing, the
//! version, and the raw system calls.
//!
//! Null pointers where liburing would dereference them give `-EINVAL`
//! (or nothing / NULL for functions without an error return) instead of a
//! crash. The raw syscall wrappers pass pointers to the kernel unchecked,
//! exactly as liburing does, so the kernel's own answer (`-EFAULT`) comes
//! back.
//!
//! The `struct io_uring` (or `io_uring_sq`/`io_uring_cq`) being set up is
//! usually uninitialised memory: it is never read or viewed as a reference;
//! the ring is built in a local and written out whole (or, for liburing's
//! internal `io_uring_mmap`/`io_uring_setup_ring_pointers`, field by field,
//! exactly the fields liburing writes).

use core::ffi::{c_int, c_uint, c_void};
use core::mem::MaybeUninit;

use core::ptr::addr_of_mut;

use super::{ret_bytes, ret_err, ret_int, ret_size, NULL_ARGUMENT};
use crate::structs::{io_uring, io_uring_cq, io_uring_sq};
use crate::syscall::{self, Errno, SysResult, KERNEL_SIGSET_BYTES};
use crate::uapi::IORING_SETUP_NO_SQARRAY;
use crate::uapi::{io_uring_params, io_uring_probe};
use crate::{geometry, probe, setup, version};

/// Runs `init` on a fresh local ring and writes the result (whole, also on
/// failure, as liburing leaves its memset-and-partly-filled struct) to the
/// caller's `ring`, which may be uninitialised; `-EINVAL` if it is null.
/// On success, also the ring as written, for [`setup_done`].
///
/// # Safety
/// `ring` must be null or valid for writing a `struct io_uring`, which
/// nothing else uses for `'a`.
#[inline]
unsafe fn init_into<'a, T>(
    ring: *mut io_uring,
    init: impl FnOnce(&mut io_uring) -> SysResult<T>,
) -> SysResult<(T, &'a io_uring)> {
    let out = ring_arg!(uninit ring, else return Err(Errno::EINVAL));
    let mut local = geometry::empty_ring();
    match init(&mut local) {
        Ok(v) => Ok((v, out.write(local))),
        Err(e) => {
            // Nothing for a later io_uring_queue_exit to close or unmap.
            write_closed(out);
            Err(e)
        }
    }
}

/// Writes a ring that holds nothing (no mapping, fd -1) to `out`.
#[cold]
#[inline(never)]
fn write_closed(out: &mut MaybeUninit<io_uring>) {
    out.write(geometry::closed_ring());
}

/// Hook after every setup entry point: a failure or a new ring, for an
/// observer (`LIBURING_DEBUG`, `LIBURING_TRACE`). `flags` are the setup
/// flags asked for; `p`, the caller's params if any; `r`, the ring
/// [`init_into`] has just written, or the error.
#[inline(never)]
fn setup_done(
    call: &'static str,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    r: Result<&io_uring, Errno>,
) {
    let Some(w) = crate::observe::watched(core::ptr::null()) else {
        crate::attach_diag::notice_unattached();
        return;
    };
    match r {
        Err(e) => w.setup_failed(call, entries, flags, p, e),
        Ok(ring) => w.ring_created(ring),
    }
}

/// Creates a ring and maps it into the process. The submission queue gets
/// room for at least `entries` requests (rounded up to a power of two), the
/// completion queue twice as many; `flags` holds `IORING_SETUP_*` flags (see
/// io_uring_setup(2)). On success `ring` is ready for io_uring_get_sqe();
/// free it with io_uring_queue_exit().
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `entries`: the SQ size wanted; the kernel rounds it up to a power of two.
///   The CQ ring gets twice as many entries.
/// - `flags`: `IORING_SETUP_*` flags, see io_uring_setup_flags(7).
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: `entries` is 0 or too large, a flag is unknown to the kernel,
///   or the flags do not go together. [check: queue-init-EINVAL-zero-entries]
/// - `ENOMEM`: the kernel or the mapping ran out of memory, or the ring
///   memory exceeds the caller's locked-memory limit (some kernels charge it
///   to callers without CAP_IPC_LOCK: a 6.18 kernel does, Debian's 6.1, 6.12
///   and 7.2 do not). [check: err-io_uring_queue_init-ENOMEM]
///   [check: rings-charged-to-memlock]
/// - `EPERM`: io_uring is disabled for the caller (the
///   `kernel.io_uring_disabled` sysctl). [unchecked: needs the kernel.io_uring_disabled sysctl, which would change the whole machine]
///
/// # Notes
/// A ring set up by this call is released with io_uring_queue_exit(). The
/// library uses `IORING_SETUP_NO_SQARRAY` when the kernel offers it.
///
/// # See also
/// io_uring_queue_init_params, io_uring_queue_exit, io_uring_setup(2),
/// io_uring_setup_flags(7), io_uring(7)
///
/// # Safety
/// `ring` must be null or point to writable memory for a `struct io_uring`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_init(
    entries: c_uint,
    ring: *mut io_uring,
    flags: c_uint,
) -> c_int {
    // SAFETY: forwarded caller guarantee.
    let r = unsafe { init_into(ring, |r| setup::queue_init(entries, r, flags)) };
    setup_done(
        "io_uring_queue_init",
        entries,
        flags,
        None,
        r.map(|(_, ring)| ring),
    );
    ret_int(r.map(|((), _)| 0))
}

/// Creates a ring with full control over its parameters. The caller zeroes
/// `p` and sets the fields it wants (flags, CQ size, SQPOLL idle time,
/// ...); on return the kernel's answer is in it: the granted sizes and the
/// `IORING_FEAT_*` bits of `p->features`, which tell what this kernel offers.
/// A null `ring` or `p` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `entries`: the SQ size wanted.
/// - `p`: zeroed, then the flags and their parameters filled in; on return
///   it holds the sizes and `IORING_FEAT_*` features the kernel granted.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: see io_uring_setup(2), or `ring` or `p` is NULL. [check: err-io_uring_queue_init_params-EINVAL]
/// - `ENOMEM`: the kernel or the mapping ran out of memory, or the ring
///   memory exceeds the caller's locked-memory limit (some kernels charge it
///   to callers without CAP_IPC_LOCK: a 6.18 kernel does, Debian's 6.1, 6.12
///   and 7.2 do not). [check: err-io_uring_queue_init_params-ENOMEM]
///   [check: rings-charged-to-memlock]
///
/// # Notes
/// Check `p->features` rather than the kernel version to learn what the ring
/// can do.
///
/// # See also
/// io_uring_queue_init, io_uring_queue_exit, io_uring_setup(2),
/// io_uring_setup_flags(7)
///
/// # Safety
/// `ring` and `p` must be null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_init_params(
    entries: c_uint,
    ring: *mut io_uring,
    p: *mut io_uring_params,
) -> c_int {
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_mut() }) else {
        return NULL_ARGUMENT;
    };
    let flags = p.flags;
    // SAFETY: forwarded caller guarantee.
    let r = unsafe { init_into(ring, |r| setup::queue_init_params(entries, r, p)) };
    setup_done(
        "io_uring_queue_init_params",
        entries,
        flags,
        Some(p),
        r.map(|(_, ring)| ring),
    );
    ret_int(r.map(|((), _)| 0))
}

/// Creates a ring whose memory the program provides: the rings and SQEs
/// are placed in `buf` (`IORING_SETUP_NO_MMAP`, Linux 6.5), which must be
/// page-aligned, zeroed and outlive the ring. Returns the number of bytes
/// of `buf` used.
/// A null `ring` or `p` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `entries`: the SQ size wanted.
/// - `p`: setup parameters, as for io_uring_queue_init_params().
/// - `buf`: memory for the rings and SQEs, page-aligned.
/// - `buf_size`: its size; io_uring_memory_size() says what is needed.
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
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_mut() }) else {
        return NULL_ARGUMENT;
    };
    let flags = p.flags;
    // SAFETY: the caller vouches for `ring` and `buf`.
    let r = unsafe {
        init_into(ring, |r| {
            setup::queue_init_mem(entries, r, p, buf, buf_size)
        })
    };
    setup_done(
        "io_uring_queue_init_mem",
        entries,
        flags,
        Some(p),
        r.map(|(_, ring)| ring),
    );
    ret_bytes(r.map(|(n, _)| n))
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
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_mut() }) else {
        return NULL_ARGUMENT;
    };
    let flags = p.flags;
    // SAFETY: the caller vouches for `ring` and `buf`.
    let r = unsafe {
        init_into(ring, |r| {
            setup::queue_init_once(entries, r, p, buf, buf_size)
        })
    };
    setup_done(
        "__io_uring_queue_init_params",
        entries,
        flags,
        Some(p),
        r.map(|(_, ring)| ring),
    );
    ret_bytes(r.map(|(n, _)| n))
}

/// Maps the rings of a descriptor created with io_uring_setup(2) and fills
/// in `ring`, for programs that call the system call themselves; `p` must be
/// the parameters that call returned.
/// A null `ring` or `p` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `ENOMEM`: a mapping failed. [check: err-io_uring_queue_mmap-ENOMEM]
///
/// # See also
/// io_uring_setup, io_uring_queue_init_params
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
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_ref() }) else {
        return NULL_ARGUMENT;
    };
    // SAFETY: forwarded caller guarantee.
    let r = unsafe { init_into(ring, |r| setup::queue_mmap(fd, p, r)) };
    setup_done(
        "io_uring_queue_mmap",
        p.sq_entries,
        p.flags,
        Some(p),
        r.map(|(_, ring)| ring),
    );
    ret_int(r.map(|((), _)| 0))
}

/// Frees a ring set up by io_uring_queue_init() and its variants: the
/// rings are unmapped, a registered ring descriptor is unregistered and the
/// ring's file descriptor closed. Requests still in flight are canceled by
/// the kernel; their completions are lost.
/// A null `ring` is ignored where liburing would dereference it.
///
/// # Notes
/// Requests still in flight are cancelled by the kernel as the ring descriptor
/// closes. Registered files, buffers, eventfds and personalities go with the
/// ring; there is no need to unregister them first.
///
/// # See also
/// io_uring_queue_init
///
/// # Safety
/// `ring` must be null or a ring set up by this library, not used again
/// (nor by any other call meanwhile).
#[no_mangle]
pub unsafe extern "C" fn io_uring_queue_exit(ring: *mut io_uring) {
    with_call_site!(io_uring_queue_exit(ring) -> (), |caller| {
        // The caller gives the ring up: ours alone from now on.
        let ring = ring_arg!(exclusive ring, else return);
        if let Some(w) = crate::observe::watched(caller) {
            w.ring_exit(ring);
        }
        // SAFETY: the caller gives the ring up (see above).
        unsafe { setup::queue_exit(ring) };
    })
}

/// Keeps the ring memory out of child processes created with fork(2).
/// A child that inherited the mappings could corrupt the parent's rings;
/// with this call the child simply does not have them.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value from madvise(2).
///
/// # See also
/// io_uring_queue_init
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_ring_dontfork(ring: *mut io_uring) -> c_int {
    let ring = ring_arg!(live ring);
    ret_int(setup::ring_dontfork(ring).map(|()| 0))
}

/// Tells how much of the locked-memory limit (RLIMIT_MEMLOCK) a ring of
/// `entries` entries would use, by the rule of kernels before 5.12: on a
/// kernel with `IORING_FEAT_NATIVE_WORKERS` (Linux 5.12 on, which charged
/// ring memory to the memory cgroup instead) the answer is 0. Some later kernels
/// charge ring memory to RLIMIT_MEMLOCK again for a caller without
/// CAP_IPC_LOCK (measured: a 6.18 kernel does; Debian's 6.1, 6.12 and 7.2
/// kernels do not; what decides it is not established), so there the 0 is
/// wrong; io_uring_memory_size() tells how much memory a ring takes.
/// [check: rings-charged-to-memlock]
///
/// # Return value
/// A byte count (0 on kernels with `IORING_FEAT_NATIVE_WORKERS`), or a
/// negated errno value.
///
/// # See also
/// io_uring_mlock_size_params
#[no_mangle]
pub extern "C" fn io_uring_mlock_size(entries: c_uint, flags: c_uint) -> libc::ssize_t {
    ret_size(setup::mlock_size(entries, flags))
}

/// [`io_uring_mlock_size`] with full params.
///
/// As in liburing, `p` is only looked at on kernels without
/// `IORING_FEAT_NATIVE_WORKERS` (before 5.12; and for a non-zero `entries`):
/// on newer kernels the answer is 0 whatever `p` is, although some of them
/// charge ring memory again (see io_uring_mlock_size()). Where liburing would then read a null
/// `p`, the result is `-EINVAL`.
///
/// # Return value
/// A byte count, or a negated errno value.
///
/// # See also
/// io_uring_mlock_size
///
/// # Safety
/// `p` must be null or point to a readable `struct io_uring_params`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_mlock_size_params(
    entries: c_uint,
    p: *mut io_uring_params,
) -> libc::ssize_t {
    // SAFETY: the caller guarantees `p` is null or valid.
    let p = unsafe { p.as_ref() };
    ret_size(setup::mlock_size_params(entries, p))
}

/// Tells how much memory a ring of `entries` entries with `flags` would
/// need for its rings and SQEs, for example to size the buffer of
/// io_uring_queue_init_mem().
///
/// # Return value
/// A byte count, or a negated errno value for sizes the kernel would refuse.
///
/// # Notes
/// Use it to size the memory for io_uring_queue_init_mem().
///
/// # See also
/// io_uring_memory_size_params, io_uring_queue_init_mem
#[no_mangle]
pub extern "C" fn io_uring_memory_size(entries: c_uint, flags: c_uint) -> libc::ssize_t {
    ret_size(geometry::memory_size(entries, flags))
}

/// [`io_uring_memory_size`] with full params. A null `p`, which liburing
/// would read, gives `-EINVAL`.
///
/// # Return value
/// A byte count, or a negated errno value.
///
/// # See also
/// io_uring_memory_size, io_uring_queue_init_mem
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
    ret_size(geometry::memory_size_params(entries, p))
}

/// The opcodes `ring` supports, or NULL. Release with `io_uring_free_probe`
/// (or `free`).
/// A null `ring` gives NULL where liburing would dereference it.
///
/// # Return value
/// A probe to release with io_uring_free_probe(), or NULL.
///
/// # See also
/// io_uring_get_probe, io_uring_opcode_supported
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[no_mangle]
pub unsafe extern "C" fn io_uring_get_probe_ring(ring: *mut io_uring) -> *mut io_uring_probe {
    let ring = ring_arg!(live ring, else return core::ptr::null_mut());
    probe::get_probe_ring(ring).unwrap_or(core::ptr::null_mut())
}

/// Asks the running kernel which request opcodes it supports. A temporary
/// ring is created for the question; the answer is a probe that
/// io_uring_opcode_supported() reads and io_uring_free_probe() frees.
///
/// # Return value
/// A probe to release with io_uring_free_probe(), or NULL when the kernel
/// cannot be asked (before Linux 5.6) or memory ran out.
///
/// # See also
/// io_uring_opcode_supported, io_uring_get_probe_ring, io_uring_free_probe
#[no_mangle]
pub extern "C" fn io_uring_get_probe() -> *mut io_uring_probe {
    probe::get_probe().unwrap_or(core::ptr::null_mut())
}

/// Frees a probe returned by io_uring_get_probe() or
/// io_uring_get_probe_ring(); NULL is ignored.
///
/// # Safety
/// `probe` must be null or a probe from this library, not used again.
#[no_mangle]
pub unsafe extern "C" fn io_uring_free_probe(probe: *mut io_uring_probe) {
    // SAFETY: forwarded caller guarantee.
    unsafe { probe::free_probe(probe) }
}

/// Chooses whether time spent waiting on `ring` counts as I/O wait in the
/// system statistics. Turning it off keeps tools from reporting I/O wait
/// for a program that merely waits for network completions.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or `-EOPNOTSUPP` when the kernel cannot leave waits out of
/// iowait (no `IORING_FEAT_NO_IOWAIT`).
///
/// # See also
/// io_uring_wait_cqe
///
/// # Safety
/// `ring` must be null or point to a `struct io_uring`, which this call
/// updates: no other call may use the ring meanwhile (as in liburing).
#[no_mangle]
pub unsafe extern "C" fn io_uring_set_iowait(ring: *mut io_uring, enable_iowait: bool) -> c_int {
    let ring = ring_arg!(exclusive ring);
    ret_int(setup::set_iowait(ring, enable_iowait).map(|()| 0))
}

/// The library's major version.
///
/// # Return value
/// The major version of the library loaded at run time (2).
///
/// # See also
/// io_uring_minor_version, io_uring_check_version
#[no_mangle]
pub extern "C" fn io_uring_major_version() -> c_int {
    version::major()
}

/// The library's minor version.
///
/// # Return value
/// The minor version of the library loaded at run time (15).
///
/// # See also
/// io_uring_major_version, io_uring_check_version
#[no_mangle]
pub extern "C" fn io_uring_minor_version() -> c_int {
    version::minor()
}

/// True if this library is *older* than `major.minor`.
///
/// # Return value
/// `true` when the library loaded at run time is older than `major.minor`,
/// `false` otherwise. [check: check-version]
///
/// # Notes
/// The `IO_URING_CHECK_VERSION` macro makes the same test at compile time
/// against the headers.
///
/// # See also
/// io_uring_major_version, io_uring_minor_version
#[no_mangle]
pub extern "C" fn io_uring_check_version(major: c_int, minor: c_int) -> bool {
    version::check_version(major, minor)
}

/// Calls the io_uring_setup(2) system call directly: it creates a ring with
/// `entries` submission entries and `p` as its parameters and returns the
/// ring's file descriptor, without mapping anything. Use it to map the
/// rings yourself, or hand the descriptor to io_uring_queue_mmap().
///
/// # Return value
/// The new ring descriptor, or a negated errno value instead of -1 and
/// `errno`.
///
/// # See also
/// io_uring_setup(2), io_uring_queue_init_params, io_uring_queue_mmap
///
/// # Safety
/// `p` is handed to the kernel, which checks it.
#[no_mangle]
pub unsafe extern "C" fn io_uring_setup(entries: c_uint, p: *mut io_uring_params) -> c_int {
    // SAFETY: the kernel validates `p` (EFAULT if bad).
    let r = unsafe { syscall::io_uring_setup(entries, p.cast()) };
    if let Err(e) = r {
        if e != syscall::Errno::EFAULT {
            // SAFETY: the kernel has read `p` (no EFAULT): null or readable.
            let p = unsafe { p.cast_const().as_ref() };
            let flags = p.map_or(0, |p| p.flags);
            if let Some(w) = crate::observe::watched(core::ptr::null()) {
                w.setup_failed("io_uring_setup", entries, flags, p, e);
            }
        }
    }
    ret_int(r)
}

/// Calls the io_uring_enter(2) system call directly: submit `to_submit`
/// entries and, with `IORING_ENTER_GETEVENTS` in `flags`, wait for
/// `min_complete` completions, with `sig` as the signal mask while waiting.
///
/// # Return value
/// What io_uring_enter(2) returns on success; a negated errno value instead
/// of -1 and `errno`.
///
/// # See also
/// io_uring_enter(2), io_uring_submit
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

/// Calls the io_uring_enter(2) system call directly with an explicit size
/// of the argument, as `IORING_ENTER_EXT_ARG` needs.
///
/// # Return value
/// What io_uring_enter(2) returns on success; a negated errno value instead
/// of -1 and `errno`.
///
/// # See also
/// io_uring_enter(2), io_uring_enter
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

/// Calls the io_uring_register(2) system call directly with `opcode`,
/// `arg` and `nr_args`, for operations this library has no function for.
///
/// # Return value
/// What io_uring_register(2) returns on success; a negated errno value
/// instead of -1 and `errno`.
///
/// # See also
/// io_uring_register(2)
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

/// Writes to `dst_sq`/`dst_cq` the fields liburing's
/// `io_uring_setup_ring_pointers` sets: the pointers into the ring memory
/// (`array` only with an SQ array, `cq.kflags` only when the kernel gave a
/// CQ flags offset) and the cached masks and sizes.
///
/// # Safety
/// `dst_sq`/`dst_cq` must be valid for writing (possibly uninitialised).
unsafe fn store_ring_pointers(
    p: &io_uring_params,
    sq: &io_uring_sq,
    cq: &io_uring_cq,
    dst_sq: *mut io_uring_sq,
    dst_cq: *mut io_uring_cq,
) {
    // SAFETY: per the caller; each field is written, none read.
    unsafe {
        addr_of_mut!((*dst_sq).khead).write(sq.khead);
        addr_of_mut!((*dst_sq).ktail).write(sq.ktail);
        addr_of_mut!((*dst_sq).kring_mask).write(sq.kring_mask);
        addr_of_mut!((*dst_sq).kring_entries).write(sq.kring_entries);
        addr_of_mut!((*dst_sq).kflags).write(sq.kflags);
        addr_of_mut!((*dst_sq).kdropped).write(sq.kdropped);
        if p.flags & IORING_SETUP_NO_SQARRAY == 0 {
            addr_of_mut!((*dst_sq).array).write(sq.array);
        }
        addr_of_mut!((*dst_sq).ring_mask).write(sq.ring_mask);
        addr_of_mut!((*dst_sq).ring_entries).write(sq.ring_entries);
        addr_of_mut!((*dst_cq).khead).write(cq.khead);
        addr_of_mut!((*dst_cq).ktail).write(cq.ktail);
        addr_of_mut!((*dst_cq).kring_mask).write(cq.kring_mask);
        addr_of_mut!((*dst_cq).kring_entries).write(cq.kring_entries);
        addr_of_mut!((*dst_cq).koverflow).write(cq.koverflow);
        addr_of_mut!((*dst_cq).cqes).write(cq.cqes);
        if p.cq_off.flags != 0 {
            addr_of_mut!((*dst_cq).kflags).write(cq.kflags);
        }
        addr_of_mut!((*dst_cq).ring_mask).write(cq.ring_mask);
        addr_of_mut!((*dst_cq).ring_entries).write(cq.ring_entries);
    }
}

/// Maps the rings and SQEs of `fd` into `sq`/`cq` (liburing-internal).
/// On success writes the fields liburing's `io_uring_mmap` writes (sizes,
/// mappings and ring pointers; never `sqe_head`/`sqe_tail`); on failure
/// nothing.
///
/// # Safety
/// Pointers must be null or valid (`sq`/`cq` for writing, possibly
/// uninitialised); `p` must describe `fd`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_mmap(
    fd: c_int,
    p: *mut io_uring_params,
    sq: *mut io_uring_sq,
    cq: *mut io_uring_cq,
) -> c_int {
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_ref() }) else {
        return NULL_ARGUMENT;
    };
    if sq.is_null() || cq.is_null() {
        return NULL_ARGUMENT;
    }
    let (mut new_sq, mut new_cq) = (geometry::empty_sq(), geometry::empty_cq());
    if let Err(e) = geometry::mmap_rings(fd, p, &mut new_sq, &mut new_cq) {
        return ret_err(e);
    }
    // SAFETY: `sq`/`cq` are valid for writing (caller); each field is
    // written, none read.
    unsafe {
        addr_of_mut!((*sq).ring_sz).write(new_sq.ring_sz);
        addr_of_mut!((*sq).ring_ptr).write(new_sq.ring_ptr);
        addr_of_mut!((*sq).sqes).write(new_sq.sqes);
        addr_of_mut!((*sq).sqes_sz).write(new_sq.sqes_sz);
        addr_of_mut!((*cq).ring_sz).write(new_cq.ring_sz);
        addr_of_mut!((*cq).ring_ptr).write(new_cq.ring_ptr);
        store_ring_pointers(p, &new_sq, &new_cq, sq, cq);
    }
    0
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
        unsafe { geometry::unmap_rings(sq, cq) };
    }
}

/// Points `sq`/`cq` into their ring memory per `p` (liburing-internal).
/// Only `ring_ptr` of each is read; the fields liburing sets are written.
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
    // SAFETY: the caller passes null or a valid, initialised `p`.
    let Some(p) = (unsafe { p.as_ref() }) else {
        return;
    };
    if sq.is_null() || cq.is_null() {
        return;
    }
    let (mut new_sq, mut new_cq) = (geometry::empty_sq(), geometry::empty_cq());
    // SAFETY: the caller guarantees `ring_ptr` of both is initialised; only
    // that field is read.
    unsafe {
        new_sq.ring_ptr = addr_of_mut!((*sq).ring_ptr).read();
        new_cq.ring_ptr = addr_of_mut!((*cq).ring_ptr).read();
    }
    // SAFETY: forwarded caller guarantee about the ring memory; then the
    // fields are written, none read.
    unsafe {
        geometry::setup_ring_pointers(p, &mut new_sq, &mut new_cq);
        store_ring_pointers(p, &new_sq, &new_cq, sq, cq);
    }
}

#[cfg(test)]
mod observed_tests;
#[cfg(test)]
mod tests;
