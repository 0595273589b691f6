/* SPDX-License-Identifier: MIT */
/*
 * Differential bad-argument cases: every function liburing.so.2 exports (83),
 * and the liburing-ffi helpers that take something that can be wrong, called
 * with NULL, negative, huge and unregistered arguments.  The same source is
 * built once against upstream liburing's headers and library and once
 * against ours; run.sh compares the two outputs.
 *
 * Each case runs in a child process of its own, with fresh rings, so a crash
 * ends that case only and is recorded as "CRASH <signal>".  One line per case:
 *
 *   <n> <function>(<arguments>) -> ret=<value> [cqe=...] [errno=E] [err=N]
 *                                   | CRASH SIGSEGV | TIMEOUT
 *
 * errno is reported for the functions without an error return (pointer or
 * void results); err= is io_uring_setup_buf_ring's error out-value.
 *
 * Usage: bad_args_diff <path of liburing-ffi.so.2 to take the helpers from>
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <liburing.h>

#define CASE_TIMEOUT_S 3

static int out_fd;       /* the pipe to the parent, in a case's child */
static int target;       /* which case this child runs */
static int current;      /* counter while walking the case list */
static void *ffi_handle; /* liburing-ffi.so.2, for the inline helpers */

/* ---------------------------------------------------------------------- */
/* Output (write(2) straight to the pipe: a crash must not lose buffered   */
/* text, and the parent appends the verdict when the child dies)           */
/* ---------------------------------------------------------------------- */

__attribute__((format(printf, 1, 2)))
static void emit(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int) sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (write(out_fd, buf, n) != n)
		_exit(100);
}

/* ---------------------------------------------------------------------- */
/* Fixtures, made lazily inside the case's child                           */
/* ---------------------------------------------------------------------- */

static struct io_uring ring_a, ring_b, ring_closed, ring_disabled, ring_regfd, ring_files;
static int have_a, have_b, have_closed, have_disabled, have_regfd, have_files;

static void init_or_die(struct io_uring *r, unsigned flags)
{
	int ret = io_uring_queue_init(8, r, flags);

	if (ret < 0) {
		emit("FIXTURE-FAILED %d\n", ret);
		_exit(101);
	}
}

/* A plain, working 8-entry ring. */
static struct io_uring *ring(void)
{
	if (!have_a++)
		init_or_die(&ring_a, 0);
	return &ring_a;
}

/* A second working ring (for clone_buffers). */
static struct io_uring *ring2(void)
{
	if (!have_b++)
		init_or_die(&ring_b, 0);
	return &ring_b;
}

/*
 * A ring whose fd has been closed behind the library's back.  The struct is
 * pointed at fd 900, never opened, so a later open cannot reuse the number
 * and make the "closed" fd valid again; the mappings keep the ring alive.
 */
#define CLOSED_FD 900
static struct io_uring *ring_fd_closed(void)
{
	if (!have_closed++) {
		init_or_die(&ring_closed, 0);
		close(ring_closed.ring_fd);
		ring_closed.ring_fd = ring_closed.enter_ring_fd = CLOSED_FD;
	}
	return &ring_closed;
}

/* A ring set up with IORING_SETUP_R_DISABLED. */
static struct io_uring *ring_r_disabled(void)
{
	if (!have_disabled++)
		init_or_die(&ring_disabled, IORING_SETUP_R_DISABLED);
	return &ring_disabled;
}

/* A ring whose fd is registered (io_uring_register_ring_fd). */
static struct io_uring *ring_registered(void)
{
	if (!have_regfd++) {
		init_or_die(&ring_regfd, 0);
		if (io_uring_register_ring_fd(&ring_regfd) != 1) {
			emit("FIXTURE-FAILED register_ring_fd\n");
			_exit(101);
		}
	}
	return &ring_regfd;
}

/* A ring with a 4-slot sparse file table and 2 sparse buffer slots. */
static struct io_uring *ring_tables(void)
{
	if (!have_files++) {
		init_or_die(&ring_files, 0);
		if (io_uring_register_files_sparse(&ring_files, 4) ||
		    io_uring_register_buffers_sparse(&ring_files, 2)) {
			emit("FIXTURE-FAILED sparse tables\n");
			_exit(101);
		}
	}
	return &ring_files;
}

/* Prepare `n` NOPs on `r` without submitting. */
static struct io_uring *with_nops(struct io_uring *r, unsigned n)
{
	while (n--) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(r);

		if (!sqe)
			break;
		io_uring_prep_nop(sqe);
		sqe->user_data = 1000 + n;
	}
	return r;
}

/* Submit one NOP and wait until its CQE is visible (not consumed). */
static struct io_uring *with_cqe(struct io_uring *r)
{
	with_nops(r, 1);
	if (io_uring_submit_and_wait(r, 1) != 1) {
		emit("FIXTURE-FAILED cqe\n");
		_exit(101);
	}
	return r;
}

static int devnull(void)
{
	return open("/dev/null", O_RDWR | O_CLOEXEC);
}

static int an_eventfd(void)
{
	return eventfd(0, EFD_CLOEXEC);
}

static struct __kernel_timespec ts_1ms = { .tv_sec = 0, .tv_nsec = 1000000 };
static struct __kernel_timespec ts_neg = { .tv_sec = -1, .tv_nsec = -1 };
static struct io_uring_cqe *cqe_out;
static unsigned char junk[4096] __attribute__((aligned(4096)));
static struct iovec iov_ok = { junk, sizeof(junk) };
static struct iovec iov_huge = { junk, SIZE_MAX / 2 };
static struct iovec iov_null = { NULL, 4096 };
static __u64 tags2[2];
static int files_bad[2] = { -1, 9999 };
static int files_neg2[2] = { -2, -2 };
static uint16_t head_out = 0xabcd;
static unsigned vals2[2] = { 1, 1 };
static int err_out = 12345;

static struct io_uring_params *params(unsigned flags, unsigned cq, unsigned sq)
{
	static struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = cq;
	p.sq_entries = sq;
	return &p;
}

static struct io_uring_params *params_resv(void)
{
	struct io_uring_params *p = params(0, 0, 0);

	p->resv[1] = 1;
	return p;
}

static struct io_uring_params *params_attach(int fd)
{
	struct io_uring_params *p = params(IORING_SETUP_ATTACH_WQ, 0, 0);

	p->wq_fd = fd;
	return p;
}

static struct io_uring_probe *a_probe(void)
{
	static struct io_uring_probe *p;

	if (!p)
		p = io_uring_get_probe();
	return p;
}

static sigset_t *empty_sigmask(void)
{
	static sigset_t s;

	sigemptyset(&s);
	return &s;
}

/* The exported io_uring_get_sqe of liburing.so.2 (the header's is inline). */
static struct io_uring_sqe *exported_io_uring_get_sqe(struct io_uring *r)
{
	struct io_uring_sqe *(*fn)(struct io_uring *);
	void *h = dlopen("liburing.so.2", RTLD_NOW | RTLD_NOLOAD);

	if (!h) {
		emit("FIXTURE-FAILED dlopen liburing.so.2\n");
		_exit(101);
	}
	*(void **) &fn = dlsym(h, "io_uring_get_sqe");
	return fn(r);
}

/* An inline helper as liburing-ffi.so.2 exports it. */
static void *ffi_sym(const char *name)
{
	void *p = dlsym(ffi_handle, name);

	if (!p) {
		emit("FIXTURE-FAILED dlsym %s\n", name);
		_exit(101);
	}
	return p;
}
#define FFI(name) ((__typeof__(&name)) ffi_sym(#name))

static struct io_uring_buf_ring *a_buf_ring(struct io_uring *r, int bgid)
{
	int err;
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(r, 8, bgid, 0, &err);

	if (!br) {
		emit("FIXTURE-FAILED setup_buf_ring %d\n", err);
		_exit(101);
	}
	return br;
}

/* ---------------------------------------------------------------------- */
/* Case machinery                                                          */
/* ---------------------------------------------------------------------- */

static int selected(const char *fn, const char *args)
{
	if (current++ != target)
		return 0;
	emit("%s(%s) -> ", fn, args);
	return 1;
}

static struct io_uring_probe *a_probe(void);

/*
 * For a function without an error return (a pointer or nothing), errno is
 * what a caller might look at, so it is reported: every fixture is made
 * first, so that only the call itself can have set it.
 */
static void prime_fixtures(void)
{
	ring();
	ring2();
	ring_fd_closed();
	ring_r_disabled();
	ring_registered();
	ring_tables();
	a_probe();
	err_out = 12345;
	errno = 0;
}

static void emit_errno(int e)
{
	if (e)
		emit(" errno=%s", strerrorname_np(e) ? strerrorname_np(e) : "?");
	if (err_out != 12345)
		emit(" err=%d", err_out);
	emit("\n");
}

/* An int / ssize_t / unsigned result. */
#define CI(fn, args, ...)						\
	do {								\
		if (selected(#fn, args)) {				\
			long long r_ = (long long) fn(__VA_ARGS__);	\
			emit("ret=%lld\n", r_);				\
			return 1;					\
		}							\
	} while (0)

/* An int result that is a new fd (printed as "fd" when >= 0). */
#define CFD(fn, args, ...)						\
	do {								\
		if (selected(#fn, args)) {				\
			long long r_ = (long long) fn(__VA_ARGS__);	\
			if (r_ >= 0)					\
				emit("ret=fd\n");			\
			else						\
				emit("ret=%lld\n", r_);			\
			return 1;					\
		}							\
	} while (0)

/* A pointer result (NULL or not), errno, and an `int *err` out-value. */
#define CP(fn, args, ...)						\
	do {								\
		if (selected(#fn, args)) {				\
			const void *p_;					\
			prime_fixtures();				\
			p_ = (const void *) fn(__VA_ARGS__);		\
			emit("ret=%s", p_ ? "ptr" : "NULL");		\
			emit_errno(errno);				\
			return 1;					\
		}							\
	} while (0)

/* No result; errno. */
#define CV(fn, args, ...)						\
	do {								\
		if (selected(#fn, args)) {				\
			prime_fixtures();				\
			fn(__VA_ARGS__);				\
			emit("void");					\
			emit_errno(errno);				\
			return 1;					\
		}							\
	} while (0)

/* An int result plus whether the CQE out-pointer was set. */
#define CQ(fn, args, ...)						\
	do {								\
		if (selected(#fn, args)) {				\
			long long r_;					\
			cqe_out = (struct io_uring_cqe *) junk;		\
			r_ = (long long) fn(__VA_ARGS__);		\
			emit("ret=%lld cqe=%s\n", r_,			\
			     cqe_out == (struct io_uring_cqe *) junk ? "untouched" : \
			     cqe_out ? "set" : "NULL");			\
			return 1;					\
		}							\
	} while (0)

/* The generic cases of the pass-through registration calls. */
#include "pass_through_cases.h"

/* Every case, in order.  Returns 1 when case `target` ran, 0 past the end. */
static int run_case(void)
{
	current = 0;

	if (pass_through_cases())
		return 1;

	/* ---- ring setup and teardown ---- */
	CI(io_uring_queue_init, "8, NULL, 0", 8, NULL, 0);
	CI(io_uring_queue_init, "0, &r, 0", 0, &ring_a, 0);
	CI(io_uring_queue_init, "UINT_MAX, &r, 0", UINT_MAX, &ring_a, 0);
	CI(io_uring_queue_init, "8, &r, ~0u", 8, &ring_a, ~0u);
	CI(io_uring_queue_init, "8, &r, CQSIZE (cq_entries 0)", 8, &ring_a, IORING_SETUP_CQSIZE);
	CI(io_uring_queue_init, "8, &r, REGISTERED_FD_ONLY (no NO_MMAP)", 8, &ring_a,
	   IORING_SETUP_REGISTERED_FD_ONLY);
	CI(io_uring_queue_init, "8, &r, ATTACH_WQ (wq_fd 0)", 8, &ring_a, IORING_SETUP_ATTACH_WQ);
	CI(io_uring_queue_init_params, "8, NULL, &p", 8, NULL, params(0, 0, 0));
	CI(io_uring_queue_init_params, "8, &r, NULL", 8, &ring_a, NULL);
	CI(io_uring_queue_init_params, "8, &r, p.resv!=0", 8, &ring_a, params_resv());
	CI(io_uring_queue_init_params, "8, &r, CQSIZE cq=UINT_MAX", 8, &ring_a,
	   params(IORING_SETUP_CQSIZE, UINT_MAX, 0));
	CI(io_uring_queue_init_params, "8, &r, CQSIZE|CLAMP cq=UINT_MAX", 8, &ring_a,
	   params(IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP, UINT_MAX, 0));
	CI(io_uring_queue_init_params, "8, &r, CQSIZE cq=4 (< sq)", 8, &ring_a,
	   params(IORING_SETUP_CQSIZE, 4, 0));
	CI(io_uring_queue_init_params, "8, &r, ATTACH_WQ wq_fd=-1", 8, &ring_a, params_attach(-1));
	CI(io_uring_queue_init_params, "8, &r, ATTACH_WQ wq_fd=/dev/null", 8, &ring_a,
	   params_attach(devnull()));
	CI(io_uring_queue_init_params, "8, &r, SQPOLL|SQ_AFF cpu=4095", 8, &ring_a,
	   ({ struct io_uring_params *p_ = params(IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF, 0, 0);
	      p_->sq_thread_cpu = 4095; p_; }));
	CI(io_uring_queue_init_params, "8, &r, DEFER_TASKRUN without SINGLE_ISSUER", 8, &ring_a,
	   params(IORING_SETUP_DEFER_TASKRUN, 0, 0));
	CI(io_uring_queue_init_params, "8, &r, NO_MMAP (library memory)", 8, &ring_a,
	   params(IORING_SETUP_NO_MMAP, 0, 0));
	CI(io_uring_queue_init_mem, "8, NULL, &p, buf, 4096", 8, NULL, params(0, 0, 0), junk,
	   sizeof(junk));
	CI(io_uring_queue_init_mem, "8, &r, NULL, buf, 4096", 8, &ring_a, NULL, junk, sizeof(junk));
	CI(io_uring_queue_init_mem, "8, &r, &p, NULL, 0", 8, &ring_a, params(0, 0, 0), NULL, 0);
	CI(io_uring_queue_init_mem, "8, &r, &p, buf, 16 (too small)", 8, &ring_a, params(0, 0, 0),
	   junk, 16);
	CI(io_uring_queue_init_mem, "8, &r, &p(NO_MMAP), NULL, 1<<20", 8, &ring_a,
	   params(IORING_SETUP_NO_MMAP, 0, 0), NULL, 1 << 20);
	CI(io_uring_queue_init_mem, "0, &r, &p, buf, 4096", 0, &ring_a, params(0, 0, 0), junk,
	   sizeof(junk));
	CI(io_uring_queue_mmap, "-1, &p, &r", -1, params(0, 0, 0), &ring_b);
	CI(io_uring_queue_mmap, "/dev/null, &p, &r", devnull(), params(0, 0, 0), &ring_b);
	CI(io_uring_queue_mmap, "ring fd, NULL, &r", ring()->ring_fd, NULL, &ring_b);
	CI(io_uring_queue_mmap, "ring fd, &p, NULL", ring()->ring_fd, params(0, 0, 0), NULL);
	CI(io_uring_queue_mmap, "ring fd, zeroed p, &r", ring()->ring_fd, params(0, 0, 0), &ring_b);
	CV(io_uring_queue_exit, "NULL", NULL);
	CV(io_uring_queue_exit, "ring with fd closed", ring_fd_closed());
	CV(io_uring_queue_exit, "ring with registered fd", ring_registered());
	CFD(io_uring_setup, "8, NULL", 8, NULL);
	CFD(io_uring_setup, "0, &p", 0, params(0, 0, 0));
	CFD(io_uring_setup, "UINT_MAX, &p", UINT_MAX, params(0, 0, 0));
	CFD(io_uring_setup, "8, &p flags=~0u", 8, params(~0u, 0, 0));
	CI(io_uring_resize_rings, "NULL, &p", NULL, params(0, 16, 16));
	CI(io_uring_resize_rings, "r, NULL", ring(), NULL);
	CI(io_uring_resize_rings, "r, sq=0 cq=0", ring(), params(0, 0, 0));
	CI(io_uring_resize_rings, "r, CQSIZE cq=UINT_MAX", ring(), params(IORING_SETUP_CQSIZE, UINT_MAX, 16));
	CI(io_uring_resize_rings, "r, flags=~0u", ring(), params(~0u, 16, 16));
	CI(io_uring_resize_rings, "r (fd closed), &p", ring_fd_closed(), params(0, 16, 16));
	CI(io_uring_ring_dontfork, "NULL", NULL);
	CI(io_uring_ring_dontfork, "r", ring());
	CI(io_uring_enable_rings, "r (not disabled)", ring());
	CI(io_uring_enable_rings, "r (R_DISABLED)", ring_r_disabled());
	CI(io_uring_set_iowait, "NULL, false", NULL, false);
	CI(io_uring_set_iowait, "r, false", ring(), false);
	CI(io_uring_set_iowait, "r, true", ring(), true);

	/* ---- sizes and versions ---- */
	CI(io_uring_mlock_size, "0, 0", 0, 0);
	CI(io_uring_mlock_size, "UINT_MAX, 0", UINT_MAX, 0);
	CI(io_uring_mlock_size, "8, ~0u", 8, ~0u);
	CI(io_uring_mlock_size, "32769, 0", 32769, 0);
	CI(io_uring_mlock_size, "32769, CLAMP", 32769, IORING_SETUP_CLAMP);
	CI(io_uring_mlock_size, "8, CQSIZE (cq 0)", 8, IORING_SETUP_CQSIZE);
	CI(io_uring_mlock_size_params, "8, NULL", 8, NULL);
	CI(io_uring_mlock_size_params, "0, &p", 0, params(0, 0, 0));
	CI(io_uring_mlock_size_params, "8, CQSIZE cq=0", 8, params(IORING_SETUP_CQSIZE, 0, 0));
	CI(io_uring_mlock_size_params, "8, CQSIZE cq=UINT_MAX", 8,
	   params(IORING_SETUP_CQSIZE, UINT_MAX, 0));
	CI(io_uring_mlock_size_params, "8, CQSIZE|CLAMP cq=UINT_MAX", 8,
	   params(IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP, UINT_MAX, 0));
	CI(io_uring_memory_size, "0, 0", 0, 0);
	CI(io_uring_memory_size, "UINT_MAX, 0", UINT_MAX, 0);
	CI(io_uring_memory_size, "8, ~0u", 8, ~0u);
	CI(io_uring_memory_size, "32769, 0", 32769, 0);
	CI(io_uring_memory_size, "32769, CLAMP", 32769, IORING_SETUP_CLAMP);
	CI(io_uring_memory_size, "8, NO_MMAP|SQE128|CQE32", 8,
	   IORING_SETUP_NO_MMAP | IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	CI(io_uring_memory_size_params, "8, NULL", 8, NULL);
	CI(io_uring_memory_size_params, "0, &p", 0, params(0, 0, 0));
	CI(io_uring_memory_size_params, "8, CQSIZE cq=0", 8, params(IORING_SETUP_CQSIZE, 0, 0));
	CI(io_uring_memory_size_params, "8, CQSIZE cq=UINT_MAX", 8,
	   params(IORING_SETUP_CQSIZE, UINT_MAX, 0));
	CI(io_uring_memory_size_params, "8, CQSIZE cq=4", 8, params(IORING_SETUP_CQSIZE, 4, 0));
	CI(io_uring_check_version, "-1, -1", -1, -1);
	CI(io_uring_check_version, "INT_MAX, INT_MAX", INT_MAX, INT_MAX);
	CI(io_uring_check_version, "2, 15", 2, 15);
	CI(io_uring_check_version, "2, 16", 2, 16);
	CI(io_uring_check_version, "1, 99", 1, 99);
	CI(io_uring_check_version, "3, 0", 3, 0);
	CI(io_uring_check_version, "INT_MIN, INT_MIN", INT_MIN, INT_MIN);
	CI(io_uring_major_version, "", );
	CI(io_uring_minor_version, "", );

	/* ---- probes ---- */
	CP(io_uring_get_probe, "", );
	CP(io_uring_get_probe_ring, "NULL", NULL);
	CP(io_uring_get_probe_ring, "r", ring());
	CP(io_uring_get_probe_ring, "r (fd closed)", ring_fd_closed());
	CV(io_uring_free_probe, "NULL", NULL);
	CV(io_uring_free_probe, "probe", a_probe());
	CI(io_uring_register_probe, "r, NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_probe, "r, NULL, 256", ring(), NULL, 256);
	CI(io_uring_register_probe, "r, junk(nonzero), 4", ring(),
	   (struct io_uring_probe *) memset(junk, 0xff, 256), 4);

	/* ---- SQ side ---- */
	CP(exported_io_uring_get_sqe, "NULL", NULL);
	CP(exported_io_uring_get_sqe, "r", ring());
	CP(exported_io_uring_get_sqe, "r (full)", with_nops(ring(), 8));
	CI(io_uring_submit, "NULL", NULL);
	CI(io_uring_submit, "r (nothing)", ring());
	CI(io_uring_submit, "r (fd closed) 1 NOP", with_nops(ring_fd_closed(), 1));
	CI(io_uring_submit, "r (registered fd) 2 NOPs", with_nops(ring_registered(), 2));
	CI(io_uring_submit_and_wait, "NULL, 0", NULL, 0);
	CI(io_uring_submit_and_wait, "r, 0", ring(), 0);
	CI(io_uring_submit_and_wait, "r (fd closed), 1", with_nops(ring_fd_closed(), 1), 1);
	CI(io_uring_submit_and_get_events, "NULL", NULL);
	CI(io_uring_submit_and_get_events, "r", ring());
	CI(io_uring_submit_and_get_events, "r (fd closed)", ring_fd_closed());
	CQ(io_uring_submit_and_wait_timeout, "NULL, &cqe, 1, 1ms, NULL", NULL, &cqe_out, 1, &ts_1ms, NULL);
	CQ(io_uring_submit_and_wait_timeout, "r, &cqe, 1, 1ms, NULL", ring(), &cqe_out, 1, &ts_1ms, NULL);
	CQ(io_uring_submit_and_wait_timeout, "r, &cqe, 0, NULL, NULL", ring(), &cqe_out, 0, NULL, NULL);
	CQ(io_uring_submit_and_wait_timeout, "r, &cqe, 1, ts=-1s, NULL", ring(), &cqe_out, 1, &ts_neg, NULL);
	CQ(io_uring_submit_and_wait_timeout, "r 1 NOP, &cqe, 1, 1ms, sigmask", with_nops(ring(), 1),
	   &cqe_out, 1, &ts_1ms, empty_sigmask());
	CQ(io_uring_submit_and_wait_timeout, "r (fd closed), &cqe, 1, 1ms", ring_fd_closed(), &cqe_out, 1,
	   &ts_1ms, NULL);
	CQ(io_uring_submit_and_wait_min_timeout, "NULL, &cqe, 1, 1ms, 10, NULL", NULL, &cqe_out, 1,
	   &ts_1ms, 10, NULL);
	CQ(io_uring_submit_and_wait_min_timeout, "r, &cqe, 1, 1ms, 10, NULL", ring(), &cqe_out, 1,
	   &ts_1ms, 10, NULL);
	CQ(io_uring_submit_and_wait_min_timeout, "r, &cqe, 1, NULL, 10, NULL", with_cqe(ring()),
	   &cqe_out, 1, NULL, 10, NULL);
	CQ(io_uring_submit_and_wait_min_timeout, "r, &cqe, 1, 1ms, 2000, NULL", ring(), &cqe_out,
	   1, &ts_1ms, 2000, NULL);
	CQ(io_uring_submit_and_wait_reg, "NULL, &cqe, 1, 0", NULL, &cqe_out, 1, 0);
	CQ(io_uring_submit_and_wait_reg, "r, &cqe, 1, 0 (nothing registered)", ring(), &cqe_out, 1, 0);
	CQ(io_uring_submit_and_wait_reg, "r, &cqe, 1, -1", ring(), &cqe_out, 1, -1);
	CQ(io_uring_submit_and_wait_reg, "r, &cqe, 1, INT_MAX", ring(), &cqe_out, 1, INT_MAX);
	CI(__io_uring_sqring_wait, "NULL", NULL);
	CI(__io_uring_sqring_wait, "r (no SQPOLL)", ring());
	CI(__io_uring_sqring_wait, "r full (no SQPOLL)", with_nops(ring(), 8));

	/* ---- CQ side ---- */
	CQ(__io_uring_get_cqe, "NULL, &cqe, 0, 0, NULL", NULL, &cqe_out, 0, 0, NULL);
	CQ(__io_uring_get_cqe, "r, &cqe, 0, 0, NULL", ring(), &cqe_out, 0, 0, NULL);
	CI(__io_uring_get_cqe, "r, NULL, 0, 0, NULL", ring(), NULL, 0, 0, NULL);
	/* (submit counts beyond what is queued make liburing loop forever, on
	 * both libraries: not a useful case.) */
	CQ(__io_uring_get_cqe, "r (cqe ready), &cqe, 0, 1, sigmask", with_cqe(ring()), &cqe_out,
	   0, 1, empty_sigmask());
	CQ(__io_uring_get_cqe, "r (fd closed), &cqe, 0, 1, NULL", ring_fd_closed(), &cqe_out, 0, 1, NULL);
	CQ(io_uring_wait_cqe_timeout, "NULL, &cqe, 1ms", NULL, &cqe_out, &ts_1ms);
	CQ(io_uring_wait_cqe_timeout, "r, &cqe, 1ms", ring(), &cqe_out, &ts_1ms);
	CQ(io_uring_wait_cqe_timeout, "r, &cqe, ts=-1s", ring(), &cqe_out, &ts_neg);
	CQ(io_uring_wait_cqe_timeout, "r (cqe ready), &cqe, NULL", with_cqe(ring()), &cqe_out, NULL);
	CQ(io_uring_wait_cqe_timeout, "r (fd closed), &cqe, 1ms", ring_fd_closed(), &cqe_out, &ts_1ms);
	CQ(io_uring_wait_cqes, "NULL, &cqe, 1, 1ms, NULL", NULL, &cqe_out, 1, &ts_1ms, NULL);
	CQ(io_uring_wait_cqes, "r, &cqe, 0, NULL, NULL", ring(), &cqe_out, 0, NULL, NULL);
	CQ(io_uring_wait_cqes, "r, &cqe, 1, 1ms, NULL", ring(), &cqe_out, 1, &ts_1ms, NULL);
	CQ(io_uring_wait_cqes, "r, &cqe, 1, 1ms, sigmask", ring(), &cqe_out, 1, &ts_1ms, empty_sigmask());
	CQ(io_uring_wait_cqes, "r (cqe ready), &cqe, UINT_MAX, 1ms, NULL", with_cqe(ring()), &cqe_out,
	   UINT_MAX, &ts_1ms, NULL);
	CQ(io_uring_wait_cqes, "r, &cqe, 1, ts=-1s, NULL", ring(), &cqe_out, 1, &ts_neg, NULL);
	CQ(io_uring_wait_cqes_min_timeout, "NULL, &cqe, 1, 1ms, 10, NULL", NULL, &cqe_out, 1, &ts_1ms,
	   10, NULL);
	CQ(io_uring_wait_cqes_min_timeout, "r, &cqe, 1, 1ms, 10, NULL", ring(), &cqe_out, 1, &ts_1ms,
	   10, NULL);
	CQ(io_uring_wait_cqes_min_timeout, "r (cqe ready), &cqe, 1, NULL, 0, NULL", with_cqe(ring()),
	   &cqe_out, 1, NULL, 0, NULL);
	CQ(io_uring_wait_cqes_min_timeout, "r, &cqe, 0, 1ms, 2000, NULL", ring(), &cqe_out, 0,
	   &ts_1ms, 2000, NULL);
	CI(io_uring_peek_batch_cqe, "NULL, cqes, 4", NULL, (struct io_uring_cqe **) junk, 4);
	CI(io_uring_peek_batch_cqe, "r (empty), NULL, 16", ring(), NULL, 16);
	CI(io_uring_peek_batch_cqe, "r (1 ready), NULL, 0", with_cqe(ring()), NULL, 0);
	CI(io_uring_peek_batch_cqe, "r (1 ready), cqes, UINT_MAX", with_cqe(ring()),
	   (struct io_uring_cqe **) junk, UINT_MAX);
	CI(io_uring_peek_batch_cqe, "r (1 ready), NULL, 1", with_cqe(ring()), NULL, 1);
	CI(io_uring_get_events, "NULL", NULL);
	CI(io_uring_get_events, "r", ring());
	CI(io_uring_get_events, "r (fd closed)", ring_fd_closed());

	/* ---- raw syscalls ---- */
	CI(io_uring_enter, "-1, 0, 0, 0, NULL", -1, 0, 0, 0, NULL);
	CI(io_uring_enter, "9999, 0, 0, 0, NULL", 9999, 0, 0, 0, NULL);
	CI(io_uring_enter, "/dev/null, 0, 0, 0, NULL", devnull(), 0, 0, 0, NULL);
	CI(io_uring_enter, "ring, UINT_MAX, 0, 0, NULL", ring()->ring_fd, UINT_MAX, 0, 0, NULL);
	CI(io_uring_enter, "ring, 0, 0, ~0u, NULL", ring()->ring_fd, 0, 0, ~0u, NULL);
	CI(io_uring_enter, "ring, 0, 0, REGISTERED_RING (not registered)", ring()->ring_fd, 0, 0,
	   IORING_ENTER_REGISTERED_RING, NULL);
	CI(io_uring_enter2, "-1, 0, 0, 0, NULL, 0", -1, 0, 0, 0, NULL, 0);
	CI(io_uring_enter2, "ring, 0, 1, GETEVENTS|EXT_ARG, NULL, 0", ring()->ring_fd, 0, 1,
	   IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, NULL, 0);
	CI(io_uring_enter2, "ring, 0, 1, GETEVENTS|EXT_ARG, junk, 3", ring()->ring_fd, 0, 1,
	   IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, junk, 3);
	CI(io_uring_enter2, "ring, 0, 0, GETEVENTS, sigmask, 3", ring()->ring_fd, 0, 0,
	   IORING_ENTER_GETEVENTS, empty_sigmask(), 3);
	CI(io_uring_register, "-1, REGISTER_BUFFERS, NULL, 0", -1, IORING_REGISTER_BUFFERS, NULL, 0);
	CI(io_uring_register, "/dev/null, REGISTER_PROBE, NULL, 0", devnull(), IORING_REGISTER_PROBE,
	   NULL, 0);
	CI(io_uring_register, "ring, 9999, NULL, 0", ring()->ring_fd, 9999, NULL, 0);
	CI(io_uring_register, "ring, REGISTER_BUFFERS, NULL, 1", ring()->ring_fd,
	   IORING_REGISTER_BUFFERS, NULL, 1);
	CI(io_uring_register, "ring, REGISTER_FILES, NULL, UINT_MAX", ring()->ring_fd,
	   IORING_REGISTER_FILES, NULL, UINT_MAX);

	/* ---- ring fd registration ---- */
	CI(io_uring_register_ring_fd, "NULL", NULL);
	CI(io_uring_register_ring_fd, "r", ring());
	CI(io_uring_register_ring_fd, "r (already registered)", ring_registered());
	CI(io_uring_register_ring_fd, "r (fd closed)", ring_fd_closed());
	CI(io_uring_unregister_ring_fd, "NULL", NULL);
	CI(io_uring_unregister_ring_fd, "r (not registered)", ring());
	CI(io_uring_unregister_ring_fd, "r (registered)", ring_registered());
	CI(io_uring_close_ring_fd, "NULL", NULL);
	CI(io_uring_close_ring_fd, "r (not registered)", ring());
	CI(io_uring_close_ring_fd, "r (registered)", ring_registered());
	CI(io_uring_close_ring_fd, "r (registered, closed twice)",
	   ({ io_uring_close_ring_fd(ring_registered()); ring_registered(); }));

	/* ---- buffers ---- */
	CI(io_uring_register_buffers, "r, NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_buffers, "r, {NULL, 4096}, 1", ring(), &iov_null, 1);
	CI(io_uring_register_buffers, "r, {buf, SIZE_MAX/2}, 1", ring(), &iov_huge, 1);
	CI(io_uring_register_buffers, "r, &iov, UINT_MAX", ring(), &iov_ok, UINT_MAX);
	CI(io_uring_register_buffers, "r (tables registered), &iov, 1", ring_tables(), &iov_ok, 1);
	CI(io_uring_register_buffers_sparse, "NULL, 1", NULL, 1);
	CI(io_uring_register_buffers_sparse, "r, 0", ring(), 0);
	CI(io_uring_register_buffers_sparse, "r, UINT_MAX", ring(), UINT_MAX);
	CI(io_uring_register_buffers_tags, "NULL, &iov, tags, 1", NULL, &iov_ok, tags2, 1);
	CI(io_uring_register_buffers_tags, "r, NULL, NULL, 1", ring(), NULL, NULL, 1);
	CI(io_uring_register_buffers_tags, "r, &iov, NULL, 1", ring(), &iov_ok, NULL, 1);
	CI(io_uring_register_buffers_tags, "r, &iov, tags, 0", ring(), &iov_ok, tags2, 0);
	CI(io_uring_register_buffers_update_tag, "NULL, 0, &iov, tags, 1", NULL, 0, &iov_ok, tags2, 1);
	CI(io_uring_register_buffers_update_tag, "r (none), 0, &iov, tags, 1", ring(), 0, &iov_ok,
	   tags2, 1);
	CI(io_uring_register_buffers_update_tag, "r (2 slots), 5, &iov, tags, 1", ring_tables(), 5,
	   &iov_ok, tags2, 1);
	CI(io_uring_register_buffers_update_tag, "r (2 slots), UINT_MAX, &iov, tags, 1", ring_tables(),
	   UINT_MAX, &iov_ok, tags2, 1);
	CI(io_uring_register_buffers_update_tag, "r (2 slots), 0, NULL, NULL, 1", ring_tables(), 0,
	   NULL, NULL, 1);
	CI(io_uring_unregister_buffers, "r (none)", ring());
	CI(io_uring_unregister_buffers, "r (2 slots)", ring_tables());
	CI(io_uring_clone_buffers, "NULL, NULL", NULL, NULL);
	CI(io_uring_clone_buffers, "NULL, r", NULL, ring());
	CI(io_uring_clone_buffers, "r, NULL", ring(), NULL);
	CI(io_uring_clone_buffers, "r, r (same)", ring(), ring());
	CI(io_uring_clone_buffers, "r, r2 (no buffers)", ring(), ring2());
	CI(io_uring_clone_buffers, "r (has buffers), r2 (with)", ring_tables(), ring_tables());
	CI(io_uring_clone_buffers, "r2, r (fd closed)", ring2(), ring_fd_closed());
	CI(io_uring_clone_buffers_offset, "NULL, r, 0, 0, 1, 0", NULL, ring(), 0, 0, 1, 0);
	CI(io_uring_clone_buffers_offset, "r, NULL, 0, 0, 1, 0", ring(), NULL, 0, 0, 1, 0);
	CI(io_uring_clone_buffers_offset, "r2, r (2 slots), UINT_MAX, 0, 1, 0", ring2(), ring_tables(),
	   UINT_MAX, 0, 1, 0);
	CI(io_uring_clone_buffers_offset, "r2, r (2 slots), 0, 0, UINT_MAX, 0", ring2(), ring_tables(),
	   0, 0, UINT_MAX, 0);
	CI(io_uring_clone_buffers_offset, "r2, r (2 slots), 0, 0, 1, ~0u", ring2(), ring_tables(), 0,
	   0, 1, ~0u);
	CI(io_uring_clone_buffers_offset, "r2, r (2 slots), 0, 0, 1, 0", ring2(), ring_tables(), 0, 0,
	   1, 0);
	CI(__io_uring_clone_buffers, "NULL, r, 0", NULL, ring(), 0);
	CI(__io_uring_clone_buffers, "r, NULL, 0", ring(), NULL, 0);
	CI(__io_uring_clone_buffers, "r2, r (2 slots), ~0u", ring2(), ring_tables(), ~0u);
	CI(__io_uring_clone_buffers, "r2, r (none), 0", ring2(), ring(), 0);
	CI(__io_uring_clone_buffers_offset, "NULL, r, 0, 0, 1, 0", NULL, ring(), 0, 0, 1, 0);
	CI(__io_uring_clone_buffers_offset, "r, NULL, 0, 0, 1, 0", ring(), NULL, 0, 0, 1, 0);
	CI(__io_uring_clone_buffers_offset, "r2, r (2 slots), 0, 7, 1, 0", ring2(), ring_tables(), 0,
	   7, 1, 0);
	CI(__io_uring_clone_buffers_offset, "r2, r (2 slots), 0, 0, 1, ~0u", ring2(), ring_tables(), 0,
	   0, 1, ~0u);

	/* ---- files ---- */
	CI(io_uring_register_files, "r, NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_files, "r, {-1, 9999}, 2", ring(), files_bad, 2);
	CI(io_uring_register_files, "r, {-2, -2}, 2", ring(), files_neg2, 2);
	CI(io_uring_register_files, "r, fds, UINT_MAX", ring(), files_bad, UINT_MAX);
	CI(io_uring_register_files, "r (table exists), {-1}, 1", ring_tables(), files_bad, 1);
	CI(io_uring_register_files_sparse, "NULL, 4", NULL, 4);
	CI(io_uring_register_files_sparse, "r, 0", ring(), 0);
	CI(io_uring_register_files_sparse, "r, UINT_MAX", ring(), UINT_MAX);
	CI(io_uring_register_files_tags, "NULL, fds, tags, 1", NULL, files_bad, tags2, 1);
	CI(io_uring_register_files_tags, "r, NULL, NULL, 1", ring(), NULL, NULL, 1);
	CI(io_uring_register_files_tags, "r, {-1, 9999}, NULL, 2", ring(), files_bad, NULL, 2);
	CI(io_uring_register_files_tags, "r, fds, tags, 0", ring(), files_bad, tags2, 0);
	CI(io_uring_register_files_update, "NULL, 0, fds, 1", NULL, 0, files_bad, 1);
	CI(io_uring_register_files_update, "r (no table), 0, {-1}, 1", ring(), 0, files_bad, 1);
	CI(io_uring_register_files_update, "r (4 slots), 0, {-1, 9999}, 2", ring_tables(), 0,
	   files_bad, 2);
	CI(io_uring_register_files_update, "r (4 slots), 4, {-1}, 1", ring_tables(), 4, files_bad, 1);
	CI(io_uring_register_files_update, "r (4 slots), UINT_MAX, {-1}, 1", ring_tables(), UINT_MAX,
	   files_bad, 1);
	CI(io_uring_register_files_update, "r (4 slots), 0, NULL, 1", ring_tables(), 0, NULL, 1);
	CI(io_uring_register_files_update_tag, "NULL, 0, fds, tags, 1", NULL, 0, files_bad, tags2, 1);
	CI(io_uring_register_files_update_tag, "r (no table), 0, {-1}, tags, 1", ring(), 0, files_bad,
	   tags2, 1);
	CI(io_uring_register_files_update_tag, "r (4 slots), 3, {-1, 9999}, tags, 2", ring_tables(), 3,
	   files_bad, tags2, 2);
	CI(io_uring_register_files_update_tag, "r (4 slots), 0, {-1}, NULL, 1", ring_tables(), 0,
	   files_bad, NULL, 1);
	CI(io_uring_unregister_files, "r (no table)", ring());
	CI(io_uring_unregister_files, "r (4 slots)", ring_tables());
	CI(io_uring_register_file_alloc_range, "NULL, 0, 1", NULL, 0, 1);
	CI(io_uring_register_file_alloc_range, "r (no table), 0, 1", ring(), 0, 1);
	CI(io_uring_register_file_alloc_range, "r (4 slots), 2, 5", ring_tables(), 2, 5);
	CI(io_uring_register_file_alloc_range, "r (4 slots), UINT_MAX, UINT_MAX", ring_tables(),
	   UINT_MAX, UINT_MAX);
	CI(io_uring_register_file_alloc_range, "r (4 slots), 0, 0", ring_tables(), 0, 0);

	/* ---- eventfd ---- */
	CI(io_uring_register_eventfd, "r, -1", ring(), -1);
	CI(io_uring_register_eventfd, "r, 9999", ring(), 9999);
	CI(io_uring_register_eventfd, "r, /dev/null", ring(), devnull());
	CI(io_uring_register_eventfd, "r, efd twice", ring(),
	   ({ io_uring_register_eventfd(ring(), an_eventfd()); an_eventfd(); }));
	CI(io_uring_register_eventfd_async, "r, -1", ring(), -1);
	CI(io_uring_register_eventfd_async, "r, INT_MIN", ring(), INT_MIN);
	CI(io_uring_unregister_eventfd, "r (none)", ring());

	/* ---- personalities ---- */
	CI(io_uring_register_personality, "r", ring());
	CI(io_uring_unregister_personality, "r, 5 (unregistered)", ring(), 5);
	CI(io_uring_unregister_personality, "r, -1", ring(), -1);
	CI(io_uring_unregister_personality, "r, INT_MAX", ring(), INT_MAX);

	/* ---- io-wq ---- */
	CI(io_uring_register_iowq_aff, "r, 0, NULL", ring(), 0, NULL);
	CI(io_uring_register_iowq_aff, "r, sizeof(cpu_set_t), NULL", ring(), sizeof(cpu_set_t), NULL);
	CI(io_uring_register_iowq_aff, "r, SIZE_MAX, &set", ring(), SIZE_MAX, (cpu_set_t *) junk);
	CI(io_uring_register_iowq_aff, "r, sizeof, empty set", ring(), sizeof(cpu_set_t),
	   (cpu_set_t *) memset(junk, 0, sizeof(cpu_set_t)));
	CI(io_uring_unregister_iowq_aff, "r (none)", ring());
	CI(io_uring_register_iowq_max_workers, "r, {UINT_MAX, UINT_MAX}", ring(),
	   ({ vals2[0] = vals2[1] = UINT_MAX; vals2; }));

	/* ---- provided buffer rings ---- */
	CI(io_uring_register_buf_ring, "NULL, &reg, 0", NULL, (struct io_uring_buf_reg *) junk, 0);
	CI(io_uring_register_buf_ring, "r, NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_buf_ring, "r, zeroed reg, 0", ring(),
	   (struct io_uring_buf_reg *) memset(junk, 0, 64), 0);
	CI(io_uring_register_buf_ring, "r, reg entries=3 addr=0, 0", ring(),
	   ({ struct io_uring_buf_reg *g_ = memset(junk, 0, 64); g_->ring_entries = 3; g_; }), 0);
	CI(io_uring_register_buf_ring, "r, zeroed reg, ~0u", ring(),
	   (struct io_uring_buf_reg *) memset(junk, 0, 64), ~0u);
	CI(io_uring_unregister_buf_ring, "NULL, 1", NULL, 1);
	CI(io_uring_unregister_buf_ring, "r, 5 (unregistered)", ring(), 5);
	CI(io_uring_unregister_buf_ring, "r, -1", ring(), -1);
	CI(io_uring_unregister_buf_ring, "r, 65536", ring(), 65536);
	CP(io_uring_setup_buf_ring, "NULL, 8, 1, 0, &err", NULL, 8, 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 0, 1, 0, &err", ring(), 0, 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 3, 1, 0, &err", ring(), 3, 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 65536, 1, 0, &err", ring(), 65536, 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, UINT_MAX, 1, 0, &err", ring(), UINT_MAX, 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 8, -1, 0, &err", ring(), 8, -1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 8, 65536, 0, &err", ring(), 8, 65536, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r, 8, 1, ~0u, &err", ring(), 8, 1, ~0u, &err_out);
	CP(io_uring_setup_buf_ring, "r, 8, 1 (taken), 0, &err", ring(),
	   ({ a_buf_ring(ring(), 1); 8; }), 1, 0, &err_out);
	CP(io_uring_setup_buf_ring, "r (fd closed), 8, 1, 0, &err", ring_fd_closed(), 8, 1, 0, &err_out);
	CI(io_uring_free_buf_ring, "NULL, br, 8, 1", NULL, (struct io_uring_buf_ring *) junk, 8, 1);
	CI(io_uring_free_buf_ring, "r, NULL, 8, 5 (unregistered)", ring(), NULL, 8, 5);
	CI(io_uring_free_buf_ring, "r, br, 8, 2 (other bgid)", ring(), a_buf_ring(ring(), 1), 8, 2);
	CI(io_uring_buf_ring_head, "NULL, 1, &head", NULL, 1, &head_out);
	CI(io_uring_buf_ring_head, "r, 5 (unregistered), &head", ring(), 5, &head_out);
	CI(io_uring_buf_ring_head, "r, 5 (unregistered), NULL", ring(), 5, NULL);
	CI(io_uring_buf_ring_head, "r, -1, &head", ring(), -1, &head_out);
	CI(io_uring_buf_ring_head, "r, 1 (registered), NULL", ({ a_buf_ring(ring(), 1); ring(); }), 1,
	   NULL);

	/* ---- the registration calls taking a struct ---- */
	CI(io_uring_register_restrictions, "r (enabled), NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_restrictions, "r (R_DISABLED), NULL, 1", ring_r_disabled(), NULL, 1);
	CI(io_uring_register_restrictions, "r (R_DISABLED), junk, UINT_MAX", ring_r_disabled(),
	   (struct io_uring_restriction *) memset(junk, 0, 64), UINT_MAX);
	CI(io_uring_register_restrictions, "r (R_DISABLED), op 255, 1", ring_r_disabled(),
	   ({ struct io_uring_restriction *x_ = memset(junk, 0, 64); x_->opcode = 255; x_; }), 1);
	CI(io_uring_register_sync_cancel, "r, zeroed reg (no match)", ring(),
	   ({ struct io_uring_sync_cancel_reg *c_ = memset(junk, 0, 128);
	      c_->timeout.tv_sec = -1; c_->timeout.tv_nsec = -1; c_; }));
	CI(io_uring_register_sync_cancel, "r, reg flags ~0u", ring(),
	   ({ struct io_uring_sync_cancel_reg *c_ = memset(junk, 0, 128); c_->flags = ~0u; c_; }));
	CI(io_uring_register_napi, "r, napi pad/resv nonzero", ring(),
	   ({ struct io_uring_napi *n_ = memset(junk, 0, 64); n_->pad[0] = 99; n_->resv = 1; n_; }));
	CI(io_uring_unregister_napi, "r (none), &napi", ring(), (struct io_uring_napi *) memset(junk, 0, 64));
	CI(io_uring_register_clock, "r, clockid -1", ring(),
	   ({ struct io_uring_clock_register *k_ = memset(junk, 0, 64); k_->clockid = ~0u; k_; }));
	CI(io_uring_register_region, "r, zeroed reg", ring(),
	   (struct io_uring_mem_region_reg *) memset(junk, 0, 64));
	CI(io_uring_register_wait_reg, "NULL, reg, 1", NULL, (struct io_uring_reg_wait *) junk, 1);
	CI(io_uring_register_wait_reg, "r, NULL, 0", ring(), NULL, 0);
	CI(io_uring_register_wait_reg, "r, NULL, -1", ring(), NULL, -1);
	CI(io_uring_register_wait_reg, "r, reg, INT_MAX", ring(), (struct io_uring_reg_wait *) junk, INT_MAX);
	CI(io_uring_register_ifq, "r, zeroed reg", ring(),
	   (struct io_uring_zcrx_ifq_reg *) memset(junk, 0, 256));
	CI(io_uring_register_zcrx_ctrl, "r, zeroed ctrl", ring(), (struct zcrx_ctrl *) memset(junk, 0, 256));
	CI(io_uring_register_sync_msg, "zeroed sqe (fd 0)", (struct io_uring_sqe *) memset(junk, 0, 128));
	CI(io_uring_register_sync_msg, "sqe fd -1",
	   ({ struct io_uring_sqe *q_ = memset(junk, 0, 128); q_->fd = -1; q_; }));
	CI(io_uring_register_bpf_filter, "r, zeroed", ring(), (struct io_uring_bpf *) memset(junk, 0, 256));
	CI(io_uring_register_bpf_filter_task, "zeroed", (struct io_uring_bpf *) memset(junk, 0, 256));
	CI(io_uring_register_query, "zeroed hdr", (struct io_uring_query_hdr *) memset(junk, 0, 256));
	CI(io_uring_register_query, "hdr op 9999",
	   ({ struct io_uring_query_hdr *h_ = memset(junk, 0, 256); h_->query_op = 9999; h_; }));

	/* ---- liburing-ffi helpers (as exported by liburing-ffi.so.2) ---- */
	CI(FFI(io_uring_peek_cqe), "NULL, &cqe", NULL, &cqe_out);
	CQ(FFI(io_uring_peek_cqe), "r (empty), &cqe", ring(), &cqe_out);
	CQ(FFI(io_uring_peek_cqe), "r (fd closed), &cqe", ring_fd_closed(), &cqe_out);
	CQ(FFI(io_uring_wait_cqe_nr), "r (1 ready), &cqe, 0", with_cqe(ring()), &cqe_out, 0);
	CQ(FFI(io_uring_wait_cqe), "r (fd closed), &cqe", ring_fd_closed(), &cqe_out);
	CV(FFI(io_uring_cqe_seen), "r, NULL", ring(), NULL);
	CV(FFI(io_uring_cqe_seen), "NULL, NULL", NULL, NULL);
	CV(FFI(io_uring_cq_advance), "r, 0", ring(), 0);
	CV(FFI(io_uring_cq_advance), "NULL, 0", NULL, 0);
	CI(FFI(io_uring_cq_ready), "r (1 ready)", with_cqe(ring()));
	CI(FFI(io_uring_cq_has_overflow), "r", ring());
	CI(FFI(io_uring_cq_eventfd_enabled), "r", ring());
	CI(FFI(io_uring_cq_eventfd_toggle), "r, false", ring(), false);
	CI(FFI(io_uring_cq_eventfd_toggle), "r, true (already)", ring(), true);
	CI(FFI(io_uring_sq_ready), "r (3 prepared)", with_nops(ring(), 3));
	CI(FFI(io_uring_sq_space_left), "r (full)", with_nops(ring(), 8));
	CI(FFI(io_uring_sqring_wait), "NULL", NULL);
	CI(FFI(io_uring_sqring_wait), "r (no SQPOLL)", ring());
	CP(FFI(io_uring_get_sqe128), "r (not SQE128/MIXED)", ring());
	CI(FFI(io_uring_opcode_supported), "probe, -1", a_probe(), -1);
	CI(FFI(io_uring_opcode_supported), "probe, 255", a_probe(), 255);
	CI(FFI(io_uring_opcode_supported), "probe, INT_MAX", a_probe(), INT_MAX);
	CI(FFI(io_uring_opcode_supported), "NULL, 0", NULL, 0);
	CI(FFI(io_uring_buf_ring_mask), "0", 0);
	CI(FFI(io_uring_buf_ring_mask), "3", 3);
	CI(FFI(io_uring_buf_ring_mask), "UINT_MAX", UINT_MAX);
	CI(FFI(io_uring_buf_ring_available), "r, br, 5 (unregistered)", ring(),
	   (struct io_uring_buf_ring *) junk, 5);
	CV(FFI(io_uring_buf_ring_init), "NULL", NULL);
	CV(FFI(io_uring_buf_ring_advance), "NULL, 1", NULL, 1);
	CV(FFI(io_uring_buf_ring_cq_advance), "r, NULL, 0", ring(), NULL, 0);
	CP(FFI(io_uring_recvmsg_validate), "NULL, 0, &msgh", NULL, 0, (struct msghdr *) junk);
	CP(FFI(io_uring_recvmsg_validate), "buf, 4, &msgh", junk, 4, (struct msghdr *) junk);
	CP(FFI(io_uring_recvmsg_validate), "buf, -1, &msgh", junk, -1,
	   (struct msghdr *) memset(junk, 0, 64));
	CP(FFI(io_uring_cqe_get_data), "NULL", NULL);
	CV(FFI(io_uring_sqe_set_data64), "NULL, 1", NULL, 1);
	CV(FFI(io_uring_prep_nop), "NULL", NULL);
	CV(FFI(io_uring_prep_read), "NULL, -1, NULL, 0, 0", NULL, -1, NULL, 0, 0);
	CI(FFI(io_uring_cqe_nr), "cqe (flags 0)", (struct io_uring_cqe *) memset(junk, 0, 64));
	CI(FFI(io_uring_cqe_nr), "cqe (flags ~0)",
	   ({ struct io_uring_cqe *e_ = memset(junk, 0, 64); e_->flags = ~0u; e_; }));
	CI(FFI(io_uring_register_napi), "NULL, NULL", NULL, NULL);
	CI(FFI(io_uring_unregister_napi), "r, NULL", ring(), NULL);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Driver: one child per case                                              */
/* ---------------------------------------------------------------------- */

static const char *signame(int sig)
{
	const char *n = sigabbrev_np(sig);
	static char buf[32];

	snprintf(buf, sizeof(buf), "SIG%s", n ? n : "?");
	return buf;
}

int main(int argc, char **argv)
{
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <liburing-ffi.so.2 path>\n", argv[0]);
		return 2;
	}
	ffi_handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!ffi_handle) {
		fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (n = 0;; n++) {
		char buf[1024];
		size_t len = 0;
		int pfd[2], st;
		ssize_t r;
		pid_t pid;

		if (pipe(pfd))
			return 3;
		pid = fork();
		if (pid < 0)
			return 3;
		if (pid == 0) {
			close(pfd[0]);
			out_fd = pfd[1];
			target = n;
			alarm(CASE_TIMEOUT_S);
			if (!run_case())
				emit("END");
			_exit(0);
		}
		close(pfd[1]);
		while (len < sizeof(buf) - 1 &&
		       (r = read(pfd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
			len += r;
		buf[len] = 0;
		close(pfd[0]);
		if (waitpid(pid, &st, 0) != pid)
			return 3;
		if (!strcmp(buf, "END"))
			break;
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
			buf[--len] = 0;
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
			printf("%d %s TIMEOUT\n", n, buf);
		else if (WIFSIGNALED(st))
			printf("%d %s CRASH %s\n", n, buf, signame(WTERMSIG(st)));
		else if (WEXITSTATUS(st) != 0)
			printf("%d %s EXIT %d\n", n, buf, WEXITSTATUS(st));
		else
			printf("%d %s\n", n, buf);
	}
	fprintf(stderr, "%d cases\n", n);
	return 0;
}
