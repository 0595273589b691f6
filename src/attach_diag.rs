// SPDX-License-Identifier: MIT
//! Loads the diagnostics object when `LIBURING_DEBUG`, `LIBURING_TRACE` or
//! `LIBURING_CHECK` asks for it, and only then.
//!
//! The diagnostics (setup and registration causes, the trace, their name
//! tables) are about ten times the size of the library. They live in a
//! shared object of their own, `uring-rs/liburing-diag.so` in the directory
//! of the loaded `liburing.so.2` (after resolving symbolic links), so the
//! build tree, a `DESTDIR` install, a system install and `LD_PRELOAD` from
//! any directory all find the one built with them. A program that sets
//! none of the variables pays one `getauxval` and three `getenv` calls at load.
//!
//! The object is refused when it was built against another observer
//! interface ([`hooks::INTERFACE`]); when it is missing or refused, one
//! line on stderr says so and the program runs as if the variables were
//! unset. Secure-execution processes (setuid, setgid, file capabilities)
//! load nothing, as the C library ignores its own debugging variables there.
//!
//! Only the shared libraries run this: the Makefile drops the constructor's
//! section (`.init_array.65535`, named in the Makefile's `ATTACH_SECTION`;
//! keep the two equal) from `liburing.a`, so a static program never
//! references `dlopen`.

use core::ffi::{c_char, c_void, CStr};

use crate::hooks::{self, Attachment};

// Runs when the shared library is loaded, before the program's main (or
// before dlopen of the library returns). Not under Miri or in tests.
#[cfg(not(any(test, miri)))]
#[used]
#[link_section = ".init_array.65535"]
static ATTACH_AT_LOAD: extern "C" fn() = attach_at_load;

/// Where the object lives relative to the library's own directory.
const OBJECT: &[u8] = b"/uring-rs/liburing-diag.so\0";
/// A resolved path and the object's name after its directory.
const PATH_BYTES: usize = libc::PATH_MAX as usize + OBJECT.len();

/// Whether the variable `name` asks for something (set, not empty, not `0`).
fn asks(name: &CStr) -> bool {
    // SAFETY: getenv with a NUL-terminated name; constructors run before the
    // program's threads exist, so the environment is not being changed.
    let v = unsafe { libc::getenv(name.as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    !v.is_null() && !matches!(unsafe { *v } as u8, 0 | b'0')
}

#[cfg_attr(any(test, miri), allow(dead_code))]
extern "C" fn attach_at_load() {
    // SAFETY: getauxval has no preconditions; 0 when the entry is absent.
    if unsafe { libc::getauxval(libc::AT_SECURE) } != 0 {
        return;
    }
    if !asks(c"LIBURING_DEBUG") && !asks(c"LIBURING_TRACE") && !asks(c"LIBURING_CHECK") {
        return;
    }
    let mut path = [0u8; PATH_BYTES];
    if !object_path(&mut path) {
        say(b"cannot locate liburing.so.2 itself");
        return;
    }
    // SAFETY: `path` is NUL-terminated (object_path); the handle is
    // checked. RTLD_LOCAL: its symbols serve only this lookup.
    let handle = unsafe { libc::dlopen(path.as_ptr().cast(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        // SAFETY: dlerror has no preconditions; its text, if any, is a C string.
        say_c(unsafe { libc::dlerror() });
        return;
    }
    // SAFETY: a live handle and a NUL-terminated name.
    let sym = unsafe { libc::dlsym(handle, hooks::ATTACH_SYMBOL.as_ptr()) };
    if sym.is_null() {
        say(b"the diagnostics object has no attach function");
        return;
    }
    // SAFETY: the object exports this name with exactly this signature
    // (uring-diag's `attach`); an object built from other sources is told
    // apart by the interface digest it is given before anything else.
    let attach: extern "C" fn(u64) -> Attachment = unsafe { core::mem::transmute(sym) };
    let a = attach(hooks::INTERFACE);
    match (a.status, a.observer) {
        (hooks::ATTACHED, Some(observer)) => {
            // SAFETY: this is the load-time constructor: no ring exists
            // and no other thread can call the library yet.
            unsafe { hooks::install(observer, a.rings) };
        }
        (hooks::OTHER_INTERFACE, _) => {
            say(b"the diagnostics object comes from another build of uring-rs");
        }
        _ => {}
    }
}

/// Writes `<dir of this library>/uring-rs/liburing-diag.so` into `out`,
/// NUL-terminated.
fn object_path(out: &mut [u8; PATH_BYTES]) -> bool {
    // SAFETY: an all-zero Dl_info is a valid out-parameter.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    let here = attach_at_load as extern "C" fn() as *const c_void;
    // SAFETY: `here` is an address inside this library; `info` is writable.
    if unsafe { libc::dladdr(here, &mut info) } == 0 || info.dli_fname.is_null() {
        return false;
    }
    // SAFETY: dladdr's file name is a NUL-terminated string owned by the
    // dynamic loader; realpath writes at most PATH_MAX bytes, NUL included,
    // into `out`, which has room for PATH_MAX plus the object's name.
    if unsafe { libc::realpath(info.dli_fname, out.as_mut_ptr().cast()) }.is_null() {
        return false;
    }
    // SAFETY: `out` now holds a NUL-terminated path of at most PATH_MAX
    // bytes; strrchr finds its last '/' (an absolute path has one), after
    // which OBJECT fits: the buffer has OBJECT.len() bytes past PATH_MAX.
    unsafe {
        let slash = libc::strrchr(out.as_ptr().cast(), i32::from(b'/'));
        if slash.is_null() {
            return false;
        }
        core::ptr::copy_nonoverlapping(OBJECT.as_ptr(), slash.cast::<u8>(), OBJECT.len());
    }
    true
}

/// One line on stderr: the variables were set and stay without effect.
#[cold]
#[inline(never)]
fn say(why: &[u8]) {
    const HEAD: &[u8] = b"liburing: LIBURING_DEBUG/LIBURING_TRACE/LIBURING_CHECK ignored: ";
    let parts = [
        libc::iovec {
            iov_base: HEAD.as_ptr().cast_mut().cast(),
            iov_len: HEAD.len(),
        },
        libc::iovec {
            iov_base: why.as_ptr().cast_mut().cast(),
            iov_len: why.len(),
        },
        libc::iovec {
            iov_base: b"\n".as_ptr().cast_mut().cast(),
            iov_len: 1,
        },
    ];
    // Only when a write can neither block nor raise SIGPIPE (a pipe or
    // socket whose reader has gone reports POLLERR or POLLHUP).
    let mut p = libc::pollfd {
        fd: 2,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no wait.
    let ready = unsafe { libc::poll(&mut p, 1, 0) } == 1 && p.revents == libc::POLLOUT;
    if ready {
        // SAFETY: three iovecs over live byte slices; writev only reads them.
        unsafe { libc::writev(2, parts.as_ptr(), 3) };
    }
}

#[cold]
#[inline(never)]
fn say_c(why: *const c_char) {
    if why.is_null() {
        say(b"the diagnostics object cannot be loaded");
    } else {
        // SAFETY: dlerror's text is NUL-terminated.
        say(unsafe { CStr::from_ptr(why) }.to_bytes());
    }
}

// Installs an observer attached by the static diagnostics archive
// (`liburing-diag.a`, whose constructor calls this). An internal symbol of
// `liburing.a`; the shared libraries do not export it. (Inside an anonymous
// const so the header generator does not take it for liburing's API.)
const _: () = {
    /// # Safety
    /// Called only from a load-time constructor: no ring exists yet and no
    /// other thread can call the library.
    #[no_mangle]
    unsafe extern "C" fn __uring_rs_install(observer: &'static hooks::Observer, rings: bool) {
        // SAFETY: per the caller.
        unsafe { hooks::install(observer, rings) };
    }
};
