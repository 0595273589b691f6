// SPDX-License-Identifier: MIT
//! Attaching to a statically linked library: `liburing.a` has no loader
//! (a static program must not reference `dlopen`), so the archive of this
//! object, `liburing-diag.a`, carries a constructor that attaches the
//! observer itself when a program links it in:
//!
//! ```text
//! cc prog.c -Wl,-u,uring_diag_attach -luring-diag -luring
//! ```
//!
//! The Makefile drops this constructor's section (`.init_array.65535`,
//! its `ATTACH_SECTION`) from the shared object, which the library's own
//! loader attaches instead.

use uring_core::observe::{self, Observer};

extern "C" {
    /// Installs an observer in the statically linked library (uring-rs's
    /// `attach_diag`).
    fn __uring_rs_install(observer: &'static Observer);
}

#[cfg(not(any(test, miri)))]
#[used]
#[link_section = ".init_array.65535"]
static ATTACH_AT_START: extern "C" fn() = attach_at_start;

#[cfg_attr(any(test, miri), allow(dead_code))]
extern "C" fn attach_at_start() {
    // The attach function answers NOTHING_ASKED in a secure-execution
    // process itself, as for the shared library's loader.
    // The library is the program itself here: no address tells it apart.
    let a = crate::uring_diag_attach(observe::INTERFACE, core::ptr::null());
    if let (observe::ATTACHED, Some(observer)) = (a.status, a.observer) {
        // SAFETY: a constructor of the program: no ring exists and no
        // other thread runs yet.
        unsafe { __uring_rs_install(observer) };
    }
}
