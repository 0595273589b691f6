// SPDX-License-Identifier: MIT
//! RISC-V 64: `ecall`, number in a7, arguments in a0..a5, result in a0.

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
            "ecall",
            in("a7") nr,
            inlateout("a0") a1 as isize => ret,
            in("a1") a2,
            in("a2") a3,
            in("a3") a4,
            in("a4") a5,
            in("a5") a6,
            options(nostack),
        );
    }
    ret
}

/// Four-argument form of [`syscall6`], leaving a4 and a5 as they are.
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall4(nr: c_long, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: as for `syscall6`; the kernel ignores the unused registers.
    unsafe {
        asm!(
            "ecall",
            in("a7") nr,
            inlateout("a0") a1 as isize => ret,
            in("a1") a2,
            in("a2") a3,
            in("a3") a4,
            options(nostack),
        );
    }
    ret
}
