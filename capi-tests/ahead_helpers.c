/* SPDX-License-Identifier: MIT */
/*
 * The helpers this library has ahead of liburing (header-only, in no
 * liburing release yet) against the kernel:
 *   io_uring_prep_nop_flags       the NOP flags: FILE, FIXED_FILE,
 *                                 FIXED_BUFFER (Linux 6.13), TW (6.16)
 *   io_uring_sqe_set_write_stream a write's write stream (Linux 6.16)
 * First what each stores in the SQE (any kernel), then what the kernel makes
 * of it. Each kernel part skips by a raw probe of check.h or of this file,
 * never by what the helpers give.
 */
#include "check.h"

#include <linux/loop.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/uio.h>

/* Submit what the caller prepared in the ring's one pending SQE; its res. */
static int run_one(struct io_uring *ring)
{
	struct io_uring_cqe *cqe = NULL;
	int res;

	CHECK_EQ(io_uring_submit(ring), 1);
	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

static int nop_flags(struct io_uring *ring, int fd, unsigned buf_index, unsigned flags)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	io_uring_prep_nop_flags(sqe, fd, buf_index, flags);
	return run_one(ring);
}

/* The stores alone: the named fields, and no other byte touched. */
static void sqe_stores(void)
{
	struct io_uring_sqe sqe, before;
	unsigned char *a = (unsigned char *) &sqe, *b = (unsigned char *) &before;
	size_t i, at = offsetof(struct io_uring_sqe, write_stream);

	memset(&sqe, 0xa5, sizeof(sqe));
	before = sqe;
	io_uring_sqe_set_write_stream(&sqe, 7);
	CHECK_EQ(sqe.write_stream, 7);
	for (i = 0; i < sizeof(sqe); i++)
		CHECKM(i == at || a[i] == b[i], "byte %zu changed by set_write_stream", i);

	memset(&sqe, 0xa5, sizeof(sqe));
	io_uring_prep_nop_flags(&sqe, 3, 5, IORING_NOP_FILE | IORING_NOP_FIXED_BUFFER);
	CHECK_EQ(sqe.opcode, IORING_OP_NOP);
	CHECK_EQ(sqe.fd, 3);
	CHECK_EQ(sqe.buf_index, 5);
	CHECK_EQ(sqe.nop_flags, IORING_NOP_FILE | IORING_NOP_FIXED_BUFFER);
	CHECK_EQ(sqe.len, 0);
	CHECK_EQ(sqe.addr, 0);
	CHECK_EQ(sqe.off, 0);
	CHECK_EQ(sqe.user_data, 0xa5a5a5a5a5a5a5a5ULL);	/* left alone */
}

/* IORING_NOP_FILE, FIXED_FILE, FIXED_BUFFER: each lookup, found and not. */
static void nop_lookups(void)
{
	struct io_uring ring;
	static char buf[4096];
	struct iovec iov = { buf, sizeof(buf) };
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int closed;

	CHECK(devnull >= 0);
	check_ring_init(&ring, 4, 0);
	/* A descriptor number that was open and no longer is. */
	closed = dup(devnull);
	CHECK(closed >= 0);
	close(closed);
	CHECK_EQ(nop_flags(&ring, -1, 0, 0), 0);
	CHECK_EQ(nop_flags(&ring, devnull, 0, IORING_NOP_FILE), 0);
	CHECK_EQ(nop_flags(&ring, closed, 0, IORING_NOP_FILE), -EBADF);

	CHECK_EQ(io_uring_register_files(&ring, &devnull, 1), 0);
	CHECK_EQ(nop_flags(&ring, 0, 0, IORING_NOP_FILE | IORING_NOP_FIXED_FILE), 0);
	CHECK_EQ(nop_flags(&ring, 1, 0, IORING_NOP_FILE | IORING_NOP_FIXED_FILE), -EBADF);

	CHECK_EQ(nop_flags(&ring, -1, 0, IORING_NOP_FIXED_BUFFER), -EFAULT);
	CHECK_EQ(io_uring_register_buffers(&ring, &iov, 1), 0);
	CHECK_EQ(nop_flags(&ring, -1, 0, IORING_NOP_FIXED_BUFFER), 0);
	CHECK_EQ(nop_flags(&ring, -1, 1, IORING_NOP_FIXED_BUFFER), -EFAULT);
	io_uring_queue_exit(&ring);
	close(devnull);
}

/* IORING_NOP_TW: completes through task work, also on a DEFER_TASKRUN ring. */
static void nop_task_work(void)
{
	struct io_uring ring;

	check_ring_init(&ring, 4, 0);
	CHECK_EQ(nop_flags(&ring, -1, 0, IORING_NOP_TW), 0);
	io_uring_queue_exit(&ring);
	check_ring_init(&ring, 4, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	CHECK_EQ(nop_flags(&ring, -1, 0, IORING_NOP_TW), 0);
	io_uring_queue_exit(&ring);
}

/* A free loop device over an unlinked 1 MiB scratch file, opened O_DIRECT;
 * -1 (after a note) when there is none to take. */
static int loop_device(void)
{
	char dev[32];
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int backing = check_tmpfile(0, NULL);
	int n, loop, ret, tries;

	CHECK(ftruncate(backing, 1 << 20) == 0);
	for (tries = 0; tries < 3; tries++) {
		n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		snprintf(dev, sizeof(dev), "/dev/loop%d", n);
		loop = open(dev, O_RDWR | O_CLOEXEC);
		ret = loop < 0 ? -1 : ioctl(loop, LOOP_SET_FD, backing);
		if (!ret) {
			int fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC);

			/* Detach on last close: nothing is left behind. */
			struct loop_info64 info;

			memset(&info, 0, sizeof(info));
			info.lo_flags = LO_FLAGS_AUTOCLEAR;
			ioctl(loop, LOOP_SET_STATUS64, &info);
			close(loop);
			close(backing);
			close(ctl);
			CHECKM(fd >= 0, "open(%s, O_DIRECT): %s", dev, strerror(errno));
			return fd;
		}
		if (loop >= 0)
			close(loop);
		if (errno != EBUSY)	/* another program took it: try the next */
			break;
	}
	if (ctl >= 0)
		close(ctl);
	close(backing);
	FAIL("no loop device to set up (running as root): %s", strerror(errno));
	return -1;
}

/*
 * A write with write stream 1 to a loop device, which has no write streams:
 * a kernel that reads the SQE's write_stream (Linux 6.16) refuses it with
 * -EINVAL; an older one takes the byte for padding and writes.
 */
static void write_stream(void)
{
	struct io_uring_sqe raw, *sqe;
	struct io_uring ring;
	void *buf = NULL;
	int fd, res = 0, ret;

	if (!ENV_HAS_PART("write-stream", "loop"))
		return;
	fd = loop_device();
	CHECK(posix_memalign(&buf, 4096, 4096) == 0);
	memset(buf, 'w', 4096);

	/* The independent probe: the same write through the raw system calls. */
	memset(&raw, 0, sizeof(raw));
	raw.opcode = IORING_OP_WRITE;
	raw.fd = fd;
	raw.addr = (unsigned long) buf;
	raw.len = 4096;
	raw.write_stream = 1;
	ret = check_raw_one_request(&raw, &res);
	CHECK_EQ(ret, 0);
	if (res != -EINVAL) {
		CHECK_EQ(res, 4096);
		check_note("SKIP-PART write-stream: kernel lacks write_stream (raw probe: a write "
			   "with stream 1 to a loop device gave %d)", res);
		goto out;
	}

	check_ring_init(&ring, 4, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, buf, 4096, 0);
	io_uring_sqe_set_write_stream(sqe, 1);
	CHECK_EQ(run_one(&ring), -EINVAL);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, buf, 4096, 4096);
	io_uring_sqe_set_write_stream(sqe, 0);
	CHECK_EQ(run_one(&ring), 4096);
	io_uring_queue_exit(&ring);
out:
	free(buf);
	close(fd);
}

int main(void)
{
	sqe_stores();
	REQUIRE_KERNEL(IORING_NOP_FILE);
	nop_lookups();
	if (KERNEL_HAS_PART("nop-tw", IORING_NOP_TW))
		nop_task_work();
	write_stream();
	printf("PASS\n");
	return 0;
}
