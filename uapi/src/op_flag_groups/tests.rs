// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn short_names_and_disjoint_bits() {
    assert_eq!(FSYNC.names, &[("DATASYNC", 1)]);
    assert_eq!(TIMEOUT.names[4], ("LINK_TIMEOUT_UPDATE", 1 << 4));
    assert_eq!(SPLICE.names[4], ("FD_IN_FIXED", 1 << 31));
    for g in [RW, FSYNC, TIMEOUT, CANCEL, MSG_RING, SPLICE, URING_CMD] {
        let mut seen = 0u32;
        for &(name, bit) in g.names {
            assert!(bit.is_power_of_two(), "{name}");
            assert_eq!(seen & bit, 0, "{name}");
            seen |= bit;
        }
    }
}
