// SPDX-License-Identifier: MIT
//! Opcode probing (`io_uring_get_probe` and friends).
//!
//! Probes are handed to C code, which may release them with `free()`
//! instead of `io_uring_free_probe`, so they are allocated with the C
//! allocator.

use core::mem::size_of;

use crate::geometry::empty_ring;
use crate::register::{live, register};
use crate::ring::LiveRing;
use crate::setup::{queue_exit, queue_init};
use crate::syscall::{Errno, SysResult};
use crate::uapi::{io_uring_probe, io_uring_probe_op, IORING_REGISTER_PROBE};

/// How many opcode slots a probe has room for (the kernel fills fewer).
pub const PROBE_OPS: u32 = 256;

/// Bytes of a probe with room for [`PROBE_OPS`] opcodes.
pub const PROBE_BYTES: usize =
    size_of::<io_uring_probe>() + PROBE_OPS as usize * size_of::<io_uring_probe_op>();

/// `io_uring_get_probe_ring`: asks the kernel which opcodes `ring`
/// supports. The answer is allocated with `calloc` and is the caller's to
/// `free` (see [`free_probe`]).
pub fn get_probe_ring(ring: LiveRing) -> SysResult<*mut io_uring_probe> {
    // SAFETY: calloc has no preconditions; the result is checked for null.
    let probe = unsafe { libc::calloc(1, PROBE_BYTES) }.cast::<io_uring_probe>();
    if probe.is_null() {
        return Err(Errno::ENOMEM);
    }
    // SAFETY: `probe` is zeroed memory with room for PROBE_OPS entries,
    // which is what the kernel may write.
    match unsafe {
        register(
            live(ring),
            IORING_REGISTER_PROBE,
            probe.cast_const().cast(),
            PROBE_OPS,
        )
    } {
        Ok(_) => Ok(probe),
        Err(e) => {
            // SAFETY: allocated above and not handed out.
            unsafe { libc::free(probe.cast()) };
            Err(e)
        }
    }
}

/// `io_uring_get_probe`: [`get_probe_ring`] on a small throwaway ring.
pub fn get_probe() -> SysResult<*mut io_uring_probe> {
    let mut ring = empty_ring();
    queue_init(2, &mut ring, 0)?;
    // SAFETY: set up just above; torn down only after this use.
    let live = unsafe { LiveRing::from_ptr(&mut ring) };
    let probe = live.map_or(Err(Errno::EINVAL), get_probe_ring);
    // SAFETY: the ring was set up above and is not used after this.
    unsafe { queue_exit(&mut ring) };
    probe
}

/// `io_uring_free_probe`.
///
/// # Safety
/// `probe` must be null or come from [`get_probe_ring`]/[`get_probe`] (or
/// any other `malloc`), and must not be used afterwards.
pub unsafe fn free_probe(probe: *mut io_uring_probe) {
    // SAFETY: the caller guarantees the pointer is the C allocator's.
    unsafe { libc::free(probe.cast()) };
}

#[cfg(test)]
mod tests;
