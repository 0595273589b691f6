// SPDX-License-Identifier: MIT
use super::*;
use crate::test_ring::ring;

#[test]
fn wait_reg_is_a_stub() {
    assert_eq!(register_wait_reg(), Err(Errno::EINVAL));
}

#[test]
fn huge_iowq_mask_is_refused_before_the_kernel() {
    let mut r = ring!(4);
    // SAFETY: the size check fails before the mask is looked at.
    let ret = unsafe { register_iowq_aff(r.live(), 1usize << 31, core::ptr::null()) };
    assert_eq!(ret, Err(Errno::EINVAL));
}

#[test]
fn pointer_arguments_reach_the_kernel_untouched() {
    let mut r = ring!(4);
    // SAFETY: (all) a null argument, which the kernel refuses without
    // touching memory; liburing passes it on just the same. Whatever
    // the kernel answers (EINVAL or EFAULT, by opcode and version) is
    // the answer, so only failure is asserted here; capi-tests/bad_args.c
    // compares the exact codes with liburing's.
    let answers = unsafe {
        [
            register_iowq_max_workers(r.live(), ptr::null_mut()),
            register_sync_cancel(r.live(), ptr::null()),
            register_napi(r.live(), ptr::null_mut()),
            register_clock(r.live(), ptr::null()),
            register_sync_msg(ptr::null()),
            register_zcrx_ctrl(r.live(), ptr::null_mut()),
        ]
    };
    for (i, a) in answers.iter().enumerate() {
        assert!(a.is_err(), "call {i}: {a:?}");
    }
    // A working call still works: read the current limits (0, 0 = no change).
    let mut vals = [0u32; 2];
    // SAFETY: two writable u32s.
    let ret = unsafe { register_iowq_max_workers(r.live(), vals.as_mut_ptr()) };
    assert_eq!(ret, Ok(0));
}

#[test]
fn eventfd_and_files_on_a_real_ring() {
    let mut r = ring!(4);
    // SAFETY: eventfd(2) has no memory preconditions.
    let efd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    assert!(efd >= 0);
    assert_eq!(register_eventfd(r.live(), efd), Ok(0));
    assert_eq!(register_eventfd_async(r.live(), efd), Err(Errno::EBUSY));
    assert_eq!(unregister_eventfd(r.live()), Ok(0));
    assert_eq!(unregister_eventfd(r.live()), Err(Errno::ENXIO));
    let _ = syscall::close(efd);

    // Sparse tables (5.19), as a raw registration of one sparse slot shows.
    let mut one = crate::uapi::io_uring_rsrc_register {
        nr: 1,
        flags: crate::uapi::IORING_RSRC_REGISTER_SPARSE,
        ..Default::default()
    };
    // SAFETY: one io_uring_rsrc_register (no addresses), read during the call.
    let sparse = unsafe {
        crate::test_ring::kernel_register_answer(
            crate::uapi::IORING_REGISTER_FILES2,
            core::ptr::from_mut(&mut one).cast(),
            core::mem::size_of_val(&one) as u32,
        )
    };
    if sparse.is_err() {
        crate::test_ring::skip!(
            "the kernel lacks sparse file tables (IORING_RSRC_REGISTER_SPARSE)"
        );
    }
    assert_eq!(register_files_sparse(r.live(), 4), Ok(0));
    assert_eq!(register_file_alloc_range(r.live(), 1, 2), Ok(0));
    let fds = [-1i32, -1];
    // SAFETY: `fds` holds two ints.
    let ret = unsafe { register_files_update(r.live(), 2, fds.as_ptr(), 2) };
    assert_eq!(ret, Ok(2));
    assert_eq!(unregister_files(r.live()), Ok(0));
    assert_eq!(unregister_files(r.live()), Err(Errno::ENXIO));
}
