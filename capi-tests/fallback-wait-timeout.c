/* SPDX-License-Identifier: MIT */
/*
 * Waits with a timeout on kernels with and without IORING_FEAT_EXT_ARG
 * (5.11). Without it the library queues a timeout request of its own
 * (user_data LIBURING_UDATA_TIMEOUT), submits it together with whatever the
 * program had prepared, and consumes that request's completion itself: the
 * program sees -ETIME or its own CQEs, never the internal one. With it,
 * nothing is queued and nothing is submitted implicitly.
 * Which path is due is decided by a raw io_uring_setup(2) of our own, not by
 * the library: the test asserts the path taken, so the same program must
 * pass against upstream liburing on the same kernel.
 * Also io_uring_wait_cqes_min_timeout: -EINVAL without
 * IORING_FEAT_MIN_TIMEOUT (6.12), a plain timed wait with it.
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

int main(void)
{
	unsigned feats = raw_features();
	int ext_arg = !!(feats & IORING_FEAT_EXT_ARG);
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	unsigned tail0;
	int ret;

	check_note("path: %s", ext_arg ? "IORING_FEAT_EXT_ARG (timeout passed to io_uring_enter)"
				     : "no IORING_FEAT_EXT_ARG (internal timeout SQE)");
	check_ring_init(&ring, 8, 0);

	/* 1. Nothing in flight: -ETIME either way. */
	tail0 = ring.sq.sqe_tail;
	ts = check_kts_ms(30);
	ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	CHECK_EQ(ret, -ETIME);
	if (ext_arg) {
		CHECK_EQ(ring.sq.sqe_tail, tail0);
	} else {
		/* One SQE taken and handed to the kernel... */
		CHECK_EQ(ring.sq.sqe_tail, tail0 + 1);
		CHECK_EQ(*ring.sq.khead, ring.sq.sqe_tail);
	}
	/* ...and its completion consumed inside the call. */
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);

	/* 2. A NOP prepared but not submitted. */
	sqe = io_uring_get_sqe(&ring);
	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 0x1234);
	ts = check_kts_ms(300);
	ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	if (ext_arg) {
		/* No implicit submission: the NOP is still waiting in the SQ. */
		CHECK_EQ(ret, -ETIME);
		CHECK_EQ(io_uring_sq_ready(&ring), 1);
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	} else {
		/* Submitted along with the timeout request. */
		CHECK_EQ(ret, 0);
	}
	CHECK_EQ(cqe->user_data, 0x1234);
	CHECK_EQ(cqe->res, 0);
	io_uring_cqe_seen(&ring, cqe);
	/*
	 * Without EXT_ARG the timeout request completes too (count 1 met, res
	 * 0, or expired after 300 ms, -ETIME), and is consumed where the
	 * program looks next, as -EAGAIN or -ETIME: never as a CQE of its own.
	 */
	check_sleep_ms(400);
	ret = io_uring_peek_cqe(&ring, &cqe);
	if (ext_arg)
		CHECK_EQ(ret, -EAGAIN);
	else
		CHECKM(ret == -EAGAIN || ret == -ETIME, "peek after the internal timeout: %d", ret);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);

	/* 3. A CQE already there: returned at once, nothing queued with EXT_ARG. */
	check_nop_roundtrip(&ring, 4, 100);
	sqe = io_uring_get_sqe(&ring);
	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 7);
	CHECK_EQ(io_uring_submit(&ring), 1);
	tail0 = ring.sq.sqe_tail;
	ts = check_kts_ms(1000);
	CHECK_EQ(io_uring_wait_cqe_timeout(&ring, &cqe, &ts), 0);
	CHECK_EQ(cqe->user_data, 7);
	io_uring_cqe_seen(&ring, cqe);
	CHECK_EQ(ring.sq.sqe_tail, tail0 + (ext_arg ? 0 : 1));

	/* 4. The min-timeout wait needs the kernel's IORING_FEAT_MIN_TIMEOUT. */
	ts = check_kts_ms(30);
	ret = io_uring_wait_cqes_min_timeout(&ring, &cqe, 1, &ts, 1000, NULL);
	if (feats & IORING_FEAT_MIN_TIMEOUT) {
		check_note("IORING_FEAT_MIN_TIMEOUT: present");
		CHECK_EQ(ret, -ETIME);
	} else {
		check_note("IORING_FEAT_MIN_TIMEOUT: absent, -EINVAL expected");
		CHECK_EQ(ret, -EINVAL);
	}
	check_sleep_ms(50);
	while (io_uring_peek_cqe(&ring, &cqe) == 0) {
		CHECKM(cqe->user_data != LIBURING_UDATA_TIMEOUT, "internal timeout CQE shown");
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
