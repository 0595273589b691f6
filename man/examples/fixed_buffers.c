/* SPDX-License-Identifier: MIT */
/* Write and read back a file through one registered buffer. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char block[4096];
	struct iovec iov = { .iov_base = block, .iov_len = sizeof(block) };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	FILE *file = tmpfile();
	int fd, ret;

	if (!file || io_uring_queue_init(4, &ring, 0) < 0)
		return 1;
	fd = fileno(file);
	ret = io_uring_register_buffers(&ring, &iov, 1);
	if (ret < 0) {
		printf("skip: cannot register buffers: %d\n", ret);
		return 0;
	}

	strcpy(block, "pinned once, used twice");
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write_fixed(sqe, fd, block, sizeof(block), 0, 0);
	io_uring_submit_and_wait(&ring, 1);
	if (io_uring_peek_cqe(&ring, &cqe) || cqe->res != (int) sizeof(block))
		return 1;
	io_uring_cqe_seen(&ring, cqe);

	memset(block, 0, sizeof(block));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read_fixed(sqe, fd, block, sizeof(block), 0, 0);
	io_uring_submit_and_wait(&ring, 1);
	if (io_uring_peek_cqe(&ring, &cqe) || cqe->res != (int) sizeof(block))
		return 1;
	io_uring_cqe_seen(&ring, cqe);
	printf("read back: %s\n", block);

	io_uring_unregister_buffers(&ring);
	io_uring_queue_exit(&ring);
	fclose(file);
	return 0;
}
