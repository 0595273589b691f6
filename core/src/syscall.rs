// SPDX-License-Identifier: MIT
//! The only place that enters the kernel.
//!
//! Like liburing, the io_uring and memory syscalls are issued directly (no
//! libc wrapper), so `errno` is never touched and failures come back as a
//! negative errno value, which [`Errno`] carries.

use core::ffi::c_void;

/// An errno value. It is kept as the kernel and liburing's C API give it
/// (negated), so that a raw result, a [`SysResult`] and the C boundary's
/// `-errno` convert into one another for nothing; [`Errno::get`] is the
/// errno itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Errno(i32);

/// The result of every fallible core operation.
pub type SysResult<T> = Result<T, Errno>;

impl Errno {
    pub const EINVAL: Errno = Errno::new(libc::EINVAL);
    pub const ENOMEM: Errno = Errno::new(libc::ENOMEM);
    pub const EAGAIN: Errno = Errno::new(libc::EAGAIN);
    pub const ETIME: Errno = Errno::new(libc::ETIME);
    pub const EBADF: Errno = Errno::new(libc::EBADF);
    pub const EFAULT: Errno = Errno::new(libc::EFAULT);
    pub const EOPNOTSUPP: Errno = Errno::new(libc::EOPNOTSUPP);
    pub const EEXIST: Errno = Errno::new(libc::EEXIST);
    pub const EMFILE: Errno = Errno::new(libc::EMFILE);
    pub const EOVERFLOW: Errno = Errno::new(libc::EOVERFLOW);

    /// The errno value `errno` (positive, as `errno.h` names it).
    pub const fn new(errno: i32) -> Errno {
        Errno(errno.wrapping_neg())
    }

    /// The errno of a negated one (`-errno`: a raw kernel or liburing
    /// result, known to be an error).
    pub const fn from_neg(neg: i32) -> Errno {
        Errno(neg)
    }

    /// The errno value (positive).
    pub const fn get(self) -> i32 {
        self.0.wrapping_neg()
    }

    /// liburing's convention: the negated errno as a C `int`.
    pub const fn neg(self) -> i32 {
        self.0
    }
}

impl core::fmt::Debug for Errno {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Errno({})", self.get())
    }
}

/// `_NSIG / 8`: the size of the kernel's signal set, passed with every plain
/// (non-`EXT_ARG`) sigmask argument of `io_uring_enter`, as liburing does.
pub const KERNEL_SIGSET_BYTES: usize = 8;

/// Turns a raw kernel return value (`-4095..=-1` is an error) into a result.
#[inline]
fn check(ret: isize) -> SysResult<isize> {
    if (-4095..0).contains(&ret) {
        Err(Errno::from_neg(ret as i32))
    } else {
        Ok(ret)
    }
}

// How the kernel is entered, one file per architecture: directly where
// liburing does it too, through libc elsewhere; under Miri, not at all.
#[cfg(not(miri))]
#[cfg_attr(target_arch = "x86_64", path = "raw_syscall/x86_64.rs")]
#[cfg_attr(target_arch = "x86", path = "raw_syscall/x86.rs")]
#[cfg_attr(target_arch = "aarch64", path = "raw_syscall/aarch64.rs")]
#[cfg_attr(target_arch = "riscv64", path = "raw_syscall/riscv64.rs")]
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )),
    path = "raw_syscall/libc.rs"
)]
mod raw;
#[cfg(miri)]
#[path = "raw_syscall/no_kernel.rs"]
mod raw;
// The mapping call: one plain form where the kernel is entered directly
// on a 64-bit architecture, else the architecture file's own (mmap2, libc).
#[cfg(all(
    not(miri),
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
))]
#[path = "raw_syscall/plain_mmap.rs"]
mod plain_mmap;
#[cfg(all(
    not(miri),
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
))]
use plain_mmap::mmap as raw_mmap;
#[cfg(any(
    miri,
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    ))
))]
use raw::mmap as raw_mmap;
/// `io_uring_setup(2)`: returns the new ring's fd.
///
/// # Safety
/// `params` must point to a writable `struct io_uring_params`.
pub unsafe fn io_uring_setup(entries: u32, params: *mut c_void) -> SysResult<i32> {
    // SAFETY: forwarded to the kernel, which validates `params` itself.
    let r = unsafe {
        raw::syscall6(
            libc::SYS_io_uring_setup,
            entries as usize,
            params as usize,
            0,
            0,
            0,
            0,
        )
    };
    check(r).map(|v| v as i32)
}

/// `io_uring_enter(2)` with an explicit argument size (`enter2`).
///
/// # Safety
/// `arg` must be null or valid for the kernel to read `argsz` bytes, as
/// `flags` describe it (a sigset, an `io_uring_getevents_arg`, ...).
#[inline]
pub unsafe fn io_uring_enter2(
    fd: u32,
    to_submit: u32,
    min_complete: u32,
    flags: u32,
    arg: *const c_void,
    argsz: usize,
) -> SysResult<i32> {
    // SAFETY: forwarded to the kernel, which validates every argument.
    let r = unsafe {
        raw::syscall6(
            libc::SYS_io_uring_enter,
            fd as usize,
            to_submit as usize,
            min_complete as usize,
            flags as usize,
            arg as usize,
            argsz,
        )
    };
    check(r).map(|v| v as i32)
}

/// Whether the kernel's answer `r` is the error `e`, compared as the `int`
/// it was made from (the value, or `-errno`): one compare, as liburing's.
/// `matches!(r, Err(e))` says the same (a value is never in the error
/// range) but first works out which of the two `r` is: 4 more instructions
/// on the first attempt of `io_uring_register_files` (x86-64).
#[inline(always)]
pub fn failed_with(r: &SysResult<i32>, e: Errno) -> bool {
    let raw = match *r {
        Ok(v) => v,
        Err(x) => x.neg(),
    };
    raw == e.neg()
}

/// `io_uring_register(2)`.
///
/// # Safety
/// `arg` must be valid for what `opcode` makes the kernel read or write.
#[inline(always)]
pub unsafe fn io_uring_register(
    fd: u32,
    opcode: u32,
    arg: *const c_void,
    nr_args: u32,
) -> SysResult<i32> {
    // SAFETY: forwarded to the kernel, which validates every argument.
    let r = unsafe {
        raw::syscall4(
            libc::SYS_io_uring_register,
            fd as usize,
            opcode as usize,
            arg as usize,
            nr_args as usize,
        )
    };
    check(r).map(|v| v as i32)
}

/// `mmap(2)` without touching errno.
///
/// # Safety
/// As for mmap: a fixed or shared mapping must not clobber live memory.
pub unsafe fn mmap(
    addr: *mut c_void,
    len: usize,
    prot: i32,
    flags: i32,
    fd: i32,
    offset: u64,
) -> SysResult<*mut c_void> {
    // SAFETY: the caller vouches for the mapping request.
    let r = unsafe {
        raw_mmap(
            addr as usize,
            len,
            prot as usize,
            flags as usize,
            fd as usize,
            offset,
        )
    };
    check(r).map(|v| v as *mut c_void)
}

/// `munmap(2)`; failures are ignored by every caller, as in liburing.
///
/// # Safety
/// The range must not be in use by anything that outlives the call.
pub unsafe fn munmap(addr: *mut c_void, len: usize) -> SysResult<()> {
    // SAFETY: the caller owns the mapping.
    let r = unsafe { raw::syscall6(libc::SYS_munmap, addr as usize, len, 0, 0, 0, 0) };
    check(r).map(|_| ())
}

/// `madvise(2)`.
///
/// # Safety
/// The range must be a mapping the caller owns.
pub unsafe fn madvise(addr: *mut c_void, len: usize, advice: i32) -> SysResult<()> {
    // SAFETY: the caller owns the mapping.
    let r = unsafe {
        raw::syscall6(
            libc::SYS_madvise,
            addr as usize,
            len,
            advice as usize,
            0,
            0,
            0,
        )
    };
    check(r).map(|_| ())
}

/// `close(2)`.
pub fn close(fd: i32) -> SysResult<()> {
    // SAFETY: closing an fd has no memory-safety preconditions.
    let r = unsafe { raw::syscall6(libc::SYS_close, fd as usize, 0, 0, 0, 0, 0) };
    check(r).map(|_| ())
}

/// The calling process's resource limit `resource` (`prlimit64`, pid 0).
pub fn getrlimit(resource: u32) -> SysResult<libc::rlimit64> {
    let mut lim = libc::rlimit64 {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: the kernel writes one rlimit64 into `lim`, which is live.
    let r = unsafe {
        raw::syscall6(
            libc::SYS_prlimit64,
            0,
            resource as usize,
            0,
            core::ptr::from_mut(&mut lim) as usize,
            0,
            0,
        )
    };
    check(r).map(|_| lim)
}

/// Sets the calling process's resource limit `resource` (`prlimit64`, pid 0).
pub fn setrlimit(resource: u32, lim: &libc::rlimit64) -> SysResult<()> {
    // SAFETY: the kernel only reads one rlimit64 from `lim`.
    let r = unsafe {
        raw::syscall6(
            libc::SYS_prlimit64,
            0,
            resource as usize,
            core::ptr::from_ref(lim) as usize,
            0,
            0,
            0,
        )
    };
    check(r).map(|_| ())
}

/// The system page size, asked of libc once per call (cheap: glibc caches it).
pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let v = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if v > 0 {
        v as usize
    } else {
        4096
    }
}

#[cfg(test)]
mod tests;
