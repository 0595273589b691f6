// SPDX-License-Identifier: MIT
//! Where the program called the library, for `LIBURING_CHECK`'s findings:
//! the return address of the program's call, which the C boundary records
//! on the observed path (`src/capi/detour.c`) and the observer is handed
//! with every report. It is named with `dladdr` (`symbol+0xoff (object)`,
//! else `object+0xoff (address)`, else the raw address), from the dynamic
//! loader's tables: nothing is read at the address, and no stack is
//! scanned, so a fiber, an alternate signal stack or a call through a
//! function pointer cannot make this fault.
//!
//! An address inside a library that attached (where a compiler did not
//! make the boundary's call a tail call) is not the program's: nothing is
//! named then, rather than something wrong.

use core::ffi::{c_void, CStr};
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::line::Line;
use uring_core::observe::Caller;

/// The load addresses of the libraries that attached (0: free).
static LIBRARIES: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

/// What `dladdr` knows of `addr`.
fn lookup(addr: *const c_void) -> Option<libc::Dl_info> {
    let mut info = MaybeUninit::<libc::Dl_info>::zeroed();
    // SAFETY: dladdr fills `info` (zeroed first) and returns non-zero when
    // the address is in a loaded object; it reads only the loader's tables.
    let known = unsafe { libc::dladdr(addr, info.as_mut_ptr()) } != 0;
    // SAFETY: zero-initialised, and filled by dladdr when `known`.
    known.then(|| unsafe { info.assume_init() })
}

/// Remembers the library whose code `addr` is in (an attaching library;
/// null for a static program, where the library is the program).
pub fn library_at(addr: *const c_void) {
    let Some(base) = lookup(addr).map(|i| i.dli_fbase as usize) else {
        return;
    };
    for slot in &LIBRARIES {
        match slot.compare_exchange(0, base, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return,
            Err(taken) if taken == base => return,
            Err(_) => {}
        }
    }
}

/// Appends ` called from <where>` for the program's call into the library
/// (nothing when it is not known).
pub fn append(l: &mut Line, caller: Caller) {
    if caller.is_null() {
        return;
    }
    let ret = caller as usize;
    let Some(info) = lookup(caller) else {
        l.s(" called from ").x(ret as u64);
        return;
    };
    let base = info.dli_fbase as usize;
    if LIBRARIES.iter().any(|s| s.load(Ordering::Relaxed) == base) {
        return;
    }
    l.s(" called from ");
    if info.dli_fname.is_null() {
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
        l.bytes(object).s("+").x((ret - base) as u64);
        l.s(" (").x(ret as u64).s(")");
    }
}
