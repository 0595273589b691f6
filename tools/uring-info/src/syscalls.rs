// SPDX-License-Identifier: MIT
//! The raw io_uring system calls `uring-info` probes with, their errors as
//! plain errnos: one file under both the probes and the memlock-aware
//! retry, so neither needs the other's.

use uring_uapi::io_uring_params;

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// `io_uring_setup(2)`; the fd or the errno.
pub fn setup(entries: u32, p: &mut io_uring_params) -> Result<i32, i32> {
    // SAFETY: `p` is a live io_uring_params the kernel reads and fills.
    let r = unsafe { libc::syscall(libc::SYS_io_uring_setup, entries, p as *mut io_uring_params) };
    if r < 0 {
        Err(errno())
    } else {
        Ok(r as i32)
    }
}

/// `io_uring_register(2)`; the result or the errno.
pub fn register(fd: i32, op: u32, arg: *mut libc::c_void, nr: u32) -> Result<libc::c_long, i32> {
    // SAFETY: every caller passes an `arg` valid for `op` and `nr`.
    let r = unsafe { libc::syscall(libc::SYS_io_uring_register, fd, op, arg, nr) };
    if r < 0 {
        Err(errno())
    } else {
        Ok(r)
    }
}

/// Closes a probe ring.
pub fn close(fd: i32) {
    // SAFETY: closes a ring fd that `setup` returned to this program.
    unsafe { libc::close(fd) };
}
