// SPDX-License-Identifier: MIT
//! Why the library refused a call without asking the kernel: the ring was
//! set up by a kernel that lacks the feature the call needs (its
//! `IORING_FEAT_*` bit is not in the ring's features), as liburing refuses
//! it (`LIBURING_DEBUG=1`).

use super::line::Line;
use super::names::{self, FEATURE};
use super::setup_cause::errno;
use crate::syscall::Errno;
use crate::uapi::releases::FEATURES;
use crate::uapi::IORING_FEAT_MIN_TIMEOUT;

/// Writes the diagnosis of `call` refused for want of `feature` to stderr.
pub fn explain(call: &str, feature: u32, err: Errno) {
    let mut l = Line::new();
    l.s("liburing: ").s(call).s(" failed with -");
    errno(&mut l, err);
    l.s(": this kernel did not set up the ring with ");
    match names::full_name(FEATURE, u64::from(feature)) {
        Some(n) => l.s(n),
        None => l.s("feature ").x(u64::from(feature)),
    };
    if let Some((major, minor)) = FEATURES.since_of(i128::from(feature)) {
        l.s(" (added in Linux ")
            .u(u64::from(major))
            .s(".")
            .u(u64::from(minor))
            .s(")");
    }
    l.s(", which the call needs; fix: ");
    if feature == IORING_FEAT_MIN_TIMEOUT {
        l.s("wait with a plain timeout instead of a minimum batch wait, ");
    } else {
        l.s("do without the call, ");
    }
    l.s("or run a newer kernel");
    l.emit_stderr();
}
