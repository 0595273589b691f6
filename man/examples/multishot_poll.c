/* SPDX-License-Identifier: MIT */
/* One multishot poll request reports every write to an eventfd. */
#include <liburing.h>
#include <poll.h>
#include <stdio.h>
#include <sys/eventfd.h>

int main(void)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int efd = eventfd(0, EFD_NONBLOCK);

	if (efd < 0 || io_uring_queue_init(8, &ring, 0) < 0)
		return 1;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_multishot(sqe, efd, POLLIN);
	io_uring_sqe_set_data64(sqe, 7);
	io_uring_submit(&ring);

	for (int i = 0; i < 3; i++) {
		eventfd_t value;

		eventfd_write(efd, 1);
		if (io_uring_wait_cqe(&ring, &cqe))
			return 1;
		if (cqe->res == -EINVAL) {
			printf("skip: no multishot poll (Linux 5.13)\n");
			return 0;
		}
		printf("event %d: res 0x%x, %s\n", i, (unsigned) cqe->res,
		       cqe->flags & IORING_CQE_F_MORE ? "still armed" : "finished");
		io_uring_cqe_seen(&ring, cqe);
		eventfd_read(efd, &value);
	}

	/* Disarm it: the poll ends with a CQE without IORING_CQE_F_MORE. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_remove(sqe, 7);
	io_uring_submit(&ring);
	for (int i = 0; i < 2; i++) {
		if (io_uring_wait_cqe(&ring, &cqe))
			return 1;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
