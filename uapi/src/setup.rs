// SPDX-License-Identifier: MIT
//! Ring setup: the argument of `io_uring_setup(2)`, the ring offsets the
//! kernel fills in, the setup and feature flags, and the `mmap(2)` offsets
//! of the rings.

c_structs! {
    pub(crate) static LAYOUTS;

    /// Offsets of the SQ ring fields in its mapping (from `io_uring_setup`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_sqring_offsets {
        pub head: u32 => "__u32",
        pub tail: u32 => "__u32",
        pub ring_mask: u32 => "__u32",
        pub ring_entries: u32 => "__u32",
        pub flags: u32 => "__u32",
        pub dropped: u32 => "__u32",
        pub array: u32 => "__u32",
        pub resv1: u32 => "__u32",
        /// With `IORING_SETUP_NO_MMAP`: the application's ring memory.
        pub user_addr: u64 => "__u64",
    }

    /// Offsets of the CQ ring fields in its mapping (from `io_uring_setup`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_cqring_offsets {
        pub head: u32 => "__u32",
        pub tail: u32 => "__u32",
        pub ring_mask: u32 => "__u32",
        pub ring_entries: u32 => "__u32",
        pub overflow: u32 => "__u32",
        pub cqes: u32 => "__u32",
        pub flags: u32 => "__u32",
        pub resv1: u32 => "__u32",
        /// With `IORING_SETUP_NO_MMAP`: the application's ring memory.
        pub user_addr: u64 => "__u64",
    }

    /// Argument of `io_uring_setup(2)`, filled in by the kernel on success.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_params {
        pub sq_entries: u32 => "__u32",
        pub cq_entries: u32 => "__u32",
        /// `IORING_SETUP_*`.
        pub flags: u32 => "__u32",
        pub sq_thread_cpu: u32 => "__u32",
        pub sq_thread_idle: u32 => "__u32",
        /// `IORING_FEAT_*` (output).
        pub features: u32 => "__u32",
        pub wq_fd: u32 => "__u32",
        pub resv: [u32; 3] => "__u32[3]",
        pub sq_off: io_sqring_offsets => "struct io_sqring_offsets",
        pub cq_off: io_cqring_offsets => "struct io_cqring_offsets",
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Setup flags, passed in `io_uring_params.flags`.
    macros(unsigned): u32 {
        /// Completions are reaped by busy-polling the device.
        IORING_SETUP_IOPOLL = 1 << 0;
        /// A kernel thread polls the SQ, so submission needs no syscall.
        IORING_SETUP_SQPOLL = 1 << 1;
        /// Pin the SQ polling thread to `sq_thread_cpu`.
        IORING_SETUP_SQ_AFF = 1 << 2;
        /// Size the CQ from `cq_entries`.
        IORING_SETUP_CQSIZE = 1 << 3;
        /// Clamp too-large entry counts instead of failing.
        IORING_SETUP_CLAMP = 1 << 4;
        /// Share the async workers of the ring `wq_fd`.
        IORING_SETUP_ATTACH_WQ = 1 << 5;
        /// Create the ring disabled; enable it with a register call.
        IORING_SETUP_R_DISABLED = 1 << 6;
        /// Go on submitting after one SQE fails.
        IORING_SETUP_SUBMIT_ALL = 1 << 7;
        /// Run task work cooperatively, without interrupting the task.
        IORING_SETUP_COOP_TASKRUN = 1 << 8;
        /// Report pending task work through `IORING_SQ_TASKRUN`.
        IORING_SETUP_TASKRUN_FLAG = 1 << 9;
        /// Every SQE is 128 bytes.
        IORING_SETUP_SQE128 = 1 << 10;
        /// Every CQE is 32 bytes.
        IORING_SETUP_CQE32 = 1 << 11;
        /// Only one task submits to this ring.
        IORING_SETUP_SINGLE_ISSUER = 1 << 12;
        /// Run task work only when the application waits for completions.
        IORING_SETUP_DEFER_TASKRUN = 1 << 13;
        /// The rings live in memory the application passes in.
        IORING_SETUP_NO_MMAP = 1 << 14;
        /// Hand back a registered ring index instead of a file descriptor.
        IORING_SETUP_REGISTERED_FD_ONLY = 1 << 15;
        /// No SQ index array: SQEs are consumed in ring order.
        IORING_SETUP_NO_SQARRAY = 1 << 16;
        /// With `IORING_SETUP_IOPOLL`: sleep a little before polling.
        IORING_SETUP_HYBRID_IOPOLL = 1 << 17;
        /// 16- and 32-byte CQEs share one CQ (see `IORING_CQE_F_32`).
        IORING_SETUP_CQE_MIXED = 1 << 18;
        /// 64- and 128-byte SQEs share one SQ.
        IORING_SETUP_SQE_MIXED = 1 << 19;
        /// Each submission starts again at SQ index 0.
        IORING_SETUP_SQ_REWIND = 1 << 20;
    }

    /// Feature bits the kernel reports in `io_uring_params.features`.
    macros(unsigned): u32 {
        /// One mmap(2) maps both the SQ and the CQ ring.
        IORING_FEAT_SINGLE_MMAP = 1 << 0;
        /// Completions are never dropped when the CQ is full.
        IORING_FEAT_NODROP = 1 << 1;
        /// Submitted data is stable once io_uring_enter(2) returns.
        IORING_FEAT_SUBMIT_STABLE = 1 << 2;
        /// Offset -1 means "the file's current position".
        IORING_FEAT_RW_CUR_POS = 1 << 3;
        /// Requests run with the submitter's credentials at submit time.
        IORING_FEAT_CUR_PERSONALITY = 1 << 4;
        /// Pollable files are polled instead of handed to a worker.
        IORING_FEAT_FAST_POLL = 1 << 5;
        /// Poll masks are 32 bits wide.
        IORING_FEAT_POLL_32BITS = 1 << 6;
        /// SQPOLL rings may use unregistered files.
        IORING_FEAT_SQPOLL_NONFIXED = 1 << 7;
        /// io_uring_enter(2) accepts `IORING_ENTER_EXT_ARG`.
        IORING_FEAT_EXT_ARG = 1 << 8;
        /// Async workers are native threads of the task.
        IORING_FEAT_NATIVE_WORKERS = 1 << 9;
        /// Registered resources may carry tags.
        IORING_FEAT_RSRC_TAGS = 1 << 10;
        /// `IOSQE_CQE_SKIP_SUCCESS` is supported.
        IORING_FEAT_CQE_SKIP = 1 << 11;
        /// Linked requests resolve their files when they start.
        IORING_FEAT_LINKED_FILE = 1 << 12;
        /// A registered ring fd may be used to register.
        IORING_FEAT_REG_REG_RING = 1 << 13;
        /// Send and receive can take bundles of buffers.
        IORING_FEAT_RECVSEND_BUNDLE = 1 << 14;
        /// Waits accept a minimum timeout.
        IORING_FEAT_MIN_TIMEOUT = 1 << 15;
        /// Reads and writes accept attributes (`attr_ptr`).
        IORING_FEAT_RW_ATTR = 1 << 16;
        /// `IORING_ENTER_NO_IOWAIT` is supported.
        IORING_FEAT_NO_IOWAIT = 1 << 17;
    }

    /// Offsets to pass to mmap(2) to map the rings and the SQE array.
    macros(ull): u64 {
        IORING_OFF_SQ_RING = 0;
        IORING_OFF_CQ_RING = 0x0800_0000;
        IORING_OFF_SQES = 0x1000_0000;
        /// Base of provided-buffer rings; the group id goes above
        /// `IORING_OFF_PBUF_SHIFT`.
        IORING_OFF_PBUF_RING = 0x8000_0000;
        IORING_OFF_MMAP_MASK = 0xf800_0000;
    }
    macros(int): u32 {
        /// Shift of the buffer group id in a provided-buffer ring offset.
        IORING_OFF_PBUF_SHIFT = 16;
    }

    /// Bits the kernel sets in the SQ ring's flags word.
    macros(unsigned): u32 {
        /// The SQ polling thread sleeps: wake it with `IORING_ENTER_SQ_WAKEUP`.
        IORING_SQ_NEED_WAKEUP = 1 << 0;
        /// Completions overflowed the CQ and wait in the kernel.
        IORING_SQ_CQ_OVERFLOW = 1 << 1;
        /// Task work is pending: enter the kernel to run it.
        IORING_SQ_TASKRUN = 1 << 2;
    }

    /// Bits the application sets in the CQ ring's flags word.
    macros(unsigned): u32 {
        /// Do not signal the registered eventfd.
        IORING_CQ_EVENTFD_DISABLED = 1 << 0;
    }
}

/// The setup flags `bit` cannot be given without (the kernel refuses it
/// alone with `EINVAL`); 0 when it stands alone. A test ring for `bit`
/// needs these too.
pub const fn setup_flag_needs(bit: u32) -> u32 {
    match bit {
        IORING_SETUP_SQ_AFF => IORING_SETUP_SQPOLL,
        IORING_SETUP_DEFER_TASKRUN => IORING_SETUP_SINGLE_ISSUER,
        IORING_SETUP_TASKRUN_FLAG => IORING_SETUP_COOP_TASKRUN,
        IORING_SETUP_HYBRID_IOPOLL => IORING_SETUP_IOPOLL,
        IORING_SETUP_REGISTERED_FD_ONLY => IORING_SETUP_NO_MMAP,
        IORING_SETUP_SQ_REWIND => IORING_SETUP_NO_SQARRAY,
        _ => 0,
    }
}
