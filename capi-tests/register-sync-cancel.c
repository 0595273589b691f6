/* SPDX-License-Identifier: MIT */
/*
 * io_uring_register_sync_cancel: synchronous cancelation by user_data, by
 * fd (all matches), with the -ENOENT answer for nothing to cancel; the
 * canceled requests post -ECANCELED CQEs.
 */
#include "check.h"

static void submit_read(struct io_uring *ring, int fd, char *buf, __u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_read(sqe, fd, buf, 1, 0);
	sqe->user_data = ud;
}

static void init_reg(struct io_uring_sync_cancel_reg *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->timeout.tv_sec = -1;
	reg->timeout.tv_nsec = -1;
	reg->fd = -1;
}

int main(void)
{
	struct io_uring_sync_cancel_reg reg;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int p1[2], p2[2], ret, i, canceled = 0;
	char buf[8];

	REQUIRE_KERNEL(IORING_REGISTER_SYNC_CANCEL);
	check_ring_init(&ring, 8, 0);
	CHECK_EQ(pipe(p1), 0);
	CHECK_EQ(pipe(p2), 0);
	submit_read(&ring, p1[0], &buf[0], 1);
	submit_read(&ring, p1[0], &buf[1], 2);
	submit_read(&ring, p2[0], &buf[2], 3);
	submit_read(&ring, p2[0], &buf[3], 4);
	CHECK_EQ(io_uring_submit(&ring), 4);

	init_reg(&reg);
	reg.addr = 2;
	ret = io_uring_register_sync_cancel(&ring, &reg);
	CHECK_EQ(ret, 0);
	/* The CQE is there when the call returns. */
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 2);
	CHECK_EQ(cqe->res, -ECANCELED);
	io_uring_cqe_seen(&ring, cqe);

	/* Nothing matches any more. */
	CHECK_EQ(io_uring_register_sync_cancel(&ring, &reg), -ENOENT);
	init_reg(&reg);
	reg.addr = 99;
	CHECK_EQ(io_uring_register_sync_cancel(&ring, &reg), -ENOENT);

	/* Everything on p2's read end. */
	init_reg(&reg);
	reg.fd = p2[0];
	reg.flags = IORING_ASYNC_CANCEL_FD | IORING_ASYNC_CANCEL_ALL;
	ret = io_uring_register_sync_cancel(&ring, &reg);
	CHECKM(ret >= 0, "cancel by fd: %d", ret);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK(cqe->user_data == 3 || cqe->user_data == 4);
		CHECK_EQ(cqe->res, -ECANCELED);
		io_uring_cqe_seen(&ring, cqe);
		canceled++;
	}
	CHECK_EQ(io_uring_cq_ready(&ring), 0);

	/* The survivor (ud 1) still completes normally. */
	CHECK_EQ(write(p1[1], "k", 1), 1);
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 1);
	CHECK_EQ(cqe->res, 1);
	io_uring_cqe_seen(&ring, cqe);

	/* A bad flag is refused. */
	init_reg(&reg);
	reg.flags = 1U << 31;
	CHECK_EQ(io_uring_register_sync_cancel(&ring, &reg), -EINVAL);

	io_uring_queue_exit(&ring);
	printf("PASS (%d canceled by fd)\n", canceled);
	return 0;
}
