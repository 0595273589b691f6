// SPDX-License-Identifier: MIT
//! `io_uring_register(2)`: its opcodes and the arguments of the calls that
//! register files, buffers, probes, restrictions, clocks, NAPI, sync
//! cancellation, file ranges and memory regions. (Provided-buffer rings and
//! zero-copy receive have their own modules.)

use super::__kernel_timespec;

c_structs! {
    pub(crate) static LAYOUTS;

    /// Old argument of `IORING_REGISTER_FILES_UPDATE` (see `io_uring_rsrc_update`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_files_update {
        pub offset: u32 => "__u32",
        pub resv: u32 => "__u32",
        /// Pointer to an array of `__s32` fds.
        pub fds: u64 => "__aligned_u64",
    }

    /// Argument of `IORING_REGISTER_FILES2` / `IORING_REGISTER_BUFFERS2`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_rsrc_register {
        pub nr: u32 => "__u32",
        /// `IORING_RSRC_REGISTER_*`.
        pub flags: u32 => "__u32",
        pub resv2: u64 => "__u64",
        pub data: u64 => "__aligned_u64",
        pub tags: u64 => "__aligned_u64",
    }

    /// Argument of `IORING_REGISTER_FILES_UPDATE`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_rsrc_update {
        pub offset: u32 => "__u32",
        pub resv: u32 => "__u32",
        pub data: u64 => "__aligned_u64",
    }

    /// Argument of `IORING_REGISTER_FILES_UPDATE2` / `IORING_REGISTER_BUFFERS_UPDATE`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_rsrc_update2 {
        pub offset: u32 => "__u32",
        pub resv: u32 => "__u32",
        pub data: u64 => "__aligned_u64",
        pub tags: u64 => "__aligned_u64",
        pub nr: u32 => "__u32",
        pub resv2: u32 => "__u32",
    }

    /// One opcode in an [`io_uring_probe`].
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_probe_op {
        pub op: u8 => "__u8",
        pub resv: u8 => "__u8",
        /// `IO_URING_OP_*`.
        pub flags: u16 => "__u16",
        pub resv2: u32 => "__u32",
    }

    /// Header of the `IORING_REGISTER_PROBE` answer; `ops_len` entries follow.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_probe {
        pub last_op: u8 => "__u8",
        pub ops_len: u8 => "__u8",
        pub resv: u16 => "__u16",
        pub resv2: [u32; 3] => "__u32[3]",
        pub ops: [io_uring_probe_op; 0] => "struct io_uring_probe_op[]",
    }

    /// One entry of `IORING_REGISTER_RESTRICTIONS`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_restriction {
        /// `IORING_RESTRICTION_*`.
        pub opcode: u16 => "__u16",
        /// The one byte the restriction is about.
        union {
            pub register_op: u8 => "__u8",
            sqe_op: u8 => "__u8",
            sqe_flags: u8 => "__u8",
        }
        pub resv: u8 => "__u8",
        pub resv2: [u32; 3] => "__u32[3]",
    }

    /// Header of a set of restrictions applied to a task; entries follow.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_task_restriction {
        pub flags: u16 => "__u16",
        pub nr_res: u16 => "__u16",
        pub resv: [u32; 3] => "__u32[3]",
        pub restrictions: [io_uring_restriction; 0] => "struct io_uring_restriction[0]",
    }

    /// Argument of `IORING_REGISTER_CLOCK`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_clock_register {
        pub clockid: u32 => "__u32",
        pub __resv: [u32; 3] => "__u32[3]",
    }

    /// Argument of `IORING_REGISTER_CLONE_BUFFERS`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_clone_buffers {
        pub src_fd: u32 => "__u32",
        /// `IORING_REGISTER_SRC_REGISTERED`, `IORING_REGISTER_DST_REPLACE`.
        pub flags: u32 => "__u32",
        pub src_off: u32 => "__u32",
        pub dst_off: u32 => "__u32",
        pub nr: u32 => "__u32",
        pub pad: [u32; 3] => "__u32[3]",
    }

    /// Argument of `IORING_REGISTER_NAPI` / `IORING_UNREGISTER_NAPI`.
    ///
    /// Linux 6.13 split liburing 2.15's `pad` and `resv` into `opcode` and
    /// `op_param`; both spellings name the same bytes here (each union's
    /// first line is 2.15's), so programs written for either compile.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_napi {
        pub busy_poll_to: u32 => "__u32",
        pub prefer_busy_poll: u8 => "__u8",
        union {
            pub pad: [u8; 3] => "__u8[3]",
            struct {
                /// `IO_URING_NAPI_*` operation (`io_uring_napi_op`).
                opcode: u8 => "__u8",
                __pad_op: [u8; 2] => "__u8[2]",
            }
        }
        union {
            pub resv: u64 => "__u64",
            struct {
                /// The tracking strategy (`IO_URING_NAPI_REGISTER_OP`) or
                /// the NAPI id to add or remove (the `STATIC` operations).
                op_param: u32 => "__u32",
                __resv_op: u32 => "__u32",
            }
        }
    }

    /// Argument of `IORING_REGISTER_SYNC_CANCEL`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_sync_cancel_reg {
        pub addr: u64 => "__u64",
        pub fd: i32 => "__s32",
        /// `IORING_ASYNC_CANCEL_*`.
        pub flags: u32 => "__u32",
        pub timeout: __kernel_timespec => "struct __kernel_timespec",
        pub opcode: u8 => "__u8",
        pub pad: [u8; 7] => "__u8[7]",
        pub pad2: [u64; 3] => "__u64[3]",
    }

    /// Argument of `IORING_REGISTER_FILE_ALLOC_RANGE`: slots `[off, off + len)`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_file_index_range {
        pub off: u32 => "__u32",
        pub len: u32 => "__u32",
        pub resv: u64 => "__u64",
    }

    /// A memory region (rings, wait arguments, zcrx refill queue).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_region_desc {
        pub user_addr: u64 => "__u64",
        pub size: u64 => "__u64",
        /// `IORING_MEM_REGION_TYPE_*`.
        pub flags: u32 => "__u32",
        pub id: u32 => "__u32",
        pub mmap_offset: u64 => "__u64",
        pub __resv: [u64; 4] => "__u64[4]",
    }

    /// Argument of `IORING_REGISTER_MEM_REGION`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_mem_region_reg {
        /// Pointer to an [`io_uring_region_desc`].
        pub region_uptr: u64 => "__u64",
        /// `IORING_MEM_REGION_REG_*`.
        pub flags: u64 => "__u64",
        pub __resv: [u64; 2] => "__u64[2]",
    }
}

impl io_uring_probe {
    /// `probe->ops`: the entries following the header at `probe` (the
    /// result keeps `probe`'s provenance).
    #[inline]
    pub fn ops_ptr(probe: *mut Self) -> *mut io_uring_probe_op {
        probe
            .cast::<u8>()
            .wrapping_add(core::mem::offset_of!(Self, ops))
            .cast::<io_uring_probe_op>()
    }
}

impl io_uring_restriction {
    /// `sqe_op` (same byte as `register_op`).
    #[inline]
    pub fn set_sqe_op(&mut self, v: u8) {
        self.register_op = v;
    }

    /// `sqe_flags` (same byte as `register_op`).
    #[inline]
    pub fn set_sqe_flags(&mut self, v: u8) {
        self.register_op = v;
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Opcodes of io_uring_register(2).
    enum io_uring_register_op: u32 {
        IORING_REGISTER_BUFFERS = 0;
        IORING_UNREGISTER_BUFFERS = 1;
        IORING_REGISTER_FILES = 2;
        IORING_UNREGISTER_FILES = 3;
        IORING_REGISTER_EVENTFD = 4;
        IORING_UNREGISTER_EVENTFD = 5;
        IORING_REGISTER_FILES_UPDATE = 6;
        IORING_REGISTER_EVENTFD_ASYNC = 7;
        IORING_REGISTER_PROBE = 8;
        IORING_REGISTER_PERSONALITY = 9;
        IORING_UNREGISTER_PERSONALITY = 10;
        IORING_REGISTER_RESTRICTIONS = 11;
        IORING_REGISTER_ENABLE_RINGS = 12;
        IORING_REGISTER_FILES2 = 13;
        IORING_REGISTER_FILES_UPDATE2 = 14;
        IORING_REGISTER_BUFFERS2 = 15;
        IORING_REGISTER_BUFFERS_UPDATE = 16;
        IORING_REGISTER_IOWQ_AFF = 17;
        IORING_UNREGISTER_IOWQ_AFF = 18;
        IORING_REGISTER_IOWQ_MAX_WORKERS = 19;
        IORING_REGISTER_RING_FDS = 20;
        IORING_UNREGISTER_RING_FDS = 21;
        IORING_REGISTER_PBUF_RING = 22;
        IORING_UNREGISTER_PBUF_RING = 23;
        IORING_REGISTER_SYNC_CANCEL = 24;
        IORING_REGISTER_FILE_ALLOC_RANGE = 25;
        IORING_REGISTER_PBUF_STATUS = 26;
        IORING_REGISTER_NAPI = 27;
        IORING_UNREGISTER_NAPI = 28;
        IORING_REGISTER_CLOCK = 29;
        IORING_REGISTER_CLONE_BUFFERS = 30;
        IORING_REGISTER_SEND_MSG_RING = 31;
        IORING_REGISTER_ZCRX_IFQ = 32;
        IORING_REGISTER_RESIZE_RINGS = 33;
        IORING_REGISTER_MEM_REGION = 34;
        IORING_REGISTER_QUERY = 35;
        IORING_REGISTER_ZCRX_CTRL = 36;
        IORING_REGISTER_BPF_FILTER = 37;
        /// One past the highest register opcode this ABI knows.
        IORING_REGISTER_LAST = 38;
        /// OR-ed into the opcode: the fd argument is a registered ring index.
        IORING_REGISTER_USE_REGISTERED_RING = 1 << 31;
    }

    /// The two kinds of async worker, indexing the pair of limits of
    /// `IORING_REGISTER_IOWQ_MAX_WORKERS`.
    enum io_wq_type: u32 {
        /// Workers for bounded work (regular files, block devices).
        IO_WQ_BOUND = 0;
        /// Workers for work that may wait forever (sockets, pipes).
        IO_WQ_UNBOUND = 1;
    }

    /// `io_uring_napi.opcode`: what `IORING_REGISTER_NAPI` does.
    enum io_uring_napi_op: u32 {
        /// Register busy polling with the tracking strategy in `op_param`.
        IO_URING_NAPI_REGISTER_OP = 0;
        /// Static tracking: add the NAPI id `op_param`.
        IO_URING_NAPI_STATIC_ADD_ID = 1;
        /// Static tracking: remove the NAPI id `op_param`.
        IO_URING_NAPI_STATIC_DEL_ID = 2;
    }

    /// `io_uring_napi.op_param` of `IO_URING_NAPI_REGISTER_OP`.
    enum io_uring_napi_tracking_strategy: u32 {
        /// The kernel tracks the NAPI ids of the sockets the ring uses.
        IO_URING_NAPI_TRACKING_DYNAMIC = 0;
        /// Only the ids added with `IO_URING_NAPI_STATIC_ADD_ID`.
        IO_URING_NAPI_TRACKING_STATIC = 1;
        /// No tracking.
        IO_URING_NAPI_TRACKING_INACTIVE = 255;
    }

    /// `io_uring_rsrc_register.flags`.
    macros(unsigned): u32 {
        /// Register an empty (all-sparse) table of `nr` slots.
        IORING_RSRC_REGISTER_SPARSE = 1 << 0;
    }

    macros(int): i32 {
        /// An fd value in a files update that leaves its slot as it is.
        IORING_REGISTER_FILES_SKIP = -2;
    }

    /// `io_uring_probe_op.flags`.
    macros(unsigned): u16 {
        /// The kernel supports this opcode.
        IO_URING_OP_SUPPORTED = 1 << 0;
    }

    /// What an `io_uring_restriction` restricts, in its `opcode`.
    enum io_uring_register_restriction_op: u16 {
        /// Allow the register opcode `register_op`.
        IORING_RESTRICTION_REGISTER_OP = 0;
        /// Allow the SQE opcode `sqe_op`.
        IORING_RESTRICTION_SQE_OP = 1;
        /// Allow the SQE flags `sqe_flags`.
        IORING_RESTRICTION_SQE_FLAGS_ALLOWED = 2;
        /// Require the SQE flags `sqe_flags`.
        IORING_RESTRICTION_SQE_FLAGS_REQUIRED = 3;
        IORING_RESTRICTION_LAST = 4;
    }

    /// `io_uring_clone_buffers.flags`.
    enum: u32 {
        /// `src_fd` is a registered ring index.
        IORING_REGISTER_SRC_REGISTERED = 1 << 0;
        /// Replace buffers already registered in the destination.
        IORING_REGISTER_DST_REPLACE = 1 << 1;
    }

    /// `io_uring_region_desc.flags`.
    enum: u32 {
        /// The region uses memory the application passes in `user_addr`.
        IORING_MEM_REGION_TYPE_USER = 1;
    }

    /// `io_uring_mem_region_reg.flags`.
    enum: u64 {
        /// The region holds registered wait arguments (`io_uring_reg_wait`).
        IORING_MEM_REGION_REG_WAIT_ARG = 1;
    }
}
