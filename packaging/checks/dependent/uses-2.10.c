// SPDX-License-Identifier: MIT
// A program built against liburing-rs-dev that needs more than Debian 12's
// liburing2 (2.3) and Debian 13's (2.9) export: io_uring_queue_init_mem
// (LIBURING_2.5) and io_uring_set_iowait (LIBURING_2.10). make
// check-debian-releases packages it, installs it and runs it.
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	struct io_uring ring;
	struct io_uring_params p;
	size_t len = 1 << 20;
	void *mem = aligned_alloc(1 << 16, len);
	int ret;

	if (!mem)
		return 1;
	memset(&p, 0, sizeof(p));
	ret = io_uring_queue_init_mem(8, &ring, &p, mem, len);
	printf("io_uring_queue_init_mem: %d\n", ret);
	if (ret >= 0) {
		printf("io_uring_set_iowait: %d\n", io_uring_set_iowait(&ring, false));
		io_uring_queue_exit(&ring);
	}
	free(mem);
	return ret >= 0 ? 0 : 2;
}
