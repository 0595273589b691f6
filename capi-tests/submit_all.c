/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_SUBMIT_ALL: a batch [nop, bad opcode, nop, nop] is submitted
 * whole (4), the bad one completing with -EINVAL; without the flag the
 * submission stops after the failed SQE (2 submitted), the rest stays in the
 * SQ (io_uring_sq_ready()==2) and goes in with the next io_uring_submit().
 */
#include "check.h"

static void queue_batch(struct io_uring *ring, unsigned long long base)
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		if (i == 1)
			sqe->opcode = 0xfd; /* no such opcode */
		io_uring_sqe_set_data64(sqe, base + i);
	}
}

/* Reap exactly n CQEs; slot 1 of the batch must have -EINVAL, others 0. */
static void reap(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[4] = { 0 };
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_uring_cqe *cqe;
		unsigned long long ud;

		CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
		ud = io_uring_cqe_get_data64(cqe);
		CHECKM(ud >= base && ud < base + 4 && !seen[ud - base], "bad user_data %llu", ud);
		seen[ud - base] = 1;
		CHECK_EQ(cqe->res, ud == base + 1 ? -EINVAL : 0);
		io_uring_cqe_seen(ring, cqe);
	}
	CHECK_EQ(io_uring_cq_ready(ring), 0);
}

int main(void)
{
	struct io_uring ring;
	int ret;

	REQUIRE_KERNEL(IORING_SETUP_SUBMIT_ALL);
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_SUBMIT_ALL);
	CHECK_EQ(ret, 0);
	queue_batch(&ring, 10);
	CHECK_EQ(io_uring_submit(&ring), 4);
	CHECK_EQ(io_uring_sq_ready(&ring), 0);
	reap(&ring, 4, 10);
	check_nop_roundtrip(&ring, 8, 100);
	io_uring_queue_exit(&ring);

	check_ring_init(&ring, 8, 0);
	queue_batch(&ring, 20);
	CHECK_EQ(io_uring_submit(&ring), 2);
	CHECK_EQ(io_uring_sq_ready(&ring), 2);
	reap(&ring, 2, 20);
	CHECK_EQ(io_uring_submit(&ring), 2);
	CHECK_EQ(io_uring_sq_ready(&ring), 0);
	{
		struct io_uring_cqe *cqe;
		unsigned i;

		for (i = 2; i < 4; i++) {
			CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
			CHECK_EQ(io_uring_cqe_get_data64(cqe), 20 + i);
			CHECK_EQ(cqe->res, 0);
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	check_nop_roundtrip(&ring, 8, 200);
	io_uring_queue_exit(&ring);
	return 0;
}
