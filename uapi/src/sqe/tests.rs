// SPDX-License-Identifier: MIT
use crate::uapi::*;

#[test]
fn sqe_aliases_hit_the_c_bytes() {
    let mut sqe = io_uring_sqe::ZEROED;
    sqe.set_cmd_op(0x1122_3344);
    sqe.set_pad1(0x5566_7788);
    assert_eq!(sqe.cmd_op(), 0x1122_3344);
    // cmd_op is the first four bytes of the `off` word in memory.
    assert_eq!(sqe.off.to_ne_bytes()[..4], 0x1122_3344u32.to_ne_bytes());
    assert_eq!(sqe.off.to_ne_bytes()[4..], 0x5566_7788u32.to_ne_bytes());
    sqe.set_level(1);
    sqe.set_optname(2);
    assert_eq!((sqe.level(), sqe.optname()), (1, 2));
    assert_eq!(sqe.addr.to_ne_bytes()[..4], 1u32.to_ne_bytes());
    sqe.set_poll_events(0xabcd);
    assert_eq!(sqe.rw_flags.to_ne_bytes()[..2], 0xabcdu16.to_ne_bytes());
    sqe.set_addr_len(16);
    sqe.set_pad3(0);
    assert_eq!(sqe.addr_len(), 16);
    assert_eq!(sqe.splice_fd_in.to_ne_bytes()[..2], 16u16.to_ne_bytes());
    sqe.set_file_index(crate::uapi::IORING_FILE_INDEX_ALLOC);
    assert_eq!(sqe.splice_fd_in, -1);
    // write_stream is the byte at offset 44, the first of splice_fd_in.
    sqe.splice_fd_in = 0;
    sqe.set_write_stream(3);
    assert_eq!(sqe.write_stream(), 3);
    assert_eq!(sqe.splice_fd_in.to_ne_bytes(), [3, 0, 0, 0]);
    let p: *mut io_uring_sqe = &mut sqe;
    assert_eq!(io_uring_sqe::cmd_ptr(p) as usize - p as usize, 48);
}

#[test]
fn flexible_arrays_follow_their_headers() {
    let mut probe = io_uring_probe::default();
    let p: *mut io_uring_probe = &mut probe;
    assert_eq!(io_uring_probe::ops_ptr(p) as usize - p as usize, 16);
    let cqe = io_uring_cqe::default();
    let c: *const io_uring_cqe = &cqe;
    assert_eq!(io_uring_cqe::big_cqe_ptr(c) as usize - c as usize, 16);
    let mut br = io_uring_buf_ring::default();
    let b: *mut io_uring_buf_ring = &mut br;
    assert_eq!(io_uring_buf_ring::bufs_ptr(b) as usize, b as usize);
}
