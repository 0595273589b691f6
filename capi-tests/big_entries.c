/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_SQE128 and IORING_SETUP_CQE32:
 *  - io_uring_get_sqe() hands out 128-byte slots on an SQE128 ring (batches
 *    that wrap the ring still round trip, so the stride is right);
 *  - on a CQE32 ring every CQE is 32 bytes: a NOP completion has
 *    big_cqe[0..1] zeroed even where the CQ memory held garbage before, and
 *    the reaping helpers step by 32 bytes (peek, peek_batch, for_each).
 */
#include "check.h"

static void fill_cq_with_garbage(struct io_uring *ring)
{
	size_t n = (size_t) ring->cq.ring_entries << io_uring_cqe_shift(ring);

	memset(ring->cq.cqes, 0xa5, n * sizeof(struct io_uring_cqe));
}

static void cqe32_round(struct io_uring *ring, unsigned n, unsigned long long base)
{
	struct io_uring_cqe *cqes[64], *cqe;
	unsigned i, got, head, count = 0;

	fill_cq_with_garbage(ring);
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, base + i);
	}
	CHECK_EQ(io_uring_submit_and_wait(ring, n), n);
	CHECK_EQ(io_uring_cq_ready(ring), n);

	/* for_each sees them in order, 32 bytes apart. */
	io_uring_for_each_cqe(ring, head, cqe) {
		CHECK_EQ(io_uring_cqe_get_data64(cqe), base + count);
		CHECK_EQ(cqe->res, 0);
		CHECK_EQ(cqe->big_cqe[0], 0);
		CHECK_EQ(cqe->big_cqe[1], 0);
		count++;
	}
	CHECK_EQ(count, n);
	/* peek_batch agrees. */
	got = io_uring_peek_batch_cqe(ring, cqes, 64);
	CHECK_EQ(got, n);
	for (i = 0; i < got; i++) {
		CHECK_EQ(io_uring_cqe_get_data64(cqes[i]), base + i);
		/* 32 bytes apart, except where the ring wraps. */
		if (i && cqes[i] > cqes[i - 1])
			CHECK_EQ((char *) cqes[i] - (char *) cqes[i - 1],
				 2 * sizeof(struct io_uring_cqe));
	}
	/* And one at a time. */
	for (i = 0; i < n; i++) {
		CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
		CHECK_EQ(io_uring_cqe_get_data64(cqe), base + i);
		CHECK_EQ(cqe->big_cqe[0], 0);
		CHECK_EQ(cqe->big_cqe[1], 0);
		io_uring_cqe_seen(ring, cqe);
	}
	CHECK_EQ(io_uring_cq_ready(ring), 0);
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_sqe *a, *b;
	unsigned round;
	int ret;

	/* ---- SQE128 ---- */
	REQUIRE_KERNEL(IORING_SETUP_SQE128);
	REQUIRE_KERNEL(IORING_SETUP_CQE32);
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_SQE128);
	CHECK_EQ(ret, 0);
	CHECK_EQ(io_uring_sqe_shift(&ring), 1);
	a = io_uring_get_sqe(&ring);
	b = io_uring_get_sqe(&ring);
	CHECK_EQ((char *) b - (char *) a, 128);
	CHECK((void *) a == (void *) ring.sq.sqes);
	/* get_sqe clears the fields it documents; the slot is usable as a NOP. */
	io_uring_prep_nop(a);
	io_uring_sqe_set_data64(a, 1);
	io_uring_prep_nop(b);
	io_uring_sqe_set_data64(b, 2);
	CHECK_EQ(io_uring_submit_and_wait(&ring, 2), 2);
	io_uring_cq_advance(&ring, 2);
	for (round = 0; round < 12; round++)
		check_nop_roundtrip(&ring, (round & 1) ? 8 : 3, 100 * (round + 1));
	io_uring_queue_exit(&ring);

	/* ---- CQE32 ---- */
	ret = io_uring_queue_init(16, &ring, IORING_SETUP_CQE32);
	CHECK_EQ(ret, 0);
	CHECK_EQ(io_uring_cqe_shift(&ring), 1);
	for (round = 0; round < 10; round++)
		cqe32_round(&ring, (round & 1) ? 16 : 7, 1000 * (round + 1));
	check_nop_roundtrip(&ring, 16, 77777);
	io_uring_queue_exit(&ring);

	/* ---- both ---- */
	CHECK_EQ(io_uring_queue_init(16, &ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32), 0);
	for (round = 0; round < 6; round++)
		cqe32_round(&ring, 16, 50000 + 100 * round);
	io_uring_queue_exit(&ring);
	return 0;
}
