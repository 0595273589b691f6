// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn prose_markup() {
    assert_eq!(
        inline("Use `io_uring_submit` with @ring. Then *wait*."),
        "Use \\fBio_uring_submit\\fR with \\fIring\\fR.\nThen \\fIwait\\fR."
    );
    assert_eq!(inline("a [`x`] b"), "a \\fBx\\fR b");
    assert_eq!(inline("2*3*4 is *not* it"), "2*3*4 is \\fInot\\fR it");
    assert_eq!(escape(".x-y\\"), "\\&.x\\-y\\e");
}

#[test]
fn lists_and_paragraphs() {
    assert_eq!(paragraphs("a\n \n\nb\nc"), ["a", "b\nc"]);
    assert_eq!(
        prose("One.\n\n- `EINVAL`: bad\n  flags.\n- plain item"),
        [
            "One.",
            ".PP",
            ".TP",
            ".B EINVAL",
            "bad flags.",
            ".IP \\(bu 2",
            "plain item"
        ]
    );
}

#[test]
fn long_synopsis_one_parameter_a_line() {
    let s = synopsis(&["int io_uring_queue_init_params(unsigned entries, struct io_uring *ring, struct io_uring_params *p)"]);
    assert_eq!(
        s[3],
        ".B \"int io_uring_queue_init_params(unsigned entries,\""
    );
    assert_eq!(
        s[5],
        ".B \"                               struct io_uring_params *p);\""
    );
}

#[test]
fn check_markers_become_roff_comments() {
    assert_eq!(
        prose("- `EBUSY`: old kernels. [check: a-b]\n- `EINVAL`: bad."),
        [
            ".TP",
            ".B EBUSY",
            "old kernels.",
            ".\\\" @check a-b",
            ".TP",
            ".B EINVAL",
            "bad."
        ]
    );
    assert_eq!(
        prose("It holds. [check: x] [check: y]"),
        ["It holds.", ".\\\" @check x", ".\\\" @check y"]
    );
}
