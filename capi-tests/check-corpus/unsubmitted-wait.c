/* SPDX-License-Identifier: MIT */
/*
 * A request prepared with io_uring_get_sqe and then waited for without a
 * submit: io_uring_wait_cqe never hands it to the kernel and sleeps forever.
 * Fixed: io_uring_submit_and_wait.
 */
#include "corpus.h"

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;

	bound(2);
	init(&ring, 8, 0);
	io_uring_prep_nop(sqe_of(&ring));
#ifdef FIXED
	TRY(io_uring_submit_and_wait(&ring, 1));
#endif
	TRY(io_uring_wait_cqe(&ring, &cqe));
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
