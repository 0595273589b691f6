/* SPDX-License-Identifier: MIT */
/*
 * Workload 1, NOP round trips: `nop batch=<b> n=<nops>` queues <b> NOPs,
 * submits and waits for all of them with io_uring_submit_and_wait(), walks
 * the CQEs with io_uring_for_each_cqe() (checking user_data) and advances the
 * CQ, until <nops> NOPs are done, after a short warm-up.  One op = one NOP.
 */
#include "common.h"

#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>

static void batches(struct io_uring *ring, unsigned batch, long long rounds)
{
	long long r;
	unsigned i;

	for (r = 0; r < rounds; r++) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		unsigned long long sum = 0;

		for (i = 0; i < batch; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, i + 1);
		}
		if (io_uring_submit_and_wait(ring, batch) != (int) batch)
			die("io_uring_submit_and_wait", -5);
		io_uring_for_each_cqe(ring, head, cqe) {
			sum += cqe->user_data;
			seen++;
		}
		if (seen != batch || sum != (unsigned long long) batch * (batch + 1) / 2) {
			fprintf(stderr, "bad completions: %u (sum %llu)\n", seen, sum);
			exit(1);
		}
		io_uring_cq_advance(ring, seen);
	}
}

static BENCH_NOINLINE void bench_run(struct io_uring *ring, unsigned batch, long long rounds)
{
	batches(ring, batch, rounds);
}

int main(int argc, char **argv)
{
	unsigned batch = (unsigned) arg_int(argc, argv, "batch", 1);
	long long n = arg_int(argc, argv, "n", 100000), rounds;
	struct io_uring ring;
	int64_t t0, t1;
	int ret;

	if (!batch || batch > 4096 || n < batch) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	rounds = n / batch;
	ret = io_uring_queue_init(batch, &ring, 0);
	if (ret < 0)
		die("io_uring_queue_init", ret);
	batches(&ring, batch, rounds / 10 + 1); /* warm-up */
	bench_phase_mark();
	t0 = now_ns();
	bench_run(&ring, batch, rounds);
	t1 = now_ns();
	bench_phase_mark();
	io_uring_queue_exit(&ring);
	report(rounds * batch, t1 - t0, NULL, NULL);
	return 0;
}
