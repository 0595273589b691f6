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
use crate::structs::io_uring;
use crate::uapi::{
    io_uring_bpf, io_uring_clock_register, io_uring_mem_region_reg, io_uring_napi, io_uring_params,
    io_uring_probe, io_uring_query_hdr, io_uring_reg_wait, io_uring_restriction, io_uring_sqe,
    io_uring_sync_cancel_reg, io_uring_zcrx_ifq_reg, zcrx_ctrl,
};
use crate::{register, setup};

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

/// Runs `$body`, an expression of the live ring `$r` giving the C result,
/// for the C caller's `ring` (`-EINVAL` when it is null). The arguments the
/// body uses may be listed in brackets, for the reader; a failure reaches
/// the observer from the core's one `register` call, on the error path.
macro_rules! ring_call {
    ($ring:ident, |$r:ident| $body:expr) => {
        ring_call!($ring, [], |$r| $body)
    };
    ($ring:ident, [$($a:ident),*], |$r:ident| $body:expr) => {{
        let $r = live_ring!($ring);
        $body
    }};
}

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

/// Registers `nr_files` file descriptors as the ring's file table. A request
/// can then name a file by its index in the table (with `IOSQE_FIXED_FILE`)
/// instead of its descriptor, which saves the kernel a lookup and a
/// reference count per request. A -1 entry leaves the slot empty.
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
/// - `EBUSY`: a file table is registered already. [check: register-EBUSY-files]
/// - `EBADF`: an entry is neither an open descriptor nor -1. [check: register-files-EBADF]
/// - `EMFILE`: `nr_files` exceeds the process's descriptor limit; the library
///   raises the soft `RLIMIT_NOFILE` once and retries, as liburing does. [check: err-io_uring_register_files-EMFILE]
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
    ring_call!(ring, [files, nr_files], |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files(ring, files, nr_files) })
    })
}

/// Registers a file table as io_uring_register_files() does, with a tag per
/// slot, reported in a CQE when the file of that slot is finally released.
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
    ring_call!(ring, [files, tags, nr], |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_tags(ring, files, tags, nr) })
    })
}

/// Registers an empty file table of `nr` slots. Direct descriptors
/// (io_uring_prep_openat_direct(), io_uring_prep_accept_direct(), ...) and
/// io_uring_register_files_update() fill the slots later, so a program can
/// size the table once for its lifetime.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `nr`: the number of empty slots.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_files_sparse(ring: *mut io_uring, nr: c_uint) -> c_int {
    ring_call!(ring, [nr], |ring| {
        ret_int(register::register_files_sparse(ring, nr))
    })
}

/// Replaces `nr_files` entries of the registered file table, starting at
/// slot `off`, with the descriptors in `files`; -1 empties a slot. Requests
/// already using an old file keep it until they finish.
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
    ring_call!(ring, [off, files, nr_files], |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_update(ring, off, files, nr_files) })
    })
}

/// Replaces `nr_files` entries of the registered file table, starting at
/// slot `off`, like io_uring_register_files_update(), and gives each new
/// entry a tag (reported in a CQE when the file is finally released).
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
    ring_call!(ring, [off, files, tags, nr_files], |ring| {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { register::register_files_update_tag(ring, off, files, tags, nr_files) })
    })
}

/// Chooses which registered-file slots the kernel may pick when a request
/// asks for any free slot (`IORING_FILE_INDEX_ALLOC`): those from `off`
/// to `off + len - 1`. The other slots stay for the program to assign.
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
    ring_call!(ring, [off, len], |ring| {
        ret_int(register::register_file_alloc_range(ring, off, len))
    })
}

/// Unregisters the ring's file table; requests still using a file keep it
/// until they finish.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_files(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| ret_int(register::unregister_files(ring)))
}

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// Registers `nr_iovecs` buffers with the ring, so that requests can use
/// them without the kernel mapping the memory each time. The memory is
/// pinned until io_uring_unregister_buffers() or the ring's exit; requests
/// name a buffer by its index (io_uring_prep_read_fixed(),
/// io_uring_prep_write_fixed(), zero-copy sends with a fixed buffer).
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
/// - `EBUSY`: a buffer table is registered already. [check: register-buffers-EBUSY]
/// - `ENOMEM`: pinning failed or exceeded the locked-memory limit. [check: err-io_uring_register_buffers-ENOMEM]
/// - `EFAULT`: a buffer is not valid memory. [check: register-buffers-EFAULT]
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

/// Registers buffers as io_uring_register_buffers() does, with a tag per
/// slot. When a tagged buffer is later replaced or unregistered, the
/// kernel posts a CQE with the tag as `user_data` once no request uses the
/// old buffer any more, so its memory can then be reused safely.
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
    ring_call!(ring, [iovecs, tags, nr], |ring| {
        // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
        ret_int(unsafe {
            register::register_buffers_tags(ring, <*const iovec>::cast(iovecs), tags, nr)
        })
    })
}

/// Registers an empty buffer table of `nr` slots, to be filled later with
/// io_uring_register_buffers_update_tag(). A program can so size the table
/// once and swap buffers in and out while requests run.
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
    ring_call!(ring, [nr], |ring| {
        ret_int(register::register_buffers_sparse(ring, nr))
    })
}

/// Replaces `nr` entries of the registered buffer table, starting at slot
/// `off`, with the buffers in `iovecs` and the tags in `tags`. Requests
/// already using an old buffer keep it until they finish; its tag (if any)
/// is then reported in a CQE.
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
    ring_call!(ring, [off, iovecs, tags, nr], |ring| {
        // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
        ret_int(unsafe {
            register::register_buffers_update_tag(ring, off, <*const iovec>::cast(iovecs), tags, nr)
        })
    })
}

/// Unregisters all buffers of the ring and unpins their memory.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_buffers(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| ret_int(register::unregister_buffers(ring)))
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
    ring_call!(dst, [src, dst_off, src_off, nr, flags], |dst| {
        let src = live_ring!(src);
        ret_int(register::clone_buffers_offset_raw(
            dst, src, dst_off, src_off, nr, flags,
        ))
    })
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
    ring_call!(dst, [src, dst_off, src_off, nr, flags], |dst| {
        let src = live_ring!(src);
        ret_int(register::clone_buffers_offset(
            dst, src, dst_off, src_off, nr, flags,
        ))
    })
}

/// Gives ring `dst` the same registered buffers as ring `src`, without
/// pinning the memory a second time: the rings share the buffers. `dst`
/// must have no buffers registered yet.
/// A null `dst` or `src` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: `dst` has a buffer table already. [check: err-io_uring_clone_buffers-EBUSY]
/// - `ENXIO`: `src` has no registered buffers. [check: err-io_uring_clone_buffers-ENXIO]
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
    ring_call!(dst, [src], |dst| {
        let src = live_ring!(src);
        ret_int(register::clone_buffers(dst, src))
    })
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
    ring_call!(dst, [src, flags], |dst| {
        let src = live_ring!(src);
        ret_int(register::clone_buffers_raw(dst, src, flags))
    })
}

// ---------------------------------------------------------------------------
// Eventfd, personality, probe, restrictions
// ---------------------------------------------------------------------------

/// Has the kernel signal the eventfd `fd` when completions are posted, so
/// that an event loop built on epoll(7) or poll(2) learns about them. One
/// signal may stand for several completions: read the CQ ring until it is
/// empty.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `fd`: a descriptor from eventfd(2).
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: an eventfd is registered already; unregister it first. [check: register-eventfd-EBUSY]
/// - `EINVAL`: `fd` is not an eventfd, or `ring` is NULL. [check: register-eventfd-EINVAL-not-eventfd]
/// - `EBADF`: `fd` is not an open descriptor. [check: register-eventfd-EBADF]
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

/// Like io_uring_register_eventfd(), but the eventfd is signalled only for
/// requests that completed asynchronously, not for those that completed
/// inline during submission (whose CQEs the submitter can reap at once).
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `fd`: a descriptor from eventfd(2).
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBUSY`: an eventfd is registered already. [check: err-io_uring_register_eventfd_async-EBUSY]
/// - `EINVAL`: `fd` is not an eventfd, or `ring` is NULL. [check: err-io_uring_register_eventfd_async-EINVAL]
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

/// Unregisters the ring's eventfd: completions no longer signal it.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `ENXIO`: no eventfd is registered. [check: err-io_uring_unregister_eventfd-ENXIO]
///
/// # See also
/// io_uring_register_eventfd, io_uring_cq_eventfd_toggle
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_eventfd(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| ret_int(register::unregister_eventfd(ring)))
}

/// Registers the calling task's credentials. The ring returns an id for
/// them, and a request whose `personality` field holds the id runs with
/// those credentials, whichever task submits it.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// The new personality id (a positive 16-bit number) on success, or a negated
/// errno value. [check: register-personality-returns-id]
///
/// # Errors
/// - `EBUSY`: no free id is left (ids are 16 bits wide). [check: err-io_uring_register_personality-EBUSY]
/// - `ENOMEM`: the kernel could not store the credentials. [unchecked: memory exhaustion, which a check cannot cause without starving the machine]
/// - `EINVAL`: `ring` is NULL. [unchecked: a NULL ring crashes upstream liburing, which the checks also drive; capi-tests/differential covers this library's answer]
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

/// Unregisters the credentials registered as personality `id` with
/// io_uring_register_personality().
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `id`: an id returned by io_uring_register_personality().
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: no personality has that id, or `ring` is NULL. [check: err-io_uring_unregister_personality-EINVAL]
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

/// Asks the kernel which request opcodes it supports and fills the probe
/// `p`, which has room for `nr` entries. io_uring_get_probe_ring() does the
/// allocation for you.
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

/// Limits what a ring will accept once enabled: which register opcodes,
/// which request opcodes and which SQE flags. Only a ring created with
/// `IORING_SETUP_R_DISABLED` can be restricted, and only once; a sandbox
/// can so hand a ring to less trusted code. Anything else fails with
/// `EACCES`.
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

/// Starts a ring created with `IORING_SETUP_R_DISABLED`, usually after
/// io_uring_register_restrictions(). Until then the ring accepts no
/// submissions.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EBADFD`: the ring is not disabled. [check: err-io_uring_enable_rings-EBADFD]
///
/// # See also
/// io_uring_register_restrictions, io_uring_setup_flags(7)
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_enable_rings(ring: *mut io_uring) -> c_int {
    ring_call!(ring, |ring| ret_int(register::enable_rings(ring)))
}

// ---------------------------------------------------------------------------
// io-wq
// ---------------------------------------------------------------------------

/// Confines the ring's asynchronous worker threads to the CPUs in `mask`
/// (`cpusz` bytes, as for sched_setaffinity(2)).
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

/// Undoes io_uring_register_iowq_aff(): the asynchronous workers may run
/// on any CPU the ring's task may use again.
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

/// Limits how many asynchronous worker threads the ring may start:
/// `values[0]` for bounded work (regular files, block devices), `values[1]`
/// for unbounded work (sockets, pipes); 0 leaves a limit unchanged. The
/// previous limits are written back into `values`.
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

/// Registers the ring's own file descriptor with the ring, so that later
/// io_uring_enter(2) calls of this thread pass an index and the kernel skips
/// the descriptor lookup. The library then uses it by itself; it helps
/// programs that submit and wait very often. Returns 1 on success.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 1 (the number of descriptors registered) on success, or a negated errno value. [check: register-ring-fd-returns-1]
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
    ret_int(setup::register_ring_fd(ring))
}

/// Undoes io_uring_register_ring_fd(): later system calls use the ring's
/// file descriptor again. Returns 1 on success.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_ring_fd(ring: *mut io_uring) -> c_int {
    let ring = exclusive_ring!(ring);
    ret_int(setup::unregister_ring_fd(ring))
}

/// Closes the ring's ordinary file descriptor. After
/// io_uring_register_ring_fd(), the registered index is enough to reach
/// the ring; closing the descriptor frees a slot of the process's file
/// table. Calls that need a real descriptor (mmap(2), sharing the
/// ring) no longer work. Returns 1 on success.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 1 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the ring descriptor is not registered, so closing it would
///   leave no way to reach the ring. [check: err-io_uring_close_ring_fd-EINVAL]
/// - `EOPNOTSUPP`: the kernel cannot do without the real descriptor (no
///   `IORING_FEAT_REG_REG_RING`). [check: err-io_uring_close_ring_fd-EOPNOTSUPP]
///
/// # See also
/// io_uring_register_ring_fd
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_close_ring_fd(ring: *mut io_uring) -> c_int {
    let ring = exclusive_ring!(ring);
    ret_int(setup::close_ring_fd(ring))
}

// ---------------------------------------------------------------------------
// Cancel, NAPI, clock, messages
// ---------------------------------------------------------------------------

/// Cancels the requests `reg` matches (by user_data, descriptor or
/// opcode) and waits until they are gone, up to `reg->timeout`. Unlike
/// io_uring_prep_cancel(), no CQE needs to be reaped for the cancelation
/// itself.
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

/// Posts a completion into another ring without having a ring of one's
/// own: `sqe` is prepared with io_uring_prep_msg_ring() and run at once.
///
/// # Safety
/// `sqe` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_sync_msg(sqe: *mut io_uring_sqe) -> c_int {
    // SAFETY: forwarded caller guarantee; the kernel checks `sqe`.
    ret_int(unsafe { register::register_sync_msg(sqe) })
}

/// Enables busy polling of the network device queues (NAPI) that the
/// ring's sockets use, while the ring waits for completions: lower network
/// latency at the price of CPU time. The previous settings are written back
/// into `napi`.
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

/// Turns off the NAPI busy polling set up with io_uring_register_napi();
/// `napi`, if not NULL, receives the settings that were in force.
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

/// Selects the clock that timeouts of waits on this ring are measured
/// against: CLOCK_MONOTONIC (the default) or CLOCK_BOOTTIME, which keeps
/// counting while the system is suspended.
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

/// Registers a memory region with the ring, described by `reg`. The only
/// use so far is an array of wait arguments (`IORING_MEM_REGION_REG_WAIT_ARG`)
/// that io_uring_submit_and_wait_reg() names by index, so that a wait
/// passes no pointers to the kernel.
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

/// Meant to register an array of wait arguments, a job that
/// io_uring_register_region() does instead.
/// liburing 2.15's stub: always `-EINVAL`, whatever the arguments.
///
/// # Return value
/// `-EINVAL`, always: register the wait arguments with
/// io_uring_register_region() and `IORING_MEM_REGION_REG_WAIT_ARG`.
///
/// # Errors
/// - `EINVAL`: always; the kernel is not asked. [check: ret-io_uring_register_wait_reg]
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

/// Registers a zero-copy receive interface queue: received data of one
/// hardware receive queue of a network device lands directly in memory the
/// program supplies, and `IORING_OP_RECV_ZC` requests report where.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, with `reg`'s offsets, `zcrx_id` and the refill region
/// filled in; a negated errno value on failure.
///
/// # Errors
/// - `EINVAL`: the ring lacks `IORING_SETUP_DEFER_TASKRUN`, 32-byte CQEs,
///   or `reg` is malformed. [check: err-io_uring_register_ifq-EINVAL]
/// - `EPERM`: the caller lacks CAP_NET_ADMIN. [check: err-io_uring_register_ifq-EPERM]
/// - `EOPNOTSUPP`: the device or its driver cannot do zero-copy receive. [unchecked: needs a network device and receive queue to hand over, which the test machine has not]
///
/// # Notes
/// Needs Linux 6.15 (`IORING_REGISTER_ZCRX_IFQ`).
///
/// # See also
/// io_uring_zcrx(7), io_uring_register_zcrx_ctrl, io_uring_register(2)
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

/// Controls a zero-copy receive instance. The instance was registered
/// with `io_uring_register_ifq`; `ctrl->op` is `ZCRX_CTRL_FLUSH_RQ` (return the
/// refill queue's buffers now) or `ZCRX_CTRL_EXPORT` (get a file descriptor
/// through which another ring can import the instance).
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 or, for `ZCRX_CTRL_EXPORT`, the new descriptor; a negated errno value
/// on failure (`EINVAL` for an unknown operation on older kernels).
///
/// # Notes
/// Needs Linux 6.19 (`IORING_REGISTER_ZCRX_CTRL`, register opcode 36);
/// liburing's page says 6.15, the release of zero-copy receive itself.
///
/// # See also
/// io_uring_register_ifq, io_uring_zcrx(7), io_uring_register(2)
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

/// Installs a BPF filter on the ring: a classic BPF program that sees each
/// request of one opcode before it is issued and allows or denies it; a
/// denied request completes with `-EACCES`.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success; a negated errno value on failure.
///
/// # Notes
/// Needs Linux 7.0 (`IORING_REGISTER_BPF_FILTER`); `struct io_uring_bpf`
/// is declared in <liburing/io_uring/bpf_filter.h>.
///
/// # See also
/// io_uring_register_bpf_filter_task, io_uring_register_restrictions,
/// io_uring_register(2)
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

/// Installs a BPF filter on the calling task rather than on one ring: it
/// applies to every ring the task uses.
///
/// # Return value
/// 0 on success; a negated errno value on failure.
///
/// # Notes
/// Needs Linux 7.0 (`IORING_REGISTER_BPF_FILTER` with no ring).
///
/// # See also
/// io_uring_register_bpf_filter, io_uring_register(2)
///
/// # Safety
/// `bpf` as the kernel requires.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_bpf_filter_task(bpf: *mut io_uring_bpf) -> c_int {
    // SAFETY: forwarded caller guarantee.
    ret_int(unsafe { register::register_bpf_filter_task(bpf) })
}

/// Runs a chain of capability queries, which need no ring: each
/// `struct io_uring_query_hdr` names a question (`IO_URING_QUERY_OPCODES`,
/// `IO_URING_QUERY_ZCRX`, `IO_URING_QUERY_SCQ`) and a buffer for the answer,
/// and receives its own result.
///
/// # Return value
/// 0 when the chain was walked (each header's `result` then says whether
/// its query worked); a negated errno value when it could not be.
///
/// # Errors
/// - `EINVAL`: the kernel predates the query interface, or a header has
///   nonzero reserved fields. [check: err-io_uring_register_query-EINVAL]
/// - `EFAULT`: a header or answer buffer is not accessible. [check: err-io_uring_register_query-EFAULT]
///
/// # Notes
/// Needs Linux 6.18 (`IORING_REGISTER_QUERY`, register opcode 35);
/// liburing's page says 6.15. `IO_URING_QUERY_ZCRX` and
/// `IO_URING_QUERY_SCQ` came with 6.19.
///
/// # See also
/// io_uring_register(2), io_uring_get_probe
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

/// Changes the sizes of a live ring's SQ and CQ to those in `p` and remaps
/// them; pending entries move to the new rings. Only rings set up with
/// `IORING_SETUP_DEFER_TASKRUN` can be resized.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the ring was not set up with `IORING_SETUP_DEFER_TASKRUN`,
///   the kernel cannot resize (before Linux 6.13), or the sizes are bad. [check: err-io_uring_resize_rings-EINVAL]
/// - `EOVERFLOW`: the new rings are too small for the entries pending now. [check: err-io_uring_resize_rings-EOVERFLOW]
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
    ret_int(unsafe { setup::resize_rings(ring, p) }.map(|()| 0))
}

#[cfg(test)]
mod tests;
