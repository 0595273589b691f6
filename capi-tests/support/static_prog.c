/* SPDX-License-Identifier: MIT */
/*
 * Linked statically against liburing.a by capi-tests/static_link.c.
 * Checks that no liburing shared object is loaded, then does NOP round trips,
 * a file write+read, a probe and a timed wait.  Exit 0 on success.
 */
#define _GNU_SOURCE
#include <link.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPECT(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "static_prog: line %d: %s\n",	\
				__LINE__, #c);				\
			exit(1);					\
		}							\
	} while (0)

static int saw_shared_liburing;

static int scan(struct dl_phdr_info *info, size_t size, void *data)
{
	(void) size;
	(void) data;
	if (info->dlpi_name && strstr(info->dlpi_name, "liburing")) {
		fprintf(stderr, "static_prog: %s is loaded\n", info->dlpi_name);
		saw_shared_liburing = 1;
	}
	return 0;
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring_probe *probe;
	struct __kernel_timespec ts = { 0, 20 * 1000 * 1000 };
	char path[] = "/tmp/capi-static.XXXXXX";
	char wbuf[512], rbuf[512];
	unsigned i, round;
	int fd;

	dl_iterate_phdr(scan, NULL);
	EXPECT(!saw_shared_liburing);

	EXPECT(io_uring_queue_init(32, &ring, 0) == 0);
	for (round = 0; round < 10; round++) {
		for (i = 0; i < 32; i++) {
			sqe = io_uring_get_sqe(&ring);
			EXPECT(sqe);
			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, round * 100 + i);
		}
		EXPECT(io_uring_submit_and_wait(&ring, 32) == 32);
		for (i = 0; i < 32; i++) {
			EXPECT(io_uring_peek_cqe(&ring, &cqe) == 0);
			EXPECT(cqe->res == 0);
			EXPECT(io_uring_cqe_get_data64(cqe) == round * 100 + i);
			io_uring_cqe_seen(&ring, cqe);
		}
	}

	fd = mkstemp(path);
	EXPECT(fd >= 0);
	unlink(path);
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (char) (i * 7 + 3);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, wbuf, sizeof(wbuf), 4096);
	EXPECT(io_uring_submit_and_wait(&ring, 1) == 1);
	EXPECT(io_uring_peek_cqe(&ring, &cqe) == 0);
	EXPECT(cqe->res == (int) sizeof(wbuf));
	io_uring_cqe_seen(&ring, cqe);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, rbuf, sizeof(rbuf), 4096);
	EXPECT(io_uring_submit_and_wait(&ring, 1) == 1);
	EXPECT(io_uring_peek_cqe(&ring, &cqe) == 0);
	EXPECT(cqe->res == (int) sizeof(rbuf));
	io_uring_cqe_seen(&ring, cqe);
	EXPECT(memcmp(wbuf, rbuf, sizeof(rbuf)) == 0);
	close(fd);

	probe = io_uring_get_probe_ring(&ring);
	EXPECT(probe);
	EXPECT(io_uring_opcode_supported(probe, IORING_OP_READ));
	io_uring_free_probe(probe);

	EXPECT(io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == -ETIME);
	io_uring_queue_exit(&ring);
	EXPECT(io_uring_major_version() == 2);
	printf("static_prog ok\n");
	return 0;
}
