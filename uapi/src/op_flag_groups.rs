// SPDX-License-Identifier: MIT
//! The per-opcode flag words (`sqe->rw_flags` and its aliases) as named
//! groups: each bit with the short name a trace line shows. An opcode row of
//! [`OPCODES`] names its group (`[file, flags(FSYNC)]`).
//!
//! The names of io_uring's own flags come from their constants, with the
//! group's prefix cut off (`IORING_FSYNC_DATASYNC` is `DATASYNC`); the flags
//! other headers define (`RWF_*` of `linux/fs.h`, `SPLICE_F_*` of
//! `fcntl.h`) are declared here, once, with their full names.

use crate::*;

/// The named bits of one per-opcode flag word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagGroup {
    /// The name the SQE gives the word for these opcodes (`fsync_flags`).
    pub field: &'static str,
    /// Each flag: its short name and its bit(s).
    pub names: &'static [(&'static str, u32)],
}

/// `name` without `prefix`; a constant that lacks it stops the build.
const fn strip(name: &'static str, prefix: &str) -> &'static str {
    let (n, p) = (name.as_bytes(), prefix.as_bytes());
    assert!(n.len() > p.len(), "flag name shorter than its prefix");
    let mut i = 0;
    while i < p.len() {
        assert!(n[i] == p[i], "flag name lacks the group's prefix");
        i += 1;
    }
    match core::str::from_utf8(n.split_at(p.len()).1) {
        Ok(s) => s,
        Err(_) => panic!("flag name is not UTF-8"),
    }
}

/// `(short name, value)` of an io_uring flag constant.
macro_rules! short {
    ($prefix:literal, $c:ident) => {
        (strip(stringify!($c), $prefix), $c)
    };
}

/// `RWF_*` of preadv2(2)/pwritev2(2), which the read and write opcodes take.
pub const RW: FlagGroup = FlagGroup {
    field: "rw_flags",
    names: &[
        ("RWF_HIPRI", 0x1),
        ("RWF_DSYNC", 0x2),
        ("RWF_SYNC", 0x4),
        ("RWF_NOWAIT", 0x8),
        ("RWF_APPEND", 0x10),
        ("RWF_NOAPPEND", 0x20),
        ("RWF_ATOMIC", 0x40),
        ("RWF_DONTCACHE", 0x80),
    ],
};

/// `IORING_FSYNC_*`.
pub const FSYNC: FlagGroup = FlagGroup {
    field: "fsync_flags",
    names: &[short!("IORING_FSYNC_", IORING_FSYNC_DATASYNC)],
};

/// `IORING_TIMEOUT_*` and `IORING_LINK_TIMEOUT_UPDATE`.
pub const TIMEOUT: FlagGroup = FlagGroup {
    field: "timeout_flags",
    names: &[
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_ABS),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_UPDATE),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_BOOTTIME),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_REALTIME),
        short!("IORING_", IORING_LINK_TIMEOUT_UPDATE),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_ETIME_SUCCESS),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_MULTISHOT),
        short!("IORING_TIMEOUT_", IORING_TIMEOUT_IMMEDIATE_ARG),
    ],
};

/// `IORING_ASYNC_CANCEL_*`.
pub const CANCEL: FlagGroup = FlagGroup {
    field: "cancel_flags",
    names: &[
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_ALL),
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_FD),
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_ANY),
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_FD_FIXED),
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_USERDATA),
        short!("IORING_ASYNC_CANCEL_", IORING_ASYNC_CANCEL_OP),
    ],
};

/// `IORING_MSG_RING_*`.
pub const MSG_RING: FlagGroup = FlagGroup {
    field: "msg_ring_flags",
    names: &[
        short!("IORING_MSG_RING_", IORING_MSG_RING_CQE_SKIP),
        short!("IORING_MSG_RING_", IORING_MSG_RING_FLAGS_PASS),
    ],
};

/// `SPLICE_F_*` of splice(2), and io_uring's `SPLICE_F_FD_IN_FIXED`.
pub const SPLICE: FlagGroup = FlagGroup {
    field: "splice_flags",
    names: &[
        ("SPLICE_F_MOVE", 0x1),
        ("SPLICE_F_NONBLOCK", 0x2),
        ("SPLICE_F_MORE", 0x4),
        ("SPLICE_F_GIFT", 0x8),
        short!("SPLICE_F_", SPLICE_F_FD_IN_FIXED),
    ],
};

/// `IORING_URING_CMD_*` (without the mask).
pub const URING_CMD: FlagGroup = FlagGroup {
    field: "uring_cmd_flags",
    names: &[
        short!("IORING_URING_CMD_", IORING_URING_CMD_FIXED),
        short!("IORING_URING_CMD_", IORING_URING_CMD_MULTISHOT),
    ],
};

#[cfg(test)]
mod tests;
