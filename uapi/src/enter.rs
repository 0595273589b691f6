// SPDX-License-Identifier: MIT
//! Entering the kernel: `io_uring_enter(2)` flags and the extended wait
//! arguments, passed directly or registered in advance.

use super::__kernel_timespec;

c_structs! {
    pub(crate) static LAYOUTS;

    /// Argument of `io_uring_enter(2)` with `IORING_ENTER_EXT_ARG`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_getevents_arg {
        pub sigmask: u64 => "__u64",
        pub sigmask_sz: u32 => "__u32",
        pub min_wait_usec: u32 => "__u32",
        /// Pointer to a [`__kernel_timespec`].
        pub ts: u64 => "__u64",
    }

    /// A registered wait argument (`IORING_ENTER_EXT_ARG_REG`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_reg_wait {
        pub ts: __kernel_timespec => "struct __kernel_timespec",
        pub min_wait_usec: u32 => "__u32",
        /// `IORING_REG_WAIT_*`.
        pub flags: u32 => "__u32",
        pub sigmask: u64 => "__u64",
        pub sigmask_sz: u32 => "__u32",
        pub pad: [u32; 3] => "__u32[3]",
        pub pad2: [u64; 2] => "__u64[2]",
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Flags of io_uring_enter(2).
    macros(unsigned): u32 {
        /// Wait for `min_complete` completions.
        IORING_ENTER_GETEVENTS = 1 << 0;
        /// Wake the SQ polling thread.
        IORING_ENTER_SQ_WAKEUP = 1 << 1;
        /// Wait until the SQ has free entries.
        IORING_ENTER_SQ_WAIT = 1 << 2;
        /// The argument is a `struct io_uring_getevents_arg`.
        IORING_ENTER_EXT_ARG = 1 << 3;
        /// The fd is a registered ring index.
        IORING_ENTER_REGISTERED_RING = 1 << 4;
        /// The timeout is an absolute time.
        IORING_ENTER_ABS_TIMER = 1 << 5;
        /// The argument is an offset into the registered wait region.
        IORING_ENTER_EXT_ARG_REG = 1 << 6;
        /// Do not count the wait as iowait.
        IORING_ENTER_NO_IOWAIT = 1 << 7;
    }

    /// `io_uring_reg_wait.flags`.
    enum: u32 {
        /// `ts` holds a timeout.
        IORING_REG_WAIT_TS = 1 << 0;
    }
}
