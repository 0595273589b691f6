/* SPDX-License-Identifier: MIT */
/*
 * io_uring_register_clock: the clock wait timeouts are measured against
 * (CLOCK_MONOTONIC or CLOCK_BOOTTIME); others and reserved bits are refused,
 * and timed waits keep their length after switching.
 */
#include "check.h"

static void timed_wait(struct io_uring *ring)
{
	struct __kernel_timespec ts = check_kts_ms(50);
	struct io_uring_cqe *cqe;
	long long t0 = check_now_ms(), dt;

	CHECK_EQ(io_uring_wait_cqe_timeout(ring, &cqe, &ts), -ETIME);
	dt = check_now_ms() - t0;
	CHECKM(dt >= 45 && dt < 2000, "50 ms wait took %lld ms", dt);
}

int main(void)
{
	struct io_uring_clock_register reg;
	struct io_uring ring;
	int ret;

	check_ring_init(&ring, 4, 0);
	memset(&reg, 0, sizeof(reg));
	reg.clockid = CLOCK_BOOTTIME;
	REQUIRE_KERNEL(IORING_REGISTER_CLOCK);
	ret = io_uring_register_clock(&ring, &reg);
	CHECK_EQ(ret, 0);
	timed_wait(&ring);

	reg.clockid = CLOCK_MONOTONIC;
	CHECK_EQ(io_uring_register_clock(&ring, &reg), 0);
	timed_wait(&ring);

	reg.clockid = CLOCK_REALTIME;
	CHECK_EQ(io_uring_register_clock(&ring, &reg), -EINVAL);
	reg.clockid = CLOCK_MONOTONIC;
	reg.__resv[1] = 1;
	CHECK_EQ(io_uring_register_clock(&ring, &reg), -EINVAL);

	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
