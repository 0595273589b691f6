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

// Layout of liburing 2.15 on x86-64 (LP64): asserted here at compile time,
// and against include/liburing.h by the C check below.
crate::uapi::c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_sq (104, 8) {
        khead: 0, 8; ktail: 8, 8; kring_mask: 16, 8; kring_entries: 24, 8;
        kflags: 32, 8; kdropped: 40, 8; array: 48, 8; sqes: 56, 8;
        sqe_head: 64, 4; sqe_tail: 68, 4; ring_sz: 72, 8; ring_ptr: 80, 8;
        ring_mask: 88, 4; ring_entries: 92, 4; sqes_sz: 96, 4; pad: 100, 4;
    }
    io_uring_cq (88, 8) {
        khead: 0, 8; ktail: 8, 8; kring_mask: 16, 8; kring_entries: 24, 8;
        kflags: 32, 8; koverflow: 40, 8; cqes: 48, 8; ring_sz: 56, 8;
        ring_ptr: 64, 8; ring_mask: 72, 4; ring_entries: 76, 4; pad: 80, 8;
    }
    io_uring (216, 8) {
        sq: 0, 104; cq: 104, 88; flags: 192, 4; ring_fd: 196, 4;
        features: 200, 4; enter_ring_fd: 204, 4; int_flags: 208, 1; pad: 209, 3;
        pad2: 212, 4;
    }
    io_uring_zcrx_rq (40, 8) {
        khead: 0, 8; ktail: 8, 8; rq_tail: 16, 4; ring_entries: 20, 4;
        rqes: 24, 8; ring_ptr: 32, 8;
    }
    io_uring_cqe_iter (24, 8) {
        cqes: 0, 8; mask: 8, 4; shift: 12, 4; head: 16, 4; tail: 20, 4;
    }
}

/// The hand-written C structs of include/liburing.h agree with these.
#[cfg(test)]
#[test]
fn liburing_h_structs_match_rust() {
    use crate::uapi::abi_check::{c_layout_asserts, compile_c_check, include_dir};
    let body = c_layout_asserts(LAYOUTS);
    if let Err(e) = compile_c_check("structs", &["liburing.h"], &body, &include_dir()) {
        panic!("include/liburing.h disagrees with src/structs.rs:\n{e}");
    }
}
