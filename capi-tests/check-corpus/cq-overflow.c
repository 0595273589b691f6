/* SPDX-License-Identifier: MIT */
/*
 * Submits batch after batch and reaps only at the end: the CQEs of the
 * first batches are never marked seen, and the CQ (8 entries) overflows.
 * Fixed: reaps each batch before submitting the next.
 */
#include "corpus.h"

static void reap(struct io_uring *ring, int n)
{
	struct io_uring_cqe *cqe;

	while (n--) {
		TRY(io_uring_wait_cqe(ring, &cqe));
		io_uring_cqe_seen(ring, cqe);
	}
}

int main(void)
{
	struct io_uring ring;
	int batch, i;

	bound(2);
	init(&ring, 4, 0);
	for (batch = 0; batch < 4; batch++) {
		for (i = 0; i < 4; i++)
			io_uring_prep_nop(sqe_of(&ring));
		TRY(io_uring_submit(&ring));
#ifdef FIXED
		reap(&ring, 4);
#endif
	}
#ifndef FIXED
	reap(&ring, 16);
#endif
	io_uring_queue_exit(&ring);
	return 0;
}
