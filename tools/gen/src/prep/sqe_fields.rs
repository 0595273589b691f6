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
mod tests;
