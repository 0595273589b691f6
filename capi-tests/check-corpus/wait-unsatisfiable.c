/* SPDX-License-Identifier: MIT */
/*
 * One request in flight and a wait for two CQEs: nothing else can post to
 * the ring, so io_uring_wait_cqe_nr sleeps forever.
 * Fixed: wait for the one CQE that will come.
 */
#include "corpus.h"

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
#ifdef FIXED
	unsigned want = 1;
#else
	unsigned want = 2;
#endif

	bound(2);
	init(&ring, 8, 0);
	io_uring_prep_nop(sqe_of(&ring));
	TRY(io_uring_submit(&ring));
	TRY(io_uring_wait_cqe_nr(&ring, &cqe, want));
	io_uring_cq_advance(&ring, want);
	io_uring_queue_exit(&ring);
	return 0;
}
