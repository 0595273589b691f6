// SPDX-License-Identifier: MIT
//! `mmap(2)` on the 64-bit architectures entered directly (x86_64, aarch64,
//! riscv64): their `SYS_mmap` takes the byte offset as it is.

use super::raw::syscall6;

/// # Safety
/// As for mmap.
#[inline(always)]
pub unsafe fn mmap(
    addr: usize,
    len: usize,
    prot: usize,
    flags: usize,
    fd: usize,
    offset: u64,
) -> isize {
    // SAFETY: forwarded; the caller vouches for the mapping request.
    unsafe { syscall6(libc::SYS_mmap, addr, len, prot, flags, fd, offset as usize) }
}
