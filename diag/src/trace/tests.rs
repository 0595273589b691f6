// SPDX-License-Identifier: MIT
use super::*;

/// The diagnostics' memory, reserved once for all the tests of this
/// process (as the first attach does).
fn reserved() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| assert!(crate::memory::reserve(RECORD_BYTES, 0)));
}

/// The table's life cycle without a kernel: a ring struct that was never
/// set up (null ring pointers read as zero, the probe fails) is recorded,
/// found by identity, counted, and removed exactly once.
#[test]
fn record_found_counted_and_removed_once() {
    reserved();
    let ring = crate::geometry::empty_ring();
    ring_created(&ring);
    let id = core::ptr::from_ref(&ring);
    assert_eq!(with_ring(id, Pending::default(), |t| t.submits), Some(0));
    let (sq, _) = observe::both_sides(&ring);
    submitted(sq, None, 0, 1, 0);
    assert_eq!(
        with_ring(id, Pending::default(), |t| (t.submits, t.enters)),
        Some((1, 1))
    );
    let mut rec = remove(Some(id)).expect("recorded");
    assert!(active(rec.get()));
    drop(rec);
    assert!(with_ring(id, Pending::default(), |_| ()).is_none());
    assert!(remove(Some(id)).is_none());
}

#[test]
fn summary_block_is_fixed_size_and_newline_terminated() {
    reserved();
    let rec = Record::<RingTrace>::claim(Kind::Trace, MAX_RINGS - 1).expect("mapped");
    let mut rec = Removed {
        slot: &SLOTS[MAX_RINGS - 1],
        rec: rec.into_raw(),
    };
    rec.get().ops[usize::from(IORING_OP_NOP)] = 3;
    let mut block = [0u8; SUMMARY_BYTES + 1];
    let mut written = 0;
    output::fill_block(
        output::trace_file::BlockAt::over(&mut block[..SUMMARY_BYTES]),
        |b| {
            summary_block(rec.get(), b);
            written = b.written();
        },
    );
    assert_eq!(written, SUMMARY_BYTES);
    assert_eq!(block[SUMMARY_BYTES], 0, "nothing past the block");
    let block = &block[..SUMMARY_BYTES];
    assert_eq!(block.last(), Some(&b'\n'));
    let text = core::str::from_utf8(block).unwrap();
    assert!(text.contains("summary: ops per opcode: NOP=3\n"));
    assert_eq!(text.matches('\n').count(), 6);
}
