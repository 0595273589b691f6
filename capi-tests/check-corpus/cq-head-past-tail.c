/* SPDX-License-Identifier: MIT */
/*
 * Handles a batch of CQEs with io_uring_for_each_cqe, marking each seen in
 * the loop, then advances the CQ by the batch's count as well: every CQE is
 * marked seen twice and the CQ head runs past the kernel's tail.  The next
 * wait returns at once with a stale CQE of the first batch, not the NOP it
 * waits for.  Fixed: the loop only counts, one io_uring_cq_advance after.
 */
#include "corpus.h"

#define BATCH 4

static void nop(struct io_uring *ring, __u64 user_data)
{
	struct io_uring_sqe *sqe = sqe_of(ring);

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, user_data);
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	int i;

	bound(2);
	init(&ring, 8, 0);
	for (i = 0; i < BATCH; i++)
		nop(&ring, i + 1);
	TRY(io_uring_submit_and_wait(&ring, BATCH));
	io_uring_for_each_cqe(&ring, head, cqe) {
		seen++;
#ifndef FIXED
		io_uring_cqe_seen(&ring, cqe);
#endif
	}
	io_uring_cq_advance(&ring, seen);

	nop(&ring, 100);
	TRY(io_uring_submit(&ring));
	TRY(io_uring_wait_cqe(&ring, &cqe));
	if (cqe->user_data != 100)
		return 2;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
