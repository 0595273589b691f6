/* SPDX-License-Identifier: MIT */
/*
 * A DEFER_TASKRUN ring whose event loop submits and peeks but never enters
 * the kernel to get events: the 1 ms timeout it armed never completes.
 * Fixed: io_uring_submit_and_get_events lets the kernel run the ring's work.
 */
#include "corpus.h"

int main(void)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 1000000 };
	struct io_uring_cqe *cqe = NULL;
	struct io_uring ring;
	long i;

	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	io_uring_prep_timeout(sqe_of(&ring), &ts, 0, 0);
	for (i = 0; i < 2000000; i++) {
#ifdef FIXED
		TRY(io_uring_submit_and_get_events(&ring));
#else
		TRY(io_uring_submit(&ring));
#endif
		if (!io_uring_peek_cqe(&ring, &cqe))
			break;
		if (i % 1000 == 999)
			usleep(100);
	}
	if (!cqe)
		return 2;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
