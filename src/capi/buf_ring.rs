// SPDX-License-Identifier: MIT
//! C entry points for provided buffer rings.
//!
//! A null `ring` gives `-EINVAL` (NULL plus `*err = -EINVAL` for
//! `io_uring_setup_buf_ring`); a null `reg`, which liburing would
//! dereference, gives `-EINVAL` too; a null `head` gets the kernel's answer
//! first (as in liburing, which only writes `*head` on success) and
//! `-EINVAL` where liburing would write through it; a null `err` is simply
//! not written. Out-parameters (`head`, `err`) are only ever written.

use core::ffi::{c_int, c_uint};
use core::ptr::null_mut;

use super::{ret_err, ret_int, NULL_ARGUMENT};
use crate::buf_ring;
use crate::structs::io_uring;
use crate::syscall::{Errno, SysResult};
use crate::uapi::{io_uring_buf_reg, io_uring_buf_ring};

/// Registers a ring of provided buffers for buffer group `reg->bgid`. The
/// application owns the ring memory, adds buffers with
/// io_uring_buf_ring_add() and io_uring_buf_ring_advance(), and requests
/// with `IOSQE_BUFFER_SELECT` take buffers from it as data arrives.
/// `flags` is ORed into `reg->flags` (`IOU_PBUF_RING_MMAP`,
/// `IOU_PBUF_RING_INC`). Most programs call io_uring_setup_buf_ring(),
/// which also allocates the ring.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Arguments
/// - `reg`: where the ring memory is, its size and group id.
/// - `flags`: `IOU_PBUF_RING_*` flags.
///
/// # Safety
/// `ring` and `reg` null or valid; the ring memory `reg` names must stay
/// mapped while registered.
#[no_mangle]
pub unsafe extern "C" fn io_uring_register_buf_ring(
    ring: *mut io_uring,
    reg: *mut io_uring_buf_reg,
    flags: c_uint,
) -> c_int {
    observed!(no_caller, io_uring_register_buf_ring(
        ring, reg: *mut io_uring_buf_reg, flags: c_uint
    ) -> c_int {
        // SAFETY: the caller passes null or a valid, initialised `reg`.
        let Some(reg) = (unsafe { reg.as_mut() }) else {
            return NULL_ARGUMENT;
        };
        // SAFETY: forwarded caller guarantee on the ring memory.
        ret_int(unsafe { buf_ring::register_buf_ring(ring, reg, flags) })
    })
}

/// Unregisters buffer group `bgid`, registered with
/// io_uring_register_buf_ring(); the ring memory is the caller's to free.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Safety
/// `ring` null or valid.
#[no_mangle]
pub unsafe extern "C" fn io_uring_unregister_buf_ring(ring: *mut io_uring, bgid: c_int) -> c_int {
    observed!(no_caller, io_uring_unregister_buf_ring(ring, bgid: c_int) -> c_int {
        ret_int(buf_ring::unregister_buf_ring(ring, bgid))
    })
}

/// Reads how far the kernel has consumed buffer group `buf_group`: its
/// head index is stored in `*head`, so the entries from there to the tail
/// are the buffers still available.
///
/// As in liburing the kernel is asked first, so an unknown group gets the
/// kernel's error whatever `head` is; a null `head`, which liburing would
/// then write through, gets `-EINVAL`.
///
/// # Return value
/// 0 with the head stored in `*head`, or a negated errno value.
///
/// # Errors
/// - `EINVAL`: the group is not a buffer ring, or the kernel cannot report
///   heads (before Linux 6.8). [check: err-io_uring_buf_ring_head-EINVAL]
/// - `ENOENT`: no buffer group has that id. [check: err-io_uring_buf_ring_head-ENOENT]
///
/// # See also
/// io_uring_buf_ring_available, io_uring_setup_buf_ring
///
/// # Safety
/// `ring` null or valid; `head` null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn io_uring_buf_ring_head(
    ring: *mut io_uring,
    buf_group: c_int,
    head: *mut u16,
) -> c_int {
    // The sanitizer build checks the out-parameter, as liburing's does.
    #[cfg(feature = "sanitize")]
    uring_core::sanitize::check_address(
        crate::uapi::IORING_REGISTER_PBUF_STATUS,
        "head",
        head as usize,
    );
    observed!(no_caller, io_uring_buf_ring_head(ring, buf_group: c_int, head: *mut u16) -> c_int {
        let value = match buf_ring::buf_ring_head(ring, buf_group) {
            Ok(v) => v,
            Err(e) => return ret_err(e),
        };
        if head.is_null() {
            return NULL_ARGUMENT;
        }
        // SAFETY: the caller passes null (handled) or a writable `u16`, which
        // may be uninitialised: it is written, not read.
        unsafe { head.write(value) };
        0
    })
}

/// Creates a ring of provided buffers for group `bgid` in one call: it
/// allocates page-aligned memory for `nentries` entries, registers it and
/// initializes it. The ring starts empty; add buffers with
/// io_uring_buf_ring_add() and publish them with io_uring_buf_ring_advance().
/// On failure it returns NULL and stores a negated errno value in `*err`.
///
/// # Arguments
/// - `nentries`: ring size, a power of two up to 32768.
/// - `bgid`: the buffer group id requests will select.
/// - `flags`: `IOU_PBUF_RING_*` flags, such as `IOU_PBUF_RING_INC`.
/// - `err`: receives the negated errno value on failure.
///
/// # Return value
/// The ring, ready for io_uring_buf_ring_add(), or NULL with `*err` set.
///
/// # Errors
/// - `EINVAL`: a bad size or flag, or the kernel has no buffer rings (before
///   Linux 5.19). [check: err-io_uring_setup_buf_ring-EINVAL]
/// - `EEXIST`: group `bgid` is in use. [check: register-EEXIST-buffer-group]
/// - `ENOMEM`: the memory could not be mapped. [check: err-io_uring_setup_buf_ring-ENOMEM]
///
/// # See also
/// io_uring_free_buf_ring, io_uring_buf_ring_add, io_uring_provided_buffers(7)
///
/// # Safety
/// `ring` null or valid; `err` null or writable.
#[no_mangle]
pub unsafe extern "C" fn io_uring_setup_buf_ring(
    ring: *mut io_uring,
    nentries: c_uint,
    bgid: c_int,
    flags: c_uint,
    err: *mut c_int,
) -> *mut io_uring_buf_ring {
    observed!(no_caller, io_uring_setup_buf_ring(
        ring, nentries: c_uint, bgid: c_int, flags: c_uint, err: *mut c_int
    ) -> *mut io_uring_buf_ring, else {
        // SAFETY: forwarded caller guarantee on `err`.
        unsafe { with_err(err, Err(Errno::EINVAL)) }
    } {
        let r = buf_ring::setup_buf_ring(ring, nentries, bgid, flags);
        // SAFETY: forwarded caller guarantee on `err`.
        unsafe { with_err(err, r) }
    })
}

/// The buffer ring, or null; 0 or `-errno` written to `err` unless null.
///
/// # Safety
/// `err` is null or writable for an int, which may be uninitialised: it
/// is written, not read.
unsafe fn with_err(
    err: *mut c_int,
    r: SysResult<*mut io_uring_buf_ring>,
) -> *mut io_uring_buf_ring {
    let (br, code) = match r {
        Ok(br) => (br, 0),
        Err(e) => (null_mut(), ret_err(e)),
    };
    if !err.is_null() {
        // SAFETY: per the caller.
        unsafe { err.write(code) };
    }
    br
}

/// Undoes io_uring_setup_buf_ring(): unregisters buffer group `bgid` and
/// frees the ring's memory. The buffers themselves belong to the caller.
/// A null `ring` gives `-EINVAL` where liburing would dereference it.
///
/// # Return value
/// 0 on success, or a negated errno value.
///
/// # See also
/// io_uring_setup_buf_ring, io_uring_unregister_buf_ring
///
/// # Safety
/// `ring` null or valid; `br` from `io_uring_setup_buf_ring` with the same
/// `nentries` and `bgid`, unused afterwards.
#[no_mangle]
pub unsafe extern "C" fn io_uring_free_buf_ring(
    ring: *mut io_uring,
    br: *mut io_uring_buf_ring,
    nentries: c_uint,
    bgid: c_int,
) -> c_int {
    observed!(no_caller, io_uring_free_buf_ring(
        ring, br: *mut io_uring_buf_ring, nentries: c_uint, bgid: c_int
    ) -> c_int {
        // SAFETY: forwarded caller guarantee.
        ret_int(unsafe { buf_ring::free_buf_ring(ring, br, nentries, bgid) })
    })
}

#[cfg(test)]
mod tests;
