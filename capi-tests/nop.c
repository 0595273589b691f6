/* SPDX-License-Identifier: MIT */
/*
 * NOP round trips: batches of 1, 32 and 128, user_data checked on every
 * completion, SQ/CQ index wrap-around, and the different ways of reaping
 * (wait_cqe, wait_cqe_nr, peek_batch_cqe, for_each_cqe + cq_advance,
 * submit_and_wait, the cqe iterator).  Finally io_uring_ring_dontfork():
 * a forked child no longer has the ring memory mapped.
 */
#include "check.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define RING_ENTRIES 128

/* Prepare `n` NOPs tagged base..base+n-1; returns nothing, fails on NULL sqe. */
static void queue_nops(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		CHECKM(sqe != NULL, "no sqe at %u of %u", i, n);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, base + i);
	}
}

/* Mark user_data as seen in a bitmap; fails on out-of-range or duplicates. */
static void mark(unsigned char *seen, unsigned n, unsigned long long base,
		 struct io_uring_cqe *cqe)
{
	unsigned long long ud = io_uring_cqe_get_data64(cqe);

	CHECKM(ud >= base && ud < base + n, "user_data %llu outside %llu+%u", ud, base, n);
	CHECKM(!seen[ud - base], "user_data %llu completed twice", ud);
	CHECK_EQ(cqe->res, 0);
	seen[ud - base] = 1;
}

/* Batch reaped with one io_uring_wait_cqe() + cqe_seen per completion. */
static void batch_wait_each(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[RING_ENTRIES] = { 0 };
	unsigned i;

	queue_nops(ring, n, base);
	CHECK_EQ(io_uring_sq_ready(ring), n);
	CHECK_EQ(io_uring_sq_space_left(ring), RING_ENTRIES - n);
	CHECK_EQ(io_uring_submit(ring), n);
	CHECK_EQ(io_uring_sq_ready(ring), 0);
	for (i = 0; i < n; i++) {
		struct io_uring_cqe *cqe = NULL;

		CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
		CHECK(cqe != NULL);
		mark(seen, n, base, cqe);
		io_uring_cqe_seen(ring, cqe);
	}
	CHECK_EQ(io_uring_cq_ready(ring), 0);
}

/* Batch submitted with submit_and_wait(n), reaped with peek_batch_cqe. */
static void batch_peek_batch(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[RING_ENTRIES] = { 0 };
	struct io_uring_cqe *cqes[RING_ENTRIES];
	unsigned got, i;

	queue_nops(ring, n, base);
	CHECK_EQ(io_uring_submit_and_wait(ring, n), n);
	CHECK_EQ(io_uring_cq_ready(ring), n);
	/* Asking for fewer than available returns exactly that many. */
	if (n > 1) {
		got = io_uring_peek_batch_cqe(ring, cqes, n / 2);
		CHECK_EQ(got, n / 2);
		for (i = 0; i < got; i++)
			mark(seen, n, base, cqes[i]);
		io_uring_cq_advance(ring, got);
	}
	got = io_uring_peek_batch_cqe(ring, cqes, RING_ENTRIES);
	CHECK_EQ(got, n - (n > 1 ? n / 2 : 0));
	for (i = 0; i < got; i++)
		mark(seen, n, base, cqes[i]);
	io_uring_cq_advance(ring, got);
	for (i = 0; i < n; i++)
		CHECKM(seen[i], "user_data %llu never completed", base + i);
	CHECK_EQ(io_uring_peek_batch_cqe(ring, cqes, RING_ENTRIES), 0);
}

/* Batch reaped with wait_cqe_nr(n) then io_uring_for_each_cqe. */
static void batch_for_each(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[RING_ENTRIES] = { 0 };
	struct io_uring_cqe *cqe;
	unsigned head, count = 0;

	queue_nops(ring, n, base);
	CHECK_EQ(io_uring_submit(ring), n);
	CHECK_EQ(io_uring_wait_cqe_nr(ring, &cqe, n), 0);
	CHECK(cqe != NULL);
	CHECK(io_uring_cq_ready(ring) >= n);
	io_uring_for_each_cqe(ring, head, cqe) {
		mark(seen, n, base, cqe);
		count++;
	}
	CHECK_EQ(count, n);
	io_uring_cq_advance(ring, count);
	CHECK_EQ(io_uring_cq_ready(ring), 0);
}

/* Batch reaped with the explicit iterator API. */
static void batch_iter(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[RING_ENTRIES] = { 0 };
	struct io_uring_cqe_iter it;
	struct io_uring_cqe *cqe;
	unsigned count = 0;

	queue_nops(ring, n, base);
	CHECK_EQ(io_uring_submit_and_wait(ring, n), n);
	it = io_uring_cqe_iter_init(ring);
	while (io_uring_cqe_iter_next(&it, &cqe)) {
		mark(seen, n, base, cqe);
		count++;
	}
	CHECK_EQ(count, n);
	io_uring_cq_advance(ring, count);
	CHECK_EQ(io_uring_cq_ready(ring), 0);
}

int main(void)
{
	static const unsigned batches[] = { 1, 32, 128 };
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned long long base = 1000;
	unsigned b, round;
	int x = 42;

	check_ring_init(&ring, RING_ENTRIES, 0);
	CHECK_EQ(ring.sq.ring_entries, RING_ENTRIES);
	CHECK_EQ(ring.cq.ring_entries, 2 * RING_ENTRIES);
	CHECK_EQ(ring.sq.ring_mask, RING_ENTRIES - 1);
	CHECK_EQ(*ring.sq.kring_entries, RING_ENTRIES);
	CHECK(ring.ring_fd >= 0);
	CHECK_EQ(ring.enter_ring_fd, ring.ring_fd);

	/* Empty ring: nothing to submit, nothing to reap. */
	CHECK_EQ(io_uring_submit(&ring), 0);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	CHECK_EQ(io_uring_sq_space_left(&ring), RING_ENTRIES);

	/*
	 * Many rounds so that the 32-bit head/tail counters wrap the 128-entry
	 * SQ and 256-entry CQ many times.
	 */
	for (round = 0; round < 40; round++) {
		for (b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
			unsigned n = batches[b];

			switch ((round + b) % 4) {
			case 0: batch_wait_each(&ring, n, base); break;
			case 1: batch_peek_batch(&ring, n, base); break;
			case 2: batch_for_each(&ring, n, base); break;
			default: batch_iter(&ring, n, base); break;
			}
			base += n;
		}
	}
	/* The shared helper (used by other tests) agrees. */
	check_nop_roundtrip(&ring, 128, 1ULL << 40);

	/* The full SQ: 128 sqes fit, the 129th does not. */
	queue_nops(&ring, RING_ENTRIES, 7);
	CHECK(io_uring_get_sqe(&ring) == NULL);
	CHECK_EQ(io_uring_sq_space_left(&ring), 0);
	CHECK_EQ(io_uring_submit_and_wait(&ring, RING_ENTRIES), RING_ENTRIES);
	io_uring_cq_advance(&ring, io_uring_cq_ready(&ring));

	/* Pointer user_data survives the round trip, 64-bit values are exact. */
	{
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data(sqe, &x);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 0xfedcba9876543210ULL);
		CHECK_EQ(io_uring_submit_and_wait(&ring, 2), 2);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK(io_uring_cqe_get_data(cqe) == &x);
		io_uring_cqe_seen(&ring, cqe);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK(io_uring_cqe_get_data64(cqe) == 0xfedcba9876543210ULL);
		io_uring_cqe_seen(&ring, cqe);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	}

	/* Nothing dropped, nothing overflowed. */
	CHECK_EQ(*ring.cq.koverflow, 0);
	CHECK_EQ(*ring.sq.kdropped, 0);

	/* dontfork: the parent keeps the ring, a child touching it faults. */
	CHECK_EQ(io_uring_ring_dontfork(&ring), 0);
	{
		pid_t pid = fork();
		int status;

		CHECK(pid >= 0);
		if (pid == 0) {
			struct rlimit no_core = { 0, 0 };
			volatile unsigned v;

			setrlimit(RLIMIT_CORE, &no_core);
			v = *(volatile unsigned *) ring.sq.khead;
			(void) v;
			_exit(0);
		}
		CHECK_EQ(waitpid(pid, &status, 0), pid);
		CHECKM(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		       "child reading the SQ head after dontfork: status 0x%x", status);
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			struct rlimit no_core = { 0, 0 };
			volatile unsigned char v;

			setrlimit(RLIMIT_CORE, &no_core);
			v = *(volatile unsigned char *) ring.sq.sqes;
			(void) v;
			_exit(0);
		}
		CHECK_EQ(waitpid(pid, &status, 0), pid);
		CHECKM(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		       "child reading the SQEs after dontfork: status 0x%x", status);
	}
	check_nop_roundtrip(&ring, 32, 1ULL << 50);
	io_uring_queue_exit(&ring);
	return 0;
}
