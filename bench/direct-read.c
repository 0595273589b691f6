/* SPDX-License-Identifier: MIT */
/*
 * Workload 3, O_DIRECT reads: `direct-read file=<path> qd=<d> n=<reads>
 * iopoll=0|1 [size_mb=64]` reads random 4 KiB blocks of a file opened with
 * O_DIRECT, <d> reads in flight; with iopoll=1 on a ring set up with
 * IORING_SETUP_IOPOLL.  Prints skip=<why> when the filesystem refuses
 * O_DIRECT or the device cannot poll.  One op = one read.
 */
#define _GNU_SOURCE
#include "readloop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static BENCH_NOINLINE long long bench_run(struct read_job *job, long long n,
					  struct lat_samples *lat)
{
	return read_loop(job, n, lat);
}

/* One read through the ring, to learn whether the kernel accepts it. */
static int probe_read(struct io_uring *ring, int fd, char *buf)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	io_uring_prep_read(sqe, fd, buf, READ_BLOCK, 0);
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

int main(int argc, char **argv)
{
	const char *path = arg_str(argc, argv, "file", NULL);
	long long n = arg_int(argc, argv, "n", 20000);
	long long bytes = arg_int(argc, argv, "size_mb", 64) << 20;
	int iopoll = (int) arg_int(argc, argv, "iopoll", 0);
	struct read_job job = { 0 };
	struct lat_samples lat;
	struct io_uring ring;
	int64_t t0, t1;
	int fd, ret;

	job.qd = (unsigned) arg_int(argc, argv, "qd", 1);
	if (!path || !job.qd || job.qd > 4096 || n < 1) {
		fprintf(stderr, "usage: %s file=PATH qd=N n=N iopoll=0|1\n", argv[0]);
		return 2;
	}
	make_test_file(path, bytes);
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		skip("the filesystem under the work directory refuses O_DIRECT");
	if (fd < 0)
		die(path, -1);
	read_job_init(&job, &ring, iopoll ? IORING_SETUP_IOPOLL : 0, fd, bytes);
	ret = probe_read(&ring, fd, job.bufs[0]);
	if (iopoll && (ret == -EOPNOTSUPP || ret == -EINVAL))
		skip("the device under the work directory does not support polled I/O (IOPOLL)");
	if (ret == -EINVAL)
		skip("the filesystem under the work directory refuses O_DIRECT reads");
	if (ret != READ_BLOCK)
		die("O_DIRECT probe read", ret < 0 ? ret : -5);
	lat_init(&lat, (size_t) n);
	read_loop(&job, n / 10 + job.qd, NULL); /* warm-up */
	bench_phase_mark();
	t0 = now_ns();
	n = bench_run(&job, n, &lat);
	t1 = now_ns();
	bench_phase_mark();
	io_uring_queue_exit(&ring);
	close(fd);
	report(n, t1 - t0, &lat, iopoll ? "iopoll=1" : NULL);
	return 0;
}
