/* SPDX-License-Identifier: MIT */
/* Ask for the best setup flags first and fall back on older kernels. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>

static const struct {
	unsigned flags;
	const char *name;
} choices[] = {
	{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	  "SINGLE_ISSUER|DEFER_TASKRUN" },
	{ IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	  "COOP_TASKRUN|TASKRUN_FLAG" },
	{ 0, "no flags" },
};

int main(void)
{
	struct io_uring ring;
	struct io_uring_params p;

	for (unsigned i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		int ret;

		memset(&p, 0, sizeof(p));
		p.flags = choices[i].flags | IORING_SETUP_CQSIZE;
		p.cq_entries = 256;
		ret = io_uring_queue_init_params(16, &ring, &p);
		if (ret == -EINVAL)
			continue;
		if (ret < 0)
			return 1;
		printf("set up with %s: %u SQEs, %u CQEs, features 0x%x\n",
		       choices[i].name, p.sq_entries, p.cq_entries, p.features);
		if (p.features & IORING_FEAT_NODROP)
			printf("the kernel keeps overflowing completions\n");
		io_uring_queue_exit(&ring);
		return 0;
	}
	return 1;
}
