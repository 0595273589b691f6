// SPDX-License-Identifier: MIT
//! Where each named SQE field lives, from the declaration of
//! `struct io_uring_sqe` in the uapi crate: the generator needs to know which
//! names share bytes (a later store to `addr2` replaces an earlier one to
//! `off`).

use crate::c_headers::{walk, Node};
use uring_uapi::{io_uring_sqe, CStruct};

/// A C member of `struct io_uring_sqe` (including members of its unions),
/// or one element of an array member (`__pad2[0]`).
pub struct Field {
    pub name: &'static str,
    pub c_type: &'static str,
    pub offset: usize,
    pub size: usize,
}

/// The field called `name`; panics (failing the generator test) on a typo.
pub fn field(name: &'static str) -> Field {
    // `member[i]`: element `i` of an array member.
    let (member, index) = match name.split_once('[') {
        Some((m, i)) => {
            let i = i.strip_suffix(']').and_then(|i| i.parse::<usize>().ok());
            (m, Some(i.unwrap_or_else(|| panic!("bad SQE field {name}"))))
        }
        None => (name, None),
    };
    let found = walk(&io_uring_sqe::LAYOUT)
        .into_iter()
        .find_map(|n| match n {
            Node::Member(m, offset) if m.name == member => Some((m, offset)),
            _ => None,
        });
    let (m, offset) = found.unwrap_or_else(|| panic!("no SQE field named {name}"));
    match index {
        None => Field {
            name,
            c_type: m.cty,
            offset,
            size: m.size,
        },
        Some(i) => {
            let (element, bound) = m.cty.split_once('[').expect("an array member");
            let len: usize = bound
                .trim_end_matches(']')
                .parse()
                .expect("a bounded array");
            assert!(i < len, "{name} is past the end of the array");
            Field {
                name,
                c_type: element.trim_end(),
                offset: offset + i * (m.size / len),
                size: m.size / len,
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}
