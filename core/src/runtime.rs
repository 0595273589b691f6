// SPDX-License-Identifier: MIT
//! What a `no_std` staticlib built on this crate needs from a runtime:
//! the panic handler (abort) and the unwinding personality symbols that
//! precompiled parts of `core` name. Both the library (`uring-rs`) and the
//! diagnostics object (`uring-diag`) are such staticlibs; they get these
//! from here, once. Not in test builds, where std provides them.

/// A panic must never unwind into C: every profile sets `panic = "abort"`,
/// and in the `no_std` build this handler aborts the process.
#[cfg(not(any(test, feature = "test-support")))]
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
#[cfg(not(any(test, feature = "test-support")))]
const _: () = {
    #[no_mangle]
    extern "C" fn rust_eh_personality() {}
};

// The same for 32-bit Arm, whose EHABI unwind tables name libgcc_s's
// personality routines: without these the shared library would need
// libgcc_s.so.1. Nothing unwinds through this library (no callbacks, no
// cancellation points), so if one is ever asked it answers _URC_FAILURE.
#[cfg(all(not(any(test, feature = "test-support")), target_arch = "arm"))]
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
