// SPDX-License-Identifier: MIT
//! A drop-in replacement for liburing 2.15.
//!
//! Data flows one way: a C call enters at [`capi`] (the only `extern "C"`
//! functions), becomes a call into the safe-as-possible core ([`setup`]: the
//! ring lifecycle, [`queue`], [`register`], [`buf_ring`], [`probe`]), which
//! reads sizes and offsets from [`geometry`] and talks to the kernel only
//! through [`syscall`]. A ring the C caller owns reaches the core as a
//! [`ring::LiveRing`] (never as `&mut io_uring`, since two threads may use it
//! at once). Kernel structures and constants live in [`uapi`];
//! liburing's own public structs live in [`structs`].
#![cfg_attr(not(test), no_std)]

mod atomic_u64;
pub(crate) mod buf_ring;
pub(crate) mod capi;
pub(crate) mod diag;
pub(crate) mod geometry;
pub(crate) mod hint;
pub(crate) mod hooks;
pub(crate) mod probe;
pub(crate) mod queue;
pub(crate) mod register;
pub(crate) mod ring;
pub(crate) mod setup;
pub(crate) mod syscall;
#[cfg(test)]
mod test_ring;

// The kernel ABI, liburing's public structs and the API version are declared
// once, in the dependency-free `uring-uapi` crate.
pub(crate) use uring_uapi as uapi;
pub(crate) use uring_uapi::ring_types as structs;
pub(crate) use uring_uapi::version;

/// A panic must never unwind into C: every profile sets `panic = "abort"`,
/// and in the `no_std` build this handler aborts the process.
#[cfg(not(test))]
#[panic_handler]
fn on_panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    // SAFETY: abort() takes no arguments and never returns.
    unsafe { libc::abort() }
}

// Parts of `core` are precompiled with unwinding tables that name
// `rust_eh_personality`. With `panic = "abort"` it is never called, but a C
// program linking liburing.a must still resolve it. An ordinary empty
// function does that on every architecture; the Makefile's relink makes it
// local like every symbol outside liburing's API, so it cannot clash with a
// Rust runtime linked into the same program.
// (Inside an anonymous const so the header generator, which lists every
// exported function, does not take it for part of liburing's API.)
#[cfg(not(test))]
const _: () = {
    #[no_mangle]
    extern "C" fn rust_eh_personality() {}
};

// The same for 32-bit Arm, whose EHABI unwind tables name libgcc_s's
// personality routines: without these the shared library would need
// libgcc_s.so.1. Nothing unwinds through this library (no callbacks, no
// cancellation points), so if one is ever asked it answers _URC_FAILURE.
#[cfg(all(not(test), target_arch = "arm"))]
const _: () = {
    /// `_URC_FAILURE`: this frame cannot be unwound.
    const URC_FAILURE: u32 = 9;
    #[no_mangle]
    extern "C" fn __aeabi_unwind_cpp_pr0(_state: u32, _ucbp: *mut u8, _ctx: *mut u8) -> u32 {
        URC_FAILURE
    }
    #[no_mangle]
    extern "C" fn __aeabi_unwind_cpp_pr1(_state: u32, _ucbp: *mut u8, _ctx: *mut u8) -> u32 {
        URC_FAILURE
    }
    #[no_mangle]
    extern "C" fn __aeabi_unwind_cpp_pr2(_state: u32, _ucbp: *mut u8, _ctx: *mut u8) -> u32 {
        URC_FAILURE
    }
};
