/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER.
 *  - A pipe read completes only when the submitter enters the kernel to get
 *    events: after the write to the pipe the CQ stays empty
 *    (io_uring_cq_ready()==0, io_uring_peek_cqe()==-EAGAIN) until
 *    io_uring_get_events(), io_uring_wait_cqe() or
 *    io_uring_submit_and_get_events().
 *  - Another thread submitting to or waiting on the ring gets -EEXIST.
 *  - DEFER_TASKRUN without SINGLE_ISSUER is refused by the kernel (-EINVAL).
 */
#include "check.h"

#include <pthread.h>

#define MSG "deferred task work"

static struct io_uring ring;
static int pipefd[2];
static char rbuf[64];

static void arm_read(unsigned long long tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	CHECK(sqe != NULL);
	memset(rbuf, 0, sizeof(rbuf));
	io_uring_prep_read(sqe, pipefd[0], rbuf, sizeof(rbuf), 0);
	io_uring_sqe_set_data64(sqe, tag);
	CHECK_EQ(io_uring_submit(&ring), 1);
}

/* Write to the pipe and make sure the completion is still not in the CQ. */
static void write_and_check_invisible(void)
{
	struct io_uring_cqe *cqe;

	/* Nothing can have completed before the data exists. */
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(write(pipefd[1], MSG, sizeof(MSG)), sizeof(MSG));
	/* Give any (wrong) asynchronous completion path time to show up. */
	check_sleep_ms(50);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	CHECK_EQ(io_uring_peek_batch_cqe(&ring, &cqe, 1), 0);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
}

static void check_read_cqe(struct io_uring_cqe *cqe, unsigned long long tag)
{
	CHECK_EQ(io_uring_cqe_get_data64(cqe), tag);
	CHECK_EQ(cqe->res, sizeof(MSG));
	CHECK(memcmp(rbuf, MSG, sizeof(MSG)) == 0);
	io_uring_cqe_seen(&ring, cqe);
}

static int thread_ret;

static void *other_submit(void *arg)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	(void) arg;
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 77);
	thread_ret = io_uring_submit(&ring);
	return NULL;
}

static void *other_wait(void *arg)
{
	struct io_uring_cqe *cqe = NULL;

	(void) arg;
	thread_ret = io_uring_wait_cqe(&ring, &cqe);
	return NULL;
}

static void *other_get_events(void *arg)
{
	(void) arg;
	thread_ret = io_uring_get_events(&ring);
	return NULL;
}

static int run_in_thread(void *(*fn)(void *))
{
	pthread_t t;

	thread_ret = 12345;
	CHECK_EQ(pthread_create(&t, NULL, fn, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return thread_ret;
}

int main(void)
{
	struct io_uring_params p;
	struct io_uring_cqe *cqe;
	int ret;

	/* DEFER_TASKRUN alone is not valid. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, -EINVAL);

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER;
	REQUIRE_KERNEL(IORING_SETUP_DEFER_TASKRUN);
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);
	CHECK(ring.flags & IORING_SETUP_DEFER_TASKRUN);
	CHECK_EQ(pipe(pipefd), 0);

	/*
	 * 1. Revealed by io_uring_get_events(). Measured: 6.1 runs no deferred
	 * task work for an enter without a wait (the CQE stays hidden until a
	 * wait), 6.12 and later do; upstream liburing sees the same.
	 */
	arm_read(1);
	write_and_check_invisible();
	CHECK_EQ(io_uring_get_events(&ring), 0);
	if (check_kernel_version() >= 6012) {
		CHECK_EQ(io_uring_cq_ready(&ring), 1);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	} else {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	}
	check_read_cqe(cqe, 1);

	/* 2. Revealed by io_uring_wait_cqe() (enters with GETEVENTS). */
	arm_read(2);
	write_and_check_invisible();
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	check_read_cqe(cqe, 2);

	/* 3. Revealed by io_uring_submit_and_get_events() with nothing to submit. */
	arm_read(3);
	write_and_check_invisible();
	CHECK_EQ(io_uring_submit_and_get_events(&ring), 0);
	if (check_kernel_version() >= 6012) { /* as in 1. */
		CHECK_EQ(io_uring_cq_ready(&ring), 1);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	} else {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	}
	check_read_cqe(cqe, 3);

	/* 4. Revealed by a timed wait. */
	arm_read(4);
	write_and_check_invisible();
	{
		struct __kernel_timespec ts = check_kts_ms(2000);

		CHECK_EQ(io_uring_wait_cqe_timeout(&ring, &cqe, &ts), 0);
	}
	check_read_cqe(cqe, 4);

	/* 5. Other threads are not the single issuer. */
	ret = run_in_thread(other_submit);
	CHECK_EQ(ret, -EEXIST);
	ret = run_in_thread(other_wait);
	CHECK_EQ(ret, -EEXIST);
	ret = run_in_thread(other_get_events);
	CHECK_EQ(ret, -EEXIST);
	/* The NOP the other thread queued is submitted by the owner. */
	CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 77);
	io_uring_cqe_seen(&ring, cqe);

	/* The owner still has a working ring. */
	check_nop_roundtrip(&ring, 8, 100);
	io_uring_queue_exit(&ring);
	close(pipefd[0]);
	close(pipefd[1]);
	return 0;
}
