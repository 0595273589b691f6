/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the C API tests (one program per capability, capi-tests/NAME.c).
 *
 * Conventions: a test is one program; exit 0 = pass, 77 = skip (after printing
 * "SKIP: <reason>"), anything else = fail (after printing what failed, with
 * file:line).  Everything here is static inline so a test that uses only a
 * part of it still builds with -Wall -Wextra -Werror.
 *
 * Other helpers may append small helpers at the end of this file.
 */
#ifndef CAPI_CHECK_H
#define CAPI_CHECK_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#define CHECK_EXIT_SKIP 77

/* ------------------------------------------------------------------ */
/* Failure reporting                                                   */
/* ------------------------------------------------------------------ */

__attribute__((noreturn, format(printf, 3, 4)))
static inline void check_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	exit(1);
}

__attribute__((noreturn, format(printf, 1, 2)))
static inline void check_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(CHECK_EXIT_SKIP);
}

/* Print a progress/info line (goes to the test's log). */
__attribute__((format(printf, 1, 2)))
static inline void check_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Render a result that may be a negative errno: "-22 (EINVAL: Invalid argument)". */
static inline const char *check_errstr(long long v, char *buf, size_t len)
{
	if (v < 0 && v > -4096) {
#ifdef __GLIBC__
		const char *name = strerrorname_np((int) -v);
#else
		/* musl has no errno-name lookup: the message alone. */
		const char *name = NULL;
#endif

		snprintf(buf, len, "%lld (%s: %s)", v, name ? name : "?",
			 strerror((int) -v));
	} else {
		snprintf(buf, len, "%lld", v);
	}
	return buf;
}

#define FAIL(...) check_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define SKIP(...) check_skip(__VA_ARGS__)

/* Boolean condition. */
#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			FAIL("check failed: %s", #cond);		\
	} while (0)

/* Same, with an explanation. */
#define CHECKM(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "  (%s)\n", #cond);		\
			FAIL(__VA_ARGS__);				\
		}							\
	} while (0)

/* Integer equality; values (and errno names for small negatives) are printed. */
#define CHECK_EQ(got_expr, want_expr)					\
	do {								\
		long long check_got_ = (long long) (got_expr);		\
		long long check_want_ = (long long) (want_expr);	\
		if (check_got_ != check_want_) {			\
			char check_b1_[96], check_b2_[96];		\
			FAIL("%s: got %s, expected %s (%s)", #got_expr,	\
			     check_errstr(check_got_, check_b1_, 96),	\
			     check_errstr(check_want_, check_b2_, 96),	\
			     #want_expr);				\
		}							\
	} while (0)

#define CHECK_NE(got_expr, bad_expr)					\
	do {								\
		long long check_got_ = (long long) (got_expr);		\
		long long check_bad_ = (long long) (bad_expr);		\
		if (check_got_ == check_bad_) {				\
			char check_b1_[96];				\
			FAIL("%s: got %s, which it must not be", #got_expr, \
			     check_errstr(check_got_, check_b1_, 96));	\
		}							\
	} while (0)

/* A liburing call returning 0 / -errno must succeed (any value >= 0). */
#define CHECK_OK(expr)							\
	do {								\
		long long check_r_ = (long long) (expr);		\
		if (check_r_ < 0) {					\
			char check_b1_[96];				\
			FAIL("%s failed: %s", #expr,			\
			     check_errstr(check_r_, check_b1_, 96));	\
		}							\
	} while (0)

/* ------------------------------------------------------------------ */
/* Time                                                                */
/* ------------------------------------------------------------------ */

static inline long long check_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline long long check_now_ms(void)
{
	return check_now_ns() / 1000000LL;
}

static inline void check_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline struct __kernel_timespec check_kts_ms(long ms)
{
	struct __kernel_timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000LL;
	return ts;
}

/* ------------------------------------------------------------------ */
/* Kernel feature probes                                               */
/* ------------------------------------------------------------------ */

/* Running kernel version as major*1000 + minor (6.18 -> 6018). */
static inline int check_kernel_version(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	if (uname(&u))
		return 0;
	if (sscanf(u.release, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
}

/*
 * Try to create a ring with the given setup flags (through the raw
 * io_uring_setup() wrapper, so the probe does not depend on the library's
 * ring setup code). Returns 0 when the kernel accepts them, else -errno.
 */
static inline int check_setup_flags_supported(unsigned entries, unsigned flags)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	fd = io_uring_setup(entries, &p);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Features reported by the kernel for a plain ring (0 when setup fails). */
static inline unsigned check_kernel_features(void)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	fd = io_uring_setup(4, &p);
	if (fd < 0)
		return 0;
	close(fd);
	return p.features;
}

/* Skip the test unless the kernel reports every bit of `feat`. */
#define REQUIRE_FEATURE(feat)						\
	do {								\
		if ((check_kernel_features() & (feat)) != (feat))	\
			SKIP("kernel lacks %s", #feat);			\
	} while (0)

/* Skip the test unless the kernel accepts these setup flags. */
#define REQUIRE_SETUP_FLAGS(entries, flags)				\
	do {								\
		int check_r_ = check_setup_flags_supported(entries, flags); \
		if (check_r_ < 0)					\
			SKIP("kernel rejects %s (%s)", #flags,		\
			     strerror(-check_r_));			\
	} while (0)

/* Whether the kernel supports opcode `op` (uses the library's probe API). */
static inline int check_opcode_supported(int op)
{
	struct io_uring_probe *p = io_uring_get_probe();
	int ret;

	if (!p)
		return 0;
	ret = io_uring_opcode_supported(p, op);
	io_uring_free_probe(p);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Ring helpers                                                        */
/* ------------------------------------------------------------------ */

/* io_uring_queue_init that fails the test on error. */
static inline void check_ring_init(struct io_uring *ring, unsigned entries, unsigned flags)
{
	int ret = io_uring_queue_init(entries, ring, flags);

	if (ret < 0) {
		char b[96];

		FAIL("io_uring_queue_init(%u, flags=0x%x): %s", entries, flags,
		     check_errstr(ret, b, sizeof(b)));
	}
}

/*
 * Submit `n` NOPs carrying user_data base..base+n-1 in one io_uring_submit,
 * then reap them all, checking each user_data is seen exactly once and res==0.
 * `n` must fit in the SQ; the CQ must hold n entries.
 */
static inline void check_nop_roundtrip_at(const char *file, int line,
					  struct io_uring *ring, unsigned n,
					  unsigned long long base)
{
	unsigned char seen[1024];
	unsigned i, got = 0;
	int ret;

	if (n > sizeof(seen))
		check_fail_at(file, line, "nop roundtrip: batch %u too big", n);
	memset(seen, 0, n);
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		/*
		 * On an SQPOLL ring the kernel thread posts a batch's CQEs
		 * before it moves the SQ head past the batch: the entries of
		 * the round trip just reaped can still look taken. Wait for
		 * the thread to release them (a slow machine, such as an
		 * emulated one, makes that gap long enough to hit). The kernel
		 * ends that wait when its own copy of the head moves, which
		 * can be before the head the program reads does: wait again
		 * (at most 2 s) until an entry is free.
		 */
		if (!sqe && (ring->flags & IORING_SETUP_SQPOLL)) {
			long long until = check_now_ms() + 2000;

			while (!sqe && io_uring_sqring_wait(ring) >= 0) {
				sqe = io_uring_get_sqe(ring);
				if (!sqe && check_now_ms() > until)
					break;
				if (!sqe)
					check_sleep_ms(1);
			}
		}
		if (!sqe)
			check_fail_at(file, line, "io_uring_get_sqe returned NULL at %u/%u", i, n);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, base + i);
	}
	ret = io_uring_submit(ring);
	if (ret != (int) n)
		check_fail_at(file, line, "io_uring_submit: got %d, expected %u", ret, n);
	while (got < n) {
		struct io_uring_cqe *cqe;
		unsigned long long ud;

		ret = io_uring_wait_cqe(ring, &cqe);
		if (ret < 0)
			check_fail_at(file, line, "io_uring_wait_cqe: %d (%s)", ret, strerror(-ret));
		ud = io_uring_cqe_get_data64(cqe);
		if (ud < base || ud >= base + n)
			check_fail_at(file, line, "unexpected user_data %llu (batch %llu..%llu)",
				      ud, base, base + n - 1);
		if (seen[ud - base])
			check_fail_at(file, line, "user_data %llu completed twice", ud);
		if (cqe->res != 0)
			check_fail_at(file, line, "NOP res %d", cqe->res);
		seen[ud - base] = 1;
		io_uring_cqe_seen(ring, cqe);
		got++;
	}
	if (io_uring_cq_ready(ring) != 0)
		check_fail_at(file, line, "%u stray CQEs after the round trip",
			      io_uring_cq_ready(ring));
}
#define check_nop_roundtrip(ring, n, base) \
	check_nop_roundtrip_at(__FILE__, __LINE__, ring, n, base)

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* Directory for scratch files: $CAPI_TMPDIR, $TMPDIR or /tmp. */
/* Waits (at most 2 s) for the CQE with user_data `ud`, releasing any other
 * CQE on the way; returns its res. */
static inline int check_wait_ud(struct io_uring *ring, __u64 ud)
{
	struct __kernel_timespec ts = check_kts_ms(2000);
	struct io_uring_cqe *cqe;
	int ret;

	for (;;) {
		ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		if (ret)
			FAIL("no CQE with user_data %llu: %d", (unsigned long long) ud, ret);
		if (cqe->user_data == ud) {
			ret = cqe->res;
			io_uring_cqe_seen(ring, cqe);
			return ret;
		}
		io_uring_cqe_seen(ring, cqe);
	}
}

static inline const char *check_tmpdir(void)
{
	const char *d = getenv("CAPI_TMPDIR");

	if (!d || !*d)
		d = getenv("TMPDIR");
	if (!d || !*d)
		d = "/tmp";
	return d;
}

/*
 * Create an unlinked scratch file (extra open flags e.g. O_DIRECT) and return
 * its fd; fails the test when that is impossible. When `path_out` is non-NULL
 * the file is kept (not unlinked) and its path copied there (size >= 256).
 */
static inline int check_tmpfile(int extra_flags, char *path_out)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/capi-test.XXXXXX", check_tmpdir());
	fd = mkostemp(path, O_CLOEXEC | extra_flags);
	if (fd < 0)
		FAIL("mkostemp(%s): %s", path, strerror(errno));
	if (path_out)
		strcpy(path_out, path);
	else
		unlink(path);
	return fd;
}

/* Fill `buf` with a pattern that depends on `seed` and the position. */
static inline void check_fill(void *buf, size_t len, unsigned seed)
{
	unsigned char *p = (unsigned char *) buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char) ((i * 131u + seed * 7u + (i >> 8)) ^ (seed >> 3));
}

/*
 * Linker argument naming the library under test: "-luring", or
 * "-l:liburing.so.2" when run.sh found the stage's liburing.so symlink broken.
 */
static inline const char *check_link_uring(void)
{
	const char *v = getenv("CAPI_LINK_URING");

	return v && *v ? v : "-luring";
}

/* Environment variable that run.sh sets; skip when missing. */
static inline const char *check_env_or_skip(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v)
		check_skip("%s not set (run this test through capi-tests/run.sh)", name);
	return v;
}

/*
 * Run a shell command (printf-style) with its output going to the test log;
 * returns its exit status, or 128+signal when it was killed.
 */
__attribute__((format(printf, 1, 2)))
static inline int check_system(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	printf("+ %s\n", cmd);
	fflush(stdout);
	fflush(stderr);
	st = system(cmd);
	if (st == -1)
		FAIL("system(%s): %s", cmd, strerror(errno));
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * io_uring_register(2) and io_uring_setup(2) entered directly, for probes that
 * must not go through the library under test: the result, or -errno.
 */
#include <sys/syscall.h>
static inline int check_raw_register(int fd, unsigned op, void *arg, unsigned nr)
{
	long r = syscall(__NR_io_uring_register, fd, op, arg, nr);

	return r < 0 ? -errno : (int) r;
}

/*
 * What the kernel offers for ring-fd registration, asked with raw calls on a
 * ring of the probe's own: 1 when IORING_REGISTER_RING_FDS (5.18) registers
 * it, else 0; *reg_reg (when not NULL) set to whether the kernel reports
 * IORING_FEAT_REG_REG_RING (6.3, io_uring_close_ring_fd).
 */
static inline int check_kernel_ring_fds(int *reg_reg)
{
	struct io_uring_rsrc_update upd;
	struct io_uring_params p;
	long fd;
	int r;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (reg_reg)
		*reg_reg = fd >= 0 && (p.features & IORING_FEAT_REG_REG_RING);
	if (fd < 0)
		return 0;
	memset(&upd, 0, sizeof(upd));
	upd.offset = -1U;
	upd.data = (__u64) fd;
	r = check_raw_register((int) fd, IORING_REGISTER_RING_FDS, &upd, 1);
	/* The task's table of registered rings is small: give the slot back. */
	if (r == 1) {
		upd.data = 0;
		check_raw_register((int) fd, IORING_UNREGISTER_RING_FDS, &upd, 1);
	}
	close((int) fd);
	return r == 1;
}

/* io_uring_setup(2) entered directly with these flags: 0 or -errno. */
static inline int check_raw_setup_flags(unsigned flags)
{
	struct io_uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	fd = syscall(__NR_io_uring_setup, 8, &p);
	if (fd < 0)
		return -errno;
	close((int) fd);
	return 0;
}

/* Whether the kernel takes a sparse file table (IORING_RSRC_REGISTER_SPARSE, 5.19), asked raw. */
static inline int check_kernel_sparse_files(void)
{
	struct io_uring_rsrc_register rr;
	struct io_uring_params p;
	long fd;
	int r;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		return 0;
	memset(&rr, 0, sizeof(rr));
	rr.nr = 1;
	rr.flags = IORING_RSRC_REGISTER_SPARSE;
	r = check_raw_register((int) fd, IORING_REGISTER_FILES2, &rr, sizeof(rr));
	close((int) fd);
	return r == 0;
}

/* Whether the kernel registers provided buffer rings (IORING_REGISTER_PBUF_RING, 5.19), asked raw. */
static inline int check_kernel_pbuf_ring(void)
{
	struct io_uring_buf_reg reg;
	struct io_uring_params p;
	void *mem;
	long fd;
	int r;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		return 0;
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		close((int) fd);
		return 0;
	}
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long) mem;
	reg.ring_entries = 8;
	reg.bgid = 1;
	r = check_raw_register((int) fd, IORING_REGISTER_PBUF_RING, &reg, 1);
	close((int) fd);
	munmap(mem, 4096);
	return r == 0;
}

#endif /* CAPI_CHECK_H */
