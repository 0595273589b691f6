/* SPDX-License-Identifier: MIT */
/*
 * Workload 2, buffered file reads: `file-read file=<path> qd=<d> n=<reads>
 * mode=plain|fixed [size_mb=64]` reads random 4 KiB blocks of a file that is
 * in the page cache, <d> reads in flight.  plain: a file descriptor and
 * ordinary buffers (IORING_OP_READ); fixed: the file registered
 * (IOSQE_FIXED_FILE) and the buffers registered (IORING_OP_READ_FIXED).
 * One op = one read; latency = queueing to completion seen.
 */
#include "readloop.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static BENCH_NOINLINE long long bench_run(struct read_job *job, long long n,
					  struct lat_samples *lat)
{
	return read_loop(job, n, lat);
}

int main(int argc, char **argv)
{
	const char *path = arg_str(argc, argv, "file", NULL);
	const char *mode = arg_str(argc, argv, "mode", "plain");
	long long n = arg_int(argc, argv, "n", 100000);
	long long bytes = arg_int(argc, argv, "size_mb", 64) << 20;
	struct read_job job = { 0 };
	struct lat_samples lat;
	struct io_uring ring;
	int fixed = !strcmp(mode, "fixed");
	int64_t t0, t1;
	int fd, ret;

	job.qd = (unsigned) arg_int(argc, argv, "qd", 1);
	if (!path || !job.qd || job.qd > 4096 || n < 1 || (!fixed && strcmp(mode, "plain"))) {
		fprintf(stderr, "usage: %s file=PATH qd=N n=N mode=plain|fixed\n", argv[0]);
		return 2;
	}
	make_test_file(path, bytes);
	warm_page_cache(path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path, -1);
	read_job_init(&job, &ring, 0, fd, bytes);
	if (fixed) {
		ret = io_uring_register_files(&ring, &fd, 1);
		if (ret < 0)
			die("io_uring_register_files", ret);
		register_read_buffers(&job);
		job.fd = 0;
		job.fixed_file = job.fixed_bufs = 1;
	}
	lat_init(&lat, (size_t) n);
	read_loop(&job, n / 10 + job.qd, NULL); /* warm-up */
	bench_phase_mark();
	t0 = now_ns();
	n = bench_run(&job, n, &lat);
	t1 = now_ns();
	bench_phase_mark();
	io_uring_queue_exit(&ring);
	close(fd);
	report(n, t1 - t0, &lat, NULL);
	return 0;
}
