// SPDX-License-Identifier: MIT
use super::parse_size;

#[test]
fn sizes() {
    assert_eq!(parse_size(b"123"), Some(123));
    assert_eq!(parse_size(b"64k"), Some(64 << 10));
    assert_eq!(parse_size(b"2M"), Some(2 << 20));
    assert_eq!(parse_size(b"1g"), Some(1 << 30));
    assert_eq!(parse_size(b"0"), Some(u64::MAX));
    assert_eq!(parse_size(b""), None);
    assert_eq!(parse_size(b"k"), None);
    assert_eq!(parse_size(b"12x"), None);
    assert_eq!(parse_size(b"99999999999999999999"), None);
    assert_eq!(parse_size(b"99999999999g"), None);
}
