/* SPDX-License-Identifier: MIT */
/*
 * Mixed-size rings (where the kernel supports them):
 *  - IORING_SETUP_CQE_MIXED: NOPs with IORING_NOP_CQE32 post 32-byte CQEs
 *    (IORING_CQE_F_32, two slots) between normal ones; the kernel pads the
 *    ring end with IORING_CQE_F_SKIP entries.  peek/wait skip the padding,
 *    io_uring_cqe_seen() advances by io_uring_cqe_nr(), peek_batch returns
 *    only real CQEs, and every user_data is reaped exactly once over many
 *    wraps.
 *  - IORING_SETUP_SQE_MIXED: io_uring_get_sqe128() + io_uring_prep_nop128()
 *    between normal SQEs; at the ring end get_sqe128 pads with a skipped NOP.
 */
#include "check.h"

#define SQ 8
#define CQ 16

static unsigned lcg = 12345;
static unsigned rnd(void)
{
	lcg = lcg * 1103515245u + 12345u;
	return lcg >> 16;
}

static void cqe_mixed(void)
{
	struct io_uring ring;
	int ret, round;
	unsigned long long next = 1;

	if (!KERNEL_HAS_PART("cqe", IORING_SETUP_CQE_MIXED))
		return;
	ret = io_uring_queue_init(SQ, &ring, IORING_SETUP_CQE_MIXED);
	CHECK_EQ(ret, 0);
	CHECK_EQ(io_uring_cqe_shift(&ring), 0);

	for (round = 0; round < 200; round++) {
		unsigned n = 1 + rnd() % 5, i, got = 0;
		unsigned char big[8];
		unsigned long long base = next;

		for (i = 0; i < n; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			CHECK(sqe != NULL);
			io_uring_prep_nop(sqe);
			big[i] = rnd() & 1;
			if (big[i])
				sqe->nop_flags = IORING_NOP_CQE32;
			io_uring_sqe_set_data64(sqe, next++);
		}
		CHECK_EQ(io_uring_submit_and_wait(&ring, n), n);
		if (round % 3 == 0) {
			struct io_uring_cqe *cqes[8];
			unsigned k, c = io_uring_peek_batch_cqe(&ring, cqes, 8);

			/* A padding entry inside the batch ends it early. */
			CHECKM(c >= 1 && c <= n, "peek_batch_cqe returned %u of %u", c, n);
			for (k = 0; k < c; k++) {
				unsigned long long ud = io_uring_cqe_get_data64(cqes[k]);

				CHECK_EQ(ud, base + k);
				CHECK(!(cqes[k]->flags & IORING_CQE_F_SKIP));
				CHECK_EQ(!!(cqes[k]->flags & IORING_CQE_F_32), big[k]);
			}
			for (k = 0; k < c; k++) {
				struct io_uring_cqe *cqe;

				/* The same CQEs, one at a time, skip entries consumed. */
				CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
				CHECK(cqe == cqes[k]);
				io_uring_cqe_seen(&ring, cqe);
			}
			got = c;
		}
		while (got < n) {
			struct io_uring_cqe *cqe;

			CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
			CHECK(!(cqe->flags & IORING_CQE_F_SKIP));
			CHECK_EQ(io_uring_cqe_get_data64(cqe), base + got);
			CHECK_EQ(cqe->res, 0);
			CHECK_EQ(!!(cqe->flags & IORING_CQE_F_32), big[got]);
			CHECK_EQ(io_uring_cqe_nr(cqe), big[got] ? 2 : 1);
			io_uring_cqe_seen(&ring, cqe);
			got++;
		}
		CHECK_EQ(io_uring_peek_cqe(&ring, (struct io_uring_cqe *[]){ NULL }), -EAGAIN);
	}
	io_uring_queue_exit(&ring);
}

static void sqe_mixed(void)
{
	struct io_uring ring;
	int ret, round;
	unsigned long long next = 1;

	if (!KERNEL_HAS_PART("sqe", IORING_OP_NOP128) ||
	    !KERNEL_HAS_PART("sqe", IORING_SETUP_SQE_MIXED))
		return;
	ret = io_uring_queue_init(SQ, &ring, IORING_SETUP_SQE_MIXED);
	CHECK_EQ(ret, 0);
	/* A normal ring hands out no 128-byte SQEs. */
	{
		struct io_uring plain;

		check_ring_init(&plain, 4, 0);
		CHECK(io_uring_get_sqe128(&plain) == NULL);
		io_uring_queue_exit(&plain);
	}

	for (round = 0; round < 200; round++) {
		unsigned n = 1 + rnd() % 3, i, got = 0;
		unsigned long long base = next;

		for (i = 0; i < n; i++) {
			struct io_uring_sqe *sqe;

			if (rnd() & 1) {
				sqe = io_uring_get_sqe128(&ring);
				CHECK(sqe != NULL);
				io_uring_prep_nop128(sqe);
			} else {
				sqe = io_uring_get_sqe(&ring);
				CHECK(sqe != NULL);
				io_uring_prep_nop(sqe);
			}
			io_uring_sqe_set_data64(sqe, next++);
		}
		ret = io_uring_submit(&ring);
		CHECKM(ret >= (int) n, "submit returned %d for %u requests", ret, n);
		while (got < n) {
			struct io_uring_cqe *cqe;

			CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
			CHECK_EQ(io_uring_cqe_get_data64(cqe), base + got);
			CHECK_EQ(cqe->res, 0);
			io_uring_cqe_seen(&ring, cqe);
			got++;
		}
		CHECK_EQ(io_uring_cq_ready(&ring), 0);
	}
	io_uring_queue_exit(&ring);
}

int main(void)
{
	REQUIRE_KERNEL(IORING_SETUP_CQE_MIXED);
	cqe_mixed();
	sqe_mixed();
	return 0;
}
