/* SPDX-License-Identifier: MIT */
/*
 * io_uring_register_probe: the kernel fills a zeroed probe with the opcodes
 * it knows; a probe with garbage in it is refused; a small probe gets only
 * the room it has. Cross-checked with the probe helpers.
 */
#include "check.h"

int main(void)
{
	struct io_uring_probe *p, *q;
	struct io_uring ring;
	size_t len = sizeof(*p) + 256 * sizeof(struct io_uring_probe_op);
	int ret, i;

	check_ring_init(&ring, 4, 0);
	p = calloc(1, len);
	REQUIRE_KERNEL(IORING_REGISTER_PROBE);
	ret = io_uring_register_probe(&ring, p, 256);
	CHECK_EQ(ret, 0);
	CHECK(p->last_op >= IORING_OP_READ);
	CHECK(p->ops_len > IORING_OP_READ);
	/* Room for 256 entries: one filled per opcode the kernel knows. */
	CHECK_EQ(p->ops_len, p->last_op + 1);
	CHECK(p->ops[IORING_OP_NOP].flags & IO_URING_OP_SUPPORTED);
	CHECK(p->ops[IORING_OP_READ].flags & IO_URING_OP_SUPPORTED);
	for (i = 0; i < p->ops_len; i++)
		CHECK_EQ(p->ops[i].op, i);
	CHECK(io_uring_opcode_supported(p, IORING_OP_NOP));

	/* Same answer through the helper. */
	q = io_uring_get_probe_ring(&ring);
	CHECK(q != NULL);
	CHECK_EQ(q->last_op, p->last_op);
	CHECK_EQ(q->ops_len, p->ops_len);
	io_uring_free_probe(q);

	/* Not zeroed: refused. */
	memset(p, 0, len);
	p->resv2[0] = 1;
	CHECK_EQ(io_uring_register_probe(&ring, p, 256), -EINVAL);

	/* Room for 2 ops only. */
	memset(p, 0, len);
	CHECK_EQ(io_uring_register_probe(&ring, p, 2), 0);
	CHECK_EQ(p->ops_len, 2);
	CHECK(p->ops[1].flags & IO_URING_OP_SUPPORTED);
	CHECK_EQ(p->ops[2].flags, 0);

	free(p);
	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
