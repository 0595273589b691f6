// SPDX-License-Identifier: MIT
//! C entry points for every registration call (`io_uring_register_*`,
//! `io_uring_unregister_*`, buffer cloning, ring-fd handling, resizing).
//!
//! Pointer policy:
//! - a null `ring` (or `dst`/`src`) gives `-EINVAL` instead of a crash;
//! - a null argument liburing itself would dereference (the resize params)
//!   gives `-EINVAL`;
//! - every argument liburing hands straight to the kernel is handed over
//!   untouched, null included, so the kernel's answer is the answer.
//!
//! Most of these calls may run while other threads submit or wait on the
//! same ring, so they take it as a `LiveRing`. The ring-fd calls and resize
//! rewrite the struct itself; liburing's contract has them run alone, and
//! only they take `&mut io_uring` (see [`exclusive_ring!`]).

use core::ffi::{c_int, c_uint, c_void};
use core::mem::{align_of, size_of};

use super::ret_int;
use crate::register;
use crate::structs::io_uring;
use crate::uapi::{
    io_uring_bpf, io_uring_clock_register, io_uring_mem_region_reg, io_uring_napi, io_uring_params,
    io_uring_probe, io_uring_query_hdr, io_uring_reg_wait, io_uring_restriction, io_uring_sqe,
    io_uring_sync_cancel_reg, io_uring_zcrx_ifq_reg, zcrx_ctrl,
};

/// The kernel's `__u64`, named so the generated prototypes say `__u64`
/// (which is `unsigned long long`, not `uint64_t`, in C).
#[allow(non_camel_case_types)]
pub type __u64 = u64;

/// `struct iovec` as seen by the generated prototypes (cbindgen prints
/// `struct iovec` only for a struct of this crate); same layout as libc's.
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct iovec {
    pub iov_base: *mut c_void,
    pub iov_len: usize,
}
const _: () = assert!(size_of::<iovec>() == size_of::<libc::iovec>());
const _: () = assert!(align_of::<iovec>() == align_of::<libc::iovec>());

/// `ring` as `&mut io_uring`, or `return -EINVAL` when null: only for the
/// calls that rewrite the ring struct, which liburing's contract runs with
/// no other call on the ring in flight.
macro_rules! exclusive_ring {
    ($ring:expr) => {
        // SAFETY: the C caller passes null or a valid, initialised `struct
        // io_uring` that no other call uses meanwhile (see above).
        match unsafe { $ring.as_mut() } {
            Some(r) => r,
            None => return -libc::EINVAL,
        }
    };
}

/// Runs `$body` (a closure of the live ring giving the C result) for the
/// C caller's `ring`: inline when the ring is not null and no observer is
/// installed, else through [`detoured`], which refuses null with `-EINVAL`
/// and runs the same body with the failure hook live. One compare decides
/// both, so these calls cost what liburing's do.
macro_rules! ring_call {
    ($ring:ident, $body:expr) => {{
        let body = $body;
        if crate::hooks::detour_any($ring) {
            // SAFETY: forwarded C contract (null or a live ring).
            return unsafe { detoured($ring, body) };
        }
        // SAFETY: not null (no detour); otherwise the C contract, as in
        // `live_ring!`.
        body(unsafe { crate::ring::LiveRing::from_ptr($ring).unwrap_unchecked() })
    }};
}

/// The off-fast-path half of [`ring_call!`]: out of line and cold.
///
/// # Safety
/// `ring` must be null or a ring set up by this library.
#[cold]
#[inline(never)]
unsafe fn detoured<'a>(
    ring: *mut io_uring,
    body: impl FnOnce(crate::ring::LiveRing<'a>) -> c_int,
) -> c_int {
    body(live_ring!(ring))
}

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

/// Registers a file table of `nr_files` fds.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `files`: descriptors to put in slots 0 to `nr_files` - 1; -1 leaves a
///   slot empty.
/// - `nr_files`: the table size.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: a file table is registered already.
/// - `EBADF`: an entry is neither an open descriptor nor -1.
/// - `EMFILE`: `nr_files` exceeds the process's descriptor limit; the library
///   raises the soft `RLIMIT_NOFILE` once and retries, as liburing does.
///
/// # See also
/// io_uring_unregister_files, io_uring_register_files_update,
/// io_uring_registered_files(7)
///
/// # Safety
/// `ring` null or valid; `files` readable for `nr_files` ints.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files(
    ring: *mut io_uring,
    files: *const c_int,
    nr_files: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files(ring, files, nr_files) })
    })
}

/// Registers a file table with a tag per slot.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `files`: descriptors, -1 for an empty slot.
/// - `tags`: a tag per slot (0 for none), or NULL.
/// - `nr`: the table size.
///
/// # Safety
/// `ring` null or valid; `files` and `tags` (unless null) readable for `nr`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files_tags(
    ring: *mut io_uring,
    files: *const c_int,
    tags: *const __u64,
    nr: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_tags(ring, files, tags, nr) })
    })
}

/// Registers an empty file table of `nr` slots.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `nr`: the number of empty slots.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files_sparse(ring: *mut io_uring, nr: c_uint) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_files_sparse(ring, nr))
    })
}

/// Replaces `nr_files` registered files from slot `off`.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `off`: the first slot to replace.
/// - `files`: the new descriptors; -1 empties a slot, `IORING_REGISTER_FILES_SKIP` leaves it.
/// - `nr_files`: how many slots, from `off` on.
///
/// # Safety
/// `ring` null or valid; `files` readable for `nr_files` ints.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files_update(
    ring: *mut io_uring,
    off: c_uint,
    files: *const c_int,
    nr_files: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_update(ring, off, files, nr_files) })
    })
}

/// Replaces `nr_files` registered files from slot `off`, with tags.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `off`: the first slot to replace.
/// - `files`: the new descriptors, -1 for an empty slot.
/// - `tags`: a tag per slot, posted in a CQE when the kernel drops the file
///   the slot held; NULL for none.
/// - `nr_files`: how many slots.
///
/// # Safety
/// `ring` null or valid; `files` and `tags` (unless null) readable.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files_update_tag(
    ring: *mut io_uring,
    off: c_uint,
    files: *const c_int,
    tags: *const __u64,
    nr_files: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_update_tag(ring, off, files, tags, nr_files) })
    })
}

/// Limits direct-descriptor allocation to slots `[off, off + len)`.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `off`: the first slot automatic allocation may use.
/// - `len`: the number of slots it may use.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_file_alloc_range(
    ring: *mut io_uring,
    off: c_uint,
    len: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_file_alloc_range(ring, off, len))
    })
}

/// Drops the file table.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_files(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| { ret_int(register::unregister_files(ring)) })
}

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// Registers `nr_iovecs` fixed buffers.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `iovecs`: the buffers; buffer `i` is used as `buf_index` `i`.
/// - `nr_iovecs`: how many, at most 16384.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: a buffer table is registered already.
/// - `ENOMEM`: pinning failed or exceeded the locked-memory limit.
/// - `EFAULT`: a buffer is not valid memory.
///
/// # See also
/// io_uring_unregister_buffers, io_uring_prep_read_fixed,
/// io_uring_registered_buffers(7)
///
/// # Safety
/// `ring` null or valid; `iovecs` readable for `nr_iovecs` entries.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_buffers(
    ring: *mut io_uring,
    iovecs: *const iovec,
    nr_iovecs: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
        ret_int(unsafe { register::register_buffers(ring, iovecs.cast(), nr_iovecs) })
    })
}

/// Registers fixed buffers with a tag per slot.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `iovecs`: the buffers.
/// - `tags`: a tag per buffer (0 for none), or NULL.
/// - `nr`: how many.
///
/// # Safety
/// `ring` null or valid; `iovecs` and `tags` (unless null) readable for `nr`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_buffers_tags(
    ring: *mut io_uring,
    iovecs: *const iovec,
    tags: *const __u64,
    nr: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
        ret_int(unsafe { register::register_buffers_tags(ring, iovecs.cast(), tags, nr) })
    })
}

/// Registers an empty buffer table of `nr` slots.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `nr`: the number of empty slots.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_buffers_sparse(
    ring: *mut io_uring,
    nr: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_buffers_sparse(ring, nr))
    })
}

/// Replaces `nr` registered buffers from slot `off`, with tags.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `off`: the first slot to replace.
/// - `iovecs`: the new buffers.
/// - `tags`: a tag per slot, or NULL.
/// - `nr`: how many slots.
///
/// # Safety
/// `ring` null or valid; `iovecs` and `tags` (unless null) readable for `nr`.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_buffers_update_tag(
    ring: *mut io_uring,
    off: c_uint,
    iovecs: *const iovec,
    tags: *const __u64,
    nr: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
        ret_int(unsafe {
            register::register_buffers_update_tag(ring, off, iovecs.cast(), tags, nr)
        })
    })
}

/// Drops the buffer table.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_buffers(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| { ret_int(register::unregister_buffers(ring)) })
}

/// Clones `nr` buffers of `src` from `src_off` into `dst` at `dst_off`,
/// using `flags` as given (`IORING_REGISTER_SRC_REGISTERED` kept only when
/// `src` has a registered index).
/// A null `dst` or `src` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # See also
/// io_uring_clone_buffers_offset
///
/// # Safety
/// `dst` and `src` null or valid.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_clone_buffers_offset(
    dst: *mut io_uring,
    src: *mut io_uring,
    dst_off: c_uint,
    src_off: c_uint,
    nr: c_uint,
    flags: c_uint,
) -> c_int {
    let (dst, src) = (live_ring!(dst), live_ring!(src));
    ret_int(register::clone_buffers_offset_raw(
        dst, src, dst_off, src_off, nr, flags,
    ))
}

/// Clones a range of buffers, naming `src` by its registered index if any.
/// A null `dst` or `src` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # See also
/// io_uring_clone_buffers
///
/// # Safety
/// `dst` and `src` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_clone_buffers_offset(
    dst: *mut io_uring,
    src: *mut io_uring,
    dst_off: c_uint,
    src_off: c_uint,
    nr: c_uint,
    flags: c_uint,
) -> c_int {
    let (dst, src) = (live_ring!(dst), live_ring!(src));
    ret_int(register::clone_buffers_offset(
        dst, src, dst_off, src_off, nr, flags,
    ))
}

/// Clones all of `src`'s buffers into `dst`.
/// A null `dst` or `src` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: `dst` has a buffer table already.
/// - `ENXIO`: `src` has no registered buffers.
///
/// # Notes
/// Needs Linux 6.12. The buffers stay pinned once, shared by both rings.
///
/// # See also
/// io_uring_clone_buffers_offset, io_uring_register_buffers,
/// io_uring_registered_buffers(7)
///
/// # Safety
/// `dst` and `src` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_clone_buffers(dst: *mut io_uring, src: *mut io_uring) -> c_int {
    let (dst, src) = (live_ring!(dst), live_ring!(src));
    ret_int(register::clone_buffers(dst, src))
}

/// Clones all of `src`'s buffers into `dst` with caller flags.
/// A null `dst` or `src` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # See also
/// io_uring_clone_buffers
///
/// # Safety
/// `dst` and `src` null or valid.
#[no_mangle]
pub unsafe extern "C" fn __io_uring_clone_buffers(
    dst: *mut io_uring,
    src: *mut io_uring,
    flags: c_uint,
) -> c_int {
    let (dst, src) = (live_ring!(dst), live_ring!(src));
    ret_int(register::clone_buffers_raw(dst, src, flags))
}

// ---------------------------------------------------------------------------
// Eventfd, personality, probe, restrictions
// ---------------------------------------------------------------------------

/// Signals eventfd `fd` on completions.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `fd`: a descriptor from eventfd(2).
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: an eventfd is registered already; unregister it first.
/// - `EINVAL`: `fd` is not an eventfd, or `ring` is NULL.
/// - `EBADF`: `fd` is not an open descriptor.
///
/// # Notes
/// From then on the kernel adds to the eventfd's counter when it posts
/// completions, so a program can wait for the ring with poll(2) or epoll(7)
/// next to its other descriptors. Treat a wake-up as a hint: reap until the CQ
/// ring is empty, since several completions may share one signal.
///
/// On a ring set up with `IORING_SETUP_DEFER_TASKRUN` the eventfd fires when
/// completion work is queued for the task, before any CQE is visible; the loop
/// must call io_uring_get_events() after the wake-up and then reap.
///
/// Registering an eventfd is available since Linux 5.2. Since Linux 5.18 the
/// kernel does it without waiting for the ring to go idle, and this library
/// lets the call run while other threads submit to or wait on the ring, so an
/// eventfd can be attached to a busy ring.
///
/// # See also
/// io_uring_unregister_eventfd, io_uring_register_eventfd_async,
/// io_uring_cq_eventfd_toggle, io_uring_get_events, io_uring(7)
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_eventfd(ring: *mut io_uring, fd: c_int) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_eventfd(ring, fd))
    })
}

/// Signals eventfd `fd` only for completions from async workers.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `fd`: a descriptor from eventfd(2).
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: an eventfd is registered already.
/// - `EINVAL`: `fd` is not an eventfd, or `ring` is NULL.
///
/// # Notes
/// Requests that complete during submission do not signal. Needs Linux 5.6.
///
/// # See also
/// io_uring_register_eventfd, io_uring_unregister_eventfd
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_eventfd_async(ring: *mut io_uring, fd: c_int) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_eventfd_async(ring, fd))
    })
}

/// Stops eventfd signalling.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `ENXIO`: no eventfd is registered.
///
/// # See also
/// io_uring_register_eventfd, io_uring_cq_eventfd_toggle
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_eventfd(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| { ret_int(register::unregister_eventfd(ring)) })
}

/// Registers the caller's credentials; returns the personality id.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// The new personality id (a positive 16-bit number) on success, or a negated
/// errno value.
///
/// # Errors
/// - `EBUSY`: no free id is left (ids are 16 bits wide).
/// - `ENOMEM`: the kernel could not store the credentials.
/// - `EINVAL`: `ring` is NULL.
///
/// # Notes
/// The credentials are those of the calling thread at the time of the call:
/// user and group ids, supplementary groups and capabilities. To use them, store
/// the id in the SQE before submitting: `sqe->personality = id;`. The request
/// then runs with those credentials even if the thread has changed its own
/// since, for example after dropping privileges with setresuid(2).
///
/// A request naming an id that is not registered fails with `-EINVAL` in its
/// CQE. Personalities are available since Linux 5.6. The call may run while
/// other threads submit to or wait on the ring.
///
/// # See also
/// io_uring_unregister_personality, io_uring_get_sqe, io_uring(7)
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_personality(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::register_personality(ring))
    })
}

/// Drops personality `id`.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `id`: an id returned by io_uring_register_personality().
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: no personality has that id, or `ring` is NULL.
///
/// # Notes
/// Requests already submitted with the id keep the credentials they took.
///
/// # See also
/// io_uring_register_personality
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_personality(ring: *mut io_uring, id: c_int) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::unregister_personality(ring, id))
    })
}

/// Fills probe `p` (room for `nr` ops) with the supported opcodes.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `p`: a zeroed probe with room for `nr` opcodes.
/// - `nr`: its number of op entries.
///
/// # Safety
/// `ring` null or valid; `p` writable for the header and `nr` ops.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_probe(
    ring: *mut io_uring,
    p: *mut io_uring_probe,
    nr: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_probe(ring, p, nr) })
    })
}

/// Restricts what a disabled ring will accept once enabled.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `res`: the allowed register opcodes, SQE opcodes and SQE flags.
/// - `nr_res`: how many entries.
///
/// # Safety
/// `ring` null or valid; `res` readable for `nr_res` entries.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_restrictions(
    ring: *mut io_uring,
    res: *mut io_uring_restriction,
    nr_res: c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_restrictions(ring, res, nr_res) })
    })
}

/// Enables a ring created with `IORING_SETUP_R_DISABLED`.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBADFD`: the ring is not disabled.
///
/// # See also
/// io_uring_register_restrictions, io_uring_setup_flags(7)
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_enable_rings(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| { ret_int(register::enable_rings(ring)) })
}

// ---------------------------------------------------------------------------
// io-wq
// ---------------------------------------------------------------------------

/// Sets the CPU affinity of the ring's async workers.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `cpusz`: the size of `mask` in bytes.
/// - `mask`: the CPUs the workers may run on.
///
/// # Safety
/// `ring` null or valid; `mask` readable for `cpusz` bytes.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_iowq_aff(
    ring: *mut io_uring,
    cpusz: libc::size_t,
    mask: *const libc::cpu_set_t,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_iowq_aff(ring, cpusz, mask) })
    })
}

/// Resets the async workers' affinity.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_iowq_aff(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| {
        ret_int(register::unregister_iowq_aff(ring))
    })
}

/// Sets (and reads back the old) bounded/unbounded worker limits.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `values`: two numbers, the limits for bounded and for unbounded workers;
///   0 leaves a limit as it is. On return they hold the previous limits.
///
/// # Safety
/// `ring` null or valid; `values` null or valid for two unsigned ints.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_iowq_max_workers(
    ring: *mut io_uring,
    values: *mut c_uint,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; the kernel checks `values`.
        ret_int(unsafe { register::register_iowq_max_workers(ring, values) })
    })
}

// ---------------------------------------------------------------------------
// Ring fd
// ---------------------------------------------------------------------------

/// Registers the ring fd; returns 1.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 1 (the number of descriptors registered) on success, or a negated errno value.
///
/// # Notes
/// Later calls pass the registered index with `IORING_ENTER_REGISTERED_RING`,
/// which saves a file lookup per system call. Needs Linux 5.18.
///
/// # See also
/// io_uring_unregister_ring_fd, io_uring_close_ring_fd
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_ring_fd(ring: *mut io_uring) -> c_int {
    let ring = exclusive_ring!(ring);
    ret_int(register::register_ring_fd(ring))
}

/// Unregisters the ring fd; returns 1.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_ring_fd(ring: *mut io_uring) -> c_int {
    let ring = exclusive_ring!(ring);
    ret_int(register::unregister_ring_fd(ring))
}

/// Closes the real fd of a ring with a registered fd; returns 1.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 1 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the ring descriptor is not registered, so closing it would
///   leave no way to reach the ring.
/// - `EOPNOTSUPP`: the kernel cannot do without the real descriptor (no
///   `IORING_FEAT_REG_REG_RING`).
///
/// # See also
/// io_uring_register_ring_fd
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_close_ring_fd(ring: *mut io_uring) -> c_int {
    let ring = exclusive_ring!(ring);
    ret_int(register::close_ring_fd(ring))
}

// ---------------------------------------------------------------------------
// Cancel, NAPI, clock, messages
// ---------------------------------------------------------------------------

/// Cancels matching requests synchronously.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `reg`: what to cancel (as the flags of io_uring_prep_cancel()) and how
///   long to wait.
///
/// # Safety
/// `ring` null or valid; `reg` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_sync_cancel(
    ring: *mut io_uring,
    reg: *mut io_uring_sync_cancel_reg,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; the kernel checks `reg`.
        ret_int(unsafe { register::register_sync_cancel(ring, reg) })
    })
}

/// Runs a MSG_RING SQE without a source ring.
///
/// # Safety
/// `sqe` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_sync_msg(sqe: *mut io_uring_sqe) -> c_int {
    // SAFETY: forwarded caller guarantee; the kernel checks `sqe`.
    ret_int(unsafe { register::register_sync_msg(sqe) })
}

/// Enables NAPI busy polling (old settings written back).
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `napi` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_napi(
    ring: *mut io_uring,
    napi: *mut io_uring_napi,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; the kernel checks `napi`.
        ret_int(unsafe { register::register_napi(ring, napi) })
    })
}

/// Disables NAPI busy polling (`napi`, if not null, gets the old settings).
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `napi` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_napi(
    ring: *mut io_uring,
    napi: *mut io_uring_napi,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::unregister_napi(ring, napi) })
    })
}

/// Selects the clock for wait timeouts.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `arg` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_clock(
    ring: *mut io_uring,
    arg: *mut io_uring_clock_register,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; the kernel checks `arg`.
        ret_int(unsafe { register::register_clock(ring, arg) })
    })
}

// ---------------------------------------------------------------------------
// Regions, zcrx, BPF, query
// ---------------------------------------------------------------------------

/// Registers a memory region.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `reg` as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_region(
    ring: *mut io_uring,
    reg: *mut io_uring_mem_region_reg,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_region(ring, reg) })
    })
}

/// liburing 2.15's stub: always `-EINVAL`, whatever the arguments.
///
/// # Safety
/// None beyond the C contract; nothing is dereferenced.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_wait_reg(
    ring: *mut io_uring,
    reg: *mut io_uring_reg_wait,
    nr: c_int,
) -> c_int {
    let _ = (ring, reg, nr);
    ret_int(register::register_wait_reg())
}

/// Registers a zero-copy receive interface queue.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `reg` as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_ifq(
    ring: *mut io_uring,
    reg: *mut io_uring_zcrx_ifq_reg,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_ifq(ring, reg) })
    })
}

/// Controls a zero-copy receive queue.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `ctrl` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_zcrx_ctrl(
    ring: *mut io_uring,
    ctrl: *mut zcrx_ctrl,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee; the kernel checks `ctrl`.
        ret_int(unsafe { register::register_zcrx_ctrl(ring, ctrl) })
    })
}

/// Installs a BPF filter on the ring.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid; `bpf` as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_bpf_filter(
    ring: *mut io_uring,
    bpf: *mut io_uring_bpf,
) -> c_int {
    ring_call!(ring, |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_bpf_filter(ring, bpf) })
    })
}

/// Installs a BPF filter on the calling task.
///
/// # Safety
/// `bpf` as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_bpf_filter_task(bpf: *mut io_uring_bpf) -> c_int {
    // SAFETY: forwarded caller guarantee.
    ret_int(unsafe { register::register_bpf_filter_task(bpf) })
}

/// Runs a chain of capability queries.
///
/// # Safety
/// The chain must be valid as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_query(query: *mut io_uring_query_hdr) -> c_int {
    // SAFETY: forwarded caller guarantee.
    ret_int(unsafe { register::register_query(query) })
}

// ---------------------------------------------------------------------------
// Resize
// ---------------------------------------------------------------------------

/// Resizes the rings to `p`'s sizes and remaps them.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the ring was not set up with `IORING_SETUP_DEFER_TASKRUN`,
///   the kernel cannot resize (before Linux 6.13), or the sizes are bad.
/// - `EOVERFLOW`: the new rings are too small for the entries pending now.
///
/// # Notes
/// The SQE and CQE pointers a program holds become invalid.
///
/// # See also
/// io_uring_queue_init_params
///
/// # Safety
/// `ring` and `p` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_resize_rings(
    ring: *mut io_uring,
    p: *mut io_uring_params,
) -> c_int {
    let ring = exclusive_ring!(ring);
    // liburing writes `p->sq_off` at once: a null `p` is refused instead.
    // SAFETY: the C caller passes null or a valid `struct io_uring_params`.
    let Some(p) = (unsafe { p.as_mut() }) else {
        return -libc::EINVAL;
    };
    // SAFETY: a ring set up by this library, used by nothing else meanwhile.
    ret_int(unsafe { register::resize_rings(ring, p) }.map(|()| 0))
}
