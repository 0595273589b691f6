// SPDX-License-Identifier: MIT
//! Types io_uring's ABI takes from other kernel headers. `liburing/compat.h`
//! defines them itself when the system's headers are too old to have them.

/// `struct __kernel_timespec` of `<linux/time_types.h>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct __kernel_timespec {
    pub tv_sec: i64,
    pub tv_nsec: i64,
}

pub(crate) const CONSTS: &[super::CGroup] = &[];

c_layout! {
    pub(crate) static LAYOUTS;
    __kernel_timespec (16, 8) {
        pub tv_sec: "long long" @ 0, 8;
        pub tv_nsec: "long long" @ 8, 8;
    }
}
