// SPDX-License-Identifier: MIT
/// Every opcode (and two past the table) × some flag words, decoded
/// as a trace line would name them.
pub fn render() -> String {
    use core::fmt::Write;
    const WORDS: &[u32] = &[
        0,
        1,
        2,
        3,
        4,
        8,
        0x10,
        0x20,
        0x40,
        0x80,
        0xff,
        0x100,
        0x1ff,
        0x8000_0000,
        0x8000_0003,
        0xffff_ffff,
    ];
    let mut out = String::new();
    for op in 0..=crate::uapi::IORING_OP_LAST + 1 {
        for &w in WORDS {
            let _ = write!(out, "{op} {w:#x}:");
            super::for_each(op, w, |name, v| {
                let _ = write!(out, " {}={v:#x}", name.unwrap_or("?"));
            });
            out.push('\n');
        }
    }
    out
}

/// The decoding is what it was when each opcode's flag names were a
/// `match` in this file (captured then, for every opcode and these
/// words).
#[test]
fn decoding_is_unchanged() {
    // The file's own header lines start with '#'.
    let want: Vec<&str> = include_str!("op_flags_golden.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();
    let got = render();
    for (i, (g, w)) in got.lines().zip(want.iter()).enumerate() {
        assert_eq!(g, *w, "line {}", i + 1);
    }
    assert_eq!(got.lines().count(), want.len());
}
