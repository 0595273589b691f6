/* SPDX-License-Identifier: MIT */
/*
 * Registered (fixed) buffers: register/unregister, tags, sparse tables and
 * updates, and cloning a ring's buffer table into another ring (whole,
 * ranges, replace, source named by fd or by registered ring index).
 */
#include <sys/uio.h>

#include "check.h"

#define READ_UD	0xfeedULL

#define BUF_SZ	4096
#define NR_BUFS	4

static void *bufs[NR_BUFS];
static struct iovec iovs[NR_BUFS];
static int file_fd;

/* read_fixed of BUF_SZ bytes at offset 0 into registered buffer `idx`. */
static int fixed_read(struct io_uring *ring, int idx)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	io_uring_prep_read_fixed(sqe, file_fd, iovs[idx].iov_base, BUF_SZ, 0, idx);
	sqe->user_data = READ_UD;
	CHECK_EQ(io_uring_submit(ring), 1);
	/* Skip resource-tag CQEs that may be queued ahead of ours. */
	for (;;) {
		CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
		if (cqe->user_data == READ_UD)
			break;
		io_uring_cqe_seen(ring, cqe);
	}
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/* Read through slot `idx` and check the data landed in buffer `idx`. */
static void check_fixed_read(struct io_uring *ring, int idx)
{
	unsigned char want[BUF_SZ];

	memset(bufs[idx], 0, BUF_SZ);
	CHECK_EQ(fixed_read(ring, idx), BUF_SZ);
	check_fill(want, BUF_SZ, 7);
	CHECK(!memcmp(bufs[idx], want, BUF_SZ));
}

static void test_basic(void)
{
	struct io_uring ring;

	check_ring_init(&ring, 8, 0);
	CHECK_EQ(io_uring_register_buffers(&ring, iovs, NR_BUFS), 0);
	CHECK_EQ(io_uring_register_buffers(&ring, iovs, NR_BUFS), -EBUSY);
	check_fixed_read(&ring, 0);
	check_fixed_read(&ring, 3);
	CHECK_EQ(io_uring_unregister_buffers(&ring), 0);
	CHECK_EQ(io_uring_unregister_buffers(&ring), -ENXIO);
	CHECK_EQ(fixed_read(&ring, 0), -EFAULT);
	io_uring_queue_exit(&ring);
}

static void test_tags_sparse(void)
{
	__u64 tags[NR_BUFS] = { 11, 12, 13, 14 }, tag = 21;
	struct io_uring ring;
	struct iovec empty = { 0 };
	int ret;

	if (!KERNEL_HAS_PART("tags", IORING_FEAT_RSRC_TAGS)) {
		/* The sparse part below is skipped too: said when lacking. */
		(void) KERNEL_HAS_PART("sparse", IORING_RSRC_REGISTER_SPARSE);
		return;
	}
	check_ring_init(&ring, 8, 0);
	CHECK_EQ(io_uring_register_buffers_tags(&ring, iovs, tags, NR_BUFS), 0);
	check_fixed_read(&ring, 2);
	/* Replacing slot 2 gives back tag 13. */
	ret = io_uring_register_buffers_update_tag(&ring, 2, &iovs[2], &tag, 1);
	CHECK_EQ(ret, 1);
	CHECK_EQ(check_wait_ud(&ring, 13), 0);
	check_fixed_read(&ring, 2);
	CHECK_EQ(io_uring_unregister_buffers(&ring), 0);
	/*
	 * Measured: 5.10, 6.1 and 6.12 post the remaining tags of an
	 * unregistered table later than 2 s (or at ring exit), 6.18 and 7.2
	 * at once, for upstream liburing alike (the kernel's resource
	 * tables were rewritten in 6.13).
	 */
	if (check_kernel_version() >= 6013)
		CHECK_EQ(check_wait_ud(&ring, 21), 0);

	/* Sparse: empty slots until updated (5.19, raw probe). */
	if (!KERNEL_HAS_PART("sparse", IORING_RSRC_REGISTER_SPARSE)) {
		io_uring_queue_exit(&ring);
		return;
	}
	CHECK_EQ(io_uring_register_buffers_sparse(&ring, NR_BUFS), 0);
	CHECK(fixed_read(&ring, 1) <= 0);
	CHECK_EQ(io_uring_register_buffers_update_tag(&ring, 1, &iovs[1], NULL, 1), 1);
	check_fixed_read(&ring, 1);
	/* A zeroed iovec empties the slot again: nothing is read into it. */
	CHECK_EQ(io_uring_register_buffers_update_tag(&ring, 1, &empty, NULL, 1), 1);
	CHECK(fixed_read(&ring, 1) <= 0);
	/* Past the end of the table. */
	CHECK_EQ(io_uring_register_buffers_update_tag(&ring, NR_BUFS, &iovs[0], NULL, 1),
		 -EINVAL);
	CHECK_EQ(io_uring_unregister_buffers(&ring), 0);
	io_uring_queue_exit(&ring);
}

static void test_clone(void)
{
	struct io_uring src, dst, dst2;
	int ret;

	check_ring_init(&src, 8, 0);
	check_ring_init(&dst, 8, 0);
	check_ring_init(&dst2, 8, 0);
	CHECK_EQ(io_uring_register_buffers(&src, iovs, NR_BUFS), 0);

	if (!KERNEL_HAS_PART("clone", IORING_REGISTER_CLONE_BUFFERS)) {
		/* The parts inside this one are skipped too; each says so when
		 * the kernel lacks it as well (skips.tsv then expects it). */
		(void) KERNEL_HAS_PART("offset-clone", IORING_REGISTER_DST_REPLACE);
		(void) KERNEL_HAS_PART("registered-source", IORING_FEAT_REG_REG_RING);
		goto out;
	}
	ret = io_uring_clone_buffers(&dst, &src);
	CHECK_EQ(ret, 0);
	check_fixed_read(&dst, 0);
	check_fixed_read(&dst, 3);
	/* dst already has a table. */
	CHECK_EQ(io_uring_clone_buffers(&dst, &src), -EBUSY);

	/* Ranges: slots 1..2 of src into dst2 at 1..2; then replace one. */
	if (KERNEL_HAS_PART("offset-clone", IORING_REGISTER_DST_REPLACE)) {
		ret = io_uring_clone_buffers_offset(&dst2, &src, 1, 1, 2, 0);
		CHECK_EQ(ret, 0);
		check_fixed_read(&dst2, 1);
		check_fixed_read(&dst2, 2);
		CHECK(fixed_read(&dst2, 0) <= 0);
		CHECK_EQ(io_uring_clone_buffers_offset(&dst2, &src, 0, 0, 1, 0), -EBUSY);
		CHECK_EQ(io_uring_clone_buffers_offset(&dst2, &src, 0, 0, 1,
						       IORING_REGISTER_DST_REPLACE), 0);
		check_fixed_read(&dst2, 0);
		/* Out of range in the source. */
		ret = io_uring_clone_buffers_offset(&dst2, &src, 0, 3, 2,
						    IORING_REGISTER_DST_REPLACE);
		CHECKM(ret == -EINVAL || ret == -EOVERFLOW, "range clone: %d", ret);
		CHECK_EQ(io_uring_unregister_buffers(&dst2), 0);
	}
	CHECK_EQ(io_uring_unregister_buffers(&dst), 0);

	/* Source known by its registered index, then with its fd closed. */
	if (KERNEL_HAS_PART("registered-source", IORING_FEAT_REG_REG_RING)) {
		CHECK_EQ(io_uring_register_ring_fd(&src), 1);
		CHECK_EQ(io_uring_clone_buffers(&dst, &src), 0);
		check_fixed_read(&dst, 1);
		CHECK_EQ(io_uring_unregister_buffers(&dst), 0);
		CHECK_EQ(__io_uring_clone_buffers(&dst, &src, 0), 0);
		CHECK_EQ(io_uring_unregister_buffers(&dst), 0);

		CHECK_EQ(io_uring_close_ring_fd(&src), 1);
		/* Only the index can name src now. */
		CHECK_EQ(io_uring_clone_buffers(&dst, &src), 0);
		check_fixed_read(&dst, 2);
		CHECK_EQ(io_uring_unregister_buffers(&dst), 0);
		CHECK_EQ(__io_uring_clone_buffers(&dst, &src, 0), -EBADF);
		CHECK_EQ(__io_uring_clone_buffers(&dst, &src,
						  IORING_REGISTER_SRC_REGISTERED), 0);
		check_fixed_read(&dst, 3);
	}
out:
	io_uring_queue_exit(&dst2);
	io_uring_queue_exit(&dst);
	io_uring_queue_exit(&src);
}

int main(void)
{
	unsigned char data[BUF_SZ];
	int i;

	file_fd = check_tmpfile(0, NULL);
	check_fill(data, BUF_SZ, 7);
	CHECK_EQ(pwrite(file_fd, data, BUF_SZ, 0), BUF_SZ);
	for (i = 0; i < NR_BUFS; i++) {
		CHECK_EQ(posix_memalign(&bufs[i], 4096, BUF_SZ), 0);
		iovs[i].iov_base = bufs[i];
		iovs[i].iov_len = BUF_SZ;
	}
	test_basic();
	test_tags_sparse();
	test_clone();
	printf("PASS\n");
	return 0;
}
