/* SPDX-License-Identifier: MIT */
/*
 * io_uring_submit_and_wait_reg() where the ring lacks IORING_FEAT_EXT_ARG
 * (kernels before 5.11) fails with -EINVAL, and must leave the SQ as it was:
 * the prepared entries unpublished (the kernel's SQ tail unmoved), still the
 * caller's to submit. liburing 2.15 publishes the tail first, so an SQPOLL
 * thread could run entries the caller was told were not submitted; this
 * library checks first (a deliberate difference, see README.md), so this
 * test fails against 2.15 and passes against ours.
 *
 * Debian's kernels all report EXT_ARG (their 5.10 carries 5.15's io_uring),
 * so the case is shown on a ring whose feature word, the public
 * ring.features that both libraries decide from, has the bit cleared as a
 * 5.10 kernel would report it: the kernel itself is still the real one.
 * On a kernel that really lacks EXT_ARG (a raw io_uring_setup(2) of our own
 * tells) the same is asserted on an untouched ring; with EXT_ARG, an
 * untouched ring's call reaches the kernel (no wait region registered here,
 * whatever it answers) and the prepared NOP must complete exactly once.
 */
#include "check.h"

#include <sys/syscall.h>

static unsigned raw_features(void)
{
	struct io_uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		SKIP("io_uring_setup: %s", strerror(errno));
	close((int) fd);
	return p.features;
}

static void prep_tagged_nop(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, tag);
}

/* The NOP tagged `tag` completes, and nothing else is there. */
static void reap_only(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_cqe *cqe;

	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, tag);
	CHECK_EQ(cqe->res, 0);
	io_uring_cqe_seen(ring, cqe);
	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), -EAGAIN);
}

/* The ring says it lacks EXT_ARG: -EINVAL with the SQ untouched. */
static void refused_leaves_sq(struct io_uring *ring)
{
	struct io_uring_cqe *cqe = NULL;
	unsigned ktail0 = *ring->sq.ktail;
	int ret;

	prep_tagged_nop(ring, 0x5eed);
	ret = io_uring_submit_and_wait_reg(ring, &cqe, 1, 0);
	CHECK_EQ(ret, -EINVAL);
	CHECKM(*ring->sq.ktail == ktail0, "SQ tail published after -EINVAL: %u, was %u",
	       *ring->sq.ktail, ktail0);
	CHECK_EQ(io_uring_sq_ready(ring), 1);
	CHECK_EQ(io_uring_submit(ring), 1);
	reap_only(ring, 0x5eed);
}

int main(void)
{
	int ext_arg = !!(raw_features() & IORING_FEAT_EXT_ARG);
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int ret;

	check_note("kernel: %s", ext_arg ? "IORING_FEAT_EXT_ARG" : "no IORING_FEAT_EXT_ARG");

	/* 1. The feature word of a kernel before 5.11, on this kernel's ring. */
	check_ring_init(&ring, 8, 0);
	ring.features &= ~IORING_FEAT_EXT_ARG;
	refused_leaves_sq(&ring);
	io_uring_queue_exit(&ring);

	/* 2. The ring as this kernel set it up. */
	check_ring_init(&ring, 8, 0);
	if (!ext_arg) {
		refused_leaves_sq(&ring);
	} else {
		prep_tagged_nop(&ring, 0x5eed);
		ret = io_uring_submit_and_wait_reg(&ring, &cqe, 1, 0);
		check_note("submit_and_wait_reg without a wait region: %d", ret);
		if (io_uring_sq_ready(&ring))
			CHECK_EQ(io_uring_submit(&ring), 1);
		reap_only(&ring, 0x5eed);
	}
	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
