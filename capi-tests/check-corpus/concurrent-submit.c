/* SPDX-License-Identifier: MIT */
/*
 * Four threads submit NOPs to one ring for a second or two, taking SQEs and
 * submitting without a lock: they race on the SQ's head and tail.  Fixed:
 * one mutex around io_uring_get_sqe ... io_uring_submit in every thread.
 */
#include <pthread.h>
#include <time.h>

#include "corpus.h"

#define THREADS 4
#define SECONDS 1

static struct io_uring ring;
static pthread_barrier_t start;
#ifdef FIXED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static void *submitter(void *arg)
{
	time_t end;

	(void) arg;
	/* All at once, so that their submit calls overlap. */
	pthread_barrier_wait(&start);
	end = now() + SECONDS + 1;
	while (now() < end) {
		struct io_uring_sqe *sqe;

#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		/* Unlocked, the SQ may look full when it is not: submit. */
		sqe = io_uring_get_sqe(&ring);
		if (sqe) {
			io_uring_prep_nop(sqe);
			/* No CQE: nothing for anyone to reap. */
			io_uring_sqe_set_flags(sqe, IOSQE_CQE_SKIP_SUCCESS);
		}
		io_uring_submit(&ring);
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	int i;

	bound(15);
	init(&ring, 64, 0);
	pthread_barrier_init(&start, NULL, THREADS);
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, submitter, NULL))
			DIE("pthread_create");
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	io_uring_queue_exit(&ring);
	return 0;
}
