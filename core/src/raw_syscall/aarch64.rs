// SPDX-License-Identifier: MIT
//! AArch64: `svc 0`, number in x8, arguments in x0..x5, result in x0.

use core::arch::asm;
use libc::c_long;

/// Issues a six-argument syscall and returns the kernel's raw result.
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall6(
    nr: c_long,
    a1: usize,
    a2: usize,
    a3: usize,
    a4: usize,
    a5: usize,
    a6: usize,
) -> isize {
    let ret: isize;
    // SAFETY: the register assignment above is the kernel's entry ABI, which
    // preserves every other register; the caller vouches for the arguments.
    unsafe {
        asm!(
            "svc 0",
            in("x8") nr,
            inlateout("x0") a1 as isize => ret,
            in("x1") a2,
            in("x2") a3,
            in("x3") a4,
            in("x4") a5,
            in("x5") a6,
            options(nostack),
        );
    }
    ret
}

/// Four-argument form of [`syscall6`], leaving x4 and x5 as they are.
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall4(nr: c_long, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: as for `syscall6`; the kernel ignores the unused registers.
    unsafe {
        asm!(
            "svc 0",
            in("x8") nr,
            inlateout("x0") a1 as isize => ret,
            in("x1") a2,
            in("x2") a3,
            in("x3") a4,
            options(nostack),
        );
    }
    ret
}
