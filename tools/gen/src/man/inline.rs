// SPDX-License-Identifier: MIT
//! The reference text of the helpers `liburing.h` and `barrier.h` define by
//! hand: the inline functions that are not SQE preparers (those are the
//! prep table, `crate::prep`) and the public function-like macros. One row
//! per name: its SYNOPSIS line and its page's sections. The header keeps a
//! short code comment of its own; the page says what a caller needs.
//!
//! Prose conventions as for the doc comments of the C boundary: `code`,
//! @param, *italic*; `errors` as `- ECODE: when` lines.

/// What a name is in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `static inline` function (liburing-ffi exports it too).
    Function,
    /// A function-like macro.
    Macro,
}
use Kind::{Function, Macro};

/// One hand-written inline helper or macro.
#[derive(Clone, Copy, Debug)]
pub struct Inline {
    pub name: &'static str,
    pub kind: Kind,
    /// The declaration without linkage words and `;` (a macro:
    /// `#define NAME(args)`), as the installed header has it.
    pub prototype: &'static str,
    /// DESCRIPTION: what it does.
    pub about: &'static str,
    /// RETURN VALUE.
    pub returns: &'static str,
    /// ERRORS, as `- ECODE: when` lines.
    pub errors: &'static str,
    /// NOTES.
    pub notes: &'static str,
    /// SEE ALSO names (pages of this manual; `name(2)` for section 2).
    pub see: &'static [&'static str],
    /// The page that documents this name too (it shares that page's NAME
    /// line and SYNOPSIS; its file is a link to it).
    pub alias_of: Option<&'static str>,
}

/// The SEE ALSO lists pages of one family share.
const BUF_RING: &[&str] = &[
    "io_uring_setup_buf_ring",
    "io_uring_buf_ring_add",
    "io_uring_buf_ring_advance",
    "io_uring_buf_ring_cq_advance",
    "io_uring_provided_buffers(7)",
];
const RECVMSG: &[&str] = &[
    "io_uring_prep_recvmsg_multishot",
    "io_uring_recvmsg_validate",
    "io_uring_recvmsg_name",
    "io_uring_recvmsg_payload",
    "io_uring_recvmsg_payload_length",
    "io_uring_recvmsg_cmsg_firsthdr",
];

const I: Inline = Inline {
    name: "",
    kind: Function,
    prototype: "",
    about: "",
    returns: "",
    errors: "",
    notes: "",
    see: &[],
    alias_of: None,
};

pub const INLINE: &[Inline] = &[
    Inline {
        name: "io_uring_peek_cqe",
        kind: Function,
        prototype: "int io_uring_peek_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr)",
        about: "Looks for a completion without waiting: when the CQ ring holds one, a pointer to the oldest is stored in *@cqe_ptr.",
        returns: "0 with a CQE stored in *@cqe_ptr, or -EAGAIN when no completion is waiting. The call never blocks and enters the kernel only when completions are held back there (CQ overflow, or task work on a DEFER_TASKRUN ring).",
        errors: "- EAGAIN: the CQ ring holds no completion for the application. [check: peek-cqe-EAGAIN]",
        notes: "The CQE stays in the ring until io_uring_cqe_seen() or io_uring_cq_advance() hands its slot back; read what you need from it first.",
        see: &["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe", "io_uring_cq_ready"],
        ..I
    },
    Inline {
        name: "__io_uring_peek_cqe",
        kind: Function,
        prototype: "int __io_uring_peek_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr, unsigned *nr_available)",
        about: "Look at the CQ ring without entering the kernel. *@cqe_ptr receives the first CQE meant for the application, or NULL; *@nr_available (optional) the number of filled slots at the last look. Internal CQEs in front of it are consumed on the way; the result is 0 or a failed internal timeout's error. The building block of the peek and wait functions.",
        returns: "0, with *@cqe_ptr set to a CQE or NULL; or the negative error of a failed internal timeout, which only a kernel without IORING_FEAT_EXT_ARG (before Linux 5.11) has, its timed waits being timeout requests of the library.",
        notes: "Programs should call io_uring_peek_cqe() or io_uring_wait_cqe(); this name is exported for binaries built against older headers.",
        see: &["io_uring_peek_cqe", "io_uring_wait_cqe"],
        ..I
    },
    Inline {
        name: "io_uring_wait_cqe",
        kind: Function,
        prototype: "int io_uring_wait_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr)",
        about: "Waits for a completion. A pointer to the oldest one in the CQ ring is stored in *@cqe_ptr; when one is there already, the call returns at once without entering the kernel. The CQE stays in the ring until io_uring_cqe_seen() hands its slot back.",
        returns: "0 with a CQE in *@cqe_ptr, or a negative errno value; on a failure *@cqe_ptr is not meaningful.",
        errors: "- EINTR: a signal arrived while waiting. [check: wait-cqe-EINTR]\n- EAGAIN: no completion was found after waiting (possible with SQPOLL). [unchecked: comes from a race with the SQPOLL thread that a check cannot arrange reliably]\n- EBADR: completions were dropped because the CQ ring overflowed and the kernel could not keep them. [unchecked: the kernel drops overflowed completions only when it cannot allocate memory for them]",
        notes: "On a ring set up with IORING_SETUP_DEFER_TASKRUN the kernel runs completion work only when the task that submitted waits or calls io_uring_get_events(); this call does that for you.",
        see: &["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe", "io_uring_wait_cqe_timeout", "io_uring_enter(2)"],
        ..I
    },
    Inline {
        name: "io_uring_wait_cqe_nr",
        kind: Function,
        prototype: "int io_uring_wait_cqe_nr(struct io_uring *ring, struct io_uring_cqe **cqe_ptr, unsigned wait_nr)",
        about: "Wait for @wait_nr completions (0: none) and return the first in *@cqe_ptr.",
        returns: "0 with the first CQE in *@cqe_ptr, or a negative errno value.",
        errors: "- EINTR: a signal arrived while waiting. [check: err-io_uring_wait_cqe_nr-EINTR]",
        see: &["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe", "io_uring_wait_cqes"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_seen",
        kind: Function,
        prototype: "void io_uring_cqe_seen(struct io_uring *ring, struct io_uring_cqe *cqe)",
        about: "Marks a completion as consumed, so that the kernel may reuse its slot. @cqe comes from io_uring_peek_cqe() or one of the wait functions; read everything needed from it before this call. A NULL @cqe is ignored.",
        notes: "Forgetting this call fills the CQ ring; the kernel then keeps further completions on an overflow list and io_uring_cq_has_overflow() turns true.",
        see: &["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe", "io_uring_cq_advance"],
        ..I
    },
    Inline {
        name: "io_uring_cq_advance",
        kind: Function,
        prototype: "void io_uring_cq_advance(struct io_uring *ring, unsigned nr)",
        about: "Marks several completions as consumed at once: the @nr oldest of the CQ ring, whose slots the kernel may then reuse.",
        notes: "Use it after reading a batch with io_uring_for_each_cqe() or io_uring_peek_batch_cqe(); one release store serves the whole batch.",
        see: &["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe", "io_uring_peek_batch_cqe"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_get_data",
        kind: Function,
        prototype: "void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)",
        about: "The pointer given to io_uring_sqe_set_data() for this request.",
        returns: "The pointer stored with io_uring_sqe_set_data(), or whatever pointer the 64-bit user_data field holds.",
        see: &["io_uring_sqe_set_data", "io_uring_cqe_get_data64"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_get_data64",
        kind: Function,
        prototype: "__u64 io_uring_cqe_get_data64(const struct io_uring_cqe *cqe)",
        about: "The value given to io_uring_sqe_set_data64() for this request.",
        returns: "The user_data value of the CQE.",
        see: &["io_uring_sqe_set_data64", "io_uring_cqe_get_data"],
        ..I
    },
    Inline {
        name: "io_uring_cq_ready",
        kind: Function,
        prototype: "unsigned io_uring_cq_ready(const struct io_uring *ring)",
        about: "Completions posted and not yet consumed.",
        returns: "The number of CQEs that can be read without entering the kernel. [check: cq-ready-and-peek-batch-count]",
        see: &["io_uring_cq_advance", "io_uring_sq_ready"],
        ..I
    },
    Inline {
        name: "io_uring_cq_has_overflow",
        kind: Function,
        prototype: "bool io_uring_cq_has_overflow(const struct io_uring *ring)",
        about: "True while completions wait in the kernel for room in the CQ ring.",
        returns: "true when the kernel reports IORING_SQ_CQ_OVERFLOW.",
        notes: "Consume completions, then call io_uring_get_events() (or any wait) so the kernel moves the held-back CQEs into the ring.",
        see: &["io_uring_get_events", "io_uring_cq_ready"],
        ..I
    },
    Inline {
        name: "io_uring_cq_eventfd_enabled",
        kind: Function,
        prototype: "bool io_uring_cq_eventfd_enabled(const struct io_uring *ring)",
        about: "Tells whether the registered eventfd is signalled. It is, for new completions, unless io_uring_cq_eventfd_toggle() switched that off.",
        returns: "true when a registered eventfd is signalled for new completions.",
        see: &["io_uring_cq_eventfd_toggle", "io_uring_register_eventfd"],
        ..I
    },
    Inline {
        name: "io_uring_cq_eventfd_toggle",
        kind: Function,
        prototype: "int io_uring_cq_eventfd_toggle(struct io_uring *ring, bool enabled)",
        about: "Switches eventfd signalling on or off. With @enabled false the eventfd registered with io_uring_register_eventfd() stays quiet, for example while the program drains the CQ ring anyway.",
        returns: "0 once the flag is as asked; -EOPNOTSUPP on kernels without the switch.",
        errors: "- EOPNOTSUPP: the kernel has no CQ flags word (before Linux 5.8), so notifications cannot be switched off. [check: err-io_uring_cq_eventfd_toggle-EOPNOTSUPP]",
        notes: "The switch is the IORING_CQ_EVENTFD_DISABLED bit of the CQ ring's flags, so it costs no system call.",
        see: &["io_uring_cq_eventfd_enabled", "io_uring_register_eventfd"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_iter_init",
        kind: Function,
        prototype: "struct io_uring_cqe_iter io_uring_cqe_iter_init(const struct io_uring *ring)",
        about: "A cursor over the CQEs the ring holds right now.",
        returns: "An iterator positioned at the oldest unconsumed CQE.",
        see: &["io_uring_cqe_iter_next", "io_uring_for_each_cqe", "io_uring_cq_advance"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_iter_next",
        kind: Function,
        prototype: "bool io_uring_cqe_iter_next(struct io_uring_cqe_iter *iter, struct io_uring_cqe **cqe)",
        about: "Move to the next CQE: true with *@cqe set, false once past the last.",
        returns: "true with *@cqe set to the next CQE, false when the iterator is exhausted.",
        see: &["io_uring_cqe_iter_init", "io_uring_for_each_cqe"],
        ..I
    },
    Inline {
        name: "io_uring_cqe_nr",
        kind: Function,
        prototype: "unsigned io_uring_cqe_nr(const struct io_uring_cqe *cqe)",
        about: "How many CQ slots @cqe fills: a 32-byte CQE on a mixed ring takes two.",
        returns: "1 or 2: the number of 16-byte CQ slots the entry occupies.",
        see: &["io_uring_cq_advance", "io_uring_setup(2)"],
        ..I
    },
    Inline {
        name: "io_uring_get_sqe128",
        kind: Function,
        prototype: "struct io_uring_sqe *io_uring_get_sqe128(struct io_uring *ring)",
        about: "A 128-byte SQE, or NULL. On IORING_SETUP_SQE128 rings that is any SQE. On IORING_SETUP_SQE_MIXED rings it is two adjacent 64-byte slots, which may not straddle the end of the array: when only the last slot is left before the end, it becomes a NOP that posts nothing on success, and the big SQE starts at slot 0. The request must use a 128-byte opcode, so that the kernel steps over both slots. Other rings: always NULL.",
        returns: "A pointer to a 128-byte SQE, or NULL when the SQ ring is full or the ring has no 128-byte entries. As with io_uring_get_sqe(), only some fields are reset to 0; user_data and the others keep what the slot held before.",
        notes: "IORING_SETUP_SQE_MIXED is recent: probe for it by asking io_uring_queue_init() for it and falling back on -EINVAL.",
        see: &["io_uring_get_sqe", "io_uring_prep_nop128", "io_uring_prep_uring_cmd128"],
        ..I
    },
    Inline {
        name: "io_uring_opcode_supported",
        kind: Function,
        prototype: "int io_uring_opcode_supported(const struct io_uring_probe *p, int op)",
        about: "Nonzero when the kernel that filled in @p supports opcode @op.",
        returns: "Nonzero when @op is below the probe's op count and flagged IO_URING_OP_SUPPORTED.",
        see: &["io_uring_get_probe", "io_uring_get_probe_ring", "io_uring_free_probe"],
        ..I
    },
    Inline {
        name: "io_uring_sq_ready",
        kind: Function,
        prototype: "unsigned io_uring_sq_ready(const struct io_uring *ring)",
        about: "SQEs handed out and not yet consumed by the kernel.",
        returns: "The number of SQEs not yet consumed by the kernel.",
        see: &["io_uring_sq_space_left", "io_uring_submit"],
        ..I
    },
    Inline {
        name: "io_uring_sq_space_left",
        kind: Function,
        prototype: "unsigned io_uring_sq_space_left(const struct io_uring *ring)",
        about: "Free SQ slots.",
        returns: "The number of SQEs io_uring_get_sqe() can still hand out before a submit. [check: sq-space-left]",
        see: &["io_uring_sq_ready", "io_uring_get_sqe"],
        ..I
    },
    Inline {
        name: "io_uring_sqring_wait",
        kind: Function,
        prototype: "int io_uring_sqring_wait(struct io_uring *ring)",
        about: "SQPOLL only: wait until the kernel thread has freed an SQ slot. Returns 0 straight away when there is room or the ring has no SQ thread.",
        returns: "0 when a slot is free, or a negative errno value from io_uring_enter(2).",
        notes: "Only useful with IORING_SETUP_SQPOLL (Linux 5.1; unprivileged from 5.11).",
        see: &["io_uring_sqpoll(7)", "io_uring_sq_space_left"],
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_mask",
        kind: Function,
        prototype: "int io_uring_buf_ring_mask(__u32 ring_entries)",
        about: "Index mask of a buffer ring with @ring_entries (a power of two) entries.",
        returns: "@ring_entries minus one.",
        see: BUF_RING,
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_init",
        kind: Function,
        prototype: "void io_uring_buf_ring_init(struct io_uring_buf_ring *br)",
        about: "Resets a buffer ring's tail to zero before the first buffers are added.",
        notes: "io_uring_setup_buf_ring() already does this; call it when you map the ring memory yourself and register it with io_uring_register_buf_ring().",
        see: &["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance", "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)", "io_uring_register_buf_ring"],
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_add",
        kind: Function,
        prototype: "void io_uring_buf_ring_add(struct io_uring_buf_ring *br, void *addr, unsigned int len, unsigned short bid, int mask, int buf_offset)",
        about: "Adds a buffer to a buffer ring. Buffer @bid (@len bytes at @addr) goes into @br, @offset entries past the current tail; the kernel does not see it until io_uring_buf_ring_advance() moves the tail.",
        notes: "@mask comes from io_uring_buf_ring_mask(). Adding several buffers and advancing once is cheaper than advancing per buffer.",
        see: &["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance", "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)", "io_uring_buf_ring_mask"],
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_advance",
        kind: Function,
        prototype: "void io_uring_buf_ring_advance(struct io_uring_buf_ring *br, int count)",
        about: "Hands added buffers to the kernel. The @count buffers written with io_uring_buf_ring_add() become visible when the ring's tail moves past them (a release store).",
        see: BUF_RING,
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_cq_advance",
        kind: Function,
        prototype: "void io_uring_buf_ring_cq_advance(struct io_uring *ring, struct io_uring_buf_ring *br, int count)",
        about: "Hands buffers back and consumes completions in one step. It publishes @count buffers added to @br and marks as many completions consumed: the usual way to give a provided buffer back after handling the completion that used it.",
        see: &["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance", "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)", "io_uring_cq_advance"],
        ..I
    },
    Inline {
        name: "__io_uring_buf_ring_cq_advance",
        kind: Function,
        prototype: "void __io_uring_buf_ring_cq_advance(struct io_uring *ring, struct io_uring_buf_ring *br, int cq_count, int buf_count)",
        about: "Publish @buf_count buffers, then hand back @cq_count CQ slots.",
        see: &["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance", "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)", "io_uring_cq_advance"],
        ..I
    },
    Inline {
        name: "io_uring_buf_ring_available",
        kind: Function,
        prototype: "int io_uring_buf_ring_available(struct io_uring *ring, struct io_uring_buf_ring *br, unsigned short bgid)",
        about: "Buffers of group @bgid published and not yet taken by the kernel, or -errno when the kernel cannot report its head.",
        returns: "The number of buffers the kernel has not consumed yet, or a negative errno value.",
        errors: "- EINVAL: group @bgid holds buffers given with IORING_OP_PROVIDE_BUFFERS rather than a ring, or the kernel cannot report a head (older than Linux 6.8). [check: err-io_uring_buf_ring_available-EINVAL]\n- ENOENT: no buffer group has that id. [check: err-io_uring_buf_ring_available-ENOENT]",
        see: &["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance", "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)", "io_uring_buf_ring_head"],
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_validate",
        kind: Function,
        prototype: "struct io_uring_recvmsg_out *io_uring_recvmsg_validate(void *buf, int buf_len, struct msghdr *msgh)",
        about: "Check that a @buf_len byte completion buffer can hold the header plus the name and control areas of @msgh; returns @buf as the header, or NULL.",
        returns: "@buf viewed as a struct io_uring_recvmsg_out, or NULL when it is too short.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_name",
        kind: Function,
        prototype: "void *io_uring_recvmsg_name(struct io_uring_recvmsg_out *o)",
        about: "Start of the source-address area, right after the header.",
        returns: "A pointer into the buffer.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_payload",
        kind: Function,
        prototype: "void *io_uring_recvmsg_payload(struct io_uring_recvmsg_out *o, struct msghdr *msgh)",
        about: "Start of the received data.",
        returns: "A pointer into the buffer.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_payload_length",
        kind: Function,
        prototype: "unsigned int io_uring_recvmsg_payload_length(struct io_uring_recvmsg_out *o, int buf_len, struct msghdr *msgh)",
        about: "Number of payload bytes in a @buf_len byte completion buffer.",
        returns: "A byte count.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_cmsg_firsthdr",
        kind: Function,
        prototype: "struct cmsghdr *io_uring_recvmsg_cmsg_firsthdr(struct io_uring_recvmsg_out *o, struct msghdr *msgh)",
        about: "First control message, or NULL if none fits in what was received.",
        returns: "A control message header inside the buffer, or NULL.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_recvmsg_cmsg_nexthdr",
        kind: Function,
        prototype: "struct cmsghdr *io_uring_recvmsg_cmsg_nexthdr(struct io_uring_recvmsg_out *o, struct msghdr *msgh, struct cmsghdr *cmsg)",
        about: "Control message following @cmsg, or NULL at the end.",
        returns: "A control message header inside the buffer, or NULL.",
        see: RECVMSG,
        ..I
    },
    Inline {
        name: "io_uring_for_each_cqe",
        kind: Macro,
        prototype: "#define io_uring_for_each_cqe(ring_, head_, cqe_)",
        about: "Walks the completions that are waiting in the CQ ring, oldest first, setting @cqe_ to each in turn, without waiting and without entering the kernel. The entries stay in the ring until the program hands them back. @head_ must be an unsigned variable; the loop stores the ring position of each entry in it, which only code written for older libraries still uses.",
        returns: "None: the macro is the head of a for statement; the loop body runs once per CQE with @cqe_ set.",
        notes: "The loop does not move the CQ head: finish with io_uring_cq_advance(ring, n) where n counts the entries visited (mixed rings: the slots, see io_uring_cqe_nr()).",
        see: &["io_uring_cq_advance", "io_uring_cqe_iter_init", "io_uring_peek_batch_cqe"],
        ..I
    },
    Inline {
        name: "IO_URING_CHECK_VERSION",
        kind: Macro,
        prototype: "#define IO_URING_CHECK_VERSION(major, minor)",
        about: "Compares the version of the headers at compile time. It is true when the headers a program is compiled with are older than @major.@minor, so that code needing a newer library can be left out at compile time. io_uring_check_version() asks the same of the library loaded at run time.",
        returns: "A constant expression usable in #if.",
        see: &["io_uring_check_version", "io_uring_major_version", "io_uring_minor_version"],
        ..I
    },
    Inline {
        name: "IO_URING_VERSION_MAJOR",
        kind: Macro,
        prototype: "#define IO_URING_VERSION_MAJOR",
        about: "The major version of the headers a program is compiled with, as an integer constant; <liburing/io_uring_version.h> defines it and <liburing.h> includes that file. With these headers it is 2.",
        returns: "An integer constant expression, usable in #if.",
        notes: "It tells what the program was compiled against. The library loaded when the program runs may be another release: io_uring_major_version() reports that one.",
        see: &["IO_URING_VERSION_MINOR", "IO_URING_CHECK_VERSION", "io_uring_major_version", "io_uring_versions(7)"],
        ..I
    },
    Inline {
        name: "IO_URING_VERSION_MINOR",
        kind: Macro,
        prototype: "#define IO_URING_VERSION_MINOR",
        about: "The minor version of the headers a program is compiled with, as an integer constant; <liburing/io_uring_version.h> defines it and <liburing.h> includes that file. With these headers it is 15, for release 2.15.",
        returns: "An integer constant expression, usable in #if.",
        notes: "Compare versions with IO_URING_CHECK_VERSION(), which handles the major version too, rather than with this number alone. io_uring_minor_version() reports the minor version of the library loaded at run time.",
        see: &["IO_URING_VERSION_MAJOR", "IO_URING_CHECK_VERSION", "io_uring_minor_version", "io_uring_versions(7)"],
        ..I
    },
    Inline {
        name: "io_uring_smp_load_acquire",
        kind: Macro,
        prototype: "#define io_uring_smp_load_acquire(p)",
        about: "Memory-ordering helpers for code that reads or writes ring fields shared with the kernel directly. The acquire load makes everything the kernel wrote before publishing a value visible; the release store publishes everything written before it; io_uring_smp_mb() is a full fence. IO_URING_READ_ONCE() and IO_URING_WRITE_ONCE() are relaxed atomic accesses: no tearing, no ordering.",
        returns: "io_uring_smp_load_acquire() and IO_URING_READ_ONCE() yield the value read; the others yield nothing useful.",
        notes: "In C they expand to <stdatomic.h> operations; C++ gets inline templates with the same names. The library's own helpers use them, so a program rarely needs them.",
        see: &["io_uring_cq_advance", "io_uring_buf_ring_advance", "io_uring(7)"],
        ..I
    },
    Inline {
        name: "io_uring_smp_store_release",
        kind: Macro,
        prototype: "#define io_uring_smp_store_release(p, v)",
        alias_of: Some("io_uring_smp_load_acquire"),
        ..I
    },
    Inline {
        name: "io_uring_smp_mb",
        kind: Macro,
        prototype: "#define io_uring_smp_mb()",
        alias_of: Some("io_uring_smp_load_acquire"),
        ..I
    },
    Inline {
        name: "IO_URING_READ_ONCE",
        kind: Macro,
        prototype: "#define IO_URING_READ_ONCE(var)",
        alias_of: Some("io_uring_smp_load_acquire"),
        ..I
    },
    Inline {
        name: "IO_URING_WRITE_ONCE",
        kind: Macro,
        prototype: "#define IO_URING_WRITE_ONCE(var, val)",
        alias_of: Some("io_uring_smp_load_acquire"),
        ..I
    },
];

/// The row of `name`.
pub fn row(name: &str) -> Option<&'static Inline> {
    INLINE.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests;
