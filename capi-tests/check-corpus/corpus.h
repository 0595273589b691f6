/* SPDX-License-Identifier: MIT */
/*
 * Shared bits of the LIBURING_CHECK corpus: each program here is built
 * twice, as written (the mistake) and with -DFIXED (the correction), and
 * run by capi-tests/diag-check.c.  A program exits 0 when it ran to its
 * end, 2 when its own bound ran out (the mistake's symptom: a hang cut
 * short by alarm() or a loop bound), 77 when the kernel lacks a feature.
 */
#ifndef CHECK_CORPUS_H
#define CHECK_CORPUS_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define TRY(expr) do { int r_ = (expr); if (r_ < 0) DIE("%s: %s", #expr, strerror(-r_)); } while (0)

static void on_alarm(int sig)
{
	(void) sig;
	_exit(2);
}

/* A wait that would sleep forever ends the program with 2 after `s` s. */
static inline void bound(unsigned s)
{
	signal(SIGALRM, on_alarm);
	alarm(s);
}

static inline struct io_uring_sqe *sqe_of(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		DIE("SQ full");
	return sqe;
}

static inline void init(struct io_uring *ring, unsigned entries, unsigned flags)
{
	int ret = io_uring_queue_init(entries, ring, flags);

	if (ret == -EINVAL || ret == -ENOSYS)
		exit(77);
	TRY(ret);
}

#endif
