/* SPDX-License-Identifier: MIT */
/*
 * Reads from a pipe into provided buffers (a buffer ring of two) but never
 * gives a buffer back: from the third read on, every read fails -ENOBUFS.
 * Fixed: returns each buffer to the ring once its data is used.
 */
#include "corpus.h"

#define BUFS 2
#define BGID 5

int main(void)
{
	static char mem[BUFS][64];
	struct io_uring_buf_ring *br;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int fds[2], i, err, failed = 0;

	bound(2);
	init(&ring, 8, 0);
	if (pipe(fds))
		DIE("pipe");
	br = io_uring_setup_buf_ring(&ring, BUFS, BGID, 0, &err);
	if (!br)
		exit(77);
	for (i = 0; i < BUFS; i++)
		io_uring_buf_ring_add(br, mem[i], sizeof(mem[i]), i, io_uring_buf_ring_mask(BUFS), i);
	io_uring_buf_ring_advance(br, BUFS);
	for (i = 0; i < 12; i++) {
		struct io_uring_sqe *sqe = sqe_of(&ring);

		if (write(fds[1], "x", 1) != 1)
			DIE("write");
		io_uring_prep_read(sqe, fds[0], NULL, 64, 0);
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = BGID;
		io_uring_sqe_set_data64(sqe, i + 1);
		TRY(io_uring_submit_and_wait(&ring, 1));
		TRY(io_uring_wait_cqe(&ring, &cqe));
		if (cqe->res == -ENOBUFS) {
			failed++;
			/* the byte stays in the pipe: take it out */
			if (read(fds[0], mem[0], 1) != 1)
				DIE("read");
		} else if (cqe->res < 0) {
			DIE("read: %d", cqe->res);
		}
#ifdef FIXED
		if (cqe->flags & IORING_CQE_F_BUFFER) {
			int bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

			io_uring_buf_ring_add(br, mem[bid], sizeof(mem[bid]), bid,
					      io_uring_buf_ring_mask(BUFS), 0);
			io_uring_buf_ring_advance(br, 1);
		}
#endif
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_free_buf_ring(&ring, br, BUFS, BGID);
	io_uring_queue_exit(&ring);
	return failed ? 2 : 0;
}
