// SPDX-License-Identifier: MIT
//! A drop-in replacement for liburing 2.15: the C boundary.
//!
//! Every `#[no_mangle] extern "C"` function of liburing's API lives in
//! [`capi`], which checks the caller's pointers, turns a ring into a
//! [`ring::LiveRing`] once, calls the core (the `uring-core` crate: setup,
//! queue, registration over the raw system calls) and converts its typed
//! results to liburing's `-errno` convention in one place. This crate is
//! built as the staticlib that the Makefile relinks into `liburing.so.2`
//! and `liburing.a`. The diagnostics are not linked in: [`attach_diag`]
//! loads their object into the shared libraries when a variable asks.
#![cfg_attr(not(test), no_std)]

pub(crate) mod attach_diag;
pub(crate) mod capi;

// The core's modules under their own names, so the boundary reads
// `crate::queue::...` as the core itself does.
pub(crate) use uring_core::{
    buf_ring, geometry, observe, probe, queue, register, ring, setup, structs, syscall, uapi,
    version,
};
#[cfg(test)]
pub(crate) use uring_core::{test_observer, test_ring};
