/* SPDX-License-Identifier: MIT */
/*
 * Waiting with timeouts:
 *  - io_uring_wait_cqe_timeout / io_uring_wait_cqes / submit_and_wait_timeout
 *    return -ETIME after (not before) the timeout when nothing completes, and
 *    the completion when something does; a zero timeout returns at once.
 *  - a pending timeout on an empty ring does not leave CQEs behind.
 *  - min-timeouts (IORING_FEAT_MIN_TIMEOUT): submit_and_wait_min_timeout and
 *    wait_cqes_min_timeout return after min_wait once at least one CQE is
 *    posted, instead of waiting for all of wait_nr or the full timeout.
 */
#include "check.h"

#include <signal.h>

static void queue_nop(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, tag);
}

/* Elapsed milliseconds must be within [lo, hi]. */
#define CHECK_ELAPSED(t0, lo, hi)						\
	do {									\
		long long el_ = (check_now_ns() - (t0)) / 1000000;		\
		CHECKM(el_ >= (lo) && el_ <= (hi), "took %lld ms, expected %d..%d ms", \
		       el_, (int) (lo), (int) (hi));				\
	} while (0)

static void drain(struct io_uring *ring)
{
	io_uring_cq_advance(ring, io_uring_cq_ready(ring));
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	sigset_t sigs;
	long long t0;
	int ret;

	check_ring_init(&ring, 8, 0);

	/* Nothing in flight: -ETIME after the 200 ms timeout. */
	ts = check_kts_ms(200);
	t0 = check_now_ns();
	cqe = (struct io_uring_cqe *) 1;
	ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	CHECK_EQ(ret, -ETIME);
	CHECK_ELAPSED(t0, 190, 2000);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);

	/* A zero timeout: immediate -ETIME. */
	ts = check_kts_ms(0);
	t0 = check_now_ns();
	ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	CHECK_EQ(ret, -ETIME);
	CHECK_ELAPSED(t0, 0, 1000);

	/* wait_cqes with a timeout and a signal mask. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	ts = check_kts_ms(100);
	t0 = check_now_ns();
	ret = io_uring_wait_cqes(&ring, &cqe, 1, &ts, &sigs);
	CHECK_EQ(ret, -ETIME);
	CHECK_ELAPSED(t0, 90, 2000);

	/* submit_and_wait_timeout with nothing to submit. */
	ts = check_kts_ms(100);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL);
	CHECK_EQ(ret, -ETIME);
	CHECK_ELAPSED(t0, 90, 2000);

	/* A completion that is ready is returned at once. */
	queue_nop(&ring, 5);
	ts = check_kts_ms(5000);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL);
	CHECK_EQ(ret, 1);
	CHECK_ELAPSED(t0, 0, 2500);
	CHECK(cqe != NULL);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 5);
	io_uring_cqe_seen(&ring, cqe);

	queue_nop(&ring, 6);
	CHECK_EQ(io_uring_submit(&ring), 1);
	ts = check_kts_ms(5000);
	t0 = check_now_ns();
	ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	CHECK_EQ(ret, 0);
	CHECK_ELAPSED(t0, 0, 2500);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 6);
	io_uring_cqe_seen(&ring, cqe);

	/*
	 * Waiting for 3 when only 2 will come: the call reports the 2 submitted
	 * (the timeout is not an error once completions are available).
	 */
	queue_nop(&ring, 7);
	queue_nop(&ring, 8);
	ts = check_kts_ms(150);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 3, &ts, NULL);
	/* The two were submitted; the wait for a third timed out. */
	CHECK_EQ(ret, 2);
	CHECK(cqe != NULL);
	CHECK_ELAPSED(t0, 140, 2000);
	CHECK_EQ(io_uring_cq_ready(&ring), 2);
	drain(&ring);

	/* A timeout that expired leaves no internal CQE behind. */
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	io_uring_queue_exit(&ring);

	/* ---- min timeouts ---- */
	check_ring_init(&ring, 8, 0);
	if (check_kernel_probe_at(__FILE__, __LINE__, "IORING_FEAT_MIN_TIMEOUT") < 0) {
		CHECK(!(ring.features & IORING_FEAT_MIN_TIMEOUT));
		ts = check_kts_ms(10);
		CHECK_EQ(io_uring_submit_and_wait_min_timeout(&ring, &cqe, 1, &ts, 1000, NULL),
			 -EINVAL);
		REQUIRE_KERNEL(IORING_FEAT_MIN_TIMEOUT);
	}
	CHECK(ring.features & IORING_FEAT_MIN_TIMEOUT);

	/* One NOP, wait for 4 with a 3 s timeout and 100 ms min wait: back after ~100 ms. */
	queue_nop(&ring, 10);
	ts = check_kts_ms(3000);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_min_timeout(&ring, &cqe, 4, &ts, 100000, NULL);
	CHECK_EQ(ret, 1);
	CHECK_ELAPSED(t0, 90, 1500);
	CHECK(cqe != NULL);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 10);
	io_uring_cqe_seen(&ring, cqe);

	/* Nothing at all: the min wait passes, the wait goes on to the full timeout. */
	ts = check_kts_ms(400);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_min_timeout(&ring, &cqe, 1, &ts, 50000, NULL);
	CHECK_EQ(ret, -ETIME);
	CHECK_ELAPSED(t0, 390, 3000);

	/* wait_cqes_min_timeout: same rule on the wait-only path. */
	queue_nop(&ring, 11);
	CHECK_EQ(io_uring_submit(&ring), 1);
	ts = check_kts_ms(3000);
	t0 = check_now_ns();
	ret = io_uring_wait_cqes_min_timeout(&ring, &cqe, 4, &ts, 100000, NULL);
	CHECK_EQ(ret, 0);
	CHECK_ELAPSED(t0, 90, 1500);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 11);
	io_uring_cqe_seen(&ring, cqe);

	/* All 4 ready before min_wait: immediate return. */
	queue_nop(&ring, 12);
	queue_nop(&ring, 13);
	ts = check_kts_ms(6000);
	t0 = check_now_ns();
	ret = io_uring_submit_and_wait_min_timeout(&ring, &cqe, 2, &ts, 3000000, NULL);
	CHECK_EQ(ret, 2);
	CHECK_ELAPSED(t0, 0, 1500);
	CHECK_EQ(io_uring_cq_ready(&ring), 2);
	drain(&ring);
	io_uring_queue_exit(&ring);
	return 0;
}
