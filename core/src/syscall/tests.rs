// SPDX-License-Identifier: MIT
use super::*;

/// Errno values only the tests name.
impl Errno {
    pub const EBUSY: Errno = Errno::new(libc::EBUSY);
    pub const ENXIO: Errno = Errno::new(libc::ENXIO);
    pub const ENOENT: Errno = Errno::new(libc::ENOENT);
}

#[test]
fn check_maps_kernel_errors() {
    assert_eq!(check(-22), Err(Errno::EINVAL));
    assert_eq!(check(-4095), Err(Errno::new(4095)));
    assert_eq!(check(-4096), Ok(-4096));
    assert_eq!(check(3), Ok(3));
}

#[test]
#[cfg_attr(miri, ignore = "enters the kernel")]
fn close_of_bad_fd_is_ebadf() {
    assert_eq!(close(-1), Err(Errno::EBADF));
}
