// SPDX-License-Identifier: MIT
//! Every other architecture: the kernel is entered through libc, which
//! reports failure in `errno`. The caller's `errno` is put back afterwards,
//! so the library never changes it, as on the architectures entered
//! directly.

use libc::c_long;

/// Runs `call`, returning its result in the kernel's `-errno` form (`failed`
/// tells a failure from a result) with `errno` as it was before.
#[inline(always)]
fn keeping_errno<T>(
    call: impl FnOnce() -> T,
    failed: impl FnOnce(&T) -> bool,
    ok: impl FnOnce(T) -> isize,
) -> isize {
    // SAFETY: __errno_location returns the calling thread's errno slot,
    // valid for the thread's lifetime.
    let slot = unsafe { libc::__errno_location() };
    // SAFETY: `slot` is this thread's live errno.
    let saved = unsafe { *slot };
    let result = call();
    let ret = if failed(&result) {
        // SAFETY: as above; the failed call has just set it.
        -(unsafe { *slot } as isize)
    } else {
        ok(result)
    };
    // SAFETY: as above.
    unsafe { *slot = saved };
    ret
}

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
    keeping_errno(
        // SAFETY: forwarded verbatim; the caller vouches for the arguments.
        || unsafe { libc::syscall(nr, a1, a2, a3, a4, a5, a6) },
        |&r| r == -1,
        |r| r as isize,
    )
}

/// Four-argument form of [`syscall6`].
///
/// # Safety
/// The caller guarantees the arguments are valid for syscall `nr`.
#[inline(always)]
pub unsafe fn syscall4(nr: c_long, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    // SAFETY: forwarded; the caller vouches for the arguments.
    unsafe { syscall6(nr, a1, a2, a3, a4, 0, 0) }
}

/// `mmap(2)` through libc's wrapper, which knows each architecture's call
/// (s390x's `SYS_mmap` takes a pointer to the six arguments, 32-bit arm
/// has only `mmap2`); the 64-bit offset variant where `off_t` is 32 bits.
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
    #[cfg(not(all(target_pointer_width = "32", target_env = "gnu")))]
    use libc::mmap as libc_mmap;
    #[cfg(all(target_pointer_width = "32", target_env = "gnu"))]
    use libc::mmap64 as libc_mmap;
    let Ok(offset) = offset.try_into() else {
        return -(libc::EOVERFLOW as isize);
    };
    keeping_errno(
        // SAFETY: forwarded; the caller vouches for the mapping request.
        || unsafe {
            libc_mmap(
                addr as *mut libc::c_void,
                len,
                prot as libc::c_int,
                flags as libc::c_int,
                fd as libc::c_int,
                offset,
            )
        },
        |&p| p == libc::MAP_FAILED,
        |p| p as isize,
    )
}
