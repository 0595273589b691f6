/* SPDX-License-Identifier: MIT */
/*
 * CQ overflow without loss (IORING_FEAT_NODROP): a ring with an 8-entry CQ
 * gets 40 NOPs submitted without reaping; the kernel keeps the surplus on its
 * overflow list and raises IORING_SQ_CQ_OVERFLOW.  The library must flush it
 * while reaping, so every completion is reaped exactly once, none dropped
 * (cq.koverflow stays 0), and the flag clears.  Done once with
 * io_uring_wait_cqe/peek_cqe and once with io_uring_peek_batch_cqe, and once
 * on a DEFER_TASKRUN ring.
 */
#include "check.h"

#define SQ 4
#define CQ 8
#define TOTAL 40

static void submit_all(struct io_uring *ring, unsigned long long base)
{
	unsigned done = 0;

	while (done < TOTAL) {
		unsigned n = 0;
		int ret;

		while (n < SQ && done + n < TOTAL) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			CHECK(sqe != NULL);
			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, base + done + n);
			n++;
		}
		ret = io_uring_submit(ring);
		CHECK_EQ(ret, n);
		done += n;
	}
}

static void account(unsigned char *seen, unsigned long long base, struct io_uring_cqe *cqe)
{
	unsigned long long ud = io_uring_cqe_get_data64(cqe);

	CHECKM(ud >= base && ud < base + TOTAL, "unexpected user_data %llu", ud);
	CHECKM(!seen[ud - base], "user_data %llu reaped twice", ud);
	CHECK_EQ(cqe->res, 0);
	seen[ud - base] = 1;
}

static void overflow_then_reap(struct io_uring *ring, int batch, unsigned long long base)
{
	unsigned char seen[TOTAL] = { 0 };
	struct io_uring_cqe *cqe;
	unsigned got = 0, i;

	submit_all(ring, base);
	/* The CQ is full, the rest waits on the overflow list. */
	if (!(ring->flags & IORING_SETUP_DEFER_TASKRUN)) {
		CHECK_EQ(io_uring_cq_ready(ring), CQ);
		CHECK(io_uring_cq_has_overflow(ring));
		CHECK(IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_CQ_OVERFLOW);
	}

	while (got < TOTAL) {
		if (batch) {
			struct io_uring_cqe *cqes[CQ];
			unsigned n = io_uring_peek_batch_cqe(ring, cqes, CQ);

			if (!n) {
				/* Nothing visible: wait for at least one. */
				CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
				continue;
			}
			for (i = 0; i < n; i++)
				account(seen, base, cqes[i]);
			io_uring_cq_advance(ring, n);
			got += n;
		} else {
			int ret = io_uring_peek_cqe(ring, &cqe);

			if (ret == -EAGAIN)
				ret = io_uring_wait_cqe(ring, &cqe);
			CHECK_EQ(ret, 0);
			account(seen, base, cqe);
			io_uring_cqe_seen(ring, cqe);
			got++;
		}
	}
	for (i = 0; i < TOTAL; i++)
		CHECKM(seen[i], "completion %llu lost", base + i);
	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), -EAGAIN);
	CHECK(!io_uring_cq_has_overflow(ring));
	CHECK_EQ(*ring->cq.koverflow, 0);
}

int main(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = CQ;
	ret = io_uring_queue_init_params(SQ, &ring, &p);
	CHECK_EQ(ret, 0);
	REQUIRE_KERNEL(IORING_FEAT_NODROP);
	CHECK(ring.features & IORING_FEAT_NODROP);
	CHECK_EQ(ring.cq.ring_entries, CQ);

	overflow_then_reap(&ring, 0, 100);
	overflow_then_reap(&ring, 1, 200);
	overflow_then_reap(&ring, 0, 300);
	check_nop_roundtrip(&ring, SQ, 400);
	io_uring_queue_exit(&ring);

	/* Same with deferred task running. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	p.cq_entries = CQ;
	ret = io_uring_queue_init_params(SQ, &ring, &p);
	if (ret == -EINVAL) {
		check_note("note: DEFER_TASKRUN not supported, that part not run");
		return 0;
	}
	CHECK_EQ(ret, 0);
	overflow_then_reap(&ring, 0, 500);
	overflow_then_reap(&ring, 1, 600);
	io_uring_queue_exit(&ring);
	return 0;
}
