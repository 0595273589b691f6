// SPDX-License-Identifier: MIT
use super::*;
use core::ptr::null_mut;

#[test]
fn internal_setup_refuses_null_params() {
    // liburing's internal setup entry (its own tests link it) reads `p` at
    // once: a null one is -EINVAL here, not a crash.
    let mut ring = geometry::empty_ring();
    // SAFETY: a null `p` is refused before `ring` or `buf` is touched.
    let ret = unsafe { __io_uring_queue_init_params(8, &mut ring, null_mut(), null_mut(), 0) };
    assert_eq!(ret, -libc::EINVAL);
    let (mut sq, mut cq) = (geometry::empty_sq(), geometry::empty_cq());
    // SAFETY: as above, for the internal mmap.
    let ret = unsafe { io_uring_mmap(-1, null_mut(), &mut sq, &mut cq) };
    assert_eq!(ret, -libc::EINVAL);
    // Either half missing is refused before anything is mapped or written.
    let mut p = io_uring_params::default();
    // SAFETY: null halves are refused before `p` or the other half is used.
    unsafe {
        assert_eq!(
            io_uring_mmap(-1, &mut p, null_mut(), &mut cq),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_mmap(-1, &mut p, &mut sq, null_mut()),
            -libc::EINVAL
        );
        io_uring_setup_ring_pointers(&mut p, null_mut(), &mut cq);
        io_uring_setup_ring_pointers(&mut p, &mut sq, null_mut());
        io_uring_setup_ring_pointers(null_mut(), &mut sq, &mut cq);
    }
    assert!(sq.khead.is_null() && cq.khead.is_null());
}

#[test]
fn internal_mmap_fills_the_ring_pointers() {
    // liburing's internal io_uring_mmap on a ring from the raw syscall: the
    // pointers and cached sizes are written, the SQ array only for a ring
    // that has one (a NO_SQARRAY ring's `array` is left as it was).
    crate::test_ring::require_uring!();
    for flags in [0, IORING_SETUP_NO_SQARRAY] {
        if crate::test_ring::kernel_refuses_flags(4, flags).is_some() {
            continue;
        }
        let mut p = io_uring_params {
            flags,
            ..Default::default()
        };
        // SAFETY: `p` is a valid params struct.
        let fd = unsafe { syscall::io_uring_setup(4, core::ptr::from_mut(&mut p).cast()) }.unwrap();
        let (mut sq, mut cq) = (geometry::empty_sq(), geometry::empty_cq());
        let sentinel = core::ptr::dangling_mut::<u32>();
        sq.array = sentinel;
        // SAFETY: `p` was filled by the kernel for `fd`; `sq`/`cq` are ours.
        let mapped = unsafe { io_uring_mmap(fd as c_int, &mut p, &mut sq, &mut cq) };
        assert_eq!(mapped, 0);
        assert_eq!(
            (sq.ring_entries, cq.ring_entries),
            (p.sq_entries, p.cq_entries)
        );
        assert_eq!(
            (sq.ring_mask, cq.ring_mask),
            (p.sq_entries - 1, p.cq_entries - 1)
        );
        assert!(!sq.khead.is_null() && !cq.ktail.is_null() && !cq.cqes.is_null());
        assert!(!cq.kflags.is_null());
        if flags == 0 {
            assert_ne!(sq.array, sentinel);
            assert!(!sq.array.is_null());
        } else {
            assert_eq!(sq.array, sentinel);
        }
        // The internal io_uring_setup_ring_pointers computes the same
        // pointers from the ring memory alone.
        let (mut sq2, mut cq2) = (geometry::empty_sq(), geometry::empty_cq());
        sq2.ring_ptr = sq.ring_ptr;
        cq2.ring_ptr = cq.ring_ptr;
        // SAFETY: the ring memory mapped above; `sq2`/`cq2` are ours.
        unsafe { io_uring_setup_ring_pointers(&mut p, &mut sq2, &mut cq2) };
        assert_eq!((sq2.khead, sq2.ktail), (sq.khead, sq.ktail));
        assert_eq!((cq2.khead, cq2.cqes), (cq.khead, cq.cqes));
        assert_eq!(sq2.ring_entries, p.sq_entries);
        // SAFETY: the mappings made above, given up; then the ring fd.
        unsafe { io_uring_unmap_rings(&mut sq, &mut cq) };
        let _ = syscall::close(fd as i32);
    }
}

#[test]
fn setup_entries_refuse_a_null_ring_and_pass_kernel_errors_on() {
    crate::test_ring::require_uring!();
    let mut p = io_uring_params::default();
    // SAFETY: a null ring is refused before anything is set up or written.
    let ret = unsafe { io_uring_queue_init_params(8, null_mut(), &mut p) };
    assert_eq!(ret, -libc::EINVAL);
    // SAFETY: null rings, refused before anything is read or set up.
    unsafe {
        let e = -libc::EINVAL;
        assert_eq!(io_uring_queue_init(8, null_mut(), 0), e);
        assert_eq!(
            io_uring_queue_init_mem(8, null_mut(), &mut p, null_mut(), 0),
            e
        );
        assert_eq!(
            __io_uring_queue_init_params(8, null_mut(), &mut p, null_mut(), 0),
            e
        );
        assert_eq!(io_uring_queue_mmap(-1, &mut p, null_mut()), e);
        assert!(io_uring_get_probe_ring(null_mut()).is_null());
        assert_eq!(io_uring_ring_dontfork(null_mut()), -libc::EINVAL);
        // A null ring is ignored (nothing to release).
        io_uring_queue_exit(null_mut());
    }
    // Page 0 is never mapped: the kernel cannot read params there, and the
    // negated EFAULT comes back (the failure hook is not told: no params).
    let unmapped = core::mem::size_of::<io_uring_params>() as *mut io_uring_params;
    // SAFETY: the kernel checks `p` and refuses the unmapped address.
    assert_eq!(unsafe { io_uring_setup(8, unmapped) }, -libc::EFAULT);
    // Rings of a descriptor that is not one: the first mapping fails with
    // the kernel's EBADF and neither half is written.
    let p = io_uring_params {
        sq_entries: 4,
        cq_entries: 8,
        sq_off: crate::uapi::io_sqring_offsets {
            array: 64,
            ..Default::default()
        },
        cq_off: crate::uapi::io_cqring_offsets {
            cqes: 64,
            ..Default::default()
        },
        ..Default::default()
    };
    let (mut sq, mut cq) = (geometry::empty_sq(), geometry::empty_cq());
    // SAFETY: `p`, `sq` and `cq` are ours; fd -1 maps nothing.
    let ret = unsafe { io_uring_mmap(-1, core::ptr::from_ref(&p).cast_mut(), &mut sq, &mut cq) };
    assert_eq!(ret, -libc::EBADF);
    assert!(sq.khead.is_null() && cq.khead.is_null());
}

#[test]
fn internal_setup_makes_a_ring_with_exactly_its_flags() {
    crate::test_ring::require_uring!();
    let mut ring = geometry::empty_ring();
    let mut p = io_uring_params::default();
    // SAFETY: `ring` and `p` are ours; no application memory.
    let ret = unsafe { __io_uring_queue_init_params(8, &mut ring, &mut p, null_mut(), 0) };
    assert_eq!(ret, 0);
    assert!(ring.ring_fd >= 0);
    assert_eq!(ring.sq.ring_entries, 8);
    // One attempt with exactly `p.flags`: nothing added (no NO_SQARRAY).
    assert_eq!(p.flags, 0);
    assert!(!ring.sq.array.is_null());
    // SAFETY: the ring just set up, released once.
    unsafe { io_uring_queue_exit(&mut ring) };
}

#[test]
fn set_iowait_answers_as_the_kernel_features_say() {
    let mut ring = crate::test_ring::ring!(4);
    // The kernel's own features, from a raw setup of the test's own.
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid, writable params struct for the call.
    let fd = unsafe { libc::syscall(libc::SYS_io_uring_setup, 4, core::ptr::from_mut(&mut p)) };
    assert!(fd >= 0);
    // SAFETY: the descriptor just created, closed once.
    unsafe { libc::close(fd as c_int) };
    let want = if p.features & crate::uapi::IORING_FEAT_NO_IOWAIT != 0 {
        0
    } else {
        -libc::EOPNOTSUPP
    };
    for enable in [false, true] {
        // SAFETY: the test's ring, used by nothing else meanwhile.
        assert_eq!(unsafe { io_uring_set_iowait(&mut ring.0, enable) }, want);
    }
}
