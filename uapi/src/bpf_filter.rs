// SPDX-License-Identifier: MIT
//! `liburing/io_uring/bpf_filter.h`: BPF filters on submitted requests
//! (`IORING_REGISTER_BPF_FILTER`).

/// What a filter program sees of a request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct io_uring_bpf_ctx {
    pub user_data: u64,
    pub opcode: u8,
    pub sqe_flags: u8,
    /// How many bytes of the opcode-specific data below are valid.
    pub pdu_size: u8,
    pub pad: [u8; 5],
    /// Opcode-specific data (an anonymous union in C).
    pub args: io_uring_bpf_ctx_args,
}

/// The opcode-specific part of [`io_uring_bpf_ctx`].
#[repr(C)]
#[derive(Clone, Copy)]
pub union io_uring_bpf_ctx_args {
    /// `IORING_OP_SOCKET`.
    pub socket: io_uring_bpf_ctx_socket,
    /// `IORING_OP_OPENAT`/`IORING_OP_OPENAT2`.
    pub open: io_uring_bpf_ctx_open,
}

/// `socket` member of [`io_uring_bpf_ctx_args`] (anonymous in C).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_bpf_ctx_socket {
    pub family: u32,
    pub r#type: u32,
    pub protocol: u32,
}

/// `open` member of [`io_uring_bpf_ctx_args`] (anonymous in C).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_bpf_ctx_open {
    pub flags: u64,
    pub mode: u64,
    pub resolve: u64,
}

/// One filter program for one opcode.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_bpf_filter {
    pub opcode: u32,
    /// `IO_URING_BPF_FILTER_*`.
    pub flags: u32,
    /// Number of BPF instructions at `filter_ptr`.
    pub filter_len: u32,
    /// The `pdu_size` the program expects for its opcode.
    pub pdu_size: u8,
    pub resv: [u8; 3],
    pub filter_ptr: u64,
    pub resv2: [u64; 5],
}

/// Argument of `IORING_REGISTER_BPF_FILTER`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_bpf {
    /// `IO_URING_BPF_CMD_*`.
    pub cmd_type: u16,
    pub cmd_flags: u16,
    pub resv: u32,
    /// The only member of an anonymous union in C.
    pub filter: io_uring_bpf_filter,
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

c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_bpf_ctx (40, 8) {
        pub user_data: "__u64" @ 0, 8;
        pub opcode: "__u8" @ 8, 1;
        pub sqe_flags: "__u8" @ 9, 1;
        pub pdu_size: "__u8" @ 10, 1;
        pub pad: "__u8[5]" @ 11, 5;
        /// Opcode-specific data.
        union {
            /// `IORING_OP_SOCKET`.
            struct socket {
                family: "__u32" @ 16, 4;
                type: "__u32" @ 20, 4;
                protocol: "__u32" @ 24, 4;
            }
            /// `IORING_OP_OPENAT` and `IORING_OP_OPENAT2`.
            struct open {
                flags: "__u64" @ 16, 8;
                mode: "__u64" @ 24, 8;
                resolve: "__u64" @ 32, 8;
            }
        }
    }
    io_uring_bpf_filter (64, 8) {
        pub opcode: "__u32" @ 0, 4;
        pub flags: "__u32" @ 4, 4;
        pub filter_len: "__u32" @ 8, 4;
        pub pdu_size: "__u8" @ 12, 1;
        pub resv: "__u8[3]" @ 13, 3;
        pub filter_ptr: "__u64" @ 16, 8;
        pub resv2: "__u64[5]" @ 24, 40;
    }
    io_uring_bpf (72, 8) {
        pub cmd_type: "__u16" @ 0, 2;
        pub cmd_flags: "__u16" @ 2, 2;
        pub resv: "__u32" @ 4, 4;
        /// A union of one member in C, left room to grow.
        union {
            pub filter: "struct io_uring_bpf_filter" @ 8, 64;
        }
    }
}

// The Rust-only union field and the anonymous members, which C cannot name
// as types.
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx, args) == 16);
const _: () = assert!(size_of::<io_uring_bpf_ctx_args>() == 24);
const _: () = assert!(size_of::<io_uring_bpf_ctx_socket>() == 12);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_socket, r#type) == 4);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_socket, protocol) == 8);
const _: () = assert!(size_of::<io_uring_bpf_ctx_open>() == 24);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_open, mode) == 8);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_open, resolve) == 16);
