# SPDX-License-Identifier: MIT
"""Reference text for the helpers liburing.h defines by hand (inline
functions that are not SQE preparers, and the public function-like macros).

Their short description is the comment above the definition in our headers
(read by sources.py), so a reader of the header and of the page see the same
words; this table adds only what a page needs beyond it. Keys:
  about    the description, for a definition without a header comment
  returns  RETURN VALUE
  errors   ERRORS, as "- ECODE: when" lines
  notes    NOTES
  see      SEE ALSO names (pages of this manual or section 2)
  alias_of the page that documents this name too (a `.so` page)
"""

CQE = ["io_uring_wait_cqe", "io_uring_peek_cqe", "io_uring_cqe_seen", "io_uring_for_each_cqe"]
BUF_RING = ["io_uring_setup_buf_ring", "io_uring_buf_ring_add", "io_uring_buf_ring_advance",
            "io_uring_buf_ring_cq_advance", "io_uring_provided_buffers(7)"]
RECVMSG = ["io_uring_prep_recvmsg_multishot", "io_uring_recvmsg_validate",
           "io_uring_recvmsg_name", "io_uring_recvmsg_payload",
           "io_uring_recvmsg_payload_length", "io_uring_recvmsg_cmsg_firsthdr"]
BARRIERS = ["io_uring_smp_load_acquire", "io_uring_smp_store_release", "io_uring_smp_mb",
            "IO_URING_READ_ONCE", "IO_URING_WRITE_ONCE"]

INLINE = {
    "io_uring_peek_cqe": dict(
        about="Looks for a completion without waiting: when the CQ ring holds one, a "
              "pointer to the oldest is stored in *@cqe_ptr.",
        returns="0 with a CQE stored in *@cqe_ptr, or -EAGAIN when no completion is waiting. "
                "The call never blocks and enters the kernel only when completions are held "
                "back there (CQ overflow, or task work on a DEFER_TASKRUN ring).",
        errors="- EAGAIN: the CQ ring holds no completion for the application.",
        notes="The CQE stays in the ring until io_uring_cqe_seen() or io_uring_cq_advance() "
              "hands its slot back; read what you need from it first.",
        see=CQE + ["io_uring_cq_ready"]),
    "__io_uring_peek_cqe": dict(
        returns="0, with *@cqe_ptr set to a CQE or NULL, or the negative error of a failed "
                "internal timeout.",
        notes="Programs should call io_uring_peek_cqe() or io_uring_wait_cqe(); this name is "
              "exported for binaries built against older headers.",
        see=["io_uring_peek_cqe", "io_uring_wait_cqe"]),
    "io_uring_wait_cqe": dict(
        about="Waits for a completion. A pointer to the oldest one in the CQ ring is "
              "stored in *@cqe_ptr; when one is there already, the call returns at once "
              "without entering the kernel. The CQE stays in the ring until "
              "io_uring_cqe_seen() hands its slot back.",
        returns="0 with a CQE in *@cqe_ptr, or a negative errno value; on a failure "
                "*@cqe_ptr is not meaningful.",
        errors="- EINTR: a signal arrived while waiting.\n"
               "- EAGAIN: no completion was found after waiting (possible with SQPOLL).\n"
               "- EBADR: completions were dropped because the CQ ring overflowed and the "
               "kernel could not keep them.",
        notes="On a ring set up with IORING_SETUP_DEFER_TASKRUN the kernel runs completion "
              "work only when the task that submitted waits or calls io_uring_get_events(); "
              "this call does that for you.",
        see=CQE + ["io_uring_wait_cqe_timeout", "io_uring_enter(2)"]),
    "io_uring_wait_cqe_nr": dict(
        returns="0 with the first CQE in *@cqe_ptr, or a negative errno value.",
        errors="- EINTR: a signal arrived while waiting.",
        see=CQE + ["io_uring_wait_cqes"]),
    "io_uring_cqe_seen": dict(
        about="Marks a completion as consumed, so that the kernel may reuse its slot. "
              "@cqe comes from io_uring_peek_cqe() or one of the wait functions; read "
              "everything needed from it before this call. A NULL @cqe is ignored.",
        notes="Forgetting this call fills the CQ ring; the kernel then keeps further "
              "completions on an overflow list and io_uring_cq_has_overflow() turns true.",
        see=CQE + ["io_uring_cq_advance"]),
    "io_uring_cq_advance": dict(
        about="Marks several completions as consumed at once: the @nr oldest of the CQ "
              "ring, whose slots the kernel may then reuse.",
        notes="Use it after reading a batch with io_uring_for_each_cqe() or "
              "io_uring_peek_batch_cqe(); one release store serves the whole batch.",
        see=CQE + ["io_uring_peek_batch_cqe"]),
    "io_uring_cqe_get_data": dict(
        returns="The pointer stored with io_uring_sqe_set_data(), or whatever pointer the "
                "64-bit user_data field holds.",
        see=["io_uring_sqe_set_data", "io_uring_cqe_get_data64"]),
    "io_uring_cqe_get_data64": dict(
        returns="The user_data value of the CQE.",
        see=["io_uring_sqe_set_data64", "io_uring_cqe_get_data"]),
    "io_uring_cq_ready": dict(
        returns="The number of CQEs that can be read without entering the kernel.",
        see=["io_uring_cq_advance", "io_uring_sq_ready"]),
    "io_uring_cq_has_overflow": dict(
        returns="true when the kernel reports IORING_SQ_CQ_OVERFLOW.",
        notes="Consume completions, then call io_uring_get_events() (or any wait) so the "
              "kernel moves the held-back CQEs into the ring.",
        see=["io_uring_get_events", "io_uring_cq_ready"]),
    "io_uring_cq_eventfd_enabled": dict(
        about="Tells whether the registered eventfd is signalled. It is, for new "
              "completions, unless io_uring_cq_eventfd_toggle() switched that off.",
        returns="true when a registered eventfd is signalled for new completions.",
        see=["io_uring_cq_eventfd_toggle", "io_uring_register_eventfd"]),
    "io_uring_cq_eventfd_toggle": dict(
        about="Switches eventfd signalling on or off. With @enabled false the eventfd "
              "registered with io_uring_register_eventfd() stays quiet, for example while "
              "the program drains the CQ ring anyway.",
        returns="0 once the flag is as asked; -EOPNOTSUPP on kernels without the switch.",
        errors="- EOPNOTSUPP: the kernel has no CQ flags word (before Linux 5.8), so "
               "notifications cannot be switched off.",
        notes="The switch is the IORING_CQ_EVENTFD_DISABLED bit of the CQ ring's flags, so "
              "it costs no system call.",
        see=["io_uring_cq_eventfd_enabled", "io_uring_register_eventfd"]),
    "io_uring_cqe_iter_init": dict(
        returns="An iterator positioned at the oldest unconsumed CQE.",
        see=["io_uring_cqe_iter_next", "io_uring_for_each_cqe", "io_uring_cq_advance"]),
    "io_uring_cqe_iter_next": dict(
        returns="true with *@cqe set to the next CQE, false when the iterator is exhausted.",
        see=["io_uring_cqe_iter_init", "io_uring_for_each_cqe"]),
    "io_uring_cqe_nr": dict(
        returns="1 or 2: the number of 16-byte CQ slots the entry occupies.",
        see=["io_uring_cq_advance", "io_uring_setup(2)"]),
    "io_uring_get_sqe128": dict(
        returns="A pointer to a cleared 128-byte SQE, or NULL when the SQ ring is full or "
                "the ring has no 128-byte entries.",
        notes="IORING_SETUP_SQE_MIXED is recent: probe for it by asking io_uring_queue_init() "
              "for it and falling back on -EINVAL.",
        see=["io_uring_get_sqe", "io_uring_prep_nop128", "io_uring_prep_uring_cmd128"]),
    "io_uring_opcode_supported": dict(
        returns="Nonzero when @op is below the probe's op count and flagged IO_URING_OP_SUPPORTED.",
        see=["io_uring_get_probe", "io_uring_get_probe_ring", "io_uring_free_probe"]),
    "io_uring_sq_ready": dict(
        returns="The number of SQEs not yet consumed by the kernel.",
        see=["io_uring_sq_space_left", "io_uring_submit"]),
    "io_uring_sq_space_left": dict(
        returns="The number of SQEs io_uring_get_sqe() can still hand out before a submit.",
        see=["io_uring_sq_ready", "io_uring_get_sqe"]),
    "io_uring_sqring_wait": dict(
        returns="0 when a slot is free, or a negative errno value from io_uring_enter(2).",
        notes="Only useful with IORING_SETUP_SQPOLL (Linux 5.1; unprivileged from 5.11).",
        see=["io_uring_sqpoll(7)", "io_uring_sq_space_left"]),
    "io_uring_buf_ring_mask": dict(
        returns="@ring_entries minus one.",
        see=BUF_RING),
    "io_uring_buf_ring_init": dict(
        about="Resets a buffer ring's tail to zero before the first buffers are added.",
        notes="io_uring_setup_buf_ring() already does this; call it when you map the ring "
              "memory yourself and register it with io_uring_register_buf_ring().",
        see=BUF_RING + ["io_uring_register_buf_ring"]),
    "io_uring_buf_ring_add": dict(
        about="Adds a buffer to a buffer ring. Buffer @bid (@len bytes at @addr) goes "
              "into @br, @offset entries past the current tail; the kernel does not see it until "
              "io_uring_buf_ring_advance() moves the tail.",
        notes="@mask comes from io_uring_buf_ring_mask(). Adding several buffers and "
              "advancing once is cheaper than advancing per buffer.",
        see=BUF_RING + ["io_uring_buf_ring_mask"]),
    "io_uring_buf_ring_advance": dict(
        about="Hands added buffers to the kernel. The @count buffers written with "
              "io_uring_buf_ring_add() become visible when the ring's tail moves past them "
              "(a release store).",
        see=BUF_RING),
    "io_uring_buf_ring_cq_advance": dict(
        about="Hands buffers back and consumes completions in one step. It publishes "
              "@count buffers added to @br and marks as many completions consumed: the usual "
              "way to give a provided buffer back after "
              "handling the completion that used it.",
        see=BUF_RING + ["io_uring_cq_advance"]),
    "__io_uring_buf_ring_cq_advance": dict(see=BUF_RING + ["io_uring_cq_advance"]),
    "io_uring_buf_ring_available": dict(
        returns="The number of buffers the kernel has not consumed yet, or a negative errno "
                "value.",
        errors="- EINVAL: no buffer ring is registered under @bgid, or the kernel "
               "cannot report a head (older than Linux 6.8).",
        see=BUF_RING + ["io_uring_buf_ring_head"]),
    "io_uring_recvmsg_validate": dict(
        returns="@buf viewed as a struct io_uring_recvmsg_out, or NULL when it is too short.",
        see=RECVMSG),
    "io_uring_recvmsg_name": dict(returns="A pointer into the buffer.", see=RECVMSG),
    "io_uring_recvmsg_payload": dict(returns="A pointer into the buffer.", see=RECVMSG),
    "io_uring_recvmsg_payload_length": dict(returns="A byte count.", see=RECVMSG),
    "io_uring_recvmsg_cmsg_firsthdr": dict(
        returns="A control message header inside the buffer, or NULL.", see=RECVMSG),
    "io_uring_recvmsg_cmsg_nexthdr": dict(
        returns="A control message header inside the buffer, or NULL.", see=RECVMSG),
    # ---- macros
    "io_uring_for_each_cqe": dict(
        about="Walks the completions that are waiting in the CQ ring, oldest first, "
              "setting @cqe_ to each in turn, without waiting and without entering the "
              "kernel. The entries stay in the ring until the program hands them back. "
              "@head_ must be an unsigned variable; the loop stores the ring position of "
              "each entry in it, which only code written for older libraries still uses.",
        returns="None: the macro is the head of a for statement; the loop body runs once "
                "per CQE with @cqe_ set.",
        notes="The loop does not move the CQ head: finish with io_uring_cq_advance(ring, n) "
              "where n counts the entries visited (mixed rings: the slots, see "
              "io_uring_cqe_nr()).",
        see=["io_uring_cq_advance", "io_uring_cqe_iter_init", "io_uring_peek_batch_cqe"]),
    "IO_URING_CHECK_VERSION": dict(
        about="Compares the version of the headers at compile time. It is true when "
              "the headers a program is compiled with are older than @major.@minor, so that code needing a newer library can "
              "be left out at compile time. io_uring_check_version() asks the same of the "
              "library loaded at run time.",
        returns="A constant expression usable in #if.",
        see=["io_uring_check_version", "io_uring_major_version", "io_uring_minor_version"]),
    "io_uring_smp_load_acquire": dict(
        about="Memory-ordering helpers for code that reads or writes ring fields shared with "
              "the kernel directly. The acquire load makes everything the kernel wrote "
              "before publishing a value visible; the release store publishes everything "
              "written before it; io_uring_smp_mb() is a full fence. IO_URING_READ_ONCE() "
              "and IO_URING_WRITE_ONCE() are relaxed atomic accesses: no tearing, no "
              "ordering.",
        returns="io_uring_smp_load_acquire() and IO_URING_READ_ONCE() yield the value "
                "read; the others yield nothing useful.",
        notes="In C they expand to <stdatomic.h> operations; C++ gets inline templates with "
              "the same names. The library's own helpers use them, so a program rarely "
              "needs them.",
        see=["io_uring_cq_advance", "io_uring_buf_ring_advance", "io_uring(7)"]),
    "io_uring_smp_store_release": dict(alias_of="io_uring_smp_load_acquire"),
    "io_uring_smp_mb": dict(alias_of="io_uring_smp_load_acquire"),
    "IO_URING_READ_ONCE": dict(alias_of="io_uring_smp_load_acquire"),
    "IO_URING_WRITE_ONCE": dict(alias_of="io_uring_smp_load_acquire"),
}
