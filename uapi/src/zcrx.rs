// SPDX-License-Identifier: MIT
//! Zero-copy receive: the refill queue and its entries, the receive area
//! and interface-queue registration, and the control commands.

c_structs! {
    pub(crate) static LAYOUTS;

    /// Zero-copy receive refill queue entry.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_zcrx_rqe {
        pub off: u64 => "__u64",
        pub len: u32 => "__u32",
        pub __pad: u32 => "__u32",
    }

    /// Extra half of a 32-byte CQE posted by a zero-copy receive.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_zcrx_cqe {
        pub off: u64 => "__u64",
        pub __pad: u64 => "__u64",
    }

    /// Offsets of the zcrx refill ring fields in its region.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_zcrx_offsets {
        pub head: u32 => "__u32",
        pub tail: u32 => "__u32",
        pub rqes: u32 => "__u32",
        pub __resv2: u32 => "__u32",
        pub __resv: [u64; 2] => "__u64[2]",
    }

    /// A receive area for zero-copy receive.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_zcrx_area_reg {
        pub addr: u64 => "__u64",
        pub len: u64 => "__u64",
        pub rq_area_token: u64 => "__u64",
        /// `IORING_ZCRX_AREA_*`.
        pub flags: u32 => "__u32",
        pub dmabuf_fd: u32 => "__u32",
        pub __resv2: [u64; 2] => "__u64[2]",
    }

    /// Argument of `IORING_REGISTER_ZCRX_IFQ`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_zcrx_ifq_reg {
        pub if_idx: u32 => "__u32",
        pub if_rxq: u32 => "__u32",
        pub rq_entries: u32 => "__u32",
        /// `ZCRX_REG_*`.
        pub flags: u32 => "__u32",
        /// Pointer to an [`io_uring_zcrx_area_reg`].
        pub area_ptr: u64 => "__u64",
        /// Pointer to an [`io_uring_region_desc`](crate::register::io_uring_region_desc).
        pub region_ptr: u64 => "__u64",
        pub offsets: io_uring_zcrx_offsets => "struct io_uring_zcrx_offsets",
        pub zcrx_id: u32 => "__u32",
        pub rx_buf_len: u32 => "__u32",
        pub __resv: [u64; 3] => "__u64[3]",
    }

    /// `ZCRX_CTRL_FLUSH_RQ` payload of [`zcrx_ctrl`].
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_ctrl_flush_rq {
        pub __resv: [u64; 6] => "__u64[6]",
    }

    /// `ZCRX_CTRL_EXPORT` payload of [`zcrx_ctrl`].
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_ctrl_export {
        pub zcrx_fd: u32 => "__u32",
        pub __resv1: [u32; 11] => "__u32[11]",
    }

    /// Argument of `IORING_REGISTER_ZCRX_CTRL`.
    ///
    /// `zc_flush` carries nothing but reserved words: Rust knows the union
    /// by its other member.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_ctrl {
        pub zcrx_id: u32 => "__u32",
        /// `ZCRX_CTRL_*`.
        pub op: u32 => "__u32",
        pub __resv: [u64; 2] => "__u64[2]",
        /// The operation's payload.
        union {
            pub zc_export: zcrx_ctrl_export => "struct zcrx_ctrl_export",
            zc_flush: zcrx_ctrl_flush_rq => "struct zcrx_ctrl_flush_rq",
        }
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Offsets in zero-copy receive CQEs carry the area id from this bit up.
    macros(int): u32 {
        IORING_ZCRX_AREA_SHIFT = 48;
    }
    macros(ull): u64 {
        IORING_ZCRX_AREA_MASK = !((1u64 << IORING_ZCRX_AREA_SHIFT) - 1);
    }

    /// `io_uring_zcrx_area_reg.flags`.
    enum io_uring_zcrx_area_flags: u32 {
        /// The area is a dma-buf (`dmabuf_fd`).
        IORING_ZCRX_AREA_DMABUF = 1;
    }

    /// `io_uring_zcrx_ifq_reg.flags`.
    enum zcrx_reg_flags: u32 {
        ZCRX_REG_IMPORT = 1;
        ZCRX_REG_NODEV = 2;
    }

    /// `io_uring_query_zcrx.features`.
    enum zcrx_features: u32 {
        ZCRX_FEATURE_RX_PAGE_SIZE = 1 << 0;
    }

    /// `zcrx_ctrl.op`.
    enum zcrx_ctrl_op: u32 {
        /// Flush the refill queue.
        ZCRX_CTRL_FLUSH_RQ = 0;
        /// Export the interface queue as a file descriptor.
        ZCRX_CTRL_EXPORT = 1;
        __ZCRX_CTRL_LAST = 2;
    }
}
