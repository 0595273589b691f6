/* SPDX-License-Identifier: MIT */
/*
 * A chain "open, then read" where the open fails (a file that does not
 * exist): the linked read completes -ECANCELED, and the program reports
 * only that.  Fixed: opens a file that exists.
 */
#include <fcntl.h>

#include "corpus.h"

int main(void)
{
	static char buf[16];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int i, ret = 0;

	bound(2);
	init(&ring, 8, 0);
	sqe = sqe_of(&ring);
#ifdef FIXED
	io_uring_prep_openat_direct(sqe, AT_FDCWD, "/dev/zero", O_RDONLY, 0, 0);
#else
	io_uring_prep_openat_direct(sqe, AT_FDCWD, "/nonexistent/check-corpus", O_RDONLY, 0, 0);
#endif
	io_uring_sqe_set_data64(sqe, 1);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = sqe_of(&ring);
	io_uring_prep_read(sqe, 0, buf, sizeof(buf), 0);
	sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, 2);
	TRY(io_uring_register_files_sparse(&ring, 1));
	TRY(io_uring_submit(&ring));
	for (i = 0; i < 2; i++) {
		TRY(io_uring_wait_cqe(&ring, &cqe));
		if (cqe->user_data == 2 && cqe->res < 0)
			ret = 2;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return ret;
}
