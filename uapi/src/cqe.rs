// SPDX-License-Identifier: MIT
//! Completion queue entries: the CQE, its flags, and what a multishot
//! recvmsg writes at the start of each buffer.

c_structs! {
    pub(crate) static LAYOUTS;

    /// A completion queue entry (16 bytes; 32 on `IORING_SETUP_CQE32` rings,
    /// where `big_cqe` holds two more words).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_cqe {
        pub user_data: u64 => "__u64",
        pub res: i32 => "__s32",
        /// `IORING_CQE_F_*`, buffer id in the top 16 bits.
        pub flags: u32 => "__u32",
        pub big_cqe: [u64; 0] => "__u64[]",
    }

    /// Header a multishot recvmsg writes at the start of each buffer.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_uring_recvmsg_out {
        pub namelen: u32 => "__u32",
        pub controllen: u32 => "__u32",
        pub payloadlen: u32 => "__u32",
        pub flags: u32 => "__u32",
    }
}

impl io_uring_cqe {
    /// `cqe->big_cqe`: the extra 16 bytes of a 32-byte CQE at `cqe` (the
    /// result keeps `cqe`'s provenance).
    #[inline]
    pub fn big_cqe_ptr(cqe: *const Self) -> *const u64 {
        cqe.cast::<u8>()
            .wrapping_add(core::mem::offset_of!(Self, big_cqe))
            .cast::<u64>()
    }
}

c_consts! {
    pub(crate) static CONSTS;

    /// Completion flags, in `cqe->flags`.
    macros(unsigned): u32 {
        /// A provided buffer was used; its id is in the top 16 bits.
        IORING_CQE_F_BUFFER = 1 << 0;
        /// More completions of the same request will follow.
        IORING_CQE_F_MORE = 1 << 1;
        /// The socket had more data after this receive.
        IORING_CQE_F_SOCK_NONEMPTY = 1 << 2;
        /// A zero-copy send notification, not the send's own result.
        IORING_CQE_F_NOTIF = 1 << 3;
        /// The buffer was partly consumed and stays with the kernel.
        IORING_CQE_F_BUF_MORE = 1 << 4;
        /// A filler entry: skip it.
        IORING_CQE_F_SKIP = 1 << 5;
        /// A 32-byte CQE on a ring set up with `IORING_SETUP_CQE_MIXED`.
        IORING_CQE_F_32 = 1 << 15;
    }
    macros(int): u32 {
        /// The buffer id sits in `cqe->flags >> IORING_CQE_BUFFER_SHIFT`.
        IORING_CQE_BUFFER_SHIFT = 16;
    }

    /// `cqe->res` of a zero-copy send notification (compare as unsigned).
    macros(unsigned): u32 {
        /// The kernel copied the data after all.
        IORING_NOTIF_USAGE_ZC_COPIED = 1 << 31;
    }
}
