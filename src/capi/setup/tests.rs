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
