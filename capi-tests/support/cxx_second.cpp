// SPDX-License-Identifier: MIT
// Second C++ translation unit including liburing.h (see cxx_main.cpp): the
// header's inline functions must not clash at link time.
#include <liburing.h>

// Declared as cxx_main.cpp declares it (-Wmissing-prototypes).
int second_unit_roundtrip(struct io_uring *ring, unsigned n);

int second_unit_roundtrip(struct io_uring *ring, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
		if (!sqe)
			return -1;
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 1000 + i);
	}
	if (io_uring_submit_and_wait(ring, n) != static_cast<int>(n))
		return -2;
	struct io_uring_cqe *cqes[64];
	unsigned got = io_uring_peek_batch_cqe(ring, cqes, 64);
	if (got != n)
		return -3;
	for (unsigned i = 0; i < got; i++)
		if (cqes[i]->res != 0 || io_uring_cqe_get_data64(cqes[i]) < 1000)
			return -4;
	io_uring_cq_advance(ring, got);
	return 0;
}
