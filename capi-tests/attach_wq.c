/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_ATTACH_WQ: a second ring shares the first ring's async worker
 * pool (wq_fd).  Both rings complete forced-async work (IOSQE_ASYNC reads of
 * a pipe, which need a worker) and NOPs; the pool survives the first ring's
 * exit; attaching to a non-ring fd fails.
 */
#include "check.h"

static void async_pipe_read(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char buf[32] = { 0 };
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_read(sqe, fds[0], buf, sizeof(buf), 0);
	io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	io_uring_sqe_set_data64(sqe, tag);
	CHECK_EQ(io_uring_submit(ring), 1);
	check_sleep_ms(10);
	CHECK_EQ(write(fds[1], "worker", 6), 6);
	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), tag);
	CHECK_EQ(cqe->res, 6);
	CHECK(memcmp(buf, "worker", 6) == 0);
	io_uring_cqe_seen(ring, cqe);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	struct io_uring a, b, c;
	struct io_uring_params p;
	int ret, fds[2];

	check_ring_init(&a, 8, 0);

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ;
	p.wq_fd = (unsigned) a.ring_fd;
	REQUIRE_KERNEL(IORING_SETUP_ATTACH_WQ);
	ret = io_uring_queue_init_params(8, &b, &p);
	CHECK_EQ(ret, 0);
	CHECK(b.flags & IORING_SETUP_ATTACH_WQ);
	CHECK(b.ring_fd != a.ring_fd);

	check_nop_roundtrip(&a, 8, 100);
	check_nop_roundtrip(&b, 8, 200);
	async_pipe_read(&a, 1);
	async_pipe_read(&b, 2);

	/* The shared pool outlives the ring it came from. */
	io_uring_queue_exit(&a);
	async_pipe_read(&b, 3);
	check_nop_roundtrip(&b, 8, 300);

	/* A third ring attached to the second. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ;
	p.wq_fd = (unsigned) b.ring_fd;
	CHECK_EQ(io_uring_queue_init_params(8, &c, &p), 0);
	async_pipe_read(&c, 4);
	io_uring_queue_exit(&c);
	io_uring_queue_exit(&b);

	/* Attaching to something that is not a ring. */
	CHECK_EQ(pipe(fds), 0);
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ;
	p.wq_fd = (unsigned) fds[0];
	CHECK_EQ(io_uring_queue_init_params(8, &c, &p), -EINVAL);
	/* Or to a closed fd (the kernel reports -ENXIO; older ones -EBADF). */
	close(fds[0]);
	close(fds[1]);
	ret = io_uring_queue_init_params(8, &c, &p);
	CHECKM(ret == -ENXIO || ret == -EBADF, "ATTACH_WQ to a closed fd: %d", ret);
	return 0;
}
