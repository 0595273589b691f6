// SPDX-License-Identifier: MIT
//! Names for the per-opcode flag word of an SQE (`sqe->rw_flags` and its
//! aliases), so a trace line says `DATASYNC` rather than `0x1`.

use crate::uapi::*;

/// `RWF_*` of preadv2(2)/pwritev2(2), which the read and write opcodes take.
const RW: &[(&str, u32)] = &[
    ("RWF_HIPRI", 0x1),
    ("RWF_DSYNC", 0x2),
    ("RWF_SYNC", 0x4),
    ("RWF_NOWAIT", 0x8),
    ("RWF_APPEND", 0x10),
    ("RWF_NOAPPEND", 0x20),
    ("RWF_ATOMIC", 0x40),
    ("RWF_DONTCACHE", 0x80),
];

const FSYNC: &[(&str, u32)] = &[("DATASYNC", IORING_FSYNC_DATASYNC)];

const TIMEOUT: &[(&str, u32)] = &[
    ("ABS", IORING_TIMEOUT_ABS),
    ("UPDATE", IORING_TIMEOUT_UPDATE),
    ("BOOTTIME", IORING_TIMEOUT_BOOTTIME),
    ("REALTIME", IORING_TIMEOUT_REALTIME),
    ("LINK_TIMEOUT_UPDATE", IORING_LINK_TIMEOUT_UPDATE),
    ("ETIME_SUCCESS", IORING_TIMEOUT_ETIME_SUCCESS),
    ("MULTISHOT", IORING_TIMEOUT_MULTISHOT),
    ("IMMEDIATE_ARG", IORING_TIMEOUT_IMMEDIATE_ARG),
];

const CANCEL: &[(&str, u32)] = &[
    ("ALL", IORING_ASYNC_CANCEL_ALL),
    ("FD", IORING_ASYNC_CANCEL_FD),
    ("ANY", IORING_ASYNC_CANCEL_ANY),
    ("FD_FIXED", IORING_ASYNC_CANCEL_FD_FIXED),
    ("USERDATA", IORING_ASYNC_CANCEL_USERDATA),
    ("OP", IORING_ASYNC_CANCEL_OP),
];

const MSG_RING: &[(&str, u32)] = &[
    ("CQE_SKIP", IORING_MSG_RING_CQE_SKIP),
    ("FLAGS_PASS", IORING_MSG_RING_FLAGS_PASS),
];

const SPLICE: &[(&str, u32)] = &[
    ("SPLICE_F_MOVE", 0x1),
    ("SPLICE_F_NONBLOCK", 0x2),
    ("SPLICE_F_MORE", 0x4),
    ("SPLICE_F_GIFT", 0x8),
    ("FD_IN_FIXED", SPLICE_F_FD_IN_FIXED),
];

const URING_CMD: &[(&str, u32)] = &[("FIXED", IORING_URING_CMD_FIXED)];

/// The names of `opcode`'s flag word, when its bits are flags.
pub fn table(opcode: u8) -> Option<&'static [(&'static str, u32)]> {
    Some(match opcode {
        IORING_OP_READV
        | IORING_OP_WRITEV
        | IORING_OP_READ_FIXED
        | IORING_OP_WRITE_FIXED
        | IORING_OP_READ
        | IORING_OP_WRITE
        | IORING_OP_READV_FIXED
        | IORING_OP_WRITEV_FIXED => RW,
        IORING_OP_FSYNC => FSYNC,
        IORING_OP_TIMEOUT | IORING_OP_TIMEOUT_REMOVE | IORING_OP_LINK_TIMEOUT => TIMEOUT,
        IORING_OP_ASYNC_CANCEL => CANCEL,
        IORING_OP_MSG_RING => MSG_RING,
        IORING_OP_SPLICE | IORING_OP_TEE => SPLICE,
        IORING_OP_URING_CMD | IORING_OP_URING_CMD128 => URING_CMD,
        _ => return None,
    })
}

/// Calls `out` with each named bit of `bits`, then with the unnamed rest
/// (if any) as `None`.
pub fn for_each(opcode: u8, bits: u32, mut out: impl FnMut(Option<&'static str>, u32)) {
    let mut rest = bits;
    if let Some(t) = table(opcode) {
        for &(name, bit) in t {
            if bit != 0 && rest & bit == bit {
                out(Some(name), bit);
                rest &= !bit;
            }
        }
    }
    if rest != 0 {
        out(None, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsync_datasync_is_named() {
        let mut seen = [None; 2];
        let mut n = 0;
        for_each(IORING_OP_FSYNC, IORING_FSYNC_DATASYNC | 0x100, |name, v| {
            if let Some(s) = seen.get_mut(n) {
                *s = Some((name, v));
            }
            n += 1;
        });
        assert_eq!(seen, [Some((Some("DATASYNC"), 1)), Some((None, 0x100))]);
    }
}
