// SPDX-License-Identifier: MIT
//! x86-64: `syscall`, number in rax, arguments in rdi, rsi, rdx, r10, r8, r9;
//! the kernel clobbers rcx and r11.

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
    // SAFETY: the register assignment above is the kernel's entry ABI. The
    // caller vouches for the arguments; `memory` is implied by not using nomem.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") nr as isize => ret,
            in("rdi") a1,
            in("rsi") a2,
            in("rdx") a3,
            in("r10") a4,
            in("r8") a5,
            in("r9") a6,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret
}

/// [`syscall6`] for calls with four arguments, which need not zero r8
/// and r9 (`io_uring_register`, whose cost is compared per call).
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall4(nr: c_long, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: as for `syscall6`, with the two unused argument registers
    // left as they are (the kernel ignores them for these calls).
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") nr as isize => ret,
            in("rdi") a1,
            in("rsi") a2,
            in("rdx") a3,
            in("r10") a4,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret
}
