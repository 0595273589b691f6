/* SPDX-License-Identifier: MIT */
/*
 * io_uring_resize_rings: the kernel moves pending CQEs (and submitted SQEs)
 * to new rings, and the library must follow: new masks and sizes, pointers
 * into the new mappings, the application's SQ counters kept, submissions
 * and completions working at the new sizes (growing and shrinking), the
 * overflow refusal leaving the ring intact, p->flags cleared afterwards
 * (once the kernel was asked), and the cases refused (not DEFER_TASKRUN,
 * IORING_SETUP_NO_MMAP).
 *
 * SQEs handed out but not yet submitted when the rings are resized are
 * carried over by our library; liburing 2.15 leaves zeroed SQEs in their
 * place, so that check fails on liburing 2.15 by design. When they would
 * not fit the new SQ the resize is refused with -EOVERFLOW before the kernel
 * is asked, and the ring stays as it was (liburing 2.15 loses them). A ring
 * with an SQ index array (set up by hand here: the library prefers
 * NO_SQARRAY) is resized too: the kernel does not report where its new array
 * is, and liburing 2.15 writes the identity map over the ring's head and tail.
 */
#include "check.h"

static void prep_nops(struct io_uring *ring, unsigned n, __u64 base)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		CHECK(sqe != NULL);
		io_uring_prep_nop(sqe);
		sqe->user_data = base + i;
	}
}

/* Reap n CQEs, expecting user_data base..base+n-1 in order. */
static void reap_in_order(struct io_uring *ring, unsigned n, __u64 base)
{
	struct io_uring_cqe *cqe;
	unsigned i;

	for (i = 0; i < n; i++) {
		CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
		if (cqe->user_data != base + i)
			FAIL("CQE %u: user_data %llu, expected %llu", i,
			     (unsigned long long) cqe->user_data,
			     (unsigned long long) (base + i));
		io_uring_cqe_seen(ring, cqe);
	}
}

static void check_sizes(struct io_uring *ring, unsigned sq, unsigned cq)
{
	CHECK_EQ(ring->sq.ring_entries, sq);
	CHECK_EQ(ring->sq.ring_mask, sq - 1);
	CHECK_EQ(*ring->sq.kring_entries, sq);
	CHECK_EQ(*ring->sq.kring_mask, sq - 1);
	CHECK_EQ(ring->cq.ring_entries, cq);
	CHECK_EQ(ring->cq.ring_mask, cq - 1);
	CHECK_EQ(*ring->cq.kring_entries, cq);
	CHECK_EQ(*ring->cq.kring_mask, cq - 1);
}

static int resize(struct io_uring *ring, unsigned sq, unsigned cq)
{
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.sq_entries = sq;
	p.cq_entries = cq;
	p.flags = IORING_SETUP_CQSIZE;
	ret = io_uring_resize_rings(ring, &p);
	CHECK_EQ(p.flags, 0);
	return ret;
}

/* Unsubmitted SQEs that do not fit: -EOVERFLOW, the ring untouched. */
static void check_unsubmitted_overflow(struct io_uring *ring, unsigned sq, __u64 base)
{
	struct io_uring_sqe *sqes = ring->sq.sqes;
	unsigned entries = ring->sq.ring_entries;

	prep_nops(ring, sq / 2 + 2, base);
	CHECK_EQ(resize(ring, sq / 2, sq), -EOVERFLOW);
	CHECK(ring->sq.sqes == sqes);
	CHECK_EQ(ring->sq.ring_entries, entries);
	CHECK_EQ(io_uring_sq_ready(ring), sq / 2 + 2);
	CHECK_EQ(io_uring_submit_and_wait(ring, sq / 2 + 2), (int) (sq / 2 + 2));
	reap_in_order(ring, sq / 2 + 2, base);
}

static void test_resize(unsigned extra_flags)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | extra_flags;
	REQUIRE_KERNEL(IORING_SETUP_DEFER_TASKRUN);
	REQUIRE_KERNEL(IORING_REGISTER_RESIZE_RINGS);
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);
	check_sizes(&ring, 8, 16);
	check_unsubmitted_overflow(&ring, 8, 10000);

	/* 10 unreaped CQEs, then 3 SQEs prepared but not submitted. */
	prep_nops(&ring, 8, 0);
	CHECK_EQ(io_uring_submit(&ring), 8);
	prep_nops(&ring, 2, 8);
	CHECK_EQ(io_uring_submit_and_wait(&ring, 2), 2);
	CHECK_EQ(io_uring_cq_ready(&ring), 10);
	prep_nops(&ring, 3, 100);

	ret = resize(&ring, 64, 256);
	CHECK_EQ(ret, 0);
	check_sizes(&ring, 64, 256);
	CHECK_EQ(io_uring_cq_ready(&ring), 10);
	CHECK_EQ(io_uring_sq_ready(&ring), 3);
	CHECK_EQ(io_uring_sq_space_left(&ring), 61);
	reap_in_order(&ring, 10, 0);

	CHECK_EQ(io_uring_submit_and_wait(&ring, 3), 3);
	/* SQEs prepared before the resize were carried over. */
	reap_in_order(&ring, 3, 100);

	/* The new sizes are usable: a batch larger than the old SQ. */
	check_nop_roundtrip(&ring, 64, 1000);

	/* Shrink. */
	CHECK_EQ(resize(&ring, 16, 32), 0);
	check_sizes(&ring, 16, 32);
	check_nop_roundtrip(&ring, 16, 2000);

	/* Pending CQEs that would not fit: refused, ring untouched. */
	prep_nops(&ring, 16, 3000);
	CHECK_EQ(io_uring_submit(&ring), 16);
	prep_nops(&ring, 16, 3016);
	CHECK_EQ(io_uring_submit_and_wait(&ring, 32), 16);
	CHECK_EQ(io_uring_cq_ready(&ring), 32);
	ret = resize(&ring, 8, 16);
	CHECK_EQ(ret, -EOVERFLOW);
	check_sizes(&ring, 16, 32);
	reap_in_order(&ring, 32, 3000);
	check_nop_roundtrip(&ring, 16, 4000);

	/* Through the registered ring fd, without a real fd. */
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	CHECK_EQ(resize(&ring, 32, 64), 0);
	check_sizes(&ring, 32, 64);
	check_nop_roundtrip(&ring, 32, 5000);
	if (ring.features & IORING_FEAT_REG_REG_RING) {
		CHECK_EQ(io_uring_close_ring_fd(&ring), 1);
		/* The new rings could not be mapped without an fd. */
		CHECK_EQ(resize(&ring, 64, 128), -EBADF);
		/* Refused before resizing: the ring is intact. */
		check_sizes(&ring, 32, 64);
		check_nop_roundtrip(&ring, 32, 6000);
	}
	io_uring_queue_exit(&ring);
}

/* A DEFER_TASKRUN ring that keeps its SQ index array. */
static void test_resize_sq_array(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	unsigned i;
	int fd;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	/* test_resize ran first: the kernel has DEFER_TASKRUN and resizing. */
	fd = io_uring_setup(8, &p);
	CHECK(fd >= 0);
	CHECK_EQ(io_uring_queue_mmap(fd, &p, &ring), 0);
	CHECK(ring.sq.array != NULL);
	for (i = 0; i < ring.sq.ring_entries; i++)
		ring.sq.array[i] = i;
	check_nop_roundtrip(&ring, 8, 10);

	check_unsubmitted_overflow(&ring, 8, 50);
	prep_nops(&ring, 5, 100);
	CHECK_EQ(resize(&ring, 32, 64), 0);
	check_sizes(&ring, 32, 64);
	CHECK(*ring.sq.khead == *ring.sq.ktail);
	CHECK_EQ(io_uring_sq_ready(&ring), 5);
	CHECK_EQ(io_uring_submit_and_wait(&ring, 5), 5);
	reap_in_order(&ring, 5, 100);
	/* More than the old SQ held, each SQE read from its own slot. */
	check_nop_roundtrip(&ring, 32, 200);
	io_uring_queue_exit(&ring);
}

static void test_refused(void)
{
	struct io_uring_params p;
	struct io_uring ring;
	/* Page-aligned whatever the page size (a 16 KiB-page kernel refuses
	 * ring memory aligned to 4 KiB only). */
	size_t mem_size = 1 << 20;
	void *mem = mmap(NULL, mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret;

	CHECK(mem != MAP_FAILED);

	/* Not DEFER_TASKRUN. */
	check_ring_init(&ring, 8, 0);
	CHECK_EQ(resize(&ring, 16, 32), -EINVAL);
	check_sizes(&ring, 8, 16);
	check_nop_roundtrip(&ring, 8, 1);
	io_uring_queue_exit(&ring);

	/* Application memory (liburing's own limitation). */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	/* NO_MMAP (6.5) is older than resizing (6.13), which test_resize required. */
	ret = io_uring_queue_init_mem(8, &ring, &p, mem, mem_size);
	CHECK(ret >= 0);
	memset(&p, 0, sizeof(p));
	p.sq_entries = 16;
	p.cq_entries = 32;
	p.flags = IORING_SETUP_CQSIZE;
	CHECK_EQ(io_uring_resize_rings(&ring, &p), -EINVAL);
	check_nop_roundtrip(&ring, 8, 1);
	io_uring_queue_exit(&ring);
	munmap(mem, mem_size);
}

int main(void)
{
	test_resize(0);
	test_resize(IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	test_resize_sq_array();
	test_refused();
	printf("PASS\n");
	return 0;
}
