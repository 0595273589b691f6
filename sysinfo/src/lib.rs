// SPDX-License-Identifier: MIT
//! Facts about the running system that explain io_uring failures: the
//! `kernel.io_uring_*` sysctls, seccomp and capabilities of this process,
//! group membership, online CPUs, resource limits and the kernel version;
//! and the names of errno values.
//!
//! Read with plain libc calls into stack buffers (no allocation, `no_std`),
//! so the library's diagnostics (`LIBURING_DEBUG`) and the `uring-info`
//! tool both depend on this crate and tell the same story.
#![cfg_attr(not(test), no_std)]

use core::ffi::CStr;

mod errno;
pub use errno::errno_name;
mod signal_mask;
pub use signal_mask::signals_deferred;

/// Opens `path` (`flags`, close-on-exec added), runs `f` on the
/// descriptor and closes it, all with signals deferred
/// ([`signals_deferred`]): the one way a caller of this crate holds a file
/// for a moment. `None` when the file cannot be opened.
pub fn with_file<R>(
    path: &CStr,
    flags: libc::c_int,
    f: impl FnOnce(libc::c_int) -> R,
) -> Option<R> {
    signals_deferred(|| {
        // SAFETY: `path` is NUL-terminated; the descriptor is closed below.
        let fd = unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC) };
        if fd < 0 {
            return None;
        }
        let r = f(fd);
        // SAFETY: `fd` was opened above and is not used again.
        unsafe { libc::close(fd) };
        Some(r)
    })
}

/// Reads up to `buf.len()` bytes of a small file (procfs, sysfs).
pub fn read_file(path: &CStr, buf: &mut [u8]) -> Option<usize> {
    with_file(path, libc::O_RDONLY, |fd| {
        let mut len = 0;
        while let Some(rest) = buf.get_mut(len..) {
            if rest.is_empty() {
                break;
            }
            // SAFETY: `rest` is writable for its whole length.
            let n = unsafe { libc::read(fd, rest.as_mut_ptr().cast(), rest.len()) };
            if n <= 0 {
                break;
            }
            len += n as usize;
        }
        len
    })
}

/// Parses a decimal integer (optional sign, surrounding blanks allowed).
pub fn parse_int(text: &[u8]) -> Option<i64> {
    let text = trim(text);
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
    }
    Some(if neg { -v } else { v })
}

/// Parses a hexadecimal integer without prefix.
fn parse_hex(text: &[u8]) -> Option<u64> {
    let text = trim(text);
    if text.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in text {
        let d = (c as char).to_digit(16)?;
        v = v.checked_mul(16)?.checked_add(u64::from(d))?;
    }
    Some(v)
}

fn trim(mut t: &[u8]) -> &[u8] {
    while let Some((first, rest)) = t.split_first() {
        if !first.is_ascii_whitespace() {
            break;
        }
        t = rest;
    }
    while let Some((last, rest)) = t.split_last() {
        if !last.is_ascii_whitespace() {
            break;
        }
        t = rest;
    }
    t
}

/// A sysctl holding one integer, or `None` if this kernel lacks it.
pub fn sysctl_int(path: &CStr) -> Option<i64> {
    let mut buf = [0u8; 64];
    let n = read_file(path, &mut buf)?;
    parse_int(buf.get(..n)?)
}

/// `kernel.io_uring_disabled` (0, 1 or 2); `None` before Linux 6.6.
pub fn io_uring_disabled() -> Option<i64> {
    sysctl_int(c"/proc/sys/kernel/io_uring_disabled")
}

/// `kernel.io_uring_group` (-1: none); `None` before Linux 6.6.
pub fn io_uring_group() -> Option<i64> {
    sysctl_int(c"/proc/sys/kernel/io_uring_group")
}

/// The value after `key` (e.g. `b"Seccomp:"`) in `/proc/self/status`,
/// parsed as decimal or, with `hex`, as hexadecimal.
pub fn self_status(key: &[u8], hex: bool) -> Option<u64> {
    let mut buf = [0u8; 4096];
    let n = read_file(c"/proc/self/status", &mut buf)?;
    for line in buf.get(..n)?.split(|&c| c == b'\n') {
        if let Some(value) = line.strip_prefix(key) {
            return if hex {
                parse_hex(value)
            } else {
                parse_int(value).map(|v| v as u64)
            };
        }
    }
    None
}

/// Seccomp mode of this process: 0 none, 1 strict, 2 filter.
pub fn seccomp_mode() -> Option<u64> {
    self_status(b"Seccomp:", false)
}

/// How many seccomp filters are attached (Linux 5.9+).
pub fn seccomp_filters() -> Option<u64> {
    self_status(b"Seccomp_filters:", false)
}

/// `CAP_SYS_ADMIN`.
pub const CAP_SYS_ADMIN: u32 = 21;
/// `CAP_IPC_LOCK`.
pub const CAP_IPC_LOCK: u32 = 14;

/// Whether capability `cap` is in this process's effective set.
pub fn has_cap(cap: u32) -> bool {
    self_status(b"CapEff:", true).is_some_and(|set| set & (1u64 << cap) != 0)
}

/// Whether the process has `gid` as effective or supplementary group.
pub fn in_group(gid: u32) -> bool {
    // SAFETY: getegid has no preconditions.
    if unsafe { libc::getegid() } == gid {
        return true;
    }
    let mut groups = [0 as libc::gid_t; 256];
    // SAFETY: the array holds `groups.len()` entries.
    let n = unsafe { libc::getgroups(groups.len() as i32, groups.as_mut_ptr()) };
    groups
        .get(..n.max(0) as usize)
        .is_some_and(|g| g.contains(&gid))
}

/// Whether CPU `cpu` is listed in `/sys/devices/system/cpu/online`
/// (`None` if the file cannot be read).
pub fn cpu_online(cpu: u32) -> Option<bool> {
    let mut buf = [0u8; 512];
    let n = read_file(c"/sys/devices/system/cpu/online", &mut buf)?;
    let list = trim(buf.get(..n)?);
    Some(list.split(|&c| c == b',').any(|range| {
        let mut ends = range.splitn(2, |&c| c == b'-');
        let first = ends.next().and_then(parse_int);
        let last = ends.next().and_then(parse_int).or(first);
        matches!((first, last), (Some(a), Some(b)) if a <= i64::from(cpu) && i64::from(cpu) <= b)
    }))
}

/// The `/sys/devices/system/cpu/online` list as text, into `buf`.
pub fn online_cpus(buf: &mut [u8]) -> &[u8] {
    let n = read_file(c"/sys/devices/system/cpu/online", buf).unwrap_or(0);
    trim(buf.get(..n).unwrap_or(&[]))
}

/// The type of getrlimit's resource argument: glibc's own enum type, a
/// plain `int` in other C libraries (musl); `libc::RLIMIT_*` match it.
#[cfg(target_env = "gnu")]
type RlimitResource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
type RlimitResource = libc::c_int;

/// Soft and hard limit of `resource` (`RLIM_INFINITY` is `u64::MAX`).
pub fn rlimit(resource: RlimitResource) -> Option<(u64, u64)> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one struct into `lim`.
    if unsafe { libc::getrlimit(resource, &mut lim) } != 0 {
        return None;
    }
    // rlim_t is 32 bits on 32-bit targets, where infinity is its own maximum.
    #[allow(clippy::unnecessary_cast)]
    let wide = |v: libc::rlim_t| {
        if v == libc::RLIM_INFINITY {
            u64::MAX
        } else {
            v as u64
        }
    };
    Some((wide(lim.rlim_cur), wide(lim.rlim_max)))
}

/// The running kernel's release as (major, minor), from uname(2).
pub fn kernel_version() -> Option<(u32, u32)> {
    // SAFETY: utsname is plain bytes; uname fills it in.
    let mut uts: libc::utsname = unsafe { core::mem::zeroed() };
    // SAFETY: `uts` is writable.
    if unsafe { libc::uname(&mut uts) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // c_char is unsigned on some targets
    let release = uts.release.map(|c| c as u8);
    let mut parts = release.split(|&c| c == b'.' || c == b'-' || c == 0);
    let major = parts.next().and_then(parse_int)?;
    let minor = parts.next().and_then(parse_int)?;
    Some((major as u32, minor as u32))
}

/// Whether the running kernel is at least `want` (false if unknown).
pub fn kernel_at_least(want: (u32, u32)) -> bool {
    kernel_version().is_some_and(|v| v >= want)
}

#[cfg(test)]
mod tests;
