//! Constants of `liburing/io_uring.h`, each typed like the field it is
//! stored in.

c_consts! {
    pub(crate) static CONSTS;

    // ---- sqe->attr_type_mask ----
    /// `attr_ptr` points at an [`io_uring_attr_pi`](super::io_uring_attr_pi).
    define IORING_RW_ATTR_FLAG_PI: u64 = 1 << 0;

    // ---- sqe->file_index ----
    /// Let the kernel pick a free direct-descriptor slot (result in `res`).
    define IORING_FILE_INDEX_ALLOC: u32 = !0;

    // ---- bit numbers of sqe->flags (enum io_uring_sqe_flags_bit) ----
    enumerator IOSQE_FIXED_FILE_BIT: u8 = 0;
    enumerator IOSQE_IO_DRAIN_BIT: u8 = 1;
    enumerator IOSQE_IO_LINK_BIT: u8 = 2;
    enumerator IOSQE_IO_HARDLINK_BIT: u8 = 3;
    enumerator IOSQE_ASYNC_BIT: u8 = 4;
    enumerator IOSQE_BUFFER_SELECT_BIT: u8 = 5;
    enumerator IOSQE_CQE_SKIP_SUCCESS_BIT: u8 = 6;

    // ---- sqe->flags ----
    /// `fd` is an index into the registered file table.
    define IOSQE_FIXED_FILE: u8 = 1 << IOSQE_FIXED_FILE_BIT;
    /// Start only once every earlier request has completed.
    define IOSQE_IO_DRAIN: u8 = 1 << IOSQE_IO_DRAIN_BIT;
    /// The next SQE runs only if this one succeeds.
    define IOSQE_IO_LINK: u8 = 1 << IOSQE_IO_LINK_BIT;
    /// The next SQE runs whatever this one's result.
    define IOSQE_IO_HARDLINK: u8 = 1 << IOSQE_IO_HARDLINK_BIT;
    /// Always punt to an async worker.
    define IOSQE_ASYNC: u8 = 1 << IOSQE_ASYNC_BIT;
    /// Pick a provided buffer from group `buf_group`.
    define IOSQE_BUFFER_SELECT: u8 = 1 << IOSQE_BUFFER_SELECT_BIT;
    /// Post no CQE when the request succeeds.
    define IOSQE_CQE_SKIP_SUCCESS: u8 = 1 << IOSQE_CQE_SKIP_SUCCESS_BIT;

    // ---- io_uring_params.flags (io_uring_setup) ----
    define IORING_SETUP_IOPOLL: u32 = 1 << 0;
    define IORING_SETUP_SQPOLL: u32 = 1 << 1;
    define IORING_SETUP_SQ_AFF: u32 = 1 << 2;
    define IORING_SETUP_CQSIZE: u32 = 1 << 3;
    define IORING_SETUP_CLAMP: u32 = 1 << 4;
    define IORING_SETUP_ATTACH_WQ: u32 = 1 << 5;
    define IORING_SETUP_R_DISABLED: u32 = 1 << 6;
    define IORING_SETUP_SUBMIT_ALL: u32 = 1 << 7;
    define IORING_SETUP_COOP_TASKRUN: u32 = 1 << 8;
    define IORING_SETUP_TASKRUN_FLAG: u32 = 1 << 9;
    define IORING_SETUP_SQE128: u32 = 1 << 10;
    define IORING_SETUP_CQE32: u32 = 1 << 11;
    define IORING_SETUP_SINGLE_ISSUER: u32 = 1 << 12;
    define IORING_SETUP_DEFER_TASKRUN: u32 = 1 << 13;
    define IORING_SETUP_NO_MMAP: u32 = 1 << 14;
    define IORING_SETUP_REGISTERED_FD_ONLY: u32 = 1 << 15;
    define IORING_SETUP_NO_SQARRAY: u32 = 1 << 16;
    define IORING_SETUP_HYBRID_IOPOLL: u32 = 1 << 17;
    define IORING_SETUP_CQE_MIXED: u32 = 1 << 18;
    define IORING_SETUP_SQE_MIXED: u32 = 1 << 19;
    define IORING_SETUP_SQ_REWIND: u32 = 1 << 20;

    // ---- sqe->opcode (enum io_uring_op) ----
    enumerator IORING_OP_NOP: u8 = 0;
    enumerator IORING_OP_READV: u8 = 1;
    enumerator IORING_OP_WRITEV: u8 = 2;
    enumerator IORING_OP_FSYNC: u8 = 3;
    enumerator IORING_OP_READ_FIXED: u8 = 4;
    enumerator IORING_OP_WRITE_FIXED: u8 = 5;
    enumerator IORING_OP_POLL_ADD: u8 = 6;
    enumerator IORING_OP_POLL_REMOVE: u8 = 7;
    enumerator IORING_OP_SYNC_FILE_RANGE: u8 = 8;
    enumerator IORING_OP_SENDMSG: u8 = 9;
    enumerator IORING_OP_RECVMSG: u8 = 10;
    enumerator IORING_OP_TIMEOUT: u8 = 11;
    enumerator IORING_OP_TIMEOUT_REMOVE: u8 = 12;
    enumerator IORING_OP_ACCEPT: u8 = 13;
    enumerator IORING_OP_ASYNC_CANCEL: u8 = 14;
    enumerator IORING_OP_LINK_TIMEOUT: u8 = 15;
    enumerator IORING_OP_CONNECT: u8 = 16;
    enumerator IORING_OP_FALLOCATE: u8 = 17;
    enumerator IORING_OP_OPENAT: u8 = 18;
    enumerator IORING_OP_CLOSE: u8 = 19;
    enumerator IORING_OP_FILES_UPDATE: u8 = 20;
    enumerator IORING_OP_STATX: u8 = 21;
    enumerator IORING_OP_READ: u8 = 22;
    enumerator IORING_OP_WRITE: u8 = 23;
    enumerator IORING_OP_FADVISE: u8 = 24;
    enumerator IORING_OP_MADVISE: u8 = 25;
    enumerator IORING_OP_SEND: u8 = 26;
    enumerator IORING_OP_RECV: u8 = 27;
    enumerator IORING_OP_OPENAT2: u8 = 28;
    enumerator IORING_OP_EPOLL_CTL: u8 = 29;
    enumerator IORING_OP_SPLICE: u8 = 30;
    enumerator IORING_OP_PROVIDE_BUFFERS: u8 = 31;
    enumerator IORING_OP_REMOVE_BUFFERS: u8 = 32;
    enumerator IORING_OP_TEE: u8 = 33;
    enumerator IORING_OP_SHUTDOWN: u8 = 34;
    enumerator IORING_OP_RENAMEAT: u8 = 35;
    enumerator IORING_OP_UNLINKAT: u8 = 36;
    enumerator IORING_OP_MKDIRAT: u8 = 37;
    enumerator IORING_OP_SYMLINKAT: u8 = 38;
    enumerator IORING_OP_LINKAT: u8 = 39;
    enumerator IORING_OP_MSG_RING: u8 = 40;
    enumerator IORING_OP_FSETXATTR: u8 = 41;
    enumerator IORING_OP_SETXATTR: u8 = 42;
    enumerator IORING_OP_FGETXATTR: u8 = 43;
    enumerator IORING_OP_GETXATTR: u8 = 44;
    enumerator IORING_OP_SOCKET: u8 = 45;
    enumerator IORING_OP_URING_CMD: u8 = 46;
    enumerator IORING_OP_SEND_ZC: u8 = 47;
    enumerator IORING_OP_SENDMSG_ZC: u8 = 48;
    enumerator IORING_OP_READ_MULTISHOT: u8 = 49;
    enumerator IORING_OP_WAITID: u8 = 50;
    enumerator IORING_OP_FUTEX_WAIT: u8 = 51;
    enumerator IORING_OP_FUTEX_WAKE: u8 = 52;
    enumerator IORING_OP_FUTEX_WAITV: u8 = 53;
    enumerator IORING_OP_FIXED_FD_INSTALL: u8 = 54;
    enumerator IORING_OP_FTRUNCATE: u8 = 55;
    enumerator IORING_OP_BIND: u8 = 56;
    enumerator IORING_OP_LISTEN: u8 = 57;
    enumerator IORING_OP_RECV_ZC: u8 = 58;
    enumerator IORING_OP_EPOLL_WAIT: u8 = 59;
    enumerator IORING_OP_READV_FIXED: u8 = 60;
    enumerator IORING_OP_WRITEV_FIXED: u8 = 61;
    enumerator IORING_OP_PIPE: u8 = 62;
    enumerator IORING_OP_NOP128: u8 = 63;
    enumerator IORING_OP_URING_CMD128: u8 = 64;
    /// One past the highest opcode this ABI knows.
    enumerator IORING_OP_LAST: u8 = 65;

    // ---- sqe->uring_cmd_flags ----
    /// The command uses the registered buffer `buf_index`.
    define IORING_URING_CMD_FIXED: u32 = 1 << 0;
    define IORING_URING_CMD_MASK: u32 = IORING_URING_CMD_FIXED;

    // ---- sqe->fsync_flags ----
    define IORING_FSYNC_DATASYNC: u32 = 1 << 0;

    // ---- sqe->timeout_flags ----
    define IORING_TIMEOUT_ABS: u32 = 1 << 0;
    define IORING_TIMEOUT_UPDATE: u32 = 1 << 1;
    define IORING_TIMEOUT_BOOTTIME: u32 = 1 << 2;
    define IORING_TIMEOUT_REALTIME: u32 = 1 << 3;
    define IORING_LINK_TIMEOUT_UPDATE: u32 = 1 << 4;
    define IORING_TIMEOUT_ETIME_SUCCESS: u32 = 1 << 5;
    define IORING_TIMEOUT_MULTISHOT: u32 = 1 << 6;
    /// `addr` holds the timeout in nanoseconds rather than a timespec pointer.
    define IORING_TIMEOUT_IMMEDIATE_ARG: u32 = 1 << 7;
    define IORING_TIMEOUT_CLOCK_MASK: u32 = IORING_TIMEOUT_BOOTTIME | IORING_TIMEOUT_REALTIME;
    define IORING_TIMEOUT_UPDATE_MASK: u32 = IORING_TIMEOUT_UPDATE | IORING_LINK_TIMEOUT_UPDATE;

    // ---- sqe->splice_flags (on top of splice(2)'s) ----
    /// `splice_fd_in` is a registered file index.
    define SPLICE_F_FD_IN_FIXED: u32 = 1 << 31;

    // ---- POLL_ADD / POLL_REMOVE command flags, stored in sqe->len ----
    define IORING_POLL_ADD_MULTI: u32 = 1 << 0;
    define IORING_POLL_UPDATE_EVENTS: u32 = 1 << 1;
    define IORING_POLL_UPDATE_USER_DATA: u32 = 1 << 2;
    define IORING_POLL_ADD_LEVEL: u32 = 1 << 3;

    // ---- sqe->cancel_flags, io_uring_sync_cancel_reg.flags ----
    define IORING_ASYNC_CANCEL_ALL: u32 = 1 << 0;
    define IORING_ASYNC_CANCEL_FD: u32 = 1 << 1;
    define IORING_ASYNC_CANCEL_ANY: u32 = 1 << 2;
    define IORING_ASYNC_CANCEL_FD_FIXED: u32 = 1 << 3;
    define IORING_ASYNC_CANCEL_USERDATA: u32 = 1 << 4;
    define IORING_ASYNC_CANCEL_OP: u32 = 1 << 5;

    // ---- send/recv flags, stored in sqe->ioprio ----
    define IORING_RECVSEND_POLL_FIRST: u16 = 1 << 0;
    define IORING_RECV_MULTISHOT: u16 = 1 << 1;
    define IORING_RECVSEND_FIXED_BUF: u16 = 1 << 2;
    define IORING_SEND_ZC_REPORT_USAGE: u16 = 1 << 3;
    define IORING_RECVSEND_BUNDLE: u16 = 1 << 4;
    define IORING_SEND_VECTORIZED: u16 = 1 << 5;

    // ---- cqe->res of a zero-copy notification (compare as u32) ----
    define IORING_NOTIF_USAGE_ZC_COPIED: u32 = 1 << 31;

    // ---- accept flags, stored in sqe->ioprio ----
    define IORING_ACCEPT_MULTISHOT: u16 = 1 << 0;
    define IORING_ACCEPT_DONTWAIT: u16 = 1 << 1;
    define IORING_ACCEPT_POLL_FIRST: u16 = 1 << 2;

    // ---- IORING_OP_MSG_RING commands, stored in sqe->addr ----
    enumerator IORING_MSG_DATA: u64 = 0;
    enumerator IORING_MSG_SEND_FD: u64 = 1;

    // ---- sqe->msg_ring_flags ----
    define IORING_MSG_RING_CQE_SKIP: u32 = 1 << 0;
    define IORING_MSG_RING_FLAGS_PASS: u32 = 1 << 1;

    // ---- sqe->install_fd_flags ----
    define IORING_FIXED_FD_NO_CLOEXEC: u32 = 1 << 0;

    // ---- sqe->nop_flags ----
    define IORING_NOP_INJECT_RESULT: u32 = 1 << 0;
    define IORING_NOP_CQE32: u32 = 1 << 5;

    // ---- cqe->flags ----
    define IORING_CQE_F_BUFFER: u32 = 1 << 0;
    define IORING_CQE_F_MORE: u32 = 1 << 1;
    define IORING_CQE_F_SOCK_NONEMPTY: u32 = 1 << 2;
    define IORING_CQE_F_NOTIF: u32 = 1 << 3;
    define IORING_CQE_F_BUF_MORE: u32 = 1 << 4;
    /// A filler entry: skip it.
    define IORING_CQE_F_SKIP: u32 = 1 << 5;
    /// A 32-byte CQE on a ring set up with `IORING_SETUP_CQE_MIXED`.
    define IORING_CQE_F_32: u32 = 1 << 15;
    /// The buffer id sits in `cqe->flags >> IORING_CQE_BUFFER_SHIFT`.
    define IORING_CQE_BUFFER_SHIFT: u32 = 16;

    // ---- mmap(2) offsets ----
    define IORING_OFF_SQ_RING: u64 = 0;
    define IORING_OFF_CQ_RING: u64 = 0x0800_0000;
    define IORING_OFF_SQES: u64 = 0x1000_0000;
    define IORING_OFF_PBUF_RING: u64 = 0x8000_0000;
    define IORING_OFF_PBUF_SHIFT: u32 = 16;
    define IORING_OFF_MMAP_MASK: u64 = 0xf800_0000;

    // ---- sq ring flags ----
    define IORING_SQ_NEED_WAKEUP: u32 = 1 << 0;
    define IORING_SQ_CQ_OVERFLOW: u32 = 1 << 1;
    define IORING_SQ_TASKRUN: u32 = 1 << 2;

    // ---- cq ring flags ----
    define IORING_CQ_EVENTFD_DISABLED: u32 = 1 << 0;

    // ---- io_uring_enter(2) flags ----
    define IORING_ENTER_GETEVENTS: u32 = 1 << 0;
    define IORING_ENTER_SQ_WAKEUP: u32 = 1 << 1;
    define IORING_ENTER_SQ_WAIT: u32 = 1 << 2;
    define IORING_ENTER_EXT_ARG: u32 = 1 << 3;
    define IORING_ENTER_REGISTERED_RING: u32 = 1 << 4;
    define IORING_ENTER_ABS_TIMER: u32 = 1 << 5;
    define IORING_ENTER_EXT_ARG_REG: u32 = 1 << 6;
    define IORING_ENTER_NO_IOWAIT: u32 = 1 << 7;

    // ---- io_uring_params.features ----
    define IORING_FEAT_SINGLE_MMAP: u32 = 1 << 0;
    define IORING_FEAT_NODROP: u32 = 1 << 1;
    define IORING_FEAT_SUBMIT_STABLE: u32 = 1 << 2;
    define IORING_FEAT_RW_CUR_POS: u32 = 1 << 3;
    define IORING_FEAT_CUR_PERSONALITY: u32 = 1 << 4;
    define IORING_FEAT_FAST_POLL: u32 = 1 << 5;
    define IORING_FEAT_POLL_32BITS: u32 = 1 << 6;
    define IORING_FEAT_SQPOLL_NONFIXED: u32 = 1 << 7;
    define IORING_FEAT_EXT_ARG: u32 = 1 << 8;
    define IORING_FEAT_NATIVE_WORKERS: u32 = 1 << 9;
    define IORING_FEAT_RSRC_TAGS: u32 = 1 << 10;
    define IORING_FEAT_CQE_SKIP: u32 = 1 << 11;
    define IORING_FEAT_LINKED_FILE: u32 = 1 << 12;
    define IORING_FEAT_REG_REG_RING: u32 = 1 << 13;
    define IORING_FEAT_RECVSEND_BUNDLE: u32 = 1 << 14;
    define IORING_FEAT_MIN_TIMEOUT: u32 = 1 << 15;
    define IORING_FEAT_RW_ATTR: u32 = 1 << 16;
    define IORING_FEAT_NO_IOWAIT: u32 = 1 << 17;

    // ---- io_uring_register(2) opcodes (enum io_uring_register_op) ----
    enumerator IORING_REGISTER_BUFFERS: u32 = 0;
    enumerator IORING_UNREGISTER_BUFFERS: u32 = 1;
    enumerator IORING_REGISTER_FILES: u32 = 2;
    enumerator IORING_UNREGISTER_FILES: u32 = 3;
    enumerator IORING_REGISTER_EVENTFD: u32 = 4;
    enumerator IORING_UNREGISTER_EVENTFD: u32 = 5;
    enumerator IORING_REGISTER_FILES_UPDATE: u32 = 6;
    enumerator IORING_REGISTER_EVENTFD_ASYNC: u32 = 7;
    enumerator IORING_REGISTER_PROBE: u32 = 8;
    enumerator IORING_REGISTER_PERSONALITY: u32 = 9;
    enumerator IORING_UNREGISTER_PERSONALITY: u32 = 10;
    enumerator IORING_REGISTER_RESTRICTIONS: u32 = 11;
    enumerator IORING_REGISTER_ENABLE_RINGS: u32 = 12;
    enumerator IORING_REGISTER_FILES2: u32 = 13;
    enumerator IORING_REGISTER_FILES_UPDATE2: u32 = 14;
    enumerator IORING_REGISTER_BUFFERS2: u32 = 15;
    enumerator IORING_REGISTER_BUFFERS_UPDATE: u32 = 16;
    enumerator IORING_REGISTER_IOWQ_AFF: u32 = 17;
    enumerator IORING_UNREGISTER_IOWQ_AFF: u32 = 18;
    enumerator IORING_REGISTER_IOWQ_MAX_WORKERS: u32 = 19;
    enumerator IORING_REGISTER_RING_FDS: u32 = 20;
    enumerator IORING_UNREGISTER_RING_FDS: u32 = 21;
    enumerator IORING_REGISTER_PBUF_RING: u32 = 22;
    enumerator IORING_UNREGISTER_PBUF_RING: u32 = 23;
    enumerator IORING_REGISTER_SYNC_CANCEL: u32 = 24;
    enumerator IORING_REGISTER_FILE_ALLOC_RANGE: u32 = 25;
    enumerator IORING_REGISTER_PBUF_STATUS: u32 = 26;
    enumerator IORING_REGISTER_NAPI: u32 = 27;
    enumerator IORING_UNREGISTER_NAPI: u32 = 28;
    enumerator IORING_REGISTER_CLOCK: u32 = 29;
    enumerator IORING_REGISTER_CLONE_BUFFERS: u32 = 30;
    enumerator IORING_REGISTER_SEND_MSG_RING: u32 = 31;
    enumerator IORING_REGISTER_ZCRX_IFQ: u32 = 32;
    enumerator IORING_REGISTER_RESIZE_RINGS: u32 = 33;
    enumerator IORING_REGISTER_MEM_REGION: u32 = 34;
    enumerator IORING_REGISTER_QUERY: u32 = 35;
    enumerator IORING_REGISTER_ZCRX_CTRL: u32 = 36;
    enumerator IORING_REGISTER_BPF_FILTER: u32 = 37;
    /// One past the highest register opcode this ABI knows.
    enumerator IORING_REGISTER_LAST: u32 = 38;
    /// OR-ed into the opcode: the fd argument is a registered ring index.
    enumerator IORING_REGISTER_USE_REGISTERED_RING: u32 = 1 << 31;

    // ---- io-wq worker classes (index into the max-workers pair) ----
    enumerator IO_WQ_BOUND: u32 = 0;
    enumerator IO_WQ_UNBOUND: u32 = 1;

    // ---- io_uring_region_desc.flags ----
    /// The region uses memory the application passes in `user_addr`.
    enumerator IORING_MEM_REGION_TYPE_USER: u32 = 1;

    // ---- io_uring_mem_region_reg.flags ----
    /// The region holds registered wait arguments (`io_uring_reg_wait`).
    enumerator IORING_MEM_REGION_REG_WAIT_ARG: u64 = 1;

    // ---- io_uring_rsrc_register.flags ----
    /// Register an empty (all-sparse) table of `nr` slots.
    define IORING_RSRC_REGISTER_SPARSE: u32 = 1 << 0;

    // ---- fd value in a files update ----
    /// Leave this slot as it is.
    define IORING_REGISTER_FILES_SKIP: i32 = -2;

    // ---- io_uring_probe_op.flags ----
    define IO_URING_OP_SUPPORTED: u16 = 1 << 0;

    // ---- io_uring_clone_buffers.flags ----
    /// `src_fd` is a registered ring index.
    enumerator IORING_REGISTER_SRC_REGISTERED: u32 = 1 << 0;
    /// Replace buffers already registered in the destination.
    enumerator IORING_REGISTER_DST_REPLACE: u32 = 1 << 1;

    // ---- io_uring_buf_reg.flags (enum io_uring_register_pbuf_ring_flags) ----
    /// The kernel allocates the ring; map it at `IORING_OFF_PBUF_RING`.
    enumerator IOU_PBUF_RING_MMAP: u16 = 1;
    /// Buffers may be consumed in pieces.
    enumerator IOU_PBUF_RING_INC: u16 = 2;

    // ---- io_uring_restriction.opcode ----
    enumerator IORING_RESTRICTION_REGISTER_OP: u16 = 0;
    enumerator IORING_RESTRICTION_SQE_OP: u16 = 1;
    enumerator IORING_RESTRICTION_SQE_FLAGS_ALLOWED: u16 = 2;
    enumerator IORING_RESTRICTION_SQE_FLAGS_REQUIRED: u16 = 3;
    enumerator IORING_RESTRICTION_LAST: u16 = 4;

    // ---- io_uring_reg_wait.flags ----
    /// `ts` holds a timeout.
    enumerator IORING_REG_WAIT_TS: u32 = 1 << 0;

    // ---- socket commands of IORING_OP_URING_CMD, stored in sqe->cmd_op ----
    enumerator SOCKET_URING_OP_SIOCINQ: u32 = 0;
    enumerator SOCKET_URING_OP_SIOCOUTQ: u32 = 1;
    enumerator SOCKET_URING_OP_GETSOCKOPT: u32 = 2;
    enumerator SOCKET_URING_OP_SETSOCKOPT: u32 = 3;
    enumerator SOCKET_URING_OP_TX_TIMESTAMP: u32 = 4;
    enumerator SOCKET_URING_OP_GETSOCKNAME: u32 = 5;

    // ---- SOCKET_URING_OP_TX_TIMESTAMP completions (cqe->flags) ----
    define IORING_TIMESTAMP_HW_SHIFT: u32 = 16;
    define IORING_TIMESTAMP_TYPE_SHIFT: u32 = IORING_TIMESTAMP_HW_SHIFT + 1;
    define IORING_CQE_F_TSTAMP_HW: u32 = 1 << IORING_TIMESTAMP_HW_SHIFT;

    // ---- zero-copy receive ----
    /// Offsets in zcrx CQEs carry the area id from this bit up.
    define IORING_ZCRX_AREA_SHIFT: u32 = 48;
    define IORING_ZCRX_AREA_MASK: u64 = !((1u64 << IORING_ZCRX_AREA_SHIFT) - 1);
    /// io_uring_zcrx_area_reg.flags: the area is a dma-buf (`dmabuf_fd`).
    enumerator IORING_ZCRX_AREA_DMABUF: u32 = 1;
    // io_uring_zcrx_ifq_reg.flags
    enumerator ZCRX_REG_IMPORT: u32 = 1;
    enumerator ZCRX_REG_NODEV: u32 = 2;
    // io_uring_query_zcrx.features
    enumerator ZCRX_FEATURE_RX_PAGE_SIZE: u32 = 1 << 0;
    // zcrx_ctrl.op
    enumerator ZCRX_CTRL_FLUSH_RQ: u32 = 0;
    enumerator ZCRX_CTRL_EXPORT: u32 = 1;
    enumerator __ZCRX_CTRL_LAST: u32 = 2;
}
