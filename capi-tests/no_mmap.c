/* SPDX-License-Identifier: MIT */
/*
 * IORING_SETUP_NO_MMAP through io_uring_queue_init_mem(): the rings live in
 * the application's buffer, the return value is the number of bytes used
 * (equal to io_uring_memory_size_params() of the resulting setup), a second
 * ring fits at that offset in the same buffer, both rings work, a buffer that
 * is too small gives -ENOMEM, and io_uring_queue_exit() leaves the
 * application's memory mapped.  Also NO_MMAP through
 * io_uring_queue_init_params() (library-allocated memory).
 */
#include "check.h"

#define BUF_SIZE (2u * 1024 * 1024)

static int init_mem(struct io_uring *ring, unsigned entries, unsigned flags,
		    void *buf, size_t size, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags;
	return io_uring_queue_init_mem(entries, ring, p, buf, size);
}

static int inside(const void *ptr, const void *buf, size_t size)
{
	return (const char *) ptr >= (const char *) buf &&
	       (const char *) ptr < (const char *) buf + size;
}

int main(void)
{
	struct io_uring r1, r2, r3;
	struct io_uring_params p1, p2, p3;
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf;
	int used1, used2, ret;
	ssize_t expect;

	REQUIRE_KERNEL(IORING_SETUP_NO_MMAP);

	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(buf != MAP_FAILED);

	/* First ring at the start of the buffer. */
	used1 = init_mem(&r1, 64, 0, buf, BUF_SIZE, &p1);
	CHECKM(used1 > 0, "io_uring_queue_init_mem returned %d", used1);
	CHECK(p1.flags & IORING_SETUP_NO_MMAP);
	CHECK(r1.flags & IORING_SETUP_NO_MMAP);
	CHECK_EQ(used1 % page, 0);
	CHECK((size_t) used1 <= BUF_SIZE);
	expect = io_uring_memory_size_params(64, &p1);
	CHECK_EQ(used1, expect);
	/* The SQEs and both rings are inside the used part of the buffer. */
	CHECK((void *) r1.sq.sqes == (void *) buf);
	CHECK(inside(r1.sq.khead, buf, (size_t) used1));
	CHECK(inside(r1.cq.khead, buf, (size_t) used1));
	CHECK(inside(r1.cq.cqes, buf, (size_t) used1));
	CHECK(inside(&r1.cq.cqes[r1.cq.ring_entries - 1], buf, (size_t) used1));
	CHECK_EQ(r1.sq.ring_entries, 64);
	CHECK_EQ(r1.cq.ring_entries, 128);

	/* A second ring right after the first one, in the same buffer. */
	used2 = init_mem(&r2, 32, IORING_SETUP_CQSIZE, buf + used1, BUF_SIZE - (size_t) used1, &p2);
	CHECK_EQ(used2, -EINVAL); /* CQSIZE with cq_entries == 0 */
	memset(&p2, 0, sizeof(p2));
	p2.flags = IORING_SETUP_CQSIZE;
	p2.cq_entries = 256;
	used2 = io_uring_queue_init_mem(32, &r2, &p2, buf + used1, BUF_SIZE - (size_t) used1);
	CHECKM(used2 > 0, "second io_uring_queue_init_mem returned %d", used2);
	CHECK_EQ(used2, io_uring_memory_size_params(32, &p2));
	CHECK((void *) r2.sq.sqes == (void *) (buf + used1));
	CHECK(inside(r2.cq.cqes, buf + used1, (size_t) used2));
	CHECK_EQ(r2.cq.ring_entries, 256);

	/* Both rings work, interleaved. */
	check_nop_roundtrip(&r1, 64, 1000);
	check_nop_roundtrip(&r2, 32, 2000);
	check_nop_roundtrip(&r1, 1, 3000);
	check_nop_roundtrip(&r2, 32, 4000);

	/* Too small a buffer: -ENOMEM, and no ring. */
	ret = init_mem(&r3, 64, 0, buf + used1 + used2, (size_t) page, &p3);
	CHECK_EQ(ret, -ENOMEM);

	/* queue_exit does not unmap application memory. */
	io_uring_queue_exit(&r1);
	io_uring_queue_exit(&r2);
	memset(buf, 0x5a, BUF_SIZE);
	CHECK_EQ(buf[BUF_SIZE - 1], 0x5a);

	/* The buffer can be reused for a new ring once zeroed again. */
	memset(buf, 0, BUF_SIZE);
	used1 = init_mem(&r1, 8, 0, buf, BUF_SIZE, &p1);
	CHECKM(used1 > 0, "reuse: io_uring_queue_init_mem returned %d", used1);
	check_nop_roundtrip(&r1, 8, 5000);
	io_uring_queue_exit(&r1);
	CHECK_EQ(munmap(buf, BUF_SIZE), 0);

	/* NO_MMAP without a buffer: the library allocates the memory itself. */
	memset(&p3, 0, sizeof(p3));
	p3.flags = IORING_SETUP_NO_MMAP;
	ret = io_uring_queue_init_params(16, &r3, &p3);
	CHECK_EQ(ret, 0);
	CHECK(r3.flags & IORING_SETUP_NO_MMAP);
	check_nop_roundtrip(&r3, 16, 6000);
	io_uring_queue_exit(&r3);
	return 0;
}
