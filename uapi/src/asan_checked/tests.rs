// SPDX-License-Identifier: MIT
use super::*;
use crate::opcodes::{IORING_OP_LAST, OPCODES};

/// One row per opcode the ABI has, in order, as liburing's table
/// (which fails to build when an opcode is missing).
#[test]
fn a_row_for_every_opcode() {
    assert_eq!(ASAN_CHECKED.len(), usize::from(IORING_OP_LAST));
    for (i, &(op, _)) in ASAN_CHECKED.iter().enumerate() {
        assert_eq!(usize::from(op), i);
        assert_eq!(usize::from(OPCODES[i].code), i);
    }
}
