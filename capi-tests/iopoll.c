/* SPDX-License-Identifier: MIT */
/*
 * IOPOLL rings: O_DIRECT write + read on a scratch file, completions reaped by
 * polling (the library must enter the kernel to reap on an IOPOLL ring, since
 * nothing else drives completions).  Most virtual disks have no poll queues:
 * the kernel then fails the request with -EOPNOTSUPP, and the test skips.
 * Set CAPI_IOPOLL_DIR to a directory on a poll-capable device to run it.
 */
#include "check.h"

#define BS 4096
#define NBLK 8

int main(void)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	const char *dir = getenv("CAPI_IOPOLL_DIR");
	char path[512];
	void *wbuf, *rbuf;
	unsigned i;
	int fd, ret;

	REQUIRE_KERNEL(IORING_SETUP_IOPOLL);
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_IOPOLL);
	CHECK_EQ(ret, 0);
	CHECK(ring.flags & IORING_SETUP_IOPOLL);

	if (!dir)
		dir = check_tmpdir();
	snprintf(path, sizeof(path), "%s/capi-iopoll.XXXXXX", dir);
	fd = mkostemp(path, O_DIRECT);
	if (fd < 0)
		SKIP("cannot create an O_DIRECT file in %s: %s", dir, strerror(errno));
	unlink(path);
	CHECK_EQ(posix_memalign(&wbuf, BS, BS * NBLK), 0);
	CHECK_EQ(posix_memalign(&rbuf, BS, BS * NBLK), 0);
	check_fill(wbuf, BS * NBLK, 9);

	/* Data put there with plain pwrite; probe with one polled read. */
	CHECK_EQ(pwrite(fd, wbuf, BS * NBLK, 0), BS * NBLK);
	CHECK_EQ(fsync(fd), 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, rbuf, BS, 0);
	io_uring_sqe_set_data64(sqe, 1);
	CHECK_EQ(io_uring_submit(&ring), 1);
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 1);
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (ret == -EOPNOTSUPP || ret == -EINVAL || ret == -EAGAIN)
		SKIP("polled O_DIRECT reads not supported by the device under %s (%s)", dir,
		     strerror(-ret));
	CHECK_EQ(ret, BS);

	/* Overwrite with new data through a polled write. */
	check_fill(wbuf, BS * NBLK, 10);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, wbuf, BS * NBLK, 0);
	io_uring_sqe_set_data64(sqe, 2);
	CHECK_EQ(io_uring_submit(&ring), 1);
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 2);
	CHECK_EQ(cqe->res, BS * NBLK);
	io_uring_cqe_seen(&ring, cqe);

	/* Read back block by block in one batch, reaped via peek (enters). */
	memset(rbuf, 0, BS * NBLK);
	for (i = 0; i < NBLK; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, fd, (char *) rbuf + i * BS, BS, (__u64) i * BS);
		io_uring_sqe_set_data64(sqe, 10 + i);
	}
	CHECK_EQ(io_uring_submit(&ring), NBLK);
	for (i = 0; i < NBLK;) {
		ret = io_uring_peek_cqe(&ring, &cqe);
		if (ret == -EAGAIN)
			continue;
		CHECK_EQ(ret, 0);
		CHECK_EQ(cqe->res, BS);
		io_uring_cqe_seen(&ring, cqe);
		i++;
	}
	CHECK(memcmp(rbuf, wbuf, BS * NBLK) == 0);
	io_uring_queue_exit(&ring);
	close(fd);
	free(wbuf);
	free(rbuf);
	return 0;
}
