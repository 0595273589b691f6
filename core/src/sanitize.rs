// SPDX-License-Identifier: MIT
//! The sanitizer build's check of what SQEs point at (`./configure
//! --enable-sanitizer`, `make SANITIZE=address`: the `sanitize` feature),
//! as liburing 2.15's build of that name: before a submit call hands SQEs
//! to the kernel, each one's memory (by opcode, [`uapi::checked_fields`])
//! is looked up in AddressSanitizer's shadow; memory that is freed or out
//! of bounds is described by ASan (where it was allocated and freed) and
//! the process exits with status 1, before the kernel could write into it.
//!
//! Only the sanitizer build calls this (`queue::submit_as`), and so only
//! it refers to ASan's interface; an ordinary build drops it whole.
#![cfg_attr(not(feature = "sanitize"), allow(dead_code))]

use core::ffi::{c_int, c_void};
use core::sync::atomic::Ordering;

use crate::geometry::sqe_shift;
use crate::ring::LiveRing;
use crate::uapi::{
    self, io_uring_sqe, IORING_OP_NOP128, IORING_OP_URING_CMD128, IORING_SETUP_SQE_MIXED,
    IORING_SETUP_SQ_REWIND,
};

// AddressSanitizer's public interface (<sanitizer/asan_interface.h>),
// present in every program built with -fsanitize=address.
extern "C" {
    fn __asan_address_is_poisoned(addr: *const c_void) -> c_int;
    fn __asan_region_is_poisoned(addr: *const c_void, size: usize) -> *mut c_void;
    fn __asan_describe_address(addr: *const c_void);
}

/// Checks every SQE taken since the kernel last consumed (the kernel's head
/// to the SQ's private tail), stopping the process at the first one that
/// points at poisoned memory.
pub fn check_unconsumed(ring: LiveRing) {
    let tail = ring.sqe_tail();
    // Acquire: the kernel is done with the slots below its head; the ones
    // from there to our tail are this thread's (the submitter's).
    let head = if ring.flags() & IORING_SETUP_SQ_REWIND != 0 {
        0
    } else {
        ring.sq_khead().load(Ordering::Acquire)
    };
    let entries = ring.sq_entries();
    let shift = sqe_shift(ring.flags());
    let mixed = ring.flags() & IORING_SETUP_SQE_MIXED != 0;
    let mut pos = head;
    while pos != tail && tail.wrapping_sub(pos) <= entries {
        let index = (pos & ring.sq_mask()) << shift;
        // SAFETY: `index` is below the SQE array's `entries << shift`
        // slots; the slot was handed out by get_sqe and not yet consumed,
        // so only this (submitting) thread writes it, and it is done.
        let sqe = unsafe { &*ring.sqes().wrapping_add(index as usize) };
        check_sqe(sqe);
        let wide = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if mixed && wide { 2 } else { 1 });
    }
}

/// Checks what an `io_uring_register` call hands the kernel, as liburing's
/// sanitizer build does (its `register.c`): the first byte of `arg` for
/// every opcode, and, by opcode, the iovec arrays of a buffer registration
/// or update (the array and each buffer, over their lengths) and the fd and
/// tag arrays of a file registration or update (their first bytes).
///
/// # Safety
/// `arg` is what the caller hands the kernel for `opcode`: for the
/// opcodes below, the structure the kernel reads (or null).
pub unsafe fn check_register(opcode: u32, arg: *const c_void, nr_args: u32) {
    use crate::uapi::{
        io_uring_rsrc_register, io_uring_rsrc_update, io_uring_rsrc_update2,
        IORING_REGISTER_BUFFERS, IORING_REGISTER_BUFFERS2, IORING_REGISTER_BUFFERS_UPDATE,
        IORING_REGISTER_FILES, IORING_REGISTER_FILES2, IORING_REGISTER_FILES_UPDATE,
        IORING_REGISTER_FILES_UPDATE2,
    };
    check_address(opcode, "arg", arg as usize);
    if arg.is_null() {
        return;
    }
    let ptr = |v: u64| v as usize;
    match opcode {
        IORING_REGISTER_BUFFERS => check_iovecs(opcode, arg.cast(), nr_args),
        IORING_REGISTER_BUFFERS2 => {
            // SAFETY: per the caller, the registration the kernel reads.
            let reg = unsafe { &*arg.cast::<io_uring_rsrc_register>() };
            check_iovecs(opcode, ptr(reg.data) as *const libc::iovec, reg.nr);
        }
        IORING_REGISTER_BUFFERS_UPDATE => {
            // SAFETY: as above.
            let up = unsafe { &*arg.cast::<io_uring_rsrc_update2>() };
            check_iovecs(opcode, ptr(up.data) as *const libc::iovec, up.nr);
        }
        IORING_REGISTER_FILES => {}
        IORING_REGISTER_FILES2 => {
            // SAFETY: as above.
            let reg = unsafe { &*arg.cast::<io_uring_rsrc_register>() };
            check_address(opcode, "files", ptr(reg.data));
            check_address(opcode, "tags", ptr(reg.tags));
        }
        IORING_REGISTER_FILES_UPDATE => {
            // SAFETY: as above.
            let up = unsafe { &*arg.cast::<io_uring_rsrc_update>() };
            check_address(opcode, "files", ptr(up.data));
        }
        IORING_REGISTER_FILES_UPDATE2 => {
            // SAFETY: as above.
            let up = unsafe { &*arg.cast::<io_uring_rsrc_update2>() };
            check_address(opcode, "files", ptr(up.data));
            check_address(opcode, "tags", ptr(up.tags));
        }
        _ => {}
    }
}

/// Stops the process when the byte at `at` (an argument of register
/// `opcode`, or the out-parameter of a call) is poisoned.
pub fn check_address(opcode: u32, what: &str, at: usize) {
    // An address, not a pointer this code reads through.
    let at = at as *const c_void;
    // SAFETY: ASan's query reads only its own shadow memory.
    if unsafe { __asan_address_is_poisoned(at) } != 0 {
        stop_register(opcode, what, at);
    }
}

/// An iovec array and every buffer it names, over their lengths.
fn check_iovecs(opcode: u32, iovecs: *const libc::iovec, nr: u32) {
    let bytes = (nr as usize).saturating_mul(core::mem::size_of::<libc::iovec>());
    // SAFETY: ASan's query reads only its own shadow memory.
    if !unsafe { __asan_region_is_poisoned(iovecs.cast(), bytes) }.is_null() {
        stop_register(opcode, "iovec array", iovecs.cast());
    }
    if iovecs.is_null() {
        return;
    }
    for i in 0..nr as usize {
        // SAFETY: the array is addressable over `nr` entries (just
        // checked), and the caller hands it to the kernel to read.
        let iov = unsafe { iovecs.add(i).read() };
        // SAFETY: as above.
        if !unsafe { __asan_region_is_poisoned(iov.iov_base, iov.iov_len) }.is_null() {
            stop_register(opcode, "buffer of an iovec", iov.iov_base);
        }
    }
}

/// As [`stop`], for a registration.
#[cold]
fn stop_register(opcode: u32, what: &str, at: *const c_void) -> ! {
    let mut line = Line::default();
    line.s("liburing: sanitizer: io_uring_register opcode 0x")
        .x(u64::from(opcode))
        .s(": the ")
        .s(what)
        .s(" points at poisoned memory (freed, or outside its allocation); not registered\n");
    finish(&line, at)
}

/// Checks one SQE's memory as its opcode's row says.
fn check_sqe(sqe: &io_uring_sqe) {
    let fields = uapi::checked_fields(sqe.opcode);
    if fields == 0 {
        return;
    }
    if fields & uapi::ASAN_ADDR != 0 {
        check_byte(sqe, "addr", sqe.addr);
    }
    if fields & uapi::ASAN_ADDR2 != 0 {
        check_byte(sqe, "addr2", sqe.addr2());
    }
    if fields & uapi::ASAN_ADDR3 != 0 {
        check_byte(sqe, "addr3", sqe.addr3);
    }
    if fields & uapi::ASAN_OPTVAL != 0 {
        let (at, len) = (
            sqe.optval() as usize as *const c_void,
            sqe.file_index() as usize,
        );
        // SAFETY: ASan's query reads only its own shadow memory.
        if !unsafe { __asan_region_is_poisoned(at, len) }.is_null() {
            stop(sqe, "optval", at);
        }
    }
}

/// Stops the process when the byte at `addr` is poisoned.
fn check_byte(sqe: &io_uring_sqe, field: &str, addr: u64) {
    let at = addr as usize as *const c_void;
    // SAFETY: ASan's query reads only its own shadow memory.
    if unsafe { __asan_address_is_poisoned(at) } != 0 {
        stop(sqe, field, at);
    }
}

/// Says which SQE and field, lets ASan describe the memory, and exits with
/// status 1 (as liburing's sanitizer build does), before the kernel sees
/// the SQE.
#[cold]
fn stop(sqe: &io_uring_sqe, field: &str, at: *const c_void) -> ! {
    let mut line = Line::default();
    line.s("liburing: sanitizer: ")
        .s(uapi::opcode(sqe.opcode).map_or("an unknown opcode", |o| o.name))
        .s(" user_data=0x")
        .x(sqe.user_data)
        .s(": sqe->")
        .s(field)
        .s(" points at poisoned memory (freed, or outside its allocation); not submitted\n");
    finish(&line, at)
}

/// Writes `line`, lets ASan describe `at`, and exits with status 1.
#[cold]
fn finish(line: &Line, at: *const c_void) -> ! {
    // SAFETY: writes the line's own initialised bytes to stderr.
    unsafe { libc::write(2, line.buf.as_ptr().cast(), line.len) };
    // SAFETY: ASan prints what it knows of the address (its allocation and
    // free stacks, or what it lies in); it reads only its own records.
    unsafe { __asan_describe_address(at) };
    // SAFETY: ends the process as liburing does (atexit handlers, ASan's
    // leak check).
    unsafe { libc::exit(1) }
}

/// A fixed buffer for the one line `stop` writes (no allocation).
struct Line {
    buf: [u8; 192],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            buf: [0; 192],
            len: 0,
        }
    }
}

impl Line {
    fn s(&mut self, s: &str) -> &mut Self {
        for &b in s.as_bytes() {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        self
    }

    fn x(&mut self, v: u64) -> &mut Self {
        let digits = b"0123456789abcdef";
        let mut shift = 60i32;
        // Leading zeros dropped, at least one digit.
        while shift > 0 && (v >> shift) & 0xf == 0 {
            shift -= 4;
        }
        while shift >= 0 {
            let d = digits[((v >> shift) & 0xf) as usize];
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = d;
                self.len += 1;
            }
            shift -= 4;
        }
        self
    }
}
