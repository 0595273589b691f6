/* SPDX-License-Identifier: MIT */
/*
 * Registered wait arguments. liburing 2.15's io_uring_register_wait_reg()
 * is a stub that always fails with -EINVAL; the working interface is a
 * memory region registered with IORING_MEM_REGION_REG_WAIT_ARG (before the
 * ring is enabled), whose io_uring_reg_wait slots io_uring_submit_and_wait_reg()
 * then names by index.
 */
#include <sys/mman.h>

#include "check.h"

int main(void)
{
	struct io_uring_mem_region_reg mr;
	struct io_uring_region_desc rd;
	struct io_uring_reg_wait *rw;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	long long t0, dt;
	size_t page = sysconf(_SC_PAGESIZE);
	int ret;

	check_ring_init(&ring, 8, 0);
	rw = calloc(1, sizeof(*rw));
	CHECK_EQ(io_uring_register_wait_reg(&ring, rw, 1), -EINVAL);
	CHECK_EQ(io_uring_register_wait_reg(&ring, NULL, 0), -EINVAL);
	free(rw);
	io_uring_queue_exit(&ring);

	REQUIRE_KERNEL(IORING_SETUP_R_DISABLED);
	REQUIRE_KERNEL(IORING_REGISTER_MEM_REGION);
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_R_DISABLED);
	CHECK_EQ(ret, 0);

	rw = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(rw != MAP_FAILED);
	memset(&rd, 0, sizeof(rd));
	rd.user_addr = (unsigned long) rw;
	rd.size = page;
	rd.flags = IORING_MEM_REGION_TYPE_USER;
	memset(&mr, 0, sizeof(mr));
	mr.region_uptr = (unsigned long) &rd;
	mr.flags = IORING_MEM_REGION_REG_WAIT_ARG;
	ret = io_uring_register_region(&ring, &mr);
	CHECK_EQ(ret, 0);
	/* Only one such region. */
	CHECK(io_uring_register_region(&ring, &mr) < 0);
	CHECK_EQ(io_uring_enable_rings(&ring), 0);

	/* Slot 1: a 50 ms timeout. */
	rw[1].ts.tv_sec = 0;
	rw[1].ts.tv_nsec = 50 * 1000000;
	rw[1].flags = IORING_REG_WAIT_TS;

	t0 = check_now_ms();
	ret = io_uring_submit_and_wait_reg(&ring, &cqe, 1, 1);
	dt = check_now_ms() - t0;
	CHECK_EQ(ret, -ETIME);
	CHECKM(dt >= 45 && dt < 2000, "wait took %lld ms", dt);

	/* With a NOP queued the same wait returns its CQE. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = 77;
	ret = io_uring_submit_and_wait_reg(&ring, &cqe, 1, 1);
	CHECKM(ret >= 0, "submit_and_wait_reg: %d", ret);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 77);
	io_uring_cqe_seen(&ring, cqe);

	/* An index outside the region is refused. */
	ret = io_uring_submit_and_wait_reg(&ring, &cqe, 1,
					   page / sizeof(struct io_uring_reg_wait));
	CHECK_EQ(ret, -EFAULT);

	io_uring_queue_exit(&ring);
	munmap(rw, page);
	printf("PASS\n");
	return 0;
}
