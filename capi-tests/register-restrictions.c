/* SPDX-License-Identifier: MIT */
/*
 * Restrictions and io_uring_enable_rings: a ring created disabled takes a
 * set of restrictions (allowed SQE opcodes, SQE flags, register opcodes),
 * refuses submissions until enabled, and then enforces them.
 */
#include <sys/eventfd.h>

#include "check.h"

static int submit_one(struct io_uring *ring, int op, unsigned char flags, int fd,
		      void *buf)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	CHECK(sqe != NULL);
	if (op == IORING_OP_NOP)
		io_uring_prep_nop(sqe);
	else if (op == IORING_OP_READ)
		io_uring_prep_read(sqe, fd, buf, 1, 0);
	else
		io_uring_prep_write(sqe, fd, buf, 1, 0);
	sqe->flags |= flags;
	ret = io_uring_submit_and_wait(ring, 1);
	CHECK_EQ(ret, 1);
	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

int main(void)
{
	struct io_uring_restriction res[4];
	struct io_uring_sqe *sqe;
	struct io_uring ring, plain;
	int ret, efd, fds[2], files[1];
	char c = 'r';

	REQUIRE_KERNEL(IORING_SETUP_R_DISABLED);
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_R_DISABLED);
	CHECK_EQ(ret, 0);
	CHECK_EQ(pipe(fds), 0);

	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_READ;
	res[2].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	res[2].sqe_flags = IOSQE_FIXED_FILE;
	res[3].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[3].register_op = IORING_REGISTER_FILES;

	/* Disabled: nothing is submitted yet. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	CHECK_EQ(io_uring_submit(&ring), -EBADFD);

	CHECK_EQ(io_uring_register_restrictions(&ring, res, 4), 0);
	CHECK_EQ(io_uring_register_restrictions(&ring, res, 4), -EBUSY);
	CHECK_EQ(io_uring_enable_rings(&ring), 0);
	/* Now restricted: register opcodes outside the set are refused. */
	CHECK_EQ(io_uring_enable_rings(&ring), -EACCES);
	CHECK_EQ(io_uring_register_restrictions(&ring, res, 4), -EACCES);

	/* The NOP queued while disabled goes now. */
	CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
	{
		struct io_uring_cqe *cqe;

		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, 0);
		io_uring_cqe_seen(&ring, cqe);
	}

	/* Allowed ops and flags pass, the rest is refused with -EACCES. */
	CHECK_EQ(submit_one(&ring, IORING_OP_NOP, 0, -1, NULL), 0);
	CHECK_EQ(submit_one(&ring, IORING_OP_WRITE, 0, fds[1], &c), -EACCES);
	CHECK_EQ(submit_one(&ring, IORING_OP_NOP, IOSQE_IO_DRAIN, -1, NULL), -EACCES);

	/* Register opcodes: files allowed, eventfd not. */
	files[0] = fds[0];
	CHECK_EQ(io_uring_register_files(&ring, files, 1), 0);
	CHECK_EQ(write(fds[1], "z", 1), 1);
	CHECK_EQ(submit_one(&ring, IORING_OP_READ, IOSQE_FIXED_FILE, 0, &c), 1);
	CHECK_EQ(c, 'z');
	efd = eventfd(0, EFD_CLOEXEC);
	CHECK_EQ(io_uring_register_eventfd(&ring, efd), -EACCES);
	CHECK_EQ(io_uring_unregister_files(&ring), -EACCES);
	close(efd);
	io_uring_queue_exit(&ring);

	/* A ring that was never disabled takes no restrictions. */
	check_ring_init(&plain, 4, 0);
	CHECK_EQ(io_uring_register_restrictions(&plain, res, 4), -EBADFD);
	CHECK_EQ(io_uring_enable_rings(&plain), -EBADFD);
	io_uring_queue_exit(&plain);

	/* Enabled without restrictions: everything goes. */
	CHECK_EQ(io_uring_queue_init(4, &plain, IORING_SETUP_R_DISABLED), 0);
	CHECK_EQ(io_uring_enable_rings(&plain), 0);
	CHECK_EQ(io_uring_enable_rings(&plain), -EBADFD);
	CHECK_EQ(io_uring_register_restrictions(&plain, res, 4), -EBADFD);
	CHECK_EQ(submit_one(&plain, IORING_OP_WRITE, 0, fds[1], &c), 1);
	io_uring_queue_exit(&plain);

	printf("PASS\n");
	return 0;
}
