// SPDX-License-Identifier: MIT
//! Every inline helper that writes an SQE: what it takes, what it stores,
//! what it is for. Grouped by concern; the generated header keeps this order.
//!
//! Most operations use the SQE's generic layout through `io_uring_prep_rw`
//! (opcode, fd, addr, len, off); their row binds its parameters.

use super::{or, p, pm, set, Ahead, Base, Helper, Param, Store};

const fn rw(bind: &'static [(&'static str, &'static str)]) -> Option<Base> {
    Some(Base {
        name: "io_uring_prep_rw",
        bind,
    })
}

const fn on(name: &'static str, bind: &'static [(&'static str, &'static str)]) -> Option<Base> {
    Some(Base { name, bind })
}

const NONE: &[Store] = &[];

/// Defaults for the rarely used columns.
const H: Helper = Helper {
    name: "",
    about: "",
    params: &[],
    base: None,
    stores: NONE,
    only_if: None,
    sqe_not_first: false,
    notes: "",
    ahead: None,
};

const IOVECS: Param = pm(
    "const struct iovec *",
    "iovecs",
    "array of buffers, used in order",
);
const NR_VECS: Param = pm("unsigned", "nr_vecs", "number of entries in iovecs");
const OFFSET: Param = pm(
    "__u64",
    "offset",
    "file position, or -1 for the file's current position",
);
const RWF: Param = pm("int", "flags", "RWF_* flags as for preadv2(2)/pwritev2(2)");
const BUF_INDEX: Param = pm("int", "buf_index", "index of a registered buffer");
const FILE_INDEX: Param = pm(
    "unsigned",
    "file_index",
    "direct descriptor slot, or IORING_FILE_INDEX_ALLOC for any free one",
);
const TS: Param = p("const struct __kernel_timespec *", "ts");

pub const HELPERS: &[Helper] = &[
    // ---- the generic layout and SQE attributes ------------------------
    Helper {
        name: "io_uring_prep_rw",
        about: "Fills the five fields nearly every operation uses: the opcode, the file, an \
                address, a length and an offset. The other helpers are built on it.",
        params: &[
            pm("int", "op", "an IORING_OP_* opcode"),
            p("struct io_uring_sqe *", "sqe"),
            p("int", "fd"),
            p("const void *", "addr"),
            p("unsigned", "len"),
            p("__u64", "offset"),
        ],
        stores: &[
            set("opcode", "op"),
            set("fd", "fd"),
            set("off", "offset"),
            set("addr", "addr"),
            set("len", "len"),
        ],
        sqe_not_first: true,
        ..H
    },
    Helper {
        name: "io_uring_sqe_set_data",
        about: "Attaches a pointer to the request; its completion carries it back \
                (io_uring_cqe_get_data).",
        params: &[p("void *", "data")],
        stores: &[set("user_data", "data")],
        ..H
    },
    Helper {
        name: "io_uring_sqe_set_data64",
        about: "Attaches a 64-bit value to the request; its completion carries it back \
                (io_uring_cqe_get_data64).",
        params: &[p("__u64", "data")],
        stores: &[set("user_data", "data")],
        ..H
    },
    Helper {
        name: "io_uring_sqe_set_flags",
        about: "Replaces the request's IOSQE_* flags (linking, draining, fixed file, \
                buffer selection and so on).",
        params: &[p("unsigned", "flags")],
        stores: &[set("flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_sqe_set_buf_group",
        about: "Names the provided-buffer group a request with IOSQE_BUFFER_SELECT takes \
                its buffer from.",
        params: &[p("int", "bgid")],
        stores: &[set("buf_group", "bgid")],
        ..H
    },
    Helper {
        name: "io_uring_sqe_set_write_stream",
        about: "Names the write stream (the device's data placement hint) a write request \
                (IORING_OP_WRITE, IORING_OP_WRITEV, IORING_OP_WRITE_FIXED) puts its data in; \
                0, what io_uring_get_sqe() leaves, is none.",
        params: &[pm(
            "__u8",
            "write_stream",
            "a stream the file's block device lists, counted from 1",
        )],
        stores: &[set("write_stream", "write_stream")],
        ahead: Some(Ahead {
            feature: "write streams (the SQE's write_stream field)",
            kernel: (6, 16),
            release_of: None,
        }),
        ..H
    },
    // ---- no-ops -------------------------------------------------------
    Helper {
        name: "io_uring_prep_nop",
        about: "A request that does nothing and completes with 0; useful to test a ring \
                or to post a completion.",
        base: rw(&[
            ("op", "IORING_OP_NOP"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_nop128",
        about: "The no-op in a 128-byte slot, for rings set up with IORING_SETUP_SQE_MIXED.",
        base: rw(&[
            ("op", "IORING_OP_NOP128"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_nop_flags",
        about: "The no-op with IORING_NOP_* flags, to exercise a kernel path without doing \
                any I/O: IORING_NOP_FILE looks up fd as a request on a file would \
                (IORING_NOP_FIXED_FILE: in the registered file table), \
                IORING_NOP_FIXED_BUFFER looks up the registered buffer buf_index, \
                IORING_NOP_TW completes through task work. A failed lookup fails the \
                request.",
        params: &[
            pm(
                "int",
                "fd",
                "the file IORING_NOP_FILE looks up; ignored without it",
            ),
            pm(
                "unsigned",
                "buf_index",
                "the registered buffer IORING_NOP_FIXED_BUFFER looks up; ignored without it",
            ),
            pm("unsigned", "nop_flags", "IORING_NOP_* flags"),
        ],
        base: on("io_uring_prep_nop", &[]),
        stores: &[
            set("fd", "fd"),
            set("buf_index", "buf_index"),
            set("nop_flags", "nop_flags"),
        ],
        ahead: Some(Ahead {
            feature: "the NOP flags IORING_NOP_FILE, IORING_NOP_FIXED_FILE and \
                      IORING_NOP_FIXED_BUFFER (IORING_NOP_TW: Linux 6.16)",
            kernel: (6, 13),
            release_of: Some("IORING_NOP_FILE"),
        }),
        ..H
    },
    // ---- splice and tee -----------------------------------------------
    Helper {
        name: "io_uring_prep_splice",
        about: "Moves nbytes between two descriptors, one of them a pipe, as splice(2). An \
                offset of -1 stands for the file's own position (always so for a pipe).",
        params: &[
            p("int", "fd_in"),
            p("int64_t", "off_in"),
            p("int", "fd_out"),
            p("int64_t", "off_out"),
            p("unsigned int", "nbytes"),
            pm("unsigned int", "splice_flags", "SPLICE_F_* flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SPLICE"),
            ("fd", "fd_out"),
            ("addr", "NULL"),
            ("len", "nbytes"),
            ("offset", "off_out"),
        ]),
        stores: &[
            set("splice_off_in", "off_in"),
            set("splice_fd_in", "fd_in"),
            set("splice_flags", "splice_flags"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_tee",
        about: "Copies nbytes from one pipe into another without consuming them, as tee(2).",
        params: &[
            p("int", "fd_in"),
            p("int", "fd_out"),
            p("unsigned int", "nbytes"),
            p("unsigned int", "splice_flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_TEE"),
            ("fd", "fd_out"),
            ("addr", "NULL"),
            ("len", "nbytes"),
            ("offset", "0"),
        ]),
        stores: &[
            set("splice_off_in", "0"),
            set("splice_fd_in", "fd_in"),
            set("splice_flags", "splice_flags"),
        ],
        ..H
    },
    // ---- read and write -----------------------------------------------
    Helper {
        name: "io_uring_prep_read",
        about: "Reads up to nbytes from fd at offset into buf, like pread(2).",
        params: &[
            p("int", "fd"),
            p("void *", "buf"),
            p("unsigned", "nbytes"),
            OFFSET,
        ],
        base: rw(&[("op", "IORING_OP_READ"), ("addr", "buf"), ("len", "nbytes")]),
        notes: "An offset of -1 (all bits set) reads at the file's current position and \
                moves the position past the data read, as read(2) does; any other offset \
                leaves the position alone, as pread(2) does. [check: \
                prep-read-offset-minus-one]\n\n\
                On a file without positions the offset is not used the same way: a pipe \
                ignores it, and a socket fails the request with -ESPIPE unless it is 0 or \
                -1. Pass 0 (or -1) for such files. [check: prep-read-non-seekable]",
        ..H
    },
    Helper {
        name: "io_uring_prep_write",
        about: "Writes nbytes from buf to fd at offset, like pwrite(2).",
        params: &[
            p("int", "fd"),
            p("const void *", "buf"),
            p("unsigned", "nbytes"),
            OFFSET,
        ],
        base: rw(&[
            ("op", "IORING_OP_WRITE"),
            ("addr", "buf"),
            ("len", "nbytes"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_readv",
        about: "Scatter read into an array of buffers, like preadv(2).",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET],
        base: rw(&[
            ("op", "IORING_OP_READV"),
            ("addr", "iovecs"),
            ("len", "nr_vecs"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_readv2",
        about: "Scatter read with per-call RWF_* flags, like preadv2(2).",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET, RWF],
        base: on("io_uring_prep_readv", &[]),
        stores: &[set("rw_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_writev",
        about: "Gather write from an array of buffers, like pwritev(2).",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET],
        base: rw(&[
            ("op", "IORING_OP_WRITEV"),
            ("addr", "iovecs"),
            ("len", "nr_vecs"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_writev2",
        about: "Gather write with per-call RWF_* flags, like pwritev2(2).",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET, RWF],
        base: on("io_uring_prep_writev", &[]),
        stores: &[set("rw_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_read_fixed",
        about: "Reads into a buffer that lies inside registered buffer buf_index, which \
                saves the kernel from mapping the memory for every request.",
        params: &[
            p("int", "fd"),
            p("void *", "buf"),
            p("unsigned", "nbytes"),
            OFFSET,
            BUF_INDEX,
        ],
        base: rw(&[
            ("op", "IORING_OP_READ_FIXED"),
            ("addr", "buf"),
            ("len", "nbytes"),
        ]),
        stores: &[set("buf_index", "buf_index")],
        ..H
    },
    Helper {
        name: "io_uring_prep_write_fixed",
        about: "Writes from a buffer that lies inside registered buffer buf_index.",
        params: &[
            p("int", "fd"),
            p("const void *", "buf"),
            p("unsigned", "nbytes"),
            OFFSET,
            BUF_INDEX,
        ],
        base: rw(&[
            ("op", "IORING_OP_WRITE_FIXED"),
            ("addr", "buf"),
            ("len", "nbytes"),
        ]),
        stores: &[set("buf_index", "buf_index")],
        ..H
    },
    Helper {
        name: "io_uring_prep_readv_fixed",
        about: "Scatter read whose iovecs all point into registered buffer buf_index.",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET, RWF, BUF_INDEX],
        base: on("io_uring_prep_readv2", &[]),
        stores: &[
            set("opcode", "IORING_OP_READV_FIXED"),
            set("buf_index", "buf_index"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_writev_fixed",
        about: "Gather write whose iovecs all point into registered buffer buf_index.",
        params: &[p("int", "fd"), IOVECS, NR_VECS, OFFSET, RWF, BUF_INDEX],
        base: on("io_uring_prep_writev2", &[]),
        stores: &[
            set("opcode", "IORING_OP_WRITEV_FIXED"),
            set("buf_index", "buf_index"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_read_multishot",
        about: "Keeps reading from fd, each time into a buffer picked from group buf_group, \
                and posts one completion per read until it is cancelled or fails.",
        params: &[
            p("int", "fd"),
            pm(
                "unsigned",
                "nbytes",
                "bytes per read, or 0 for the picked buffer's size",
            ),
            OFFSET,
            p("int", "buf_group"),
        ],
        base: rw(&[
            ("op", "IORING_OP_READ_MULTISHOT"),
            ("addr", "NULL"),
            ("len", "nbytes"),
        ]),
        stores: &[
            set("buf_group", "buf_group"),
            set("flags", "IOSQE_BUFFER_SELECT"),
        ],
        ..H
    },
    // ---- socket messages ----------------------------------------------
    Helper {
        name: "io_uring_prep_recvmsg",
        about: "Receives one message into the buffers described by msg, like recvmsg(2).",
        params: &[
            p("int", "fd"),
            p("struct msghdr *", "msg"),
            pm("unsigned", "flags", "MSG_* flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_RECVMSG"),
            ("addr", "msg"),
            ("len", "1"),
            ("offset", "0"),
        ]),
        stores: &[set("msg_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_recvmsg_multishot",
        about: "Receives message after message, each into a provided buffer that starts with \
                a struct io_uring_recvmsg_out (see the io_uring_recvmsg_* helpers).",
        params: &[
            p("int", "fd"),
            p("struct msghdr *", "msg"),
            p("unsigned", "flags"),
        ],
        base: on("io_uring_prep_recvmsg", &[]),
        stores: &[or("ioprio", "IORING_RECV_MULTISHOT")],
        ..H
    },
    Helper {
        name: "io_uring_prep_sendmsg",
        about: "Sends one message gathered from the buffers described by msg, like \
                sendmsg(2).",
        params: &[
            p("int", "fd"),
            p("const struct msghdr *", "msg"),
            p("unsigned", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SENDMSG"),
            ("addr", "msg"),
            ("len", "1"),
            ("offset", "0"),
        ]),
        stores: &[set("msg_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_sendmsg_zc",
        about: "Like io_uring_prep_sendmsg, but the kernel sends straight from the caller's \
                memory; a second completion tells when that memory may be reused.",
        params: &[
            p("int", "fd"),
            p("const struct msghdr *", "msg"),
            p("unsigned", "flags"),
        ],
        base: on("io_uring_prep_sendmsg", &[]),
        stores: &[set("opcode", "IORING_OP_SENDMSG_ZC")],
        ..H
    },
    Helper {
        name: "io_uring_prep_sendmsg_zc_fixed",
        about: "Zero-copy sendmsg whose data lies in registered buffer buf_index.",
        params: &[
            p("int", "fd"),
            p("const struct msghdr *", "msg"),
            p("unsigned", "flags"),
            p("unsigned", "buf_index"),
        ],
        base: on("io_uring_prep_sendmsg_zc", &[]),
        stores: &[
            or("ioprio", "IORING_RECVSEND_FIXED_BUF"),
            set("buf_index", "buf_index"),
        ],
        notes: "`IORING_OP_SENDMSG_ZC` takes registered buffers (`IORING_RECVSEND_FIXED_BUF`) \
                from Linux 6.15 on; an older kernel fails the request with `-EINVAL` (its \
                CQE may still carry `IORING_CQE_F_MORE`, and a notification CQE follow). \
                [check: res-io_uring_prep_sendmsg_zc_fixed]",
        ..H
    },
    // ---- poll ---------------------------------------------------------
    Helper {
        name: "io_uring_prep_poll_add",
        about: "Completes once fd reports one of the poll(2) events in poll_mask; the \
                completion's result is the events that fired.",
        params: &[
            p("int", "fd"),
            pm("unsigned", "poll_mask", "POLL* event bits"),
        ],
        base: rw(&[
            ("op", "IORING_OP_POLL_ADD"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("poll32_events", "__io_uring_prep_poll_mask(poll_mask)")],
        ..H
    },
    Helper {
        name: "io_uring_prep_poll_multishot",
        about: "A poll that stays armed: every time fd becomes ready a completion with \
                IORING_CQE_F_MORE is posted.",
        params: &[p("int", "fd"), p("unsigned", "poll_mask")],
        base: on("io_uring_prep_poll_add", &[]),
        stores: &[set("len", "IORING_POLL_ADD_MULTI")],
        ..H
    },
    Helper {
        name: "io_uring_prep_poll_remove",
        about: "Cancels the armed poll request that was submitted with user_data.",
        params: &[p("__u64", "user_data")],
        base: rw(&[
            ("op", "IORING_OP_POLL_REMOVE"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("addr", "user_data")],
        ..H
    },
    Helper {
        name: "io_uring_prep_poll_update",
        about: "Changes an armed poll request in place: its event mask, its user_data or \
                both, as the IORING_POLL_UPDATE_* bits in flags select.",
        params: &[
            p("__u64", "old_user_data"),
            p("__u64", "new_user_data"),
            p("unsigned", "poll_mask"),
            p("unsigned", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_POLL_REMOVE"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "flags"),
            ("offset", "new_user_data"),
        ]),
        stores: &[
            set("addr", "old_user_data"),
            set("poll32_events", "__io_uring_prep_poll_mask(poll_mask)"),
        ],
        notes: "A nonzero new_user_data needs `IORING_POLL_UPDATE_USER_DATA` in flags: \
                without it the kernel fails the update with `-EINVAL` and the armed poll \
                keeps its user_data. [check: poll-update-user-data-needs-flag]",
        ..H
    },
    // ---- sync ---------------------------------------------------------
    Helper {
        name: "io_uring_prep_fsync",
        about: "Flushes fd to stable storage like fsync(2), or like fdatasync(2) with \
                IORING_FSYNC_DATASYNC.",
        params: &[p("int", "fd"), p("unsigned", "fsync_flags")],
        base: rw(&[
            ("op", "IORING_OP_FSYNC"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("fsync_flags", "fsync_flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_sync_file_range",
        about: "Writes back part of a file, as sync_file_range(2) does.",
        params: &[
            p("int", "fd"),
            p("unsigned", "len"),
            p("__u64", "offset"),
            p("int", "flags"),
        ],
        base: rw(&[("op", "IORING_OP_SYNC_FILE_RANGE"), ("addr", "NULL")]),
        stores: &[set("sync_range_flags", "flags")],
        ..H
    },
    // ---- timeouts -----------------------------------------------------
    Helper {
        name: "io_uring_prep_timeout",
        about: "Completes when ts has passed, or earlier once count other completions have \
                arrived (0: only the time counts). IORING_TIMEOUT_* flags pick the clock \
                and absolute or relative time.",
        params: &[TS, p("unsigned", "count"), p("unsigned", "flags")],
        base: rw(&[
            ("op", "IORING_OP_TIMEOUT"),
            ("fd", "-1"),
            ("addr", "ts"),
            ("len", "1"),
            ("offset", "count"),
        ]),
        stores: &[set("timeout_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_timeout_remove",
        about: "Cancels the pending timeout that was submitted with user_data.",
        params: &[p("__u64", "user_data"), p("unsigned", "flags")],
        base: rw(&[
            ("op", "IORING_OP_TIMEOUT_REMOVE"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("addr", "user_data"), set("timeout_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_timeout_update",
        about: "Gives the pending timeout submitted with user_data a new expiry ts.",
        params: &[TS, p("__u64", "user_data"), p("unsigned", "flags")],
        base: rw(&[
            ("op", "IORING_OP_TIMEOUT_REMOVE"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "ts"),
        ]),
        stores: &[
            set("addr", "user_data"),
            set("timeout_flags", "flags | IORING_TIMEOUT_UPDATE"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_link_timeout",
        about: "A time limit for the request linked just before this one: if that request is \
                still running when ts passes, it is cancelled.",
        params: &[TS, p("unsigned", "flags")],
        base: rw(&[
            ("op", "IORING_OP_LINK_TIMEOUT"),
            ("fd", "-1"),
            ("addr", "ts"),
            ("len", "1"),
            ("offset", "0"),
        ]),
        stores: &[set("timeout_flags", "flags")],
        ..H
    },
    // ---- accept, connect, bind, listen --------------------------------
    Helper {
        name: "io_uring_prep_accept",
        about: "Takes one connection off the listening socket fd, like accept4(2); the result \
                is the new socket.",
        params: &[
            p("int", "fd"),
            p("struct sockaddr *", "addr"),
            p("socklen_t *", "addrlen"),
            pm("int", "flags", "SOCK_* flags for the new socket"),
        ],
        base: rw(&[
            ("op", "IORING_OP_ACCEPT"),
            ("len", "0"),
            ("offset", "addrlen"),
        ]),
        stores: &[set("accept_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_accept_direct",
        about: "Accept whose new socket goes into a direct descriptor slot instead of the \
                process's file table.",
        params: &[
            p("int", "fd"),
            p("struct sockaddr *", "addr"),
            p("socklen_t *", "addrlen"),
            p("int", "flags"),
            FILE_INDEX,
        ],
        base: on("io_uring_prep_accept", &[]),
        stores: &[set("file_index", "__io_uring_file_slot(file_index)")],
        ..H
    },
    Helper {
        name: "io_uring_prep_multishot_accept",
        about: "Accepts connection after connection, one completion each, until cancelled.",
        params: &[
            p("int", "fd"),
            p("struct sockaddr *", "addr"),
            p("socklen_t *", "addrlen"),
            p("int", "flags"),
        ],
        base: on("io_uring_prep_accept", &[]),
        stores: &[or("ioprio", "IORING_ACCEPT_MULTISHOT")],
        ..H
    },
    Helper {
        name: "io_uring_prep_multishot_accept_direct",
        about: "Multishot accept where every new socket gets a free direct descriptor slot; \
                each completion names its slot.",
        params: &[
            p("int", "fd"),
            p("struct sockaddr *", "addr"),
            p("socklen_t *", "addrlen"),
            p("int", "flags"),
        ],
        base: on("io_uring_prep_multishot_accept", &[]),
        stores: &[set("file_index", "IORING_FILE_INDEX_ALLOC")],
        ..H
    },
    Helper {
        name: "io_uring_prep_connect",
        about: "Connects socket fd to addr, like connect(2).",
        params: &[
            p("int", "fd"),
            p("const struct sockaddr *", "addr"),
            p("socklen_t", "addrlen"),
        ],
        base: rw(&[
            ("op", "IORING_OP_CONNECT"),
            ("len", "0"),
            ("offset", "addrlen"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_bind",
        about: "Gives socket fd the local address addr, like bind(2).",
        params: &[
            p("int", "fd"),
            p("const struct sockaddr *", "addr"),
            p("socklen_t", "addrlen"),
        ],
        base: rw(&[
            ("op", "IORING_OP_BIND"),
            ("len", "0"),
            ("offset", "addrlen"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_listen",
        about: "Marks socket fd as accepting connections, like listen(2).",
        params: &[p("int", "fd"), p("int", "backlog")],
        base: rw(&[
            ("op", "IORING_OP_LISTEN"),
            ("addr", "NULL"),
            ("len", "backlog"),
            ("offset", "0"),
        ]),
        ..H
    },
    // ---- cancellation -------------------------------------------------
    Helper {
        name: "io_uring_prep_cancel64",
        about: "Cancels the request submitted with user_data; IORING_ASYNC_CANCEL_* flags \
                widen the match (all matches, any request, by descriptor).",
        params: &[p("__u64", "user_data"), p("int", "flags")],
        base: rw(&[
            ("op", "IORING_OP_ASYNC_CANCEL"),
            ("fd", "-1"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("addr", "user_data"), set("cancel_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_cancel",
        about: "io_uring_prep_cancel64 for requests tagged with io_uring_sqe_set_data.",
        params: &[p("const void *", "user_data"), p("int", "flags")],
        base: on(
            "io_uring_prep_cancel64",
            &[("user_data", "(__u64) (uintptr_t) user_data")],
        ),
        ..H
    },
    Helper {
        name: "io_uring_prep_cancel_fd",
        about: "Cancels requests that operate on file fd.",
        params: &[p("int", "fd"), p("unsigned int", "flags")],
        base: rw(&[
            ("op", "IORING_OP_ASYNC_CANCEL"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("cancel_flags", "flags | IORING_ASYNC_CANCEL_FD")],
        ..H
    },
    // ---- epoll --------------------------------------------------------
    Helper {
        name: "io_uring_prep_epoll_ctl",
        about: "Adds, changes or removes fd in the epoll set epfd, like epoll_ctl(2).",
        params: &[
            p("int", "epfd"),
            p("int", "fd"),
            pm("int", "op", "EPOLL_CTL_ADD, EPOLL_CTL_MOD or EPOLL_CTL_DEL"),
            p("const struct epoll_event *", "ev"),
        ],
        base: rw(&[
            ("op", "IORING_OP_EPOLL_CTL"),
            ("fd", "epfd"),
            ("addr", "ev"),
            ("len", "op"),
            ("offset", "(__u32) fd"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_epoll_wait",
        about: "Waits for events on the epoll set fd and stores up to maxevents of them, \
                like epoll_wait(2).",
        params: &[
            p("int", "fd"),
            p("struct epoll_event *", "events"),
            p("int", "maxevents"),
            p("unsigned", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_EPOLL_WAIT"),
            ("addr", "events"),
            ("len", "maxevents"),
            ("offset", "0"),
        ]),
        stores: &[set("rw_flags", "flags")],
        ..H
    },
    // ---- files --------------------------------------------------------
    Helper {
        name: "io_uring_prep_files_update",
        about: "Replaces nr_fds entries of the registered file table from slot offset on \
                (IORING_FILE_INDEX_ALLOC: wherever there is room).",
        params: &[
            p("int *", "fds"),
            p("unsigned", "nr_fds"),
            p("int", "offset"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FILES_UPDATE"),
            ("fd", "-1"),
            ("addr", "fds"),
            ("len", "nr_fds"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_fallocate",
        about: "Allocates or frees disk space for a range of a file, like fallocate(2).",
        params: &[
            p("int", "fd"),
            p("int", "mode"),
            p("__u64", "offset"),
            p("__u64", "len"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FALLOCATE"),
            ("addr", "NULL"),
            ("len", "mode"),
        ]),
        stores: &[set("addr", "len")],
        ..H
    },
    Helper {
        name: "io_uring_prep_openat",
        about: "Opens path relative to directory dfd, like openat(2).",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("int", "flags"),
            p("mode_t", "mode"),
        ],
        base: rw(&[
            ("op", "IORING_OP_OPENAT"),
            ("fd", "dfd"),
            ("addr", "path"),
            ("len", "mode"),
            ("offset", "0"),
        ]),
        stores: &[set("open_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_openat_direct",
        about: "openat into a direct descriptor slot instead of the process's file table.",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("int", "flags"),
            p("mode_t", "mode"),
            FILE_INDEX,
        ],
        base: on("io_uring_prep_openat", &[]),
        stores: &[set("file_index", "__io_uring_file_slot(file_index)")],
        ..H
    },
    Helper {
        name: "io_uring_prep_open",
        about: "Opens path relative to the working directory, like open(2).",
        params: &[
            p("const char *", "path"),
            p("int", "flags"),
            p("mode_t", "mode"),
        ],
        base: on("io_uring_prep_openat", &[("dfd", "AT_FDCWD")]),
        ..H
    },
    Helper {
        name: "io_uring_prep_open_direct",
        about: "open into a direct descriptor slot.",
        params: &[
            p("const char *", "path"),
            p("int", "flags"),
            p("mode_t", "mode"),
            FILE_INDEX,
        ],
        base: on("io_uring_prep_openat_direct", &[("dfd", "AT_FDCWD")]),
        ..H
    },
    Helper {
        name: "io_uring_prep_openat2",
        about: "Opens path under the rules of a struct open_how, like openat2(2).",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("const struct open_how *", "how"),
        ],
        base: rw(&[
            ("op", "IORING_OP_OPENAT2"),
            ("fd", "dfd"),
            ("addr", "path"),
            ("len", "sizeof(*how)"),
            ("offset", "how"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_openat2_direct",
        about: "openat2 into a direct descriptor slot.",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("const struct open_how *", "how"),
            FILE_INDEX,
        ],
        base: on("io_uring_prep_openat2", &[]),
        stores: &[set("file_index", "__io_uring_file_slot(file_index)")],
        ..H
    },
    Helper {
        name: "io_uring_prep_close",
        about: "Closes file descriptor fd, like close(2).",
        params: &[p("int", "fd")],
        base: rw(&[
            ("op", "IORING_OP_CLOSE"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_close_direct",
        about: "Empties direct descriptor slot file_index.",
        params: &[p("unsigned", "file_index")],
        base: on("io_uring_prep_close", &[("fd", "0")]),
        stores: &[set("file_index", "file_index + 1")],
        ..H
    },
    Helper {
        name: "io_uring_prep_statx",
        about: "Fills statxbuf with the attributes of path selected by mask, like statx(2).",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("int", "flags"),
            p("unsigned", "mask"),
            p("struct statx *", "statxbuf"),
        ],
        base: rw(&[
            ("op", "IORING_OP_STATX"),
            ("fd", "dfd"),
            ("addr", "path"),
            ("len", "mask"),
            ("offset", "statxbuf"),
        ]),
        stores: &[set("statx_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_fadvise",
        about: "Tells the kernel how a range of fd will be used, like posix_fadvise(2).",
        params: &[
            p("int", "fd"),
            p("__u64", "offset"),
            p("__u32", "len"),
            p("int", "advice"),
        ],
        base: rw(&[("op", "IORING_OP_FADVISE"), ("addr", "NULL")]),
        stores: &[set("fadvise_advice", "advice")],
        ..H
    },
    Helper {
        name: "io_uring_prep_madvise",
        about: "Tells the kernel how a range of memory will be used, like madvise(2).",
        params: &[
            p("void *", "addr"),
            p("__u32", "length"),
            p("int", "advice"),
        ],
        base: rw(&[
            ("op", "IORING_OP_MADVISE"),
            ("fd", "-1"),
            ("len", "length"),
            ("offset", "0"),
        ]),
        stores: &[set("fadvise_advice", "advice")],
        ..H
    },
    Helper {
        name: "io_uring_prep_fadvise64",
        about: "io_uring_prep_fadvise with a 64-bit length.",
        params: &[
            p("int", "fd"),
            p("__u64", "offset"),
            p("off_t", "len"),
            p("int", "advice"),
        ],
        base: rw(&[("op", "IORING_OP_FADVISE"), ("addr", "NULL"), ("len", "0")]),
        stores: &[set("addr", "len"), set("fadvise_advice", "advice")],
        notes: "The kernel reads a 64-bit length from `addr` (when `len` is 0) from Linux 6.11 \
                on; an older kernel fails the request with `-EINVAL` (use \
                `io_uring_prep_fadvise(3)` there). [check: res-io_uring_prep_fadvise64]",
        ..H
    },
    Helper {
        name: "io_uring_prep_madvise64",
        about: "io_uring_prep_madvise with a 64-bit length.",
        params: &[
            p("void *", "addr"),
            p("off_t", "length"),
            p("int", "advice"),
        ],
        base: rw(&[
            ("op", "IORING_OP_MADVISE"),
            ("fd", "-1"),
            ("len", "0"),
            ("offset", "length"),
        ]),
        stores: &[set("fadvise_advice", "advice")],
        notes: "The kernel reads a 64-bit length from `off` (when `len` is 0) from Linux 6.11 \
                on; an older kernel fails the request with `-EINVAL` (use \
                `io_uring_prep_madvise(3)` there). [check: res-io_uring_prep_madvise64]",
        ..H
    },
    Helper {
        name: "io_uring_prep_ftruncate",
        about: "Sets the size of file fd to len, like ftruncate(2).",
        params: &[p("int", "fd"), p("loff_t", "len")],
        base: rw(&[
            ("op", "IORING_OP_FTRUNCATE"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "len"),
        ]),
        only_if: Some("_GNU_SOURCE"),
        ..H
    },
    Helper {
        name: "io_uring_prep_fixed_fd_install",
        about: "Makes direct descriptor fd available as an ordinary file descriptor, which \
                the completion returns.",
        params: &[
            p("int", "fd"),
            pm("unsigned int", "flags", "IORING_FIXED_FD_* flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FIXED_FD_INSTALL"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[
            set("flags", "IOSQE_FIXED_FILE"),
            set("install_fd_flags", "flags"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_pipe",
        about: "Creates a pipe, like pipe2(2); fds receives its read and write ends.",
        params: &[p("int *", "fds"), p("int", "pipe_flags")],
        base: rw(&[
            ("op", "IORING_OP_PIPE"),
            ("fd", "0"),
            ("addr", "fds"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("pipe_flags", "pipe_flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_pipe_direct",
        about: "Creates a pipe whose two ends become direct descriptors.",
        params: &[p("int *", "fds"), p("int", "pipe_flags"), FILE_INDEX],
        base: on("io_uring_prep_pipe", &[]),
        stores: &[set("file_index", "__io_uring_file_slot(file_index)")],
        ..H
    },
    // ---- paths --------------------------------------------------------
    Helper {
        name: "io_uring_prep_unlinkat",
        about: "Removes a name from the file system, like unlinkat(2) (AT_REMOVEDIR for \
                directories).",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_UNLINKAT"),
            ("fd", "dfd"),
            ("addr", "path"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("unlink_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_unlink",
        about: "unlinkat relative to the working directory.",
        params: &[p("const char *", "path"), p("int", "flags")],
        base: on("io_uring_prep_unlinkat", &[("dfd", "AT_FDCWD")]),
        ..H
    },
    Helper {
        name: "io_uring_prep_renameat",
        about: "Renames or moves a file, like renameat2(2).",
        params: &[
            p("int", "olddfd"),
            p("const char *", "oldpath"),
            p("int", "newdfd"),
            p("const char *", "newpath"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_RENAMEAT"),
            ("fd", "olddfd"),
            ("addr", "oldpath"),
            ("len", "newdfd"),
            ("offset", "newpath"),
        ]),
        stores: &[set("rename_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_rename",
        about: "renameat with both paths relative to the working directory.",
        params: &[p("const char *", "oldpath"), p("const char *", "newpath")],
        base: on(
            "io_uring_prep_renameat",
            &[
                ("olddfd", "AT_FDCWD"),
                ("newdfd", "AT_FDCWD"),
                ("flags", "0"),
            ],
        ),
        ..H
    },
    Helper {
        name: "io_uring_prep_mkdirat",
        about: "Creates a directory, like mkdirat(2).",
        params: &[
            p("int", "dfd"),
            p("const char *", "path"),
            p("mode_t", "mode"),
        ],
        base: rw(&[
            ("op", "IORING_OP_MKDIRAT"),
            ("fd", "dfd"),
            ("addr", "path"),
            ("len", "mode"),
            ("offset", "0"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_mkdir",
        about: "mkdirat relative to the working directory.",
        params: &[p("const char *", "path"), p("mode_t", "mode")],
        base: on("io_uring_prep_mkdirat", &[("dfd", "AT_FDCWD")]),
        ..H
    },
    Helper {
        name: "io_uring_prep_symlinkat",
        about: "Creates linkpath as a symbolic link to target, like symlinkat(2).",
        params: &[
            p("const char *", "target"),
            p("int", "newdirfd"),
            p("const char *", "linkpath"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SYMLINKAT"),
            ("fd", "newdirfd"),
            ("addr", "target"),
            ("len", "0"),
            ("offset", "linkpath"),
        ]),
        ..H
    },
    Helper {
        name: "io_uring_prep_symlink",
        about: "symlinkat relative to the working directory.",
        params: &[p("const char *", "target"), p("const char *", "linkpath")],
        base: on("io_uring_prep_symlinkat", &[("newdirfd", "AT_FDCWD")]),
        ..H
    },
    Helper {
        name: "io_uring_prep_linkat",
        about: "Gives an existing file a further name, like linkat(2).",
        params: &[
            p("int", "olddfd"),
            p("const char *", "oldpath"),
            p("int", "newdfd"),
            p("const char *", "newpath"),
            p("int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_LINKAT"),
            ("fd", "olddfd"),
            ("addr", "oldpath"),
            ("len", "newdfd"),
            ("offset", "newpath"),
        ]),
        stores: &[set("hardlink_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_link",
        about: "linkat with both paths relative to the working directory.",
        params: &[
            p("const char *", "oldpath"),
            p("const char *", "newpath"),
            p("int", "flags"),
        ],
        base: on(
            "io_uring_prep_linkat",
            &[("olddfd", "AT_FDCWD"), ("newdfd", "AT_FDCWD")],
        ),
        ..H
    },
    // ---- extended attributes ------------------------------------------
    Helper {
        name: "io_uring_prep_getxattr",
        about: "Reads extended attribute name of path into value, like getxattr(2).",
        params: &[
            p("const char *", "name"),
            p("char *", "value"),
            p("const char *", "path"),
            p("unsigned int", "len"),
        ],
        base: rw(&[
            ("op", "IORING_OP_GETXATTR"),
            ("fd", "0"),
            ("addr", "name"),
            ("offset", "value"),
        ]),
        stores: &[set("addr3", "path"), set("xattr_flags", "0")],
        ..H
    },
    Helper {
        name: "io_uring_prep_setxattr",
        about: "Sets extended attribute name of path, like setxattr(2).",
        params: &[
            p("const char *", "name"),
            p("const char *", "value"),
            p("const char *", "path"),
            p("int", "flags"),
            p("unsigned int", "len"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SETXATTR"),
            ("fd", "0"),
            ("addr", "name"),
            ("offset", "value"),
        ]),
        stores: &[set("addr3", "path"), set("xattr_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_fgetxattr",
        about: "Reads an extended attribute of open file fd, like fgetxattr(2).",
        params: &[
            p("int", "fd"),
            p("const char *", "name"),
            p("char *", "value"),
            p("unsigned int", "len"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FGETXATTR"),
            ("addr", "name"),
            ("offset", "value"),
        ]),
        stores: &[set("xattr_flags", "0")],
        ..H
    },
    Helper {
        name: "io_uring_prep_fsetxattr",
        about: "Sets an extended attribute of open file fd, like fsetxattr(2).",
        params: &[
            p("int", "fd"),
            p("const char *", "name"),
            p("const char *", "value"),
            p("int", "flags"),
            p("unsigned int", "len"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FSETXATTR"),
            ("addr", "name"),
            ("offset", "value"),
        ]),
        stores: &[set("xattr_flags", "flags")],
        ..H
    },
    // ---- send and receive ---------------------------------------------
    Helper {
        name: "io_uring_prep_send",
        about: "Sends len bytes from buf on socket sockfd, like send(2).",
        params: &[
            p("int", "sockfd"),
            p("const void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SEND"),
            ("fd", "sockfd"),
            ("addr", "buf"),
            ("offset", "0"),
        ]),
        stores: &[set("msg_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_send_bundle",
        about: "Sends several provided buffers of the group set with \
                io_uring_sqe_set_buf_group in one request.",
        params: &[p("int", "sockfd"), p("size_t", "len"), p("int", "flags")],
        base: on("io_uring_prep_send", &[("buf", "NULL")]),
        stores: &[or("ioprio", "IORING_RECVSEND_BUNDLE")],
        ..H
    },
    Helper {
        name: "io_uring_prep_send_set_addr",
        about: "Adds a destination address to a prepared send or zero-copy send, turning it \
                into sendto(2).",
        params: &[
            p("const struct sockaddr *", "dest_addr"),
            p("__u16", "addr_len"),
        ],
        stores: &[set("addr2", "dest_addr"), set("addr_len", "addr_len")],
        ..H
    },
    Helper {
        name: "io_uring_prep_sendto",
        about: "Sends len bytes from buf to address addr, like sendto(2).",
        params: &[
            p("int", "sockfd"),
            p("const void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
            p("const struct sockaddr *", "addr"),
            p("socklen_t", "addrlen"),
        ],
        base: on("io_uring_prep_send", &[]),
        stores: &[set("addr2", "addr"), set("addr_len", "addrlen")],
        ..H
    },
    Helper {
        name: "io_uring_prep_send_zc",
        about: "Send without copying: the kernel transmits from buf itself and posts a \
                notification completion once buf may be touched again.",
        params: &[
            p("int", "sockfd"),
            p("const void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
            pm(
                "unsigned",
                "zc_flags",
                "IORING_RECVSEND_* and IORING_SEND_ZC_* bits",
            ),
        ],
        base: rw(&[
            ("op", "IORING_OP_SEND_ZC"),
            ("fd", "sockfd"),
            ("addr", "buf"),
            ("offset", "0"),
        ]),
        stores: &[set("msg_flags", "flags"), set("ioprio", "zc_flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_send_zc_fixed",
        about: "Zero-copy send from registered buffer buf_index.",
        params: &[
            p("int", "sockfd"),
            p("const void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
            p("unsigned", "zc_flags"),
            p("unsigned", "buf_index"),
        ],
        base: on("io_uring_prep_send_zc", &[]),
        stores: &[
            or("ioprio", "IORING_RECVSEND_FIXED_BUF"),
            set("buf_index", "buf_index"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_recv",
        about: "Receives up to len bytes into buf from socket sockfd, like recv(2).",
        params: &[
            p("int", "sockfd"),
            p("void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_RECV"),
            ("fd", "sockfd"),
            ("addr", "buf"),
            ("offset", "0"),
        ]),
        stores: &[set("msg_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_recv_multishot",
        about: "Receives again and again from a socket, each time into a buffer the kernel \
                picks from a provided-buffer group, posting a completion per receive until \
                the request ends.",
        params: &[
            p("int", "sockfd"),
            p("void *", "buf"),
            p("size_t", "len"),
            p("int", "flags"),
        ],
        base: on("io_uring_prep_recv", &[]),
        stores: &[or("ioprio", "IORING_RECV_MULTISHOT")],
        notes: "Buffer selection is required: set `IOSQE_BUFFER_SELECT` in the SQE's flags \
                and the group in its `buf_group` field, with buf NULL and len 0. \
                Without it the kernel fails the request with -EINVAL. \
                [check: recv-multishot-needs-buffer-select]\n\n\
                Each CQE with `IORING_CQE_F_MORE` in its flags means the request is still \
                armed. A CQE without it is the last one: the request has ended (for example \
                with -ENOBUFS when the group ran out of buffers), data that arrives later \
                stays in the socket, and the program must prepare and submit the request \
                again to go on receiving. [check: recv-multishot-rearm] \
                See io_uring_multishot(7) and io_uring_provided_buffers(7).",
        ..H
    },
    // ---- provided buffers (the older, request-based way) --------------
    Helper {
        name: "io_uring_prep_provide_buffers",
        about: "Gives the kernel nr buffers of len bytes each, laid out back to back from \
                addr, as group bgid with buffer ids counting up from bid.",
        params: &[
            p("void *", "addr"),
            p("int", "len"),
            p("int", "nr"),
            p("int", "bgid"),
            p("int", "bid"),
        ],
        base: rw(&[
            ("op", "IORING_OP_PROVIDE_BUFFERS"),
            ("fd", "nr"),
            ("offset", "bid"),
        ]),
        stores: &[set("buf_group", "bgid")],
        ..H
    },
    Helper {
        name: "io_uring_prep_remove_buffers",
        about: "Takes up to nr unused buffers of group bgid back from the kernel.",
        params: &[p("int", "nr"), p("int", "bgid")],
        base: rw(&[
            ("op", "IORING_OP_REMOVE_BUFFERS"),
            ("fd", "nr"),
            ("addr", "NULL"),
            ("len", "0"),
            ("offset", "0"),
        ]),
        stores: &[set("buf_group", "bgid")],
        ..H
    },
    Helper {
        name: "io_uring_prep_shutdown",
        about: "Shuts down part or all of a connection, like shutdown(2).",
        params: &[p("int", "fd"), p("int", "how")],
        base: rw(&[
            ("op", "IORING_OP_SHUTDOWN"),
            ("addr", "NULL"),
            ("len", "how"),
            ("offset", "0"),
        ]),
        ..H
    },
    // ---- messages between rings ---------------------------------------
    Helper {
        name: "io_uring_prep_msg_ring",
        about: "Posts a completion on another ring (fd): its res is len and its user_data \
                is data.",
        params: &[
            p("int", "fd"),
            p("unsigned int", "len"),
            p("__u64", "data"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_MSG_RING"),
            ("addr", "NULL"),
            ("offset", "data"),
        ]),
        stores: &[set("msg_ring_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_msg_ring_cqe_flags",
        about: "io_uring_prep_msg_ring that also chooses the flags of the completion posted \
                on the other ring.",
        params: &[
            p("int", "fd"),
            p("unsigned int", "len"),
            p("__u64", "data"),
            p("unsigned int", "flags"),
            p("unsigned int", "cqe_flags"),
        ],
        base: on("io_uring_prep_msg_ring", &[]),
        stores: &[
            set("msg_ring_flags", "IORING_MSG_RING_FLAGS_PASS | flags"),
            set("file_index", "cqe_flags"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_msg_ring_fd",
        about: "Copies our direct descriptor source_fd into slot target_fd of the ring fd \
                (IORING_FILE_INDEX_ALLOC: a free slot there).",
        params: &[
            p("int", "fd"),
            p("int", "source_fd"),
            p("int", "target_fd"),
            p("__u64", "data"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_MSG_RING"),
            ("addr", "IORING_MSG_SEND_FD"),
            ("len", "0"),
            ("offset", "data"),
        ]),
        stores: &[
            set("addr3", "source_fd"),
            set(
                "file_index",
                "__io_uring_file_slot((unsigned int) target_fd)",
            ),
            set("msg_ring_flags", "flags"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_msg_ring_fd_alloc",
        about: "io_uring_prep_msg_ring_fd into whichever slot of the other ring is free.",
        params: &[
            p("int", "fd"),
            p("int", "source_fd"),
            p("__u64", "data"),
            p("unsigned int", "flags"),
        ],
        base: on(
            "io_uring_prep_msg_ring_fd",
            &[("target_fd", "IORING_FILE_INDEX_ALLOC")],
        ),
        ..H
    },
    // ---- sockets and driver commands ----------------------------------
    Helper {
        name: "io_uring_prep_socket",
        about: "Creates a socket, like socket(2).",
        params: &[
            p("int", "domain"),
            p("int", "type"),
            p("int", "protocol"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_SOCKET"),
            ("fd", "domain"),
            ("addr", "NULL"),
            ("len", "protocol"),
            ("offset", "type"),
        ]),
        stores: &[set("rw_flags", "flags")],
        ..H
    },
    Helper {
        name: "io_uring_prep_socket_direct",
        about: "Creates a socket in direct descriptor slot file_index.",
        params: &[
            p("int", "domain"),
            p("int", "type"),
            p("int", "protocol"),
            FILE_INDEX,
            p("unsigned int", "flags"),
        ],
        base: on("io_uring_prep_socket", &[]),
        stores: &[set("file_index", "__io_uring_file_slot(file_index)")],
        ..H
    },
    Helper {
        name: "io_uring_prep_socket_direct_alloc",
        about: "Creates a socket in a free direct descriptor slot, which the completion \
                names.",
        params: &[
            p("int", "domain"),
            p("int", "type"),
            p("int", "protocol"),
            p("unsigned int", "flags"),
        ],
        base: on("io_uring_prep_socket", &[]),
        stores: &[set("file_index", "IORING_FILE_INDEX_ALLOC")],
        ..H
    },
    Helper {
        name: "__io_uring_prep_uring_cmd",
        about: "Common part of the driver command helpers: op is IORING_OP_URING_CMD or its \
                128-byte twin, cmd_op the driver's own command number.",
        params: &[p("int", "op"), p("__u32", "cmd_op"), p("int", "fd")],
        stores: &[
            set("opcode", "op"),
            set("fd", "fd"),
            set("cmd_op", "cmd_op"),
            set("__pad1", "0"),
            set("addr", "0"),
            set("len", "0"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_uring_cmd",
        about: "Passes command cmd_op straight to the driver behind fd.",
        params: &[p("int", "cmd_op"), p("int", "fd")],
        base: on(
            "__io_uring_prep_uring_cmd",
            &[("op", "IORING_OP_URING_CMD"), ("cmd_op", "(__u32) cmd_op")],
        ),
        ..H
    },
    Helper {
        name: "io_uring_prep_uring_cmd128",
        about: "A driver command in a 128-byte slot of an IORING_SETUP_SQE_MIXED ring.",
        params: &[p("int", "cmd_op"), p("int", "fd")],
        base: on(
            "__io_uring_prep_uring_cmd",
            &[
                ("op", "IORING_OP_URING_CMD128"),
                ("cmd_op", "(__u32) cmd_op"),
            ],
        ),
        ..H
    },
    Helper {
        name: "io_uring_prep_cmd_sock",
        about: "A socket command (SOCKET_URING_OP_*), such as getsockopt or setsockopt on \
                socket fd.",
        params: &[
            p("int", "cmd_op"),
            p("int", "fd"),
            p("int", "level"),
            p("int", "optname"),
            p("void *", "optval"),
            p("int", "optlen"),
        ],
        base: on("io_uring_prep_uring_cmd", &[]),
        stores: &[
            set("optval", "optval"),
            set("optname", "optname"),
            set("optlen", "optlen"),
            set("level", "level"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_cmd_getsockname",
        about: "Stores the local address of socket fd in sockaddr, or the peer's address \
                when peer is nonzero.",
        params: &[
            p("int", "fd"),
            p("struct sockaddr *", "sockaddr"),
            p("socklen_t *", "sockaddr_len"),
            p("int", "peer"),
        ],
        base: on(
            "io_uring_prep_uring_cmd",
            &[("cmd_op", "SOCKET_URING_OP_GETSOCKNAME")],
        ),
        stores: &[
            set("addr", "sockaddr"),
            set("addr3", "sockaddr_len"),
            set("optlen", "peer"),
        ],
        notes: "The socket command `SOCKET_URING_OP_GETSOCKNAME` needs Linux 6.19; Linux 6.18 \
                fails the request with `-EOPNOTSUPP`.",
        ..H
    },
    Helper {
        name: "io_uring_prep_cmd_discard",
        about: "Discards nbytes at offset of block device fd.",
        params: &[
            p("int", "fd"),
            p("uint64_t", "offset"),
            p("uint64_t", "nbytes"),
        ],
        base: on(
            "io_uring_prep_uring_cmd",
            &[("cmd_op", "BLOCK_URING_CMD_DISCARD")],
        ),
        stores: &[set("addr", "offset"), set("addr3", "nbytes")],
        notes: "The block layer takes `BLOCK_URING_CMD_DISCARD` from Linux 6.12 on.",
        ..H
    },
    // ---- processes and futexes ----------------------------------------
    Helper {
        name: "io_uring_prep_waitid",
        about: "Waits for a child process to change state, like waitid(2).",
        params: &[
            p("idtype_t", "idtype"),
            p("id_t", "id"),
            p("siginfo_t *", "infop"),
            p("int", "options"),
            pm(
                "unsigned int",
                "flags",
                "request flags; none are defined yet",
            ),
        ],
        base: rw(&[
            ("op", "IORING_OP_WAITID"),
            ("fd", "id"),
            ("addr", "NULL"),
            ("len", "idtype"),
            ("offset", "0"),
        ]),
        stores: &[
            set("waitid_flags", "flags"),
            set("file_index", "options"),
            set("addr2", "infop"),
        ],
        ..H
    },
    Helper {
        name: "io_uring_prep_futex_wake",
        about: "Wakes up to val waiters on futex whose bitset meets mask, like FUTEX_WAKE of \
                futex2.",
        params: &[
            p("const uint32_t *", "futex"),
            p("uint64_t", "val"),
            p("uint64_t", "mask"),
            pm("uint32_t", "futex_flags", "FUTEX2_* flags"),
            pm(
                "unsigned int",
                "flags",
                "request flags; none are defined yet",
            ),
        ],
        base: rw(&[
            ("op", "IORING_OP_FUTEX_WAKE"),
            ("fd", "futex_flags"),
            ("addr", "futex"),
            ("len", "0"),
            ("offset", "val"),
        ]),
        stores: &[set("futex_flags", "flags"), set("addr3", "mask")],
        ..H
    },
    Helper {
        name: "io_uring_prep_futex_wait",
        about: "Sleeps until futex is woken, provided it still holds val when the request \
                runs.",
        params: &[
            p("const uint32_t *", "futex"),
            p("uint64_t", "val"),
            p("uint64_t", "mask"),
            p("uint32_t", "futex_flags"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FUTEX_WAIT"),
            ("fd", "futex_flags"),
            ("addr", "futex"),
            ("len", "0"),
            ("offset", "val"),
        ]),
        stores: &[set("futex_flags", "flags"), set("addr3", "mask")],
        ..H
    },
    Helper {
        name: "io_uring_prep_futex_waitv",
        about: "Sleeps until any one of nr_futex futexes is woken.",
        params: &[
            p("const struct futex_waitv *", "futex"),
            p("uint32_t", "nr_futex"),
            p("unsigned int", "flags"),
        ],
        base: rw(&[
            ("op", "IORING_OP_FUTEX_WAITV"),
            ("fd", "0"),
            ("addr", "futex"),
            ("len", "nr_futex"),
            ("offset", "0"),
        ]),
        stores: &[set("futex_flags", "flags")],
        ..H
    },
];

/// Helpers whose RETURN VALUE claim man/checks/request_results.c cannot
/// show, with the reason (every other helper has a case `res-<helper>`):
/// none at present.
pub const RESULTS_UNCHECKED: &[(&str, &str)] = &[];
