// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn summaries() {
    assert_eq!(
        first_sentence("Submits the SQEs. Then waits."),
        "submits the SQEs"
    );
    assert_eq!(
        first_sentence("IORING_X, i.e. this: that"),
        "IORING_X, i.e. this"
    );
    assert_eq!(first_sentence("A `ring` of @n"), "a ring of n");
}

#[test]
fn safety_clauses() {
    assert_eq!(
        reader_safety("`ring` must be null or valid; `buf` valid for `len` bytes. As for x."),
        "`buf` must be valid for `len` bytes."
    );
}

#[test]
fn mentions() {
    assert_eq!(
        mentioned("see io_uring_setup(2) and __io_uring_x, IO_URING_Y"),
        [
            ("io_uring_setup".to_string(), Some('2')),
            ("IO_URING_Y".to_string(), None)
        ]
    );
}
