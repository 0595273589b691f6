// SPDX-License-Identifier: MIT
//! The library version (`io_uring_major_version` and friends).
#![forbid(unsafe_code)]

/// `IO_URING_VERSION_MAJOR` of the liburing release this library replaces.
pub const MAJOR: i32 = 2;
/// `IO_URING_VERSION_MINOR` of the liburing release this library replaces.
pub const MINOR: i32 = 15;

/// `io_uring_major_version`.
pub const fn major() -> i32 {
    MAJOR
}

/// `io_uring_minor_version`.
pub const fn minor() -> i32 {
    MINOR
}

/// `io_uring_check_version`: note the inverted sense. It answers "is this
/// library *older* than `major.minor`?", so `false` means the caller's
/// requirement is met.
pub const fn check_version(major: i32, minor: i32) -> bool {
    major > MAJOR || (major == MAJOR && minor > MINOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_2_15() {
        assert_eq!((major(), minor()), (2, 15));
    }

    #[test]
    fn check_version_is_true_only_for_newer_requests() {
        // Requirements this library meets.
        for (ma, mi) in [(2, 15), (2, 0), (2, -1), (1, 99), (0, 0), (-1, 100)] {
            assert!(!check_version(ma, mi), "{ma}.{mi}");
        }
        // Requirements it does not meet.
        for (ma, mi) in [(2, 16), (2, 100), (3, 0), (3, -5), (i32::MAX, 0)] {
            assert!(check_version(ma, mi), "{ma}.{mi}");
        }
    }
}
