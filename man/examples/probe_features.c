/* SPDX-License-Identifier: MIT */
/* What does this kernel offer? Feature bits from setup, opcodes from a probe. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	struct io_uring_params p;
	struct io_uring_probe *probe;
	struct io_uring ring;
	int supported = 0;

	memset(&p, 0, sizeof(p));
	if (io_uring_queue_init_params(4, &ring, &p) < 0)
		return 1;

	printf("features 0x%x\n", p.features);
	printf("  EXT_ARG (waits with a timeout, no timeout SQE): %s\n",
	       p.features & IORING_FEAT_EXT_ARG ? "yes" : "no");
	printf("  NODROP (overflowing CQEs are kept): %s\n",
	       p.features & IORING_FEAT_NODROP ? "yes" : "no");
	printf("  MIN_TIMEOUT (batch wait with a minimum): %s\n",
	       p.features & IORING_FEAT_MIN_TIMEOUT ? "yes" : "no");

	probe = io_uring_get_probe_ring(&ring);
	if (!probe) {
		printf("skip: the kernel cannot be probed (before Linux 5.6)\n");
		io_uring_queue_exit(&ring);
		return 0;
	}
	for (int op = 0; op <= probe->last_op; op++)
		supported += io_uring_opcode_supported(probe, op) != 0;
	printf("%d of %d opcodes supported; IORING_OP_SEND_ZC: %s\n", supported,
	       probe->last_op + 1,
	       io_uring_opcode_supported(probe, IORING_OP_SEND_ZC) ? "yes" : "no");
	io_uring_free_probe(probe);
	io_uring_queue_exit(&ring);
	return 0;
}
