// SPDX-License-Identifier: MIT
//! Page contents that are choices of the manual, not facts of a source:
//! which example each main section 3 page shows, and which kernel
//! interface a registration function needs.

/// The EXAMPLES of section 3 pages: the main page of each family shows a
/// compiled example of `man/examples/` (`make check-man` builds and runs
/// each), introduced by a sentence of its own: (page, example, sentence).
pub const SECTION3_EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "io_uring_queue_init",
        "queue_init.c",
        "Setting up a ring and reading back the sizes and features the kernel granted:",
    ),
    (
        "io_uring_queue_init_params",
        "setup_fallback.c",
        "Asking for the newest setup flags and dropping them while an older kernel refuses them:",
    ),
    (
        "io_uring_submit",
        "submit_wait.c",
        "One write and one read, each submitted and then reaped; the tag in user_data tells the completions apart:",
    ),
    (
        "io_uring_wait_cqe",
        "submit_wait.c",
        "Waiting for each request in turn and checking its result:",
    ),
    (
        "io_uring_submit_and_wait",
        "fixed_buffers.c",
        "Submitting two requests and waiting for both with one call:",
    ),
    (
        "io_uring_for_each_cqe",
        "defer_taskrun_server.c",
        "Reaping a batch of completions with the loop and one io_uring_cq_advance():",
    ),
    (
        "io_uring_prep_read",
        "submit_wait.c",
        "A write and a read of a temporary file:",
    ),
    (
        "io_uring_prep_write",
        "submit_wait.c",
        "A write and a read of a temporary file:",
    ),
    (
        "io_uring_prep_send",
        "socket_send_recv.c",
        "A receive and a send on a socket pair in one submission:",
    ),
    (
        "io_uring_prep_recv",
        "socket_send_recv.c",
        "A receive queued before the send that feeds it:",
    ),
    (
        "io_uring_prep_timeout",
        "timeout.c",
        "A timer that expires, and a timeout that ends early because another request completed:",
    ),
    (
        "io_uring_prep_link_timeout",
        "linked_requests.c",
        "A chain of linked requests guarded by a timeout:",
    ),
    (
        "io_uring_sqe_set_flags",
        "linked_requests.c",
        "Linking requests with IOSQE_IO_LINK:",
    ),
    (
        "io_uring_prep_openat_direct",
        "openat_close.c",
        "Opening a file into a registered slot, then using and closing it by index:",
    ),
    (
        "io_uring_prep_close_direct",
        "openat_close.c",
        "Closing a registered slot at the end of a chain:",
    ),
    (
        "io_uring_prep_cancel64",
        "cancel_read.c",
        "Canceling a read that would wait forever:",
    ),
    (
        "io_uring_prep_poll_multishot",
        "multishot_poll.c",
        "One poll request that reports every time the descriptor becomes readable:",
    ),
    (
        "io_uring_prep_send_zc",
        "send_zc.c",
        "A zero-copy send: the data may change only after the notification CQE:",
    ),
    (
        "io_uring_prep_multishot_accept",
        "accept_multishot.c",
        "One accept request that serves several connections:",
    ),
    (
        "io_uring_prep_msg_ring",
        "msg_ring.c",
        "Posting a completion from one ring into another:",
    ),
    (
        "io_uring_prep_futex_wait",
        "futex_wait_wake.c",
        "A futex wait ended by a futex wake, both submitted to one ring:",
    ),
    (
        "io_uring_prep_splice",
        "splice_file.c",
        "Moving a file's data into a pipe:",
    ),
    (
        "io_uring_prep_read_fixed",
        "fixed_buffers.c",
        "Writing and reading through a registered buffer:",
    ),
    (
        "io_uring_register_files",
        "fixed_files.c",
        "Registering two files and using them by index:",
    ),
    (
        "io_uring_register_buffers",
        "fixed_buffers.c",
        "Registering a buffer and reading into it with io_uring_prep_read_fixed():",
    ),
    (
        "io_uring_setup_buf_ring",
        "buffer_ring_recv.c",
        "A receive that takes its buffer from a ring of provided buffers:",
    ),
    (
        "io_uring_get_probe_ring",
        "probe_features.c",
        "Asking which opcodes the running kernel supports:",
    ),
    (
        "io_uring_register_ifq",
        "zcrx_setup.c",
        "Registering a zero-copy receive queue (skipped where the network device cannot do it):",
    ),
];

/// The kernel interface behind each registration function, so that its
/// page can say which kernel it needs (the release comes from the
/// kernel-release table). The pass-through registration calls name theirs
/// in their own rows (`crate::register_calls`).
pub const CAPI_KERNEL_NAME: &[(&str, &str)] = &[
    ("io_uring_register_buffers_tags", "IORING_REGISTER_BUFFERS2"),
    (
        "io_uring_register_buffers_sparse",
        "IORING_RSRC_REGISTER_SPARSE",
    ),
    (
        "io_uring_register_buffers_update_tag",
        "IORING_REGISTER_BUFFERS_UPDATE",
    ),
    ("io_uring_register_files_tags", "IORING_REGISTER_FILES2"),
    (
        "io_uring_register_files_sparse",
        "IORING_RSRC_REGISTER_SPARSE",
    ),
    (
        "io_uring_register_files_update",
        "IORING_REGISTER_FILES_UPDATE",
    ),
    (
        "io_uring_register_files_update_tag",
        "IORING_REGISTER_FILES_UPDATE2",
    ),
    (
        "io_uring_register_file_alloc_range",
        "IORING_REGISTER_FILE_ALLOC_RANGE",
    ),
    ("io_uring_get_probe", "IORING_REGISTER_PROBE"),
    ("io_uring_get_probe_ring", "IORING_REGISTER_PROBE"),
    ("io_uring_register_ring_fd", "IORING_REGISTER_RING_FDS"),
    ("io_uring_unregister_ring_fd", "IORING_UNREGISTER_RING_FDS"),
    ("io_uring_register_buf_ring", "IORING_REGISTER_PBUF_RING"),
    (
        "io_uring_unregister_buf_ring",
        "IORING_UNREGISTER_PBUF_RING",
    ),
    ("io_uring_setup_buf_ring", "IORING_REGISTER_PBUF_RING"),
    ("io_uring_free_buf_ring", "IORING_UNREGISTER_PBUF_RING"),
    ("io_uring_buf_ring_head", "IORING_REGISTER_PBUF_STATUS"),
    ("io_uring_clone_buffers", "IORING_REGISTER_CLONE_BUFFERS"),
    // Offsets and ranges came a release after cloning itself, with the
    // replace flag.
    (
        "io_uring_clone_buffers_offset",
        "IORING_REGISTER_DST_REPLACE",
    ),
    ("io_uring_resize_rings", "IORING_REGISTER_RESIZE_RINGS"),
    ("io_uring_set_iowait", "IORING_FEAT_NO_IOWAIT"),
];
