// SPDX-License-Identifier: MIT
//! Which memory of an SQE the AddressSanitizer checks look at, by opcode:
//! the coverage of liburing 2.15's `--enable-sanitizer` build, which the
//! library's sanitizer build (`uring_core::sanitize`) and `LIBURING_CHECK`
//! in an ASan program (the diagnostics' `check/asan.rs`) both follow, and
//! the manual prints (`io_uring_sanitizer(7)`, from [`ASAN_CHECKED`]).
//!
//! A pointer field is checked at its first byte only (as liburing does: the
//! byte the SQE points at must not be freed or out of bounds), `optval`
//! over `optlen` bytes. Opcodes that name no memory are checked for
//! nothing, as are opcodes this table does not know.

/// The SQE fields checked for one opcode (bits of [`checked_fields`]).
pub type AsanFields = u8;
/// `sqe->addr`: its first byte.
pub const ASAN_ADDR: AsanFields = 1 << 0;
/// `sqe->addr2` (`off`): its first byte.
pub const ASAN_ADDR2: AsanFields = 1 << 1;
/// `sqe->addr3`: its first byte.
pub const ASAN_ADDR3: AsanFields = 1 << 2;
/// `sqe->optval` over `sqe->optlen` bytes.
pub const ASAN_OPTVAL: AsanFields = 1 << 3;

const A: AsanFields = ASAN_ADDR;
const A2: AsanFields = ASAN_ADDR | ASAN_ADDR2;
const A3: AsanFields = ASAN_ADDR | ASAN_ADDR3;
const ALL: AsanFields = ASAN_ADDR | ASAN_ADDR2 | ASAN_ADDR3;
const OPT: AsanFields = ASAN_OPTVAL;

/// Every opcode with the fields checked (0: none), in opcode order.
pub const ASAN_CHECKED: &[(u8, AsanFields)] = {
    use crate::opcodes::*;
    &[
        (IORING_OP_NOP, 0),
        (IORING_OP_READV, A),
        (IORING_OP_WRITEV, A),
        (IORING_OP_FSYNC, A),
        (IORING_OP_READ_FIXED, A),
        (IORING_OP_WRITE_FIXED, A),
        (IORING_OP_POLL_ADD, A),
        (IORING_OP_POLL_REMOVE, 0),
        (IORING_OP_SYNC_FILE_RANGE, A),
        (IORING_OP_SENDMSG, A),
        (IORING_OP_RECVMSG, A),
        (IORING_OP_TIMEOUT, A),
        (IORING_OP_TIMEOUT_REMOVE, 0),
        (IORING_OP_ACCEPT, A2),
        (IORING_OP_ASYNC_CANCEL, 0),
        (IORING_OP_LINK_TIMEOUT, A),
        (IORING_OP_CONNECT, A),
        (IORING_OP_FALLOCATE, 0),
        (IORING_OP_OPENAT, A),
        (IORING_OP_CLOSE, A),
        (IORING_OP_FILES_UPDATE, A),
        (IORING_OP_STATX, A),
        (IORING_OP_READ, A),
        (IORING_OP_WRITE, A),
        (IORING_OP_FADVISE, 0),
        (IORING_OP_MADVISE, A),
        (IORING_OP_SEND, A2),
        (IORING_OP_RECV, A),
        (IORING_OP_OPENAT2, A2),
        (IORING_OP_EPOLL_CTL, A),
        (IORING_OP_SPLICE, 0),
        (IORING_OP_PROVIDE_BUFFERS, A),
        (IORING_OP_REMOVE_BUFFERS, A),
        (IORING_OP_TEE, 0),
        (IORING_OP_SHUTDOWN, A),
        (IORING_OP_RENAMEAT, A2),
        (IORING_OP_UNLINKAT, A),
        (IORING_OP_MKDIRAT, A),
        (IORING_OP_SYMLINKAT, A2),
        (IORING_OP_LINKAT, A2),
        (IORING_OP_MSG_RING, A3),
        (IORING_OP_FSETXATTR, A2),
        (IORING_OP_SETXATTR, ALL),
        (IORING_OP_FGETXATTR, A2),
        (IORING_OP_GETXATTR, ALL),
        (IORING_OP_SOCKET, A),
        (IORING_OP_URING_CMD, OPT),
        (IORING_OP_SEND_ZC, A2),
        (IORING_OP_SENDMSG_ZC, A),
        (IORING_OP_READ_MULTISHOT, A),
        (IORING_OP_WAITID, A2),
        (IORING_OP_FUTEX_WAIT, A),
        (IORING_OP_FUTEX_WAKE, A),
        (IORING_OP_FUTEX_WAITV, A),
        (IORING_OP_FIXED_FD_INSTALL, A),
        (IORING_OP_FTRUNCATE, A),
        (IORING_OP_BIND, A),
        (IORING_OP_LISTEN, A),
        (IORING_OP_RECV_ZC, A),
        (IORING_OP_EPOLL_WAIT, A),
        (IORING_OP_READV_FIXED, A),
        (IORING_OP_WRITEV_FIXED, A),
        (IORING_OP_PIPE, A),
        (IORING_OP_NOP128, 0),
        (IORING_OP_URING_CMD128, OPT),
    ]
};

/// [`ASAN_CHECKED`] indexed by opcode, for one load per SQE.
const BY_OPCODE: [AsanFields; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < ASAN_CHECKED.len() {
        let (op, fields) = ASAN_CHECKED[i];
        t[op as usize] = fields;
        i += 1;
    }
    t
};

/// The fields checked for `opcode` (0: none).
#[inline]
pub fn checked_fields(opcode: u8) -> AsanFields {
    BY_OPCODE[usize::from(opcode)]
}

#[cfg(test)]
mod tests;
