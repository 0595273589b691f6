// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn numbers_and_cutting() {
    let mut l = Line::new();
    l.u(0).s(" ").u(18446744073709551615).s(" ").i(-42).s(" ");
    l.x(0)
        .s(" ")
        .x(0xdead_beef)
        .s(" ")
        .ratio(3, 2)
        .s(" ")
        .ratio(1, 0);
    l.s(" ").size(8 << 20).s(" ").size(4096).s(" ").size(100);
    assert_eq!(
        core::str::from_utf8(l.as_bytes()).unwrap(),
        "0 18446744073709551615 -42 0x0 0xdeadbeef 1.50 - 8 MiB 4 KiB 100 bytes"
    );
    let mut long = Line::new();
    for _ in 0..CAPACITY {
        long.s("ab");
    }
    assert_eq!(long.as_bytes().len(), CAPACITY);
}
