/* SPDX-License-Identifier: MIT */
/*
 * A request prepared with io_uring_get_sqe, then a loop of timed waits
 * without a submit: io_uring_wait_cqe_timeout does not hand it to the
 * kernel either, so every wait times out and the loop spins on nothing.
 * Fixed: io_uring_submit before the loop.
 */
#include "corpus.h"

int main(void)
{
	struct __kernel_timespec ts = { .tv_nsec = 20 * 1000 * 1000 };
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int i, ret = -ETIME;

	bound(5);
	init(&ring, 8, 0);
	io_uring_prep_nop(sqe_of(&ring));
#ifdef FIXED
	TRY(io_uring_submit(&ring));
#endif
	for (i = 0; i < 10 && ret == -ETIME; i++)
		ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	if (ret == -ETIME)
		return 2;
	TRY(ret);
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
