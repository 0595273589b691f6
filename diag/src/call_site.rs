// SPDX-License-Identifier: MIT
//! Where the program called the library: the return address of its call,
//! for `LIBURING_CHECK`'s findings, named with `dladdr` where it can be
//! (`symbol+0xoff (object)`, else `object+0xoff`, else the raw address).
//!
//! The library's entry points do not pass their return address down (Rust
//! has no stable way to read it, and the hot path must not pay for it), so
//! it is found when a finding is printed, which is rare: the calling
//! thread's stack is scanned upward from here, past the frames of this
//! object and of the library, for the first word that points into the code
//! of another object just after a call instruction that leads into the
//! library (decoded on x86-64: a direct call, a call through a PLT stub or
//! a GOT slot; elsewhere any call). The frames between are only ours and
//! the library's; a stale word in them (an earlier, deeper call's return
//! address) could still mislead the scan where the target is not decoded,
//! which is why the name of the library call stays beside it.
//!
//! Nothing here runs unless a finding is printed; it reads only this
//! thread's stack (within the bounds the C library gives) and code bytes of
//! loaded objects' executable segments.

use core::ffi::{c_int, c_void, CStr};
use core::mem::MaybeUninit;

use super::line::Line;

/// Stack bytes scanned at most above the finding's frame.
const SCAN_BYTES: usize = 64 * 1024;
/// Executable segments remembered (the rest of a very large program's
/// objects is not searched).
const MAX_SEGMENTS: usize = 64;

/// The code of the objects the return address may be in.
struct Segments {
    /// Start and end of each executable segment of another object.
    ranges: [(usize, usize); MAX_SEGMENTS],
    len: usize,
    /// Its readable segments (where a call's GOT slot may be).
    readable: [(usize, usize); MAX_SEGMENTS],
    readable_len: usize,
    /// The library's executable segments (what the call must reach).
    library: [(usize, usize); 4],
    /// Addresses inside the objects to skip (this one and the library).
    skip: [usize; 2],
}

fn within(ranges: &[(usize, usize)], from: usize, to: usize) -> bool {
    ranges
        .iter()
        .any(|&(s, e)| from >= s && to <= e && from <= to)
}

extern "C" fn add_segments(
    info: *mut libc::dl_phdr_info,
    _size: usize,
    data: *mut c_void,
) -> c_int {
    // SAFETY: dl_iterate_phdr passes the `Segments` given below as `data`
    // and a valid `info` for the length of the call.
    let (segs, info) = unsafe { (&mut *data.cast::<Segments>(), &*info) };
    if info.dlpi_phdr.is_null() {
        return 0;
    }
    // SAFETY: `dlpi_phdr` points at `dlpi_phnum` program headers.
    let phdrs =
        unsafe { core::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
    let mut exec = [(0usize, 0usize); 8];
    let mut read = [(0usize, 0usize); 8];
    let (mut n, mut r) = (0, 0);
    let mut skipped = None;
    for ph in phdrs {
        if ph.p_type != libc::PT_LOAD {
            continue;
        }
        let start = (info.dlpi_addr as usize).wrapping_add(ph.p_vaddr as usize);
        let end = start.wrapping_add(ph.p_memsz as usize);
        if ph.p_flags & libc::PF_R != 0 {
            if let Some(m) = read.get_mut(r) {
                *m = (start, end);
                r += 1;
            }
        }
        if ph.p_flags & libc::PF_X == 0 {
            continue;
        }
        if let Some(k) = segs.skip.iter().position(|&a| a >= start && a < end) {
            skipped = Some(k);
        }
        if let Some(m) = exec.get_mut(n) {
            *m = (start, end);
            n += 1;
        }
    }
    match skipped {
        // The library: where a call must lead.
        Some(1) => {
            for (slot, &e) in segs.library.iter_mut().zip(exec.iter().take(n)) {
                *slot = e;
            }
        }
        // This object: none of its code.
        Some(_) => {}
        None => {
            for &e in exec.iter().take(n) {
                if let Some(slot) = segs.ranges.get_mut(segs.len) {
                    *slot = e;
                    segs.len += 1;
                }
            }
            for &e in read.iter().take(r) {
                if let Some(slot) = segs.readable.get_mut(segs.readable_len) {
                    *slot = e;
                    segs.readable_len += 1;
                }
            }
        }
    }
    0
}

/// The bounds of the calling thread's stack, as the C library knows them.
fn stack_top() -> Option<usize> {
    let mut attr = MaybeUninit::<libc::pthread_attr_t>::uninit();
    // SAFETY: fills `attr` for this thread; destroyed below when it did.
    if unsafe { libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) } != 0 {
        return None;
    }
    let mut addr: *mut c_void = core::ptr::null_mut();
    let mut size = 0usize;
    // SAFETY: `attr` was initialised by pthread_getattr_np.
    let got = unsafe { libc::pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size) };
    // SAFETY: as above; destroyed once.
    unsafe { libc::pthread_attr_destroy(attr.as_mut_ptr()) };
    (got == 0 && !addr.is_null()).then(|| (addr as usize).wrapping_add(size))
}

/// Reads the `usize` at `at` when it lies in a readable segment.
fn read_word(segs: &Segments, at: usize) -> Option<usize> {
    let readable = segs.readable.get(..segs.readable_len)?;
    // SAFETY: inside a readable segment of a loaded object; unaligned.
    within(readable, at, at.checked_add(8)?)
        .then(|| unsafe { (at as *const usize).read_unaligned() })
}

/// Whether the code bytes before `ret` end in a call that leads into the
/// library (directly, through a PLT stub, or through a GOT slot); where the
/// instructions are not decoded here (other architectures), any call.
///
/// # Safety
/// `ret - 8 .. ret` lies in one executable segment of a loaded object.
unsafe fn after_call(segs: &Segments, ret: usize) -> bool {
    // SAFETY: the caller's promise: readable code bytes.
    let b = |back: usize| unsafe { *((ret - back) as *const u8) };
    let library = |a: usize| within(&segs.library, a, a);
    if cfg!(target_arch = "x86_64") {
        let disp = |at: usize| {
            // SAFETY: the 4 bytes before `ret` are code bytes (checked by
            // the caller) or inside an executable segment (checked below).
            i32::from_le_bytes(unsafe { *(at as *const [u8; 4]) }) as isize as usize
        };
        if b(6) == 0xff && b(5) == 0x15 {
            // call *disp32(%rip): a GOT slot holding the function.
            return read_word(segs, ret.wrapping_add(disp(ret - 4))).is_some_and(library);
        }
        if b(5) != 0xe8 {
            return false;
        }
        let target = ret.wrapping_add(disp(ret - 4));
        if library(target) {
            return true;
        }
        // A PLT stub: [endbr64] [bnd] jmp *disp32(%rip).
        let code = segs.ranges.get(..segs.len).unwrap_or(&[]);
        if !within(code, target, target.wrapping_add(12)) {
            return false;
        }
        // SAFETY: 12 code bytes at `target`, checked just above.
        let stub = unsafe { *(target as *const [u8; 12]) };
        let mut at = 0;
        if stub[..4] == [0xf3, 0x0f, 0x1e, 0xfa] {
            at = 4;
        }
        if stub.get(at) == Some(&0xf2) {
            at += 1;
        }
        if stub.get(at..at + 2) != Some(&[0xff, 0x25][..]) {
            return false;
        }
        let next = target + at + 6;
        read_word(segs, next.wrapping_add(disp(target + at + 2))).is_some_and(library)
    } else if cfg!(target_arch = "aarch64") {
        // SAFETY: 4 aligned bytes of code (aarch64 instructions are).
        let insn = u32::from_le_bytes([b(4), b(3), b(2), b(1)]);
        insn & 0xfc00_0000 == 0x9400_0000 || insn & 0xffff_fc1f == 0xd63f_0000
    } else {
        true
    }
}

/// The program's return address from its call into the library, if the
/// scan finds one. `library` is an address inside the library's code.
fn find(library: usize) -> Option<usize> {
    let mut segs = Segments {
        ranges: [(0, 0); MAX_SEGMENTS],
        len: 0,
        readable: [(0, 0); MAX_SEGMENTS],
        readable_len: 0,
        library: [(0, 0); 4],
        skip: [find as fn(usize) -> Option<usize> as usize, library],
    };
    // SAFETY: the callback reads what dl_iterate_phdr passes and writes
    // only `segs`, alive for the call.
    unsafe { libc::dl_iterate_phdr(Some(add_segments), (&raw mut segs).cast()) };
    let here = 0usize;
    let from = (&raw const here as usize + 7) & !7;
    let top = stack_top()?.min(from.saturating_add(SCAN_BYTES));
    let mut at = from;
    while at + 8 <= top {
        // SAFETY: an aligned word of this thread's stack, between a local
        // of this frame and the stack's top.
        let w = unsafe { *(at as *const usize) };
        let code = segs
            .ranges
            .iter()
            .take(segs.len)
            .any(|&(s, e)| w >= s.saturating_add(8) && w < e);
        // SAFETY: `w - 8 .. w` is in that executable segment.
        if code && unsafe { after_call(&segs, w) } {
            return Some(w);
        }
        at += 8;
    }
    None
}

/// Appends ` called from <where>` for the program's call into the library
/// (nothing when the scan finds none, as in a static program, where the
/// library and the program are one object).
pub fn append(l: &mut Line) {
    // The library's own code: where io_uring_submit is (any entry point
    // would do); without it nothing tells the library's frames apart.
    // SAFETY: a NUL-terminated name; RTLD_DEFAULT searches the program's
    // global scope.
    let lib = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"io_uring_submit".as_ptr()) };
    if lib.is_null() {
        return;
    }
    let Some(ret) = find(lib as usize) else {
        return;
    };
    l.s(" called from ");
    let mut info = MaybeUninit::<libc::Dl_info>::zeroed();
    // SAFETY: dladdr fills `info` (zeroed first) and returns non-zero when
    // the address is in a loaded object.
    let known = unsafe { libc::dladdr(ret as *const c_void, info.as_mut_ptr()) } != 0;
    // SAFETY: zero-initialised, and filled by dladdr when `known`.
    let info = unsafe { info.assume_init() };
    if !known || info.dli_fname.is_null() {
        l.x(ret as u64);
        return;
    }
    // SAFETY: dladdr's names are NUL-terminated strings of the loader.
    let object = unsafe { CStr::from_ptr(info.dli_fname) }.to_bytes();
    if !info.dli_sname.is_null() && !info.dli_saddr.is_null() {
        // SAFETY: as above.
        l.bytes(unsafe { CStr::from_ptr(info.dli_sname) }.to_bytes());
        l.s("+").x((ret - info.dli_saddr as usize) as u64).s(" (");
        l.bytes(object).s(")");
    } else {
        l.bytes(object)
            .s("+")
            .x((ret - info.dli_fbase as usize) as u64);
        l.s(" (").x(ret as u64).s(")");
    }
}
