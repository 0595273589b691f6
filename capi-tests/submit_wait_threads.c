/* SPDX-License-Identifier: MIT */
/*
 * liburing's threading contract: one thread submits while another reaps the
 * same ring.  A submitter thread prepares and submits 100,000 NOPs (20,000 on
 * SQPOLL) in batches
 * (io_uring_get_sqe / io_uring_submit only), keeping at most the CQ size in
 * flight; a waiter thread reaps them with io_uring_wait_cqe_timeout (and
 * io_uring_peek_batch_cqe for the rest of a burst) and
 * io_uring_cq_advance.  Every user_data must arrive exactly once, within a
 * time bound.  Done on a plain ring, a COOP_TASKRUN ring and an SQPOLL ring,
 * and on a plain ring once more with an untimed waiter (io_uring_wait_cqe):
 * under ThreadSanitizer (make check-tsan) the two kinds of wait take two
 * paths through the library's watched wait.
 */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>

#define ENTRIES 64
#define MAX_TOTAL 100000
#define DEADLINE_MS 20000

static struct io_uring ring;
static unsigned char seen[MAX_TOTAL];
static unsigned long total; /* NOPs in this run */
static atomic_ulong reaped;
static atomic_int failed;
static long long deadline;
static int untimed; /* the waiter uses io_uring_wait_cqe */

static void *submitter(void *arg)
{
	unsigned long next = 0;

	(void) arg;
	while (next < total && !atomic_load(&failed)) {
		unsigned n = 0;
		int ret;

		/* Credit: never more than the CQ holds in flight. */
		while (next - atomic_load(&reaped) > ring.cq.ring_entries - ENTRIES / 4) {
			if (check_now_ms() > deadline || atomic_load(&failed))
				return NULL;
			sched_yield();
		}
		while (n < ENTRIES / 4 && next < total) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, next++);
			n++;
		}
		do {
			ret = io_uring_submit(&ring);
		} while (ret == -EBUSY || ret == -EAGAIN || ret == -EINTR);
		if (ret < 0) {
			fprintf(stderr, "submit: %d\n", ret);
			atomic_store(&failed, 1);
		}
	}
	return NULL;
}

static void *waiter(void *arg)
{
	struct io_uring_cqe *cqe, *cqes[16];
	unsigned i, n;

	(void) arg;
	while (atomic_load(&reaped) < total && !atomic_load(&failed)) {
		struct __kernel_timespec ts = check_kts_ms(200);
		/* Untimed, the wait returns only with a CQE: the submitter
		 * submits all `total`, and a failed run ends at the harness's
		 * time limit. */
		int ret = untimed ? io_uring_wait_cqe(&ring, &cqe)
				  : io_uring_wait_cqe_timeout(&ring, &cqe, &ts);

		if (check_now_ms() > deadline) {
			fprintf(stderr, "deadline passed with %lu reaped\n",
				(unsigned long) atomic_load(&reaped));
			atomic_store(&failed, 1);
			break;
		}
		if (ret == -ETIME || ret == -EINTR)
			continue;
		if (ret < 0) {
			fprintf(stderr, "wait: %d\n", ret);
			atomic_store(&failed, 1);
			break;
		}
		n = io_uring_peek_batch_cqe(&ring, cqes, 16);
		for (i = 0; i < n; i++) {
			unsigned long long ud = io_uring_cqe_get_data64(cqes[i]);

			if (ud >= total || seen[ud] || cqes[i]->res != 0) {
				fprintf(stderr, "bad CQE: user_data %llu res %d (seen %d)\n", ud,
					cqes[i]->res, ud < total ? seen[ud] : -1);
				atomic_store(&failed, 1);
				return NULL;
			}
			seen[ud] = 1;
		}
		io_uring_cq_advance(&ring, n);
		atomic_fetch_add(&reaped, n);
	}
	return NULL;
}

static void run(const char *name, unsigned flags, unsigned long nops, int untimed_wait)
{
	struct io_uring_params p;
	pthread_t s, w;
	long long t0 = check_now_ms();
	unsigned long i;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.sq_thread_idle = 50;
	CHECK_OK(io_uring_queue_init_params(ENTRIES, &ring, &p));
	total = nops;
	untimed = untimed_wait;
	memset(seen, 0, sizeof(seen));
	atomic_store(&reaped, 0);
	atomic_store(&failed, 0);
	deadline = check_now_ms() + DEADLINE_MS;

	CHECK_EQ(pthread_create(&w, NULL, waiter, NULL), 0);
	CHECK_EQ(pthread_create(&s, NULL, submitter, NULL), 0);
	pthread_join(s, NULL);
	pthread_join(w, NULL);

	CHECKM(!atomic_load(&failed), "%s: a thread failed (see above)", name);
	CHECK_EQ(atomic_load(&reaped), total);
	for (i = 0; i < total; i++)
		CHECKM(seen[i], "%s: user_data %lu never reaped", name, i);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(*ring.cq.koverflow, 0);
	check_note("%-13s %lu NOPs, submitter + waiter threads, %lld ms", name, total,
		   check_now_ms() - t0);
	io_uring_queue_exit(&ring);
}

int main(void)
{
	run("plain", 0, MAX_TOTAL, 0);
	run("plain-untimed", 0, MAX_TOTAL, 1);
	if (check_setup_flags_supported(4, IORING_SETUP_COOP_TASKRUN) == 0)
		run("coop_taskrun", IORING_SETUP_COOP_TASKRUN, MAX_TOTAL, 0);
	if (check_setup_flags_supported(4, IORING_SETUP_SQPOLL) == 0)
		/* Three busy threads (with the kernel's) on a small, shared
		 * machine: fewer NOPs keep the run time modest. */
		run("sqpoll", IORING_SETUP_SQPOLL, 20000, 0);
	return 0;
}
