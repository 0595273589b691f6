// SPDX-License-Identifier: MIT
//! Provided buffers: the ring of buffers the kernel picks from, and the
//! arguments that register it and ask for its head.

/// One provided buffer in a buffer ring.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf {
    pub addr: u64,
    pub len: u32,
    pub bid: u16,
    pub resv: u16,
}

/// A provided-buffer ring: an array of [`io_uring_buf`] whose first entry's
/// `resv` field doubles as the ring tail.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_ring {
    /// The ring entries, from offset 0: entry 0's last bytes are the header.
    pub bufs: [io_uring_buf; 0],
    pub resv1: u64,
    pub resv2: u32,
    pub resv3: u16,
    /// Written by the application with release semantics.
    pub tail: u16,
}

impl io_uring_buf_ring {
    /// Pointer to entry 0 of the ring at `br` (the ring is as long as
    /// registered; the result keeps `br`'s provenance).
    #[inline]
    pub fn bufs_ptr(br: *mut Self) -> *mut io_uring_buf {
        br.cast::<io_uring_buf>()
    }
}

/// Argument of `IORING_REGISTER_PBUF_RING` / `IORING_UNREGISTER_PBUF_RING`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_reg {
    pub ring_addr: u64,
    pub ring_entries: u32,
    pub bgid: u16,
    /// `IOU_PBUF_RING_*`.
    pub flags: u16,
    pub min_left: u32,
    pub resv: [u32; 5],
}

/// Argument of `IORING_REGISTER_PBUF_STATUS`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_status {
    /// Input: the buffer group.
    pub buf_group: u32,
    /// Output: the kernel's head.
    pub head: u32,
    pub resv: [u32; 8],
}

c_consts! {
    pub(crate) static CONSTS;

    /// `io_uring_buf_reg.flags`.
    enum io_uring_register_pbuf_ring_flags: u16 {
        /// The kernel allocates the ring; map it at `IORING_OFF_PBUF_RING`.
        IOU_PBUF_RING_MMAP = 1;
        /// Buffers may be consumed in pieces.
        IOU_PBUF_RING_INC = 2;
    }
}

c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_buf (16, 8) {
        pub addr: "__u64" @ 0, 8;
        pub len: "__u32" @ 8, 4;
        pub bid: "__u16" @ 12, 2;
        pub resv: "__u16" @ 14, 2;
    }
    io_uring_buf_ring (16, 8) {
        /// The ring header overlays the reserved tail of entry 0.
        union {
            struct {
                pub resv1: "__u64" @ 0, 8;
                pub resv2: "__u32" @ 8, 4;
                pub resv3: "__u16" @ 12, 2;
                pub tail: "__u16" @ 14, 2;
            }
            pub bufs: "struct io_uring_buf[0]" @ 0, 0;
        }
    }
    io_uring_buf_reg (40, 8) {
        pub ring_addr: "__u64" @ 0, 8;
        pub ring_entries: "__u32" @ 8, 4;
        pub bgid: "__u16" @ 12, 2;
        pub flags: "__u16" @ 14, 2;
        pub min_left: "__u32" @ 16, 4;
        pub resv: "__u32[5]" @ 20, 20;
    }
    io_uring_buf_status (40, 4) {
        pub buf_group: "__u32" @ 0, 4;
        pub head: "__u32" @ 4, 4;
        pub resv: "__u32[8]" @ 8, 32;
    }
}
