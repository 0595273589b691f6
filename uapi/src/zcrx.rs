// SPDX-License-Identifier: MIT
//! Zero-copy receive: the refill queue and its entries, the receive area
//! and interface-queue registration, and the control commands.

/// Zero-copy receive refill queue entry.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_rqe {
    pub off: u64,
    pub len: u32,
    pub __pad: u32,
}

/// Extra half of a 32-byte CQE posted by a zero-copy receive.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_cqe {
    pub off: u64,
    pub __pad: u64,
}

/// Offsets of the zcrx refill ring fields in its region.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_offsets {
    pub head: u32,
    pub tail: u32,
    pub rqes: u32,
    pub __resv2: u32,
    pub __resv: [u64; 2],
}

/// A receive area for zero-copy receive.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_area_reg {
    pub addr: u64,
    pub len: u64,
    pub rq_area_token: u64,
    /// `IORING_ZCRX_AREA_*`.
    pub flags: u32,
    pub dmabuf_fd: u32,
    pub __resv2: [u64; 2],
}

/// Argument of `IORING_REGISTER_ZCRX_IFQ`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_ifq_reg {
    pub if_idx: u32,
    pub if_rxq: u32,
    pub rq_entries: u32,
    /// `ZCRX_REG_*`.
    pub flags: u32,
    /// Pointer to an [`io_uring_zcrx_area_reg`].
    pub area_ptr: u64,
    /// Pointer to an [`io_uring_region_desc`].
    pub region_ptr: u64,
    pub offsets: io_uring_zcrx_offsets,
    pub zcrx_id: u32,
    pub rx_buf_len: u32,
    pub __resv: [u64; 3],
}

/// `ZCRX_CTRL_FLUSH_RQ` payload of [`zcrx_ctrl`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl_flush_rq {
    pub __resv: [u64; 6],
}

/// `ZCRX_CTRL_EXPORT` payload of [`zcrx_ctrl`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl_export {
    pub zcrx_fd: u32,
    pub __resv1: [u32; 11],
}

/// Argument of `IORING_REGISTER_ZCRX_CTRL`.
///
/// C's anonymous union of `zc_export` and `zc_flush` (both 48 bytes) is the
/// field `zc_export`; `zc_flush` carries nothing but reserved words.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl {
    pub zcrx_id: u32,
    /// `ZCRX_CTRL_*`.
    pub op: u32,
    pub __resv: [u64; 2],
    pub zc_export: zcrx_ctrl_export,
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

c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_zcrx_rqe (16, 8) {
        pub off: "__u64" @ 0, 8;
        pub len: "__u32" @ 8, 4;
        pub __pad: "__u32" @ 12, 4;
    }
    io_uring_zcrx_cqe (16, 8) {
        pub off: "__u64" @ 0, 8;
        pub __pad: "__u64" @ 8, 8;
    }
    io_uring_zcrx_offsets (32, 8) {
        pub head: "__u32" @ 0, 4;
        pub tail: "__u32" @ 4, 4;
        pub rqes: "__u32" @ 8, 4;
        pub __resv2: "__u32" @ 12, 4;
        pub __resv: "__u64[2]" @ 16, 16;
    }
    io_uring_zcrx_area_reg (48, 8) {
        pub addr: "__u64" @ 0, 8;
        pub len: "__u64" @ 8, 8;
        pub rq_area_token: "__u64" @ 16, 8;
        pub flags: "__u32" @ 24, 4;
        pub dmabuf_fd: "__u32" @ 28, 4;
        pub __resv2: "__u64[2]" @ 32, 16;
    }
    io_uring_zcrx_ifq_reg (96, 8) {
        pub if_idx: "__u32" @ 0, 4;
        pub if_rxq: "__u32" @ 4, 4;
        pub rq_entries: "__u32" @ 8, 4;
        pub flags: "__u32" @ 12, 4;
        pub area_ptr: "__u64" @ 16, 8;
        pub region_ptr: "__u64" @ 24, 8;
        pub offsets: "struct io_uring_zcrx_offsets" @ 32, 32;
        pub zcrx_id: "__u32" @ 64, 4;
        pub rx_buf_len: "__u32" @ 68, 4;
        pub __resv: "__u64[3]" @ 72, 24;
    }
    zcrx_ctrl_flush_rq (48, 8) {
        pub __resv: "__u64[6]" @ 0, 48;
    }
    zcrx_ctrl_export (48, 4) {
        pub zcrx_fd: "__u32" @ 0, 4;
        pub __resv1: "__u32[11]" @ 4, 44;
    }
    zcrx_ctrl (72, 8) {
        pub zcrx_id: "__u32" @ 0, 4;
        pub op: "__u32" @ 4, 4;
        pub __resv: "__u64[2]" @ 8, 16;
        /// The operation's payload.
        union {
            pub zc_export: "struct zcrx_ctrl_export" @ 24, 48;
            zc_flush: "struct zcrx_ctrl_flush_rq" @ 24, 48;
        }
    }
}
