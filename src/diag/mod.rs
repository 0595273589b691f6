// SPDX-License-Identifier: MIT
//! Diagnostics switched on by environment variables, read once at load:
//!
//! - `LIBURING_DEBUG=1`: a failed ring setup writes one line to stderr
//!   naming the cause the library could establish and the fix
//!   ([`setup_cause`]); a failed registration does the same when the cause
//!   is known ([`register_cause`]). Return values and errno are unchanged.
//! - `LIBURING_TRACE=stderr` or `LIBURING_TRACE=<path>`: every SQE handed to
//!   the kernel and every CQE the library can see is logged decoded, with a
//!   per-ring summary at `io_uring_queue_exit` or process exit ([`trace`]).
//!
//! # Cost when off
//! The existing code calls in through the small hooks below, each placed
//! on a cold path (setup, registration, teardown) or behind one predictable
//! branch (the wait and peek entry points). The submit path pays nothing:
//! a traced ring carries [`TRACED_RING`] in its `flags`, which the SQ flush
//! tests in the same instruction as `IORING_SETUP_SQ_REWIND`. Counting
//! enters costs one increment in `io_uring_enter2`.
//!
//! Hooks in existing files (all marked `diag hook`): `capi/setup.rs` (every
//! setup entry point and `io_uring_queue_exit`), `capi/queue.rs` (the wait,
//! peek and get-events entry points), `register.rs` (`register`),
//! `syscall.rs` (`io_uring_enter2`), `queue.rs` (`flush_sq`).

use crate::atomic_u64::AtomicU64;
use core::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use crate::ring::LiveRing;
use crate::structs::io_uring;
use crate::syscall::Errno;
use crate::uapi::io_uring_params;

pub mod line;
pub mod names;
mod register_cause;
mod setup_cause;
pub mod since;
pub mod sysinfo;
mod trace;

/// `LIBURING_DEBUG` is set (to anything but empty or `0`).
static DEBUG: AtomicBool = AtomicBool::new(false);
/// `LIBURING_TRACE` is set: where trace lines go, else -1.
static TRACE_FD: AtomicI32 = AtomicI32::new(-1);
/// Tracing is on (`TRACE_FD` is valid).
static TRACING: AtomicBool = AtomicBool::new(false);

/// A bit of `io_uring::flags` that no setup flag uses (a test checks the
/// uapi table) marks a ring set up while tracing. The SQ flush already tests
/// `flags` for `IORING_SETUP_SQ_REWIND` (bit 20); a bit of the same byte is
/// tested by the same one-byte instruction, which routes traced rings to
/// [`saw_ring`] at no cost to untraced ones.
pub const TRACED_RING: u32 = 1 << 23;

/// `io_uring_enter` calls made by this process (wrapping; written without
/// a locked instruction, so concurrent enters may rarely be undercounted).
static ENTERS: AtomicU64 = AtomicU64::new(0);

// Read the environment once, when the library is loaded (or, for
// liburing.a, when the program starts), before any ring exists.
#[used]
#[link_section = ".init_array"]
static READ_ENV_AT_LOAD: extern "C" fn() = read_env;

// Print the summaries of rings the program never tore down.
#[used]
#[link_section = ".fini_array"]
static SUMMARIES_AT_EXIT: extern "C" fn() = at_exit;

extern "C" fn read_env() {
    // SAFETY: getenv with a NUL-terminated name; constructors run before
    // the program's threads exist, so the environment is not being changed.
    let debug = unsafe { libc::getenv(c"LIBURING_DEBUG".as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    if !debug.is_null() && !matches!(unsafe { *debug } as u8, 0 | b'0') {
        DEBUG.store(true, Ordering::Relaxed);
    }
    // SAFETY: as above.
    let dest = unsafe { libc::getenv(c"LIBURING_TRACE".as_ptr()) };
    if dest.is_null() {
        return;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    let dest = unsafe { core::ffi::CStr::from_ptr(dest) };
    let fd = match dest.to_bytes() {
        b"" | b"0" => return,
        b"stderr" => 2,
        // SAFETY: `dest` is NUL-terminated; a failure is handled below.
        _ => unsafe {
            libc::open(
                dest.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | libc::O_CLOEXEC,
                0o644,
            )
        },
    };
    if fd < 0 {
        let mut l = line::Line::new();
        l.s("uring-trace: cannot open LIBURING_TRACE=")
            .bytes(dest.to_bytes())
            .s(" for appending; tracing stays off");
        l.emit(2);
        return;
    }
    TRACE_FD.store(fd, Ordering::Relaxed);
    TRACING.store(true, Ordering::Relaxed);
}

extern "C" fn at_exit() {
    if tracing() {
        trace::finish_all();
    }
}

/// `LIBURING_DEBUG` is on.
#[inline(always)]
pub fn debugging() -> bool {
    DEBUG.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traced_ring_bit_is_no_setup_flag() {
        assert_eq!(
            names::short_name(names::SETUP_FLAG, u64::from(TRACED_RING)),
            None
        );
        let before = enters();
        count_enter();
        assert_eq!(enters(), before + 1);
    }
}

/// `LIBURING_TRACE` is on.
#[inline(always)]
pub fn tracing() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// The fd trace lines go to.
fn trace_fd() -> i32 {
    TRACE_FD.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------
// Hooks called from the existing code
// ---------------------------------------------------------------------------

/// Hook after every setup entry point: explains a failure (debug) or
/// starts tracing a new ring. `p` is the caller's params when it gave any.
#[inline]
pub fn setup_done(
    call: &str,
    entries: u32,
    flags: u32,
    p: Option<&io_uring_params>,
    ring: &mut io_uring,
    err: Option<Errno>,
) {
    match err {
        Some(e) if debugging() => setup_cause::explain(call, entries, flags, p, e),
        None if tracing() && trace::ring_created(ring) => ring.flags |= TRACED_RING,
        _ => {}
    }
}

/// Hook after the raw `io_uring_setup(2)` entry point.
///
/// # Safety
/// `p` must be null or point to readable params (the kernel has read it).
#[inline]
pub unsafe fn raw_setup_done(entries: u32, p: *const io_uring_params, err: Option<Errno>) {
    if let Some(e) = err {
        if debugging() && e != Errno::EFAULT {
            // SAFETY: per the caller.
            let p = unsafe { p.as_ref() };
            let flags = p.map_or(0, |p| p.flags);
            setup_cause::explain("io_uring_setup", entries, flags, p, e);
        }
    }
}

/// Hook on every failed registration on a ring (`neg_errno`: the kernel's
/// `-errno`): explains the failure when the cause can be established (debug). Through a register-preserving
/// trampoline on x86-64 (see [`saw_ring`]), so the success path of every
/// register call keeps its values in registers.
#[inline(always)]
pub fn register_failed(opcode: u32, arg: *const core::ffi::c_void, nr_args: u32, neg_errno: i32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `saw_ring`: the trampoline preserves every general
    // register and the stack, the vector registers are declared clobbered.
    unsafe {
        core::arch::asm!(
            "lea rsp, [rsp - 128]",
            "call uring_diag_register_failed_trampoline",
            "lea rsp, [rsp + 128]",
            in("edi") opcode,
            in("rsi") arg,
            in("edx") nr_args,
            in("ecx") neg_errno,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    register_failed_c(opcode, arg, nr_args, neg_errno);
}

/// The body of [`register_failed`], with the C calling convention.
extern "C" fn register_failed_c(
    opcode: u32,
    arg: *const core::ffi::c_void,
    nr_args: u32,
    neg_errno: i32,
) {
    if debugging() {
        register_cause::explain(opcode, arg, nr_args, Errno(-neg_errno));
    }
}

/// Hook in every `io_uring_enter`: one increment, no branch.
#[inline(always)]
pub fn count_enter() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: one unlocked increment of the counter in place, like the
    // relaxed load and store below (the compiler would need two
    // instructions for those in position-independent code).
    unsafe {
        core::arch::asm!("inc qword ptr [rip + {c}]", c = sym ENTERS, options(nostack));
    }
    #[cfg(not(target_arch = "x86_64"))]
    ENTERS.store(
        ENTERS.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}

/// How many `io_uring_enter` calls this process has made.
fn enters() -> u64 {
    ENTERS.load(Ordering::Relaxed)
}

/// Hook for a ring carrying [`TRACED_RING`], called where the library
/// touches it: in the SQ flush (logs the SQEs about to be published and the
/// CQEs in the ring) and after each wait loop's `io_uring_enter` (the SQ is
/// flushed by then, so only the CQEs the kernel has posted are logged).
///
/// The flush is inlined into every submit function. An ordinary call here,
/// even never taken, makes the compiler keep the caller's values in
/// callee-saved registers and save them on every submit (about ten
/// instructions per call, measured). On x86-64 the call therefore goes
/// through a trampoline that saves every register the C ABI lets a callee
/// change, so the compiler sees a call that clobbers nothing but flags and
/// vector registers (which the submit path does not use).
#[inline(always)]
pub fn saw_ring(ring: LiveRing) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the trampoline (below) saves and restores rax, rcx, rdx, rsi,
    // rdi and r8-r11 around an ordinary C call of `saw_ring_c` on a stack it
    // aligns itself, and the callee preserves the rest; the vector registers
    // it may change are declared. The red zone the compiler may use below
    // the stack pointer is stepped over before the call and restored after
    // (`lea` leaves the flags alone), so the asm leaves the stack as found.
    unsafe {
        core::arch::asm!(
            "lea rsp, [rsp - 128]",
            "call uring_diag_saw_ring_trampoline",
            "lea rsp, [rsp + 128]",
            in("rdi") ring.as_ptr(),
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    saw_ring_c(ring.as_ptr());
}

/// Emits `$name`: a function that calls the C-ABI function `$target` with
/// the argument registers it was entered with, saving and restoring every
/// general register the C ABI lets `$target` change, on a stack it aligns
/// itself. Called from `asm!` that declares only vector registers clobbered,
/// it lets a cold hook sit on a hot path without making the compiler spill
/// anything around it.
macro_rules! preserving_trampoline {
    ($name:literal, $target:path) => {
        #[cfg(target_arch = "x86_64")]
        core::arch::global_asm!(
            concat!(".pushsection .text.", $name, ",\"ax\",@progbits"),
            concat!(".globl ", $name),
            concat!(".hidden ", $name),
            concat!(".type ", $name, ",@function"),
            ".p2align 4",
            concat!($name, ":"),
            // Any stack alignment on entry: align it for the C call, keep
            // the old stack pointer in rbp (callee-saved, so saved first).
            "push rbp",
            "mov rbp, rsp",
            "and rsp, -16",
            "push rax",
            "push rcx",
            "push rdx",
            "push rsi",
            "push rdi",
            "push r8",
            "push r9",
            "push r10",
            "push r11",
            "push r11",
            "call {target}",
            "pop r11",
            "pop r11",
            "pop r10",
            "pop r9",
            "pop r8",
            "pop rdi",
            "pop rsi",
            "pop rdx",
            "pop rcx",
            "pop rax",
            "mov rsp, rbp",
            "pop rbp",
            "ret",
            concat!(".size ", $name, ", . - ", $name),
            ".popsection",
            target = sym $target,
        );
    };
}

preserving_trampoline!("uring_diag_saw_ring_trampoline", saw_ring_c);
preserving_trampoline!("uring_diag_register_failed_trampoline", register_failed_c);

/// The body of [`saw_ring`], with the C calling convention.
extern "C" fn saw_ring_c(ring: *const io_uring) {
    // SAFETY: `ring` is the pointer of the `LiveRing` that `saw_ring` was
    // given, for the duration of that call, which this one is part of.
    let Some(ring) = (unsafe { LiveRing::from_ptr(ring.cast_mut()) }) else {
        return;
    };
    if ring.flags() & TRACED_RING != 0 {
        trace::saw_ring(ring);
    }
}

/// Hook at the start of `io_uring_queue_exit`: the ring's summary.
#[inline]
pub fn ring_exit(ring: &io_uring) {
    if tracing() {
        trace::ring_exit(ring);
    }
}
