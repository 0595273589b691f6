// SPDX-License-Identifier: MIT
use super::*;
use crate::syscall::Errno;
use crate::test_ring::ring;
use crate::uapi::IOU_PBUF_RING_INC;

#[test]
fn setup_head_and_free_on_a_real_ring() {
    let mut owned = ring!(4);
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
        assert_eq!(buf_ring_head(ring, 7), Ok(0));
        // SAFETY: as set up above, not used afterwards.
        assert_eq!(unsafe { free_buf_ring(ring, br, 8, 7) }, Ok(0));
        assert_eq!(unregister_buf_ring(ring, 7), Err(Errno::ENOENT));
    }
    assert_eq!(setup_buf_ring(ring, 3, 7, 0), Err(Errno::EINVAL));
}
