/* SPDX-License-Identifier: MIT */
/*
 * As deferred-pending, but the program never tears the ring down: the
 * owner thread submits receives on a DEFER_TASKRUN ring, data arrives for
 * each, a thread that only peeks gives up waiting for their CQEs, and the
 * process exits without io_uring_queue_exit. The checker has no teardown
 * to look at, so it looks at process exit. Fixed: the owner waits for the
 * completions (which runs their completion work) before the peeking
 * thread reaps them; the process still exits without io_uring_queue_exit.
 */
#include "corpus.h"

#include <pthread.h>
#include <sys/socket.h>

#define RECVS 3

static struct io_uring ring;

static void *reaper(void *arg)
{
	struct io_uring_cqe *cqe;
	int *seen = arg, i;

	for (i = 0; i < 200 && *seen < RECVS; i++) {
		if (io_uring_peek_cqe(&ring, &cqe) == 0) {
			io_uring_cqe_seen(&ring, cqe);
			(*seen)++;
			continue;
		}
		usleep(1000);
	}
	return NULL;
}

int main(void)
{
	static char buf[RECVS][8];
	pthread_t t;
	int sv[2], i, seen = 0;

	bound(5);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		DIE("socketpair: %s", strerror(errno));
	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	for (i = 0; i < RECVS; i++)
		io_uring_prep_recv(sqe_of(&ring), sv[0], buf[i], sizeof(buf[i]), 0);
	TRY(io_uring_submit(&ring));
	for (i = 0; i < RECVS; i++)
		if (write(sv[1], "x", 1) != 1)
			DIE("write: %s", strerror(errno));
#ifdef FIXED
	{
		struct io_uring_cqe *cqe;

		/* The owner's wait runs the completion work of all three. */
		TRY(io_uring_wait_cqe_nr(&ring, &cqe, RECVS));
	}
#endif
	if (pthread_create(&t, NULL, reaper, &seen))
		DIE("pthread_create");
	pthread_join(t, NULL);
	/* No io_uring_queue_exit: the process ends with the ring set up. */
	exit(seen == RECVS ? 0 : 2);
}
