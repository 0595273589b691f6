/* SPDX-License-Identifier: MIT */
/*
 * CQ-overflow soak: a ring with a 16-entry CQ is kept overflowing (three
 * 16-NOP batches in flight before each reap) for 40,000 NOPs per reaping
 * style, on a plain and on a DEFER_TASKRUN ring (400,000 NOPs in all).  Each
 * NOP carries a unique user_data; every one must be reaped exactly once with
 * res 0, the kernel may drop none (cq.koverflow stays 0), and the overflow
 * flag must be clear at the end.  Styles:
 *   wait_cqe + cqe_seen; peek_batch_cqe + cq_advance; io_uring_for_each_cqe +
 *   cq_advance; wait_cqes with a timeout; submit_and_wait_timeout.
 */
#include "check.h"

#define ENTRIES 16
#define BATCHES_IN_FLIGHT 3
#define PER_STYLE 40000

enum style { WAIT_SEEN, PEEK_BATCH, FOR_EACH, WAIT_CQES_TIMEOUT, SUBMIT_WAIT_TIMEOUT, NR_STYLES };
static const char *const style_names[NR_STYLES] = {
	"wait_cqe+cqe_seen", "peek_batch+cq_advance", "for_each_cqe+cq_advance",
	"wait_cqes(timeout)", "submit_and_wait_timeout",
};

static unsigned char *seen;
static unsigned long long reaped;

static void account(struct io_uring_cqe *cqe)
{
	unsigned long long ud = io_uring_cqe_get_data64(cqe);

	CHECKM(ud < PER_STYLE, "unexpected user_data %llu", ud);
	CHECKM(!seen[ud], "user_data %llu reaped twice", ud);
	CHECKM(cqe->res == 0, "NOP %llu: res %d", ud, cqe->res);
	seen[ud] = 1;
	reaped++;
}

static unsigned prep_batch(struct io_uring *ring, unsigned long long *next)
{
	unsigned n = 0;

	while (n < ENTRIES && *next < PER_STYLE) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		CHECK(sqe != NULL);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, (*next)++);
		n++;
	}
	return n;
}

/* Reap whatever is visible (at least one CQE; waits if needed). */
static void reap_some(struct io_uring *ring, enum style style)
{
	struct __kernel_timespec ts = check_kts_ms(5000);
	struct io_uring_cqe *cqe, *cqes[ENTRIES];
	unsigned n, head, i;
	int ret;

	switch (style) {
	case WAIT_SEEN:
	case SUBMIT_WAIT_TIMEOUT:
		CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
		account(cqe);
		io_uring_cqe_seen(ring, cqe);
		break;
	case PEEK_BATCH:
		n = io_uring_peek_batch_cqe(ring, cqes, ENTRIES);
		if (!n) {
			CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
			return;
		}
		for (i = 0; i < n; i++)
			account(cqes[i]);
		io_uring_cq_advance(ring, n);
		break;
	case FOR_EACH:
		i = 0;
		io_uring_for_each_cqe(ring, head, cqe) {
			account(cqe);
			i++;
		}
		if (!i) {
			CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
			return;
		}
		io_uring_cq_advance(ring, i);
		break;
	case WAIT_CQES_TIMEOUT:
		ret = io_uring_wait_cqes(ring, &cqe, ENTRIES / 2, &ts, NULL);
		CHECKM(ret == 0, "wait_cqes: %d", ret);
		n = io_uring_peek_batch_cqe(ring, cqes, ENTRIES);
		CHECK(n > 0);
		for (i = 0; i < n; i++)
			account(cqes[i]);
		io_uring_cq_advance(ring, n);
		break;
	default:
		FAIL("bad style");
	}
}

static void soak(unsigned flags, enum style style)
{
	struct __kernel_timespec ts = check_kts_ms(5000);
	struct io_uring_params p;
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned long long next = 0;
	long long t0 = check_now_ms();
	unsigned long long overflowed = 0;
	unsigned b;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags | IORING_SETUP_CQSIZE;
	p.cq_entries = ENTRIES;
	CHECK_OK(io_uring_queue_init_params(ENTRIES, &ring, &p));
	CHECK_EQ(ring.cq.ring_entries, ENTRIES);
	memset(seen, 0, PER_STYLE);
	reaped = 0;

	while (next < PER_STYLE) {
		for (b = 0; b < BATCHES_IN_FLIGHT && next < PER_STYLE; b++) {
			unsigned n = prep_batch(&ring, &next);

			if (style == SUBMIT_WAIT_TIMEOUT) {
				/* liburing returns the count submitted, or 0 when a
				 * CQE was already visible before it entered. */
				ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL);
				CHECKM(ret == (int) n || ret == 0,
				       "submit_and_wait_timeout: %d, expected %u or 0", ret, n);
				CHECK_EQ(io_uring_sq_ready(&ring), 0);
			} else {
				CHECK_EQ(io_uring_submit(&ring), n);
			}
		}
		if (io_uring_cq_has_overflow(&ring))
			overflowed++;
		/* Reap everything submitted so far before the next round. */
		while (reaped < next)
			reap_some(&ring, style);
	}
	CHECK_EQ(reaped, PER_STYLE);
	for (next = 0; next < PER_STYLE; next++)
		CHECKM(seen[next], "user_data %llu never reaped", next);
	CHECK_EQ(*ring.cq.koverflow, 0);
	CHECK(!io_uring_cq_has_overflow(&ring));
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	check_note("%-14s %-26s %d NOPs, overflow seen in %llu rounds, %lld ms",
		   flags ? "defer_taskrun" : "plain", style_names[style], PER_STYLE,
		   overflowed, check_now_ms() - t0);
	if (!(flags & IORING_SETUP_DEFER_TASKRUN))
		CHECKM(overflowed > 0, "the CQ never overflowed: the soak tested nothing");
	io_uring_queue_exit(&ring);
}

int main(void)
{
	unsigned ring_flags[2] = { 0, IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER };
	int f, s, nflags = 2;

	REQUIRE_KERNEL(IORING_FEAT_NODROP);
	if (check_setup_flags_supported(4, ring_flags[1]) < 0) {
		check_note("DEFER_TASKRUN not supported: plain ring only");
		nflags = 1;
	}
	seen = malloc(PER_STYLE);
	CHECK(seen != NULL);
	for (f = 0; f < nflags; f++)
		for (s = 0; s < NR_STYLES; s++)
			soak(ring_flags[f], (enum style) s);
	free(seen);
	return 0;
}
