// SPDX-License-Identifier: MIT
//! The Linux release that introduced each setup flag and registration
//! opcode (from the io_uring_setup(2) and io_uring_register(2) man pages and
//! the kernel's history), keyed by the uapi constants themselves so a
//! renamed or renumbered constant cannot silently drift from its entry.

use crate::uapi::*;

/// (setup flag, (major, minor)) for every `IORING_SETUP_*` flag.
pub const SETUP_FLAGS: &[(u32, (u32, u32))] = &[
    (IORING_SETUP_IOPOLL, (5, 1)),
    (IORING_SETUP_SQPOLL, (5, 1)),
    (IORING_SETUP_SQ_AFF, (5, 1)),
    (IORING_SETUP_CQSIZE, (5, 5)),
    (IORING_SETUP_CLAMP, (5, 6)),
    (IORING_SETUP_ATTACH_WQ, (5, 6)),
    (IORING_SETUP_R_DISABLED, (5, 10)),
    (IORING_SETUP_SUBMIT_ALL, (5, 18)),
    (IORING_SETUP_COOP_TASKRUN, (5, 19)),
    (IORING_SETUP_TASKRUN_FLAG, (5, 19)),
    (IORING_SETUP_SQE128, (5, 19)),
    (IORING_SETUP_CQE32, (5, 19)),
    (IORING_SETUP_SINGLE_ISSUER, (6, 0)),
    (IORING_SETUP_DEFER_TASKRUN, (6, 1)),
    (IORING_SETUP_NO_MMAP, (6, 5)),
    (IORING_SETUP_REGISTERED_FD_ONLY, (6, 5)),
    (IORING_SETUP_NO_SQARRAY, (6, 6)),
    (IORING_SETUP_HYBRID_IOPOLL, (6, 13)),
    (IORING_SETUP_CQE_MIXED, (6, 18)),
    (IORING_SETUP_SQE_MIXED, (6, 19)),
    (IORING_SETUP_SQ_REWIND, (7, 0)),
];

/// (register opcode, (major, minor)) for the registration opcodes.
pub const REGISTER_OPS: &[(u32, (u32, u32))] = &[
    (IORING_REGISTER_BUFFERS, (5, 1)),
    (IORING_UNREGISTER_BUFFERS, (5, 1)),
    (IORING_REGISTER_FILES, (5, 1)),
    (IORING_UNREGISTER_FILES, (5, 1)),
    (IORING_REGISTER_EVENTFD, (5, 2)),
    (IORING_UNREGISTER_EVENTFD, (5, 2)),
    (IORING_REGISTER_FILES_UPDATE, (5, 5)),
    (IORING_REGISTER_EVENTFD_ASYNC, (5, 6)),
    (IORING_REGISTER_PROBE, (5, 6)),
    (IORING_REGISTER_PERSONALITY, (5, 6)),
    (IORING_UNREGISTER_PERSONALITY, (5, 6)),
    (IORING_REGISTER_RESTRICTIONS, (5, 10)),
    (IORING_REGISTER_ENABLE_RINGS, (5, 10)),
    (IORING_REGISTER_FILES2, (5, 13)),
    (IORING_REGISTER_FILES_UPDATE2, (5, 13)),
    (IORING_REGISTER_BUFFERS2, (5, 13)),
    (IORING_REGISTER_BUFFERS_UPDATE, (5, 13)),
    (IORING_REGISTER_IOWQ_AFF, (5, 14)),
    (IORING_UNREGISTER_IOWQ_AFF, (5, 14)),
    (IORING_REGISTER_IOWQ_MAX_WORKERS, (5, 15)),
    (IORING_REGISTER_RING_FDS, (5, 18)),
    (IORING_UNREGISTER_RING_FDS, (5, 18)),
    (IORING_REGISTER_PBUF_RING, (5, 19)),
    (IORING_UNREGISTER_PBUF_RING, (5, 19)),
    (IORING_REGISTER_SYNC_CANCEL, (6, 0)),
    (IORING_REGISTER_FILE_ALLOC_RANGE, (6, 0)),
    (IORING_REGISTER_PBUF_STATUS, (6, 8)),
    (IORING_REGISTER_NAPI, (6, 9)),
    (IORING_UNREGISTER_NAPI, (6, 9)),
    (IORING_REGISTER_CLOCK, (6, 12)),
    (IORING_REGISTER_CLONE_BUFFERS, (6, 12)),
    (IORING_REGISTER_SEND_MSG_RING, (6, 13)),
    (IORING_REGISTER_RESIZE_RINGS, (6, 13)),
    (IORING_REGISTER_MEM_REGION, (6, 13)),
    (IORING_REGISTER_ZCRX_IFQ, (6, 15)),
];

/// The release that introduced `key` in `table`.
pub fn lookup(table: &[(u32, (u32, u32))], key: u32) -> Option<(u32, u32)> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::super::names;
    use super::*;

    #[test]
    fn every_setup_flag_has_a_release() {
        let mut n = 0;
        for (name, v) in names::members(names::SETUP_FLAG) {
            assert!(lookup(SETUP_FLAGS, v as u32).is_some(), "{name}");
            n += 1;
        }
        assert_eq!(n, SETUP_FLAGS.len());
    }
}
