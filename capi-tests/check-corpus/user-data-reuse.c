/* SPDX-License-Identifier: MIT */
/*
 * Two reads in flight on two pipes, both tagged user_data 7 (a constant
 * copied from one call to the next): their CQEs cannot be told apart.
 * Fixed: each request gets its own tag.
 */
#include "corpus.h"

int main(void)
{
	static char buf[2][8];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int a[2], b[2], i;

	bound(2);
	init(&ring, 8, 0);
	if (pipe(a) || pipe(b))
		DIE("pipe");
	sqe = sqe_of(&ring);
	io_uring_prep_read(sqe, a[0], buf[0], 8, 0);
	io_uring_sqe_set_data64(sqe, 7);
	TRY(io_uring_submit(&ring));
	sqe = sqe_of(&ring);
	io_uring_prep_read(sqe, b[0], buf[1], 8, 0);
#ifdef FIXED
	io_uring_sqe_set_data64(sqe, 8);
#else
	io_uring_sqe_set_data64(sqe, 7);
#endif
	TRY(io_uring_submit(&ring));
	if (write(a[1], "a", 1) != 1 || write(b[1], "b", 1) != 1)
		DIE("write");
	for (i = 0; i < 2; i++) {
		TRY(io_uring_wait_cqe(&ring, &cqe));
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
