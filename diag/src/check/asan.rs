// SPDX-License-Identifier: MIT
//! `asan-poisoned`: in a program built with `-fsanitize=address`, the SQEs
//! a submit call is about to hand to the kernel are checked against
//! AddressSanitizer's records, field by field as the sanitizer build checks
//! them (`uring_uapi::checked_fields`, liburing 2.15's coverage): memory
//! that is freed or outside its allocation makes a finding, followed by
//! ASan's own description of the address (where it was allocated and
//! freed). The request still goes to the kernel (the checker changes
//! nothing a program does), unless `LIBURING_CHECK=abort` stops it first.
//!
//! ASan's interface is looked for once, at attach: only when a loaded
//! object's dynamic string table names `__asan_region_is_poisoned` (the
//! runtime, or the program that carries it) is it asked of the dynamic
//! linker, so a process without ASan makes no failing `dlsym` (whose error
//! message glibc would allocate from the program's allocator). Without it
//! nothing is checked, and the observer does not ask to be told before
//! submission (`looks_at_sqes`).

use core::ffi::{c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use super::report::{head, opname, Call};
use super::state::RingCheck;
use super::MODE;
use crate::uapi::{
    self, io_uring_sqe, IORING_OP_NOP128, IORING_OP_URING_CMD128, IORING_SETUP_SQE_MIXED,
};
use uring_core::observe::SubmitSide;

/// The finding's kind (a bit of `RingCheck::reported`).
pub(super) const POISONED: u32 = 1 << 9;

type IsPoisoned = unsafe extern "C" fn(*const c_void) -> c_int;
type RegionPoisoned = unsafe extern "C" fn(*const c_void, usize) -> *mut c_void;
type Describe = unsafe extern "C" fn(*const c_void);

/// Whether ASan's interface was found (then the three below are set).
static PRESENT: AtomicBool = AtomicBool::new(false);
static IS_POISONED: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static REGION_POISONED: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static DESCRIBE: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());

/// The name whose presence says ASan's runtime is in the process, with the
/// NULs around it in a string table.
const NEEDLE: &[u8] = b"\0__asan_region_is_poisoned\0";

/// Whether the checks run: ASan's interface is in the process.
#[inline(always)]
pub(super) fn present() -> bool {
    PRESENT.load(Ordering::Relaxed)
}

/// Looks for ASan's interface (at attach, once `LIBURING_CHECK` asks).
pub(super) fn find() {
    if !named_by_a_loaded_object() {
        return;
    }
    // SAFETY: NUL-terminated names; RTLD_DEFAULT searches the process, which
    // has the symbols (an object's dynamic string table names them).
    let (a, r, d) = unsafe {
        (
            libc::dlsym(libc::RTLD_DEFAULT, c"__asan_address_is_poisoned".as_ptr()),
            libc::dlsym(libc::RTLD_DEFAULT, c"__asan_region_is_poisoned".as_ptr()),
            libc::dlsym(libc::RTLD_DEFAULT, c"__asan_describe_address".as_ptr()),
        )
    };
    if a.is_null() || r.is_null() || d.is_null() {
        return;
    }
    IS_POISONED.store(a, Ordering::Relaxed);
    REGION_POISONED.store(r, Ordering::Relaxed);
    DESCRIBE.store(d, Ordering::Relaxed);
    // Release: the pointers above are seen by whoever sees the flag (set
    // at attach, before any hook runs, so Relaxed readers are fine too).
    PRESENT.store(true, Ordering::Release);
}

/// An `Elf_Dyn` entry: tag and value, each a word of the target's class.
#[repr(C)]
struct Dyn {
    tag: isize,
    val: usize,
}

const DT_NULL: isize = 0;
const DT_STRTAB: isize = 5;
const DT_STRSZ: isize = 10;

/// Whether some loaded object's dynamic string table holds [`NEEDLE`].
fn named_by_a_loaded_object() -> bool {
    let mut found = false;
    // SAFETY: the callback reads only the program headers and dynamic
    // sections the loader hands it (mapped while it runs); `data` is
    // `found`, alive for the call.
    unsafe { libc::dl_iterate_phdr(Some(scan_object), (&raw mut found).cast()) };
    found
}

unsafe extern "C" fn scan_object(
    info: *mut libc::dl_phdr_info,
    _size: libc::size_t,
    data: *mut c_void,
) -> c_int {
    // SAFETY: the loader's record of one loaded object, valid during the
    // callback.
    let info = unsafe { &*info };
    let base = info.dlpi_addr as usize;
    if info.dlpi_phdr.is_null() {
        return 0;
    }
    // SAFETY: `dlpi_phnum` program headers at `dlpi_phdr`, mapped.
    let phdrs =
        unsafe { core::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
    let Some(dynamic) = phdrs.iter().find(|p| p.p_type == libc::PT_DYNAMIC) else {
        return 0;
    };
    let mut entry = base.wrapping_add(dynamic.p_vaddr as usize) as *const Dyn;
    let (mut strtab, mut strsz) = (0usize, 0usize);
    loop {
        // SAFETY: the dynamic section, mapped, ends with DT_NULL.
        let d = unsafe { &*entry };
        match d.tag {
            DT_NULL => break,
            DT_STRTAB => strtab = d.val,
            DT_STRSZ => strsz = d.val,
            _ => {}
        }
        entry = entry.wrapping_add(1);
    }
    if strtab == 0 || strsz == 0 || strsz > 1 << 26 {
        return 0;
    }
    // glibc rewrites most objects' addresses in place; the vDSO's, musl's
    // and read-only dynamic sections keep the link-time offset.
    if strtab < base {
        strtab = strtab.wrapping_add(base);
    }
    // SAFETY: the object's dynamic string table, within its loaded image.
    let table = unsafe { core::slice::from_raw_parts(strtab as *const u8, strsz) };
    if table.windows(NEEDLE.len()).any(|w| w == NEEDLE) {
        // SAFETY: `data` is the caller's `found`.
        unsafe { *data.cast::<bool>() = true };
        return 1;
    }
    0
}

/// Checks the SQEs a submit call is about to hand to the kernel (from the
/// kernel's head to the SQ's private tail; the submitting thread's own),
/// reporting the first one that points at poisoned memory, while ASan's
/// records of it are intact: a read the kernel then does into freed memory
/// overwrites what the allocator keeps there, the stack of the free too.
pub(super) fn check_pending(c: &mut RingCheck, sq: SubmitSide<'_>, call: Call) {
    if c.reported & POISONED != 0 {
        return;
    }
    let to = sq.sqe_tail();
    let mut pos = sq.sq_khead();
    let entries = sq.sq_entries();
    if to.wrapping_sub(pos) > entries {
        return;
    }
    let shift = uring_core::geometry::sqe_shift(c.flags);
    let mixed = c.flags & IORING_SETUP_SQE_MIXED != 0;
    let (sqes, mask) = (sq.sqes(), sq.sq_mask());
    while pos != to {
        let Some(sqe) = sqes.get((pos & mask) << shift) else {
            return;
        };
        if let Some((field, at)) = poisoned(&sqe) {
            return report(c, call, &sqe, field, at);
        }
        let wide = matches!(sqe.opcode, IORING_OP_NOP128 | IORING_OP_URING_CMD128);
        pos = pos.wrapping_add(if mixed && wide { 2 } else { 1 });
    }
}

/// The first field of `sqe` its opcode's row checks that ASan says is
/// poisoned, with the address.
fn poisoned(sqe: &io_uring_sqe) -> Option<(&'static str, u64)> {
    let fields = uapi::checked_fields(sqe.opcode);
    if fields == 0 {
        return None;
    }
    let load = |p: &AtomicPtr<c_void>| p.load(Ordering::Relaxed);
    // SAFETY: set by `find` from the process's own ASan symbols, whose
    // types these are (<sanitizer/asan_interface.h>); only called once
    // `present()` said so.
    let is_poisoned: IsPoisoned = unsafe { core::mem::transmute(load(&IS_POISONED)) };
    // SAFETY: as above.
    let region: RegionPoisoned = unsafe { core::mem::transmute(load(&REGION_POISONED)) };
    let byte = |v: u64| {
        // SAFETY: ASan's query reads only its own shadow memory.
        unsafe { is_poisoned(v as usize as *const c_void) != 0 }
    };
    if fields & uapi::ASAN_ADDR != 0 && byte(sqe.addr) {
        return Some(("addr", sqe.addr));
    }
    if fields & uapi::ASAN_ADDR2 != 0 && byte(sqe.addr2()) {
        return Some(("addr2", sqe.addr2()));
    }
    if fields & uapi::ASAN_ADDR3 != 0 && byte(sqe.addr3) {
        return Some(("addr3", sqe.addr3));
    }
    if fields & uapi::ASAN_OPTVAL != 0 {
        let at = sqe.optval() as usize as *const c_void;
        // SAFETY: as `byte`.
        if !unsafe { region(at, sqe.file_index() as usize) }.is_null() {
            return Some(("optval", sqe.optval()));
        }
    }
    None
}

/// The finding, then ASan's description of `at`; aborts in abort mode
/// after both.
#[cold]
#[inline(never)]
fn report(c: &mut RingCheck, call: Call, sqe: &io_uring_sqe, field: &str, at: u64) {
    c.reported |= POISONED;
    let mut first = head(c, "asan-poisoned", call);
    let l = &mut *first;
    opname(l, sqe.opcode);
    l.s(" user_data=")
        .x(sqe.user_data)
        .s(": sqe->")
        .s(field)
        .s(" = ")
        .x(at)
        .s(" points at memory AddressSanitizer has poisoned (freed, or outside its allocation), and this call hands the SQE to the kernel, which will use it");
    l.emit_stderr();
    l.clear()
        .s("uring-check:   why: the kernel uses the memory an SQE names after the program's code last touched it, where AddressSanitizer cannot see; memory freed meanwhile may already belong to another allocation")
        .emit_stderr();
    l.clear()
        .s("uring-check:   fix: free (or let go out of scope) what an SQE names only after its CQE, and what only describes the request (iovecs, msghdr, timespec, path) only after the submit call returned; AddressSanitizer's description of the address follows")
        .emit_stderr();
    let describe: Describe =
        // SAFETY: as in `poisoned`.
        unsafe { core::mem::transmute(DESCRIBE.load(Ordering::Relaxed)) };
    // SAFETY: ASan prints what it knows of the address from its own
    // records, on its own output.
    unsafe { describe(at as usize as *const c_void) };
    if MODE.load(Ordering::Relaxed) == 2 {
        l.clear()
            .s("uring-check: LIBURING_CHECK=abort: aborting at the first finding")
            .emit_stderr();
        // SAFETY: no preconditions; ends the process.
        unsafe { libc::abort() };
    }
}
