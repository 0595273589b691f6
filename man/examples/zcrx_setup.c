/* SPDX-License-Identifier: MIT */
/*
 * Zero-copy receive: register an interface receive queue, then receive into
 * its area and hand buffers back through the refill ring.
 * Usage: zcrx_setup [interface [rx-queue]]    (default: lo 0)
 */
#include <liburing.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define AREA_SIZE (64 * 4096)
#define RQ_ENTRIES 256

/* What a registered queue gives the program. */
struct zcrx {
	char *area;
	__u32 id;
	__u64 area_token;
	__u32 *rq_head, *rq_tail;
	struct io_uring_zcrx_rqe *rqes;
};

/* Arm a multishot zero-copy receive on a connected TCP socket. */
static void prep_recv_zc(struct io_uring_sqe *sqe, int sockfd, const struct zcrx *z)
{
	io_uring_prep_rw(IORING_OP_RECV_ZC, sqe, sockfd, NULL, 0, 0);
	sqe->ioprio |= IORING_RECV_MULTISHOT;
	sqe->zcrx_ifq_idx = z->id;
}

/* Data of one completion, then the buffer goes back to the kernel. */
static void consume(struct zcrx *z, const struct io_uring_cqe *cqe)
{
	const struct io_uring_zcrx_cqe *rcqe = (const void *) (cqe + 1);
	__u64 offset = rcqe->off & ~IORING_ZCRX_AREA_MASK;
	struct io_uring_zcrx_rqe *rqe;
	__u32 tail = *z->rq_tail;

	printf("%d bytes at area offset %llu\n", cqe->res, (unsigned long long) offset);
	rqe = &z->rqes[tail & (RQ_ENTRIES - 1)];
	rqe->off = offset | z->area_token;
	rqe->len = (__u32) cqe->res;
	io_uring_smp_store_release(z->rq_tail, tail + 1);
}

int main(int argc, char **argv)
{
	const char *ifname = argc > 1 ? argv[1] : "lo";
	size_t rq_size = 4096 + RQ_ENTRIES * sizeof(struct io_uring_zcrx_rqe);
	struct io_uring_zcrx_area_reg area;
	struct io_uring_region_desc region;
	struct io_uring_zcrx_ifq_reg reg;
	struct io_uring ring;
	struct zcrx z;
	char *rq_mem;
	int ret;

	/* Zero-copy completions are 32 bytes; completion work runs on demand. */
	ret = io_uring_queue_init(8, &ring, IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_CQE32);
	if (ret < 0) {
		printf("skip: ring setup: %s\n", strerror(-ret));
		return 0;
	}
	z.area = mmap(NULL, AREA_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rq_mem = mmap(NULL, rq_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (z.area == MAP_FAILED || rq_mem == MAP_FAILED)
		return 1;

	memset(&area, 0, sizeof(area));
	area.addr = (__u64) (uintptr_t) z.area;
	area.len = AREA_SIZE;
	memset(&region, 0, sizeof(region));
	region.user_addr = (__u64) (uintptr_t) rq_mem;
	region.size = rq_size;
	region.flags = IORING_MEM_REGION_TYPE_USER;
	memset(&reg, 0, sizeof(reg));
	reg.if_idx = if_nametoindex(ifname);
	reg.if_rxq = argc > 2 ? (__u32) atoi(argv[2]) : 0;
	reg.rq_entries = RQ_ENTRIES;
	reg.area_ptr = (__u64) (uintptr_t) &area;
	reg.region_ptr = (__u64) (uintptr_t) &region;

	ret = io_uring_register_ifq(&ring, &reg);
	if (ret < 0) {
		/* Needs Linux 6.15, CAP_NET_ADMIN and a NIC with header split. */
		printf("skip: no zero-copy receive on %s: %s\n", ifname, strerror(-ret));
		io_uring_queue_exit(&ring);
		return 0;
	}
	z.id = reg.zcrx_id;
	z.area_token = area.rq_area_token;
	z.rq_head = (__u32 *) (rq_mem + reg.offsets.head);
	z.rq_tail = (__u32 *) (rq_mem + reg.offsets.tail);
	z.rqes = (struct io_uring_zcrx_rqe *) (rq_mem + reg.offsets.rqes);
	printf("zero-copy receive queue %u registered on %s\n", z.id, ifname);

	/*
	 * A server now accepts a TCP connection whose flow the NIC steers to
	 * this queue, arms prep_recv_zc() on it and calls consume() for each
	 * CQE. Without such a connection there is nothing to receive here.
	 */
	(void) prep_recv_zc;
	(void) consume;
	io_uring_queue_exit(&ring);
	return 0;
}
