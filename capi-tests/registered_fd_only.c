/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP: the kernel returns
 * a registered ring index instead of a file descriptor.  The library must
 * leave ring_fd at -1, enter through the index, and tear down cleanly.  Both
 * with library-allocated memory (queue_init_params) and with application
 * memory (queue_init_mem).
 */
#include "check.h"

#include <dirent.h>

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	CHECK(d != NULL);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void use(struct io_uring *ring, unsigned long long base)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = check_kts_ms(10);
	struct io_uring_probe *pr;

	CHECK_EQ(ring->ring_fd, -1);
	CHECK(ring->enter_ring_fd >= 0);
	check_nop_roundtrip(ring, 1, base);
	check_nop_roundtrip(ring, 16, base + 10);
	CHECK_EQ(io_uring_wait_cqe_timeout(ring, &cqe, &ts), -ETIME);
	/* Registration goes through the registered index too. */
	pr = io_uring_get_probe_ring(ring);
	CHECK(pr != NULL);
	io_uring_free_probe(pr);
	/* It is already registered, and there is no fd to close. */
	CHECK_EQ(io_uring_register_ring_fd(ring), -EEXIST);
}

int main(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	int fds = count_fds();
	void *buf;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP;
	REQUIRE_KERNEL(IORING_SETUP_REGISTERED_FD_ONLY);
	ret = io_uring_queue_init_params(16, &ring, &p);
	CHECK_EQ(ret, 0);
	/* No file descriptor was created for the ring. */
	CHECK_EQ(count_fds(), fds);
	use(&ring, 100);
	io_uring_queue_exit(&ring);
	CHECK_EQ(count_fds(), fds);

	/* Application memory. */
	buf = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(buf != MAP_FAILED);
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP;
	ret = io_uring_queue_init_mem(16, &ring, &p, buf, 1 << 20);
	CHECKM(ret > 0, "io_uring_queue_init_mem: %d", ret);
	use(&ring, 200);
	io_uring_queue_exit(&ring);
	CHECK_EQ(count_fds(), fds);

	/* Many create/destroy cycles do not exhaust the registered-ring table. */
	for (ret = 0; ret < 64; ret++) {
		struct io_uring r;

		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP;
		CHECK_EQ(io_uring_queue_init_params(4, &r, &p), 0);
		check_nop_roundtrip(&r, 1, 300 + (unsigned) ret);
		io_uring_queue_exit(&r);
	}
	munmap(buf, 1 << 20);
	return 0;
}
