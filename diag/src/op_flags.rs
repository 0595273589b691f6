// SPDX-License-Identifier: MIT
//! Names for the per-opcode flag word of an SQE (`sqe->rw_flags` and its
//! aliases), so a trace line says `DATASYNC` rather than `0x1`.
//!
//! Which names an opcode's word has is part of its row in the opcode table
//! (`flags(GROUP)`, from `uring_uapi::op_flag_groups`); this file only
//! formats.

/// Calls `out` with each named bit of `bits`, then with the unnamed rest
/// (if any) as `None`.
pub fn for_each(opcode: u8, bits: u32, mut out: impl FnMut(Option<&'static str>, u32)) {
    let mut rest = bits;
    if let Some(group) = crate::uapi::opcode(opcode).and_then(|row| row.flags) {
        for &(name, bit) in group.names {
            if bit != 0 && rest & bit == bit {
                out(Some(name), bit);
                rest &= !bit;
            }
        }
    }
    if rest != 0 {
        out(None, rest);
    }
}

#[cfg(test)]
mod tests {
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
}

#[cfg(test)]
mod golden {
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
}
