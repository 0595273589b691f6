/* SPDX-License-Identifier: MIT */
/*
 * A write linked to the read that is meant to follow it, but submitted on
 * its own: IOSQE_IO_LINK on the last SQE of a submission links to nothing,
 * so the next submission's read is not ordered after the write.
 * Fixed: prepare both, then submit them together.
 */
#include "corpus.h"

#include <fcntl.h>

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char out[8] = "payload", in[8];
	int fds[2], i;

	if (pipe(fds) < 0)
		DIE("pipe: %s", strerror(errno));
	bound(5);
	init(&ring, 8, 0);
	sqe = sqe_of(&ring);
	io_uring_prep_write(sqe, fds[1], out, sizeof(out), 0);
	sqe->flags |= IOSQE_IO_LINK;
#ifndef FIXED
	TRY(io_uring_submit(&ring));
#endif
	io_uring_prep_read(sqe_of(&ring), fds[0], in, sizeof(in), 0);
	TRY(io_uring_submit(&ring));
	for (i = 0; i < 2; i++) {
		TRY(io_uring_wait_cqe(&ring, &cqe));
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
