/* SPDX-License-Identifier: MIT */
/*
 * NAPI busy-poll registration: settings go in, the previous ones come back
 * through the same struct, and unregistration accepts NULL.
 */
#include "check.h"

int main(void)
{
	struct io_uring_napi napi;
	struct io_uring ring;
	int ret;

	check_ring_init(&ring, 4, 0);
	memset(&napi, 0, sizeof(napi));
	napi.busy_poll_to = 100;
	napi.prefer_busy_poll = 1;
	REQUIRE_KERNEL(IORING_REGISTER_NAPI);
	ret = io_uring_register_napi(&ring, &napi);
	CHECK_EQ(ret, 0);
	/* The old settings (none) came back. */
	CHECK_EQ(napi.busy_poll_to, 0);
	CHECK_EQ(napi.prefer_busy_poll, 0);

	memset(&napi, 0, sizeof(napi));
	napi.busy_poll_to = 250;
	CHECK_EQ(io_uring_register_napi(&ring, &napi), 0);
	CHECK_EQ(napi.busy_poll_to, 100);
	CHECK_EQ(napi.prefer_busy_poll, 1);

	memset(&napi, 0xff, sizeof(napi));
	CHECK_EQ(io_uring_unregister_napi(&ring, &napi), 0);
	CHECK_EQ(napi.busy_poll_to, 250);
	CHECK_EQ(napi.prefer_busy_poll, 0);
	CHECK_EQ(io_uring_unregister_napi(&ring, NULL), 0);

	check_nop_roundtrip(&ring, 2, 1);
	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
