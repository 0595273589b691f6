/* SPDX-License-Identifier: MIT */
/*
 * Workload 6, eventfd registration under load: `eventfd-reg inflight=<k>
 * ring=default|defer n=<pairs>`.  Puts <k> requests in flight (poll
 * requests on a pipe nobody writes to), then registers and unregisters an
 * eventfd <n> times, timing each call.  One op = one register + unregister
 * pair; prints the median and p99 of each call separately.
 */
#include "common.h"
#include "net.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

static BENCH_NOINLINE void bench_run(struct io_uring *ring, int efd, long long n,
				     struct lat_samples *reg, struct lat_samples *unreg)
{
	long long i;

	for (i = 0; i < n; i++) {
		int64_t t0 = now_ns(), t1, t2;
		int ret = io_uring_register_eventfd(ring, efd);

		t1 = now_ns();
		if (ret < 0)
			die("io_uring_register_eventfd", ret);
		ret = io_uring_unregister_eventfd(ring);
		t2 = now_ns();
		if (ret < 0)
			die("io_uring_unregister_eventfd", ret);
		lat_add(reg, t1 - t0);
		lat_add(unreg, t2 - t1);
	}
}

/* <k> poll requests that stay pending: the pipe is never written. */
static void fill_in_flight(struct io_uring *ring, int fd, long long k)
{
	long long queued = 0;

	while (queued < k) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
		int ret;

		if (sqe) {
			io_uring_prep_poll_add(sqe, fd, POLLIN);
			io_uring_sqe_set_data64(sqe, (unsigned long long) queued + 1);
			queued++;
			if (queued < k)
				continue;
		}
		ret = io_uring_submit(ring);
		if (ret < 0)
			die("io_uring_submit", ret);
	}
}

int main(int argc, char **argv)
{
	long long inflight = arg_int(argc, argv, "inflight", 0);
	long long n = arg_int(argc, argv, "n", 200);
	const char *flavour = arg_str(argc, argv, "ring", "default");
	struct io_uring_params p = { 0 };
	struct lat_samples reg, unreg;
	struct io_uring ring;
	int pipefd[2], efd, ret;
	int64_t t0, t1;
	char extra[200];

	if (inflight < 0 || inflight > 1000000 || n < 1) {
		fprintf(stderr, "usage: %s inflight=N ring=default|defer n=N\n", argv[0]);
		return 2;
	}
	p.flags = ring_flavour_flags(flavour) | IORING_SETUP_CQSIZE;
	p.cq_entries = 65536;
	ret = io_uring_queue_init_params(4096, &ring, &p);
	if (ret == -EINVAL)
		skip("this kernel refuses the ring flags of this flavour");
	if (ret < 0)
		die("io_uring_queue_init_params", ret);
	if (pipe(pipefd))
		die("pipe", -1);
	efd = eventfd(0, EFD_CLOEXEC);
	if (efd < 0)
		die("eventfd", -1);
	fill_in_flight(&ring, pipefd[0], inflight);
	lat_init(&reg, (size_t) n);
	lat_init(&unreg, (size_t) n);
	bench_phase_mark();
	t0 = now_ns();
	bench_run(&ring, efd, n, &reg, &unreg);
	t1 = now_ns();
	bench_phase_mark();
	if (io_uring_cq_ready(&ring))
		die("a poll request completed: the in-flight load is not in flight", -5);
	snprintf(extra, sizeof(extra),
		 "inflight=%lld ring=%s reg_p50_ns=%lld reg_p99_ns=%lld unreg_p50_ns=%lld unreg_p99_ns=%lld",
		 inflight, flavour, (long long) lat_percentile(&reg, 50),
		 (long long) lat_percentile(&reg, 99), (long long) lat_percentile(&unreg, 50),
		 (long long) lat_percentile(&unreg, 99));
	io_uring_queue_exit(&ring);
	report(n, t1 - t0, NULL, extra);
	return 0;
}
