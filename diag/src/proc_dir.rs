// SPDX-License-Identifier: MIT
//! Walking a `/proc/self` directory of numbered entries (descriptors,
//! threads) with a buffer on the stack and the raw `getdents64`: no
//! allocation, a descriptor held for the walk only.

use core::ffi::CStr;

/// Calls `f(dir, name, number)` for every entry of `path` whose name is a
/// number, until `f` returns false; `dir` is the open directory (for
/// `*at` calls). False when the directory could not be opened or read
/// to its end. The directory is held for the walk only
/// (`uring_sysinfo::with_file`), `f`'s calls included.
pub fn each_numbered(path: &CStr, mut f: impl FnMut(i32, &[u8], u32) -> bool) -> bool {
    crate::sysinfo::with_file(path, libc::O_RDONLY | libc::O_DIRECTORY, |dir| {
        let mut buf = [0u8; 2048];
        'walk: loop {
            // SAFETY: getdents64 fills at most `buf.len()` bytes of `buf`.
            let n =
                unsafe { libc::syscall(libc::SYS_getdents64, dir, buf.as_mut_ptr(), buf.len()) };
            if n <= 0 {
                break n == 0;
            }
            let mut at = 0usize;
            // linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
            while at + 19 < n as usize {
                let reclen = buf
                    .get(at + 16..at + 18)
                    .map_or(0, |b| usize::from(u16::from_ne_bytes([b[0], b[1]])));
                if reclen == 0 {
                    break;
                }
                let name = buf.get(at + 19..at + reclen).unwrap_or(&[]);
                let name = name.split(|&c| c == 0).next().unwrap_or(&[]);
                if let Some(number) = parse_u32(name) {
                    if !f(dir, name, number) {
                        break 'walk true;
                    }
                }
                at += reclen;
            }
        }
    })
    .unwrap_or(false)
}

/// A decimal number of at most 9 digits.
pub fn parse_u32(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 9 {
        return None;
    }
    let mut v = 0u32;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}
