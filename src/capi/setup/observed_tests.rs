// SPDX-License-Identifier: MIT
//! What the setup entry points tell an installed observer, checked against
//! the running kernel: each failure with its call, sizes, flags and errno,
//! each ring they create and tear down, and nothing for a params pointer
//! the kernel could not read. The test runs in a child process under the recording
//! observer of `uring_core::test_observer`, which says why.
use super::*;
use crate::test_observer::{in_observed_child, told, Told};
use crate::test_ring::kernel_refuses_flags;
use crate::uapi::io_uring_params;

/// A setup flag no kernel knows (the top bit).
const UNKNOWN_FLAG: u32 = 1 << 31;

fn setup_failed(call: &'static str, flags: u32, params: bool, errno: i32) -> Told {
    Told::SetupFailed {
        call,
        entries: 8,
        flags,
        params,
        errno,
    }
}

/// What an observer is told of a ring set up with 8 entries.
fn created(ring: &io_uring) -> [Told; 1] {
    [Told::RingCreated {
        fd: ring.ring_fd,
        sq_entries: 8,
    }]
}

/// Tears down `ring`, which the observer is told of.
fn exit(ring: &mut io_uring) {
    // SAFETY: a ring set up by this library, not used again.
    unsafe { io_uring_queue_exit(ring) };
    assert_eq!(told(), [Told::Other("ring_exit")]);
}

fn params(flags: u32) -> io_uring_params {
    io_uring_params {
        flags,
        ..Default::default()
    }
}

/// Good and bad setup calls through each C entry point, and what the
/// observer is told of each.
#[test]
fn an_observer_is_told_each_setup_failure_and_each_ring() {
    in_observed_child!("setup");
    // The flag's refusal asked of the kernel by the raw system call.
    assert_eq!(
        kernel_refuses_flags(8, UNKNOWN_FLAG),
        Some(syscall::Errno::EINVAL)
    );
    let mut ring = geometry::empty_ring();

    // io_uring_queue_init: the new ring, then the refused flag (no params).
    // SAFETY: `ring` is writable for a `struct io_uring`.
    assert_eq!(unsafe { io_uring_queue_init(8, &mut ring, 0) }, 0);
    assert_eq!(told(), created(&ring));
    exit(&mut ring);
    // SAFETY: as above.
    let ret = unsafe { io_uring_queue_init(8, &mut ring, UNKNOWN_FLAG) };
    assert_eq!(ret, -libc::EINVAL);
    assert_eq!(
        told(),
        [setup_failed(
            "io_uring_queue_init",
            UNKNOWN_FLAG,
            false,
            libc::EINVAL
        )]
    );

    // io_uring_queue_init_params: the same, with the caller's params.
    let mut p = params(0);
    // SAFETY: `ring` and `p` are writable.
    let ret = unsafe { io_uring_queue_init_params(8, &mut ring, &mut p) };
    assert_eq!(ret, 0);
    assert_eq!(told(), created(&ring));
    exit(&mut ring);
    let mut p = params(UNKNOWN_FLAG);
    // SAFETY: as above.
    let ret = unsafe { io_uring_queue_init_params(8, &mut ring, &mut p) };
    assert_eq!(ret, -libc::EINVAL);
    assert_eq!(
        told(),
        [setup_failed(
            "io_uring_queue_init_params",
            UNKNOWN_FLAG,
            true,
            libc::EINVAL
        )]
    );

    // The raw io_uring_setup: a descriptor is no ring yet (nothing told
    // until io_uring_queue_mmap makes one); a refusal is told.
    let mut p = params(0);
    // SAFETY: `p` is a valid params struct.
    let fd = unsafe { io_uring_setup(8, &mut p) };
    assert!(fd >= 0, "io_uring_setup: {fd}");
    assert_eq!(told(), []);
    // SAFETY: `p` is what io_uring_setup filled for `fd`; `ring` writable.
    assert_eq!(unsafe { io_uring_queue_mmap(fd, &mut p, &mut ring) }, 0);
    assert_eq!(told(), created(&ring));
    exit(&mut ring);
    let mut p = params(UNKNOWN_FLAG);
    // SAFETY: as above.
    assert_eq!(unsafe { io_uring_setup(8, &mut p) }, -libc::EINVAL);
    assert_eq!(
        told(),
        [setup_failed(
            "io_uring_setup",
            UNKNOWN_FLAG,
            true,
            libc::EINVAL
        )]
    );

    // Params the kernel cannot read (EFAULT): null, and a page that cannot
    // be read, which the hook must not read either. Nothing is told.
    // SAFETY: a fresh anonymous mapping, no other memory touched.
    let page = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            4096,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(page, libc::MAP_FAILED);
    for bad in [core::ptr::null_mut(), page.cast::<io_uring_params>()] {
        // SAFETY: the kernel checks `bad` and refuses it.
        assert_eq!(unsafe { io_uring_setup(8, bad) }, -libc::EFAULT);
        assert_eq!(told(), []);
    }
    // SAFETY: the mapping made above, no longer used.
    assert_eq!(unsafe { libc::munmap(page, 4096) }, 0);
}
