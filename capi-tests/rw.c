/* SPDX-License-Identifier: MIT */
/*
 * File I/O round trips on a scratch file: write/read and writev/readv at
 * fixed offsets (data compared byte for byte, and cross-checked with
 * pread/pwrite), readv2/writev2 with RWF flags, fsync, and the "current file
 * position" offset (-1) when the kernel supports it.
 */
#include "check.h"

#include <sys/uio.h>

#define CHUNK 4096
#define NCHUNK 16

static int submit_one_and_wait(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_cqe *cqe;
	int res;

	CHECK_EQ(io_uring_submit(ring), 1);
	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), tag);
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

int main(void)
{
	static unsigned char wbuf[NCHUNK][CHUNK], rbuf[NCHUNK][CHUNK], check[CHUNK];
	struct iovec iov[NCHUNK];
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned char seen[NCHUNK] = { 0 };
	unsigned i;
	int fd, res;

	fd = check_tmpfile(0, NULL);
	check_ring_init(&ring, 32, 0);
	for (i = 0; i < NCHUNK; i++)
		check_fill(wbuf[i], CHUNK, i + 1);

	/* 1. One write per chunk, all in one batch, at offsets i*CHUNK. */
	for (i = 0; i < NCHUNK; i++) {
		sqe = io_uring_get_sqe(&ring);
		CHECK(sqe != NULL);
		io_uring_prep_write(sqe, fd, wbuf[i], CHUNK, (unsigned long long) i * CHUNK);
		io_uring_sqe_set_data64(sqe, 100 + i);
	}
	CHECK_EQ(io_uring_submit_and_wait(&ring, NCHUNK), NCHUNK);
	for (i = 0; i < NCHUNK; i++) {
		unsigned long long ud;

		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		ud = io_uring_cqe_get_data64(cqe);
		CHECKM(ud >= 100 && ud < 100 + NCHUNK && !seen[ud - 100], "bad user_data %llu", ud);
		seen[ud - 100] = 1;
		CHECK_EQ(cqe->res, CHUNK);
		io_uring_cqe_seen(&ring, cqe);
	}
	/* The kernel's view of the file matches. */
	for (i = 0; i < NCHUNK; i++) {
		CHECK_EQ(pread(fd, check, CHUNK, (off_t) i * CHUNK), CHUNK);
		CHECKM(memcmp(check, wbuf[i], CHUNK) == 0, "chunk %u differs after write", i);
	}

	/* 2. Read back with read, in reverse order, compare. */
	for (i = 0; i < NCHUNK; i++) {
		unsigned c = NCHUNK - 1 - i;

		memset(rbuf[c], 0, CHUNK);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, fd, rbuf[c], CHUNK, (unsigned long long) c * CHUNK);
		io_uring_sqe_set_data64(sqe, 200 + c);
	}
	CHECK_EQ(io_uring_submit_and_wait(&ring, NCHUNK), NCHUNK);
	for (i = 0; i < NCHUNK; i++) {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, CHUNK);
		io_uring_cqe_seen(&ring, cqe);
	}
	for (i = 0; i < NCHUNK; i++)
		CHECKM(memcmp(rbuf[i], wbuf[i], CHUNK) == 0, "read chunk %u differs", i);

	/* 3. A single writev of all chunks (new data) at offset CHUNK*NCHUNK. */
	for (i = 0; i < NCHUNK; i++) {
		check_fill(wbuf[i], CHUNK, 1000 + i);
		iov[i].iov_base = wbuf[i];
		iov[i].iov_len = CHUNK;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_writev(sqe, fd, iov, NCHUNK, (unsigned long long) NCHUNK * CHUNK);
	io_uring_sqe_set_data64(sqe, 300);
	res = submit_one_and_wait(&ring, 300);
	CHECK_EQ(res, NCHUNK * CHUNK);
	for (i = 0; i < NCHUNK; i++) {
		CHECK_EQ(pread(fd, check, CHUNK, (off_t) (NCHUNK + i) * CHUNK), CHUNK);
		CHECKM(memcmp(check, wbuf[i], CHUNK) == 0, "writev chunk %u differs", i);
	}

	/* 4. readv back into scattered buffers, compare. */
	for (i = 0; i < NCHUNK; i++) {
		memset(rbuf[i], 0xee, CHUNK);
		iov[i].iov_base = rbuf[i];
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_readv(sqe, fd, iov, NCHUNK, (unsigned long long) NCHUNK * CHUNK);
	io_uring_sqe_set_data64(sqe, 400);
	res = submit_one_and_wait(&ring, 400);
	CHECK_EQ(res, NCHUNK * CHUNK);
	for (i = 0; i < NCHUNK; i++)
		CHECKM(memcmp(rbuf[i], wbuf[i], CHUNK) == 0, "readv chunk %u differs", i);

	/* 5. Reading past the end returns a short count, then 0. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, rbuf[0], CHUNK, (unsigned long long) 2 * NCHUNK * CHUNK - 100);
	io_uring_sqe_set_data64(sqe, 500);
	CHECK_EQ(submit_one_and_wait(&ring, 500), 100);
	CHECK(memcmp(rbuf[0], wbuf[NCHUNK - 1] + CHUNK - 100, 100) == 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, rbuf[0], CHUNK, (unsigned long long) 2 * NCHUNK * CHUNK);
	io_uring_sqe_set_data64(sqe, 501);
	CHECK_EQ(submit_one_and_wait(&ring, 501), 0);

	/* 6. writev2 with RWF_DSYNC, readv2 with no flags. */
	check_fill(wbuf[0], CHUNK, 77);
	iov[0].iov_base = wbuf[0];
	iov[0].iov_len = CHUNK;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_writev2(sqe, fd, iov, 1, 3 * CHUNK, RWF_DSYNC);
	io_uring_sqe_set_data64(sqe, 600);
	CHECK_EQ(submit_one_and_wait(&ring, 600), CHUNK);
	iov[0].iov_base = rbuf[0];
	memset(rbuf[0], 0, CHUNK);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_readv2(sqe, fd, iov, 1, 3 * CHUNK, 0);
	io_uring_sqe_set_data64(sqe, 601);
	CHECK_EQ(submit_one_and_wait(&ring, 601), CHUNK);
	CHECK(memcmp(rbuf[0], wbuf[0], CHUNK) == 0);

	/* 7. fsync and fdatasync complete with 0. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_fsync(sqe, fd, 0);
	io_uring_sqe_set_data64(sqe, 700);
	CHECK_EQ(submit_one_and_wait(&ring, 700), 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
	io_uring_sqe_set_data64(sqe, 701);
	CHECK_EQ(submit_one_and_wait(&ring, 701), 0);

	/* 8. Offset -1 uses (and advances) the file position. */
	if (ring.features & IORING_FEAT_RW_CUR_POS) {
		CHECK_EQ(lseek(fd, 5 * CHUNK, SEEK_SET), 5 * CHUNK);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, fd, rbuf[0], CHUNK, (__u64) -1);
		io_uring_sqe_set_data64(sqe, 800);
		CHECK_EQ(submit_one_and_wait(&ring, 800), CHUNK);
		CHECK_EQ(pread(fd, check, CHUNK, 5 * CHUNK), CHUNK);
		CHECK(memcmp(rbuf[0], check, CHUNK) == 0);
		CHECK_EQ(lseek(fd, 0, SEEK_CUR), 6 * CHUNK);
	}

	/* 9. A bad fd completes with -EBADF in the CQE (submission succeeds). */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, 1000000, rbuf[0], CHUNK, 0);
	io_uring_sqe_set_data64(sqe, 900);
	CHECK_EQ(submit_one_and_wait(&ring, 900), -EBADF);

	io_uring_queue_exit(&ring);
	close(fd);
	return 0;
}
