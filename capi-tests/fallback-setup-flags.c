/* SPDX-License-Identifier: MIT */
/*
 * Setup flags the running kernel may not know: SUBMIT_ALL (5.18),
 * COOP_TASKRUN and TASKRUN_FLAG (5.19), SQE128 and CQE32 (5.19),
 * SINGLE_ISSUER (6.0), DEFER_TASKRUN (6.1), NO_SQARRAY (6.6). For each set,
 * io_uring_queue_init must return what a raw io_uring_setup(2) of the same
 * flags returns (0, or the same -errno), as upstream liburing does. And a
 * plain io_uring_queue_init asks for NO_SQARRAY and, where the kernel
 * refuses it with EINVAL, sets up again without it: the ring has the flag
 * exactly where the kernel accepts it.
 */
#include "check.h"

#include <sys/syscall.h>

static int raw_setup(unsigned flags)
{
	struct io_uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	fd = syscall(__NR_io_uring_setup, 8, &p);
	if (fd < 0)
		return -errno;
	close((int) fd);
	return 0;
}

static const struct {
	const char *name;
	unsigned flags;
} sets[] = {
	{ "SUBMIT_ALL", IORING_SETUP_SUBMIT_ALL },
	{ "COOP_TASKRUN", IORING_SETUP_COOP_TASKRUN },
	{ "COOP_TASKRUN|TASKRUN_FLAG", IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG },
	{ "SQE128", IORING_SETUP_SQE128 },
	{ "CQE32", IORING_SETUP_CQE32 },
	{ "SINGLE_ISSUER", IORING_SETUP_SINGLE_ISSUER },
	{ "SINGLE_ISSUER|DEFER_TASKRUN", IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN },
	{ "DEFER_TASKRUN alone", IORING_SETUP_DEFER_TASKRUN },
	{ "NO_SQARRAY", IORING_SETUP_NO_SQARRAY },
};

int main(void)
{
	struct io_uring ring;
	int raw, ret, nosq;
	size_t i;

	if (raw_setup(0) < 0)
		SKIP("io_uring_setup: %s", strerror(-raw_setup(0)));
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		raw = raw_setup(sets[i].flags);
		check_note("%-28s kernel %d", sets[i].name, raw);
		ret = io_uring_queue_init(8, &ring, sets[i].flags);
		CHECKM(ret == raw, "%s: io_uring_queue_init gave %d, the kernel %d", sets[i].name,
		       ret, raw);
		if (ret == 0) {
			CHECK_EQ(ring.flags & sets[i].flags, sets[i].flags);
			check_nop_roundtrip(&ring, 4, 1);
			io_uring_queue_exit(&ring);
		}
	}
	nosq = raw_setup(IORING_SETUP_NO_SQARRAY) == 0;
	check_note("path: %s", nosq ? "NO_SQARRAY taken by default"
				    : "NO_SQARRAY refused, set up again without it");
	check_ring_init(&ring, 8, 0);
	CHECK_EQ(!!(ring.flags & IORING_SETUP_NO_SQARRAY), nosq);
	check_nop_roundtrip(&ring, 8, 1);
	io_uring_queue_exit(&ring);
	return 0;
}
