/* SPDX-License-Identifier: MIT */
/* Cancel a read that cannot finish (an empty pipe) by its user_data. */
#include <liburing.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char buf[16];
	int fds[2], ret;

	if (pipe(fds) || io_uring_queue_init(4, &ring, 0) < 0)
		return 1;

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fds[0], buf, sizeof(buf), 0);
	io_uring_sqe_set_data64(sqe, 42);
	io_uring_submit(&ring);

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_cancel64(sqe, 42, 0);
	io_uring_sqe_set_data64(sqe, 1);
	io_uring_submit(&ring);

	for (int i = 0; i < 2; i++) {
		ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret < 0)
			return 1;
		if (cqe->user_data == 42)
			printf("read: %d (-ECANCELED is %d)\n", cqe->res, -ECANCELED);
		else
			printf("cancel: %d (0: found and cancelled)\n", cqe->res);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
