// SPDX-License-Identifier: MIT
//! Opcodes and the flags each opcode reads from its SQE (in the per-opcode
//! flag word, `ioprio`, `len` or `addr`).

/// Unsigned timespec used by io_uring timestamps.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_timespec {
    pub tv_sec: u64,
    pub tv_nsec: u64,
}

c_consts! {
    pub(crate) static CONSTS;

    /// Request opcodes, in `sqe->opcode`.
    enum io_uring_op: u8 {
        IORING_OP_NOP = 0;
        IORING_OP_READV = 1;
        IORING_OP_WRITEV = 2;
        IORING_OP_FSYNC = 3;
        IORING_OP_READ_FIXED = 4;
        IORING_OP_WRITE_FIXED = 5;
        IORING_OP_POLL_ADD = 6;
        IORING_OP_POLL_REMOVE = 7;
        IORING_OP_SYNC_FILE_RANGE = 8;
        IORING_OP_SENDMSG = 9;
        IORING_OP_RECVMSG = 10;
        IORING_OP_TIMEOUT = 11;
        IORING_OP_TIMEOUT_REMOVE = 12;
        IORING_OP_ACCEPT = 13;
        IORING_OP_ASYNC_CANCEL = 14;
        IORING_OP_LINK_TIMEOUT = 15;
        IORING_OP_CONNECT = 16;
        IORING_OP_FALLOCATE = 17;
        IORING_OP_OPENAT = 18;
        IORING_OP_CLOSE = 19;
        IORING_OP_FILES_UPDATE = 20;
        IORING_OP_STATX = 21;
        IORING_OP_READ = 22;
        IORING_OP_WRITE = 23;
        IORING_OP_FADVISE = 24;
        IORING_OP_MADVISE = 25;
        IORING_OP_SEND = 26;
        IORING_OP_RECV = 27;
        IORING_OP_OPENAT2 = 28;
        IORING_OP_EPOLL_CTL = 29;
        IORING_OP_SPLICE = 30;
        IORING_OP_PROVIDE_BUFFERS = 31;
        IORING_OP_REMOVE_BUFFERS = 32;
        IORING_OP_TEE = 33;
        IORING_OP_SHUTDOWN = 34;
        IORING_OP_RENAMEAT = 35;
        IORING_OP_UNLINKAT = 36;
        IORING_OP_MKDIRAT = 37;
        IORING_OP_SYMLINKAT = 38;
        IORING_OP_LINKAT = 39;
        IORING_OP_MSG_RING = 40;
        IORING_OP_FSETXATTR = 41;
        IORING_OP_SETXATTR = 42;
        IORING_OP_FGETXATTR = 43;
        IORING_OP_GETXATTR = 44;
        IORING_OP_SOCKET = 45;
        IORING_OP_URING_CMD = 46;
        IORING_OP_SEND_ZC = 47;
        IORING_OP_SENDMSG_ZC = 48;
        IORING_OP_READ_MULTISHOT = 49;
        IORING_OP_WAITID = 50;
        IORING_OP_FUTEX_WAIT = 51;
        IORING_OP_FUTEX_WAKE = 52;
        IORING_OP_FUTEX_WAITV = 53;
        IORING_OP_FIXED_FD_INSTALL = 54;
        IORING_OP_FTRUNCATE = 55;
        IORING_OP_BIND = 56;
        IORING_OP_LISTEN = 57;
        IORING_OP_RECV_ZC = 58;
        IORING_OP_EPOLL_WAIT = 59;
        IORING_OP_READV_FIXED = 60;
        IORING_OP_WRITEV_FIXED = 61;
        IORING_OP_PIPE = 62;
        IORING_OP_NOP128 = 63;
        IORING_OP_URING_CMD128 = 64;
        /// One past the highest opcode this ABI knows.
        IORING_OP_LAST = 65;
    }

    /// `sqe->uring_cmd_flags` of `IORING_OP_URING_CMD`.
    macros(unsigned): u32 {
        /// The command uses the registered buffer `buf_index`.
        IORING_URING_CMD_FIXED = 1 << 0;
        /// Every flag a uring command may carry.
        IORING_URING_CMD_MASK = IORING_URING_CMD_FIXED;
    }

    /// `sqe->fsync_flags` of `IORING_OP_FSYNC`.
    macros(unsigned): u32 {
        /// Flush data only, like fdatasync(2).
        IORING_FSYNC_DATASYNC = 1 << 0;
    }

    /// `sqe->timeout_flags` of the timeout opcodes.
    macros(unsigned): u32 {
        /// The timespec is an absolute time.
        IORING_TIMEOUT_ABS = 1 << 0;
        /// Change an existing timeout instead of removing it.
        IORING_TIMEOUT_UPDATE = 1 << 1;
        /// Measure on `CLOCK_BOOTTIME`.
        IORING_TIMEOUT_BOOTTIME = 1 << 2;
        /// Measure on `CLOCK_REALTIME`.
        IORING_TIMEOUT_REALTIME = 1 << 3;
        /// Change an existing linked timeout.
        IORING_LINK_TIMEOUT_UPDATE = 1 << 4;
        /// Complete with `-ETIME` as a success, not an error.
        IORING_TIMEOUT_ETIME_SUCCESS = 1 << 5;
        /// Fire repeatedly, `off` times (0: until cancelled).
        IORING_TIMEOUT_MULTISHOT = 1 << 6;
        /// `addr` holds the timeout in nanoseconds rather than a timespec pointer.
        IORING_TIMEOUT_IMMEDIATE_ARG = 1 << 7;
        /// The clock selection bits.
        IORING_TIMEOUT_CLOCK_MASK = IORING_TIMEOUT_BOOTTIME | IORING_TIMEOUT_REALTIME;
        /// The update selection bits.
        IORING_TIMEOUT_UPDATE_MASK = IORING_TIMEOUT_UPDATE | IORING_LINK_TIMEOUT_UPDATE;
    }

    /// `sqe->splice_flags`, on top of splice(2)'s own `SPLICE_F_*`.
    macros(unsigned): u32 {
        /// `splice_fd_in` is a registered file index.
        SPLICE_F_FD_IN_FIXED = 1 << 31;
    }

    /// Poll command flags, in `sqe->len` of `IORING_OP_POLL_ADD` and
    /// `IORING_OP_POLL_REMOVE`.
    macros(unsigned): u32 {
        /// Keep polling: post a CQE per event.
        IORING_POLL_ADD_MULTI = 1 << 0;
        /// Replace the events of an existing poll.
        IORING_POLL_UPDATE_EVENTS = 1 << 1;
        /// Replace the user_data of an existing poll.
        IORING_POLL_UPDATE_USER_DATA = 1 << 2;
        /// Level-triggered instead of edge-triggered.
        IORING_POLL_ADD_LEVEL = 1 << 3;
    }

    /// `sqe->cancel_flags` of `IORING_OP_ASYNC_CANCEL`, also
    /// `io_uring_sync_cancel_reg.flags`.
    macros(unsigned): u32 {
        /// Cancel every match, not just the first.
        IORING_ASYNC_CANCEL_ALL = 1 << 0;
        /// Match on the file descriptor instead of user_data.
        IORING_ASYNC_CANCEL_FD = 1 << 1;
        /// Match any request.
        IORING_ASYNC_CANCEL_ANY = 1 << 2;
        /// The fd to match is a registered file index.
        IORING_ASYNC_CANCEL_FD_FIXED = 1 << 3;
        /// Match on user_data too (combined with other keys).
        IORING_ASYNC_CANCEL_USERDATA = 1 << 4;
        /// Match on the opcode.
        IORING_ASYNC_CANCEL_OP = 1 << 5;
    }

    /// Send and receive flags, in `sqe->ioprio`.
    macros(unsigned): u16 {
        /// Poll for readiness before the first attempt.
        IORING_RECVSEND_POLL_FIRST = 1 << 0;
        /// Keep receiving: post a CQE per message.
        IORING_RECV_MULTISHOT = 1 << 1;
        /// Use the registered buffer `buf_index`.
        IORING_RECVSEND_FIXED_BUF = 1 << 2;
        /// Report in the notification whether data was copied.
        IORING_SEND_ZC_REPORT_USAGE = 1 << 3;
        /// Use as many provided buffers as the data needs.
        IORING_RECVSEND_BUNDLE = 1 << 4;
        /// The send takes an iovec array.
        IORING_SEND_VECTORIZED = 1 << 5;
    }

    /// Accept flags, in `sqe->ioprio`.
    macros(unsigned): u16 {
        /// Keep accepting: post a CQE per connection.
        IORING_ACCEPT_MULTISHOT = 1 << 0;
        /// Fail with `-EAGAIN` rather than wait.
        IORING_ACCEPT_DONTWAIT = 1 << 1;
        /// Poll for a connection before the first attempt.
        IORING_ACCEPT_POLL_FIRST = 1 << 2;
    }

    /// What `IORING_OP_MSG_RING` sends, in `sqe->addr`.
    enum io_uring_msg_ring_flags: u64 {
        /// Post a CQE with the given result and user_data.
        IORING_MSG_DATA = 0;
        /// Install a registered file in the target ring.
        IORING_MSG_SEND_FD = 1;
    }

    /// `sqe->msg_ring_flags`.
    macros(unsigned): u32 {
        /// Post no CQE in the sending ring.
        IORING_MSG_RING_CQE_SKIP = 1 << 0;
        /// Use `file_index` as the flags of the target CQE.
        IORING_MSG_RING_FLAGS_PASS = 1 << 1;
    }

    /// `sqe->install_fd_flags` of `IORING_OP_FIXED_FD_INSTALL`.
    macros(unsigned): u32 {
        /// The installed descriptor is not close-on-exec.
        IORING_FIXED_FD_NO_CLOEXEC = 1 << 0;
    }

    /// `sqe->nop_flags` of `IORING_OP_NOP`.
    macros(unsigned): u32 {
        /// Complete with `sqe->len` as the result.
        IORING_NOP_INJECT_RESULT = 1 << 0;
        /// Post a 32-byte CQE.
        IORING_NOP_CQE32 = 1 << 5;
    }

    /// Socket commands of `IORING_OP_URING_CMD`, in `sqe->cmd_op`.
    enum io_uring_socket_op: u32 {
        SOCKET_URING_OP_SIOCINQ = 0;
        SOCKET_URING_OP_SIOCOUTQ = 1;
        SOCKET_URING_OP_GETSOCKOPT = 2;
        SOCKET_URING_OP_SETSOCKOPT = 3;
        SOCKET_URING_OP_TX_TIMESTAMP = 4;
        SOCKET_URING_OP_GETSOCKNAME = 5;
    }

    /// Completions of `SOCKET_URING_OP_TX_TIMESTAMP`: where the flags word
    /// keeps the timestamp's kind.
    macros(int): u32 {
        IORING_TIMESTAMP_HW_SHIFT = 16;
        IORING_TIMESTAMP_TYPE_SHIFT = IORING_TIMESTAMP_HW_SHIFT + 1;
    }
    macros(unsigned): u32 {
        /// The timestamp came from the hardware.
        IORING_CQE_F_TSTAMP_HW = 1 << IORING_TIMESTAMP_HW_SHIFT;
    }
}

c_layout! {
    pub(crate) static LAYOUTS;
    io_timespec (16, 8) {
        pub tv_sec: "__u64" @ 0, 8;
        pub tv_nsec: "__u64" @ 8, 8;
    }
}
