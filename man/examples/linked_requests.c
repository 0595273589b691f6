/* SPDX-License-Identifier: MIT */
/*
 * A write linked to the read of what it wrote, then a read bounded by a
 * linked timeout.
 */
#include <liburing.h>
#include <stdio.h>
#include <unistd.h>

static void reap(struct io_uring *ring, int n)
{
	struct io_uring_cqe *cqe;

	while (n-- > 0 && io_uring_wait_cqe(ring, &cqe) == 0) {
		printf("request %llu: res %d\n", (unsigned long long) cqe->user_data,
		       cqe->res);
		io_uring_cqe_seen(ring, cqe);
	}
}

int main(void)
{
	struct __kernel_timespec ts = { .tv_nsec = 20 * 1000 * 1000 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	char out[] = "linked", in[16];
	int fds[2];

	if (pipe(fds) || io_uring_queue_init(8, &ring, 0) < 0)
		return 1;

	/* 1 then 2: the read starts only after the write has completed. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fds[1], out, sizeof(out), 0);
	io_uring_sqe_set_flags(sqe, IOSQE_IO_LINK);
	io_uring_sqe_set_data64(sqe, 1);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fds[0], in, sizeof(in), 0);
	io_uring_sqe_set_data64(sqe, 2);
	io_uring_submit(&ring);
	reap(&ring, 2);

	/* 3 waits for data that never comes; 4 cancels it after 20 ms. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fds[0], in, sizeof(in), 0);
	io_uring_sqe_set_flags(sqe, IOSQE_IO_LINK);
	io_uring_sqe_set_data64(sqe, 3);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_link_timeout(sqe, &ts, 0);
	io_uring_sqe_set_data64(sqe, 4);
	io_uring_submit(&ring);
	reap(&ring, 2);

	io_uring_queue_exit(&ring);
	return 0;
}
