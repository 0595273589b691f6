// SPDX-License-Identifier: MIT
//! `liburing/io_uring/bpf_filter.h`: BPF filters on submitted requests
//! (`IORING_REGISTER_BPF_FILTER`).

c_structs! {
    pub(crate) static LAYOUTS;

    /// What a filter program sees of a request.
    #[derive(Clone, Copy)]
    pub struct io_uring_bpf_ctx {
        pub user_data: u64 => "__u64",
        pub opcode: u8 => "__u8",
        pub sqe_flags: u8 => "__u8",
        /// How many bytes of the opcode-specific data below are valid.
        pub pdu_size: u8 => "__u8",
        pub pad: [u8; 5] => "__u8[5]",
        /// Opcode-specific data.
        pub args: io_uring_bpf_ctx_args => anonymous,
    }

    /// The opcode-specific part of [`io_uring_bpf_ctx`] (an anonymous union
    /// in C).
    #[derive(Clone, Copy)]
    anonymous pub union io_uring_bpf_ctx_args {
        /// `IORING_OP_SOCKET`.
        pub socket: io_uring_bpf_ctx_socket => inline,
        /// `IORING_OP_OPENAT` and `IORING_OP_OPENAT2`.
        pub open: io_uring_bpf_ctx_open => inline,
        /// `IORING_OP_CONNECT` (Linux 7.2).
        pub connect: io_uring_bpf_ctx_connect => inline,
    }

    /// `socket` member of [`io_uring_bpf_ctx_args`] (an anonymous struct in C).
    #[derive(Clone, Copy, Debug, Default)]
    anonymous pub struct io_uring_bpf_ctx_socket {
        pub family: u32 => "__u32",
        pub r#type: u32 => "__u32",
        pub protocol: u32 => "__u32",
    }

    /// `open` member of [`io_uring_bpf_ctx_args`] (an anonymous struct in C).
    #[derive(Clone, Copy, Debug, Default)]
    anonymous pub struct io_uring_bpf_ctx_open {
        pub flags: u64 => "__u64",
        pub mode: u64 => "__u64",
        pub resolve: u64 => "__u64",
    }

    /// `connect` member of [`io_uring_bpf_ctx_args`] (an anonymous struct in
    /// C): the address a connect asks for, as far as its `addr_len` covers
    /// it (the rest zero). `port` and the addresses are in network byte
    /// order; a filter loads whole aligned 32-bit words and masks them.
    #[derive(Clone, Copy, Debug, Default)]
    anonymous pub struct io_uring_bpf_ctx_connect {
        /// The address family, zero-extended.
        pub family: u32 => "__u32",
        pub port: u16 => "__be16",
        pub pad: [u8; 2] => "__u8[2]",
        union {
            /// An IPv6 address; `v4_addr` is the same bytes for IPv4.
            pub v6_addr: [u8; 16] => "__u8[16]",
            v4_addr: u32 => "__be32",
        }
    }

    /// One filter program for one opcode.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_bpf_filter {
        pub opcode: u32 => "__u32",
        /// `IO_URING_BPF_FILTER_*`.
        pub flags: u32 => "__u32",
        /// Number of BPF instructions at `filter_ptr`.
        pub filter_len: u32 => "__u32",
        /// The `pdu_size` the program expects for its opcode.
        pub pdu_size: u8 => "__u8",
        pub resv: [u8; 3] => "__u8[3]",
        pub filter_ptr: u64 => "__u64",
        pub resv2: [u64; 5] => "__u64[5]",
    }

    /// Argument of `IORING_REGISTER_BPF_FILTER`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_bpf {
        /// `IO_URING_BPF_CMD_*`.
        pub cmd_type: u16 => "__u16",
        pub cmd_flags: u16 => "__u16",
        pub resv: u32 => "__u32",
        /// A union of one member in C, left room to grow.
        union {
            /// The only member of an anonymous union in C.
            pub filter: io_uring_bpf_filter => "struct io_uring_bpf_filter",
        }
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// `io_uring_bpf_filter.flags`.
    enum: u32 {
        /// Deny every opcode that has no filter yet.
        IO_URING_BPF_FILTER_DENY_REST = 1;
        /// Fail when kernel and program disagree on `pdu_size`.
        IO_URING_BPF_FILTER_SZ_STRICT = 2;
    }

    /// `io_uring_bpf.cmd_type`.
    enum: u16 {
        /// Register the filter in `filter`.
        IO_URING_BPF_CMD_FILTER = 1;
    }
}
