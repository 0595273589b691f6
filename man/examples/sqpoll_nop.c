/* SPDX-License-Identifier: MIT */
/* A kernel thread picks up submissions; submitting needs no system call. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	p.sq_thread_idle = 100;	/* milliseconds before the thread sleeps */
	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret == -EPERM || ret == -EINVAL) {
		printf("skip: SQPOLL not allowed here: %d\n", ret);
		return 0;
	}
	if (ret < 0)
		return 1;

	for (int i = 0; i < 4; i++) {
		io_uring_prep_nop(io_uring_get_sqe(&ring));
		/* Only wakes the thread (a system call) if it went to sleep. */
		io_uring_submit(&ring);
		if (io_uring_wait_cqe(&ring, &cqe))
			return 1;
		io_uring_cqe_seen(&ring, cqe);
	}
	printf("4 requests done; thread %s\n",
	       IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_NEED_WAKEUP ?
	       "asleep" : "awake");
	io_uring_queue_exit(&ring);
	return 0;
}
