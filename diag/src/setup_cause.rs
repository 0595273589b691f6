// SPDX-License-Identifier: MIT
//! Why a ring could not be set up: one line on stderr with the cause the
//! library could establish and its fix (`LIBURING_DEBUG=1`).
//!
//! The checks follow the failure causes listed in io_uring_setup(2) and the
//! environments that produce them: the `kernel.io_uring_disabled` sysctl
//! and `kernel.io_uring_group`, seccomp filters (container runtimes), setup
//! flags newer than the kernel (found by test rings, only in this mode),
//! flag combinations the kernel refuses, and resource limits.

use super::line::Line;
use super::names::{self, SETUP_FLAG};
use super::{kernel_level, since, sysinfo};
use crate::syscall::Errno;
use crate::test_ring::with_test_ring;
use crate::uapi::*;

/// `IORING_MAX_ENTRIES`: the largest SQ size without `IORING_SETUP_CLAMP`.
const MAX_ENTRIES: u32 = 32768;
/// `IORING_MAX_CQ_ENTRIES`.
const MAX_CQ_ENTRIES: u32 = 2 * MAX_ENTRIES;

/// Writes the diagnosis of a failed `call` to stderr.
pub fn explain(call: &str, entries: u32, flags: u32, p: Option<&io_uring_params>, err: Errno) {
    let mut params = p.copied().unwrap_or_default();
    params.flags = flags;
    let mut l = Line::new();
    l.s("liburing: ")
        .s(call)
        .s("(entries ")
        .u(u64::from(entries));
    if flags != 0 {
        l.s(", flags ");
        flag_names(&mut l, flags);
    }
    l.s(") failed with -");
    errno(&mut l, err);
    l.s(": ");
    if !cause(&mut l, entries, &params, err) {
        l.s("the library could not establish the cause (see the ERRORS of io_uring_setup(2))");
    }
    l.emit_stderr();
}

/// Appends an errno name (or number).
pub(super) fn errno(l: &mut Line, e: Errno) {
    match sysinfo::errno_name(e.get()) {
        Some(n) => l.s(n),
        None => l.u(e.get() as u64),
    };
}

/// Appends setup flags as `IORING_SETUP_A|IORING_SETUP_B|0x...`.
fn flag_names(l: &mut Line, flags: u32) {
    let mut first = true;
    names::for_each_flag(SETUP_FLAG, u64::from(flags), |name, bits| {
        if !first {
            l.s("|");
        }
        first = false;
        match name {
            Some(n) => l.s("IORING_SETUP_").s(n),
            None => l.x(bits),
        };
    });
}

/// Appends one flag's full name.
fn flag(l: &mut Line, bit: u32) -> &mut Line {
    match names::full_name(SETUP_FLAG, u64::from(bit)) {
        Some(n) => l.s(n),
        None => l.s("bit ").x(u64::from(bit)),
    }
}

/// Appends the cause; false if none could be established.
fn cause(l: &mut Line, entries: u32, p: &io_uring_params, err: Errno) -> bool {
    match err.get() {
        libc::EPERM | libc::ENOSYS | libc::EACCES => access_denied(l, p, err),
        libc::EINVAL => invalid(l, entries, p),
        libc::ENOMEM => memory(l, entries, p),
        libc::EMFILE => {
            l.s("this process has reached RLIMIT_NOFILE");
            if let Some((soft, _)) = sysinfo::rlimit(libc::RLIMIT_NOFILE) {
                l.s(" (").u(soft).s(" descriptors)");
            }
            l.s("; fix: close descriptors or raise the limit (ulimit -n, LimitNOFILE=)");
            true
        }
        libc::ENFILE => {
            l.s("the system-wide file limit (fs.file-max) is reached; fix: raise fs.file-max or close files");
            true
        }
        libc::EBADF | libc::ENXIO if p.flags & IORING_SETUP_ATTACH_WQ != 0 => {
            l.s("IORING_SETUP_ATTACH_WQ names wq_fd ")
                .i(i64::from(p.wq_fd as i32))
                .s(", which is not a live io_uring fd; fix: pass the fd of an existing ring");
            true
        }
        _ => false,
    }
}

/// EPERM / ENOSYS / EACCES: sysctl, group, seccomp, or no io_uring at all.
fn access_denied(l: &mut Line, p: &io_uring_params, err: Errno) -> bool {
    let disabled = sysinfo::io_uring_disabled();
    // The sysctl refuses with EPERM only; any other error came from
    // elsewhere (a seccomp filter answers before the sysctl is read).
    let by_sysctl = if err.get() == libc::EPERM {
        disabled
    } else {
        None
    };
    match by_sysctl {
        Some(2) => {
            l.s("io_uring is disabled for every process (kernel.io_uring_disabled = 2); ");
            l.s("fix: sysctl -w kernel.io_uring_disabled=0, or =1 with kernel.io_uring_group set to a group of this user");
            return true;
        }
        Some(1) if !sysinfo::has_cap(sysinfo::CAP_SYS_ADMIN) => {
            let group = sysinfo::io_uring_group().unwrap_or(-1);
            l.s("io_uring is restricted (kernel.io_uring_disabled = 1) to CAP_SYS_ADMIN and members of kernel.io_uring_group");
            if group < 0 {
                l.s(", which is -1 (no group); this process lacks CAP_SYS_ADMIN; ");
                l.s("fix: sysctl -w kernel.io_uring_group=<gid of this user's group>, or kernel.io_uring_disabled=0");
                return true;
            }
            if !sysinfo::in_group(group as u32) {
                // SAFETY: getuid has no preconditions.
                let uid = unsafe { libc::getuid() };
                l.s(" (gid ")
                    .i(group)
                    .s("); this process (uid ")
                    .u(u64::from(uid));
                l.s(") is not in that group and lacks CAP_SYS_ADMIN; ");
                l.s("fix: add the user to group ").i(group);
                l.s(" (and log in again), or sysctl -w kernel.io_uring_disabled=0");
                return true;
            }
        }
        _ => {}
    }
    match sysinfo::seccomp_mode() {
        Some(2) => {
            l.s("a seccomp filter is in force for this process (Seccomp: 2");
            if let Some(n) = sysinfo::seccomp_filters() {
                l.s(", ").u(n).s(" filter(s)");
            }
            l.s(") and answered io_uring_setup with -");
            errno(l, err);
            match disabled {
                Some(0) => {
                    l.s(" although the kernel supports io_uring (kernel.io_uring_disabled = 0)")
                }
                Some(_) => l.s(" (kernel.io_uring_disabled is set too)"),
                None => l.s(" (the kernel's own io_uring support cannot be seen from here)"),
            };
            l.s("; fix: run with a seccomp profile that allows io_uring_setup, io_uring_enter and io_uring_register ");
            l.s("(docker/podman: --security-opt seccomp=<profile>; systemd: SystemCallFilter=)");
            return true;
        }
        Some(1) => {
            l.s("the process runs in seccomp strict mode, which allows only read, write, exit and sigreturn");
            return true;
        }
        _ => {}
    }
    if err.get() == libc::ENOSYS {
        l.s("the kernel has no io_uring_setup system call: it was built without CONFIG_IO_URING (or predates io_uring, added in Linux 5.1); fix: use a kernel with io_uring");
        return true;
    }
    // Unprivileged SQPOLL came with Linux 5.11, judged by what the kernel's
    // io_uring shows rather than by its version number.
    if p.flags & IORING_SETUP_SQPOLL != 0
        && !kernel_level::has((5, 11))
        && !sysinfo::has_cap(sysinfo::CAP_SYS_ADMIN)
    {
        l.s("this kernel's io_uring lets only CAP_SYS_ADMIN use IORING_SETUP_SQPOLL (open to all users since Linux 5.11); fix: drop SQPOLL or run with CAP_SYS_ADMIN");
        return true;
    }
    l.s("io_uring is allowed by kernel.io_uring_disabled and seccomp; a security module (SELinux, AppArmor) may deny it");
    true
}

/// EINVAL: unknown flags first (the kernel checks them first), then the
/// combinations and sizes io_uring_setup(2) lists.
fn invalid(l: &mut Line, entries: u32, p: &io_uring_params) -> bool {
    if p.resv.iter().any(|&r| r != 0) {
        l.s(
            "io_uring_params.resv is not all zero; fix: zero the whole struct before filling it in",
        );
        return true;
    }
    if unknown_flags(l, p.flags) {
        return true;
    }
    let f = p.flags;
    let has = |bit: u32| f & bit != 0;
    let needs = |l: &mut Line, what: u32, needed: u32| -> bool {
        if has(what) && !has(needed) {
            flag(l, what).s(" requires ");
            flag(l, needed).s("; fix: add ");
            flag(l, needed).s(" or drop ");
            flag(l, what);
            return true;
        }
        false
    };
    if needs(l, IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER)
        || needs(l, IORING_SETUP_SQ_AFF, IORING_SETUP_SQPOLL)
        || needs(l, IORING_SETUP_REGISTERED_FD_ONLY, IORING_SETUP_NO_MMAP)
        || needs(l, IORING_SETUP_HYBRID_IOPOLL, IORING_SETUP_IOPOLL)
    {
        return true;
    }
    if has(IORING_SETUP_TASKRUN_FLAG)
        && !has(IORING_SETUP_COOP_TASKRUN)
        && !has(IORING_SETUP_DEFER_TASKRUN)
    {
        l.s("IORING_SETUP_TASKRUN_FLAG requires IORING_SETUP_COOP_TASKRUN or IORING_SETUP_DEFER_TASKRUN; fix: add one of them");
        return true;
    }
    if has(IORING_SETUP_SQPOLL) {
        for bit in [
            IORING_SETUP_DEFER_TASKRUN,
            IORING_SETUP_COOP_TASKRUN,
            IORING_SETUP_TASKRUN_FLAG,
            IORING_SETUP_SQ_REWIND,
        ] {
            if has(bit) {
                l.s("IORING_SETUP_SQPOLL cannot be combined with ");
                flag(l, bit).s(" (task work runs in the SQPOLL thread); fix: drop one of them");
                return true;
            }
        }
        if has(IORING_SETUP_SQ_AFF) && sysinfo::cpu_online(p.sq_thread_cpu) == Some(false) {
            let mut buf = [0u8; 128];
            l.s("IORING_SETUP_SQ_AFF pins the SQPOLL thread to CPU ")
                .u(u64::from(p.sq_thread_cpu));
            l.s(", which is not online (online: ")
                .bytes(sysinfo::online_cpus(&mut buf));
            l.s("); fix: pick an online CPU for sq_thread_cpu");
            return true;
        }
    }
    if has(IORING_SETUP_CQE32) && has(IORING_SETUP_CQE_MIXED) {
        l.s("IORING_SETUP_CQE32 and IORING_SETUP_CQE_MIXED exclude each other; fix: keep one");
        return true;
    }
    if has(IORING_SETUP_SQE128) && has(IORING_SETUP_SQE_MIXED) {
        l.s("IORING_SETUP_SQE128 and IORING_SETUP_SQE_MIXED exclude each other; fix: keep one");
        return true;
    }
    if entries == 0 {
        l.s("entries is 0; fix: ask for at least 1 SQ entry");
        return true;
    }
    if entries > MAX_ENTRIES && !has(IORING_SETUP_CLAMP) {
        l.s("entries ")
            .u(u64::from(entries))
            .s(" exceeds IORING_MAX_ENTRIES (32768); ");
        l.s("fix: ask for fewer or add IORING_SETUP_CLAMP");
        return true;
    }
    if has(IORING_SETUP_CQSIZE) {
        let sq = entries.min(MAX_ENTRIES).next_power_of_two();
        if p.cq_entries == 0 {
            l.s("IORING_SETUP_CQSIZE with cq_entries 0; fix: set io_uring_params.cq_entries");
            return true;
        }
        if p.cq_entries > MAX_CQ_ENTRIES && !has(IORING_SETUP_CLAMP) {
            l.s("cq_entries ").u(u64::from(p.cq_entries));
            l.s(" exceeds IORING_MAX_CQ_ENTRIES (65536); fix: ask for fewer or add IORING_SETUP_CLAMP");
            return true;
        }
        if p.cq_entries < sq {
            l.s("cq_entries ")
                .u(u64::from(p.cq_entries))
                .s(" is smaller than the SQ (");
            l.u(u64::from(sq))
                .s(" entries); fix: make cq_entries at least the SQ size");
            return true;
        }
    }
    false
}

/// Finds the set flags this kernel does not know by setting up test rings
/// with each of them alone (plus the flags it needs), and names them with
/// the release that added each. True if any was found.
fn unknown_flags(l: &mut Line, flags: u32) -> bool {
    // Only meaningful if io_uring works at all here.
    if try_setup(0, 0, -1).is_err() {
        return false;
    }
    let mut unknown = 0u32;
    for bit in (0..32).map(|b| 1u32 << b).filter(|b| flags & b != 0) {
        if !flag_known(bit) {
            unknown |= bit;
        }
    }
    if unknown == 0 {
        return false;
    }
    l.s("the running kernel does not know setup flag(s) ");
    let mut first = true;
    // A newer kernel only helps with flags some release added.
    let mut newer_helps = false;
    for bit in (0..32).map(|b| 1u32 << b).filter(|b| unknown & b != 0) {
        if !first {
            l.s(", ");
        }
        first = false;
        let added = since::lookup(since::SETUP_FLAGS, bit);
        newer_helps |= added.is_some();
        match added {
            Some((a, b)) => {
                flag(l, bit)
                    .s(" (added in Linux ")
                    .u(u64::from(a))
                    .s(".")
                    .u(u64::from(b))
                    .s(")");
            }
            None => {
                l.s("bit ")
                    .x(u64::from(bit))
                    .s(" (not an io_uring setup flag)");
            }
        };
    }
    if newer_helps {
        l.s("; fix: drop them, or run a newer kernel");
    } else {
        l.s("; fix: drop them");
    }
    true
}

/// Whether the kernel accepts `bit` together with what it depends on.
fn flag_known(bit: u32) -> bool {
    let Some(flags) = probe_flags(bit) else {
        return true;
    };
    let cq = if bit == IORING_SETUP_CQSIZE { 8 } else { 0 };
    let r = if bit == IORING_SETUP_ATTACH_WQ {
        // Attached to a first test ring's io-wq.
        match with_test_ring(test_params(0, 0, -1), |wq_fd, _| {
            try_setup(flags, cq, wq_fd)
        }) {
            Ok(r) => r,
            Err(_) => return true,
        }
    } else {
        try_setup(flags, cq, -1)
    };
    r != Err(Errno::EINVAL)
}

/// The flags of the test ring that shows whether the kernel knows `bit`
/// (`bit` plus what it depends on), or `None` when no test ring is needed.
///
/// The flags io_uring was born with (Linux 5.1) are known to every kernel
/// that can set up a ring at all, and those include `IORING_SETUP_SQPOLL`:
/// a test ring with it would start a kernel thread, visible to the program
/// (`/proc`, the pids handed out next; liburing's `wq-aff` test counts on
/// them), and a diagnosis must not change what the program sees.
fn probe_flags(bit: u32) -> Option<u32> {
    if since::lookup(since::SETUP_FLAGS, bit) == Some(IO_URING_BORN) {
        return None;
    }
    Some(bit | setup_flag_needs(bit))
}

/// The release that added io_uring_setup(2).
const IO_URING_BORN: (u32, u32) = (5, 1);

/// The parameters of a test ring with `flags`, `cq_entries` and `wq_fd`.
fn test_params(flags: u32, cq_entries: u32, wq_fd: i32) -> io_uring_params {
    io_uring_params {
        flags,
        cq_entries,
        wq_fd: wq_fd as u32,
        ..Default::default()
    }
}

/// Whether a test ring with `flags` is accepted (and closed again); the
/// error otherwise.
fn try_setup(flags: u32, cq_entries: u32, wq_fd: i32) -> Result<(), Errno> {
    with_test_ring(test_params(flags, cq_entries, wq_fd), |_, _| ())
}

/// ENOMEM: ring memory is charged to `RLIMIT_MEMLOCK` for processes
/// without `CAP_IPC_LOCK` on kernels before 5.12, and again on kernels whose
/// rings are allocated as accounted memory regions (6.x).
fn memory(l: &mut Line, entries: u32, p: &io_uring_params) -> bool {
    let ring_bytes = crate::geometry::memory_size_params(entries, p).unwrap_or(0) as u64;
    // liburing's figure: 0 where it believes rings are not charged.
    let mlock_bytes = crate::setup::mlock_size_params(entries, Some(p)).unwrap_or(0) as u64;
    let limit = sysinfo::rlimit(libc::RLIMIT_MEMLOCK);
    if let Some((soft, _)) = limit.filter(|_| !sysinfo::has_cap(sysinfo::CAP_IPC_LOCK)) {
        let needed = ring_bytes.max(mlock_bytes);
        // What this process has charged already: its open rings and
        // registered buffers (the limit counts the user's, all processes).
        let held = crate::memlock_held::held();
        if soft < ring_bytes || mlock_bytes > soft || held.total().saturating_add(needed) > soft {
            l.s("the ring needs ").size(needed);
            l.s(" of locked memory (io_uring_mlock_size_params says ")
                .size(mlock_bytes);
            l.s(") but RLIMIT_MEMLOCK is ").size(soft);
            if held.total() != 0 {
                l.s(", of which this process's ")
                    .u(u64::from(held.rings))
                    .s(" open ring(s) hold ")
                    .size(held.ring_bytes)
                    .s(" and its registered buffers ")
                    .size(held.pinned);
            }
            l.s(", and this process lacks CAP_IPC_LOCK; this kernel charges ring memory to that limit (per user: other processes of the user count too); ");
            l.s("fix: raise it to at least ")
                .size(crate::memlock_held::round_up(
                    held.total().saturating_add(needed),
                ));
            l.s(" (ulimit -l, LimitMEMLOCK=, limits.conf), close rings no longer used, or use fewer entries");
            return true;
        }
        // The ring alone fits, but this kernel charges rings (liburing's
        // figure is not 0): the user's charge elsewhere is the likely cause.
        if (held.rings != 0 || mlock_bytes != 0) && soft != u64::MAX {
            // Within the limit as far as this process goes: the user's
            // other processes hold the rest.
            l.s("the ring needs ").size(needed);
            l.s(" of locked memory; RLIMIT_MEMLOCK is ").size(soft);
            l.s(", and this process's ")
                .u(u64::from(held.rings))
                .s(" open ring(s) and registered buffers hold only ")
                .size(held.total());
            l.s(" of it, but the limit counts every ring and registered buffer of this user, in all its processes (and a closed ring's until its teardown has run); ");
            l.s("fix: raise it (ulimit -l, LimitMEMLOCK=, limits.conf), or close rings the user's other processes no longer use");
            return true;
        }
    }
    l.s("the kernel could not allocate the ring (")
        .size(ring_bytes);
    l.s(" of ring memory); fix: fewer entries, or free memory");
    true
}

#[cfg(test)]
mod tests;
