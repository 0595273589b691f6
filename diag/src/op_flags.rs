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
mod tests;

#[cfg(test)]
mod golden_tests;
