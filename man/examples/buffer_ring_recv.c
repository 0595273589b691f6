/* SPDX-License-Identifier: MIT */
/* The kernel picks a receive buffer from a buffer ring. */
#include <liburing.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#define NBUFS 8
#define BUF_SIZE 64
#define GROUP 3

int main(void)
{
	static char bufs[NBUFS][BUF_SIZE];
	struct io_uring_buf_ring *br;
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int sv[2], err;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    io_uring_queue_init(8, &ring, 0) < 0)
		return 1;
	br = io_uring_setup_buf_ring(&ring, NBUFS, GROUP, 0, &err);
	if (!br) {
		printf("skip: no buffer rings (Linux 5.19): %d\n", err);
		return 0;
	}
	for (int i = 0; i < NBUFS; i++)
		io_uring_buf_ring_add(br, bufs[i], BUF_SIZE, (unsigned short) i,
				      io_uring_buf_ring_mask(NBUFS), i);
	io_uring_buf_ring_advance(br, NBUFS);

	/* No buffer named: IOSQE_BUFFER_SELECT and the group instead. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_recv(sqe, sv[0], NULL, BUF_SIZE, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_BUFFER_SELECT);
	sqe->buf_group = GROUP;
	io_uring_submit(&ring);

	if (write(sv[1], "picked by the kernel", 20) != 20 ||
	    io_uring_wait_cqe(&ring, &cqe))
		return 1;
	if (cqe->res < 0 || !(cqe->flags & IORING_CQE_F_BUFFER))
		return 1;
	{
		unsigned bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

		printf("%d bytes in buffer %u: %.*s\n", cqe->res, bid, cqe->res,
		       bufs[bid]);
		/* Give the buffer back and the CQE slot, in one step. */
		io_uring_buf_ring_add(br, bufs[bid], BUF_SIZE, (unsigned short) bid,
				      io_uring_buf_ring_mask(NBUFS), 0);
		io_uring_buf_ring_cq_advance(&ring, br, 1);
	}
	io_uring_free_buf_ring(&ring, br, NBUFS, GROUP);
	io_uring_queue_exit(&ring);
	return 0;
}
