/* SPDX-License-Identifier: MIT */
/*
 * Provided buffer rings: io_uring_setup_buf_ring/io_uring_free_buf_ring
 * (errors through *err), a recv picking a provided buffer, the kernel head
 * (io_uring_buf_ring_head), incremental consumption (IOU_PBUF_RING_INC),
 * io_uring_register_buf_ring on application memory, and a kernel-allocated
 * ring (IOU_PBUF_RING_MMAP).
 *
 * The IOU_PBUF_RING_MMAP flag makes our io_uring_setup_buf_ring map the
 * kernel's ring; liburing 2.15 registers its own memory with the flag set,
 * which the kernel refuses, so that part fails on liburing 2.15 by design.
 */
#include <sys/socket.h>

#include "check.h"

#define BUF_LEN	64

static int sv[2];

/* recv into a buffer of group bgid; returns res, *cflags the CQE flags. */
static int recv_select(struct io_uring *ring, int bgid, unsigned *cflags)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	io_uring_prep_recv(sqe, sv[1], NULL, BUF_LEN, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = bgid;
	CHECK_EQ(io_uring_submit_and_wait(ring, 1), 1);
	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
	ret = cqe->res;
	*cflags = cqe->flags;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static void add_bufs(struct io_uring_buf_ring *br, unsigned entries, char *mem,
		     unsigned count, unsigned len)
{
	unsigned i;

	for (i = 0; i < count; i++)
		io_uring_buf_ring_add(br, mem + i * len, len, i,
				      io_uring_buf_ring_mask(entries), i);
	io_uring_buf_ring_advance(br, count);
}

static void test_basic(struct io_uring *ring)
{
	static char mem[8 * BUF_LEN];
	struct io_uring_buf_ring *br, *br2;
	unsigned cflags, bid;
	uint16_t head = 0xffff;
	int err = 1, ret;

	REQUIRE_KERNEL(IORING_REGISTER_PBUF_RING);
	br = io_uring_setup_buf_ring(ring, 8, 1, 0, &err);
	CHECKM(br != NULL, "setup_buf_ring: %d", err);
	CHECK_EQ(err, 0);
	CHECK_EQ(br->tail, 0);

	/* Same group again, bad sizes. */
	err = 0;
	br2 = io_uring_setup_buf_ring(ring, 8, 1, 0, &err);
	CHECK(br2 == NULL);
	CHECK_EQ(err, -EEXIST);
	err = 0;
	CHECK(io_uring_setup_buf_ring(ring, 3, 2, 0, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	err = 0;
	CHECK(io_uring_setup_buf_ring(ring, 65536, 2, 0, &err) == NULL);
	CHECK_EQ(err, -EINVAL);

	ret = io_uring_buf_ring_head(ring, 1, &head);
	if (ret == -EINVAL) {
		check_note("buf_ring_head not supported by the kernel");
	} else {
		CHECK_EQ(ret, 0);
		CHECK_EQ(head, 0);
	}

	/* An empty ring: nothing to pick. */
	CHECK_EQ(send(sv[0], "hello", 5, 0), 5);
	CHECK_EQ(recv_select(ring, 1, &cflags), -ENOBUFS);

	add_bufs(br, 8, mem, 8, BUF_LEN);
	ret = recv_select(ring, 1, &cflags);
	CHECK_EQ(ret, 5);
	CHECK(cflags & IORING_CQE_F_BUFFER);
	bid = cflags >> IORING_CQE_BUFFER_SHIFT;
	CHECK(bid < 8);
	CHECK(!memcmp(mem + bid * BUF_LEN, "hello", 5));
	if (io_uring_buf_ring_head(ring, 1, &head) == 0)
		CHECK_EQ(head, 1);
	/* Asks the kernel's IORING_REGISTER_PBUF_STATUS (6.8): -EINVAL before. */
	CHECK_EQ(io_uring_buf_ring_available(ring, br, 1),
		 check_kernel_version() >= 6008 ? 7 : -EINVAL);

	/* Unknown group (PBUF_STATUS, 6.8: -EINVAL before, whatever the group). */
	CHECK_EQ(io_uring_buf_ring_head(ring, 9, &head),
		 check_kernel_version() >= 6008 ? -ENOENT : -EINVAL);

	CHECK_EQ(io_uring_free_buf_ring(ring, br, 8, 1), 0);
	/* Measured: 6.1 answers a group it does not have with -EINVAL, 6.12 on -ENOENT. */
	CHECK_EQ(io_uring_unregister_buf_ring(ring, 1),
		 check_kernel_version() >= 6012 ? -ENOENT : -EINVAL);
	/* The group is free again. */
	br = io_uring_setup_buf_ring(ring, 16, 1, 0, &err);
	CHECKM(br != NULL, "re-setup: %d", err);
	CHECK_EQ(io_uring_free_buf_ring(ring, br, 16, 1), 0);
}

static void test_incremental(struct io_uring *ring)
{
	static char mem[BUF_LEN];
	struct io_uring_buf_ring *br;
	unsigned cflags;
	uint16_t head;
	int err = 0, ret;

	if (!KERNEL_HAS_PART("incremental", IOU_PBUF_RING_INC))
		return;
	br = io_uring_setup_buf_ring(ring, 4, 3, IOU_PBUF_RING_INC, &err);
	CHECKM(br != NULL, "io_uring_setup_buf_ring(IOU_PBUF_RING_INC): %d", err);
	add_bufs(br, 4, mem, 1, BUF_LEN);

	/* Two 10-byte receives share buffer 0, one after the other. */
	CHECK_EQ(send(sv[0], "0123456789", 10, 0), 10);
	ret = recv_select(ring, 3, &cflags);
	CHECK_EQ(ret, 10);
	CHECK(cflags & IORING_CQE_F_BUFFER);
	CHECK(cflags & IORING_CQE_F_BUF_MORE);
	CHECK_EQ(cflags >> IORING_CQE_BUFFER_SHIFT, 0);
	CHECK_EQ(io_uring_buf_ring_head(ring, 3, &head), 0);
	CHECK_EQ(head, 0);

	CHECK_EQ(send(sv[0], "abcdefghij", 10, 0), 10);
	ret = recv_select(ring, 3, &cflags);
	CHECK_EQ(ret, 10);
	CHECK(cflags & IORING_CQE_F_BUF_MORE);
	CHECK_EQ(cflags >> IORING_CQE_BUFFER_SHIFT, 0);
	CHECK(!memcmp(mem, "0123456789abcdefghij", 20));

	/* The remaining 44 bytes use it up: no BUF_MORE, head moves on. */
	{
		char big[BUF_LEN - 20];

		memset(big, 'z', sizeof(big));
		CHECK_EQ(send(sv[0], big, sizeof(big), 0), (int) sizeof(big));
	}
	ret = recv_select(ring, 3, &cflags);
	CHECK_EQ(ret, BUF_LEN - 20);
	CHECK(!(cflags & IORING_CQE_F_BUF_MORE));
	CHECK_EQ(io_uring_buf_ring_head(ring, 3, &head), 0);
	CHECK_EQ(head, 1);
	CHECK_EQ(mem[BUF_LEN - 1], 'z');
	CHECK_EQ(io_uring_free_buf_ring(ring, br, 4, 3), 0);
}

static void test_register_app_memory(struct io_uring *ring)
{
	static char mem[4 * BUF_LEN];
	struct io_uring_buf_ring *br;
	struct io_uring_buf_reg reg;
	unsigned cflags;
	void *ptr;

	/* The kernel wants an application ring page-aligned: the page of this
	 * machine (16K and 64K pages exist), not 4096. */
	long page = sysconf(_SC_PAGESIZE);

	CHECK(page > 0);
	CHECK_EQ(posix_memalign(&ptr, (size_t) page, (size_t) page), 0);
	br = ptr;
	io_uring_buf_ring_init(br);
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long) br;
	reg.ring_entries = 4;
	reg.bgid = 4;
	CHECK_EQ(io_uring_register_buf_ring(ring, &reg, 0), 0);
	CHECK_EQ(io_uring_register_buf_ring(ring, &reg, 0), -EEXIST);
	/* The flags argument is ORed into reg->flags, which keeps it. */
	reg.bgid = 5;
	CHECK_EQ(io_uring_register_buf_ring(ring, &reg, 0x8000), -EINVAL);
	CHECK_EQ(reg.flags, 0x8000);

	add_bufs(br, 4, mem, 4, BUF_LEN);
	CHECK_EQ(send(sv[0], "app", 3, 0), 3);
	CHECK_EQ(recv_select(ring, 4, &cflags), 3);
	CHECK(!memcmp(mem + (cflags >> IORING_CQE_BUFFER_SHIFT) * BUF_LEN, "app", 3));
	CHECK_EQ(io_uring_unregister_buf_ring(ring, 4), 0);
	CHECK_EQ(io_uring_unregister_buf_ring(ring, 4),
		 check_kernel_version() >= 6012 ? -ENOENT : -EINVAL); /* as above */
	free(ptr);
}

static void test_kernel_memory(struct io_uring *ring)
{
	static char mem[8 * BUF_LEN];
	struct io_uring_buf_ring *br;
	unsigned cflags;
	int err = 0, ret;

	br = io_uring_setup_buf_ring(ring, 8, 6, IOU_PBUF_RING_MMAP, &err);
	/* Kernel-allocated buffer rings arrived in 6.4. */
	if (check_kernel_version() < 6004) {
		CHECK(br == NULL);
		CHECK_EQ(err, -EINVAL);
		check_note("kernel memory part: IOU_PBUF_RING_MMAP refused before 6.4");
		return;
	}
	if (!br)
		FAIL("setup_buf_ring(IOU_PBUF_RING_MMAP): %d", err);
	CHECK_EQ(br->tail, 0);
	add_bufs(br, 8, mem, 8, BUF_LEN);
	CHECK_EQ(send(sv[0], "kernel", 6, 0), 6);
	ret = recv_select(ring, 6, &cflags);
	CHECK_EQ(ret, 6);
	CHECK(!memcmp(mem + (cflags >> IORING_CQE_BUFFER_SHIFT) * BUF_LEN, "kernel", 6));
	CHECK_EQ(io_uring_free_buf_ring(ring, br, 8, 6), 0);
}

int main(void)
{
	struct io_uring ring;

	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	check_ring_init(&ring, 8, 0);
	test_basic(&ring);
	test_incremental(&ring);
	test_register_app_memory(&ring);
	test_kernel_memory(&ring);
	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
