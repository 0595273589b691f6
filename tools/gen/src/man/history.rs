// SPDX-License-Identifier: MIT
//! HISTORY sections: the symbol version node a name is exported under,
//! named as a node, and the first liburing release only where liburing's
//! own record says which it was.
//!
//! The evidence, as facts read from liburing 2.15's source package:
//! - its version scripts: `liburing.map` has one node per release from 2.1
//!   on, each holding what that release added; its oldest node, 2.0, holds
//!   everything older too. `liburing-ffi.map` (liburing-ffi first shipped in
//!   2.4) starts with a 2.4 node that holds every inline helper of 2.4 and
//!   earlier; a few of its entries carry a comment with the release that
//!   added them ([`MAP_COMMENTS`]);
//! - its CHANGELOG (2.2 to 2.9), where a release names a function it added
//!   ([`CHANGELOG`]).

use std::collections::BTreeMap;

/// Entries of liburing-ffi.map whose comment names the release that added
/// them (which differs from their node).
const MAP_COMMENTS: &[(&str, &str)] = &[
    ("io_uring_register_napi", "2.6"),
    ("io_uring_unregister_napi", "2.6"),
    ("io_uring_prep_read_multishot", "2.6"),
    ("io_uring_prep_waitid", "2.6"),
    ("io_uring_prep_futex_wake", "2.6"),
    ("io_uring_prep_futex_wait", "2.6"),
    ("io_uring_prep_futex_waitv", "2.6"),
];

/// Functions liburing's CHANGELOG names under the release that added them.
const CHANGELOG: &[(&str, &str)] = &[
    ("io_uring_submit_and_wait_timeout", "2.2"),
    ("io_uring_prep_readv2", "2.2"),
    ("io_uring_prep_writev2", "2.2"),
    ("io_uring_prep_close_direct", "2.2"),
    ("io_uring_register_ring_fd", "2.2"),
    ("io_uring_enter", "2.3"),
    ("io_uring_enter2", "2.3"),
    ("io_uring_register", "2.3"),
    ("io_uring_setup", "2.3"),
    ("io_uring_register_sync_cancel", "2.3"),
    ("io_uring_major_version", "2.4"),
    ("io_uring_minor_version", "2.4"),
    ("io_uring_check_version", "2.4"),
    ("io_uring_prep_msg_ring_cqe_flags", "2.4"),
    ("io_uring_close_ring_fd", "2.4"),
    ("io_uring_prep_msg_ring_fd_alloc", "2.4"),
    ("io_uring_free_buf_ring", "2.4"),
    ("io_uring_setup_buf_ring", "2.4"),
    ("io_uring_prep_sendto", "2.4"),
    ("io_uring_queue_init_mem", "2.5"),
    ("io_uring_prep_fixed_fd_install", "2.6"),
    ("io_uring_prep_madvise64", "2.7"),
    ("io_uring_prep_fadvise64", "2.7"),
    ("io_uring_prep_bind", "2.7"),
    ("io_uring_prep_listen", "2.7"),
    ("io_uring_prep_cmd_discard", "2.8"),
];

/// Names whose record disagrees with itself: the text says so instead of
/// picking one.
const CONFLICTING: &[(&str, &str)] = &[(
    "io_uring_prep_cmd_sock",
    "liburing's CHANGELOG lists it under both 2.4 and 2.5, and a comment in \
     its liburing-ffi.map says it was added in 2.5 and exported in 2.6",
)];

fn lookup<'a>(table: &'a [(&str, &'a str)], name: &str) -> Option<&'a str> {
    table.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// The HISTORY sentences of `name`, exported under `node` of liburing.map
/// (`in_liburing`) or else of liburing-ffi.map only (an inline helper).
pub fn text(name: &str, node: &str, in_liburing: bool) -> String {
    let node_text = if in_liburing {
        format!("Exported under the symbol version node LIBURING_{node}.")
    } else {
        format!(
            "An inline function of <liburing.h>; liburing-ffi exports it under the symbol \
             version node LIBURING_{node}."
        )
    };
    let oldest_node = if in_liburing { "2.0" } else { "2.4" };
    let first = if let Some((_, why)) = CONFLICTING.iter().find(|(n, _)| *n == name) {
        format!("Its first liburing release is not established: {why}.")
    } else if let Some(r) = lookup(MAP_COMMENTS, name) {
        format!(
            "It was added in liburing {r} (a comment in liburing's liburing-ffi.map says \
             so; the node is older)."
        )
    } else if let Some(r) = lookup(CHANGELOG, name) {
        format!("It was added in liburing {r} (liburing's CHANGELOG).")
    } else if node != oldest_node && in_liburing {
        format!("It was added in liburing {node}, the release that node belongs to.")
    } else if node != oldest_node {
        format!(
            "The node is named after liburing {node}, but for inline helpers that is no \
             proof of the release that added them (liburing-ffi.map notes helpers of its 2.5 \
             node that came in 2.6); the first release is not established here."
        )
    } else if in_liburing {
        "LIBURING_2.0 is the oldest node of liburing's version script and also holds \
         functions older than liburing 2.0; when this one first appeared is not \
         established here."
            .to_string()
    } else {
        "LIBURING_2.4 is the oldest node of liburing-ffi (first shipped with liburing 2.4) \
         and holds every inline helper of 2.4 and older; when this one first appeared in \
         <liburing.h> is not established here."
            .to_string()
    };
    format!("{node_text} {first}")
}

/// Evidence names that no version script exports would be a stale table.
pub fn check_tables(exported: &BTreeMap<String, (String, bool)>) {
    for (n, _) in MAP_COMMENTS.iter().chain(CHANGELOG).chain(CONFLICTING) {
        if !exported.contains_key(*n) {
            crate::fail(&format!("man/history.rs: {n} is exported by neither map"));
        }
    }
}

#[test]
fn node_and_release_are_told_apart() {
    let t = text("io_uring_queue_init", "2.0", true);
    assert!(t.contains("LIBURING_2.0"));
    assert!(!t.contains("Added in liburing 2.0"));
    let t = text("io_uring_prep_waitid", "2.5", false);
    assert!(t.contains("added in liburing 2.6"));
    let t = text("io_uring_prep_nop", "2.4", false);
    assert!(t.contains("not established"));
    assert!(!t.contains("and earlier releases"));
    let t = text("io_uring_setup_buf_ring", "2.4", true);
    assert!(t.contains("added in liburing 2.4 (liburing's CHANGELOG)"));
}
