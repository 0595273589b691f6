// SPDX-License-Identifier: MIT
//! How many buffers each provided-buffer group handed out (CQEs with
//! `IORING_CQE_F_BUFFER` of requests that select from it), for the
//! `enobufs` finding: a group that ran dry after N buffers were taken says
//! how many the program should have given back (`pbuf_groups` counts the
//! ones it did).

use super::state::{RingCheck, GROUP_SLOTS};
use crate::uapi::IORING_CQE_F_BUFFER;

/// Counts a CQE of a request that selects from `group`.
#[inline(always)]
pub(super) fn note(c: &mut RingCheck, group: u16, cqe_flags: u32) {
    if cqe_flags & IORING_CQE_F_BUFFER == 0 {
        return;
    }
    let slot = c
        .buf_taken
        .iter()
        .position(|&(g, n)| g == group && n != 0)
        .or_else(|| c.buf_taken.iter().position(|&(_, n)| n == 0));
    if let Some(e) = slot.and_then(|i| c.buf_taken.get_mut(i)) {
        *e = (group, e.1.saturating_add(1));
    }
}

/// The buffers taken from `group` so far, when followed.
pub(super) fn taken(c: &RingCheck, group: u16) -> Option<u32> {
    c.buf_taken
        .iter()
        .find(|&&(g, n)| g == group && n != 0)
        .map(|&(_, n)| n)
}

/// The table's size, as the groups' streaks.
pub(super) const SLOTS: usize = GROUP_SLOTS;
