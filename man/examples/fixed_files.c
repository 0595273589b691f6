/* SPDX-License-Identifier: MIT */
/* Requests that name files by their slot in the registered table. */
#include <liburing.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char in[8] = "";
	int fds[2], ret;

	if (pipe(fds) || io_uring_queue_init(4, &ring, 0) < 0)
		return 1;
	/* Slot 0: the read end, slot 1: the write end. */
	ret = io_uring_register_files(&ring, fds, 2);
	if (ret < 0)
		return 1;
	/* The table holds its own references: the descriptors may go. */
	close(fds[0]);
	close(fds[1]);

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, 1, "slot", 4, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE | IOSQE_IO_LINK);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, 0, in, sizeof(in) - 1, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
	io_uring_submit(&ring);

	for (int i = 0; i < 2; i++) {
		if (io_uring_wait_cqe(&ring, &cqe) || cqe->res < 0)
			return 1;
		io_uring_cqe_seen(&ring, cqe);
	}
	printf("read through slot 0: %s\n", in);
	io_uring_unregister_files(&ring);
	io_uring_queue_exit(&ring);
	return 0;
}
