/* SPDX-License-Identifier: MIT */
/*
 * Registration on IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN
 * rings: only the submitter task may register (others get -EEXIST, like
 * submissions); a ring created disabled takes registrations from anyone
 * until io_uring_enable_rings() makes the enabling task its submitter.
 * (The eventfd behaviour with deferred task work is in eventfd-busy.c.)
 */
#include <pthread.h>
#include <sys/eventfd.h>

#include "check.h"

static struct io_uring ring;

/* Every registration we try from a foreign task, and their results. */
static void try_registrations(int expect)
{
	struct io_uring_params p;
	int efd, files[1] = { -1 }, ret;
	unsigned vals[2] = { 0, 0 };

	efd = eventfd(0, EFD_CLOEXEC);
	CHECK(efd >= 0);
	CHECK_EQ(io_uring_register_eventfd(&ring, efd), expect);
	if (!expect)
		CHECK_EQ(io_uring_unregister_eventfd(&ring), 0);
	CHECK_EQ(io_uring_register_files(&ring, files, 1), expect);
	if (!expect)
		CHECK_EQ(io_uring_unregister_files(&ring), 0);
	ret = io_uring_register_personality(&ring);
	if (expect) {
		CHECK_EQ(ret, expect);
	} else {
		CHECK(ret > 0);
		CHECK_EQ(io_uring_unregister_personality(&ring, ret), 0);
	}
	CHECK_EQ(io_uring_register_iowq_max_workers(&ring, vals), expect);

	memset(&p, 0, sizeof(p));
	p.sq_entries = 16;
	p.cq_entries = 32;
	p.flags = IORING_SETUP_CQSIZE;
	ret = io_uring_resize_rings(&ring, &p);
	if (ret != -EINVAL)	/* resize may be missing */
		CHECK_EQ(ret, expect);
	close(efd);
}

static void *foreign_task(void *arg)
{
	struct io_uring_sqe *sqe;

	(void) arg;
	try_registrations(-EEXIST);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = 0xdead;
	CHECK_EQ(io_uring_submit(&ring), -EEXIST);
	return NULL;
}

/* Submit and reap the one NOP a refused io_uring_submit left queued. */
static void flush_leftover(void)
{
	struct io_uring_cqe *cqe;

	CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 0xdead);
	io_uring_cqe_seen(&ring, cqe);
}

static void *enabling_task(void *arg)
{
	(void) arg;
	CHECK_EQ(io_uring_enable_rings(&ring), 0);
	/* This task is the submitter now. */
	flush_leftover();
	check_nop_roundtrip(&ring, 4, 10);
	try_registrations(0);
	return NULL;
}

static void run_thread(void *(*fn)(void *))
{
	pthread_t t;

	CHECK_EQ(pthread_create(&t, NULL, fn, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}

int main(void)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqe;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	REQUIRE_KERNEL(IORING_SETUP_DEFER_TASKRUN);
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);

	/* The creating task is the submitter. */
	try_registrations(0);
	run_thread(foreign_task);
	flush_leftover();
	check_nop_roundtrip(&ring, 4, 1);
	/* The owner's registered ring fd works as usual. */
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	try_registrations(0);
	check_nop_roundtrip(&ring, 4, 5);
	io_uring_queue_exit(&ring);

	/* Disabled: registrations from anyone, then the enabler owns it. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_R_DISABLED;
	CHECK_EQ(io_uring_queue_init_params(8, &ring, &p), 0);
	try_registrations(0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = 0xdead;
	CHECK_EQ(io_uring_submit(&ring), -EBADFD);
	run_thread(enabling_task);
	/* The creator is now foreign to the ring. */
	try_registrations(-EEXIST);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	CHECK_EQ(io_uring_submit(&ring), -EEXIST);
	io_uring_queue_exit(&ring);

	printf("PASS\n");
	return 0;
}
