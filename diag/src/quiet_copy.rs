// SPDX-License-Identifier: MIT
//! Reading the program's memory where it may no longer be mapped (a crash
//! freed it, another thread unmapped it): `process_vm_readv` on this very
//! process, which fails with `EFAULT` where a plain load would fault. Only
//! on rare paths (a snapshot, a finding): it is a system call.

/// Fills `to` with the bytes at `from` in this process without faulting.
/// Whether every byte came.
pub fn copy_quietly(to: &mut [u8], from: usize) -> bool {
    let local = libc::iovec {
        iov_base: to.as_mut_ptr().cast(),
        iov_len: to.len(),
    };
    let remote = libc::iovec {
        iov_base: from as *mut libc::c_void,
        iov_len: to.len(),
    };
    // SAFETY: `local` is `to`, valid for its length; the kernel checks
    // `from` against our mappings (it is never dereferenced here).
    let got = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    got == to.len() as isize
}
