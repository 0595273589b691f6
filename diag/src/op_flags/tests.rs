// SPDX-License-Identifier: MIT
use super::*;
use crate::uapi::{IORING_FSYNC_DATASYNC, IORING_OP_FSYNC};

#[test]
fn fsync_datasync_is_named() {
    let mut seen = [None; 2];
    let mut n = 0;
    for_each(IORING_OP_FSYNC, IORING_FSYNC_DATASYNC | 0x100, |name, v| {
        if let Some(s) = seen.get_mut(n) {
            *s = Some((name, v));
        }
        n += 1;
    });
    assert_eq!(seen, [Some((Some("DATASYNC"), 1)), Some((None, 0x100))]);
}
