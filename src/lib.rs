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
// program linking liburing.a must still resolve it. A weak, empty definition
// does that without clashing with a Rust runtime linked into the same program.
#[cfg(all(
    not(test),
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
))]
core::arch::global_asm!(
    ".pushsection .text.rust_eh_personality,\"ax\",@progbits",
    ".weak rust_eh_personality",
    ".type rust_eh_personality,@function",
    "rust_eh_personality:",
    "ret",
    ".size rust_eh_personality, . - rust_eh_personality",
    ".popsection",
);
