// SPDX-License-Identifier: MIT
//! What the trace's tests need of the trace file (`diag/src/trace/tests.rs`).
use super::BlockAt;

impl BlockAt {
    /// A block over `buf`, for tests of what is written into one.
    pub fn over(buf: &mut [u8]) -> BlockAt {
        BlockAt(buf.as_mut_ptr(), buf.len())
    }
}
