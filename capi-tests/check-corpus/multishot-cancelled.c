/* SPDX-License-Identifier: MIT */
/*
 * A periodic tick (a multishot timeout with no count) that the program
 * stops itself after its third tick, with a timeout remove, but whose loop
 * still waits for eight CQEs: after the remove's CQE and the tick's last
 * one (-ECANCELED, no IORING_CQE_F_MORE) nothing is in flight, and the
 * next wait sleeps forever.  Arming the tick again would be the wrong fix;
 * the finding says so for a cancelled request.
 * Fixed: the loop ends once the tick's last CQE and the remove's are seen.
 */
#include "corpus.h"

#define TICK 0x71d
#define STOP 0x5709

static struct __kernel_timespec period = { .tv_sec = 0, .tv_nsec = 1000000 };

/* Whether the loop has seen all it waits for. */
static int done(unsigned cqes, int tick_live, int stop_pending)
{
#ifdef FIXED
	(void) cqes;
	return !tick_live && !stop_pending;	/* the last CQE of each is in */
#else
	(void) tick_live;
	(void) stop_pending;
	return cqes == 8;			/* as if the tick went on */
#endif
}

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	unsigned ticks = 0, cqes;
	int tick_live = 1, stop_pending = 0;

	bound(2);
	init(&ring, 8, 0);
	sqe = sqe_of(&ring);
	io_uring_prep_timeout(sqe, &period, 0, IORING_TIMEOUT_MULTISHOT);
	io_uring_sqe_set_data64(sqe, TICK);
	TRY(io_uring_submit(&ring));

	for (cqes = 0; !done(cqes, tick_live, stop_pending); cqes++) {
		__u64 ud;
		unsigned flags;
		int res;

		TRY(io_uring_wait_cqe(&ring, &cqe));
		ud = io_uring_cqe_get_data64(cqe);
		res = cqe->res;
		flags = cqe->flags;
		io_uring_cqe_seen(&ring, cqe);

		if (ud == STOP) {
			if (res < 0)
				DIE("timeout remove: %s", strerror(-res));
			stop_pending = 0;
		} else if (ud == TICK) {
			if (!(flags & IORING_CQE_F_MORE))
				tick_live = 0;
			else if (res != -ETIME)
				DIE("tick: %d", res);
			else if (++ticks == 3) {
				sqe = sqe_of(&ring);
				io_uring_prep_timeout_remove(sqe, TICK, 0);
				io_uring_sqe_set_data64(sqe, STOP);
				TRY(io_uring_submit(&ring));
				stop_pending = 1;
			}
		}
	}
	io_uring_queue_exit(&ring);
	return 0;
}
