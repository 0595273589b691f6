// SPDX-License-Identifier: MIT
//! What this process has charged to `RLIMIT_MEMLOCK` already, for the
//! memory-limit causes of `LIBURING_DEBUG`: its registered buffers, which
//! the kernel adds to the process's pinned memory (`VmPin` in
//! `/proc/self/status`), and its open rings, whose memory the kernel
//! charges to the user but shows nowhere as a sum: each ring's `fdinfo`
//! gives its SQ and CQ sizes, from which its memory is computed as the
//! library lays rings out. The limit is counted per user, so other
//! processes of the user may hold more; a cause says so where this
//! process's share does not explain the refusal.
//!
//! Each file is opened, read and closed at once (no descriptor kept). A
//! process that changed its user without being made dumpable again cannot
//! read its own `/proc/self/fd`: its rings then go uncounted.

use crate::uapi::{io_uring_params, IORING_SETUP_CQSIZE};

/// What this process holds: registered buffers' bytes (`VmPin`), open
/// rings and their bytes.
#[derive(Clone, Copy, Default)]
pub struct Held {
    pub pinned: u64,
    pub rings: u32,
    pub ring_bytes: u64,
}

impl Held {
    pub fn total(self) -> u64 {
        self.pinned.saturating_add(self.ring_bytes)
    }
}

/// Reads what this process holds now (0s where the kernel does not say).
pub fn held() -> Held {
    let mut h = Held {
        pinned: vm_pin_bytes().unwrap_or(0),
        ..Held::default()
    };
    each_ring_fd(|fd| {
        if let Some(bytes) = ring_bytes(fd) {
            h.rings += 1;
            h.ring_bytes = h.ring_bytes.saturating_add(bytes);
        }
    });
    h
}

/// `VmPin:` of `/proc/self/status` (`<n> kB`), in bytes.
fn vm_pin_bytes() -> Option<u64> {
    let mut buf = [0u8; 4096];
    let n = crate::sysinfo::read_file(c"/proc/self/status", &mut buf)?;
    let value = buf
        .get(..n)?
        .split(|&c| c == b'\n')
        .find_map(|l| l.strip_prefix(b"VmPin:"))?
        .trim_ascii();
    let digits = value.split(|c| !c.is_ascii_digit()).next()?;
    let kib = crate::proc_dir::parse_u32(digits)?;
    Some(u64::from(kib) * 1024)
}

/// `bytes` rounded up to whole KiB (what `ulimit -l` takes).
pub fn round_up(bytes: u64) -> u64 {
    bytes.div_ceil(1024).saturating_mul(1024)
}

/// Calls `f` with every descriptor of this process that is an io_uring.
fn each_ring_fd(mut f: impl FnMut(u32)) {
    crate::proc_dir::each_numbered(c"/proc/self/fd", |dir, name, fd| {
        if is_ring(dir, name) {
            f(fd);
        }
        true
    });
}

/// `0x`-prefixed (or bare) hexadecimal.
fn parse_hex(s: &[u8]) -> Option<u64> {
    let s = s.strip_prefix(b"0x").unwrap_or(s);
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    let mut v = 0u64;
    for &c in s {
        v = v << 4 | u64::from((c as char).to_digit(16)?);
    }
    Some(v)
}

/// Whether the entry `name` of `/proc/self/fd` links to an io_uring.
fn is_ring(dir: i32, name: &[u8]) -> bool {
    let mut path = [0u8; 16];
    if let Some(p) = path.get_mut(..name.len()) {
        p.copy_from_slice(name);
    } else {
        return false;
    }
    let mut link = [0u8; 64];
    // SAFETY: `path` is NUL-terminated (zeroed beyond the name); `link`
    // takes at most its length.
    let n = unsafe {
        libc::readlinkat(
            dir,
            path.as_ptr().cast(),
            link.as_mut_ptr().cast(),
            link.len(),
        )
    };
    n > 0 && link.get(..n as usize) == Some(b"anon_inode:[io_uring]".as_slice())
}

/// The memory of the ring on `fd`, from its fdinfo's SQ and CQ masks.
fn ring_bytes(fd: u32) -> Option<u64> {
    let mut buf = [0u8; 1024];
    let len = fdinfo(fd, &mut buf)?;
    let text = buf.get(..len)?;
    let mask = |key: &[u8]| {
        text.split(|&c| c == b'\n')
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| parse_hex(v.trim_ascii()))
    };
    let sq = u32::try_from(mask(b"SqMask:")?).ok()?.checked_add(1)?;
    let cq = u32::try_from(mask(b"CqMask:")?).ok()?.checked_add(1)?;
    let p = io_uring_params {
        flags: IORING_SETUP_CQSIZE,
        cq_entries: cq,
        ..Default::default()
    };
    crate::geometry::memory_size_params(sq, &p)
        .ok()
        .map(|b| b as u64)
}

/// Reads `/proc/self/fdinfo/<fd>` into `buf` (as much as fits); its length.
pub fn fdinfo(fd: u32, buf: &mut [u8]) -> Option<usize> {
    let path = fdinfo_path(fd)?;
    let path = core::ffi::CStr::from_bytes_until_nul(&path).ok()?;
    crate::sysinfo::read_file(path, buf)
}

/// `/proc/self/fdinfo/<fd>`, NUL-terminated.
pub fn fdinfo_path(fd: u32) -> Option<[u8; 32]> {
    let mut path = [0u8; 32];
    let prefix = b"/proc/self/fdinfo/";
    path.get_mut(..prefix.len())?.copy_from_slice(prefix);
    let mut digits = [0u8; 10];
    let (mut n, mut v) = (0, fd);
    loop {
        *digits.get_mut(n)? = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for i in 0..n {
        *path.get_mut(prefix.len() + i)? = *digits.get(n - 1 - i)?;
    }
    Some(path)
}
