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
        /// 2.15's three reserved words; Linux 7.2 made the first one
        /// `event_desc`, and both spellings name the same bytes here.
        union {
            pub __resv: [u64; 3] => "__u64[3]",
            struct {
                /// Pointer to a [`zcrx_event_desc`], or 0.
                event_desc: u64 => "__u64",
                __resv_ev: [u64; 2] => "__u64[2]",
            }
        }
    }

    /// Counters of a zero-copy receive instance, at `stats_offset` of
    /// its refill ring region.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_stats {
        /// CQEs whose data was copied instead of received in place.
        pub copy_count: u64 => "__u64",
        /// Bytes copied that way.
        pub copy_bytes: u64 => "__u64",
    }

    /// What events an instance posts (`io_uring_zcrx_ifq_reg.event_desc`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_event_desc {
        /// The `user_data` of the event CQEs.
        pub user_data: u64 => "__u64",
        /// `1 << ZCRX_EVENT_*` of the events wanted.
        pub type_mask: u32 => "__u32",
        /// `ZCRX_EVENT_DESC_FLAG_*`.
        pub flags: u32 => "__u32",
        /// Where a `struct zcrx_stats` is kept in the refill ring region.
        pub stats_offset: u64 => "__u64",
        pub __resv2: [u64; 9] => "__u64[9]",
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

    /// `ZCRX_CTRL_ARM_EVENT` payload of [`zcrx_ctrl`].
    #[derive(Clone, Copy, Debug, Default)]
    pub struct zcrx_ctrl_arm_event {
        /// A `ZCRX_EVENT_*`.
        pub event_type: u32 => "__u32",
        pub __resv: [u32; 11] => "__u32[11]",
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
            zc_arm_event: zcrx_ctrl_arm_event => "struct zcrx_ctrl_arm_event",
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
        /// Event notification (`zcrx_event_desc`, `ZCRX_CTRL_ARM_EVENT`).
        ZCRX_FEATURE_EVENT = 1 << 1;
    }

    /// What a zero-copy receive event reports (`zcrx_event_desc.type_mask`
    /// bit numbers, `zcrx_ctrl_arm_event.event_type`).
    enum zcrx_event_type: u32 {
        /// The instance could not get buffers for received data.
        ZCRX_EVENT_ALLOC_FAIL = 0;
        /// Data was copied instead of received in place.
        ZCRX_EVENT_COPY = 1;
        __ZCRX_EVENT_TYPE_LAST = 2;
    }

    /// `zcrx_event_desc.flags`.
    enum zcrx_event_desc_flags: u32 {
        /// `stats_offset` is valid: keep a `struct zcrx_stats` there.
        ZCRX_EVENT_DESC_FLAG_STATS = 1 << 0;
    }

    /// `zcrx_ctrl.op`.
    enum zcrx_ctrl_op: u32 {
        /// Flush the refill queue.
        ZCRX_CTRL_FLUSH_RQ = 0;
        /// Export the interface queue as a file descriptor.
        ZCRX_CTRL_EXPORT = 1;
        /// Arm the event `zc_arm_event.event_type` to be posted once more.
        ZCRX_CTRL_ARM_EVENT = 2;
        __ZCRX_CTRL_LAST = 3;
    }
}
