/* SPDX-License-Identifier: MIT */
/*
 * io-wq controls: worker CPU affinity (checked on a live worker thread,
 * parked in a blocking read) and the bounded/unbounded worker limits.
 */
#include <dirent.h>
#include <sched.h>

#include "check.h"

/* Affinity of the first io-wq worker thread of this process, or -1. */
static int worker_affinity(cpu_set_t *set)
{
	char path[300], comm[64];
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");
	int found = -1;

	CHECK(d != NULL);
	while ((de = readdir(d)) && found < 0) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk", 7)) {
			CPU_ZERO(set);
			if (!sched_getaffinity(atoi(de->d_name), sizeof(*set), set))
				found = 0;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

static void test_affinity(void)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	cpu_set_t set, seen;
	int fds[2], ret;
	char c;

	if (!KERNEL_HAS_PART("affinity", IORING_REGISTER_IOWQ_AFF))
		return;
	check_ring_init(&ring, 4, 0);
	CHECK_EQ(io_uring_register_iowq_aff(&ring, (size_t) 1 << 31, &set), -EINVAL);

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ret = io_uring_register_iowq_aff(&ring, sizeof(set), &set);
	CHECK_EQ(ret, 0);

	/* A worker blocked in a read on an empty pipe (forced async). */
	CHECK_EQ(pipe(fds), 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fds[0], &c, 1, 0);
	sqe->flags |= IOSQE_ASYNC;
	CHECK_EQ(io_uring_submit(&ring), 1);
	/*
	 * The forced-async read makes a worker, which blocks in it: wait for
	 * it to show up (10 s at most: a loaded machine only delays it).
	 */
	{
		long long end = check_now_ms() + 10000;

		while (worker_affinity(&seen) < 0) {
			CHECKM(check_now_ms() < end, "no io-wq worker thread after 10 s");
			check_sleep_ms(10);
		}
	}
	CHECK(CPU_ISSET(0, &seen));
	CHECK_EQ(CPU_COUNT(&seen), 1);
	CHECK_EQ(io_uring_unregister_iowq_aff(&ring), 0);

	CHECK_EQ(write(fds[1], "x", 1), 1);
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->res, 1);
	io_uring_cqe_seen(&ring, cqe);
	close(fds[0]);
	close(fds[1]);
	io_uring_queue_exit(&ring);
}

static void test_max_workers(void)
{
	struct io_uring ring;
	unsigned int vals[2] = { 0, 0 };
	int ret;

	if (!KERNEL_HAS_PART("max-workers", IORING_REGISTER_IOWQ_MAX_WORKERS))
		return;
	check_ring_init(&ring, 4, 0);
	ret = io_uring_register_iowq_max_workers(&ring, vals);
	CHECK_EQ(ret, 0);
	CHECK(vals[0] > 0 && vals[1] > 0);

	vals[0] = 2;
	vals[1] = 3;
	CHECK_EQ(io_uring_register_iowq_max_workers(&ring, vals), 0);
	CHECK(vals[0] != 2 || vals[1] != 3);	/* the old limits came back */
	vals[0] = 0;
	vals[1] = 0;
	CHECK_EQ(io_uring_register_iowq_max_workers(&ring, vals), 0);
	CHECK_EQ(vals[0], 2);
	CHECK_EQ(vals[1], 3);
	/* Setting only one leaves the other. */
	vals[0] = 0;
	vals[1] = 5;
	CHECK_EQ(io_uring_register_iowq_max_workers(&ring, vals), 0);
	vals[0] = 0;
	vals[1] = 0;
	CHECK_EQ(io_uring_register_iowq_max_workers(&ring, vals), 0);
	CHECK_EQ(vals[0], 2);
	CHECK_EQ(vals[1], 5);
	io_uring_queue_exit(&ring);
}

int main(void)
{
	test_affinity();
	test_max_workers();
	printf("PASS\n");
	return 0;
}
