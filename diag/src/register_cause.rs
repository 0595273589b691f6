// SPDX-License-Identifier: MIT
//! Why a registration failed, when the cause can be established
//! (`LIBURING_DEBUG=1`): buffers over the memlock limit, file tables over
//! `RLIMIT_NOFILE`, an opcode newer than the kernel, a table registered
//! twice. Other failures stay silent: their errno is the whole story.

use crate::atomic_u64::AtomicU64;
use core::ffi::c_void;
use core::sync::atomic::Ordering;

use super::line::Line;
use super::names::{self, REGISTER_OP};
use super::setup_cause::errno;
use super::{kernel_level, since, sysinfo};
use crate::syscall::Errno;
use crate::uapi::*;

/// The last diagnosis printed (opcode, errno, nr): a retry the library
/// makes itself (file tables after raising the fd limit) is not repeated.
static LAST: AtomicU64 = AtomicU64::new(u64::MAX);

/// Writes the diagnosis of a failed registration to stderr, if any.
pub fn explain(opcode: u32, arg: *const c_void, nr: u32, err: Errno) {
    let op = opcode & !IORING_REGISTER_USE_REGISTERED_RING;
    // The *2 table registrations pass a struct whose size is `nr_args`.
    let table2 = matches!(op, IORING_REGISTER_FILES2 | IORING_REGISTER_BUFFERS2);
    let count = if table2 && !arg.is_null() && err.get() != libc::EFAULT {
        // SAFETY: the kernel has just read this io_uring_rsrc_register
        // without faulting.
        unsafe { arg.cast::<io_uring_rsrc_register>().read_unaligned() }.nr
    } else {
        nr
    };
    let mut l = Line::new();
    l.s("liburing: io_uring_register(");
    match names::full_name(REGISTER_OP, u64::from(op)) {
        Some(n) => l.s(n),
        None => l.s("opcode ").u(u64::from(op)),
    };
    l.s(", ").u(u64::from(count));
    l.s(if table2 {
        " entries) failed with -"
    } else {
        " args) failed with -"
    });
    errno(&mut l, err);
    l.s(": ");
    let known = match (op, err.get()) {
        (IORING_REGISTER_BUFFERS | IORING_REGISTER_BUFFERS2, libc::ENOMEM) => {
            // SAFETY: the kernel has just read `arg` as this opcode's
            // argument and did not fault on it (the error is ENOMEM).
            unsafe { buffers_over_memlock(&mut l, op, arg, nr) }
        }
        (IORING_REGISTER_FILES | IORING_REGISTER_FILES2, libc::EMFILE) => {
            files_over_nofile(&mut l, count)
        }
        (
            IORING_REGISTER_FILES
            | IORING_REGISTER_FILES2
            | IORING_REGISTER_BUFFERS
            | IORING_REGISTER_BUFFERS2,
            libc::EBUSY,
        ) => {
            l.s("this ring already has such a table; fix: unregister it first, or update slots with the *_update calls");
            true
        }
        (IORING_REGISTER_FILES2 | IORING_REGISTER_BUFFERS2, libc::EINVAL)
            if newer_than_kernel(&mut l, op) =>
        {
            true
        }
        (IORING_REGISTER_FILES2 | IORING_REGISTER_BUFFERS2, libc::EINVAL) => {
            // SAFETY: the kernel has just read `arg` as this opcode's
            // argument (EINVAL, not EFAULT).
            unsafe { sparse_table(&mut l, arg) }
        }
        (IORING_REGISTER_PBUF_RING, libc::EINVAL) if newer_than_kernel(&mut l, op) => true,
        (IORING_REGISTER_PBUF_RING, libc::EINVAL) => {
            // SAFETY: the kernel has just read `arg` as this opcode's
            // argument (EINVAL, not EFAULT).
            unsafe { pbuf_ring_flags(&mut l, arg) }
        }
        (_, libc::EINVAL | libc::EOPNOTSUPP) => newer_than_kernel(&mut l, op),
        _ => false,
    };
    let key = (u64::from(op) << 48) | ((err.get() as u64 & 0xffff) << 32) | u64::from(nr);
    if known && LAST.swap(key, Ordering::Relaxed) != key {
        l.emit_stderr();
    }
}

/// Pages spanned by the buffers: what the kernel pins and charges.
///
/// # Safety
/// `iovs` must address `nr` readable iovecs.
unsafe fn pinned_bytes(iovs: *const libc::iovec, nr: u32) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    let mut total = 0u64;
    for i in 0..nr as usize {
        // SAFETY: per the caller.
        let iov = unsafe { iovs.add(i).read() };
        let start = iov.iov_base as u64 & !(page - 1);
        let end = (iov.iov_base as u64).saturating_add(iov.iov_len as u64);
        total = total.saturating_add(end.saturating_sub(start).div_ceil(page) * page);
    }
    total
}

/// # Safety
/// `arg` must be the argument the kernel accepted for `op`.
unsafe fn buffers_over_memlock(l: &mut Line, op: u32, arg: *const c_void, nr: u32) -> bool {
    if arg.is_null() || sysinfo::has_cap(sysinfo::CAP_IPC_LOCK) {
        return false;
    }
    let (iovs, count) = if op == IORING_REGISTER_BUFFERS2 {
        // SAFETY: per the caller, an io_uring_rsrc_register.
        let reg = unsafe { arg.cast::<io_uring_rsrc_register>().read() };
        if reg.flags & IORING_RSRC_REGISTER_SPARSE != 0 || reg.data == 0 {
            return false;
        }
        (reg.data as usize as *const libc::iovec, reg.nr)
    } else {
        (arg.cast::<libc::iovec>(), nr)
    };
    // SAFETY: the kernel read the same iovecs without faulting.
    let needed = unsafe { pinned_bytes(iovs, count) };
    let Some((soft, _)) = sysinfo::rlimit(libc::RLIMIT_MEMLOCK) else {
        return false;
    };
    // What this process has charged already (rings, earlier
    // registrations): the failed registration was given back.
    let held = crate::memlock_held::held().total();
    l.s("registering ")
        .u(u64::from(count))
        .s(" buffer(s) pins ")
        .size(needed);
    l.s(", charged to RLIMIT_MEMLOCK (").size(soft).s(")");
    if held != 0 {
        l.s(" on top of ")
            .size(held)
            .s(" this process's open rings and registered buffers hold");
    }
    if held.saturating_add(needed) <= soft {
        l.s(", within the limit: other processes of this user hold the rest (the limit is per user)");
    }
    l.s("; fix: raise the memlock limit to at least ")
        .size(crate::memlock_held::round_up(held.saturating_add(needed)));
    l.s(" (ulimit -l, LimitMEMLOCK=, limits.conf), register less, or grant CAP_IPC_LOCK");
    true
}

fn files_over_nofile(l: &mut Line, nr: u32) -> bool {
    let Some((soft, hard)) = sysinfo::rlimit(libc::RLIMIT_NOFILE) else {
        return false;
    };
    let nr = u64::from(nr);
    // The library raises the soft limit up to the hard one and retries:
    // only the failure that remains after that is worth a line.
    if soft < nr && soft < hard {
        return false;
    }
    l.s("a table of ")
        .u(nr)
        .s(" files exceeds RLIMIT_NOFILE (soft ")
        .u(soft);
    l.s(", hard ")
        .u(hard)
        .s("); fix: raise the hard limit to at least ")
        .u(nr);
    l.s(" (ulimit -Hn, LimitNOFILE=) or register fewer files");
    true
}

fn newer_than_kernel(l: &mut Line, op: u32) -> bool {
    if op >= IORING_REGISTER_LAST {
        l.s("opcode ")
            .u(u64::from(op))
            .s(" is not an io_uring registration opcode");
        return true;
    }
    let Some(added) = since::lookup(since::REGISTER_OPS, op) else {
        return false;
    };
    // Judged by what the kernel's io_uring shows, not by its version
    // number (a distribution's kernel may carry newer io_uring code).
    if kernel_level::has(added) {
        return false;
    }
    l.s("this opcode was added in Linux ");
    release(l, added);
    l.s(", and this kernel's io_uring shows nothing that new; fix: run a newer kernel or do without it");
    true
}

fn release(l: &mut Line, (major, minor): (u32, u32)) {
    l.u(u64::from(major)).s(".").u(u64::from(minor));
}

/// A `*2` table registration refused with EINVAL: a sparse table
/// (`IORING_RSRC_REGISTER_SPARSE`) on a kernel whose io_uring predates it.
///
/// # Safety
/// `arg` must be null or the `io_uring_rsrc_register` the kernel has just read.
unsafe fn sparse_table(l: &mut Line, arg: *const c_void) -> bool {
    if arg.is_null() {
        return false;
    }
    // SAFETY: per the caller.
    let reg = unsafe { arg.cast::<io_uring_rsrc_register>().read_unaligned() };
    let name = "IORING_RSRC_REGISTER_SPARSE";
    let Some(added) = crate::uapi::releases::find(name).and_then(|r| r.since) else {
        return false;
    };
    if reg.flags & IORING_RSRC_REGISTER_SPARSE == 0 || kernel_level::has(added) {
        return false;
    }
    l.s("this kernel's io_uring takes no sparse tables (")
        .s(name);
    l.s(", added in Linux ");
    release(l, added);
    l.s("); fix: register a table of real descriptors or buffers, or run a newer kernel");
    true
}

/// `IORING_REGISTER_PBUF_RING` refused with EINVAL: a ring flag this
/// kernel does not take, found by registering it on a test ring.
///
/// # Safety
/// `arg` must be null or the `io_uring_buf_reg` the kernel has just read.
unsafe fn pbuf_ring_flags(l: &mut Line, arg: *const c_void) -> bool {
    if arg.is_null() {
        return false;
    }
    // SAFETY: per the caller.
    let reg = unsafe { arg.cast::<io_uring_buf_reg>().read_unaligned() };
    for (bit, name) in [
        (IOU_PBUF_RING_MMAP, "IOU_PBUF_RING_MMAP"),
        (IOU_PBUF_RING_INC, "IOU_PBUF_RING_INC"),
    ] {
        if reg.flags & bit != 0 && !kernel_level::pbuf_ring_flag_known(bit) {
            l.s("this kernel does not take the buffer ring flag ")
                .s(name);
            if let Some(added) = crate::uapi::releases::find(name).and_then(|r| r.since) {
                l.s(" (added in Linux ");
                release(l, added);
                l.s(")");
            }
            l.s("; fix: register the ring without it, or run a newer kernel");
            return true;
        }
    }
    false
}
