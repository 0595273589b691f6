// SPDX-License-Identifier: MIT
use super::*;
use crate::capi::register_pass_through::*;
use crate::test_ring::ring;
use crate::uapi::{
    io_uring_file_index_range, io_uring_rsrc_register, IORING_REGISTER_FILES2,
    IORING_REGISTER_FILE_ALLOC_RANGE, IORING_RSRC_REGISTER_SPARSE,
};
use core::ptr::{null, null_mut};

#[test]
fn null_rings_are_refused() {
    let fds = [-1; 2];
    let n = null_mut();
    // SAFETY: (whole test) null is allowed for every ring checked.
    unsafe {
        assert_eq!(io_uring_register_files(n, fds.as_ptr(), 2), -libc::EINVAL);
        assert_eq!(
            io_uring_register_files_tags(n, fds.as_ptr(), null(), 2),
            -libc::EINVAL
        );
        assert_eq!(io_uring_register_files_sparse(n, 2), -libc::EINVAL);
        assert_eq!(
            io_uring_register_files_update(n, 0, fds.as_ptr(), 2),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_register_files_update_tag(n, 0, fds.as_ptr(), null(), 2),
            -libc::EINVAL
        );
        assert_eq!(io_uring_register_file_alloc_range(n, 0, 2), -libc::EINVAL);
        assert_eq!(io_uring_unregister_files(n), -libc::EINVAL);
        assert_eq!(io_uring_register_buffers_sparse(n, 2), -libc::EINVAL);
        assert_eq!(
            io_uring_register_buffers_tags(n, null(), null(), 0),
            -libc::EINVAL
        );
        assert_eq!(
            io_uring_register_buffers_update_tag(n, 0, null(), null(), 0),
            -libc::EINVAL
        );
        assert_eq!(io_uring_register_eventfd(n, 0), -libc::EINVAL);
        assert_eq!(io_uring_register_eventfd_async(n, 0), -libc::EINVAL);
        assert_eq!(io_uring_unregister_eventfd(n), -libc::EINVAL);
        assert_eq!(io_uring_register_iowq_aff(n, 0, null()), -libc::EINVAL);
        assert_eq!(io_uring_clone_buffers(n, n), -libc::EINVAL);
        assert_eq!(__io_uring_clone_buffers(n, n, 0), -libc::EINVAL);
        assert_eq!(
            io_uring_clone_buffers_offset(n, n, 0, 0, 0, 0),
            -libc::EINVAL
        );
        assert_eq!(
            __io_uring_clone_buffers_offset(n, n, 0, 0, 0, 0),
            -libc::EINVAL
        );
        // The calls that hand their argument to the kernel as it is.
        let e = -libc::EINVAL;
        assert_eq!(io_uring_enable_rings(n), e);
        assert_eq!(io_uring_register_bpf_filter(n, null_mut()), e);
        assert_eq!(io_uring_register_buffers(n, null(), 0), e);
        assert_eq!(io_uring_unregister_buffers(n), e);
        assert_eq!(io_uring_register_clock(n, null_mut()), e);
        assert_eq!(io_uring_register_ifq(n, null_mut()), e);
        assert_eq!(io_uring_register_iowq_max_workers(n, null_mut()), e);
        assert_eq!(io_uring_unregister_iowq_aff(n), e);
        assert_eq!(io_uring_register_napi(n, null_mut()), e);
        assert_eq!(io_uring_unregister_napi(n, null_mut()), e);
        assert_eq!(io_uring_register_personality(n), e);
        assert_eq!(io_uring_unregister_personality(n, 1), e);
        assert_eq!(io_uring_register_probe(n, null_mut(), 0), e);
        assert_eq!(io_uring_register_region(n, null_mut()), e);
        assert_eq!(io_uring_register_restrictions(n, null_mut(), 0), e);
        assert_eq!(io_uring_register_sync_cancel(n, null_mut()), e);
        assert_eq!(io_uring_register_zcrx_ctrl(n, null_mut()), e);
        // The calls that change the ring itself.
        assert_eq!(io_uring_register_ring_fd(n), e);
        assert_eq!(io_uring_unregister_ring_fd(n), e);
        assert_eq!(io_uring_close_ring_fd(n), e);
        assert_eq!(io_uring_resize_rings(n, null_mut()), e);
    }
}

/// Whether the kernel knows file allocation ranges (6.0) and sparse tables
/// (5.19), by raw registrations on a ring of the test's own: a range at an
/// unmapped address fails to copy (EFAULT) where the opcode is known, and
/// is EINVAL where not; a sparse table of one slot is accepted where known.
fn kernel_has_range_and_sparse() -> (bool, bool) {
    use crate::test_ring::kernel_register_answer;
    // Page 0 is never mapped: the kernel cannot read the range there.
    let unmapped = core::mem::size_of::<io_uring_file_index_range>() as *mut c_void;
    let mut one = io_uring_rsrc_register {
        nr: 1,
        flags: IORING_RSRC_REGISTER_SPARSE,
        ..Default::default()
    };
    // SAFETY: the range is never read (unmapped address); `one` is the
    // struct FILES2 reads, live for the call.
    unsafe {
        (
            kernel_register_answer(IORING_REGISTER_FILE_ALLOC_RANGE, unmapped, 0)
                != Err(crate::syscall::Errno::EINVAL),
            kernel_register_answer(
                IORING_REGISTER_FILES2,
                core::ptr::from_mut(&mut one).cast(),
                core::mem::size_of_val(&one) as u32,
            )
            .is_ok(),
        )
    }
}

#[test]
fn file_tables_round_trip() {
    let mut owned = ring!(4);
    let (has_range, has_sparse) = kernel_has_range_and_sparse();
    let einval = -libc::EINVAL;
    let r: *mut io_uring = &mut owned.0;
    let n = null_mut();
    let fds = [-1; 4];
    // SAFETY: (whole test) `r` is live until `owned` is dropped; the
    // arrays outlive the calls that pass them.
    unsafe {
        assert_eq!(io_uring_register_files(r, fds.as_ptr(), 4), 0);
        assert_eq!(io_uring_register_files(r, fds.as_ptr(), 4), -libc::EBUSY);
        assert_eq!(io_uring_register_files_update(r, 0, fds.as_ptr(), 2), 2);
        assert_eq!(
            io_uring_register_files_update_tag(r, 1, fds.as_ptr(), null(), 2),
            2
        );
        assert_eq!(
            io_uring_register_file_alloc_range(r, 0, 4),
            if has_range { 0 } else { einval }
        );
        assert_eq!(io_uring_unregister_files(r), 0);
        assert_eq!(io_uring_unregister_files(r), -libc::ENXIO);
        assert_eq!(io_uring_register_files_tags(r, fds.as_ptr(), null(), 4), 0);
        assert_eq!(io_uring_unregister_files(r), 0);
        if has_sparse {
            assert_eq!(io_uring_register_files_sparse(r, 4), 0);
            assert_eq!(io_uring_unregister_files(r), 0);
        }
        // Not an eventfd.
        assert_eq!(io_uring_register_eventfd(r, -1), -libc::EBADF);
        assert_eq!(io_uring_unregister_eventfd(r), -libc::ENXIO);
        assert_eq!(
            io_uring_register_iowq_aff(r, 1 << 31, null()),
            -libc::EINVAL
        );
        // Either ring of a clone may be the null one.
        for (dst, src) in [(n, r), (r, n)] {
            assert_eq!(io_uring_clone_buffers(dst, src), -libc::EINVAL);
            assert_eq!(__io_uring_clone_buffers(dst, src, 0), -libc::EINVAL);
            assert_eq!(
                io_uring_clone_buffers_offset(dst, src, 0, 0, 0, 0),
                -libc::EINVAL
            );
            assert_eq!(
                __io_uring_clone_buffers_offset(dst, src, 0, 0, 0, 0),
                -libc::EINVAL
            );
        }
    }
}

/// What the kernel itself answers to register opcode `opcode` on a ring
/// descriptor that is not open, asked through libc's `syscall(2)`: -EBADF
/// where it knows the opcode, -EINVAL where it checks the opcode first
/// (an opcode newer than the kernel, e.g. clone buffers on 5.10).
fn kernel_answer_on_closed_fd(opcode: u32) -> i32 {
    // SAFETY: the descriptor is not open, so the kernel reads no argument.
    let r = unsafe {
        libc::syscall(
            libc::SYS_io_uring_register,
            123_456u32,
            opcode,
            core::ptr::null::<u8>(),
            1u32,
        )
    };
    assert!(r < 0, "register on a closed fd succeeded: {r}");
    -std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[test]
fn kernel_errors_come_back_negated() {
    // Registration calls answer the kernel's error as -errno: with a ring
    // descriptor that is not open, the kernel's own answer (-EBADF, or
    // -EINVAL for an opcode it does not know; 0 would claim success).
    // The rings first: where io_uring_setup is refused (a seccomp filter,
    // Miri's shims) the test skips before any raw call.
    let mut owned = ring!(4);
    let mut other = ring!(4);
    let want_aff = kernel_answer_on_closed_fd(crate::uapi::IORING_UNREGISTER_IOWQ_AFF);
    let want_clone = kernel_answer_on_closed_fd(crate::uapi::IORING_REGISTER_CLONE_BUFFERS);
    assert!(want_aff < 0 && want_clone < 0);
    let ring: *mut io_uring = &mut owned.0;
    // SAFETY: `ring` is live until `owned` is dropped, `other` throughout;
    // the descriptor is put back before that.
    unsafe {
        let fd = (*ring).ring_fd;
        (*ring).ring_fd = 123_456;
        let ret = io_uring_unregister_iowq_aff(ring);
        // liburing's internal clone with offsets (its tests link it) too.
        let cloned = __io_uring_clone_buffers_offset(ring, &mut other.0, 0, 0, 1, 0);
        (*ring).ring_fd = fd;
        assert_eq!(ret, want_aff);
        assert_eq!(cloned, want_clone);
        if want_aff == -libc::EBADF {
            assert_eq!(io_uring_unregister_iowq_aff(ring), 0);
        }
    }
}
