/* SPDX-License-Identifier: MIT */
/*
 * Registered ring fd for io_uring_enter: io_uring_register_ring_fd() returns
 * 1 and switches enter_ring_fd to the registered index; NOP round trips and
 * waits work through it; io_uring_close_ring_fd() closes the real fd (ring_fd
 * becomes -1) and the ring keeps working; unregister switches back.  Also on
 * SQPOLL and DEFER_TASKRUN rings.
 */
#include "check.h"

#include <sys/stat.h>

static int fd_is_open(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0;
}

static void exercise(struct io_uring *ring, unsigned long long base)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = check_kts_ms(10);

	check_nop_roundtrip(ring, 1, base);
	check_nop_roundtrip(ring, 8, base + 10);
	/* A wait that enters the kernel and times out. */
	CHECK_EQ(io_uring_wait_cqe_timeout(ring, &cqe, &ts), -ETIME);
	CHECK_EQ(io_uring_get_events(ring), 0);
}

/* `part` names the run for skips.tsv; it runs when the raw probe finds
 * `need` (a name of man/kernel-releases.tsv) in the kernel. */
static void run(unsigned flags, unsigned long long base, const char *part, const char *need)
{
	struct io_uring_params p;
	struct io_uring ring;
	int fd, ret;

	if (need && !check_kernel_has_part_at(__FILE__, __LINE__, part, need))
		return;
	memset(&p, 0, sizeof(p));
	p.flags = flags;
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECK_EQ(ret, 0);
	fd = ring.ring_fd;

	/* Register, use, unregister, use. */
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	CHECK(ring.enter_ring_fd >= 0);
	CHECK(ring.int_flags & IORING_ENTER_REGISTERED_RING);
	CHECK_EQ(ring.ring_fd, fd);
	exercise(&ring, base);
	CHECK_EQ(io_uring_unregister_ring_fd(&ring), 1);
	CHECK_EQ(ring.enter_ring_fd, fd);
	CHECK(!(ring.int_flags & IORING_ENTER_REGISTERED_RING));
	exercise(&ring, base + 100);

	/* Register again and close the real fd: the ring lives on. */
	CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
	if (ring.features & IORING_FEAT_REG_REG_RING) {
		CHECK_EQ(io_uring_close_ring_fd(&ring), 1);
		CHECK_EQ(ring.ring_fd, -1);
		CHECK(!fd_is_open(fd));
		CHECK_EQ(io_uring_close_ring_fd(&ring), -EBADF);
		exercise(&ring, base + 200);
		/* Registration calls still reach the ring (through the registered fd). */
		{
			struct io_uring_probe *pr = io_uring_get_probe_ring(&ring);

			CHECK(pr != NULL);
			CHECK(io_uring_opcode_supported(pr, IORING_OP_NOP));
			io_uring_free_probe(pr);
		}
	} else {
		CHECK_EQ(io_uring_close_ring_fd(&ring), -EOPNOTSUPP);
	}
	io_uring_queue_exit(&ring);
}

int main(void)
{
	if (!check_kernel_ring_fds(NULL))
		SKIP("kernel lacks IORING_REGISTER_RING_FDS (5.18)");
	run(0, 1000, "plain", NULL);
	run(IORING_SETUP_SQPOLL, 2000, "sqpoll", "IORING_SETUP_SQPOLL");
	run(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, 3000, "defer",
	    "IORING_SETUP_DEFER_TASKRUN");
	run(IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG, 4000, "coop",
	    "IORING_SETUP_TASKRUN_FLAG");
	return 0;
}
