// SPDX-License-Identifier: MIT
use super::*;

pub const PAGE: usize = 4096;
const SQE128: u32 = IORING_SETUP_SQE128;
const CQE32: u32 = IORING_SETUP_CQE32;
const NOSQ: u32 = IORING_SETUP_NO_SQARRAY;
const CLAMP: u32 = IORING_SETUP_CLAMP;
const CQSIZE: u32 = IORING_SETUP_CQSIZE;

fn as_c(r: SysResult<usize>) -> i64 {
    match r {
        Ok(n) => n as i64,
        Err(e) => -(e.get() as i64),
    }
}

// (entries, flags, io_uring_memory_size) measured from upstream
// liburing 2.15 (4 KiB pages).
const MEMORY_SIZE: &[(u32, u32, i64)] = &[
    (0, 0, -22),
    (1, 0, 8192),
    (8, 0, 8192),
    (100, 0, 16384),
    (1000, 0, 106496),
    (4096, 0, 413696),
    (32768, 0, 3280896),
    (32769, 0, -22),
    (65536, 0, -22),
    (0, SQE128, -22),
    (1, SQE128, 8192),
    (8, SQE128, 8192),
    (100, SQE128, 24576),
    (1000, SQE128, 172032),
    (4096, SQE128, 675840),
    (32768, SQE128, 5378048),
    (32769, SQE128, -22),
    (1, CQE32, 8192),
    (64, CQE32, 12288),
    (100, CQE32, 20480),
    (1000, CQE32, 139264),
    (4096, CQE32, 544768),
    (5000, CQE32, 1085440),
    (32768, CQE32, 4329472),
    (65536, CQE32, -22),
    (1, SQE128 | CQE32, 8192),
    (64, SQE128 | CQE32, 16384),
    (100, SQE128 | CQE32, 28672),
    (1000, SQE128 | CQE32, 204800),
    (4096, SQE128 | CQE32, 806912),
    (32768, SQE128 | CQE32, 6426624),
    (0, NOSQ, -22),
    (1, NOSQ, 8192),
    (100, NOSQ, 16384),
    (1000, NOSQ, 102400),
    (4096, NOSQ, 397312),
    (32768, NOSQ, 3149824),
    (32769, NOSQ, -22),
    (100, NOSQ | CQE32, 20480),
    (1000, NOSQ | CQE32, 135168),
    (4096, NOSQ | CQE32, 528384),
    (32768, NOSQ | CQE32, 4198400),
    (0, CLAMP, -22),
    (100, CLAMP, 16384),
    (32768, CLAMP, 3280896),
    (32769, CLAMP, 3280896),
    (65536, CLAMP, 3280896),
    (65536, CLAMP | CQE32 | SQE128, 6426624),
];

// (entries, flags, cq_entries, io_uring_memory_size_params) from upstream.
const MEMORY_SIZE_CQ: &[(u32, u32, u32, i64)] = &[
    (8, CQSIZE, 0, -22),
    (8, CQSIZE, 1, -22),
    (8, CQSIZE, 8, 8192),
    (8, CQSIZE, 9, 8192),
    (8, CQSIZE, 1024, 24576),
    (8, CQSIZE, 65536, 1056768),
    (8, CQSIZE, 65537, -22),
    (100, CQSIZE, 100, 12288),
    (100, CQSIZE, 9, -22),
    (100, CQSIZE, 65536, 1060864),
    (32768, CQSIZE, 1024, -22),
    (32768, CQSIZE, 65536, 3280896),
    (65536, CQSIZE, 65536, -22),
    (8, CQSIZE | CLAMP, 200000, 1056768),
    (100, CQSIZE | CLAMP, 65537, 1060864),
    (65536, CQSIZE | CLAMP, 65536, 3280896),
    (65536, CQSIZE | CLAMP, 1024, -22),
    (8, CQSIZE | CLAMP | CQE32, 100, 12288),
    (8, CQSIZE | CLAMP | CQE32, 1024, 40960),
    (100, CQSIZE | CLAMP | CQE32, 200000, 2109440),
    (32768, CQSIZE | CLAMP | CQE32, 65537, 4329472),
];

// (entries, flags, io_uring_queue_init_mem result) from upstream, with
// an 8 MiB buffer; NO_SQARRAY is added by the library on this kernel.
pub const INIT_MEM_USED: &[(u32, u32, usize)] = &[
    (1, 0, 8192),
    (2, 0, 8192),
    (8, 0, 8192),
    (64, 0, 8192),
    (100, 0, 16384),
    (128, 0, 16384),
    (256, 0, 28672),
    (1024, 0, 102400),
    (4096, 0, 397312),
    (1, SQE128, 8192),
    (64, SQE128, 12288),
    (100, SQE128, 24576),
    (256, SQE128, 45056),
    (1024, SQE128, 167936),
    (4096, SQE128, 659456),
    (16, CQE32, 8192),
    (64, CQE32, 12288),
    (100, CQE32, 20480),
    (256, CQE32, 36864),
    (1024, CQE32, 135168),
    (4096, CQE32, 528384),
    (64, SQE128 | CQE32, 16384),
    (256, SQE128 | CQE32, 53248),
    (1024, SQE128 | CQE32, 200704),
    (4096, SQE128 | CQE32, 790528),
];

#[test]
fn memory_size_matches_upstream() {
    for &(entries, flags, want) in MEMORY_SIZE {
        assert_eq!(
            as_c(memory_size_for(entries, flags, 0, PAGE)),
            want,
            "entries {entries} flags {flags:#x}"
        );
    }
    for &(entries, flags, cq, want) in MEMORY_SIZE_CQ {
        assert_eq!(
            as_c(memory_size_for(entries, flags, cq, PAGE)),
            want,
            "{entries} {flags:#x} cq {cq}"
        );
    }
}

#[test]
fn no_mmap_layout_matches_upstream_bytes_used() {
    for &(entries, flags, want) in INIT_MEM_USED {
        let l = no_mmap_layout(entries, flags | NOSQ, 0, PAGE).unwrap();
        assert_eq!(l.mem_used, want, "entries {entries} flags {flags:#x}");
        assert_eq!(l.sqes_mem % PAGE, 0);
    }
}

#[test]
fn ring_entries_rounding_and_limits() {
    assert_eq!(ring_entries(1, 0, 0), Ok((1, 2)));
    assert_eq!(ring_entries(3, 0, 0), Ok((4, 8)));
    assert_eq!(ring_entries(5, CQSIZE, 5), Ok((8, 8)));
    assert_eq!(ring_entries(5, CQSIZE, 4), Err(Errno::EINVAL));
    assert_eq!(ring_entries(5, CQSIZE, 0), Err(Errno::EINVAL));
    assert_eq!(ring_entries(40000, CLAMP, 0), Ok((32768, 65536)));
    assert_eq!(ring_entries(40000, 0, 0), Err(Errno::EINVAL));
    assert_eq!(ring_entries(0, CLAMP, 0), Err(Errno::EINVAL));
}
