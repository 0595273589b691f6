/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_NO_SQARRAY: no SQ index array (sq.array NULL), SQEs are used
 * in ring order; NOP batches wrap the ring correctly.  liburing also asks
 * for NO_SQARRAY by itself when the kernel supports it (the params given to
 * io_uring_queue_init_params come back with the flag set), and without it
 * the array maps slot i to SQE i.
 */
#include "check.h"

int main(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	unsigned i, round;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_NO_SQARRAY;
	REQUIRE_KERNEL(IORING_SETUP_NO_SQARRAY);
	ret = io_uring_queue_init_params(16, &ring, &p);
	CHECK_EQ(ret, 0);
	CHECK(ring.flags & IORING_SETUP_NO_SQARRAY);
	CHECK(ring.sq.array == NULL);
	for (round = 0; round < 20; round++)
		check_nop_roundtrip(&ring, (round % 3) ? 16 : 5, 1000 * (round + 1));
	io_uring_queue_exit(&ring);

	/* Default setup: liburing opts into NO_SQARRAY on kernels that have it. */
	memset(&p, 0, sizeof(p));
	CHECK_EQ(io_uring_queue_init_params(16, &ring, &p), 0);
	CHECK(p.flags & IORING_SETUP_NO_SQARRAY);
	CHECK(ring.flags & IORING_SETUP_NO_SQARRAY);
	CHECK(ring.sq.array == NULL);
	check_nop_roundtrip(&ring, 16, 1);
	io_uring_queue_exit(&ring);

	/* With the array (set up by the raw syscall + io_uring_queue_mmap). */
	memset(&p, 0, sizeof(p));
	ret = io_uring_setup(16, &p);
	CHECK(ret >= 0);
	CHECK_EQ(io_uring_queue_mmap(ret, &p, &ring), 0);
	CHECK(ring.sq.array != NULL);
	CHECK_EQ(ring.ring_fd, ret);
	CHECK_EQ(ring.flags, p.flags);
	CHECK_EQ(ring.features, p.features);
	/* queue_mmap maps but does not fill the index array: do it here. */
	for (i = 0; i < ring.sq.ring_entries; i++)
		ring.sq.array[i] = i;
	for (round = 0; round < 5; round++)
		check_nop_roundtrip(&ring, 16, 100 * (round + 1));
	io_uring_queue_exit(&ring);
	return 0;
}
