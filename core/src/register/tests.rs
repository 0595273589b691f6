// SPDX-License-Identifier: MIT
use super::*;
use crate::test_ring::ring;
use crate::uapi::{
    IORING_REGISTER_CLOCK, IORING_REGISTER_EVENTFD, IORING_REGISTER_EVENTFD_ASYNC,
    IORING_REGISTER_IOWQ_MAX_WORKERS, IORING_REGISTER_NAPI, IORING_REGISTER_SEND_MSG_RING,
    IORING_REGISTER_SYNC_CANCEL, IORING_REGISTER_ZCRX_CTRL, IORING_UNREGISTER_EVENTFD,
    IORING_UNREGISTER_FILES,
};

#[test]
fn wait_reg_is_a_stub() {
    assert_eq!(register_wait_reg(), Err(Errno::EINVAL));
}

#[test]
fn byte_counts_of_2_gib_or_more_are_refused_before_the_kernel() {
    assert_eq!(count_from_size(0), Ok(0));
    assert_eq!(count_from_size(i32::MAX as usize), Ok(i32::MAX as u32));
    assert_eq!(count_from_size(1usize << 31), Err(Errno::EINVAL));
    assert_eq!(count_from_size(usize::MAX), Err(Errno::EINVAL));
}

#[test]
fn pointer_arguments_reach_the_kernel_untouched() {
    let mut r = ring!(4);
    let t = live(r.live());
    // Whatever the kernel answers to a null argument (EINVAL or EFAULT, by
    // opcode and version) is the answer, so only failure is asserted here;
    // capi-tests/bad_args.c compares the exact codes with liburing's.
    // SAFETY: (all) a null argument, which the kernel refuses without
    // touching memory; liburing passes it on just the same.
    let on_ring = |opcode, nr| unsafe { register(t, opcode, ptr::null(), nr) };
    let answers = [
        on_ring(IORING_REGISTER_IOWQ_MAX_WORKERS, 2),
        on_ring(IORING_REGISTER_SYNC_CANCEL, 1),
        on_ring(IORING_REGISTER_NAPI, 1),
        on_ring(IORING_REGISTER_CLOCK, 0),
        // SAFETY: as above.
        unsafe { ringless(IORING_REGISTER_SEND_MSG_RING, ptr::null(), 1) },
        on_ring(IORING_REGISTER_ZCRX_CTRL, 0),
    ];
    for (i, a) in answers.iter().enumerate() {
        assert!(a.is_err(), "call {i}: {a:?}");
    }
    // A working call still works: read the current limits (0, 0 = no change).
    let mut vals = [0u32; 2];
    // SAFETY: two writable u32s.
    let ret = unsafe {
        register(
            live(r.live()),
            IORING_REGISTER_IOWQ_MAX_WORKERS,
            vals.as_mut_ptr().cast_const().cast(),
            2,
        )
    };
    assert_eq!(ret, Ok(0));
}

#[test]
fn eventfd_and_files_on_a_real_ring() {
    let mut r = ring!(4);
    // SAFETY: eventfd(2) has no memory preconditions.
    let efd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    assert!(efd >= 0);
    let lr = r.live();
    let t = live(lr);
    // SAFETY: (both) the eventfd opcodes read one int during the call.
    let eventfd = |opcode| unsafe { with_int(lr, opcode, efd) };
    let unregister_eventfd = || without_argument(t, IORING_UNREGISTER_EVENTFD, 0);
    assert_eq!(eventfd(IORING_REGISTER_EVENTFD), Ok(0));
    assert_eq!(eventfd(IORING_REGISTER_EVENTFD_ASYNC), Err(Errno::EBUSY));
    assert_eq!(unregister_eventfd(), Ok(0));
    assert_eq!(unregister_eventfd(), Err(Errno::ENXIO));
    let _ = syscall::close(efd);
    let unregister_files = || without_argument(t, IORING_UNREGISTER_FILES, 0);

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
    assert_eq!(register_files_sparse(lr, 4), Ok(0));
    assert_eq!(register_file_alloc_range(lr, 1, 2), Ok(0));
    let fds = [-1i32, -1];
    // SAFETY: `fds` holds two ints.
    let ret = unsafe { register_files_update(lr, 2, fds.as_ptr(), 2) };
    assert_eq!(ret, Ok(2));
    assert_eq!(unregister_files(), Ok(0));
    assert_eq!(unregister_files(), Err(Errno::ENXIO));
}
