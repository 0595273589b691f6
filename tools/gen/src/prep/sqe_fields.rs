// SPDX-License-Identifier: MIT
//! Where each named SQE field lives: the generator needs to know which names
//! share bytes (a later store to `addr2` replaces an earlier one to `off`).

/// A C member of `struct io_uring_sqe` (including members of its unions).
pub struct Field {
    pub name: &'static str,
    pub c_type: &'static str,
    pub offset: usize,
    pub size: usize,
}

const fn f(name: &'static str, c_type: &'static str, offset: usize, size: usize) -> Field {
    Field {
        name,
        c_type,
        offset,
        size,
    }
}

/// The per-opcode flag word at byte 28 has one name per operation.
const FLAG_WORD_ALIASES: &[&str] = &[
    "fsync_flags",
    "poll32_events",
    "sync_range_flags",
    "msg_flags",
    "timeout_flags",
    "accept_flags",
    "cancel_flags",
    "open_flags",
    "statx_flags",
    "fadvise_advice",
    "splice_flags",
    "rename_flags",
    "unlink_flags",
    "hardlink_flags",
    "xattr_flags",
    "msg_ring_flags",
    "uring_cmd_flags",
    "waitid_flags",
    "futex_flags",
    "install_fd_flags",
    "nop_flags",
    "pipe_flags",
];

const FIELDS: &[Field] = &[
    f("opcode", "__u8", 0, 1),
    f("flags", "__u8", 1, 1),
    f("ioprio", "__u16", 2, 2),
    f("fd", "__s32", 4, 4),
    f("off", "__u64", 8, 8),
    f("addr2", "__u64", 8, 8),
    f("cmd_op", "__u32", 8, 4),
    f("__pad1", "__u32", 12, 4),
    f("addr", "__u64", 16, 8),
    f("splice_off_in", "__u64", 16, 8),
    f("level", "__u32", 16, 4),
    f("optname", "__u32", 20, 4),
    f("len", "__u32", 24, 4),
    f("rw_flags", "__kernel_rwf_t", 28, 4),
    f("poll_events", "__u16", 28, 2),
    f("user_data", "__u64", 32, 8),
    f("buf_index", "__u16", 40, 2),
    f("buf_group", "__u16", 40, 2),
    f("personality", "__u16", 42, 2),
    f("splice_fd_in", "__s32", 44, 4),
    f("file_index", "__u32", 44, 4),
    f("zcrx_ifq_idx", "__u32", 44, 4),
    f("optlen", "__u32", 44, 4),
    f("addr_len", "__u16", 44, 2),
    f("__pad3[0]", "__u16", 46, 2),
    f("addr3", "__u64", 48, 8),
    f("attr_ptr", "__u64", 48, 8),
    f("optval", "__u64", 48, 8),
    f("__pad2[0]", "__u64", 56, 8),
    f("attr_type_mask", "__u64", 56, 8),
];

/// The field called `name`; panics (failing the generator test) on a typo.
pub fn field(name: &str) -> Field {
    if FLAG_WORD_ALIASES.contains(&name) {
        let name = FLAG_WORD_ALIASES.iter().find(|n| **n == name).unwrap();
        return f(name, "__u32", 28, 4);
    }
    let found = FIELDS.iter().find(|x| x.name == name);
    let x = found.unwrap_or_else(|| panic!("no SQE field named {name}"));
    f(x.name, x.c_type, x.offset, x.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::offset_of;
    use uring_uapi::io_uring_sqe;

    /// The whole-field offsets agree with the Rust definition of the SQE.
    #[test]
    fn offsets_match_the_rust_sqe() {
        let rust = [
            ("opcode", offset_of!(io_uring_sqe, opcode)),
            ("flags", offset_of!(io_uring_sqe, flags)),
            ("ioprio", offset_of!(io_uring_sqe, ioprio)),
            ("fd", offset_of!(io_uring_sqe, fd)),
            ("off", offset_of!(io_uring_sqe, off)),
            ("addr", offset_of!(io_uring_sqe, addr)),
            ("len", offset_of!(io_uring_sqe, len)),
            ("rw_flags", offset_of!(io_uring_sqe, rw_flags)),
            ("user_data", offset_of!(io_uring_sqe, user_data)),
            ("buf_index", offset_of!(io_uring_sqe, buf_index)),
            ("personality", offset_of!(io_uring_sqe, personality)),
            ("splice_fd_in", offset_of!(io_uring_sqe, splice_fd_in)),
            ("addr3", offset_of!(io_uring_sqe, addr3)),
            ("__pad2[0]", offset_of!(io_uring_sqe, __pad2)),
        ];
        for (name, offset) in rust {
            assert_eq!(field(name).offset, offset, "{name}");
        }
    }
}
