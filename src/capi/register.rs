// SPDX-License-Identifier: MIT
//! C entry points for the registration calls that build what they pass
//! (file and buffer tables with tags or updates, buffer cloning, ring-fd
//! handling, resizing). The calls that hand their argument to the kernel
//! untouched are generated from a table into `register_pass_through.rs`.
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
//! only they take `&mut io_uring` (`ring_arg!(exclusive ..)`, see `ring_arg.rs`).

use core::ffi::{c_int, c_uint, c_void};
use core::mem::{align_of, size_of};

use super::{ret_int, NULL_ARGUMENT};
use crate::structs::io_uring;
use crate::syscall::SysResult;
use crate::uapi::{io_uring_params, io_uring_reg_wait};
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

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

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
    observed!(no_caller, io_uring_register_files_tags(ring, files: *const c_int, tags: *const __u64, nr: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_files_sparse(ring, nr: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_files_update(ring, off: c_uint, files: *const c_int, nr_files: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_files_update_tag(ring, off: c_uint, files: *const c_int, tags: *const __u64, nr_files: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_file_alloc_range(ring, off: c_uint, len: c_uint) -> c_int {
            ret_int(register::register_file_alloc_range(ring, off, len))
    })
}

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

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
    observed!(no_caller, io_uring_register_buffers_tags(ring, iovecs: *const iovec, tags: *const __u64, nr: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_buffers_sparse(ring, nr: c_uint) -> c_int {
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
    observed!(no_caller, io_uring_register_buffers_update_tag(ring, off: c_uint, iovecs: *const iovec, tags: *const __u64, nr: c_uint) -> c_int {
            // SAFETY: forwarded caller guarantee; `iovec` has libc's layout.
            ret_int(unsafe {
                register::register_buffers_update_tag(ring, off, <*const iovec>::cast(iovecs), tags, nr)
            })
    })
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
    observed!(no_caller, __io_uring_clone_buffers_offset(dst, src: *mut io_uring, dst_off: c_uint, src_off: c_uint, nr: c_uint, flags: c_uint) -> c_int {
            let src = ring_arg!(live src);
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
    observed!(no_caller, io_uring_clone_buffers_offset(dst, src: *mut io_uring, dst_off: c_uint, src_off: c_uint, nr: c_uint, flags: c_uint) -> c_int {
            let src = ring_arg!(live src);
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
    observed!(no_caller, io_uring_clone_buffers(dst, src: *mut io_uring) -> c_int {
            let src = ring_arg!(live src);
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
    observed!(no_caller, __io_uring_clone_buffers(dst, src: *mut io_uring, flags: c_uint) -> c_int {
            let src = ring_arg!(live src);
            ret_int(register::clone_buffers_raw(dst, src, flags))
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
    with_call_site!(io_uring_register_ring_fd(ring) -> c_int, |caller| {
        let ring = ring_arg!(exclusive ring);
        let r = setup::register_ring_fd(ring);
        ring_changed(ring, caller, r)
    })
}

/// Undoes io_uring_register_ring_fd(): later system calls use the ring's
/// file descriptor again. Returns 1 on success.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_ring_fd(ring: *mut io_uring) -> c_int {
    with_call_site!(io_uring_unregister_ring_fd(ring) -> c_int, |caller| {
        let ring = ring_arg!(exclusive ring);
        let r = setup::unregister_ring_fd(ring);
        ring_changed(ring, caller, r)
    })
}

/// liburing's result of a call that changed the ring's fd or layout,
/// reported to an observer when it succeeded.
fn ring_changed(ring: &io_uring, caller: crate::observe::Caller, r: SysResult<i32>) -> c_int {
    if r.is_ok() {
        if let Some(w) = crate::observe::watched(caller) {
            w.ring_changed(ring);
        }
    }
    ret_int(r)
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
    with_call_site!(io_uring_close_ring_fd(ring) -> c_int, |caller| {
        let ring = ring_arg!(exclusive ring);
        let r = setup::close_ring_fd(ring);
        ring_changed(ring, caller, r)
    })
}

// ---------------------------------------------------------------------------
// Wait-argument registration (a stub)
// ---------------------------------------------------------------------------

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
    with_call_site!(io_uring_resize_rings(ring, p: *mut io_uring_params) -> c_int, |caller| {
        let ring = ring_arg!(exclusive ring);
        // liburing writes `p->sq_off` at once: a null `p` is refused instead.
        // SAFETY: the C caller passes null or a valid `struct io_uring_params`.
        let Some(p) = (unsafe { p.as_mut() }) else {
            return NULL_ARGUMENT;
        };
        // SAFETY: a ring set up by this library, used by nothing else meanwhile.
        let r = unsafe { setup::resize_rings(ring, p) }.map(|()| 0);
        ring_changed(ring, caller, r)
    })
}

#[cfg(test)]
mod tests;
