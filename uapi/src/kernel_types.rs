// SPDX-License-Identifier: MIT
//! Types io_uring's ABI takes from other kernel headers. `liburing/compat.h`
//! defines them itself when the system's headers are too old to have them.

c_structs! {
    pub(crate) static LAYOUTS;

    /// `struct __kernel_timespec` of `<linux/time_types.h>`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct __kernel_timespec {
        pub tv_sec: i64 => "long long",
        pub tv_nsec: i64 => "long long",
    }
}

pub(crate) const CONSTS: &[super::CGroup] = &[];
