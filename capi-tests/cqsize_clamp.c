/* SPDX-License-Identifier: MIT */
/*
 * Ring sizing: entries round up to a power of two; the CQ defaults to twice
 * the SQ; IORING_SETUP_CQSIZE picks the CQ size (rounded up); CLAMP caps both
 * at the kernel maxima (32768 SQ, 65536 CQ) instead of failing; the sizes
 * are written back into the params and the struct io_uring.
 */
#include "check.h"

static void sizes(unsigned entries, unsigned flags, unsigned cq, unsigned want_sq,
		  unsigned want_cq)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = cq;
	ret = io_uring_queue_init_params(entries, &ring, &p);
	if (ret < 0) {
		char b[96];

		FAIL("init(%u, flags 0x%x, cq %u): %s", entries, flags, cq,
		     check_errstr(ret, b, sizeof(b)));
	}
	CHECK_EQ(p.sq_entries, want_sq);
	CHECK_EQ(p.cq_entries, want_cq);
	CHECK_EQ(ring.sq.ring_entries, want_sq);
	CHECK_EQ(ring.cq.ring_entries, want_cq);
	CHECK_EQ(ring.sq.ring_mask, want_sq - 1);
	CHECK_EQ(ring.cq.ring_mask, want_cq - 1);
	CHECK_EQ(*ring.cq.kring_entries, want_cq);
	check_nop_roundtrip(&ring, want_sq < 64 ? want_sq : 64, entries);
	io_uring_queue_exit(&ring);
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_params p;

	sizes(1, 0, 0, 1, 2);
	sizes(5, 0, 0, 8, 16);
	sizes(64, 0, 0, 64, 128);
	sizes(100, 0, 0, 128, 256);

	sizes(8, IORING_SETUP_CQSIZE, 8, 8, 8);
	sizes(8, IORING_SETUP_CQSIZE, 100, 8, 128);
	sizes(4, IORING_SETUP_CQSIZE, 4096, 4, 4096);

	sizes(32768, 0, 0, 32768, 65536);
	sizes(32769, IORING_SETUP_CLAMP, 0, 32768, 65536);
	sizes(1000000, IORING_SETUP_CLAMP, 0, 32768, 65536);
	sizes(8, IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP, 1000000, 8, 65536);
	sizes(8, IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP, 65536, 8, 65536);

	/* Without CLAMP the same requests fail. */
	CHECK_EQ(io_uring_queue_init(32769, &ring, 0), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 65537;
	CHECK_EQ(io_uring_queue_init_params(8, &ring, &p), -EINVAL);
	/* CQ smaller than SQ is refused even with CLAMP. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;
	p.cq_entries = 8;
	CHECK_EQ(io_uring_queue_init_params(64, &ring, &p), -EINVAL);
	return 0;
}
