/* SPDX-License-Identifier: MIT */
/*
 * Workload 7, personality cost: `personality file=<path> qd=<d> n=<reads>
 * personality=0|1 [size_mb=64] [device=1]` reads random 4 KiB blocks of a file
 * in the page cache, <d> reads in flight, with sqe->personality left 0 or set to a
 * personality registered with io_uring_register_personality() (the kernel
 * then runs each request with those credentials).  One op = one read.
 * With device=1, <path> is an existing block device (the seeds measured on
 * null_blk) read with O_DIRECT over its whole size, and nothing is written.
 */
#define _GNU_SOURCE /* O_DIRECT */
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

int main(int argc, char **argv)
{
	const char *path = arg_str(argc, argv, "file", NULL);
	long long n = arg_int(argc, argv, "n", 100000);
	long long bytes = arg_int(argc, argv, "size_mb", 64) << 20;
	int use_personality = (int) arg_int(argc, argv, "personality", 0);
	int device = (int) arg_int(argc, argv, "device", 0);
	struct read_job job = { 0 };
	struct lat_samples lat;
	struct io_uring ring;
	int64_t t0, t1;
	int fd, ret;

	job.qd = (unsigned) arg_int(argc, argv, "qd", 64);
	if (!path || !job.qd || job.qd > 4096 || n < 1) {
		fprintf(stderr, "usage: %s file=PATH qd=N n=N personality=0|1 [device=1]\n",
			argv[0]);
		return 2;
	}
	if (device) {
		fd = open(path, O_RDONLY | O_DIRECT);
		if (fd < 0)
			die(path, -1);
		bytes = lseek(fd, 0, SEEK_END);
		if (bytes < READ_BLOCK)
			die("device size", -22);
	} else {
		make_test_file(path, bytes);
		warm_page_cache(path);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die(path, -1);
	}
	read_job_init(&job, &ring, 0, fd, bytes);
	if (use_personality) {
		ret = io_uring_register_personality(&ring);
		if (ret == -EINVAL || ret == -EOPNOTSUPP)
			skip("io_uring_register_personality not supported by this kernel");
		if (ret < 0)
			die("io_uring_register_personality", ret);
		job.personality = (unsigned short) ret;
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
	report(n, t1 - t0, &lat, use_personality ? "personality=registered" : NULL);
	return 0;
}
