// SPDX-License-Identifier: MIT
use super::*;
use core::mem::offset_of;

/// The offsets found agree with the Rust definition of the SQE.
#[test]
fn offsets_match_the_rust_sqe() {
    let rust = [
        ("opcode", offset_of!(io_uring_sqe, opcode)),
        ("fd", offset_of!(io_uring_sqe, fd)),
        ("off", offset_of!(io_uring_sqe, off)),
        ("rw_flags", offset_of!(io_uring_sqe, rw_flags)),
        ("personality", offset_of!(io_uring_sqe, personality)),
        ("addr3", offset_of!(io_uring_sqe, addr3)),
        ("__pad2[0]", offset_of!(io_uring_sqe, __pad2)),
    ];
    for (name, offset) in rust {
        assert_eq!(field(name).offset, offset, "{name}");
    }
    let pad3 = field("__pad3[0]");
    assert_eq!((pad3.c_type, pad3.offset, pad3.size), ("__u16", 46, 2));
    let poll = field("poll_events");
    assert_eq!((poll.c_type, poll.offset, poll.size), ("__u16", 28, 2));
    assert_eq!(field("timeout_flags").c_type, "__u32");
    assert_eq!(field("optname").offset, 20);
}
