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

/// The submission queue as the application sees it.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct io_uring_sq {
    pub khead: *mut u32,
    pub ktail: *mut u32,
    /// Deprecated: points at the kernel's copy of `ring_mask`.
    pub kring_mask: *mut u32,
    /// Deprecated: points at the kernel's copy of `ring_entries`.
    pub kring_entries: *mut u32,
    pub kflags: *mut u32,
    pub kdropped: *mut u32,
    /// NULL when the ring was set up with `IORING_SETUP_NO_SQARRAY`.
    pub array: *mut u32,
    pub sqes: *mut io_uring_sqe,
    /// First SQE not yet handed to the kernel (application-private).
    pub sqe_head: u32,
    /// Next SQE `io_uring_get_sqe` hands out (application-private).
    pub sqe_tail: u32,
    pub ring_sz: usize,
    pub ring_ptr: *mut c_void,
    pub ring_mask: u32,
    pub ring_entries: u32,
    pub sqes_sz: u32,
    pub pad: u32,
}

/// The completion queue as the application sees it.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct io_uring_cq {
    pub khead: *mut u32,
    pub ktail: *mut u32,
    /// Deprecated: points at the kernel's copy of `ring_mask`.
    pub kring_mask: *mut u32,
    /// Deprecated: points at the kernel's copy of `ring_entries`.
    pub kring_entries: *mut u32,
    pub kflags: *mut u32,
    pub koverflow: *mut u32,
    pub cqes: *mut io_uring_cqe,
    pub ring_sz: usize,
    pub ring_ptr: *mut c_void,
    pub ring_mask: u32,
    pub ring_entries: u32,
    pub pad: [u32; 2],
}

/// `struct io_uring`: one ring as the application holds it.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct io_uring {
    pub sq: io_uring_sq,
    pub cq: io_uring_cq,
    /// The `IORING_SETUP_*` flags the ring was created with.
    pub flags: u32,
    pub ring_fd: i32,
    /// The kernel's `IORING_FEAT_*` bits.
    pub features: u32,
    /// The fd passed to `io_uring_enter`: `ring_fd`, or the registered index.
    pub enter_ring_fd: i32,
    /// Library-private state, see [`int_flags`].
    pub int_flags: u8,
    pub pad: [u8; 3],
    pub pad2: u32,
}

/// `struct io_uring_zcrx_rq`: the refill queue of a zero-copy receive ifq.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct io_uring_zcrx_rq {
    pub khead: *mut u32,
    pub ktail: *mut u32,
    pub rq_tail: u32,
    pub ring_entries: u32,
    pub rqes: *mut io_uring_zcrx_rqe,
    pub ring_ptr: *mut c_void,
}

/// `struct io_uring_cqe_iter`, filled by the header's inline iterator.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct io_uring_cqe_iter {
    pub cqes: *mut io_uring_cqe,
    pub mask: u32,
    pub shift: u32,
    pub head: u32,
    pub tail: u32,
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

// Layout of liburing 2.15, with the C types of the header that
// the generator tool (tools/gen) writes (liburing/ring_types.h). Offsets are written
// in pointer-sized units `P` (pointers and `size_t` alike), so the same
// table states the layout of every target: x86-64's numbers at `P = 8`.
const P: usize = core::mem::size_of::<usize>();
/// `struct io_uring_sq` and `struct io_uring_cq`, embedded in `io_uring`.
const SQ_SIZE: usize = 10 * P + 24;
const CQ_SIZE: usize = 9 * P + 16;
crate::uapi::c_layout! {
    pub static LAYOUTS;
    io_uring_sq (SQ_SIZE, P) {
        pub khead: "unsigned *" @ 0, P;
        pub ktail: "unsigned *" @ P, P;
        pub kring_mask: "unsigned *" @ 2 * P, P;
        pub kring_entries: "unsigned *" @ 3 * P, P;
        pub kflags: "unsigned *" @ 4 * P, P;
        pub kdropped: "unsigned *" @ 5 * P, P;
        pub array: "unsigned *" @ 6 * P, P;
        pub sqes: "struct io_uring_sqe *" @ 7 * P, P;
        pub sqe_head: "unsigned" @ 8 * P, 4;
        pub sqe_tail: "unsigned" @ 8 * P + 4, 4;
        pub ring_sz: "size_t" @ 8 * P + 8, P;
        pub ring_ptr: "void *" @ 9 * P + 8, P;
        pub ring_mask: "unsigned" @ 10 * P + 8, 4;
        pub ring_entries: "unsigned" @ 10 * P + 12, 4;
        pub sqes_sz: "unsigned" @ 10 * P + 16, 4;
        pub pad: "unsigned" @ 10 * P + 20, 4;
    }
    io_uring_cq (CQ_SIZE, P) {
        pub khead: "unsigned *" @ 0, P;
        pub ktail: "unsigned *" @ P, P;
        pub kring_mask: "unsigned *" @ 2 * P, P;
        pub kring_entries: "unsigned *" @ 3 * P, P;
        pub kflags: "unsigned *" @ 4 * P, P;
        pub koverflow: "unsigned *" @ 5 * P, P;
        pub cqes: "struct io_uring_cqe *" @ 6 * P, P;
        pub ring_sz: "size_t" @ 7 * P, P;
        pub ring_ptr: "void *" @ 8 * P, P;
        pub ring_mask: "unsigned" @ 9 * P, 4;
        pub ring_entries: "unsigned" @ 9 * P + 4, 4;
        pub pad: "unsigned[2]" @ 9 * P + 8, 8;
    }
    io_uring (SQ_SIZE + CQ_SIZE + 24, P) {
        pub sq: "struct io_uring_sq" @ 0, SQ_SIZE;
        pub cq: "struct io_uring_cq" @ SQ_SIZE, CQ_SIZE;
        pub flags: "unsigned" @ SQ_SIZE + CQ_SIZE, 4;
        pub ring_fd: "int" @ SQ_SIZE + CQ_SIZE + 4, 4;
        pub features: "unsigned" @ SQ_SIZE + CQ_SIZE + 8, 4;
        pub enter_ring_fd: "int" @ SQ_SIZE + CQ_SIZE + 12, 4;
        pub int_flags: "__u8" @ SQ_SIZE + CQ_SIZE + 16, 1;
        pub pad: "__u8[3]" @ SQ_SIZE + CQ_SIZE + 17, 3;
        pub pad2: "unsigned" @ SQ_SIZE + CQ_SIZE + 20, 4;
    }
    io_uring_zcrx_rq (4 * P + 8, P) {
        pub khead: "__u32 *" @ 0, P;
        pub ktail: "__u32 *" @ P, P;
        pub rq_tail: "__u32" @ 2 * P, 4;
        pub ring_entries: "unsigned" @ 2 * P + 4, 4;
        pub rqes: "struct io_uring_zcrx_rqe *" @ 2 * P + 8, P;
        pub ring_ptr: "void *" @ 3 * P + 8, P;
    }
    io_uring_cqe_iter (P + 16, P) {
        pub cqes: "struct io_uring_cqe *" @ 0, P;
        pub mask: "unsigned" @ P, 4;
        pub shift: "unsigned" @ P + 4, 4;
        pub head: "unsigned" @ P + 8, 4;
        pub tail: "unsigned" @ P + 12, 4;
    }
}
