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
    pub(crate) static QUERY_CONSTS;
    // io_uring_query_hdr.query_op
    enumerator IO_URING_QUERY_OPCODES: u32 = 0;
    enumerator IO_URING_QUERY_ZCRX: u32 = 1;
    enumerator IO_URING_QUERY_SCQ: u32 = 2;
    enumerator __IO_URING_QUERY_MAX: u32 = 3;
}

c_layout! {
    pub(crate) static QUERY_LAYOUTS;
    io_uring_query_hdr (40, 8) {
        next_entry: 0, 8;
        query_data: 8, 8;
        query_op: 16, 4;
        size: 20, 4;
        result: 24, 4;
        __resv: 28, 12;
    }
    io_uring_query_opcode (48, 8) {
        nr_request_opcodes: 0, 4;
        nr_register_opcodes: 4, 4;
        feature_flags: 8, 8;
        ring_setup_flags: 16, 8;
        enter_flags: 24, 8;
        sqe_flags: 32, 8;
        nr_query_opcodes: 40, 4;
        __pad: 44, 4;
    }
    io_uring_query_zcrx (40, 8) {
        register_flags: 0, 8;
        area_flags: 8, 8;
        nr_ctrl_opcodes: 16, 4;
        features: 20, 4;
        rq_hdr_size: 24, 4;
        rq_hdr_alignment: 28, 4;
        __resv2: 32, 8;
    }
    io_uring_query_scq (16, 8) {
        hdr_size: 0, 8;
        hdr_alignment: 8, 8;
    }
}
