/* SPDX-License-Identifier: MIT */
/*
 * An "old binary": compiled against Debian's liburing 2.3 headers and linked
 * to liburing.so.2, then run against the library under test (see run.sh).
 * It first proves which liburing the dynamic linker gave it (dladdr on
 * io_uring_submit must point into $COMPAT_EXPECT_DIR, and exactly one
 * liburing object may be mapped), then uses the ring the way a 2.3-era
 * program does: the 2.3 inline helpers (which read the deprecated
 * kring_mask/kring_entries pointers), NOP round trips in batches of 1, 32 and
 * 64, a file read, io_uring_wait_cqe_timeout, io_uring_for_each_cqe, the
 * exported io_uring_get_sqe symbol, and a probe.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPECT(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "compat prog: line %d: %s\n",	\
				__LINE__, #c);				\
			exit(1);					\
		}							\
	} while (0)

static void check_loaded_lib(void)
{
	const char *want = getenv("COMPAT_EXPECT_DIR");
	char want_real[PATH_MAX], got_real[PATH_MAX], line[4096], first[PATH_MAX] = "";
	Dl_info info;
	FILE *maps;
	size_t n;
	int objects = 0;

	EXPECT(want != NULL);
	EXPECT(realpath(want, want_real) != NULL);
	EXPECT(dladdr((void *) io_uring_submit, &info) != 0);
	EXPECT(info.dli_fname != NULL);
	EXPECT(realpath(info.dli_fname, got_real) != NULL);
	n = strlen(want_real);
	printf("io_uring_submit is in %s\n", got_real);
	if (strncmp(got_real, want_real, n) != 0 || got_real[n] != '/') {
		fprintf(stderr, "compat prog: liburing came from %s, expected %s\n",
			got_real, want_real);
		exit(1);
	}

	/* Exactly one liburing object mapped (no mix of ours and the system's). */
	maps = fopen("/proc/self/maps", "r");
	EXPECT(maps != NULL);
	while (fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');

		if (!path || !strstr(path, "liburing"))
			continue;
		path[strcspn(path, "\n")] = 0;
		if (!first[0]) {
			snprintf(first, sizeof(first), "%s", path);
			objects = 1;
		} else if (strcmp(first, path) != 0) {
			fprintf(stderr, "compat prog: two liburing objects: %s and %s\n", first, path);
			objects++;
		}
	}
	fclose(maps);
	EXPECT(objects == 1);
}

static void nop_batch(struct io_uring *ring, unsigned n, unsigned long long base)
{
	unsigned char seen[64] = { 0 };
	struct io_uring_cqe *cqe;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		EXPECT(sqe != NULL);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, base + i);
	}
	EXPECT(io_uring_submit(ring) == (int) n);
	for (i = 0; i < n; i++) {
		unsigned long long ud;

		EXPECT(io_uring_wait_cqe(ring, &cqe) == 0);
		EXPECT(cqe->res == 0);
		ud = io_uring_cqe_get_data64(cqe);
		EXPECT(ud >= base && ud < base + n && !seen[ud - base]);
		seen[ud - base] = 1;
		io_uring_cqe_seen(ring, cqe);
	}
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring_probe *probe;
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50 * 1000 * 1000 };
	struct io_uring_sqe *(*lib_get_sqe)(struct io_uring *);
	char path[] = "/tmp/capi-compat.XXXXXX";
	char wbuf[1000], rbuf[1000];
	unsigned i, head, count;
	unsigned long long sum;
	int fd, round;

	check_loaded_lib();

	EXPECT(io_uring_queue_init(64, &ring, 0) == 0);
	EXPECT(ring.sq.ring_entries == 64);
	/* 2.3-era helpers use these pointers. */
	EXPECT(ring.sq.kring_mask && *ring.sq.kring_mask == 63);
	EXPECT(ring.cq.kring_entries && *ring.cq.kring_entries == 128);

	for (round = 0; round < 20; round++) {
		nop_batch(&ring, 1, 1000 * round);
		nop_batch(&ring, 32, 1000 * round + 100);
		nop_batch(&ring, 64, 1000 * round + 200);
	}

	/* File read. */
	fd = mkstemp(path);
	EXPECT(fd >= 0);
	unlink(path);
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (char) (i * 13 + 1);
	EXPECT(pwrite(fd, wbuf, sizeof(wbuf), 512) == (ssize_t) sizeof(wbuf));
	memset(rbuf, 0, sizeof(rbuf));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, rbuf, sizeof(rbuf), 512);
	io_uring_sqe_set_data64(sqe, 4242);
	EXPECT(io_uring_submit(&ring) == 1);
	EXPECT(io_uring_wait_cqe(&ring, &cqe) == 0);
	EXPECT(cqe->user_data == 4242);
	EXPECT(cqe->res == (int) sizeof(rbuf));
	io_uring_cqe_seen(&ring, cqe);
	EXPECT(memcmp(rbuf, wbuf, sizeof(rbuf)) == 0);
	close(fd);

	/* Timed wait on an empty ring. */
	EXPECT(io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == -ETIME);
	/* Timed wait that succeeds. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 77);
	EXPECT(io_uring_submit(&ring) == 1);
	ts.tv_sec = 5;
	EXPECT(io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == 0);
	EXPECT(cqe->user_data == 77);
	io_uring_cqe_seen(&ring, cqe);

	/* CQ iteration with the 2.3 io_uring_for_each_cqe. */
	for (i = 0; i < 32; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, i + 1);
	}
	EXPECT(io_uring_submit_and_wait(&ring, 32) == 32);
	count = 0;
	sum = 0;
	io_uring_for_each_cqe(&ring, head, cqe) {
		EXPECT(cqe->res == 0);
		sum += cqe->user_data;
		count++;
	}
	EXPECT(count == 32);
	EXPECT(sum == 32 * 33 / 2);
	io_uring_cq_advance(&ring, count);
	EXPECT(io_uring_cq_ready(&ring) == 0);

	/* Binaries from before 2.2 call the exported io_uring_get_sqe. */
	lib_get_sqe = (struct io_uring_sqe *(*)(struct io_uring *)) dlsym(RTLD_DEFAULT,
									 "io_uring_get_sqe");
	EXPECT(lib_get_sqe != NULL);
	sqe = lib_get_sqe(&ring);
	EXPECT(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 99);
	EXPECT(io_uring_submit_and_wait(&ring, 1) == 1);
	EXPECT(io_uring_peek_cqe(&ring, &cqe) == 0);
	EXPECT(cqe->user_data == 99);
	io_uring_cqe_seen(&ring, cqe);

	probe = io_uring_get_probe_ring(&ring);
	EXPECT(probe != NULL);
	EXPECT(io_uring_opcode_supported(probe, IORING_OP_READ));
	io_uring_free_probe(probe);

	io_uring_queue_exit(&ring);
	printf("compat prog ok\n");
	return 0;
}
