/* SPDX-License-Identifier: MIT */
/*
 * NOP round-trip benchmark: `nop-bench <batch> <iterations>` queues <batch>
 * NOPs, submits and waits for all of them with io_uring_submit_and_wait(),
 * walks the CQEs with io_uring_for_each_cqe() (checking user_data) and
 * advances the CQ, <iterations> times, after a short warm-up.  Prints
 *   lib=<path of the liburing in use> batch=<b> iters=<n> ns_per_nop=<x> ns_per_batch=<y>
 * Built once against each library by bench/run.sh.
 */
#include <dlfcn.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void run(struct io_uring *ring, unsigned batch, unsigned iters)
{
	unsigned it, i;

	for (it = 0; it < iters; it++) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		unsigned long long sum = 0;

		for (i = 0; i < batch; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, i + 1);
		}
		if (io_uring_submit_and_wait(ring, batch) != (int) batch) {
			fprintf(stderr, "submit_and_wait failed\n");
			exit(1);
		}
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

int main(int argc, char **argv)
{
	struct io_uring ring;
	unsigned batch, iters;
	long long t0, t1;
	Dl_info info;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s <batch> <iterations>\n", argv[0]);
		return 2;
	}
	batch = (unsigned) strtoul(argv[1], NULL, 0);
	iters = (unsigned) strtoul(argv[2], NULL, 0);
	if (!batch || batch > 4096 || !iters) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	ret = io_uring_queue_init(batch, &ring, 0);
	if (ret < 0) {
		fprintf(stderr, "io_uring_queue_init: %d\n", ret);
		return 1;
	}
	if (!dladdr((void *) io_uring_submit_and_wait, &info) || !info.dli_fname)
		info.dli_fname = "?";

	run(&ring, batch, iters / 10 + 1);	/* warm-up */
	t0 = now_ns();
	run(&ring, batch, iters);
	t1 = now_ns();
	io_uring_queue_exit(&ring);
	printf("lib=%s batch=%u iters=%u ns_per_nop=%.2f ns_per_batch=%.1f\n", info.dli_fname,
	       batch, iters, (double) (t1 - t0) / ((double) iters * batch),
	       (double) (t1 - t0) / iters);
	return 0;
}
