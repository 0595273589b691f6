/* SPDX-License-Identifier: MIT */
/*
 * Calls every liburing-ffi helper whose prototype has an off_t or loff_t
 * parameter, as a separately compiled caller does (through the exported
 * function, not liburing.h's inline copy), and checks the SQE fields.
 * lfs-abi.sh builds it for i386 twice, with and without
 * _FILE_OFFSET_BITS=64, against src/ffi.c compiled as the Makefile compiles
 * it. The prototypes below are liburing.h's (include/liburing/prep.h).
 * Exit 0 when every field is as expected, 1 otherwise.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <liburing/io_uring.h>

void io_uring_prep_fadvise64(struct io_uring_sqe *sqe, int fd, __u64 offset, off_t len,
			     int advice);
void io_uring_prep_madvise64(struct io_uring_sqe *sqe, void *addr, off_t length, int advice);
void io_uring_prep_ftruncate(struct io_uring_sqe *sqe, int fd, loff_t len);

static int failed;

static void expect(const char *what, unsigned long long got, unsigned long long want)
{
	if (got != want) {
		printf("  %-36s 0x%llx, expected 0x%llx\n", what, got, want);
		failed = 1;
	}
}

int main(void)
{
	struct io_uring_sqe sqe;
	/* A length that fits any off_t, and (LFS) one that needs 64 bits. */
	off_t len = sizeof(off_t) == 8 ? (off_t)0x123456789LL : (off_t)0x12345678;
	static char page[4096];

	printf("caller: sizeof(off_t) = %zu\n", sizeof(off_t));
	memset(&sqe, 0xa5, sizeof(sqe));
	io_uring_prep_fadvise64(&sqe, 7, 0x1000000002ULL, len, 4);
	expect("fadvise64: opcode", sqe.opcode, IORING_OP_FADVISE);
	expect("fadvise64: fd", (unsigned)sqe.fd, 7);
	expect("fadvise64: off", sqe.off, 0x1000000002ULL);
	expect("fadvise64: addr (len)", sqe.addr, (unsigned long long)len);
	expect("fadvise64: fadvise_advice", sqe.fadvise_advice, 4);

	memset(&sqe, 0xa5, sizeof(sqe));
	io_uring_prep_madvise64(&sqe, page, len, 3);
	expect("madvise64: opcode", sqe.opcode, IORING_OP_MADVISE);
	expect("madvise64: addr", sqe.addr, (uintptr_t)page);
	expect("madvise64: off (length)", sqe.off, (unsigned long long)len);
	expect("madvise64: fadvise_advice", sqe.fadvise_advice, 3);

	memset(&sqe, 0xa5, sizeof(sqe));
	io_uring_prep_ftruncate(&sqe, 9, 0x123456789LL);
	expect("ftruncate: opcode", sqe.opcode, IORING_OP_FTRUNCATE);
	expect("ftruncate: fd", (unsigned)sqe.fd, 9);
	expect("ftruncate: off", sqe.off, 0x123456789ULL);

	printf("%s\n", failed ? "FAIL" : "ok: every field as expected");
	return failed;
}
