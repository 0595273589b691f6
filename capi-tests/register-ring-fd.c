/* SPDX-License-Identifier: MIT */
/*
 * Registering the ring fd: enter_ring_fd switches to the registered index,
 * submissions and registration calls keep working through it, the state
 * errors (-EEXIST, -EINVAL, -EBADF, -EOPNOTSUPP) match liburing, the real
 * fd can be closed, and a ring created with IORING_SETUP_REGISTERED_FD_ONLY
 * is usable with no fd at all.
 */
#include <sys/eventfd.h>

#include "check.h"

/* Registration calls that must work however the ring is reached. */
static void exercise_register_calls(struct io_uring *ring)
{
	struct io_uring_probe *probe;
	int efd, files[2] = { -1, -1 };
	int id;

	probe = io_uring_get_probe_ring(ring);
	CHECK(probe != NULL);
	CHECK(io_uring_opcode_supported(probe, IORING_OP_NOP));
	io_uring_free_probe(probe);

	efd = eventfd(0, EFD_CLOEXEC);
	CHECK(efd >= 0);
	CHECK_EQ(io_uring_register_eventfd(ring, efd), 0);
	CHECK_EQ(io_uring_unregister_eventfd(ring), 0);
	close(efd);

	CHECK_EQ(io_uring_register_files(ring, files, 2), 0);
	CHECK_EQ(io_uring_unregister_files(ring), 0);

	id = io_uring_register_personality(ring);
	CHECK(id > 0);
	CHECK_EQ(io_uring_unregister_personality(ring, id), 0);
}

static void test_register_unregister(void)
{
	struct io_uring ring;
	int fd;

	check_ring_init(&ring, 8, 0);
	fd = ring.ring_fd;
	CHECK_EQ(ring.enter_ring_fd, fd);
	CHECK_EQ(io_uring_unregister_ring_fd(&ring), -EINVAL);
	CHECK_EQ(io_uring_close_ring_fd(&ring), (ring.features & IORING_FEAT_REG_REG_RING) ? -EINVAL : -EOPNOTSUPP);

	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	CHECK_NE(ring.enter_ring_fd, fd);
	CHECK_EQ(ring.ring_fd, fd);
	CHECK_EQ(io_uring_register_ring_fd(&ring), -EEXIST);
	check_nop_roundtrip(&ring, 4, 100);
	exercise_register_calls(&ring);

	CHECK_EQ(io_uring_unregister_ring_fd(&ring), 1);
	CHECK_EQ(ring.enter_ring_fd, fd);
	CHECK_EQ(io_uring_unregister_ring_fd(&ring), -EINVAL);
	check_nop_roundtrip(&ring, 4, 200);

	/* Again, then leave it registered for queue_exit to clean up. */
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	check_nop_roundtrip(&ring, 4, 300);
	io_uring_queue_exit(&ring);
	CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF);
}

static void test_close_ring_fd(void)
{
	struct io_uring ring;
	int fd;

	if (!KERNEL_HAS_PART("close", IORING_FEAT_REG_REG_RING))
		return;
	check_ring_init(&ring, 8, 0);
	CHECK(ring.features & IORING_FEAT_REG_REG_RING);
	fd = ring.ring_fd;
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	CHECK_EQ(io_uring_close_ring_fd(&ring), 1);
	CHECK_EQ(ring.ring_fd, -1);
	CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF);
	CHECK_EQ(io_uring_close_ring_fd(&ring), -EBADF);

	/* Everything keeps working through the index alone. */
	check_nop_roundtrip(&ring, 8, 400);
	exercise_register_calls(&ring);
	io_uring_queue_exit(&ring);
}

static void test_registered_fd_only(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	if (!KERNEL_HAS_PART("fd-only", IORING_SETUP_REGISTERED_FD_ONLY))
		return;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP;
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);
	CHECK_EQ(ring.ring_fd, -1);
	CHECK_EQ(io_uring_register_ring_fd(&ring), -EEXIST);
	CHECK_EQ(io_uring_close_ring_fd(&ring), -EBADF);
	check_nop_roundtrip(&ring, 4, 500);
	exercise_register_calls(&ring);
	io_uring_queue_exit(&ring);
}

static void test_defer_taskrun(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	if (!KERNEL_HAS_PART("defer", IORING_SETUP_DEFER_TASKRUN))
		return;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	check_nop_roundtrip(&ring, 4, 600);
	exercise_register_calls(&ring);
	if (ring.features & IORING_FEAT_REG_REG_RING) {
		CHECK_EQ(io_uring_close_ring_fd(&ring), 1);
		check_nop_roundtrip(&ring, 4, 700);
	}
	io_uring_queue_exit(&ring);
}

int main(void)
{
	if (!check_kernel_ring_fds(NULL))
		SKIP("kernel lacks IORING_REGISTER_RING_FDS (5.18)");
	test_register_unregister();
	test_close_ring_fd();
	test_registered_fd_only();
	test_defer_taskrun();
	printf("PASS\n");
	return 0;
}
