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
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "env-facts.h"

/* The kernel's NOP flags that the probes below ask for (Linux 6.13 and
 * 6.16): the tests are also built against liburing 2.15's headers, which
 * lack them, and the probe asks the kernel, not the headers. */
#ifndef IORING_NOP_FILE
#define IORING_NOP_FILE (1U << 1)
#endif
#ifndef IORING_NOP_TW
#define IORING_NOP_TW (1U << 4)
#endif

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
 * The probes below ask the kernel directly, through syscall(2), and never
 * through the library under test: a wrapper of ours that wrongly answers
 * -EINVAL must show up as a failure, not as "the kernel lacks it".
 */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif

static inline int check_raw_setup(unsigned entries, struct io_uring_params *p)
{
	long r = syscall(__NR_io_uring_setup, entries, p);

	return r < 0 ? -errno : (int) r;
}

static inline int check_raw_register(int fd, unsigned op, const void *arg, unsigned nr)
{
	long r = syscall(__NR_io_uring_register, fd, op, arg, nr);

	return r < 0 ? -errno : (int) r;
}

/* One page of zeroed anonymous memory (for NO_MMAP rings, regions, buffer rings). */
static inline void *check_raw_page(void)
{
	void *m = mmap(NULL, (size_t) sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

static inline void check_raw_unpage(void *m)
{
	if (m)
		munmap(m, (size_t) sysconf(_SC_PAGESIZE));
}

#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif

/*
 * Run one request on a fresh ring of our own through the raw system calls
 * and store its CQE's res in *res: the probe of request-level features
 * (NOP flags, SQE fields), which no feature bit announces. Returns 0, or
 * the -errno of the setup, mmap or io_uring_enter call that failed.
 */
static inline int check_raw_one_request(const struct io_uring_sqe *sqe, int *res)
{
	struct io_uring_params p;
	unsigned char *sq = MAP_FAILED, *cq = MAP_FAILED;
	struct io_uring_sqe *sqes = MAP_FAILED;
	size_t sq_len = 0, cq_len = 0;
	unsigned *sq_tail, mask, head, tail;
	int fd, ret = 0;

	memset(&p, 0, sizeof(p));
	fd = check_raw_setup(1, &p);
	if (fd < 0)
		return fd;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = (unsigned char *) mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				    IORING_OFF_SQ_RING);
	cq = (unsigned char *) mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				    IORING_OFF_CQ_RING);
	sqes = (struct io_uring_sqe *) mmap(NULL, p.sq_entries * sizeof(*sqes),
					    PROT_READ | PROT_WRITE, MAP_SHARED, fd,
					    IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	sqes[0] = *sqe;
	sq_tail = (unsigned *) (sq + p.sq_off.tail);
	mask = *(unsigned *) (sq + p.sq_off.ring_mask);
	((unsigned *) (sq + p.sq_off.array))[*sq_tail & mask] = 0;
	/* Release: the kernel reads the SQE after it sees the new tail. */
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		ret = -errno;
		goto out;
	}
	/* Acquire: the CQE is read after the tail that published it. */
	tail = __atomic_load_n((unsigned *) (cq + p.cq_off.tail), __ATOMIC_ACQUIRE);
	head = *(unsigned *) (cq + p.cq_off.head);
	if (head == tail) {
		ret = -ENODATA;
		goto out;
	}
	mask = *(unsigned *) (cq + p.cq_off.ring_mask);
	*res = ((struct io_uring_cqe *) (cq + p.cq_off.cqes))[head & mask].res;
out:
	if (sqes != MAP_FAILED)
		munmap(sqes, p.sq_entries * sizeof(*sqes));
	if (cq != MAP_FAILED)
		munmap(cq, cq_len);
	if (sq != MAP_FAILED)
		munmap(sq, sq_len);
	close(fd);
	return ret;
}

/*
 * Whether the kernel has NOP flag `flag`, by a raw NOP with it on fd -1:
 * a kernel with IORING_NOP_FILE fails the lookup of fd -1 with -EBADF; one
 * with IORING_NOP_TW completes it with 0; older ones refuse the unknown
 * flag (-EINVAL) or, before Linux 6.10, ignore nop_flags (0). Returns 0
 * when it has the flag, else a negative errno value.
 */
static inline int check_kernel_nop_flag(unsigned flag, int res_if_known)
{
	struct io_uring_sqe sqe;
	int res = 0, ret;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	sqe.fd = -1;
	sqe.nop_flags = flag;
	ret = check_raw_one_request(&sqe, &res);
	if (ret < 0)
		return ret;
	if (flag == IORING_NOP_TW)	/* 0 either way before 6.10: ask for a flag 6.10 knows too */
		return res == res_if_known && check_kernel_nop_flag(IORING_NOP_FILE, -EBADF) == 0
			? 0 : -EINVAL;
	return res == res_if_known ? 0 : -EINVAL;
}

/*
 * Create a ring with these setup flags through the raw system call (adding
 * what the flags need: memory for NO_MMAP, a ring to attach to for
 * ATTACH_WQ) and close it. Returns 0 when the kernel accepts them, else
 * -errno. REGISTERED_FD_ONLY rings have no descriptor to close: that probe
 * runs in a child.
 */
static inline int check_setup_flags_supported(unsigned entries, unsigned flags)
{
	struct io_uring_params p;
	void *sq = NULL, *cq = NULL;
	int fd, other = -1;

	if (flags & IORING_SETUP_REGISTERED_FD_ONLY) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			memset(&p, 0, sizeof(p));
			p.flags = flags;
			sq = check_raw_page();
			cq = check_raw_page();
			p.sq_off.user_addr = (unsigned long) sq;
			p.cq_off.user_addr = (unsigned long) cq;
			fd = check_raw_setup(entries, &p);
			_exit(fd < 0 ? -fd : 0);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return -ECHILD;
		return -WEXITSTATUS(st);
	}
	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (flags & IORING_SETUP_NO_MMAP) {
		sq = check_raw_page();
		cq = check_raw_page();
		p.sq_off.user_addr = (unsigned long) sq;
		p.cq_off.user_addr = (unsigned long) cq;
	}
	if (flags & IORING_SETUP_ATTACH_WQ) {
		struct io_uring_params q;

		memset(&q, 0, sizeof(q));
		other = check_raw_setup(entries, &q);
		if (other < 0)
			return other;
		p.wq_fd = (unsigned) other;
	}
	fd = check_raw_setup(entries, &p);
	if (fd >= 0)
		close(fd);
	if (other >= 0)
		close(other);
	check_raw_unpage(sq);
	check_raw_unpage(cq);
	return fd < 0 ? fd : 0;
}

/* Features reported by the kernel for a plain ring (0 when setup fails). */
static inline unsigned check_kernel_features(void)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	fd = check_raw_setup(4, &p);
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

/* Whether the kernel supports opcode `op` (IORING_REGISTER_PROBE, raw). */
static inline int check_opcode_supported(int op)
{
	size_t len = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *pr;
	struct io_uring_params p;
	int fd, ret;

	memset(&p, 0, sizeof(p));
	fd = check_raw_setup(4, &p);
	if (fd < 0)
		return 0;
	pr = (struct io_uring_probe *) calloc(1, len);
	if (!pr)
		check_fail_at(__FILE__, __LINE__, "calloc(%zu) failed", len);
	ret = check_raw_register(fd, IORING_REGISTER_PROBE, pr, 256);
	close(fd);
	ret = ret >= 0 && op <= pr->last_op && (pr->ops[op].flags & IO_URING_OP_SUPPORTED);
	free(pr);
	return ret;
}

/*
 * Ask the kernel, through raw system calls on a ring of our own, whether it
 * has `name`: a name of man/kernel-releases.tsv (a setup flag, a feature bit,
 * a register opcode, an opcode). Returns 0 when it has it, else the -errno
 * (or -EINVAL for a missing feature bit) that says it does not. A name with
 * no probe here fails the test: capi-tests/skips.tsv and these probes name
 * the same things.
 */
static inline int check_kernel_sparse_files(void);

static inline int check_kernel_probe_at(const char *file, int line, const char *name)
{
	static const struct { const char *name; unsigned flags; } setup[] = {
		{ "IORING_SETUP_IOPOLL", IORING_SETUP_IOPOLL },
		{ "IORING_SETUP_SQPOLL", IORING_SETUP_SQPOLL },
		{ "IORING_SETUP_ATTACH_WQ", IORING_SETUP_ATTACH_WQ },
		{ "IORING_SETUP_R_DISABLED", IORING_SETUP_R_DISABLED },
		{ "IORING_SETUP_SUBMIT_ALL", IORING_SETUP_SUBMIT_ALL },
		{ "IORING_SETUP_SQE128", IORING_SETUP_SQE128 },
		{ "IORING_SETUP_CQE32", IORING_SETUP_CQE32 },
		{ "IORING_SETUP_SINGLE_ISSUER", IORING_SETUP_SINGLE_ISSUER },
		{ "IORING_SETUP_DEFER_TASKRUN",
		  IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER },
		{ "IORING_SETUP_TASKRUN_FLAG",
		  IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_COOP_TASKRUN },
		{ "IORING_SETUP_NO_MMAP", IORING_SETUP_NO_MMAP },
		{ "IORING_SETUP_REGISTERED_FD_ONLY",
		  IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP },
		{ "IORING_SETUP_NO_SQARRAY", IORING_SETUP_NO_SQARRAY },
		{ "IORING_SETUP_CQE_MIXED", IORING_SETUP_CQE_MIXED },
		{ "IORING_SETUP_SQE_MIXED", IORING_SETUP_SQE_MIXED },
	};
	static const struct { const char *name; unsigned bit; } feat[] = {
		{ "IORING_FEAT_NODROP", IORING_FEAT_NODROP },
		{ "IORING_FEAT_RSRC_TAGS", IORING_FEAT_RSRC_TAGS },
		{ "IORING_FEAT_REG_REG_RING", IORING_FEAT_REG_REG_RING },
		{ "IORING_FEAT_MIN_TIMEOUT", IORING_FEAT_MIN_TIMEOUT },
	};
	static const struct { const char *name; int op; } ops[] = {
		{ "IORING_OP_NOP128", IORING_OP_NOP128 },
	};
	struct io_uring_params p;
	unsigned i;
	int fd, ret, efd;
	void *page;

	for (i = 0; i < sizeof(setup) / sizeof(setup[0]); i++)
		if (!strcmp(name, setup[i].name))
			return check_setup_flags_supported(8, setup[i].flags);
	for (i = 0; i < sizeof(feat) / sizeof(feat[0]); i++)
		if (!strcmp(name, feat[i].name))
			return (check_kernel_features() & feat[i].bit) ? 0 : -EINVAL;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(name, ops[i].name))
			return check_opcode_supported(ops[i].op) ? 0 : -EINVAL;
	if (!strcmp(name, "IORING_RSRC_REGISTER_SPARSE"))
		return check_kernel_sparse_files() ? 0 : -EINVAL;
	if (!strcmp(name, "IORING_NOP_FILE"))
		return check_kernel_nop_flag(IORING_NOP_FILE, -EBADF);
	if (!strcmp(name, "IORING_NOP_TW"))
		return check_kernel_nop_flag(IORING_NOP_TW, 0);
	if (strncmp(name, "IORING_REGISTER_", 16) && strcmp(name, "IOU_PBUF_RING_INC"))
		check_fail_at(file, line, "no raw probe for %s in check.h", name);

	/* Register opcodes: on a ring of the kind the opcode needs. */
	memset(&p, 0, sizeof(p));
	if (!strcmp(name, "IORING_REGISTER_RESIZE_RINGS"))
		p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (!strcmp(name, "IORING_REGISTER_MEM_REGION"))
		p.flags = IORING_SETUP_R_DISABLED;
	fd = check_raw_setup(8, &p);
	if (fd < 0)
		return fd;
	page = check_raw_page();
	if (!page)
		check_fail_at(file, line, "mmap: %s", strerror(errno));
	if (!strcmp(name, "IORING_REGISTER_PROBE")) {
		ret = check_raw_register(fd, IORING_REGISTER_PROBE, page, 8);
	} else if (!strcmp(name, "IORING_REGISTER_PERSONALITY")) {
		ret = check_raw_register(fd, IORING_REGISTER_PERSONALITY, NULL, 0);
	} else if (!strcmp(name, "IORING_REGISTER_EVENTFD")) {
		efd = eventfd(0, EFD_CLOEXEC);
		ret = check_raw_register(fd, IORING_REGISTER_EVENTFD, &efd, 1);
		close(efd);
	} else if (!strcmp(name, "IORING_REGISTER_PBUF_RING")) {
		struct io_uring_buf_reg r;

		memset(&r, 0, sizeof(r));
		r.ring_addr = (unsigned long) page;
		r.ring_entries = 8;
		r.bgid = 1;
		ret = check_raw_register(fd, IORING_REGISTER_PBUF_RING, &r, 1);
	} else if (!strcmp(name, "IOU_PBUF_RING_INC")) {
		struct io_uring_buf_reg r;

		memset(&r, 0, sizeof(r));
		r.ring_addr = (unsigned long) page;
		r.ring_entries = 8;
		r.bgid = 1;
		r.flags = IOU_PBUF_RING_INC;
		ret = check_raw_register(fd, IORING_REGISTER_PBUF_RING, &r, 1);
	} else if (!strcmp(name, "IORING_REGISTER_IOWQ_AFF")) {
		unsigned long mask[16];
		long n;

		/* The process's own CPUs: a mask the kernel must accept. */
		memset(mask, 0, sizeof(mask));
		n = syscall(__NR_sched_getaffinity, 0, sizeof(mask), mask);
		ret = n < 0 ? -errno : check_raw_register(fd, IORING_REGISTER_IOWQ_AFF, mask,
							  (unsigned) n);
	} else if (!strcmp(name, "IORING_REGISTER_IOWQ_MAX_WORKERS")) {
		unsigned vals[2] = { 0, 0 };

		/* Zeros only read the limits. */
		ret = check_raw_register(fd, IORING_REGISTER_IOWQ_MAX_WORKERS, vals, 2);
	} else if (!strcmp(name, "IORING_REGISTER_SEND_MSG_RING")) {
		struct io_uring_sqe sqe;

		/* A MSG_RING to the probe ring itself, by no ring (fd -1). */
		memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_MSG_RING;
		sqe.fd = fd;
		sqe.off = 1;
		ret = check_raw_register(-1, IORING_REGISTER_SEND_MSG_RING, &sqe, 1);
	} else if (!strcmp(name, "IORING_REGISTER_QUERY")) {
		struct io_uring_query_opcode op;
		struct io_uring_query_hdr h;

		memset(&op, 0, sizeof(op));
		memset(&h, 0, sizeof(h));
		h.query_op = IO_URING_QUERY_OPCODES;
		h.query_data = (unsigned long) &op;
		h.size = sizeof(op);
		ret = check_raw_register(-1, IORING_REGISTER_QUERY, &h, 0);
	} else if (!strcmp(name, "IORING_REGISTER_CLONE_BUFFERS") ||
		   !strcmp(name, "IORING_REGISTER_DST_REPLACE")) {
		struct io_uring_clone_buffers cb;
		struct io_uring_params p2;
		struct iovec iov;
		int dst;

		/* One registered buffer on the probe ring, cloned into a second ring. */
		iov.iov_base = page;
		iov.iov_len = (size_t) sysconf(_SC_PAGESIZE);
		ret = check_raw_register(fd, IORING_REGISTER_BUFFERS, &iov, 1);
		memset(&p2, 0, sizeof(p2));
		dst = ret < 0 ? ret : check_raw_setup(8, &p2);
		if (ret >= 0 && dst < 0)
			ret = dst;
		if (dst >= 0) {
			memset(&cb, 0, sizeof(cb));
			cb.src_fd = (unsigned) fd;
			/* DST_REPLACE (with a range) came a release after cloning. */
			if (!strcmp(name, "IORING_REGISTER_DST_REPLACE")) {
				cb.flags = IORING_REGISTER_DST_REPLACE;
				cb.nr = 1;
			}
			ret = check_raw_register(dst, IORING_REGISTER_CLONE_BUFFERS, &cb, 1);
			close(dst);
		}
	} else if (!strcmp(name, "IORING_REGISTER_SYNC_CANCEL")) {
		struct io_uring_sync_cancel_reg r;

		/* Nothing in flight carries this user_data: ENOENT says it exists. */
		memset(&r, 0, sizeof(r));
		r.addr = 0x5eed;
		r.timeout.tv_sec = -1;
		r.timeout.tv_nsec = -1;
		ret = check_raw_register(fd, IORING_REGISTER_SYNC_CANCEL, &r, 1);
		if (ret == -ENOENT)
			ret = 0;
	} else if (!strcmp(name, "IORING_REGISTER_NAPI")) {
		struct io_uring_napi r;

		memset(&r, 0, sizeof(r));
		r.busy_poll_to = 10;
		ret = check_raw_register(fd, IORING_REGISTER_NAPI, &r, 1);
	} else if (!strcmp(name, "IORING_REGISTER_CLOCK")) {
		struct io_uring_clock_register r;

		memset(&r, 0, sizeof(r));
		r.clockid = CLOCK_MONOTONIC;
		ret = check_raw_register(fd, IORING_REGISTER_CLOCK, &r, 0);
	} else if (!strcmp(name, "IORING_REGISTER_RESIZE_RINGS")) {
		struct io_uring_params r;

		memset(&r, 0, sizeof(r));
		r.sq_entries = 16;
		r.cq_entries = 32;
		r.flags = IORING_SETUP_CQSIZE;
		ret = check_raw_register(fd, IORING_REGISTER_RESIZE_RINGS, &r, 1);
	} else if (!strcmp(name, "IORING_REGISTER_MEM_REGION")) {
		struct io_uring_region_desc rd;
		struct io_uring_mem_region_reg mr;

		memset(&rd, 0, sizeof(rd));
		rd.user_addr = (unsigned long) page;
		rd.size = (unsigned long) sysconf(_SC_PAGESIZE);
		rd.flags = IORING_MEM_REGION_TYPE_USER;
		memset(&mr, 0, sizeof(mr));
		mr.region_uptr = (unsigned long) &rd;
		mr.flags = IORING_MEM_REGION_REG_WAIT_ARG;
		ret = check_raw_register(fd, IORING_REGISTER_MEM_REGION, &mr, 1);
	} else {
		check_fail_at(file, line, "no raw probe for %s in check.h", name);
	}
	close(fd);
	check_raw_unpage(page);
	return ret < 0 ? ret : 0;
}

/*
 * Skip the test unless the kernel has `name` (an identifier of
 * man/kernel-releases.tsv), as the raw probe above says. The SKIP line
 * names it, for capi-tests/run.sh's comparison with capi-tests/skips.tsv.
 */
#define REQUIRE_KERNEL(name)						\
	do {								\
		int check_k_ = check_kernel_probe_at(__FILE__, __LINE__, #name); \
		if (check_k_ < 0)					\
			SKIP("kernel lacks %s (raw probe: %s)", #name,	\
			     strerror(-check_k_));			\
	} while (0)

/*
 * The same for a part of a test: true when the kernel has `name`; otherwise
 * prints "SKIP-PART <part>: ..." (run.sh compares these lines with
 * skips.tsv's rows for "<test>/<part>") and returns false.
 */
#define KERNEL_HAS_PART(part, name)					\
	check_kernel_has_part_at(__FILE__, __LINE__, part, #name)

static inline int check_kernel_has_part_at(const char *file, int line, const char *part,
					   const char *name)
{
	int ret = check_kernel_probe_at(file, line, name);

	if (ret < 0)
		check_note("SKIP-PART %s: kernel lacks %s (raw probe: %s)", part, name,
			   strerror(-ret));
	return ret == 0;
}

/*
 * The same for a part that needs environment fact `fact` (env-facts.h, the
 * "env:<fact>" rows of skips.tsv): true when it holds; otherwise prints
 * "SKIP-PART <part>: environment lacks env:<fact>" and returns false.
 */
static inline int check_env_has_part(const char *part, const char *fact)
{
	if (env_fact(fact))
		return 1;
	check_note("SKIP-PART %s: environment lacks env:%s (probed by env-facts.h)", part, fact);
	return 0;
}

#define ENV_HAS_PART(part, fact) check_env_has_part(part, fact)

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
		 * the round trip just reaped can still look taken, for as
		 * long as the thread is kept off a CPU (a loaded or emulated
		 * machine). io_uring_sqring_wait does not cover that gap: it
		 * returns as soon as the kernel's own view of the SQ has room.
		 * So wait as a program must, in a loop with a deadline (10 s),
		 * for the thread to move the head.
		 */
		if (!sqe && (ring->flags & IORING_SETUP_SQPOLL)) {
			long long deadline = check_now_ms() + 10000;

			while (!sqe && check_now_ms() < deadline) {
				ret = io_uring_sqring_wait(ring);
				if (ret < 0)
					check_fail_at(file, line, "io_uring_sqring_wait: %d (%s)",
						      ret, strerror(-ret));
				sqe = io_uring_get_sqe(ring);
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
	/*
	 * On an SQPOLL ring submit returns the entries the thread has not yet
	 * consumed (tail - khead, as liburing): an awake thread can take some
	 * between the tail store and that read, so fewer than n is right
	 * there. Reaping all n below shows that every entry went in.
	 */
	if ((ring->flags & IORING_SETUP_SQPOLL) ? (ret < 0 || ret > (int) n) : ret != (int) n)
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
 * The stage's uring-info (CAPI_STAGE/usr/bin/uring-info) into path; a
 * stage without it fails the test.
 */
static inline void check_stage_uring_info(char *path, size_t size)
{
	snprintf(path, size, "%s/usr/bin/uring-info", check_env_or_skip("CAPI_STAGE"));
	CHECKM(access(path, X_OK) == 0, "%s is not installed", path);
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

/* (The probes below enter the kernel with check_raw_setup and
 * check_raw_register, above: never through the library under test.) */

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

/* ---- the io_uring policy sysctls ---------------------------------------
 * kernel.io_uring_disabled and kernel.io_uring_group (Linux 6.6), changed by
 * the tests that show what each setting does, and put back at exit and on
 * the signals a runner sends. */

#define CHECK_SYSCTL_DISABLED "/proc/sys/kernel/io_uring_disabled"
#define CHECK_SYSCTL_GROUP "/proc/sys/kernel/io_uring_group"

struct check_sysctls {
	char disabled[32], group[32];	/* as found */
	volatile sig_atomic_t changed;
};

static inline struct check_sysctls *check_sysctls(void)
{
	static struct check_sysctls s;

	return &s;
}

static inline int check_write_file(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, strlen(v)) == (ssize_t) strlen(v);
	close(fd);
	return ok ? 0 : -1;
}

static inline int check_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* Async-signal-safe: open, write and close only. */
static inline void check_sysctl_restore(void)
{
	struct check_sysctls *s = check_sysctls();

	if (!s->changed)
		return;
	check_write_file(CHECK_SYSCTL_GROUP, s->group);
	check_write_file(CHECK_SYSCTL_DISABLED, s->disabled);
	s->changed = 0;
}

static inline void check_sysctl_on_signal(int sig)
{
	check_sysctl_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Reads both sysctls and arranges for them to be put back; -1 (nothing
 * arranged) when the kernel has none. */
static inline int check_sysctl_save(void)
{
	struct check_sysctls *s = check_sysctls();

	if (check_read_file(CHECK_SYSCTL_DISABLED, s->disabled, sizeof(s->disabled)) ||
	    check_read_file(CHECK_SYSCTL_GROUP, s->group, sizeof(s->group)))
		return -1;
	atexit(check_sysctl_restore);
	signal(SIGTERM, check_sysctl_on_signal);
	signal(SIGINT, check_sysctl_on_signal);
	signal(SIGHUP, check_sysctl_on_signal);
	signal(SIGALRM, check_sysctl_on_signal);
	return 0;
}

/* The saved group, for a setting that keeps it. */
static inline const char *check_sysctl_saved_group(void)
{
	return check_sysctls()->group;
}

static inline void check_sysctl_set(const char *disabled, const char *group)
{
	check_sysctls()->changed = 1;
	if (check_write_file(CHECK_SYSCTL_GROUP, group) ||
	    check_write_file(CHECK_SYSCTL_DISABLED, disabled)) {
		check_sysctl_restore();
		FAIL("cannot set io_uring_disabled=%s io_uring_group=%s: %s", disabled, group,
		     strerror(errno));
	}
}

#endif /* CAPI_CHECK_H */
