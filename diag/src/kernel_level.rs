// SPDX-License-Identifier: MIT
//! How new the running kernel's io_uring is, judged by asking it rather
//! than by its version number: distributions carry io_uring code newer than
//! their kernel's release (Debian's 5.10 has the io_uring of 5.15, with
//! `IORING_FEAT_EXT_ARG` and friends), so `uname` gives only a lower bound.
//! The evidence is a test ring's `IORING_FEAT_*` flags and its probe's
//! supported opcodes, each dated by the release that added it; the answer
//! is the newest of those dates and the version number.
//!
//! The test ring (`crate::test_ring`) is asked once per process.

use core::ptr;
use core::sync::atomic::Ordering;

use crate::atomic_u64::AtomicU64;
use crate::syscall;
use crate::test_ring::with_test_ring;
use crate::uapi::releases::{FEATURES, REQUEST_OPCODES};
use crate::uapi::*;

/// The answer, as `major << 16 | minor`, plus one bit saying it is known.
static LEVEL: AtomicU64 = AtomicU64::new(0);
const KNOWN: u64 = 1 << 32;

/// A probe with room for every opcode the kernel may report.
#[repr(C)]
struct ProbeBuf {
    head: io_uring_probe,
    ops: [io_uring_probe_op; 256],
}

/// The newest release the running kernel's io_uring evidently contains,
/// or `None` when neither the version number nor a test ring tells.
pub fn release() -> Option<(u32, u32)> {
    let cached = LEVEL.load(Ordering::Relaxed);
    if cached & KNOWN != 0 {
        let v = cached & 0xffff_ffff;
        return (v != 0).then_some(((v >> 16) as u32, (v & 0xffff) as u32));
    }
    let level = match (crate::sysinfo::kernel_version(), evidence()) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let encoded = level.map_or(0, |(a, b)| (u64::from(a) << 16) | u64::from(b & 0xffff));
    LEVEL.store(KNOWN | encoded, Ordering::Relaxed);
    level
}

/// Whether the running kernel's io_uring has what release `added` brought.
pub fn has(added: (u32, u32)) -> bool {
    release().is_some_and(|r| r >= added)
}

/// The newest release among the test ring's features and probed opcodes.
fn evidence() -> Option<(u32, u32)> {
    with_test_ring(io_uring_params::default(), |fd, p| {
        let mut newest = None;
        let mut note = |since: Option<(u32, u32)>| {
            if since > newest {
                newest = since;
            }
        };
        for bit in (0..32).map(|b| 1u32 << b).filter(|b| p.features & b != 0) {
            note(FEATURES.since_of(i128::from(bit)));
        }
        supported_ops_of(fd, |op| note(REQUEST_OPCODES.since_of(i128::from(op))));
        newest
    })
    .ok()
    .flatten()
}

/// Calls `each` with every opcode the kernel supports, from a probe of a
/// test ring of its own; false when no ring or probe could be had.
pub fn supported_ops(each: impl FnMut(u8)) -> bool {
    with_test_ring(io_uring_params::default(), |fd, _| {
        supported_ops_of(fd, each)
    })
    .unwrap_or(false)
}

/// [`supported_ops`] of the test ring `fd`.
fn supported_ops_of(fd: i32, mut each: impl FnMut(u8)) -> bool {
    // SAFETY: all-zero is a valid probe (plain integers).
    let mut probe: ProbeBuf = unsafe { core::mem::zeroed() };
    // SAFETY: the kernel writes at most 256 opcode entries after the
    // header, which `probe` has room for, during the call only.
    let probed = unsafe {
        syscall::io_uring_register(
            fd as u32,
            IORING_REGISTER_PROBE,
            ptr::from_mut(&mut probe).cast_const().cast(),
            256,
        )
    };
    if probed.is_err() {
        return false;
    }
    let n = usize::from(probe.head.ops_len).min(probe.ops.len());
    for op in probe.ops[..n]
        .iter()
        .filter(|o| o.flags & IO_URING_OP_SUPPORTED != 0)
    {
        each(op.op);
    }
    true
}

/// Whether the kernel takes `flag` (an `IOU_PBUF_RING_*` bit) when
/// registering a provided-buffer ring: asked on a test ring of its own, with
/// a kernel-allocated ring of one entry (`IOU_PBUF_RING_MMAP`, which needs
/// no memory from us), torn down with the test ring.
pub fn pbuf_ring_flag_known(flag: u16) -> bool {
    with_test_ring(io_uring_params::default(), |fd, _| {
        let mut reg = io_uring_buf_reg {
            ring_entries: 1,
            flags: flag | IOU_PBUF_RING_MMAP,
            ..Default::default()
        };
        // SAFETY: one io_uring_buf_reg, read by the kernel during the call; the
        // ring it allocates belongs to the test ring and goes with it.
        unsafe {
            syscall::io_uring_register(
                fd as u32,
                IORING_REGISTER_PBUF_RING,
                ptr::from_mut(&mut reg).cast_const().cast(),
                1,
            )
        }
        .is_ok()
    })
    .unwrap_or(true)
}

#[cfg(test)]
mod tests;
