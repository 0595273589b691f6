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
mod tests;
