// SPDX-License-Identifier: MIT
use super::*;
use crate::syscall::Errno;
use crate::test_ring::{kernel_register_answer, ring, skip};
use crate::uapi::IOU_PBUF_RING_INC;

/// The kernel's answer to a status or unregister request for a buffer
/// group nobody registered: ENOENT where it knows the opcode, EINVAL where
/// it does not.
fn kernel_knows(opcode: u32) -> bool {
    let mut reg = crate::uapi::io_uring_buf_reg {
        bgid: 7,
        ..Default::default()
    };
    let mut status = crate::uapi::io_uring_buf_status {
        buf_group: 7,
        ..Default::default()
    };
    let ptr: *mut core::ffi::c_void = if opcode == crate::uapi::IORING_REGISTER_PBUF_STATUS {
        core::ptr::from_mut(&mut status).cast()
    } else {
        core::ptr::from_mut(&mut reg).cast()
    };
    // SAFETY: one struct of the kind `opcode` reads, live for the call.
    let answer = unsafe { kernel_register_answer(opcode, ptr, 1) };
    answer != Err(Errno::EINVAL)
}

#[test]
fn setup_head_and_free_on_a_real_ring() {
    use crate::uapi::{IORING_REGISTER_PBUF_STATUS, IORING_UNREGISTER_PBUF_RING};
    let mut owned = ring!(4);
    if !kernel_knows(IORING_UNREGISTER_PBUF_RING) {
        skip!("the kernel lacks provided-buffer rings (IORING_REGISTER_PBUF_RING)");
    }
    let status = kernel_knows(IORING_REGISTER_PBUF_STATUS);
    let ring = owned.live();
    for flags in [
        0,
        u32::from(IOU_PBUF_RING_MMAP),
        u32::from(IOU_PBUF_RING_INC),
    ] {
        let br = match setup_buf_ring(ring, 8, 7, flags) {
            Ok(br) => br,
            Err(Errno::EINVAL) if flags != 0 => continue, // older kernel
            Err(e) => panic!("setup_buf_ring(flags {flags:#x}): {e:?}"),
        };
        // SAFETY: `br` is the live ring just set up.
        assert_eq!(unsafe { (*br).tail }, 0);
        assert_eq!(setup_buf_ring(ring, 8, 7, flags), Err(Errno::EEXIST));
        if status {
            assert_eq!(buf_ring_head(ring, 7), Ok(0));
        } else {
            assert_eq!(buf_ring_head(ring, 7), Err(Errno::EINVAL));
        }
        // SAFETY: as set up above, not used afterwards.
        assert_eq!(unsafe { free_buf_ring(ring, br, 8, 7) }, Ok(0));
        // Gone: ENOENT, or EINVAL where the kernel keeps an empty buffer
        // list for a low group id once used (measured on Debian's 6.1).
        let again = unregister_buf_ring(ring, 7);
        assert!(
            matches!(again, Err(Errno::ENOENT | Errno::EINVAL)),
            "{again:?}"
        );
    }
    assert_eq!(setup_buf_ring(ring, 3, 7, 0), Err(Errno::EINVAL));
}
