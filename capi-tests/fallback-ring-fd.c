/* SPDX-License-Identifier: MIT */
/*
 * Ring-fd registration on kernels with and without IORING_REGISTER_RING_FDS
 * (5.18) and IORING_FEAT_REG_REG_RING (6.3). Where the kernel refuses the
 * registration, io_uring_register_ring_fd returns the kernel's error, the
 * ring keeps entering through its plain fd, unregistering answers -EINVAL
 * and io_uring_close_ring_fd -EOPNOTSUPP (no REG_REG_RING) or -EINVAL.
 * The kernel's answer is asked first with raw system calls on a ring of our
 * own; the library must give the same, as upstream liburing does.
 */
#include "check.h"

#include <sys/syscall.h>

int main(void)
{
	struct io_uring_rsrc_update upd;
	struct io_uring_params p;
	struct io_uring ring;
	int raw, ret, reg_reg;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		SKIP("io_uring_setup: %s", strerror(errno));
	reg_reg = !!(p.features & IORING_FEAT_REG_REG_RING);
	memset(&upd, 0, sizeof(upd));
	upd.offset = -1U;
	upd.data = (__u64) fd;
	raw = (int) syscall(__NR_io_uring_register, (int) fd, IORING_REGISTER_RING_FDS, &upd, 1);
	if (raw < 0)
		raw = -errno;
	if (raw == 1) {
		upd.data = 0;
		CHECK_EQ(syscall(__NR_io_uring_register, (int) fd, IORING_UNREGISTER_RING_FDS, &upd, 1), 1);
	}
	close((int) fd);
	check_note("path: the kernel answers IORING_REGISTER_RING_FDS with %d%s", raw,
		   raw == 1 ? " (registered)" : " (refused)");
	check_note("IORING_FEAT_REG_REG_RING: %s", reg_reg ? "present" : "absent");

	check_ring_init(&ring, 8, 0);
	ret = io_uring_register_ring_fd(&ring);
	CHECK_EQ(ret, raw);
	check_nop_roundtrip(&ring, 4, 1);
	if (raw == 1) {
		CHECK_EQ(io_uring_register_ring_fd(&ring), -EEXIST);
		if (reg_reg) {
			/* The plain fd may go: the registered one carries the ring. */
			CHECK_EQ(io_uring_close_ring_fd(&ring), 1);
			check_nop_roundtrip(&ring, 4, 10);
		} else {
			CHECK_EQ(io_uring_close_ring_fd(&ring), -EOPNOTSUPP);
			CHECK_EQ(io_uring_unregister_ring_fd(&ring), 1);
			check_nop_roundtrip(&ring, 4, 10);
		}
	} else {
		CHECK_EQ(io_uring_unregister_ring_fd(&ring), -EINVAL);
		CHECK_EQ(io_uring_close_ring_fd(&ring), reg_reg ? -EINVAL : -EOPNOTSUPP);
		check_nop_roundtrip(&ring, 4, 10);
	}
	io_uring_queue_exit(&ring);
	return 0;
}
