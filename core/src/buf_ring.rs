// SPDX-License-Identifier: MIT
//! Provided buffer rings: registering rings of buffers the kernel picks
//! from (`IOSQE_BUFFER_SELECT`), and liburing's helpers that also allocate
//! and free the ring memory.
//!
//! [`setup_buf_ring`] allocates the ring in one of two ways:
//! - by default, anonymous private memory of `nentries` entries, which the
//!   kernel pins (what liburing does on every architecture but parisc);
//! - when `flags` has `IOU_PBUF_RING_MMAP`, the kernel allocates it and the
//!   library maps it from the ring fd at
//!   `IORING_OFF_PBUF_RING | bgid << IORING_OFF_PBUF_SHIFT` (liburing 2.15
//!   on x86 would register its own memory with that flag set, which the
//!   kernel refuses).
//!
//! `IOU_PBUF_RING_INC` (incremental consumption) is simply passed on.

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::{self, null_mut};

use crate::observe::Watch;
use crate::register::{live, register, register_with, PBUF_STATUS, UNREGISTER_PBUF_RING};
use crate::ring::LiveRing;
use crate::syscall::{self, SysResult};
use crate::uapi::{
    io_uring_buf, io_uring_buf_reg, io_uring_buf_ring, io_uring_buf_status, IORING_OFF_PBUF_RING,
    IORING_OFF_PBUF_SHIFT, IORING_REGISTER_PBUF_RING, IOU_PBUF_RING_MMAP,
};

/// `io_uring_register_buf_ring`: ORs `flags` into `reg.flags` (kept, as in
/// liburing) and registers the ring `reg` describes.
///
/// # Safety
/// Unless `reg` asks the kernel to allocate the ring (`IOU_PBUF_RING_MMAP`),
/// `reg.ring_addr` must be page-aligned memory for `reg.ring_entries`
/// buffers that stays mapped while registered.
pub unsafe fn register_buf_ring<W: Watch>(
    ring: LiveRing<W>,
    reg: &mut io_uring_buf_reg,
    flags: u32,
) -> SysResult<i32> {
    reg.flags |= flags as u16;
    // SAFETY: `reg` is live; the ring memory it names is vouched for by the caller.
    let r = unsafe {
        register(
            live(ring),
            IORING_REGISTER_PBUF_RING,
            ptr::from_mut(reg).cast(),
            1,
        )
    }?;
    if let Some(w) = ring.watch().watched() {
        // Where a kernel-allocated ring is mapped is told by `setup_buf_ring`.
        let br = if reg.flags & IOU_PBUF_RING_MMAP == 0 {
            reg.ring_addr as usize as *const c_void
        } else {
            ptr::null()
        };
        w.buf_ring(
            ring.as_ptr(),
            reg.bgid,
            br,
            reg.ring_entries,
            u32::from(reg.flags),
        );
    }
    Ok(r)
}

/// `io_uring_unregister_buf_ring`.
pub fn unregister_buf_ring<W: Watch>(ring: LiveRing<W>, bgid: i32) -> SysResult<i32> {
    let mut reg = io_uring_buf_reg {
        bgid: bgid as u16,
        ..Default::default()
    };
    let r = register_with(live(ring), UNREGISTER_PBUF_RING, &mut reg)?;
    if let Some(w) = ring.watch().watched() {
        w.buf_ring(ring.as_ptr(), reg.bgid, ptr::null(), 0, 0);
    }
    Ok(r)
}

/// `io_uring_buf_ring_head`: the kernel's consumption head of group `buf_group`.
pub fn buf_ring_head<W: Watch>(ring: LiveRing<W>, buf_group: i32) -> SysResult<u16> {
    let mut status = io_uring_buf_status {
        buf_group: buf_group as u32,
        ..Default::default()
    };
    register_with(live(ring), PBUF_STATUS, &mut status)?;
    Ok(status.head as u16)
}

/// Bytes of a buffer ring of `nentries` entries.
#[inline]
fn ring_bytes(nentries: u32) -> usize {
    nentries as usize * size_of::<io_uring_buf>()
}

/// `io_uring_setup_buf_ring`: allocates, registers and initialises (empty,
/// tail 0) a buffer ring of `nentries` entries for group `bgid`.
///
/// On failure nothing stays allocated or registered.
pub fn setup_buf_ring<W: Watch>(
    ring: LiveRing<W>,
    nentries: u32,
    bgid: i32,
    flags: u32,
) -> SysResult<*mut io_uring_buf_ring> {
    let len = ring_bytes(nentries);
    let mut reg = io_uring_buf_reg {
        ring_entries: nentries,
        bgid: bgid as u16,
        ..Default::default()
    };
    let br: *mut io_uring_buf_ring = if flags & u32::from(IOU_PBUF_RING_MMAP) != 0 {
        // The kernel allocates; ring_addr stays 0.
        // SAFETY: with IOU_PBUF_RING_MMAP the kernel uses no memory of ours.
        unsafe { register_buf_ring(ring, &mut reg, flags) }?;
        let offset = IORING_OFF_PBUF_RING | (u64::from(bgid as u16) << IORING_OFF_PBUF_SHIFT);
        // SAFETY: a fresh shared mapping at an address of the kernel's choosing.
        let mapped = unsafe {
            syscall::mmap(
                null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_POPULATE,
                ring.ring_fd(),
                offset,
            )
        };
        match mapped {
            Ok(p) => {
                if let Some(w) = ring.watch().watched() {
                    w.buf_ring(ring.as_ptr(), bgid as u16, p.cast_const(), nentries, flags);
                }
                p.cast()
            }
            Err(e) => {
                let _ = unregister_buf_ring(ring, bgid);
                return Err(e);
            }
        }
    } else {
        // SAFETY: a fresh private mapping at an address of the kernel's choosing.
        let mem = unsafe {
            syscall::mmap(
                null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_ANONYMOUS | libc::MAP_PRIVATE,
                -1,
                0,
            )
        }?;
        reg.ring_addr = mem as usize as u64;
        // SAFETY: `mem` is page-aligned, `len` bytes long, and stays mapped
        // until free_buf_ring unregisters the group.
        if let Err(e) = unsafe { register_buf_ring(ring, &mut reg, flags) } {
            // SAFETY: the mapping was made above and the kernel refused it.
            let _ = unsafe { syscall::munmap(mem, len) };
            return Err(e);
        }
        mem.cast()
    };
    // SAFETY: `br` is the live, writable ring; the kernel only reads the
    // tail when a request selects a buffer, and none can until it moves.
    unsafe { ptr::addr_of_mut!((*br).tail).write(0) };
    Ok(br)
}

/// `io_uring_free_buf_ring`: unregisters group `bgid` and unmaps its ring
/// (made by [`setup_buf_ring`] with the same `nentries`). When the kernel
/// refuses to unregister, the memory stays mapped.
///
/// # Safety
/// `br` must come from [`setup_buf_ring`] with these `nentries` and `bgid`
/// and not be used afterwards.
pub unsafe fn free_buf_ring<W: Watch>(
    ring: LiveRing<W>,
    br: *mut io_uring_buf_ring,
    nentries: u32,
    bgid: i32,
) -> SysResult<i32> {
    unregister_buf_ring(ring, bgid)?;
    // SAFETY: the caller hands over the mapping made by setup_buf_ring.
    let _ = unsafe { syscall::munmap(br.cast(), ring_bytes(nentries)) };
    Ok(0)
}

#[cfg(test)]
mod tests;
