/* SPDX-License-Identifier: MIT */
/*
 * A SINGLE_ISSUER ring set up disabled (R_DISABLED) and enabled by the main
 * thread, which makes the main thread its owner; the worker that was meant
 * to drive it then gets -EEXIST.  Fixed: the worker enables the ring itself.
 */
#include <pthread.h>

#include "corpus.h"

static struct io_uring ring;
static int worker_ret;

static void *worker(void *arg)
{
	struct io_uring_cqe *cqe;

	(void) arg;
	pthread_setname_np(pthread_self(), "driver");
#ifdef FIXED
	TRY(io_uring_enable_rings(&ring));
#endif
	io_uring_prep_nop(sqe_of(&ring));
	worker_ret = io_uring_submit(&ring);
	if (worker_ret == 1) {
		TRY(io_uring_wait_cqe(&ring, &cqe));
		io_uring_cqe_seen(&ring, cqe);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	init(&ring, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED);
#ifndef FIXED
	TRY(io_uring_enable_rings(&ring));
#endif
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	if (worker_ret != 1)
		DIE("submit: %d", worker_ret);
	io_uring_queue_exit(&ring);
	return 0;
}
