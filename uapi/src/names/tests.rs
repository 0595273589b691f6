// SPDX-License-Identifier: MIT
use super::*;
use crate::*;

#[test]
fn names_come_from_the_uapi_table() {
    assert_eq!(short_name(OPCODE, u64::from(IORING_OP_READ)), Some("READ"));
    assert_eq!(short_name(OPCODE, u64::from(IORING_OP_LAST)), None);
    assert_eq!(short_name(SQE_FLAG, 1), Some("FIXED_FILE"));
    assert_eq!(
        full_name(SETUP_FLAG, u64::from(IORING_SETUP_DEFER_TASKRUN)),
        Some("IORING_SETUP_DEFER_TASKRUN")
    );
    // Enumerators that share a prefix and a value with an opcode lose.
    assert_eq!(full_name(REGISTER_OP, 0), Some("IORING_REGISTER_BUFFERS"));
    assert_eq!(full_name(REGISTER_OP, 1), Some("IORING_UNREGISTER_BUFFERS"));
    let mut seen = [0u64; 2];
    for_each_flag(SQE_FLAG, 0x85, |n, v| match n {
        Some(_) => seen[0] |= v,
        None => seen[1] = v,
    });
    assert_eq!(seen, [0x05, 0x80]);
    assert_eq!(members(OPCODE).count(), usize::from(IORING_OP_LAST));
    assert_eq!(members(REGISTER_OP).count(), IORING_REGISTER_LAST as usize);
}
