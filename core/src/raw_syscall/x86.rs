// SPDX-License-Identifier: MIT
//! i386: `int 0x80`, number in eax, arguments in ebx, ecx, edx, esi, edi,
//! ebp. Rust cannot name esi (LLVM's base pointer) or ebp (the frame
//! pointer) as operands, so they are loaded and restored around the trap
//! inside the asm block, as liburing's C does for ebp.

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
    // esi, ebp and the number travel through memory: eax points at them.
    let spilled: [usize; 3] = [a4, a6, nr as usize];
    let ret: isize;
    // SAFETY: ebp and esi are saved on the stack and restored before the
    // block ends, so the compiler's frame and base pointers survive; eax
    // points at `spilled`, live for the whole block. The remaining registers
    // follow the kernel's entry ABI; the caller vouches for the arguments.
    unsafe {
        asm!(
            "push ebp",
            "push esi",
            "mov esi, dword ptr [eax]",
            "mov ebp, dword ptr [eax + 4]",
            "mov eax, dword ptr [eax + 8]",
            "int 0x80",
            "pop esi",
            "pop ebp",
            inlateout("eax") spilled.as_ptr() => ret,
            in("ebx") a1,
            in("ecx") a2,
            in("edx") a3,
            in("edi") a5,
        );
    }
    ret
}

/// Four-argument form of [`syscall6`]: only esi needs the exchange.
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall4(nr: c_long, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: esi is swapped with a free register and swapped back after
    // the trap, so both hold their old values when the block ends; the
    // other registers follow the kernel's entry ABI.
    unsafe {
        asm!(
            "xchg esi, {a4}",
            "int 0x80",
            "xchg esi, {a4}",
            a4 = in(reg) a4,
            inlateout("eax") nr as isize => ret,
            in("ebx") a1,
            in("ecx") a2,
            in("edx") a3,
            options(nostack),
        );
    }
    ret
}

/// `mmap(2)`: i386's `SYS_mmap` is the old one-struct-pointer call, so
/// this is `mmap2`, whose offset counts 4096-byte units on every
/// architecture that has it, whatever the page size.
///
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
    const UNIT: u64 = 4096;
    let Ok(units) = usize::try_from(offset / UNIT) else {
        return -(libc::EOVERFLOW as isize);
    };
    if offset & (UNIT - 1) != 0 {
        return -(libc::EINVAL as isize);
    }
    // SAFETY: forwarded; the caller vouches for the mapping request.
    unsafe { syscall6(libc::SYS_mmap2, addr, len, prot, flags, fd, units) }
}
