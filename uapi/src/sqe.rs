// SPDX-License-Identifier: MIT
//! Submission queue entries: the SQE itself, its flags, and the
//! attributes a read or write can point at.

use crate::CStruct;

c_structs! {
    pub(crate) static LAYOUTS;

    /// A submission queue entry (64 bytes; 128 on `IORING_SETUP_SQE128` rings,
    /// where the extra 64 bytes continue the `cmd` area).
    ///
    /// Each C anonymous union is one Rust field, the `pub` line of the
    /// union below; the other lines of the union are C-only names of the
    /// same bytes, which Rust reads and writes through the accessor methods
    /// (in the machine's byte order).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_sqe {
        /// `IORING_OP_*`.
        pub opcode: u8 => "__u8",
        /// `IOSQE_*`.
        pub flags: u8 => "__u8",
        pub ioprio: u16 => "__u16",
        pub fd: i32 => "__s32",
        union {
            pub off: u64 => "__u64",
            /// Second address of the opcodes that take two.
            addr2: u64 => "__u64",
            struct {
                /// Sub-command of `IORING_OP_URING_CMD`.
                cmd_op: u32 => "__u32",
                __pad1: u32 => "__u32",
            }
        }
        union {
            pub addr: u64 => "__u64",
            /// Offset in the input file of a splice.
            splice_off_in: u64 => "__u64",
            struct {
                /// Socket-option level of a sockopt command.
                level: u32 => "__u32",
                optname: u32 => "__u32",
            }
        }
        pub len: u32 => "__u32",
        /// One flag word, named after the opcode that reads it.
        union {
            /// Flags of a read or write (`RWF_*`); the other opcodes keep their own
            /// flag word in the same four bytes.
            pub rw_flags: u32 => "__kernel_rwf_t",
            accept_flags: u32 => "__u32",
            cancel_flags: u32 => "__u32",
            fadvise_advice: u32 => "__u32",
            fsync_flags: u32 => "__u32",
            futex_flags: u32 => "__u32",
            hardlink_flags: u32 => "__u32",
            install_fd_flags: u32 => "__u32",
            msg_flags: u32 => "__u32",
            msg_ring_flags: u32 => "__u32",
            nop_flags: u32 => "__u32",
            open_flags: u32 => "__u32",
            pipe_flags: u32 => "__u32",
            /// The 16-bit poll mask of old kernels.
            poll_events: u16 => "__u16",
            poll32_events: u32 => "__u32",
            rename_flags: u32 => "__u32",
            splice_flags: u32 => "__u32",
            statx_flags: u32 => "__u32",
            sync_range_flags: u32 => "__u32",
            timeout_flags: u32 => "__u32",
            unlink_flags: u32 => "__u32",
            uring_cmd_flags: u32 => "__u32",
            waitid_flags: u32 => "__u32",
            xattr_flags: u32 => "__u32",
        }
        pub user_data: u64 => "__u64",
        /// Packed so that no ABI pads this two-byte union.
        union packed {
            pub buf_index: u16 => "__u16",
            /// Provided-buffer group, with `IOSQE_BUFFER_SELECT`.
            buf_group: u16 => "__u16",
        }
        pub personality: u16 => "__u16",
        union {
            pub splice_fd_in: i32 => "__s32",
            /// Direct-descriptor slot plus one, or `IORING_FILE_INDEX_ALLOC`.
            file_index: u32 => "__u32",
            optlen: u32 => "__u32",
            zcrx_ifq_idx: u32 => "__u32",
            struct {
                addr_len: u16 => "__u16",
                __pad3: [u16; 1] => "__u16[1]",
            }
            struct {
                /// Write stream (data placement hint) of a write, as the
                /// file's device lists them; 0 for none.
                write_stream: u8 => "__u8",
                __pad4: [u8; 3] => "__u8[3]",
            }
        }
        union {
            struct {
                pub addr3: u64 => "__u64",
                pub __pad2: [u64; 1] => "__u64[1]",
            }
            /// Start of the command area of `IORING_OP_URING_CMD` (16 bytes here,
            /// 80 on SQE128 rings); overlays `addr3` and `__pad2`.
            cmd: [u8; 0] => "__u8[0]",
            optval: u64 => "__u64",
            struct {
                /// Address of the attribute, e.g. a `struct io_uring_attr_pi`.
                attr_ptr: u64 => "__u64",
                /// `IORING_RW_ATTR_FLAG_*` bits saying which attributes are present.
                attr_type_mask: u64 => "__u64",
            }
        }
    }

    /// Protection-information attribute (`IORING_RW_ATTR_FLAG_PI`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_attr_pi {
        pub flags: u16 => "__u16",
        pub app_tag: u16 => "__u16",
        pub len: u32 => "__u32",
        pub addr: u64 => "__u64",
        pub seed: u64 => "__u64",
        pub rsvd: u64 => "__u64",
    }
}

/// Where C member `$alias` starts inside the Rust field `$field` of the
/// SQE, in bytes, as the declaration above places it (a compile-time
/// constant; an alias outside the field fails the build).
macro_rules! at {
    ($alias:ident in $field:ident) => {
        const {
            match <io_uring_sqe as CStruct>::LAYOUT.offset_of(stringify!($alias)) {
                Some(at) => at - core::mem::offset_of!(io_uring_sqe, $field),
                None => panic!("not a member of struct io_uring_sqe"),
            }
        }
    };
}

/// Reads the 32-bit part of `word` that sits at byte `at` in memory.
#[inline]
const fn u32_in_u64(word: u64, at: usize) -> u32 {
    let b = word.to_ne_bytes();
    u32::from_ne_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Replaces the 32-bit part of `word` at byte `at` in memory.
#[inline]
const fn with_u32_in_u64(word: u64, at: usize, value: u32) -> u64 {
    let mut b = word.to_ne_bytes();
    let v = value.to_ne_bytes();
    b[at] = v[0];
    b[at + 1] = v[1];
    b[at + 2] = v[2];
    b[at + 3] = v[3];
    u64::from_ne_bytes(b)
}

/// Reads the 16-bit part of `word` that sits at byte `at` in memory.
#[inline]
const fn u16_in_u32(word: u32, at: usize) -> u16 {
    let b = word.to_ne_bytes();
    u16::from_ne_bytes([b[at], b[at + 1]])
}

/// Replaces the 16-bit part of `word` at byte `at` in memory.
#[inline]
const fn with_u16_in_u32(word: u32, at: usize, value: u16) -> u32 {
    let mut b = word.to_ne_bytes();
    let v = value.to_ne_bytes();
    b[at] = v[0];
    b[at + 1] = v[1];
    u32::from_ne_bytes(b)
}

impl io_uring_sqe {
    /// An all-zero SQE.
    pub const ZEROED: Self = Self {
        opcode: 0,
        flags: 0,
        ioprio: 0,
        fd: 0,
        off: 0,
        addr: 0,
        len: 0,
        rw_flags: 0,
        user_data: 0,
        buf_index: 0,
        personality: 0,
        splice_fd_in: 0,
        addr3: 0,
        __pad2: [0],
    };

    /// `sqe->addr2` (same bytes as `off`).
    #[inline]
    pub fn addr2(&self) -> u64 {
        self.off
    }
    #[inline]
    pub fn set_addr2(&mut self, v: u64) {
        self.off = v;
    }

    /// `sqe->cmd_op`: the first 4 bytes of `off`.
    #[inline]
    pub fn cmd_op(&self) -> u32 {
        u32_in_u64(self.off, at!(cmd_op in off))
    }
    #[inline]
    pub fn set_cmd_op(&mut self, v: u32) {
        self.off = with_u32_in_u64(self.off, at!(cmd_op in off), v);
    }

    /// `sqe->__pad1`: the last 4 bytes of `off`.
    #[inline]
    pub fn set_pad1(&mut self, v: u32) {
        self.off = with_u32_in_u64(self.off, at!(__pad1 in off), v);
    }

    /// `sqe->splice_off_in` (same bytes as `addr`).
    #[inline]
    pub fn splice_off_in(&self) -> u64 {
        self.addr
    }
    #[inline]
    pub fn set_splice_off_in(&mut self, v: u64) {
        self.addr = v;
    }

    /// `sqe->level`: the first 4 bytes of `addr`.
    #[inline]
    pub fn level(&self) -> u32 {
        u32_in_u64(self.addr, at!(level in addr))
    }
    #[inline]
    pub fn set_level(&mut self, v: u32) {
        self.addr = with_u32_in_u64(self.addr, at!(level in addr), v);
    }

    /// `sqe->optname`: the last 4 bytes of `addr`.
    #[inline]
    pub fn optname(&self) -> u32 {
        u32_in_u64(self.addr, at!(optname in addr))
    }
    #[inline]
    pub fn set_optname(&mut self, v: u32) {
        self.addr = with_u32_in_u64(self.addr, at!(optname in addr), v);
    }

    /// `sqe->poll_events`: the first 2 bytes of the flag word.
    #[inline]
    pub fn poll_events(&self) -> u16 {
        u16_in_u32(self.rw_flags, at!(poll_events in rw_flags))
    }
    #[inline]
    pub fn set_poll_events(&mut self, v: u16) {
        self.rw_flags = with_u16_in_u32(self.rw_flags, at!(poll_events in rw_flags), v);
    }

    /// The per-opcode flag word under any of its C names (`msg_flags`,
    /// `timeout_flags`, `poll32_events`, ...).
    #[inline]
    pub fn op_flags(&self) -> u32 {
        self.rw_flags
    }
    #[inline]
    pub fn set_op_flags(&mut self, v: u32) {
        self.rw_flags = v;
    }

    /// `sqe->buf_group` (same bytes as `buf_index`).
    #[inline]
    pub fn buf_group(&self) -> u16 {
        self.buf_index
    }
    #[inline]
    pub fn set_buf_group(&mut self, v: u16) {
        self.buf_index = v;
    }

    /// `sqe->file_index` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn file_index(&self) -> u32 {
        self.splice_fd_in as u32
    }
    #[inline]
    pub fn set_file_index(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }

    /// `sqe->zcrx_ifq_idx` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn set_zcrx_ifq_idx(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }

    /// `sqe->optlen` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn set_optlen(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }

    /// `sqe->addr_len`: the first 2 bytes of `splice_fd_in`.
    #[inline]
    pub fn addr_len(&self) -> u16 {
        u16_in_u32(self.splice_fd_in as u32, at!(addr_len in splice_fd_in))
    }
    #[inline]
    pub fn set_addr_len(&mut self, v: u16) {
        self.splice_fd_in =
            with_u16_in_u32(self.splice_fd_in as u32, at!(addr_len in splice_fd_in), v) as i32;
    }

    /// `sqe->write_stream`: the first byte of `splice_fd_in`.
    #[inline]
    pub fn write_stream(&self) -> u8 {
        (self.splice_fd_in as u32).to_ne_bytes()[at!(write_stream in splice_fd_in)]
    }
    #[inline]
    pub fn set_write_stream(&mut self, v: u8) {
        let mut b = (self.splice_fd_in as u32).to_ne_bytes();
        b[at!(write_stream in splice_fd_in)] = v;
        self.splice_fd_in = u32::from_ne_bytes(b) as i32;
    }

    /// `sqe->__pad3[0]`: the last 2 bytes of `splice_fd_in`.
    #[inline]
    pub fn set_pad3(&mut self, v: u16) {
        self.splice_fd_in =
            with_u16_in_u32(self.splice_fd_in as u32, at!(__pad3 in splice_fd_in), v) as i32;
    }

    /// `sqe->attr_ptr` (same bytes as `addr3`).
    #[inline]
    pub fn attr_ptr(&self) -> u64 {
        self.addr3
    }
    #[inline]
    pub fn set_attr_ptr(&mut self, v: u64) {
        self.addr3 = v;
    }

    /// `sqe->attr_type_mask` (same bytes as `__pad2[0]`).
    #[inline]
    pub fn attr_type_mask(&self) -> u64 {
        self.__pad2[0]
    }
    #[inline]
    pub fn set_attr_type_mask(&mut self, v: u64) {
        self.__pad2[0] = v;
    }

    /// `sqe->optval` (same bytes as `addr3`).
    #[inline]
    pub fn optval(&self) -> u64 {
        self.addr3
    }
    #[inline]
    pub fn set_optval(&mut self, v: u64) {
        self.addr3 = v;
    }

    /// `sqe->cmd`: start of the command area (16 bytes in a 64-byte SQE,
    /// 80 in a 128-byte one). Computed from the raw pointer so that the
    /// result keeps `sqe`'s provenance (a ring pointer reaches the whole
    /// 128-byte entry; `&mut` to one `io_uring_sqe` would only reach 64).
    #[inline]
    pub fn cmd_ptr(sqe: *mut Self) -> *mut u8 {
        sqe.cast::<u8>().wrapping_add(at!(cmd in opcode))
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Bit numbers of the `sqe->flags` bits.
    enum io_uring_sqe_flags_bit: u8 {
        IOSQE_FIXED_FILE_BIT = 0;
        IOSQE_IO_DRAIN_BIT = 1;
        IOSQE_IO_LINK_BIT = 2;
        IOSQE_IO_HARDLINK_BIT = 3;
        IOSQE_ASYNC_BIT = 4;
        IOSQE_BUFFER_SELECT_BIT = 5;
        IOSQE_CQE_SKIP_SUCCESS_BIT = 6;
    }

    /// Request flags, in `sqe->flags`.
    macros(unsigned): u8 {
        /// `fd` is an index into the registered file table.
        IOSQE_FIXED_FILE = 1 << IOSQE_FIXED_FILE_BIT;
        /// Start only once every earlier request has completed.
        IOSQE_IO_DRAIN = 1 << IOSQE_IO_DRAIN_BIT;
        /// The next SQE runs only if this one succeeds.
        IOSQE_IO_LINK = 1 << IOSQE_IO_LINK_BIT;
        /// The next SQE runs whatever this one's result.
        IOSQE_IO_HARDLINK = 1 << IOSQE_IO_HARDLINK_BIT;
        /// Always punt to an async worker.
        IOSQE_ASYNC = 1 << IOSQE_ASYNC_BIT;
        /// Pick a provided buffer from group `buf_group`.
        IOSQE_BUFFER_SELECT = 1 << IOSQE_BUFFER_SELECT_BIT;
        /// Post no CQE when the request succeeds.
        IOSQE_CQE_SKIP_SUCCESS = 1 << IOSQE_CQE_SKIP_SUCCESS_BIT;
    }

    macros(unsigned): u32 {
        /// Put in `sqe->file_index` to let the kernel pick a free
        /// direct-descriptor slot; the slot comes back in `cqe->res`.
        IORING_FILE_INDEX_ALLOC = !0;
    }

    /// Attribute kinds, in `sqe->attr_type_mask`.
    macros(unsigned): u64 {
        /// `attr_ptr` points at a `struct io_uring_attr_pi`.
        IORING_RW_ATTR_FLAG_PI = 1 << 0;
    }
}

#[cfg(test)]
mod tests;
