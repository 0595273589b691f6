// SPDX-License-Identifier: MIT
//! `liburing/io_uring/query.h`: arguments of `IORING_REGISTER_QUERY`.

/// Header of one query; queries chain through `next_entry`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_query_hdr {
    /// Address of the next header, 0 ends the chain.
    pub next_entry: u64,
    /// Address of the answer buffer for this query.
    pub query_data: u64,
    /// One of `IO_URING_QUERY_*`.
    pub query_op: u32,
    /// Size of the answer buffer.
    pub size: u32,
    /// Filled by the kernel: 0 or `-errno`.
    pub result: i32,
    pub __resv: [u32; 3],
}

/// Answer to `IO_URING_QUERY_OPCODES` (needs no ring).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_query_opcode {
    pub nr_request_opcodes: u32,
    pub nr_register_opcodes: u32,
    pub feature_flags: u64,
    pub ring_setup_flags: u64,
    pub enter_flags: u64,
    pub sqe_flags: u64,
    pub nr_query_opcodes: u32,
    pub __pad: u32,
}

/// Answer to `IO_URING_QUERY_ZCRX`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_query_zcrx {
    pub register_flags: u64,
    pub area_flags: u64,
    pub nr_ctrl_opcodes: u32,
    pub features: u32,
    pub rq_hdr_size: u32,
    pub rq_hdr_alignment: u32,
    pub __resv2: u64,
}

/// Answer to `IO_URING_QUERY_SCQ`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_query_scq {
    pub hdr_size: u64,
    pub hdr_alignment: u64,
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
        __IO_URING_QUERY_MAX = 3;
    }
}

c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_query_hdr (40, 8) {
        pub next_entry: "__u64" @ 0, 8;
        pub query_data: "__u64" @ 8, 8;
        pub query_op: "__u32" @ 16, 4;
        pub size: "__u32" @ 20, 4;
        pub result: "__s32" @ 24, 4;
        pub __resv: "__u32[3]" @ 28, 12;
    }
    io_uring_query_opcode (48, 8) {
        pub nr_request_opcodes: "__u32" @ 0, 4;
        pub nr_register_opcodes: "__u32" @ 4, 4;
        pub feature_flags: "__u64" @ 8, 8;
        pub ring_setup_flags: "__u64" @ 16, 8;
        pub enter_flags: "__u64" @ 24, 8;
        pub sqe_flags: "__u64" @ 32, 8;
        pub nr_query_opcodes: "__u32" @ 40, 4;
        pub __pad: "__u32" @ 44, 4;
    }
    io_uring_query_zcrx (40, 8) {
        pub register_flags: "__u64" @ 0, 8;
        pub area_flags: "__u64" @ 8, 8;
        pub nr_ctrl_opcodes: "__u32" @ 16, 4;
        pub features: "__u32" @ 20, 4;
        pub rq_hdr_size: "__u32" @ 24, 4;
        pub rq_hdr_alignment: "__u32" @ 28, 4;
        pub __resv2: "__u64" @ 32, 8;
    }
    io_uring_query_scq (16, 8) {
        pub hdr_size: "__u64" @ 0, 8;
        pub hdr_alignment: "__u64" @ 8, 8;
    }
}
