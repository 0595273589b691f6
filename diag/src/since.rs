// SPDX-License-Identifier: MIT
//! The Linux release that introduced each setup flag and registration
//! opcode, for LIBURING_DEBUG's "added in" notes. The releases live in the
//! uapi crate's one table (`uring_uapi::releases`, which the manual shows
//! too); this module only names the two families diagnostics ask about.

use crate::uapi::releases::{self, ReleaseGroup};

/// The `IORING_SETUP_*` flags.
pub const SETUP_FLAGS: &ReleaseGroup = &releases::SETUP_FLAGS;

/// The registration opcodes.
pub const REGISTER_OPS: &ReleaseGroup = &releases::REGISTER_OPCODES;

/// The release that introduced the member of `table` whose value is `key`.
pub fn lookup(table: &ReleaseGroup, key: u32) -> Option<(u32, u32)> {
    table.since_of(i128::from(key))
}

#[cfg(test)]
mod tests;
