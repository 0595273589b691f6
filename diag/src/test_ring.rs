// SPDX-License-Identifier: MIT
//! A test ring of the diagnostics' own, set up to ask the kernel something
//! (its features, its probe, whether it takes a flag). Made with plain
//! system calls (the library's entry points would report their own
//! failures to the diagnostics), 4 entries, and held only while the
//! question is asked, with signals deferred (`uring_sysinfo::signals_deferred`):
//! a handler that leaves by `siglongjmp` cannot strand it in the program.

use core::ptr;

use crate::syscall::{self, Errno};
use crate::uapi::io_uring_params;

/// Sets up a test ring with `params`, calls `f` with its descriptor and the
/// parameters the kernel filled in, and closes it; the setup's error
/// otherwise.
pub fn with_test_ring<R>(
    mut params: io_uring_params,
    f: impl FnOnce(i32, &io_uring_params) -> R,
) -> Result<R, Errno> {
    crate::sysinfo::signals_deferred(|| {
        // SAFETY: `params` is a live, writable io_uring_params.
        let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut params).cast()) }?;
        let r = f(fd, &params);
        let _ = syscall::close(fd);
        Ok(r)
    })
}
