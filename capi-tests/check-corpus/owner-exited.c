/* SPDX-License-Identifier: MIT */
/*
 * A worker thread sets up a DEFER_TASKRUN ring, submits a receive on a
 * socket with no data yet, and exits; the main thread then sends the data
 * and waits for the receive.  The ring belongs to the worker for good: the
 * main thread's wait gets -EEXIST and the receive can never complete.
 * Fixed: the worker stays until its receive has completed, then tears the
 * ring down itself.
 */
#include <pthread.h>
#include <sys/socket.h>

#include "corpus.h"

static struct io_uring ring;
static int sv[2];
static char buf[8];
static pthread_barrier_t submitted;

static void *worker(void *arg)
{
	(void) arg;
	pthread_setname_np(pthread_self(), "worker");
	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	io_uring_prep_recv(sqe_of(&ring), sv[0], buf, sizeof(buf), 0);
	TRY(io_uring_submit(&ring));
	pthread_barrier_wait(&submitted);
#ifdef FIXED
	{
		struct io_uring_cqe *cqe;

		TRY(io_uring_wait_cqe(&ring, &cqe));
		if (cqe->res != 1)
			DIE("recv: %d", cqe->res);
		io_uring_cqe_seen(&ring, cqe);
		io_uring_queue_exit(&ring);
	}
#endif
	return NULL;
}

int main(void)
{
	pthread_t t;
	int ret = 0;

	bound(5);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		DIE("socketpair: %s", strerror(errno));
	pthread_barrier_init(&submitted, NULL, 2);
	if (pthread_create(&t, NULL, worker, NULL))
		DIE("pthread_create");
	pthread_barrier_wait(&submitted);
#ifndef FIXED
	pthread_join(t, NULL);
	/* Long gone: the kernel may finish a joined thread's exit a little
	 * after pthread_join returns. */
	usleep(100 * 1000);
#endif
	if (write(sv[1], "x", 1) != 1)
		DIE("write: %s", strerror(errno));
#ifdef FIXED
	pthread_join(t, NULL);
#else
	{
		struct io_uring_cqe *cqe;

		ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret == 0)
			io_uring_cqe_seen(&ring, cqe);
		io_uring_queue_exit(&ring);
	}
#endif
	return ret == 0 ? 0 : 2;
}
