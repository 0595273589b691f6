/* SPDX-License-Identifier: MIT */
/*
 * A SINGLE_ISSUER ring set up by the main thread, and a worker thread that
 * submits to it: the kernel answers -EEXIST.  Fixed: the worker hands its
 * request to the main thread, which submits.
 */
#include <pthread.h>

#include "corpus.h"

static struct io_uring ring;
static int worker_ret;

static void *worker(void *arg)
{
	(void) arg;
	pthread_setname_np(pthread_self(), "worker");
#ifndef FIXED
	io_uring_prep_nop(sqe_of(&ring));
	worker_ret = io_uring_submit(&ring);
#endif
	return NULL;
}

int main(void)
{
	struct io_uring_cqe *cqe;
	pthread_t t;

	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
#ifdef FIXED
	io_uring_prep_nop(sqe_of(&ring));
	worker_ret = io_uring_submit(&ring);
#endif
	if (worker_ret != 1)
		DIE("submit: %d", worker_ret);
	TRY(io_uring_wait_cqe(&ring, &cqe));
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
