// SPDX-License-Identifier: MIT
//! `liburing/io_uring/query.h`: arguments of `IORING_REGISTER_QUERY`.

c_structs! {
    pub(crate) static LAYOUTS;

    /// Header of one query; queries chain through `next_entry`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_query_hdr {
        /// Address of the next header, 0 ends the chain.
        pub next_entry: u64 => "__u64",
        /// Address of the answer buffer for this query.
        pub query_data: u64 => "__u64",
        /// One of `IO_URING_QUERY_*`.
        pub query_op: u32 => "__u32",
        /// Size of the answer buffer.
        pub size: u32 => "__u32",
        /// Filled by the kernel: 0 or `-errno`.
        pub result: i32 => "__s32",
        pub __resv: [u32; 3] => "__u32[3]",
    }

    /// Answer to `IO_URING_QUERY_OPCODES` (needs no ring).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_query_opcode {
        pub nr_request_opcodes: u32 => "__u32",
        pub nr_register_opcodes: u32 => "__u32",
        pub feature_flags: u64 => "__u64",
        pub ring_setup_flags: u64 => "__u64",
        pub enter_flags: u64 => "__u64",
        pub sqe_flags: u64 => "__u64",
        pub nr_query_opcodes: u32 => "__u32",
        pub __pad: u32 => "__u32",
    }

    /// Answer to `IO_URING_QUERY_ZCRX`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_query_zcrx {
        pub register_flags: u64 => "__u64",
        pub area_flags: u64 => "__u64",
        pub nr_ctrl_opcodes: u32 => "__u32",
        pub features: u32 => "__u32",
        pub rq_hdr_size: u32 => "__u32",
        pub rq_hdr_alignment: u32 => "__u32",
        pub __resv2: u64 => "__u64",
    }

    /// Answer to `IO_URING_QUERY_ZCRX_EVENT`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_query_zcrx_event {
        /// The `ZCRX_EVENT_*` types the kernel can notify.
        pub event_flags: u32 => "__u32",
        /// Size of a `struct zcrx_stats`.
        pub stats_size: u32 => "__u32",
        /// Alignment `zcrx_event_desc.stats_offset` must have.
        pub stats_off_alignment: u32 => "__u32",
        pub __resv1: u32 => "__u32",
        pub __resv2: [u64; 4] => "__u64[4]",
    }

    /// Answer to `IO_URING_QUERY_SCQ`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_query_scq {
        pub hdr_size: u64 => "__u64",
        pub hdr_alignment: u64 => "__u64",
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// `io_uring_query_hdr.query_op`: what is asked.
    enum: u32 {
        /// Which opcodes and flags the kernel knows.
        IO_URING_QUERY_OPCODES = 0;
        /// What zero-copy receive supports.
        IO_URING_QUERY_ZCRX = 1;
        /// Size and alignment of the SQ/CQ ring headers.
        IO_URING_QUERY_SCQ = 2;
        /// What zero-copy receive events are there.
        IO_URING_QUERY_ZCRX_EVENT = 3;
        __IO_URING_QUERY_MAX = 4;
    }
}
