// SPDX-License-Identifier: MIT
//! The core of uring-rs: io_uring rings over the raw system calls.
//!
//! [`setup`] owns the ring lifecycle, [`queue`] submission and completion,
//! [`register`] and [`buf_ring`] the registrations, [`probe`] probes; all of
//! them read sizes and offsets from [`geometry`] and enter the kernel only
//! through [`syscall`], whose results are typed ([`syscall::SysResult`]).
//! A ring the C caller owns reaches the core as a [`ring::LiveRing`] (never
//! as `&mut io_uring`, since two threads may use it at once).
//!
//! The core knows nothing of C return conventions (the boundary crate,
//! `uring-rs`, converts) nor of the diagnostics (the `uring-diag` crate,
//! an observer that attaches through [`observe`] and that nothing depends on).
#![cfg_attr(not(any(test, feature = "test-support")), no_std)]

pub mod buf_ring;
pub mod geometry;
pub mod hint;
pub mod observe;
pub mod probe;
pub mod queue;
pub mod register;
pub mod ring;
pub mod ring_fields;
mod runtime;
pub mod sanitize;
pub mod setup;
pub mod syscall;
// What the unit tests of this crate and of the C boundary share to get a
// ring (std; only in test builds).
#[cfg(any(test, feature = "test-support"))]
pub mod test_ring;
// The recording observer of the tests of what the hooks are told.
#[cfg(any(test, feature = "test-support"))]
pub mod test_observer;

// The kernel ABI, liburing's public structs and the API version are declared
// once, in the dependency-free `uring-uapi` crate.
pub use uring_uapi as uapi;
pub use uring_uapi::ring_types as structs;
pub use uring_uapi::version;
