// SPDX-License-Identifier: MIT
//! liburing's own public structs (`struct io_uring`, `io_uring_sq`,
//! `io_uring_cq`, ...), laid out exactly as liburing 2.15's `liburing.h`.
//!
//! Programs built against any liburing 2.x header read these fields from
//! their own inline code, so every field, including the deprecated
//! `kring_mask`/`kring_entries` pointers, must hold what liburing puts there.
#![forbid(unsafe_code)]

use core::ffi::c_void;

use crate::uapi::{io_uring_cqe, io_uring_sqe, io_uring_zcrx_rqe};

// The C types are those of `liburing/ring_types.h`, which the generator
// (tools/gen) writes from these lines. Pointers and `size_t` make the layout
// depend on the target; the computed layout follows it.
c_structs! {
    pub static LAYOUTS;

    /// The submission queue as the application sees it.
    #[derive(Debug)]
    pub struct io_uring_sq {
        pub khead: *mut u32 => "unsigned *",
        pub ktail: *mut u32 => "unsigned *",
        /// Deprecated: points at the kernel's copy of `ring_mask`.
        pub kring_mask: *mut u32 => "unsigned *",
        /// Deprecated: points at the kernel's copy of `ring_entries`.
        pub kring_entries: *mut u32 => "unsigned *",
        pub kflags: *mut u32 => "unsigned *",
        pub kdropped: *mut u32 => "unsigned *",
        /// NULL when the ring was set up with `IORING_SETUP_NO_SQARRAY`.
        pub array: *mut u32 => "unsigned *",
        pub sqes: *mut io_uring_sqe => "struct io_uring_sqe *",
        /// First SQE not yet handed to the kernel (application-private).
        pub sqe_head: u32 => "unsigned",
        /// Next SQE `io_uring_get_sqe` hands out (application-private).
        pub sqe_tail: u32 => "unsigned",
        pub ring_sz: usize => "size_t",
        pub ring_ptr: *mut c_void => "void *",
        pub ring_mask: u32 => "unsigned",
        pub ring_entries: u32 => "unsigned",
        pub sqes_sz: u32 => "unsigned",
        pub pad: u32 => "unsigned",
    }

    /// The completion queue as the application sees it.
    #[derive(Debug)]
    pub struct io_uring_cq {
        pub khead: *mut u32 => "unsigned *",
        pub ktail: *mut u32 => "unsigned *",
        /// Deprecated: points at the kernel's copy of `ring_mask`.
        pub kring_mask: *mut u32 => "unsigned *",
        /// Deprecated: points at the kernel's copy of `ring_entries`.
        pub kring_entries: *mut u32 => "unsigned *",
        pub kflags: *mut u32 => "unsigned *",
        pub koverflow: *mut u32 => "unsigned *",
        pub cqes: *mut io_uring_cqe => "struct io_uring_cqe *",
        pub ring_sz: usize => "size_t",
        pub ring_ptr: *mut c_void => "void *",
        pub ring_mask: u32 => "unsigned",
        pub ring_entries: u32 => "unsigned",
        pub pad: [u32; 2] => "unsigned[2]",
    }

    /// `struct io_uring`: one ring as the application holds it.
    #[derive(Debug)]
    pub struct io_uring {
        pub sq: io_uring_sq => "struct io_uring_sq",
        pub cq: io_uring_cq => "struct io_uring_cq",
        /// The `IORING_SETUP_*` flags the ring was created with.
        pub flags: u32 => "unsigned",
        pub ring_fd: i32 => "int",
        /// The kernel's `IORING_FEAT_*` bits.
        pub features: u32 => "unsigned",
        /// The fd passed to `io_uring_enter`: `ring_fd`, or the registered index.
        pub enter_ring_fd: i32 => "int",
        /// Library-private state, see [`int_flags`].
        pub int_flags: u8 => "__u8",
        pub pad: [u8; 3] => "__u8[3]",
        pub pad2: u32 => "unsigned",
    }

    /// `struct io_uring_zcrx_rq`: the refill queue of a zero-copy receive ifq.
    #[derive(Debug)]
    pub struct io_uring_zcrx_rq {
        pub khead: *mut u32 => "__u32 *",
        pub ktail: *mut u32 => "__u32 *",
        pub rq_tail: u32 => "__u32",
        pub ring_entries: u32 => "unsigned",
        pub rqes: *mut io_uring_zcrx_rqe => "struct io_uring_zcrx_rqe *",
        pub ring_ptr: *mut c_void => "void *",
    }

    /// `struct io_uring_cqe_iter`, filled by the header's inline iterator.
    #[derive(Debug)]
    pub struct io_uring_cqe_iter {
        pub cqes: *mut io_uring_cqe => "struct io_uring_cqe *",
        pub mask: u32 => "unsigned",
        pub shift: u32 => "unsigned",
        pub head: u32 => "unsigned",
        pub tail: u32 => "unsigned",
    }
}

/// Bits of `io_uring::int_flags`. Values are liburing 2.15's: inline code
/// compiled from older headers tests `INT_FLAG_REG_RING` and
/// `INT_FLAG_NO_IOWAIT` and ORs them into its own enter flags.
pub mod int_flags {
    use crate::uapi::{IORING_ENTER_NO_IOWAIT, IORING_ENTER_REGISTERED_RING};
    /// `enter_ring_fd` is a registered index: pass `IORING_ENTER_REGISTERED_RING`.
    pub const REG_RING: u8 = IORING_ENTER_REGISTERED_RING as u8;
    /// The application asked not to be accounted as iowait while waiting.
    pub const NO_IOWAIT: u8 = IORING_ENTER_NO_IOWAIT as u8;
    /// The ring fd itself was registered-only (`IORING_SETUP_REGISTERED_FD_ONLY`).
    pub const REG_REG_RING: u8 = 1;
    /// The rings live in application-provided memory: never unmap them.
    pub const APP_MEM: u8 = 2;
    /// Peeking must enter the kernel to see completions (IOPOLL and friends).
    pub const CQ_ENTER: u8 = 4;
    /// The int_flags bits that are also `io_uring_enter` flags.
    pub const ENTER_MASK: u8 = REG_RING | NO_IOWAIT;
}

impl io_uring {
    /// The `io_uring_enter` flags implied by the ring's private state.
    #[inline]
    pub fn enter_flags(&self) -> u32 {
        u32::from(self.int_flags & int_flags::ENTER_MASK)
    }
}
