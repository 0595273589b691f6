// SPDX-License-Identifier: MIT
//! The Linux release that added each name of the kernel interface headers
//! (`io_uring.h`, `io_uring/query.h`, `io_uring/bpf_filter.h`) and what the
//! name means, in one table: the generator writes it out as
//! `man/kernel-releases.tsv` for the manual, and LIBURING_DEBUG and
//! `uring-info` look releases up here.
//!
//! A row names the constant itself, so a renamed or removed constant stops
//! the build instead of leaving a stale row. Request opcodes have no rows
//! of their own here: [`REQUEST_OPCODES`] is made from the opcode rows of
//! [`crate::OPCODES`], which hold each opcode's release and meaning. Count
//! sentinels (`*_LAST`, `__*_MAX`) say `sentinel`: their value grows with
//! the kernel, so they have no release.

use crate::*;

/// One name of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Release {
    /// The C name (`IORING_SETUP_SQPOLL`).
    pub name: &'static str,
    /// Its value, to look a name up from what a caller passed.
    pub value: i128,
    /// The first Linux release (major, minor) that has it; `None` for a
    /// count sentinel.
    pub since: Option<(u32, u32)>,
    /// One line on what it means (`x` bold, *x* italic in the manual); for
    /// an opcode only what it does: [`Release::text`] has the whole line.
    pub meaning: &'static str,
    /// The opcode row, for the rows of [`REQUEST_OPCODES`].
    pub opcode: Option<&'static Opcode>,
}

impl Release {
    /// The whole line on what it means: `meaning`, or for an opcode
    /// [`Opcode::meaning`] (what it does, the SQE fields it reads, its
    /// result).
    pub fn text(&self) -> Text<'_> {
        Text(self)
    }
}

/// [`Release::text`], written out by its `Display`.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a>(&'a Release);

impl core::fmt::Display for Text<'_> {
    fn fmt(&self, out: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.opcode {
            Some(op) => op.meaning().fmt(out),
            None => out.write_str(self.0.meaning),
        }
    }
}

/// The names of one family (setup flags, register opcodes, ...), in the
/// order the manual lists them.
#[derive(Clone, Copy, Debug)]
pub struct ReleaseGroup {
    /// Which page and which field the family belongs to.
    pub title: &'static str,
    pub rows: &'static [Release],
}

impl ReleaseGroup {
    /// The release that added the member whose value is `value`, if the
    /// family has such a member with a release.
    pub fn since_of(&self, value: i128) -> Option<(u32, u32)> {
        self.rows
            .iter()
            .find(|r| r.value == value && r.since.is_some())
            .and_then(|r| r.since)
    }
}

/// Declares families of rows: `group NAME "title" { rows }` becomes the
/// constant `NAME` (listed in [`GROUPS`] by hand, in the manual's order).
/// A row is `CONSTANT, since(major, minor), "meaning";` or `CONSTANT,
/// sentinel, "meaning";`.
macro_rules! release_table {
    (
        $(
            group $group:ident $title:literal {
                $( $name:ident, $kind:ident $(($maj:literal, $min:literal))?, $meaning:literal; )*
            }
        )*
    ) => {
        $(
            #[doc = concat!("The rows of ", $title, ".")]
            pub const $group: ReleaseGroup = ReleaseGroup {
                title: $title,
                rows: &[
                    $( Release {
                        name: stringify!($name),
                        value: $name as i128,
                        since: release_table!(@since $name $kind $(($maj, $min))?),
                        meaning: $meaning,
                        opcode: None,
                    }, )*
                ],
            };
        )*
    };
    (@since $name:ident since ($maj:literal, $min:literal)) => { Some(($maj, $min)) };
    (@since $name:ident sentinel) => { None };
}

/// Every row of every group, in table order.
pub fn rows() -> impl Iterator<Item = &'static Release> {
    GROUPS.iter().flat_map(|g| g.rows.iter())
}

/// The row of the constant named `name`.
pub fn find(name: &str) -> Option<&'static Release> {
    rows().find(|r| r.name == name)
}

release_table! {
    group SETUP_FLAGS "io_uring_setup(2): setup flags (io_uring_params.flags)" {
        IORING_SETUP_IOPOLL, since(5, 1),
            "Busy-poll for completions instead of taking interrupts; only for files opened with \
             O_DIRECT on a driver that supports polling. Completions are found by \
             `io_uring_enter(2)` with `IORING_ENTER_GETEVENTS`.";
        IORING_SETUP_SQPOLL, since(5, 1),
            "Start a kernel thread that reads the submission queue, so that submitting needs no \
             system call while the thread is awake. Unprivileged since Linux 5.11.";
        IORING_SETUP_SQ_AFF, since(5, 1),
            "With `IORING_SETUP_SQPOLL`: pin the polling thread to the CPU in *sq_thread_cpu*.";
        IORING_SETUP_CQSIZE, since(5, 5),
            "Size the completion queue from *cq_entries* instead of twice the submission queue.";
        IORING_SETUP_CLAMP, since(5, 6),
            "Cap *entries* and *cq_entries* at the kernel's maximum instead of failing with \
             `EINVAL`.";
        IORING_SETUP_ATTACH_WQ, since(5, 6),
            "Share the asynchronous worker pool (and, with SQPOLL, the polling thread) of the \
             ring whose descriptor is in *wq_fd*.";
        IORING_SETUP_R_DISABLED, since(5, 10),
            "Create the ring disabled, so that restrictions can be registered first; \
             `IORING_REGISTER_ENABLE_RINGS` starts it.";
        IORING_SETUP_SUBMIT_ALL, since(5, 18),
            "Keep submitting the rest of a batch when one entry fails at submission time, instead \
             of stopping at it.";
        IORING_SETUP_COOP_TASKRUN, since(5, 19),
            "Do not interrupt the task with an inter-processor interrupt when completion work is \
             queued for it; the work runs at its next transition into the kernel.";
        IORING_SETUP_TASKRUN_FLAG, since(5, 19),
            "With `IORING_SETUP_COOP_TASKRUN` or `IORING_SETUP_DEFER_TASKRUN`: set \
             `IORING_SQ_TASKRUN` in the SQ ring flags when completion work is waiting, so that a \
             program that peeks knows to enter the kernel.";
        IORING_SETUP_SQE128, since(5, 19),
            "Every submission entry is 128 bytes, which passthrough commands \
             (`IORING_OP_URING_CMD`) need for their payload.";
        IORING_SETUP_CQE32, since(5, 19),
            "Every completion entry is 32 bytes; the second 16 bytes (*big_cqe*) carry extra \
             results of some requests.";
        IORING_SETUP_SINGLE_ISSUER, since(6, 0),
            "Promise that one task only submits to the ring; a submission from another task fails \
             with `EEXIST`. Lets the kernel skip locking.";
        IORING_SETUP_DEFER_TASKRUN, since(6, 1),
            "Run completion work only when the task asks for completions \
             (`IORING_ENTER_GETEVENTS`), not at arbitrary points. Needs \
             `IORING_SETUP_SINGLE_ISSUER`.";
        IORING_SETUP_NO_MMAP, since(6, 5),
            "The application provides the ring memory itself, through *sq_off.user_addr* and \
             *cq_off.user_addr*, instead of mapping it from the ring descriptor.";
        IORING_SETUP_REGISTERED_FD_ONLY, since(6, 5),
            "Return a registered ring index instead of a file descriptor; the ring can then only \
             be used with `IORING_ENTER_REGISTERED_RING`. Needs `IORING_SETUP_NO_MMAP`.";
        IORING_SETUP_NO_SQARRAY, since(6, 6),
            "Drop the SQ index array: entries are consumed in ring order, and *sq_off.array* is \
             left zero.";
        IORING_SETUP_HYBRID_IOPOLL, since(6, 13),
            "With `IORING_SETUP_IOPOLL`: sleep for part of the expected completion time before \
             polling, which trades a little latency for much less CPU.";
        IORING_SETUP_CQE_MIXED, since(6, 18),
            "Let 16-byte and 32-byte completion entries share one CQ ring; a 32-byte entry \
             carries `IORING_CQE_F_32`, and a filler entry `IORING_CQE_F_SKIP`.";
        IORING_SETUP_SQE_MIXED, since(6, 19),
            "Let 64-byte and 128-byte submission entries share one SQ ring; a 128-byte request \
             uses an opcode such as `IORING_OP_NOP128` or `IORING_OP_URING_CMD128` and takes two \
             slots.";
        IORING_SETUP_SQ_REWIND, since(7, 0),
            "Every submission starts again at index 0 of the submission queue, so that the \
             application need not track where the kernel's SQ head stands.";
    }
    group FEATURES "io_uring_setup(2): feature flags (io_uring_params.features, set by the kernel)" {
        IORING_FEAT_SINGLE_MMAP, since(5, 4),
            "The SQ and CQ rings share one mapping: map `IORING_OFF_SQ_RING` with the larger of \
             the two sizes and skip mapping `IORING_OFF_CQ_RING`.";
        IORING_FEAT_NODROP, since(5, 5),
            "Completions are not dropped when the CQ ring is full: the kernel keeps them and sets \
             `IORING_SQ_CQ_OVERFLOW` until there is room.";
        IORING_FEAT_SUBMIT_STABLE, since(5, 5),
            "Data a request points to needs to stay valid only until the request is submitted, \
             not until it completes.";
        IORING_FEAT_RW_CUR_POS, since(5, 6),
            "An offset of -1 in a read or write means the file's current position, as read(2) and \
             write(2) use.";
        IORING_FEAT_CUR_PERSONALITY, since(5, 6),
            "Requests run with the credentials of the task that submitted them, not those of the \
             task that created the ring.";
        IORING_FEAT_FAST_POLL, since(5, 7),
            "A request on a socket or pipe that is not ready waits on the kernel's internal poll \
             mechanism instead of an asynchronous worker thread.";
        IORING_FEAT_POLL_32BITS, since(5, 9),
            "`IORING_OP_POLL_ADD` takes and returns all 32 bits of the event mask (for example \
             EPOLLEXCLUSIVE).";
        IORING_FEAT_SQPOLL_NONFIXED, since(5, 11),
            "An SQPOLL ring accepts ordinary file descriptors, not only registered ones.";
        IORING_FEAT_EXT_ARG, since(5, 11),
            "`io_uring_enter(2)` accepts `IORING_ENTER_EXT_ARG`, so a wait can carry a timeout.";
        IORING_FEAT_NATIVE_WORKERS, since(5, 12),
            "Asynchronous workers are threads of the submitting process, not kernel threads: they \
             inherit its credentials and limits.";
        IORING_FEAT_RSRC_TAGS, since(5, 13),
            "Registered files and buffers can carry tags, reported in a CQE when the resource is \
             finally released (`IORING_REGISTER_FILES2`, `IORING_REGISTER_BUFFERS2`).";
        IORING_FEAT_CQE_SKIP, since(5, 17),
            "`IOSQE_CQE_SKIP_SUCCESS` is supported.";
        IORING_FEAT_LINKED_FILE, since(5, 17),
            "In a chain of linked requests, a request's file is looked up when it starts, so it \
             can use a descriptor opened by an earlier request of the chain.";
        IORING_FEAT_REG_REG_RING, since(6, 3),
            "`io_uring_register(2)` accepts `IORING_REGISTER_USE_REGISTERED_RING`.";
        IORING_FEAT_RECVSEND_BUNDLE, since(6, 10),
            "Sends and receives accept `IORING_RECVSEND_BUNDLE`.";
        IORING_FEAT_MIN_TIMEOUT, since(6, 12),
            "The extended wait argument's *min_wait_usec* is honoured.";
        IORING_FEAT_RW_ATTR, since(6, 14),
            "Reads and writes accept attributes (*attr_ptr*, *attr_type_mask*), such as \
             protection information.";
        IORING_FEAT_NO_IOWAIT, since(6, 15),
            "`IORING_ENTER_NO_IOWAIT` is supported.";
    }
    group MMAP_OFFSETS "io_uring_setup(2): mmap(2) offsets" {
        IORING_OFF_SQ_RING, since(5, 1),
            "mmap(2) offset of the SQ ring (and of both rings with `IORING_FEAT_SINGLE_MMAP`).";
        IORING_OFF_CQ_RING, since(5, 1),
            "mmap(2) offset of the CQ ring.";
        IORING_OFF_SQES, since(5, 1),
            "mmap(2) offset of the array of submission entries.";
        IORING_OFF_PBUF_RING, since(6, 4),
            "mmap(2) offset of a kernel-allocated provided-buffer ring (`IOU_PBUF_RING_MMAP`); \
             the group id goes above `IORING_OFF_PBUF_SHIFT`.";
        IORING_OFF_PBUF_SHIFT, since(6, 4),
            "Shift of the buffer group id inside an `IORING_OFF_PBUF_RING` offset.";
        IORING_OFF_MMAP_MASK, since(6, 4),
            "Mask that selects the kind of mapping from an mmap(2) offset.";
    }
    group RING_FLAGS "io_uring_setup(2): SQ and CQ ring flags (read through sq_off.flags and cq_off.flags)" {
        IORING_SQ_NEED_WAKEUP, since(5, 1),
            "The SQPOLL thread sleeps: wake it with `IORING_ENTER_SQ_WAKEUP`.";
        IORING_SQ_CQ_OVERFLOW, since(5, 8),
            "Completions wait in the kernel because the CQ ring was full; entering the kernel \
             with `IORING_ENTER_GETEVENTS` flushes them.";
        IORING_SQ_TASKRUN, since(5, 19),
            "Completion work is pending (`IORING_SETUP_TASKRUN_FLAG`); enter the kernel to run \
             it.";
        IORING_CQ_EVENTFD_DISABLED, since(5, 8),
            "Written by the application in the CQ ring flags: do not signal the registered \
             eventfd for now.";
    }
    group ENTER_FLAGS "io_uring_enter(2): enter flags" {
        IORING_ENTER_GETEVENTS, since(5, 1),
            "Wait for *min_complete* completions (and run pending completion work).";
        IORING_ENTER_SQ_WAKEUP, since(5, 1),
            "Wake the SQPOLL thread, which sleeps (`IORING_SQ_NEED_WAKEUP`).";
        IORING_ENTER_SQ_WAIT, since(5, 10),
            "With SQPOLL: wait until the submission queue has room.";
        IORING_ENTER_EXT_ARG, since(5, 11),
            "*arg* points to a *struct io_uring_getevents_arg* (signal mask, timeout, minimum \
             wait) and *argsz* is its size.";
        IORING_ENTER_REGISTERED_RING, since(5, 18),
            "*fd* is an index registered with `IORING_REGISTER_RING_FDS`, not a file descriptor.";
        IORING_ENTER_ABS_TIMER, since(6, 12),
            "The extended argument's timeout is an absolute time on the ring's clock \
             (`IORING_REGISTER_CLOCK`).";
        IORING_ENTER_EXT_ARG_REG, since(6, 13),
            "*arg* is an offset into the wait-argument region registered with \
             `IORING_REGISTER_MEM_REGION` and *argsz* the size of one *struct io_uring_reg_wait*.";
        IORING_ENTER_NO_IOWAIT, since(6, 15),
            "Do not count the wait as I/O wait in the system statistics \
             (`IORING_FEAT_NO_IOWAIT`).";
    }
    group SQE_FLAGS "io_uring_enter(2): SQE flags (io_uring_sqe.flags) and their bit numbers" {
        IOSQE_FIXED_FILE, since(5, 1),
            "*fd* is an index into the registered file table, not a file descriptor.";
        IOSQE_IO_DRAIN, since(5, 2),
            "Start this request only after every earlier request has completed, and start later \
             ones only after it.";
        IOSQE_IO_LINK, since(5, 3),
            "Link the next entry to this one: it starts when this one completes successfully, and \
             fails with `ECANCELED` otherwise.";
        IOSQE_IO_HARDLINK, since(5, 5),
            "As `IOSQE_IO_LINK`, but the next entry starts whatever the result of this one.";
        IOSQE_ASYNC, since(5, 6),
            "Hand the request to an asynchronous worker at once, without a first non-blocking \
             attempt.";
        IOSQE_BUFFER_SELECT, since(5, 7),
            "Take the data buffer from the provided-buffer group in *buf_group* when the data \
             arrives; the CQE names it (`IORING_CQE_F_BUFFER`).";
        IOSQE_CQE_SKIP_SUCCESS, since(5, 17),
            "Post no completion entry when the request succeeds (`IORING_FEAT_CQE_SKIP`).";
        IOSQE_FIXED_FILE_BIT, since(5, 1),
            "Bit number of `IOSQE_FIXED_FILE` (0).";
        IOSQE_IO_DRAIN_BIT, since(5, 2),
            "Bit number of `IOSQE_IO_DRAIN` (1).";
        IOSQE_IO_LINK_BIT, since(5, 3),
            "Bit number of `IOSQE_IO_LINK` (2).";
        IOSQE_IO_HARDLINK_BIT, since(5, 5),
            "Bit number of `IOSQE_IO_HARDLINK` (3).";
        IOSQE_ASYNC_BIT, since(5, 6),
            "Bit number of `IOSQE_ASYNC` (4).";
        IOSQE_BUFFER_SELECT_BIT, since(5, 7),
            "Bit number of `IOSQE_BUFFER_SELECT` (5).";
        IOSQE_CQE_SKIP_SUCCESS_BIT, since(5, 17),
            "Bit number of `IOSQE_CQE_SKIP_SUCCESS` (6).";
    }
}

/// The rows of the request opcodes: one per row of [`OPCODES`] (its
/// release and meaning live there), then the count sentinel.
pub const REQUEST_OPCODES: ReleaseGroup = ReleaseGroup {
    title: "io_uring_enter(2): opcodes (io_uring_sqe.opcode). \"Reads\" names the SQE \
            fields the request uses besides opcode, flags, personality and user_data.",
    rows: &OPCODE_ROWS,
};

const OPCODE_ROWS: [Release; OPCODES.len() + 1] = opcode_rows(Release {
    name: "IORING_OP_LAST",
    value: IORING_OP_LAST as i128,
    since: None,
    opcode: None,
    meaning: "One more than the highest opcode this header knows; grows with every release, so \
             compare probe results instead.",
});

/// A release row per opcode row, then `last`.
const fn opcode_rows<const N: usize>(last: Release) -> [Release; N] {
    let mut out = [last; N];
    let mut i = 0;
    while i < OPCODES.len() {
        let op = &OPCODES[i];
        out[i] = Release {
            name: op.name,
            value: op.code as i128,
            since: Some(op.since),
            meaning: op.does,
            opcode: Some(op),
        };
        i += 1;
    }
    out
}

/// Every family, in the order of the manual.
pub const GROUPS: &[ReleaseGroup] = &[
    SETUP_FLAGS,
    FEATURES,
    MMAP_OFFSETS,
    RING_FLAGS,
    ENTER_FLAGS,
    SQE_FLAGS,
    REQUEST_OPCODES,
    REQUEST_FLAGS,
    CQE_FLAGS,
    REGISTER_OPCODES,
    REGISTER_ARGS,
];

release_table! {
    group REQUEST_FLAGS "io_uring_enter(2): request flags" {
        IORING_FSYNC_DATASYNC, since(5, 1),
            "*fsync_flags* of `IORING_OP_FSYNC`: sync data only, as fdatasync(2).";
        IORING_TIMEOUT_ABS, since(5, 4),
            "*timeout_flags*: the timespec is an absolute time.";
        IORING_TIMEOUT_UPDATE, since(5, 11),
            "*timeout_flags* of `IORING_OP_TIMEOUT_REMOVE`: change the timeout's time instead of \
             removing it.";
        IORING_TIMEOUT_BOOTTIME, since(5, 15),
            "*timeout_flags*: measure on CLOCK_BOOTTIME, which counts suspend.";
        IORING_TIMEOUT_REALTIME, since(5, 15),
            "*timeout_flags*: measure on CLOCK_REALTIME.";
        IORING_LINK_TIMEOUT_UPDATE, since(5, 15),
            "*timeout_flags* of `IORING_OP_TIMEOUT_REMOVE`: update a linked timeout.";
        IORING_TIMEOUT_ETIME_SUCCESS, since(5, 16),
            "*timeout_flags*: an expired timeout counts as a success for linked requests (its \
             *res* is still `ETIME`).";
        IORING_TIMEOUT_MULTISHOT, since(6, 4),
            "*timeout_flags*: fire *off* times (0: until cancelled), posting a CQE with \
             `IORING_CQE_F_MORE` each time; not with `IORING_TIMEOUT_ABS`.";
        IORING_TIMEOUT_IMMEDIATE_ARG, since(7, 1),
            "*timeout_flags*: *addr* holds the timeout in nanoseconds, not a pointer, so no \
             timespec must stay in memory.";
        IORING_TIMEOUT_CLOCK_MASK, since(5, 15),
            "The clock bits of *timeout_flags* (`IORING_TIMEOUT_BOOTTIME`, \
             `IORING_TIMEOUT_REALTIME`).";
        IORING_TIMEOUT_UPDATE_MASK, since(5, 15),
            "The update bits of *timeout_flags* (`IORING_TIMEOUT_UPDATE`, \
             `IORING_LINK_TIMEOUT_UPDATE`).";
        SPLICE_F_FD_IN_FIXED, since(5, 7),
            "*splice_flags*: *splice_fd_in* is a registered file index.";
        IORING_POLL_ADD_MULTI, since(5, 13),
            "*len* of `IORING_OP_POLL_ADD`: stay armed and post a CQE, with `IORING_CQE_F_MORE`, \
             for every event.";
        IORING_POLL_UPDATE_EVENTS, since(5, 13),
            "*len* of `IORING_OP_POLL_REMOVE`: replace the events of the poll request.";
        IORING_POLL_UPDATE_USER_DATA, since(5, 13),
            "*len* of `IORING_OP_POLL_REMOVE`: replace its *user_data* with *off*.";
        IORING_POLL_ADD_LEVEL, since(5, 19),
            "*len* of `IORING_OP_POLL_ADD`: level-triggered rather than edge-triggered.";
        IORING_ASYNC_CANCEL_ALL, since(5, 19),
            "*cancel_flags*: cancel every match, not only the first.";
        IORING_ASYNC_CANCEL_FD, since(5, 19),
            "*cancel_flags*: match requests on the descriptor in *fd* instead of *user_data*.";
        IORING_ASYNC_CANCEL_ANY, since(5, 19),
            "*cancel_flags*: match every request.";
        IORING_ASYNC_CANCEL_FD_FIXED, since(6, 0),
            "*cancel_flags*: with `IORING_ASYNC_CANCEL_FD`, *fd* is a registered file index.";
        IORING_ASYNC_CANCEL_USERDATA, since(6, 6),
            "*cancel_flags*: match on *user_data* (the default), combinable with the other keys.";
        IORING_ASYNC_CANCEL_OP, since(6, 6),
            "*cancel_flags*: match on the opcode in *len*.";
        IORING_RECVSEND_POLL_FIRST, since(5, 19),
            "*ioprio* of sends and receives: wait for the socket to be ready before the first \
             attempt, when data is not expected at once.";
        IORING_RECV_MULTISHOT, since(6, 0),
            "*ioprio* of `IORING_OP_RECV` and `IORING_OP_RECVMSG`: keep receiving into provided \
             buffers, one CQE per receive with `IORING_CQE_F_MORE`.";
        IORING_RECVSEND_FIXED_BUF, since(6, 0),
            "*ioprio* of zero-copy sends: the data is in the registered buffer *buf_index*.";
        IORING_SEND_ZC_REPORT_USAGE, since(6, 2),
            "*ioprio* of zero-copy sends: the notification CQE's *res* says whether the data was \
             copied after all (`IORING_NOTIF_USAGE_ZC_COPIED`).";
        IORING_RECVSEND_BUNDLE, since(6, 10),
            "*ioprio*: use as many provided buffers as the data needs in one request; *res* \
             counts the bytes over all of them.";
        IORING_SEND_VECTORIZED, since(6, 17),
            "*ioprio* of `IORING_OP_SEND` and `IORING_OP_SEND_ZC`: *addr* and *len* describe an \
             iovec array.";
        IORING_ACCEPT_MULTISHOT, since(5, 19),
            "*ioprio* of `IORING_OP_ACCEPT`: keep accepting, one CQE per connection with \
             `IORING_CQE_F_MORE` (named in the header since 6.10).";
        IORING_ACCEPT_DONTWAIT, since(6, 10),
            "*ioprio* of `IORING_OP_ACCEPT`: fail with `EAGAIN` when no connection is waiting, \
             instead of waiting.";
        IORING_ACCEPT_POLL_FIRST, since(6, 10),
            "*ioprio* of `IORING_OP_ACCEPT`: wait for a connection before the first attempt.";
        IORING_MSG_RING_CQE_SKIP, since(6, 3),
            "*msg_ring_flags*: post nothing to the target ring (with `IORING_MSG_SEND_FD`).";
        IORING_MSG_RING_FLAGS_PASS, since(6, 3),
            "*msg_ring_flags*: the target CQE's *flags* are taken from *file_index*.";
        IORING_MSG_DATA, since(5, 18),
            "*addr* of `IORING_OP_MSG_RING`: post a CQE with the given *res* and *user_data*.";
        IORING_MSG_SEND_FD, since(6, 0),
            "*addr* of `IORING_OP_MSG_RING`: install the sender's registered file *addr3* in the \
             target ring's slot *file_index*.";
        IORING_FIXED_FD_NO_CLOEXEC, since(6, 8),
            "*install_fd_flags* of `IORING_OP_FIXED_FD_INSTALL`: the new descriptor is not \
             close-on-exec.";
        IORING_NOP_INJECT_RESULT, since(6, 10),
            "*nop_flags*: complete with *len* as the result, to test error paths.";
        IORING_NOP_FILE, since(6, 13),
            "*nop_flags*: look up *fd* as a request on a file would; a bad one fails the request.";
        IORING_NOP_FIXED_FILE, since(6, 13),
            "*nop_flags*: with `IORING_NOP_FILE`, *fd* is a registered file's index.";
        IORING_NOP_FIXED_BUFFER, since(6, 13),
            "*nop_flags*: look up the registered buffer *buf_index*; a missing one fails the \
             request.";
        IORING_NOP_TW, since(6, 16),
            "*nop_flags*: complete through task work instead of inline, to measure that path.";
        IORING_NOP_CQE32, since(6, 18),
            "*nop_flags*: post a 32-byte CQE (on an `IORING_SETUP_CQE_MIXED` ring).";
        IORING_FILE_INDEX_ALLOC, since(5, 19),
            "In *file_index* or the *off* of `IORING_OP_FILES_UPDATE`: let the kernel pick a free \
             registered slot, reported in *res*.";
        IORING_RW_ATTR_FLAG_PI, since(6, 14),
            "*attr_type_mask* of reads and writes: *attr_ptr* points to a *struct \
             io_uring_attr_pi* with protection information.";
        IORING_URING_CMD_FIXED, since(6, 1),
            "*uring_cmd_flags*: the command's data is in the registered buffer *buf_index*.";
        IORING_URING_CMD_MULTISHOT, since(6, 16),
            "*uring_cmd_flags*: a multishot command, one CQE per result with a provided buffer \
             (`IOSQE_BUFFER_SELECT`).";
        IORING_URING_CMD_MASK, since(6, 1),
            "The *uring_cmd_flags* bits an application may set.";
        SOCKET_URING_OP_SIOCINQ, since(6, 7),
            "*cmd_op* of `IORING_OP_URING_CMD` on a socket: *res* is the number of unread bytes.";
        SOCKET_URING_OP_SIOCOUTQ, since(6, 7),
            "*cmd_op* on a socket: *res* is the number of unsent bytes.";
        SOCKET_URING_OP_GETSOCKOPT, since(6, 7),
            "*cmd_op* on a socket: getsockopt(2) with *level*, *optname*, *optval*, *optlen*; \
             *res* is the option's length.";
        SOCKET_URING_OP_SETSOCKOPT, since(6, 7),
            "*cmd_op* on a socket: setsockopt(2) with the same fields; *res*: 0.";
        SOCKET_URING_OP_TX_TIMESTAMP, since(6, 17),
            "*cmd_op* on a socket: a multishot request that posts transmit timestamps from the \
             socket's error queue; each CQE carries the timestamp in *big_cqe* and its type above \
             `IORING_TIMESTAMP_TYPE_SHIFT`.";
        SOCKET_URING_OP_GETSOCKNAME, since(6, 19),
            "*cmd_op* on a socket: its own address as getsockname(2) gives it, or, when the \
             request asks for the peer, the address getpeername(2) gives.";
        IORING_TIMESTAMP_HW_SHIFT, since(6, 17),
            "Bit of CQE *flags* set when a `SOCKET_URING_OP_TX_TIMESTAMP` timestamp comes from \
             the hardware.";
        IORING_TIMESTAMP_TYPE_SHIFT, since(6, 17),
            "Shift of the timestamp type (SCM_TSTAMP_*) in the CQE *flags* of \
             `SOCKET_URING_OP_TX_TIMESTAMP`.";
    }
    group CQE_FLAGS "io_uring_enter(2): completion flags (io_uring_cqe.flags)" {
        IORING_CQE_F_BUFFER, since(5, 7),
            "The request used a provided buffer, whose id is in the upper 16 bits of *flags*.";
        IORING_CQE_BUFFER_SHIFT, since(5, 7),
            "Shift that extracts the buffer id: *flags* >> 16.";
        IORING_CQE_F_MORE, since(5, 13),
            "A multishot request stays armed: more CQEs will follow for it.";
        IORING_CQE_F_SOCK_NONEMPTY, since(5, 19),
            "After this receive, the socket still had data to read.";
        IORING_CQE_F_NOTIF, since(6, 0),
            "The notification of a zero-copy send: its buffer may be reused.";
        IORING_CQE_F_BUF_MORE, since(6, 12),
            "The provided buffer was only partly used and stays with the kernel \
             (`IOU_PBUF_RING_INC`): the next data goes after this one.";
        IORING_CQE_F_TSTAMP_HW, since(6, 17),
            "The transmit timestamp of this CQE comes from the hardware.";
        IORING_CQE_F_SKIP, since(6, 18),
            "A filler entry in an `IORING_SETUP_CQE_MIXED` ring, which closes the ring's end so \
             that a 32-byte entry does not wrap: skip it.";
        IORING_CQE_F_32, since(6, 18),
            "This entry of an `IORING_SETUP_CQE_MIXED` ring is 32 bytes long.";
        IORING_NOTIF_USAGE_ZC_COPIED, since(6, 2),
            "In the *res* of a notification CQE (`IORING_SEND_ZC_REPORT_USAGE`): the kernel had \
             to copy the data.";
    }
    group REGISTER_OPCODES "io_uring_register(2): opcodes" {
        IORING_REGISTER_BUFFERS, since(5, 1),
            "*arg*: array of *nr_args* struct iovec to pin as registered buffers. *res*: 0.";
        IORING_UNREGISTER_BUFFERS, since(5, 1),
            "*arg* NULL, *nr_args* 0: drop the registered buffers.";
        IORING_REGISTER_FILES, since(5, 1),
            "*arg*: array of *nr_args* descriptors (-1 for an empty slot) to register as files.";
        IORING_UNREGISTER_FILES, since(5, 1),
            "*arg* NULL, *nr_args* 0: drop the registered files.";
        IORING_REGISTER_EVENTFD, since(5, 2),
            "*arg*: pointer to an eventfd descriptor, *nr_args* 1: signal it on every completion.";
        IORING_UNREGISTER_EVENTFD, since(5, 2),
            "*arg* NULL, *nr_args* 0: stop signalling the eventfd.";
        IORING_REGISTER_FILES_UPDATE, since(5, 5),
            "*arg*: *struct io_uring_files_update* (first slot and descriptor array), *nr_args*: \
             count. *res*: slots updated.";
        IORING_REGISTER_EVENTFD_ASYNC, since(5, 6),
            "As `IORING_REGISTER_EVENTFD`, but signal only for requests that completed \
             asynchronously.";
        IORING_REGISTER_PROBE, since(5, 6),
            "*arg*: *struct io_uring_probe* with room for *nr_args* *struct io_uring_probe_op*: \
             which opcodes this kernel supports (`IO_URING_OP_SUPPORTED`).";
        IORING_REGISTER_PERSONALITY, since(5, 6),
            "*arg* NULL: register the caller's credentials. *res*: an id for an SQE's \
             *personality* field.";
        IORING_UNREGISTER_PERSONALITY, since(5, 6),
            "*nr_args*: the id to drop.";
        IORING_REGISTER_RESTRICTIONS, since(5, 10),
            "*arg*: array of *nr_args* *struct io_uring_restriction* limiting what a ring created \
             with `IORING_SETUP_R_DISABLED` may do.";
        IORING_REGISTER_ENABLE_RINGS, since(5, 10),
            "*arg* NULL: start a ring created with `IORING_SETUP_R_DISABLED`.";
        IORING_REGISTER_FILES2, since(5, 13),
            "*arg*: *struct io_uring_rsrc_register* (descriptors and tags; \
             `IORING_RSRC_REGISTER_SPARSE`), *nr_args*: its size.";
        IORING_REGISTER_FILES_UPDATE2, since(5, 13),
            "*arg*: *struct io_uring_rsrc_update2* (slots, descriptors, tags), *nr_args*: its \
             size. *res*: slots updated.";
        IORING_REGISTER_BUFFERS2, since(5, 13),
            "As `IORING_REGISTER_FILES2`, for buffers (iovec array and tags).";
        IORING_REGISTER_BUFFERS_UPDATE, since(5, 13),
            "As `IORING_REGISTER_FILES_UPDATE2`, for buffers.";
        IORING_REGISTER_IOWQ_AFF, since(5, 14),
            "*arg*: a CPU mask of *nr_args* bytes for the asynchronous workers.";
        IORING_UNREGISTER_IOWQ_AFF, since(5, 14),
            "Restore the workers' default CPU mask.";
        IORING_REGISTER_IOWQ_MAX_WORKERS, since(5, 15),
            "*arg*: two unsigned ints, the limits for bounded and unbounded workers \
             (`IO_WQ_BOUND`, `IO_WQ_UNBOUND`; 0 reads without changing), *nr_args* 2. The old \
             limits are written back.";
        IORING_REGISTER_RING_FDS, since(5, 18),
            "*arg*: array of *nr_args* *struct io_uring_rsrc_update* holding ring descriptors to \
             register (offset -1: any free slot). *res*: the number registered; the slots are \
             written back.";
        IORING_UNREGISTER_RING_FDS, since(5, 18),
            "*arg*: array of *nr_args* *struct io_uring_rsrc_update* naming registered ring slots \
             to free.";
        IORING_REGISTER_PBUF_RING, since(5, 19),
            "*arg*: *struct io_uring_buf_reg*, *nr_args* 1: register a provided-buffer ring for a \
             group.";
        IORING_UNREGISTER_PBUF_RING, since(5, 19),
            "*arg*: *struct io_uring_buf_reg* naming the group, *nr_args* 1.";
        IORING_REGISTER_SYNC_CANCEL, since(6, 0),
            "*arg*: *struct io_uring_sync_cancel_reg*, *nr_args* 1: cancel as \
             `IORING_OP_ASYNC_CANCEL` does and wait for it. *res*: as that opcode's.";
        IORING_REGISTER_FILE_ALLOC_RANGE, since(6, 0),
            "*arg*: *struct io_uring_file_index_range*: the registered-file slots \
             `IORING_FILE_INDEX_ALLOC` may pick from.";
        IORING_REGISTER_PBUF_STATUS, since(6, 8),
            "*arg*: *struct io_uring_buf_status*, *nr_args* 1: the kernel's head of a buffer \
             ring.";
        IORING_REGISTER_NAPI, since(6, 9),
            "*arg*: *struct io_uring_napi*: enable busy polling of network devices while waiting.";
        IORING_UNREGISTER_NAPI, since(6, 9),
            "*arg*: *struct io_uring_napi* or NULL: disable it (the old settings are written \
             back).";
        IORING_REGISTER_CLOCK, since(6, 12),
            "*arg*: *struct io_uring_clock_register*: the clock of wait timeouts (CLOCK_MONOTONIC \
             or CLOCK_BOOTTIME).";
        IORING_REGISTER_CLONE_BUFFERS, since(6, 12),
            "*arg*: *struct io_uring_clone_buffers*: copy the registered buffers of another ring \
             (`IORING_REGISTER_SRC_REGISTERED`, `IORING_REGISTER_DST_REPLACE`).";
        IORING_REGISTER_SEND_MSG_RING, since(6, 13),
            "*fd* -1, *arg*: one SQE, *nr_args* 1: perform an `IORING_OP_MSG_RING` with \
             `IORING_MSG_DATA` without a source ring.";
        IORING_REGISTER_ZCRX_IFQ, since(6, 15),
            "*arg*: *struct io_uring_zcrx_ifq_reg*, *nr_args* 1: attach a network receive queue \
             for zero-copy receive.";
        IORING_REGISTER_RESIZE_RINGS, since(6, 13),
            "*arg*: *struct io_uring_params* with new sizes: resize the SQ and CQ rings of a live \
             ring (`IORING_SETUP_DEFER_TASKRUN` rings).";
        IORING_REGISTER_MEM_REGION, since(6, 13),
            "*arg*: *struct io_uring_mem_region_reg*: register a memory region, for example for \
             wait arguments (`IORING_MEM_REGION_REG_WAIT_ARG`).";
        IORING_REGISTER_QUERY, since(6, 18),
            "*fd* -1 (no ring needed), *arg*: chain of *struct io_uring_query_hdr*: ask what the \
             kernel supports (`IO_URING_QUERY_*`).";
        IORING_REGISTER_ZCRX_CTRL, since(6, 19),
            "*arg*: *struct zcrx_ctrl*, *nr_args* 0: an operation on a zero-copy receive instance \
             (`ZCRX_CTRL_*`).";
        IORING_REGISTER_BPF_FILTER, since(7, 0),
            "*arg*: *struct io_uring_bpf*: attach a classic BPF filter that allows or denies \
             requests of an opcode.";
        IORING_REGISTER_LAST, sentinel,
            "One more than the highest register opcode this header knows.";
        IORING_REGISTER_USE_REGISTERED_RING, since(6, 3),
            "OR-ed into *opcode*: *fd* is a registered ring index (`IORING_FEAT_REG_REG_RING`).";
    }
    group REGISTER_ARGS "io_uring_register(2): arguments" {
        IO_URING_NAPI_REGISTER_OP, since(6, 13),
            "*opcode* of *struct io_uring_napi*: enable busy polling with the tracking strategy \
             in *op_param*.";
        IO_URING_NAPI_STATIC_ADD_ID, since(6, 13),
            "*opcode* of *struct io_uring_napi*: with static tracking, add the NAPI id \
             *op_param*.";
        IO_URING_NAPI_STATIC_DEL_ID, since(6, 13),
            "*opcode* of *struct io_uring_napi*: with static tracking, remove the NAPI id \
             *op_param*.";
        IO_URING_NAPI_TRACKING_DYNAMIC, since(6, 13),
            "*op_param* of `IO_URING_NAPI_REGISTER_OP`: track the NAPI ids of the sockets the \
             ring's requests use (the behaviour before 6.13).";
        IO_URING_NAPI_TRACKING_STATIC, since(6, 13),
            "*op_param* of `IO_URING_NAPI_REGISTER_OP`: poll only the ids added with \
             `IO_URING_NAPI_STATIC_ADD_ID`.";
        IO_URING_NAPI_TRACKING_INACTIVE, since(6, 13),
            "*op_param* of `IO_URING_NAPI_REGISTER_OP`: no tracking.";
        IORING_RSRC_REGISTER_SPARSE, since(5, 19),
            "*flags* of *struct io_uring_rsrc_register*: create *nr* empty slots, without a data \
             array.";
        IORING_REGISTER_FILES_SKIP, since(5, 12),
            "A descriptor value in a file update that leaves its slot unchanged.";
        IO_URING_OP_SUPPORTED, since(5, 6),
            "*flags* bit of *struct io_uring_probe_op*: the opcode is supported.";
        IO_WQ_BOUND, since(5, 15),
            "Index of the limit for bounded workers (disk I/O) in \
             `IORING_REGISTER_IOWQ_MAX_WORKERS`.";
        IO_WQ_UNBOUND, since(5, 15),
            "Index of the limit for unbounded workers (network, pipes).";
        IORING_RESTRICTION_REGISTER_OP, since(5, 10),
            "Restriction: allow the register opcode *register_op*.";
        IORING_RESTRICTION_SQE_OP, since(5, 10),
            "Restriction: allow the request opcode *sqe_op*.";
        IORING_RESTRICTION_SQE_FLAGS_ALLOWED, since(5, 10),
            "Restriction: the SQE flags *sqe_flags* may be set.";
        IORING_RESTRICTION_SQE_FLAGS_REQUIRED, since(5, 10),
            "Restriction: the SQE flags *sqe_flags* must be set.";
        IORING_RESTRICTION_LAST, sentinel,
            "One more than the highest restriction type.";
        IORING_REGISTER_SRC_REGISTERED, since(6, 12),
            "*flags* of *struct io_uring_clone_buffers*: *src_fd* is a registered ring index.";
        IORING_REGISTER_DST_REPLACE, since(6, 13),
            "*flags* of *struct io_uring_clone_buffers*: replace buffers the destination already \
             has.";
        IORING_MEM_REGION_TYPE_USER, since(6, 13),
            "*flags* of *struct io_uring_region_desc*: the application supplies the memory at \
             *user_addr*.";
        IORING_MEM_REGION_REG_WAIT_ARG, since(6, 13),
            "*flags* of *struct io_uring_mem_region_reg*: the region holds *struct \
             io_uring_reg_wait* entries for `IORING_ENTER_EXT_ARG_REG`.";
        IORING_REG_WAIT_TS, since(6, 13),
            "*flags* of *struct io_uring_reg_wait*: its *ts* field is a timeout.";
        IOU_PBUF_RING_MMAP, since(6, 4),
            "*flags* of *struct io_uring_buf_reg*: the kernel allocates the ring; map it at \
             `IORING_OFF_PBUF_RING`.";
        IOU_PBUF_RING_INC, since(6, 12),
            "*flags* of *struct io_uring_buf_reg*: buffers are consumed incrementally, a part at \
             a time (`IORING_CQE_F_BUF_MORE`).";
        IORING_ZCRX_AREA_DMABUF, since(6, 16),
            "*flags* of *struct io_uring_zcrx_area_reg*: the area is the dma-buf *dmabuf_fd*, not \
             user memory.";
        IORING_ZCRX_AREA_SHIFT, since(6, 15),
            "Shift of the area id in the offset of a zero-copy receive CQE.";
        IORING_ZCRX_AREA_MASK, since(6, 15),
            "Mask of the area id bits in that offset.";
        ZCRX_REG_IMPORT, since(6, 19),
            "*flags* of *struct io_uring_zcrx_ifq_reg*: import an instance exported with \
             `ZCRX_CTRL_EXPORT` instead of creating one.";
        ZCRX_REG_NODEV, since(7, 1),
            "*flags* of *struct io_uring_zcrx_ifq_reg*: an instance not bound to a network \
             device.";
        ZCRX_FEATURE_RX_PAGE_SIZE, since(7, 0),
            "*features* of *struct io_uring_query_zcrx*: *rx_buf_len* of the registration is \
             honoured.";
        ZCRX_FEATURE_EVENT, since(7, 2),
            "*features* of *struct io_uring_query_zcrx*: an instance can post events \
             (*event_desc* of the registration, `ZCRX_CTRL_ARM_EVENT`).";
        ZCRX_EVENT_ALLOC_FAIL, since(7, 2),
            "Zero-copy receive event: the instance ran out of buffers for received data.";
        ZCRX_EVENT_COPY, since(7, 2),
            "Zero-copy receive event: data was copied instead of received in place.";
        __ZCRX_EVENT_TYPE_LAST, sentinel,
            "One more than the highest `ZCRX_EVENT_*` type.";
        ZCRX_EVENT_DESC_FLAG_STATS, since(7, 2),
            "*flags* of *struct zcrx_event_desc*: keep a *struct zcrx_stats* at *stats_offset* of \
             the refill ring region.";
        ZCRX_CTRL_FLUSH_RQ, since(6, 19),
            "*op* of *struct zcrx_ctrl*: return the buffers of the refill queue at once.";
        ZCRX_CTRL_EXPORT, since(6, 19),
            "*op* of *struct zcrx_ctrl*: give a file descriptor for the instance that another \
             ring can import (`ZCRX_REG_IMPORT`).";
        ZCRX_CTRL_ARM_EVENT, since(7, 2),
            "*op* of *struct zcrx_ctrl*: let the event *zc_arm_event.event_type* be posted again.";
        __ZCRX_CTRL_LAST, sentinel,
            "One more than the highest `ZCRX_CTRL_*` operation.";
        IO_URING_QUERY_OPCODES, since(6, 18),
            "*query_op*: fill a *struct io_uring_query_opcode* with the counts of request and \
             register opcodes and the masks of known feature, setup, enter and SQE flags.";
        IO_URING_QUERY_ZCRX, since(6, 19),
            "*query_op*: fill a *struct io_uring_query_zcrx* with the zero-copy receive flags, \
             features and refill ring layout.";
        IO_URING_QUERY_SCQ, since(6, 19),
            "*query_op*: fill a *struct io_uring_query_scq* with the size and alignment of the \
             ring headers (for `IORING_SETUP_NO_MMAP`).";
        IO_URING_QUERY_ZCRX_EVENT, since(7, 2),
            "*query_op*: fill a *struct io_uring_query_zcrx_event* with the zero-copy receive \
             event types and the size and alignment of *struct zcrx_stats*.";
        __IO_URING_QUERY_MAX, sentinel,
            "One more than the highest query.";
        IO_URING_BPF_FILTER_DENY_REST, since(7, 0),
            "*flags* of *struct io_uring_bpf_filter*: deny every opcode that has no filter yet.";
        IO_URING_BPF_FILTER_SZ_STRICT, since(7, 0),
            "*flags* of *struct io_uring_bpf_filter*: fail when the kernel's context size differs \
             from *pdu_size*.";
        IO_URING_BPF_CMD_FILTER, since(7, 0),
            "*cmd_type* of *struct io_uring_bpf*: register the filter in *filter*.";
    }
}

#[cfg(test)]
mod tests;
