// SPDX-License-Identifier: MIT
//! Branch hints for the optimiser, within the declared MSRV (1.85).

/// Marks the branch that calls it as unlikely: a call of a `#[cold]`
/// function is what the optimiser sees (it inlines to nothing).
/// `core::hint::cold_path` does the same from Rust 1.95 on.
#[cold]
#[inline]
pub fn cold_path() {}
