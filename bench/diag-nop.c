/* SPDX-License-Identifier: MIT */
/*
 * One NOP at a time (get an SQE, prepare it, submit, wait, mark seen), N
 * times, inside run_loop(): bench/diag-cost.sh counts the user-space
 * instructions of run_loop under callgrind with and without diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>

#include <liburing.h>

__attribute__((noinline)) static int run_loop(struct io_uring *ring, int n)
{
	struct io_uring_cqe *cqe;
	int i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, (unsigned) i + 1);
		if (io_uring_submit(ring) != 1)
			return 1;
		if (io_uring_wait_cqe(ring, &cqe) || cqe->res)
			return 1;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

int main(int argc, char *argv[])
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	struct io_uring ring;

	if (io_uring_queue_init(64, &ring, 0))
		return 77;
	if (run_loop(&ring, n))
		return 1;
	io_uring_queue_exit(&ring);
	return 0;
}
