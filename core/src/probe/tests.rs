// SPDX-License-Identifier: MIT
use super::*;
use crate::test_ring::{require_uring, ring};
use crate::uapi::{IORING_OP_NOP, IO_URING_OP_SUPPORTED};

/// The header's `io_uring_opcode_supported`, for the tests.
///
/// # Safety
/// `probe` must point to a probe filled by the kernel.
unsafe fn opcode_supported(probe: *const io_uring_probe, op: u8) -> bool {
    // SAFETY: a filled probe has `last_op + 1` initialised entries.
    unsafe {
        let p = &*probe;
        op <= p.last_op && (*p.ops.as_ptr().add(op as usize)).flags & IO_URING_OP_SUPPORTED != 0
    }
}

#[test]
fn probe_reports_nop_and_is_freeable() {
    require_uring!();
    let probe = get_probe().expect("probe");
    assert!(!probe.is_null());
    // SAFETY: a probe just filled by the kernel.
    unsafe {
        let p = &*probe;
        assert!(p.ops_len > 0);
        assert_eq!(u32::from(p.ops_len), u32::from(p.last_op) + 1);
        assert!(opcode_supported(probe, IORING_OP_NOP));
        assert!(!opcode_supported(probe, u8::MAX));
        // Entries name their own opcode.
        for i in 0..p.ops_len {
            assert_eq!((*p.ops.as_ptr().add(i as usize)).op, i);
        }
        free_probe(probe);
    }
}

#[test]
fn probe_ring_matches_probe() {
    let mut ring = ring!(4);
    let a = get_probe_ring(ring.live()).unwrap();
    let b = get_probe().unwrap();
    // SAFETY: both are filled probes of PROBE_BYTES bytes.
    unsafe {
        let a_bytes = core::slice::from_raw_parts(a.cast::<u8>(), PROBE_BYTES);
        let b_bytes = core::slice::from_raw_parts(b.cast::<u8>(), PROBE_BYTES);
        assert_eq!(a_bytes, b_bytes);
        free_probe(a);
        free_probe(b);
    }
}
