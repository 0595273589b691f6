/* SPDX-License-Identifier: MIT */
/*
 * Registered file tables: register/update/unregister, tags (a CQE carrying
 * the tag when a tagged file leaves the table), sparse tables, the
 * direct-descriptor allocation range, and the library raising the soft
 * RLIMIT_NOFILE once when a table is larger than it allows (EMFILE).
 */
#include <sys/resource.h>

#include "check.h"

#define READ_UD	0xfeedULL

static char path[256];

/* Read 4 bytes at offset 0 through fixed file slot `idx`; returns res. */
static int fixed_read(struct io_uring *ring, int idx, char *buf)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	io_uring_prep_read(sqe, idx, buf, 4, 0);
	sqe->flags |= IOSQE_FIXED_FILE;
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

static int make_file(const char *contents)
{
	int fd = check_tmpfile(0, NULL);

	CHECK_EQ(pwrite(fd, contents, 4, 0), 4);
	return fd;
}

static void test_basic(void)
{
	struct io_uring ring;
	int fds[3], files[3], skip[1] = { IORING_REGISTER_FILES_SKIP };
	char buf[8] = { 0 };

	check_ring_init(&ring, 8, 0);
	fds[0] = make_file("AAAA");
	fds[1] = make_file("BBBB");
	fds[2] = make_file("CCCC");
	files[0] = fds[0];
	files[1] = fds[1];
	files[2] = -1;

	CHECK_EQ(io_uring_register_files(&ring, files, 3), 0);
	CHECK_EQ(io_uring_register_files(&ring, files, 3), -EBUSY);
	CHECK_EQ(fixed_read(&ring, 1, buf), 4);
	CHECK(!memcmp(buf, "BBBB", 4));
	/* Slot 2 is empty. */
	CHECK_EQ(fixed_read(&ring, 2, buf), -EBADF);

	/* Update returns the number of slots processed. */
	CHECK_EQ(io_uring_register_files_update(&ring, 2, &fds[2], 1), 1);
	CHECK_EQ(fixed_read(&ring, 2, buf), 4);
	CHECK(!memcmp(buf, "CCCC", 4));
	CHECK_EQ(io_uring_register_files_update(&ring, 0, skip, 1), 1);
	CHECK_EQ(fixed_read(&ring, 0, buf), 4);
	CHECK(!memcmp(buf, "AAAA", 4));
	/* Out of range. */
	CHECK_EQ(io_uring_register_files_update(&ring, 3, &fds[2], 1), -EINVAL);

	CHECK_EQ(io_uring_unregister_files(&ring), 0);
	CHECK_EQ(io_uring_unregister_files(&ring), -ENXIO);
	CHECK_EQ(fixed_read(&ring, 0, buf), -EBADF);

	io_uring_queue_exit(&ring);
	close(fds[0]);
	close(fds[1]);
	close(fds[2]);
}

static void test_tags(void)
{
	struct io_uring ring;
	__u64 tags[2] = { 101, 102 }, newtag = 0;
	int fds[2], files[2], empty = -1, ret;
	char buf[8];

	if (!KERNEL_HAS_PART("tags", IORING_FEAT_RSRC_TAGS))
		return;
	check_ring_init(&ring, 8, 0);
	fds[0] = make_file("TTTT");
	fds[1] = make_file("UUUU");
	files[0] = fds[0];
	files[1] = fds[1];

	CHECK_EQ(io_uring_register_files_tags(&ring, files, tags, 2), 0);
	CHECK_EQ(fixed_read(&ring, 0, buf), 4);
	CHECK(!memcmp(buf, "TTTT", 4));

	/* Replacing slot 0 releases the file tagged 101: its tag comes back. */
	ret = io_uring_register_files_update_tag(&ring, 0, &empty, &newtag, 1);
	CHECK_EQ(ret, 1);
	CHECK_EQ(check_wait_ud(&ring, 101), 0);

	/* Unregistering releases the rest: tag 102. */
	CHECK_EQ(io_uring_unregister_files(&ring), 0);
	/*
	 * Measured: 5.10, 6.1 and 6.12 post the remaining tags of an
	 * unregistered table later than 2 s (or at ring exit), 6.18 and 7.2
	 * at once, for upstream liburing alike (the kernel's resource
	 * tables were rewritten in 6.13).
	 */
	if (check_kernel_version() >= 6013)
		CHECK_EQ(check_wait_ud(&ring, 102), 0);

	/* A table without tags (NULL) works too. */
	CHECK_EQ(io_uring_register_files_tags(&ring, files, NULL, 2), 0);
	CHECK_EQ(fixed_read(&ring, 1, buf), 4);
	CHECK(!memcmp(buf, "UUUU", 4));
	CHECK_EQ(io_uring_unregister_files(&ring), 0);

	io_uring_queue_exit(&ring);
	close(fds[0]);
	close(fds[1]);
}

static void test_sparse_alloc_range(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char buf[8];
	int fd, ret, i;

	if (!KERNEL_HAS_PART("sparse", IORING_RSRC_REGISTER_SPARSE))
		return;
	check_ring_init(&ring, 8, 0);
	ret = io_uring_register_files_sparse(&ring, 8);
	CHECK_EQ(ret, 0);
	ret = io_uring_register_file_alloc_range(&ring, 2, 4);
	CHECK_EQ(ret, 0);
	/* Beyond the table. */
	CHECK_EQ(io_uring_register_file_alloc_range(&ring, 6, 4), -EINVAL);

	fd = check_tmpfile(0, path);
	CHECK_EQ(pwrite(fd, "SSSS", 4, 0), 4);
	close(fd);

	/* Allocated slots stay inside [2, 6); the fifth has no room. */
	for (i = 0; i < 5; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_openat_direct(sqe, AT_FDCWD, path, O_RDONLY, 0,
					    IORING_FILE_INDEX_ALLOC);
		CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		ret = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
		if (i < 4) {
			CHECKM(ret >= 2 && ret < 6, "allocated slot %d outside [2,6)", ret);
			CHECK_EQ(fixed_read(&ring, ret, buf), 4);
			CHECK(!memcmp(buf, "SSSS", 4));
		} else {
			CHECK_EQ(ret, -ENFILE);
		}
	}
	unlink(path);
	CHECK_EQ(io_uring_unregister_files(&ring), 0);
	io_uring_queue_exit(&ring);
}

/* A table larger than the soft fd limit: the library raises it once. */
static void test_rlimit_raise(void)
{
	struct rlimit old, low, now;
	struct io_uring ring;
	int *files, i, ret;

	CHECK_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
	if (!ENV_HAS_PART("rlimit", "nofile-4096")) {
		/* Its sparse case is a kernel part of its own: said when lacking. */
		(void) KERNEL_HAS_PART("sparse-rlimit", IORING_RSRC_REGISTER_SPARSE);
		return;
	}
	check_ring_init(&ring, 8, 0);

	low = old;
	low.rlim_cur = 64;
	/* Sparse tables: 5.19 (raw probe). */
	if (KERNEL_HAS_PART("sparse-rlimit", IORING_RSRC_REGISTER_SPARSE)) {
		CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
		ret = io_uring_register_files_sparse(&ring, 1000);
		CHECK_EQ(getrlimit(RLIMIT_NOFILE, &now), 0);
		CHECK_EQ(ret, 0);
		CHECKM(now.rlim_cur >= 1000, "soft limit not raised: %llu",
		       (unsigned long long) now.rlim_cur);
		CHECK_EQ(io_uring_unregister_files(&ring), 0);
	}

	/* Same for a plain table (all slots empty) and a tagged one. */
	files = malloc(1500 * sizeof(int));
	for (i = 0; i < 1500; i++)
		files[i] = -1;
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
	CHECK_EQ(io_uring_register_files(&ring, files, 1500), 0);
	CHECK_EQ(io_uring_unregister_files(&ring), 0);
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
	CHECK_EQ(io_uring_register_files_tags(&ring, files, NULL, 1500), 0);
	CHECK_EQ(io_uring_unregister_files(&ring), 0);

	/* Beyond the hard limit the raise cannot help: EMFILE comes back. */
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < (1U << 20) && check_kernel_sparse_files()) {
		low.rlim_max = 128;
		low.rlim_cur = 64;
		CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
		CHECK_EQ(io_uring_register_files_sparse(&ring, 1000), -EMFILE);
	}
	free(files);
	io_uring_queue_exit(&ring);
	/* Lowering the hard limit is one-way for non-root; restore if we can. */
	setrlimit(RLIMIT_NOFILE, &old);
}

int main(void)
{
	test_basic();
	test_tags();
	test_sparse_alloc_range();
	test_rlimit_raise();
	printf("PASS\n");
	return 0;
}
