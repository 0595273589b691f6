/* SPDX-License-Identifier: MIT */
/*
 * Provided buffer rings on kernels with and without
 * IORING_REGISTER_PBUF_RING (5.19) and incremental consumption
 * (IOU_PBUF_RING_INC, 6.12). The kernel's answer is asked first with raw
 * io_uring_register(2) calls on a ring of our own; then
 * io_uring_register_buf_ring and io_uring_setup_buf_ring must give the same
 * (setup_buf_ring: NULL and the error in *err where refused), as upstream
 * liburing does.
 */
#include "check.h"

#include <sys/syscall.h>

#define ENTRIES 8

/* Registers a ring of ENTRIES buffers at group 1 and unregisters it: 0 or -errno. */
static int raw_pbuf(int fd, unsigned short flags)
{
	struct io_uring_buf_reg reg;
	void *mem;
	int ret;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long) mem;
	reg.ring_entries = ENTRIES;
	reg.bgid = 1;
	reg.flags = flags;
	ret = (int) syscall(__NR_io_uring_register, fd, IORING_REGISTER_PBUF_RING, &reg, 1);
	if (ret < 0) {
		ret = -errno;
	} else {
		memset(&reg, 0, sizeof(reg));
		reg.bgid = 1;
		CHECK(syscall(__NR_io_uring_register, fd, IORING_UNREGISTER_PBUF_RING, &reg, 1) == 0);
	}
	munmap(mem, 4096);
	return ret;
}

int main(void)
{
	struct io_uring_buf_ring *br;
	struct io_uring_buf_reg reg;
	struct io_uring_params p;
	struct io_uring ring;
	int raw, raw_inc, ret, err;
	void *mem;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		SKIP("io_uring_setup: %s", strerror(errno));
	raw = raw_pbuf((int) fd, 0);
	raw_inc = raw_pbuf((int) fd, IOU_PBUF_RING_INC);
	close((int) fd);
	check_note("path: buffer rings %s (kernel %d), incremental %s (kernel %d)",
		   raw == 0 ? "taken" : "refused", raw, raw_inc == 0 ? "taken" : "refused", raw_inc);

	check_ring_init(&ring, 8, 0);
	/* The program's own memory. */
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long) mem;
	reg.ring_entries = ENTRIES;
	reg.bgid = 3;
	ret = io_uring_register_buf_ring(&ring, &reg, 0);
	CHECK_EQ(ret, raw);
	if (ret == 0)
		CHECK_EQ(io_uring_unregister_buf_ring(&ring, 3), 0);
	munmap(mem, 4096);

	/* Memory the library maps. */
	err = 12345;
	br = io_uring_setup_buf_ring(&ring, ENTRIES, 4, 0, &err);
	if (raw == 0) {
		CHECK(br != NULL);
		CHECK_EQ(io_uring_free_buf_ring(&ring, br, ENTRIES, 4), 0);
	} else {
		CHECK(br == NULL);
		CHECK_EQ(err, raw);
	}
	err = 12345;
	br = io_uring_setup_buf_ring(&ring, ENTRIES, 5, IOU_PBUF_RING_INC, &err);
	if (raw_inc == 0) {
		CHECK(br != NULL);
		CHECK_EQ(io_uring_free_buf_ring(&ring, br, ENTRIES, 5), 0);
	} else {
		CHECK(br == NULL);
		CHECK_EQ(err, raw_inc);
	}
	/* The ring is still good for everything else. */
	check_nop_roundtrip(&ring, 4, 1);
	io_uring_queue_exit(&ring);
	return 0;
}
