/* SPDX-License-Identifier: MIT */
/*
 * A multishot timeout (a periodic tick) that stops after two expirations
 * (its count): the second CQE has no IORING_CQE_F_MORE, and the program,
 * which never looks at that flag, waits for a third tick forever.
 * Fixed: re-arms the tick when IORING_CQE_F_MORE is clear.
 */
#include "corpus.h"

static struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 1000000 };

static void arm(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = sqe_of(ring);

	io_uring_prep_timeout(sqe, &ts, 2, IORING_TIMEOUT_MULTISHOT);
	io_uring_sqe_set_data64(sqe, 0x71c);
}

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int ticks;

	bound(2);
	init(&ring, 8, 0);
	arm(&ring);
	TRY(io_uring_submit(&ring));
	for (ticks = 0; ticks < 3; ticks++) {
		unsigned flags;

		TRY(io_uring_wait_cqe(&ring, &cqe));
		if (cqe->res != -ETIME)
			DIE("tick: %d", cqe->res);
		flags = cqe->flags;
		io_uring_cqe_seen(&ring, cqe);
#ifdef FIXED
		if (!(flags & IORING_CQE_F_MORE)) {
			arm(&ring);
			TRY(io_uring_submit(&ring));
		}
#else
		(void) flags;
#endif
	}
	io_uring_queue_exit(&ring);
	return 0;
}
