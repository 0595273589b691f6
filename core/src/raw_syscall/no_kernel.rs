// SPDX-License-Identifier: MIT
//! Under Miri, which interprets the unit tests but cannot enter the kernel:
//! every call fails with `ENOSYS`, as on a kernel without io_uring, so the
//! tests that need a ring skip and the kernel-free ones run.

use libc::c_long;

/// # Safety
/// None needed: nothing is entered.
#[inline(always)]
pub unsafe fn syscall6(
    _nr: c_long,
    _a1: usize,
    _a2: usize,
    _a3: usize,
    _a4: usize,
    _a5: usize,
    _a6: usize,
) -> isize {
    -(libc::ENOSYS as isize)
}

/// # Safety
/// None needed: nothing is entered.
#[inline(always)]
pub unsafe fn syscall4(_nr: c_long, _a1: usize, _a2: usize, _a3: usize, _a4: usize) -> isize {
    -(libc::ENOSYS as isize)
}

/// # Safety
/// None needed: nothing is mapped.
#[inline(always)]
pub unsafe fn mmap(
    _addr: usize,
    _len: usize,
    _prot: usize,
    _flags: usize,
    _fd: usize,
    _offset: u64,
) -> isize {
    -(libc::ENOSYS as isize)
}
