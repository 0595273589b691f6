// SPDX-License-Identifier: MIT
//! Loads the diagnostics object when `LIBURING_DEBUG`, `LIBURING_TRACE` or
//! `LIBURING_CHECK` asks for it, and only then; detaches it when the
//! library is unloaded.
//!
//! The diagnostics (setup and registration causes, the trace, the checker,
//! their name tables) are about ten times the size of the library. They
//! live in a shared object of their own, `uring-rs/liburing-diag.so` in
//! the directory of the loaded `liburing.so.2` (after resolving symbolic
//! links), so the build tree, a `DESTDIR` install, a system install and
//! `LD_PRELOAD` from any directory all find the one built with them. A
//! program that sets none of the variables pays one `getauxval` and three
//! `getenv` calls at load.
//!
//! Before the object is loaded, its file is checked without running any
//! of it ([`object_check`]): its loadable segments must lie within the
//! file and their digest must be the one the build recorded in this
//! library, so a cut-short object (an interrupted upgrade) or a foreign one
//! is refused. It is then loaded from the descriptor that was checked.
//! When it is refused, missing, or built against another observer
//! interface, one line on stderr says so and the program runs as if the
//! variables were unset. Secure-execution processes (setuid, setgid, file
//! capabilities) load nothing, as the C library ignores its own debugging
//! variables there.
//!
//! Only the shared libraries run the constructor and destructor here: the
//! Makefile drops their sections (named in its `LOADER_SECTIONS`; keep the
//! two equal) from `liburing.a`, so a static program never references
//! `dlopen`. A static program without the diagnostics archive is told at
//! its first ring setup instead ([`notice_unattached`]).

use core::ffi::{c_char, c_void, CStr};
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use crate::observe::{self, Attachment};

mod object_check;

// Runs when the shared library is loaded, before the program's main (or
// before dlopen of the library returns). Not under Miri or in tests.
#[cfg(not(any(test, miri)))]
#[used]
#[link_section = ".init_array.65535"]
static ATTACH_AT_LOAD: extern "C" fn() = attach_at_load;

// Runs when the shared library is unloaded (dlclose), or at exit.
#[cfg(not(any(test, miri)))]
#[used]
#[link_section = ".fini_array.65535"]
static DETACH_AT_UNLOAD: extern "C" fn() = detach_at_unload;

/// Where the object lives relative to the library's own directory.
const OBJECT: &[u8] = b"/uring-rs/liburing-diag.so\0";
/// A resolved path and the object's name after its directory.
const PATH_BYTES: usize = libc::PATH_MAX as usize + OBJECT.len();

/// The loaded object and its detach function, while attached.
static HANDLE: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static DETACH: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
/// The shared library's constructor ran: a program that sets the
/// variables has been told at load whatever there was to tell.
static LOADER_RAN: AtomicBool = AtomicBool::new(false);
/// [`notice_unattached`] has spoken (or had nothing to say).
static NOTICED: AtomicBool = AtomicBool::new(false);

/// Whether the variable `name` asks for something (set, not empty, not `0`).
fn asks(name: &CStr) -> bool {
    // SAFETY: getenv with a NUL-terminated name; at load (constructors run
    // before the program's threads exist), or at a ring setup of a static
    // program, where only the program itself could change its environment.
    let v = unsafe { libc::getenv(name.as_ptr()) };
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    !v.is_null() && !matches!(unsafe { *v } as u8, 0 | b'0')
}

/// A variable asks for diagnostics, and this is not a secure-execution
/// process.
fn asked() -> bool {
    // SAFETY: getauxval has no preconditions; 0 when the entry is absent.
    (unsafe { libc::getauxval(libc::AT_SECURE) }) == 0
        && (asks(c"LIBURING_DEBUG") || asks(c"LIBURING_TRACE") || asks(c"LIBURING_CHECK"))
}

#[cfg_attr(any(test, miri), allow(dead_code))]
extern "C" fn attach_at_load() {
    LOADER_RAN.store(true, Ordering::Relaxed);
    if !asked() {
        return;
    }
    let mut path = [0u8; PATH_BYTES];
    if !object_path(&mut path) {
        say(b"cannot locate liburing.so.2 itself");
        return;
    }
    // SAFETY: `object_path` wrote a NUL-terminated path into `path`.
    let path = unsafe { CStr::from_ptr(path.as_ptr().cast()) };
    match object_check::open_checked(path) {
        Ok(fd) => load(path, fd),
        Err(why) => say_about(path, why),
    }
}

/// Loads the checked object (through its checked descriptor where /proc
/// lets us name it, so a file replaced meanwhile is not the one loaded),
/// closes that descriptor, and attaches the object.
fn load(path: &CStr, fd: i32) {
    let mut by_fd = [0u8; 32];
    let name = proc_fd_path(&mut by_fd, fd);
    // SAFETY: NUL-terminated paths; the handle is checked. RTLD_LOCAL: its
    // symbols serve only this lookup.
    let mut handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        // SAFETY: as above (no /proc: the checked path itself).
        handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    }
    // Closed before the object attaches: it must find the program's
    // descriptors as the program left them (fd 2 above all).
    // SAFETY: the descriptor `open_checked` made; dlopen has read what it
    // needs.
    unsafe { libc::close(fd) };
    if handle.is_null() {
        // SAFETY: dlerror has no preconditions; its text, if any, is a C string.
        say_c(unsafe { libc::dlerror() });
        return;
    }
    // SAFETY: a live handle and NUL-terminated names.
    let (attach, detach) = unsafe {
        (
            libc::dlsym(handle, observe::ATTACH_SYMBOL.as_ptr()),
            libc::dlsym(handle, observe::DETACH_SYMBOL.as_ptr()),
        )
    };
    if attach.is_null() || detach.is_null() {
        say(b"the diagnostics object has no attach function");
        // SAFETY: our handle, not used again.
        unsafe { libc::dlclose(handle) };
        return;
    }
    // SAFETY: the object exports this name with exactly this signature
    // (uring-diag's `uring_diag_attach`): its digest, checked above, is
    // the one of the object built with this library.
    let attach: extern "C" fn(u64, *const c_void) -> Attachment =
        unsafe { core::mem::transmute(attach) };
    let here = attach_at_load as extern "C" fn() as *const c_void;
    let a = attach(observe::INTERFACE, here);
    match (a.status, a.observer) {
        (observe::ATTACHED, Some(observer)) => {
            HANDLE.store(handle, Ordering::Release);
            DETACH.store(detach, Ordering::Release);
            // SAFETY: this is the load-time constructor: no ring exists
            // and no other thread can call the library yet.
            unsafe { observe::install(observer) };
            return;
        }
        (observe::OTHER_INTERFACE, _) => {
            say(b"the diagnostics object comes from another build of uring-rs");
        }
        _ => {}
    }
    // SAFETY: our handle; nothing of the object is in use.
    unsafe { libc::dlclose(handle) };
}

/// `/proc/self/fd/<fd>`, NUL-terminated, in `buf`.
fn proc_fd_path(buf: &mut [u8; 32], fd: i32) -> &CStr {
    const HEAD: &[u8] = b"/proc/self/fd/";
    let mut digits = [0u8; 10];
    let mut n = 0;
    let mut v = fd.max(0) as u32;
    loop {
        if let Some(d) = digits.get_mut(n) {
            *d = b'0' + (v % 10) as u8;
        }
        n += 1;
        v /= 10;
        if v == 0 || n == digits.len() {
            break;
        }
    }
    let mut at = 0;
    for &b in HEAD.iter().chain(digits.iter().take(n).rev()) {
        if let Some(slot) = buf.get_mut(at) {
            *slot = b;
            at += 1;
        }
    }
    // SAFETY: `buf` is NUL-filled past the digits (32 bytes, at most 24
    // written), so it holds a NUL-terminated string.
    unsafe { CStr::from_ptr(buf.as_ptr().cast()) }
}

/// The library is being unloaded (or the process exits): the observer
/// goes, the object is told, and released.
#[cfg_attr(any(test, miri), allow(dead_code))]
extern "C" fn detach_at_unload() {
    let handle = HANDLE.swap(core::ptr::null_mut(), Ordering::AcqRel);
    let detach = DETACH.swap(core::ptr::null_mut(), Ordering::AcqRel);
    if handle.is_null() || detach.is_null() {
        return;
    }
    // SAFETY: the object's `uring_diag_detach`, `extern "C" fn() -> bool`,
    // found next to the attach function this library called.
    let detach: extern "C" fn() -> bool = unsafe { core::mem::transmute(detach) };
    if !detach() {
        // Unloaded, not exiting: no call of this library runs or will. (At
        // exit other threads may still call it: the observer stays, and
        // the object, released, reports nothing more.)
        // SAFETY: as just said.
        unsafe { observe::uninstall() };
    }
    // SAFETY: the handle this library's dlopen returned. (At exit the
    // loader keeps every object mapped until all destructors have run.)
    unsafe { libc::dlclose(handle) };
}

/// At a ring setup no observer saw: a static program that sets the
/// variables but did not link the diagnostics archive is told once, as the
/// shared library tells at load why the variables stay without effect.
#[cold]
#[inline(never)]
pub fn notice_unattached() {
    if LOADER_RAN.load(Ordering::Relaxed) || NOTICED.swap(true, Ordering::Relaxed) {
        return;
    }
    // SAFETY: the thread's errno location is always valid.
    let saved = unsafe { *libc::__errno_location() };
    if asked() {
        say(b"this program is linked statically without liburing-diag.a (cc ... -Wl,-u,uring_diag_attach -luring-diag -luring)");
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = saved };
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
    say_parts(&[why]);
}

/// [`say`] about the object at `path`.
#[cold]
#[inline(never)]
fn say_about(path: &CStr, why: &[u8]) {
    say_parts(&[path.to_bytes(), b": ", why]);
}

fn say_parts(why: &[&[u8]]) {
    const HEAD: &[u8] = b"liburing: LIBURING_DEBUG/LIBURING_TRACE/LIBURING_CHECK ignored: ";
    let iov = |b: &[u8]| libc::iovec {
        iov_base: b.as_ptr().cast_mut().cast(),
        iov_len: b.len(),
    };
    let none = iov(b"");
    let mut parts = [none; 5];
    parts[0] = iov(HEAD);
    let mut n = 1;
    for (slot, w) in parts.iter_mut().skip(1).zip(why) {
        *slot = iov(w);
        n += 1;
    }
    if let Some(slot) = parts.get_mut(n) {
        *slot = iov(b"\n");
        n += 1;
    }
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
        // SAFETY: `n` iovecs over live byte slices; writev only reads them.
        unsafe { libc::writev(2, parts.as_ptr(), n as i32) };
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
    unsafe extern "C" fn __uring_rs_install(observer: &'static observe::Observer) {
        // SAFETY: per the caller.
        unsafe { observe::install(observer) };
    }
};
