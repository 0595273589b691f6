//! `liburing/io_uring/bpf_filter.h`: BPF filters on submitted requests
//! (`IORING_REGISTER_BPF_FILTER`).

/// What a filter program sees of a request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct io_uring_bpf_ctx {
    pub user_data: u64,
    pub opcode: u8,
    pub sqe_flags: u8,
    /// Size of the opcode-specific data in `args`.
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
    pub(crate) static BPF_CONSTS;
    // io_uring_bpf_filter.flags
    /// Deny every opcode that has no filter yet.
    enumerator IO_URING_BPF_FILTER_DENY_REST: u32 = 1;
    /// Fail when kernel and program disagree on `pdu_size`.
    enumerator IO_URING_BPF_FILTER_SZ_STRICT: u32 = 2;
    // io_uring_bpf.cmd_type
    enumerator IO_URING_BPF_CMD_FILTER: u16 = 1;
}

c_layout! {
    pub(crate) static BPF_LAYOUTS;
    io_uring_bpf_ctx (40, 8) {
        user_data: 0, 8;
        opcode: 8, 1;
        sqe_flags: 9, 1;
        pdu_size: 10, 1;
        pad: 11, 5;
    } + rust_only {
        args: 16, 24;
    } + c_only {
        socket: 16, 12;
        socket.family: 16, 4;
        socket.type: 20, 4;
        socket.protocol: 24, 4;
        open: 16, 24;
        open.flags: 16, 8;
        open.mode: 24, 8;
        open.resolve: 32, 8;
    }
    io_uring_bpf_filter (64, 8) {
        opcode: 0, 4;
        flags: 4, 4;
        filter_len: 8, 4;
        pdu_size: 12, 1;
        resv: 13, 3;
        filter_ptr: 16, 8;
        resv2: 24, 40;
    }
    io_uring_bpf (72, 8) {
        cmd_type: 0, 2;
        cmd_flags: 2, 2;
        resv: 4, 4;
        filter: 8, 64;
    }
}

// The anonymous members, which C cannot name as types.
const _: () = assert!(size_of::<io_uring_bpf_ctx_args>() == 24);
const _: () = assert!(size_of::<io_uring_bpf_ctx_socket>() == 12);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_socket, r#type) == 4);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_socket, protocol) == 8);
const _: () = assert!(size_of::<io_uring_bpf_ctx_open>() == 24);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_open, mode) == 8);
const _: () = assert!(core::mem::offset_of!(io_uring_bpf_ctx_open, resolve) == 16);
