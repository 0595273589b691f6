/* SPDX-License-Identifier: MIT */
/*
 * io_uring_queue_exit closes only what the ring owns (deliberate differences
 * from liburing, README "Differences from liburing"):
 *   - after a failed io_uring_queue_init, the usual cleanup call closes
 *     nothing: liburing leaves ring_fd 0 there and closes the program's stdin;
 *   - a second io_uring_queue_exit does nothing: liburing unmaps and closes
 *     again, closing whatever file has reused the ring's descriptor number.
 */
#include "check.h"

static int is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

int main(void)
{
	struct io_uring ring;
	int old_fd, reused;

	/* A failed setup (a flag no kernel knows), then the usual cleanup. */
	CHECK(is_open(0) || open("/dev/null", O_RDONLY) == 0);
	CHECK_EQ(io_uring_queue_init(8, &ring, 1U << 30), -EINVAL);
	CHECK_EQ(ring.ring_fd, -1);
	io_uring_queue_exit(&ring);
	CHECKM(is_open(0), "io_uring_queue_exit after a failed init closed stdin");

	/* Exit twice: the second must not close the file now holding the
	 * ring's old descriptor number. */
	check_ring_init(&ring, 8, 0);
	check_nop_roundtrip(&ring, 2, 0);
	old_fd = ring.ring_fd;
	io_uring_queue_exit(&ring);
	reused = open("/dev/null", O_RDONLY);
	CHECK_EQ(reused, old_fd);
	io_uring_queue_exit(&ring);
	CHECKM(is_open(reused), "a second io_uring_queue_exit closed fd %d", reused);
	close(reused);
	return 0;
}
