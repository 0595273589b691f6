/* SPDX-License-Identifier: MIT */
/*
 * io_uring_mlock_size*() and io_uring_memory_size*(): sizes are positive page
 * multiples, grow with entries and with SQE128/CQE32, shrink with
 * NO_SQARRAY, follow CQSIZE; errors for bad counts; mlock size is 0 on
 * kernels that account ring memory to the cgroup (IORING_FEAT_NATIVE_WORKERS)
 * and otherwise equals the memory size; io_uring_queue_init_mem() needs
 * exactly memory_size bytes (one byte or page less fails with -ENOMEM).
 */
#include "check.h"

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct io_uring_params p;
	struct io_uring ring;
	ssize_t s8, s64, s4096, big, nosq, m;
	unsigned feats = check_kernel_features();
	void *buf;
	int ret;

	s8 = io_uring_memory_size(8, 0);
	s64 = io_uring_memory_size(64, 0);
	s4096 = io_uring_memory_size(4096, 0);
	CHECK(s8 > 0);
	CHECK_EQ(s8 % page, 0);
	CHECK_EQ(s64 % page, 0);
	CHECK_EQ(s4096 % page, 0);
	CHECK(s8 <= s64 && s64 < s4096);
	/* At least the SQEs (64 B) and CQEs (16 B, twice as many) must fit. */
	CHECK(s4096 >= 4096 * 64 + 8192 * 16);
	/* Rounding: 5 entries cost what 8 cost. */
	CHECK_EQ(io_uring_memory_size(5, 0), s8);
	/* Bigger entries need more room. */
	big = io_uring_memory_size(4096, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	CHECK(big >= 4096 * 128 + 8192 * 32);
	CHECK(big > s4096);
	nosq = io_uring_memory_size(4096, IORING_SETUP_NO_SQARRAY);
	CHECK(nosq <= s4096);
	CHECK(nosq >= 4096 * 64 + 8192 * 16);
	/* Clamped counts. */
	CHECK_EQ(io_uring_memory_size(100000, IORING_SETUP_CLAMP),
		 io_uring_memory_size(32768, 0));
	CHECK_EQ(io_uring_memory_size(0, 0), -EINVAL);
	CHECK_EQ(io_uring_memory_size(32769, 0), -EINVAL);

	/* CQSIZE through the params variant. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 8192;
	m = io_uring_memory_size_params(8, &p);
	CHECK(m >= 8192 * 16);
	CHECK(m > s8);
	/* The params are not modified. */
	CHECK_EQ(p.cq_entries, 8192);
	CHECK_EQ(p.flags, IORING_SETUP_CQSIZE);

	/* mlock size. */
	m = io_uring_mlock_size(64, 0);
	if (feats & IORING_FEAT_NATIVE_WORKERS)
		CHECK_EQ(m, 0);
	else
		CHECK_EQ(m, s64);
	memset(&p, 0, sizeof(p));
	m = io_uring_mlock_size_params(64, &p);
	if (feats & IORING_FEAT_NATIVE_WORKERS)
		CHECK_EQ(m, 0);
	else
		CHECK_EQ(m, s64);
	CHECK_EQ(io_uring_mlock_size(0, 0), -EINVAL);

	/* queue_init_mem takes exactly memory_size_params bytes. */
	if (check_setup_flags_supported(8, IORING_SETUP_NO_MMAP) == 0) {
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_NO_MMAP | IORING_SETUP_NO_SQARRAY;
		m = io_uring_memory_size_params(256, &p);
		CHECK(m > 0);
		buf = mmap(NULL, (size_t) m, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(buf != MAP_FAILED);
		ret = io_uring_queue_init_mem(256, &ring, &p, buf, (size_t) m - 1);
		CHECK_EQ(ret, -ENOMEM);
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_NO_MMAP | IORING_SETUP_NO_SQARRAY;
		ret = io_uring_queue_init_mem(256, &ring, &p, buf, (size_t) m);
		CHECK_EQ(ret, m);
		check_nop_roundtrip(&ring, 256, 1);
		io_uring_queue_exit(&ring);
		munmap(buf, (size_t) m);
	}
	return 0;
}
