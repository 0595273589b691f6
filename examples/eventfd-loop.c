/* SPDX-License-Identifier: MIT */
/*
 * eventfd-loop: learn about completions from an eventfd instead of waiting on
 * the ring, as a program with an existing poll/epoll loop would.
 *
 *   eventfd-loop [COMPLETIONS]
 *
 * A stream of timeouts keeps the ring busy (TIMERS in flight at any time,
 * COMPLETIONS in all, default 2000). The eventfd is registered while those
 * requests are already in flight. The loop then sleeps in poll(2) on the
 * eventfd only, and on each wake-up reaps every CQE there is without
 * entering the kernel, queueing a new timeout for each one reaped.
 *
 * Two things to get right, both shown below:
 * - Completions posted before the registration signal nothing: reap once
 *   right after registering.
 * - The eventfd counts signals, and several completions may share one
 *   wake-up: read (reset) the eventfd first, then drain the CQ completely.
 *   A completion arriving after the read signals the eventfd again, so none
 *   is left sleeping in the CQ.
 */
#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define TIMERS 32

struct loop {
	struct io_uring ring;
	struct __kernel_timespec delay[TIMERS]; /* one per timer slot */
	unsigned queued, reaped, total;
};

/* Queue the timeout of slot @slot: 0.1 to 3.2 ms, so completions interleave. */
static void queue_timer(struct loop *l, unsigned slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);

	l->delay[slot].tv_sec = 0;
	l->delay[slot].tv_nsec = 100000L * (long)(slot + 1);
	io_uring_prep_timeout(sqe, &l->delay[slot], 0, 0);
	io_uring_sqe_set_data64(sqe, slot);
	l->queued++;
}

/* Reap all CQEs present; requeue a timer for each. Returns -errno on error. */
static int drain(struct loop *l)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	int ret = 0;

	io_uring_for_each_cqe(&l->ring, head, cqe) {
		seen++;
		/* A plain timeout completes with -ETIME when it fires. */
		if (cqe->res != -ETIME) {
			fprintf(stderr, "timeout completed with %d\n", cqe->res);
			ret = -EIO;
			continue;
		}
		l->reaped++;
		if (l->queued < l->total)
			queue_timer(l, (unsigned)io_uring_cqe_get_data64(cqe));
	}
	io_uring_cq_advance(&l->ring, seen);
	if (ret == 0 && io_uring_sq_ready(&l->ring))
		ret = io_uring_submit(&l->ring) < 0 ? -EIO : 0;
	return ret;
}

int main(int argc, char *argv[])
{
	struct loop l;
	unsigned wakeups = 0, slot;
	int efd, ret;

	memset(&l, 0, sizeof(l));
	l.total = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;
	if (l.total < TIMERS)
		l.total = TIMERS;

	ret = io_uring_queue_init(2 * TIMERS, &l.ring, 0);
	if (ret < 0) {
		fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
		return 1;
	}
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0) {
		perror("eventfd");
		return 1;
	}

	/* Make the ring busy first, then attach the eventfd to it. */
	for (slot = 0; slot < TIMERS; slot++)
		queue_timer(&l, slot);
	ret = io_uring_submit(&l.ring);
	if (ret != TIMERS) {
		fprintf(stderr, "io_uring_submit: %d\n", ret);
		return 1;
	}
	ret = io_uring_register_eventfd(&l.ring, efd);
	if (ret < 0) {
		fprintf(stderr, "io_uring_register_eventfd: %s\n", strerror(-ret));
		return 1;
	}
	/* Whatever completed before the registration made no signal. */
	if (drain(&l) < 0)
		return 1;

	while (l.reaped < l.total) {
		struct pollfd pfd = { .fd = efd, .events = POLLIN };
		uint64_t signals;

		/* 5 s: far beyond the longest timer, so only a lost wake-up trips it. */
		ret = poll(&pfd, 1, 5000);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0) {
			fprintf(stderr, "no eventfd signal within 5 s (%u of %u reaped)\n",
				l.reaped, l.total);
			return 1;
		}
		/* Reset the counter before draining, never after (see the top). */
		if (read(efd, &signals, sizeof(signals)) != sizeof(signals) && errno != EAGAIN) {
			perror("read eventfd");
			return 1;
		}
		wakeups++;
		if (drain(&l) < 0)
			return 1;
	}

	printf("%u completions reaped in %u eventfd wake-ups\n", l.reaped, wakeups);
	io_uring_unregister_eventfd(&l.ring);
	io_uring_queue_exit(&l.ring);
	close(efd);
	return 0;
}
