// SPDX-License-Identifier: MIT
//! `io_uring_register(2)`: its opcodes and the arguments of the calls that
//! register files, buffers, probes, restrictions, clocks, NAPI, sync
//! cancellation, file ranges and memory regions. (Provided-buffer rings and
//! zero-copy receive have their own modules.)

use super::__kernel_timespec;

/// Old argument of `IORING_REGISTER_FILES_UPDATE` (see `io_uring_rsrc_update`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_files_update {
    pub offset: u32,
    pub resv: u32,
    /// Pointer to an array of `__s32` fds.
    pub fds: u64,
}

/// Argument of `IORING_REGISTER_FILES2` / `IORING_REGISTER_BUFFERS2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_register {
    pub nr: u32,
    /// `IORING_RSRC_REGISTER_*`.
    pub flags: u32,
    pub resv2: u64,
    pub data: u64,
    pub tags: u64,
}

/// Argument of `IORING_REGISTER_FILES_UPDATE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_update {
    pub offset: u32,
    pub resv: u32,
    pub data: u64,
}

/// Argument of `IORING_REGISTER_FILES_UPDATE2` / `IORING_REGISTER_BUFFERS_UPDATE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_update2 {
    pub offset: u32,
    pub resv: u32,
    pub data: u64,
    pub tags: u64,
    pub nr: u32,
    pub resv2: u32,
}

/// One opcode in an [`io_uring_probe`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_probe_op {
    pub op: u8,
    pub resv: u8,
    /// `IO_URING_OP_*`.
    pub flags: u16,
    pub resv2: u32,
}

/// Header of the `IORING_REGISTER_PROBE` answer; `ops_len` entries follow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_probe {
    pub last_op: u8,
    pub ops_len: u8,
    pub resv: u16,
    pub resv2: [u32; 3],
    pub ops: [io_uring_probe_op; 0],
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

/// One entry of `IORING_REGISTER_RESTRICTIONS`.
///
/// C's union of `register_op`, `sqe_op` and `sqe_flags` (all `__u8`) is the
/// field `register_op`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_restriction {
    /// `IORING_RESTRICTION_*`.
    pub opcode: u16,
    pub register_op: u8,
    pub resv: u8,
    pub resv2: [u32; 3],
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

/// Header of a set of restrictions applied to a task; entries follow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_task_restriction {
    pub flags: u16,
    pub nr_res: u16,
    pub resv: [u32; 3],
    pub restrictions: [io_uring_restriction; 0],
}

/// Argument of `IORING_REGISTER_CLOCK`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_clock_register {
    pub clockid: u32,
    pub __resv: [u32; 3],
}

/// Argument of `IORING_REGISTER_CLONE_BUFFERS`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_clone_buffers {
    pub src_fd: u32,
    /// `IORING_REGISTER_SRC_REGISTERED`, `IORING_REGISTER_DST_REPLACE`.
    pub flags: u32,
    pub src_off: u32,
    pub dst_off: u32,
    pub nr: u32,
    pub pad: [u32; 3],
}

/// Argument of `IORING_REGISTER_NAPI` / `IORING_UNREGISTER_NAPI`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_napi {
    pub busy_poll_to: u32,
    pub prefer_busy_poll: u8,
    pub pad: [u8; 3],
    pub resv: u64,
}

/// Argument of `IORING_REGISTER_SYNC_CANCEL`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_sync_cancel_reg {
    pub addr: u64,
    pub fd: i32,
    /// `IORING_ASYNC_CANCEL_*`.
    pub flags: u32,
    pub timeout: __kernel_timespec,
    pub opcode: u8,
    pub pad: [u8; 7],
    pub pad2: [u64; 3],
}

/// Argument of `IORING_REGISTER_FILE_ALLOC_RANGE`: slots `[off, off + len)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_file_index_range {
    pub off: u32,
    pub len: u32,
    pub resv: u64,
}

/// A memory region (rings, wait arguments, zcrx refill queue).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_region_desc {
    pub user_addr: u64,
    pub size: u64,
    /// `IORING_MEM_REGION_TYPE_*`.
    pub flags: u32,
    pub id: u32,
    pub mmap_offset: u64,
    pub __resv: [u64; 4],
}

/// Argument of `IORING_REGISTER_MEM_REGION`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_mem_region_reg {
    /// Pointer to an [`io_uring_region_desc`].
    pub region_uptr: u64,
    /// `IORING_MEM_REGION_REG_*`.
    pub flags: u64,
    pub __resv: [u64; 2],
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

c_layout! {
    pub(crate) static LAYOUTS;
    io_uring_files_update (16, 8) {
        pub offset: "__u32" @ 0, 4;
        pub resv: "__u32" @ 4, 4;
        pub fds: "__aligned_u64" @ 8, 8;
    }
    io_uring_rsrc_register (32, 8) {
        pub nr: "__u32" @ 0, 4;
        pub flags: "__u32" @ 4, 4;
        pub resv2: "__u64" @ 8, 8;
        pub data: "__aligned_u64" @ 16, 8;
        pub tags: "__aligned_u64" @ 24, 8;
    }
    io_uring_rsrc_update (16, 8) {
        pub offset: "__u32" @ 0, 4;
        pub resv: "__u32" @ 4, 4;
        pub data: "__aligned_u64" @ 8, 8;
    }
    io_uring_rsrc_update2 (32, 8) {
        pub offset: "__u32" @ 0, 4;
        pub resv: "__u32" @ 4, 4;
        pub data: "__aligned_u64" @ 8, 8;
        pub tags: "__aligned_u64" @ 16, 8;
        pub nr: "__u32" @ 24, 4;
        pub resv2: "__u32" @ 28, 4;
    }
    io_uring_probe_op (8, 4) {
        pub op: "__u8" @ 0, 1;
        pub resv: "__u8" @ 1, 1;
        pub flags: "__u16" @ 2, 2;
        pub resv2: "__u32" @ 4, 4;
    }
    io_uring_probe (16, 4) {
        pub last_op: "__u8" @ 0, 1;
        pub ops_len: "__u8" @ 1, 1;
        pub resv: "__u16" @ 2, 2;
        pub resv2: "__u32[3]" @ 4, 12;
        pub ops: "struct io_uring_probe_op[]" @ 16, 0;
    }
    io_uring_restriction (16, 4) {
        pub opcode: "__u16" @ 0, 2;
        /// The one byte the restriction is about.
        union {
            pub register_op: "__u8" @ 2, 1;
            sqe_op: "__u8" @ 2, 1;
            sqe_flags: "__u8" @ 2, 1;
        }
        pub resv: "__u8" @ 3, 1;
        pub resv2: "__u32[3]" @ 4, 12;
    }
    io_uring_task_restriction (16, 4) {
        pub flags: "__u16" @ 0, 2;
        pub nr_res: "__u16" @ 2, 2;
        pub resv: "__u32[3]" @ 4, 12;
        pub restrictions: "struct io_uring_restriction[0]" @ 16, 0;
    }
    io_uring_clock_register (16, 4) {
        pub clockid: "__u32" @ 0, 4;
        pub __resv: "__u32[3]" @ 4, 12;
    }
    io_uring_clone_buffers (32, 4) {
        pub src_fd: "__u32" @ 0, 4;
        pub flags: "__u32" @ 4, 4;
        pub src_off: "__u32" @ 8, 4;
        pub dst_off: "__u32" @ 12, 4;
        pub nr: "__u32" @ 16, 4;
        pub pad: "__u32[3]" @ 20, 12;
    }
    io_uring_napi (16, 8) {
        pub busy_poll_to: "__u32" @ 0, 4;
        pub prefer_busy_poll: "__u8" @ 4, 1;
        pub pad: "__u8[3]" @ 5, 3;
        pub resv: "__u64" @ 8, 8;
    }
    io_uring_sync_cancel_reg (64, 8) {
        pub addr: "__u64" @ 0, 8;
        pub fd: "__s32" @ 8, 4;
        pub flags: "__u32" @ 12, 4;
        pub timeout: "struct __kernel_timespec" @ 16, 16;
        pub opcode: "__u8" @ 32, 1;
        pub pad: "__u8[7]" @ 33, 7;
        pub pad2: "__u64[3]" @ 40, 24;
    }
    io_uring_file_index_range (16, 8) {
        pub off: "__u32" @ 0, 4;
        pub len: "__u32" @ 4, 4;
        pub resv: "__u64" @ 8, 8;
    }
    io_uring_region_desc (64, 8) {
        pub user_addr: "__u64" @ 0, 8;
        pub size: "__u64" @ 8, 8;
        pub flags: "__u32" @ 16, 4;
        pub id: "__u32" @ 20, 4;
        pub mmap_offset: "__u64" @ 24, 8;
        pub __resv: "__u64[4]" @ 32, 32;
    }
    io_uring_mem_region_reg (32, 8) {
        pub region_uptr: "__u64" @ 0, 8;
        pub flags: "__u64" @ 8, 8;
        pub __resv: "__u64[2]" @ 16, 16;
    }
}
