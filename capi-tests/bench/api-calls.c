/* SPDX-License-Identifier: MIT */
/*
 * Drives each non-inline submit/wait/peek entry point a fixed number of
 * times on NOPs, for `callgrind.sh` to count the library's own instructions
 * per call (inclusive), ours against upstream's, from the same source:
 *   api-calls <iterations>
 * Every call is checked, so a miscounting library fails here rather than
 * producing a flattering figure.
 */
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "api-calls: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	exit(1); } } while (0)

static void nop(struct io_uring *ring, __u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	sqe->user_data = ud;
}

int main(int argc, char **argv)
{
	struct io_uring_cqe *cqe, *cqes[8];
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring ring;
	unsigned i, n, iters;

	iters = argc > 1 ? (unsigned) strtoul(argv[1], NULL, 0) : 1000;
	CHECK(io_uring_queue_init(16, &ring, 0) == 0);
	for (i = 0; i < iters; i++) {
		/* io_uring_submit, then the internal wait primitive. */
		nop(&ring, 1);
		CHECK(io_uring_submit(&ring) == 1);
		CHECK(__io_uring_get_cqe(&ring, &cqe, 0, 1, NULL) == 0);
		CHECK(cqe->user_data == 1);
		io_uring_cqe_seen(&ring, cqe);

		/* io_uring_submit_and_wait, then io_uring_peek_batch_cqe. */
		nop(&ring, 2);
		nop(&ring, 3);
		CHECK(io_uring_submit_and_wait(&ring, 2) == 2);
		n = io_uring_peek_batch_cqe(&ring, cqes, 8);
		CHECK(n == 2);
		io_uring_cq_advance(&ring, n);

		/* io_uring_wait_cqes without and with a timeout. */
		nop(&ring, 4);
		CHECK(io_uring_submit(&ring) == 1);
		CHECK(io_uring_wait_cqes(&ring, &cqe, 1, NULL, NULL) == 0);
		io_uring_cqe_seen(&ring, cqe);
		nop(&ring, 5);
		CHECK(io_uring_submit(&ring) == 1);
		CHECK(io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == 0);
		io_uring_cqe_seen(&ring, cqe);

		/* io_uring_submit_and_wait_timeout. */
		nop(&ring, 6);
		CHECK(io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL) == 1);
		CHECK(cqe->user_data == 6);
		io_uring_cqe_seen(&ring, cqe);

		/* io_uring_submit_and_get_events, io_uring_get_events. */
		nop(&ring, 7);
		CHECK(io_uring_submit_and_get_events(&ring) == 1);
		CHECK(io_uring_get_events(&ring) == 0);
		CHECK(io_uring_peek_cqe(&ring, &cqe) == 0);
		io_uring_cqe_seen(&ring, cqe);

		/* Peeking an empty CQ (no kernel entry expected). */
		CHECK(io_uring_peek_batch_cqe(&ring, cqes, 8) == 0);
		CHECK(io_uring_submit(&ring) == 0);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
