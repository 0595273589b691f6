/* SPDX-License-Identifier: MIT */
/*
 * io_uring_resize_rings on kernels with and without
 * IORING_REGISTER_RESIZE_RINGS (6.13). The kernel's answer to a resize is
 * asked first with raw system calls on a ring of our own with the same
 * setup flags. Where it refuses (EINVAL before 6.13), the library returns
 * exactly that error, also with more prepared-but-unsubmitted SQEs than the
 * new SQ would hold, clears p->flags, and leaves the ring as it was: the
 * prepared requests are still there and complete. Upstream liburing does
 * the same; our library used to answer -EOVERFLOW there, having counted the
 * SQEs before asking the kernel. On a kernel that resizes, the overflow
 * refusal is register-resize's (a deliberate difference from liburing).
 */
#include "check.h"

#include <sys/syscall.h>

#define PREPARED 6

/* The kernel's answer to resizing a fresh raw ring set up with `flags` to
 * an SQ of 4 and a CQ of 8: 0 or -errno. */
static int raw_resize(unsigned flags)
{
	struct io_uring_params p;
	long fd;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	fd = syscall(__NR_io_uring_setup, 8, &p);
	CHECKM(fd >= 0, "raw io_uring_setup: %s", strerror(errno));
	memset(&p, 0, sizeof(p));
	p.sq_entries = 4;
	p.cq_entries = 8;
	p.flags = IORING_SETUP_CQSIZE;
	ret = (int) syscall(__NR_io_uring_register, (int) fd, IORING_REGISTER_RESIZE_RINGS, &p, 1);
	if (ret < 0)
		ret = -errno;
	close((int) fd);
	return ret;
}

static int lib_resize(struct io_uring *ring)
{
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.sq_entries = 4;
	p.cq_entries = 8;
	p.flags = IORING_SETUP_CQSIZE;
	ret = io_uring_resize_rings(ring, &p);
	CHECK_EQ(p.flags, 0);
	return ret;
}

static void check_refused(unsigned flags, int raw, const char *what)
{
	struct io_uring_params p;
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned entries;
	int i;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	CHECK_EQ(io_uring_queue_init_params(8, &ring, &p), 0);
	entries = ring.sq.ring_entries;

	/* Nothing pending: the kernel's answer. */
	CHECK_EQ(lib_resize(&ring), raw);

	/* More prepared SQEs than the new SQ holds: still the kernel's answer,
	 * and the requests survive. */
	for (i = 0; i < PREPARED; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		CHECK(sqe != NULL);
		io_uring_prep_nop(sqe);
		sqe->user_data = 100 + (unsigned) i;
	}
	CHECK_EQ(lib_resize(&ring), raw);
	CHECK_EQ(ring.sq.ring_entries, entries);
	CHECK_EQ(io_uring_sq_ready(&ring), PREPARED);
	CHECK_EQ(io_uring_submit_and_wait(&ring, PREPARED), PREPARED);
	for (i = 0; i < PREPARED; i++) {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, 0);
		CHECK_EQ(cqe->user_data, 100 + (unsigned) i);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	check_note("%s ring: resize refused by the kernel with %d, the library gave the same", what,
		   raw);
}

int main(void)
{
	unsigned defer = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	int raw_plain, raw_defer = 0, has_defer;

	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring_setup refused");
	has_defer = check_setup_flags_supported(4, defer) == 0;
	raw_plain = raw_resize(0);
	if (has_defer)
		raw_defer = raw_resize(defer);
	check_note("path: the kernel answers a resize with %d (plain ring), %s", raw_plain,
		   has_defer ? (raw_defer == 0 ? "0 (DEFER_TASKRUN ring: it resizes)"
				: "an error (DEFER_TASKRUN ring)")
			     : "no DEFER_TASKRUN (6.1)");

	/* A ring without DEFER_TASKRUN is never resized (-EINVAL on every kernel). */
	CHECK(raw_plain < 0);
	check_refused(0, raw_plain, "plain");
	if (has_defer && raw_defer < 0)
		check_refused(defer, raw_defer, "DEFER_TASKRUN");
	else if (has_defer)
		check_note("DEFER_TASKRUN ring: the kernel resizes; register-resize covers it");
	return 0;
}
