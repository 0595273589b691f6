/* SPDX-License-Identifier: MIT */
/*
 * Receives on a DEFER_TASKRUN ring, data arriving for each, but the
 * owner thread hands the reaping to another thread that only peeks: the
 * completion work runs only when the owner enters the kernel, so no CQE
 * ever comes and the reaper gives up. Fixed: the owner gets events (here
 * io_uring_get_events, after the data arrived) before the reaper peeks.
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
	char buf[RECVS][8];
	pthread_t t;
	int sv[2], i, seen = 0;

	bound(5);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		DIE("socketpair: %s", strerror(errno));
	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	for (i = 0; i < RECVS; i++)
		io_uring_prep_recv(sqe_of(&ring), sv[0], buf[i], sizeof(buf[i]), 0);
	TRY(io_uring_submit(&ring));
	/* The data comes after the receives went to the kernel. */
	for (i = 0; i < RECVS; i++)
		if (write(sv[1], "x", 1) != 1)
			DIE("write: %s", strerror(errno));
#ifdef FIXED
	TRY(io_uring_get_events(&ring));
#endif
	if (pthread_create(&t, NULL, reaper, &seen))
		DIE("pthread_create");
	pthread_join(t, NULL);
	io_uring_queue_exit(&ring);
	return seen == RECVS ? 0 : 2;
}
