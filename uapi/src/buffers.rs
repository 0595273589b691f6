// SPDX-License-Identifier: MIT
//! Provided buffers: the ring of buffers the kernel picks from, and the
//! arguments that register it and ask for its head.

c_structs! {
    pub(crate) static LAYOUTS;

    /// One provided buffer in a buffer ring.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_buf {
        pub addr: u64 => "__u64",
        pub len: u32 => "__u32",
        pub bid: u16 => "__u16",
        pub resv: u16 => "__u16",
    }

    /// A provided-buffer ring: an array of [`io_uring_buf`] whose first entry's
    /// `resv` field doubles as the ring tail.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_buf_ring {
        /// The ring header overlays the reserved tail of entry 0.
        union {
            struct {
                pub resv1: u64 => "__u64",
                pub resv2: u32 => "__u32",
                pub resv3: u16 => "__u16",
                /// Written by the application with release semantics.
                pub tail: u16 => "__u16",
            }
            /// The ring entries, from offset 0: entry 0's last bytes are the header.
            bufs: [io_uring_buf; 0] => "struct io_uring_buf[0]",
        }
    }

    /// Argument of `IORING_REGISTER_PBUF_RING` / `IORING_UNREGISTER_PBUF_RING`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_buf_reg {
        pub ring_addr: u64 => "__u64",
        pub ring_entries: u32 => "__u32",
        pub bgid: u16 => "__u16",
        /// `IOU_PBUF_RING_*`.
        pub flags: u16 => "__u16",
        pub min_left: u32 => "__u32",
        pub resv: [u32; 5] => "__u32[5]",
    }

    /// Argument of `IORING_REGISTER_PBUF_STATUS`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_buf_status {
        /// Input: the buffer group.
        pub buf_group: u32 => "__u32",
        /// Output: the kernel's head.
        pub head: u32 => "__u32",
        pub resv: [u32; 8] => "__u32[8]",
    }
}

impl io_uring_buf_ring {
    /// Pointer to entry 0 of the ring at `br` (the ring is as long as
    /// registered; the result keeps `br`'s provenance).
    #[inline]
    pub fn bufs_ptr(br: *mut Self) -> *mut io_uring_buf {
        br.cast::<io_uring_buf>()
    }
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
