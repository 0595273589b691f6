/* SPDX-License-Identifier: MIT */
/*
 * The eleven ways a program behaved differently with LIBURING_TRACE,
 * LIBURING_DEBUG or LIBURING_CHECK set (issue 35), each as a program run
 * twice, without and with the variables, and compared by what it did
 * (diag-compare.h: how it ended, its own stdout and stderr, its files, its
 * descriptors, errno after each library call), plus the case's own check:
 *
 *  1 sig-setup[-mt]   rings set up, used and torn down in a SIGALRM handler
 *                     (every 500 us) while the program loops malloc/free,
 *                     single-threaded (heap corruption) and with a second
 *                     thread (allocator lock: a deadlock is killed at 6 s).
 *  2 fiber-*, altstack-*, main-indirect
 *                     a LIBURING_CHECK finding (user_data reuse) made on a
 *                     makecontext fiber and on a sigaltstack, both guarded
 *                     by PROT_NONE pages, by a direct call and through a
 *                     function pointer, and through a function pointer on
 *                     the main stack: no crash, and the finding's "called
 *                     from" names the program's calling function or nothing;
 *                     fiber-small: the same on a 12 KiB fiber stack (the
 *                     diagnostics' own use of the caller's stack is bounded).
 *  3 reload, reload-nofile64, two-libraries
 *                     a plugin host (diag-programs/plugin-host.c) loads and
 *                     unloads liburing.so.2 100 times, NOPs each time: the
 *                     same descriptors at the end as at the start, also
 *                     under RLIMIT_NOFILE 64; liburing.so.2 and
 *                     liburing-ffi.so.2 in one process with a JSON trace:
 *                     the file is one trace-event array.
 *  4 closed-*         started with stdout and/or stderr closed: the files it
 *                     opens get the same numbers and hold only its own data
 *                     (trace to a file and to stderr).
 *  5 dup2-race        a thread submits and reaps, traced to a file, while
 *                     the main thread dup2()s its data file onto numbers
 *                     3..24 (where the trace's descriptors would be), for
 *                     a moment (putting back what was there, as a program
 *                     redirects a number) and then for good: the data file
 *                     is exactly the program's (10 runs; DIAG_RACE_RUNS).
 *  6 fsize            RLIMIT_FSIZE 64 KiB and a trace that would outgrow it:
 *                     exit 0 as without (no SIGXFSZ), trace file <= 64 KiB.
 *  7 errno            errno after every library call, succeeding or
 *                     failing, with findings printed during calls (user_data
 *                     reuse; owner-thread on a SINGLE_ISSUER ring; a finding
 *                     while the descriptor table is full).
 *  8 object-*         the diagnostics object cut to half its size, replaced
 *                     by a copy of liburing.so.2, or by an object with a
 *                     constructor: the program runs as without, and stderr
 *                     gets exactly one "liburing: ... ignored" line.
 *  9 submit-wait-*    one thread submits while another waits on the same
 *                     ring (the creator waiting, the creator submitting, a
 *                     SINGLE_ISSUER ring's owner submitting) under
 *                     LIBURING_CHECK=abort: exit 0, no finding.
 * 10 static           a static program (liburing.a, -static when there is a
 *                     static C library) without liburing-diag.a: exactly
 *                     the shared library's one "ignored" line, else as without.
 * 11 many-rings       32 threads x 100 rings set up at once, traced to a
 *                     file: one summary per ring, no duplicate.
 *
 * The child programs are this file's "child" modes, rebuilt with -rdynamic
 * (so dladdr can name the functions of case 2); `diag-classes CASE...`
 * runs only the named cases.
 */
#include "diag-compare.h"

#include <pthread.h>
#include <sys/time.h>

/* makecontext and swapcontext: glibc has them, musl does not. */
#ifdef __GLIBC__
#define HAVE_MAKECONTEXT 1
#include <ucontext.h>
#else
#define HAVE_MAKECONTEXT 0
#endif

#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif

/* ================================================================== */
/* Child programs                                                      */
/* ================================================================== */

static void child_nops(struct io_uring *ring, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		struct io_uring_sqe *sqe = HC(io_uring_get_sqe(ring));
		struct io_uring_cqe *cqe;

		CHECK(sqe);
		io_uring_prep_nop(sqe);
		sqe->user_data = (unsigned) i + 1;
		CHECK_EQ(HC(io_uring_submit(ring)), 1);
		CHECK_EQ(HC(io_uring_wait_cqe(ring, &cqe)), 0);
		CHECK_EQ(cqe->res, 0);
		HCV(io_uring_cqe_seen(ring, cqe));
	}
}

/* A plain program: a data file, a ring, NOPs, a failed setup (a
 * LIBURING_DEBUG line), an eventfd registered and unregistered. */
static int child_basic(void)
{
	struct io_uring ring, bad;
	int fd = harm_data_file("data", 8192, 1), efd = eventfd(0, EFD_CLOEXEC);

	CHECK(fd >= 0 && efd >= 0);
	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	child_nops(&ring, 20);
	CHECK_EQ(HC(io_uring_queue_init(8, &bad, 1U << 30)), -EINVAL);
	CHECK_EQ(HC(io_uring_register_eventfd(&ring, efd)), 0);
	child_nops(&ring, 5);
	CHECK_EQ(HC(io_uring_unregister_eventfd(&ring)), 0);
	HCV(io_uring_queue_exit(&ring));
	printf("basic: done\n");
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 1: rings in a signal handler ---------------------------- */

static volatile sig_atomic_t sig_rings, sig_failed;
static volatile int malloc_stop;

static void on_alarm_ring(int sig)
{
	int saved = errno, ret;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring r;

	(void) sig;
	ret = HC(io_uring_queue_init(4, &r, 0));
	if (ret < 0) {
		sig_failed = -ret;
		errno = saved;
		return;
	}
	sqe = HC(io_uring_get_sqe(&r));
	io_uring_prep_nop(sqe);
	sqe->user_data = 1;
	if (HC(io_uring_submit_and_wait(&r, 1)) != 1 || HC(io_uring_peek_cqe(&r, &cqe)) != 0)
		sig_failed = 1000;
	else
		HCV(io_uring_cqe_seen(&r, cqe));
	HCV(io_uring_queue_exit(&r));
	sig_rings++;
	errno = saved;
}

/* Allocates, fills, checks and frees blocks of many sizes; exits 3 when a
 * block's contents changed under it. */
static void malloc_churn(unsigned *seed, void **keep, unsigned nkeep)
{
	unsigned i = rand_r(seed) % nkeep;
	size_t n = 16 + rand_r(seed) % 3000;
	unsigned char *p = (unsigned char *) malloc(n);

	if (!p) {
		fprintf(stderr, "malloc(%zu) failed\n", n);
		exit(4);
	}
	memset(p, (int) (n & 0xff), n);
	memcpy(p, &n, sizeof(n));
	if (keep[i]) {
		unsigned char *q = (unsigned char *) keep[i];
		size_t m;

		memcpy(&m, q, sizeof(m));
		for (size_t k = sizeof(m); k < m; k++)
			if (q[k] != (unsigned char) (m & 0xff)) {
				fprintf(stderr, "heap block of %zu bytes corrupted at %zu\n", m, k);
				exit(3);
			}
		free(q);
	}
	keep[i] = p;
}

static void *malloc_thread(void *arg)
{
	void *keep[64] = { 0 };
	unsigned seed = 7;
	sigset_t all;

	(void) arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (!__atomic_load_n(&malloc_stop, __ATOMIC_RELAXED))
		malloc_churn(&seed, keep, 64);
	for (unsigned i = 0; i < 64; i++)
		free(keep[i]);
	return NULL;
}

static int child_sig_setup(int threaded)
{
	struct itimerval every = { { 0, 500 }, { 0, 500 } }, off = { { 0, 0 }, { 0, 0 } };
	void *keep[64] = { 0 };
	unsigned seed = 1;
	long long end;
	pthread_t t;

	/* With a second thread the allocator takes its locks. */
	if (threaded)
		CHECK(pthread_create(&t, NULL, malloc_thread, NULL) == 0);
	signal(SIGALRM, on_alarm_ring);
	CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
	end = check_now_ms() + 700;
	while (check_now_ms() < end || sig_rings < 100)
		malloc_churn(&seed, keep, 64);
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	signal(SIGALRM, SIG_IGN);
	if (threaded) {
		__atomic_store_n(&malloc_stop, 1, __ATOMIC_RELAXED);
		CHECK(pthread_join(t, NULL) == 0);
	}
	for (unsigned i = 0; i < 64; i++)
		free(keep[i]);
	CHECKM(!sig_failed, "a ring in the handler failed: %d", (int) sig_failed);
	printf("rings in a signal handler: at least 100, all torn down\n");
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 2: a finding on a fiber and on an alternate signal stack --- */

static struct io_uring fiber_ring;
static int fiber_pipe[2][2];
static char fiber_buf[2][8];
static volatile int fiber_ret;
static int (*volatile submit_through)(struct io_uring *) = io_uring_submit;

/* The second read with the first one's user_data: a finding in the
 * submit. Global (not static) so that -rdynamic names them. */
void harm_fiber_direct(void);
void harm_fiber_indirect(void);
void harm_alt_direct(void);
void harm_alt_indirect(void);
void harm_main_indirect(void);

static void second_read(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&fiber_ring);

	io_uring_prep_read(sqe, fiber_pipe[1][0], fiber_buf[1], 8, 0);
	io_uring_sqe_set_data64(sqe, 7);
}

/* Each keeps a frame of its own: the call is not a tail call. */
__attribute__((noinline)) void harm_fiber_direct(void)
{
	second_read();
	fiber_ret = io_uring_submit(&fiber_ring);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void harm_fiber_indirect(void)
{
	second_read();
	fiber_ret = submit_through(&fiber_ring);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void harm_alt_direct(void)
{
	second_read();
	fiber_ret = io_uring_submit(&fiber_ring);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void harm_alt_indirect(void)
{
	second_read();
	fiber_ret = submit_through(&fiber_ring);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void harm_main_indirect(void)
{
	second_read();
	fiber_ret = submit_through(&fiber_ring);
	__asm__ volatile("" ::: "memory");
}

static void (*fiber_call)(void);

#if HAVE_MAKECONTEXT
static ucontext_t main_context, fiber_context;

static void fiber_entry(void)
{
	fiber_call();
}
#endif

/* `size` bytes of stack between two PROT_NONE pages. */
static void *guarded_stack(size_t size)
{
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	char *m = (char *) mmap(NULL, size + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	CHECK(m != MAP_FAILED);
	CHECK(mprotect(m + page, size, PROT_READ | PROT_WRITE) == 0);
	return m + page;
}

static void on_usr1_alt(int sig)
{
	(void) sig;
	fiber_call();
}

/* fiber-small: 12 KiB, as small-stack coroutine runtimes give (the program
 * needs under 4 KiB of it, the diagnostics must fit too). A function, not a
 * local: child_fiber calls getcontext, and gcc 16 warns that a local may be
 * clobbered across it. */
static size_t fiber_stack_bytes(const char *where)
{
	return !strcmp(where, "fiber-small") ? 12 * 1024 : 64 * 1024;
}

static int child_fiber(const char *where)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;

	CHECK_EQ(io_uring_queue_init(8, &fiber_ring, 0), 0);
	CHECK(pipe(fiber_pipe[0]) == 0 && pipe(fiber_pipe[1]) == 0);
	sqe = io_uring_get_sqe(&fiber_ring);
	io_uring_prep_read(sqe, fiber_pipe[0][0], fiber_buf[0], 8, 0);
	io_uring_sqe_set_data64(sqe, 7);
	CHECK_EQ(io_uring_submit(&fiber_ring), 1);

	if (!strncmp(where, "fiber-", 6)) {
		fiber_call = !strcmp(where, "fiber-indirect") ? harm_fiber_indirect : harm_fiber_direct;
#if HAVE_MAKECONTEXT
		CHECK(getcontext(&fiber_context) == 0);
		fiber_context.uc_stack.ss_sp = guarded_stack(fiber_stack_bytes(where));
		fiber_context.uc_stack.ss_size = fiber_stack_bytes(where);
		fiber_context.uc_link = &main_context;
		makecontext(&fiber_context, fiber_entry, 0);
		CHECK(swapcontext(&main_context, &fiber_context) == 0);
#else
		FAIL("no makecontext in this C library");
#endif
	} else if (!strcmp(where, "altstack-direct") || !strcmp(where, "altstack-indirect")) {
		struct sigaction sa;
		stack_t ss;

		fiber_call = !strcmp(where, "altstack-direct") ? harm_alt_direct : harm_alt_indirect;
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = guarded_stack(fiber_stack_bytes(where));
		ss.ss_size = fiber_stack_bytes(where);
		CHECK(sigaltstack(&ss, NULL) == 0);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1_alt;
		sa.sa_flags = SA_ONSTACK;
		CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
		raise(SIGUSR1);
	} else if (!strcmp(where, "main-indirect")) {
		harm_main_indirect();
	} else {
		FAIL("unknown fiber variant %s", where);
	}
	CHECK_EQ(fiber_ret, 1);
	CHECK(write(fiber_pipe[0][1], "a", 1) == 1 && write(fiber_pipe[1][1], "b", 1) == 1);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(io_uring_wait_cqe(&fiber_ring, &cqe), 0);
		CHECK_EQ(cqe->res, 1);
		io_uring_cqe_seen(&fiber_ring, cqe);
	}
	io_uring_queue_exit(&fiber_ring);
	printf("%s: both reads done\n", where);
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 4: started with stdout or stderr closed ------------------- */

/* Two reads in flight with one user_data: a LIBURING_CHECK finding. */
static void user_data_reuse(struct io_uring *ring)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	static char buf[2][8];
	int p[2][2];

	CHECK(pipe(p[0]) == 0 && pipe(p[1]) == 0);
	for (int i = 0; i < 2; i++) {
		sqe = HC(io_uring_get_sqe(ring));
		io_uring_prep_read(sqe, p[i][0], buf[i], 8, 0);
		io_uring_sqe_set_data64(sqe, 7);
		CHECK_EQ(HC(io_uring_submit(ring)), 1);
	}
	CHECK(write(p[0][1], "a", 1) == 1 && write(p[1][1], "b", 1) == 1);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(HC(io_uring_wait_cqe(ring, &cqe)), 0);
		HCV(io_uring_cqe_seen(ring, cqe));
	}
	for (int i = 0; i < 2; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

static int child_stdio(void)
{
	char path[4096];
	struct io_uring ring, bad;
	int a, b;

	/* Its data files, opened first: they take the lowest free numbers. */
	a = open(harm_path("a", path, sizeof(path)), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	b = open(harm_path("b", path, sizeof(path)), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(a >= 0 && b >= 0);
	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	child_nops(&ring, 10);
	CHECK_EQ(HC(io_uring_queue_init(8, &bad, 1U << 30)), -EINVAL);
	user_data_reuse(&ring);
	/* Where stdout or stderr is one of its files, these land there. */
	printf("the program's own stdout line\n");
	fflush(stdout);
	fprintf(stderr, "the program's own stderr line\n");
	CHECK(write(a, "data of a\n", 10) == 10);
	CHECK(write(b, "data of b\n", 10) == 10);
	HCV(io_uring_queue_exit(&ring));
	harm_report();
	return 0;
}

/* ---- case 5: dup2 onto descriptor numbers while a thread traces ------ */

#define RACE_THREADS 1

static struct io_uring race_ring[RACE_THREADS];
static volatile int race_stop;

static void *race_submitter(void *arg)
{
	struct io_uring *ring = (struct io_uring *) arg;

	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		struct io_uring_cqe *cqe;

		for (int i = 0; i < 8; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_nop(sqe);
			sqe->user_data = (unsigned) i + 1;
		}
		CHECK_EQ(io_uring_submit(ring), 8);
		for (int i = 0; i < 8; i++) {
			CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
			io_uring_cqe_seen(ring, cqe);
		}
	}
	return NULL;
}

static int child_dup2_race(void)
{
	char data[4096], back[8192], path[4096];
	int fd, own[32] = { 0 }, taken[32] = { 0 };
	pthread_t t[RACE_THREADS];

	for (int i = 0; i < RACE_THREADS; i++) {
		CHECK_EQ(io_uring_queue_init(16, &race_ring[i], 0), 0);
		if (race_ring[i].ring_fd < 32)
			own[race_ring[i].ring_fd] = 1;
	}
	fd = open(harm_path("data", path, sizeof(path)), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && fd < 32);
	own[fd] = 1;
	check_fill(data, sizeof(data), 5);
	CHECK(write(fd, data, sizeof(data)) == (ssize_t) sizeof(data));
	for (int i = 0; i < RACE_THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, race_submitter, &race_ring[i]) == 0);
	check_sleep_ms(1 + getpid() % 3);
	/* Its data file on each of 3..24 for a moment, as a program redirects
	 * a descriptor number and then puts back what was there. */
	for (int round = 0; round < 300; round++) {
		for (int n = 3; n < 25; n++) {
			int saved;

			if (own[n] || fcntl(n, F_GETFD) < 0)
				continue;
			saved = fcntl(n, F_DUPFD_CLOEXEC, 100);
			CHECK(saved >= 100);
			CHECK(dup2(fd, n) == n);
			CHECK(dup2(saved, n) == n);
			close(saved);
		}
	}
	/* Then on all of them, whatever was there, closed afterwards. */
	for (int round = 0; round < 20; round++) {
		for (int n = 3; n < 25; n++) {
			if (own[n])
				continue;
			CHECK(dup2(fd, n) == n);
			taken[n] = 1;
		}
		for (int n = 3; n < 25; n++)
			if (taken[n])
				close(n);
	}
	check_sleep_ms(2);
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < RACE_THREADS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		io_uring_queue_exit(&race_ring[i]);
	}
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECKM(read(fd, back, sizeof(back)) == (ssize_t) sizeof(data) &&
	       !memcmp(back, data, sizeof(data)), "the data file is not what the program wrote");
	close(fd);
	printf("data file intact\n");
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 6: RLIMIT_FSIZE ------------------------------------------- */

static int child_fsize(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int fd = harm_data_file("data", 16384, 3);

	CHECK(fd >= 0);
	CHECK_EQ(HC(io_uring_queue_init(64, &ring, 0)), 0);
	/* 4,000 NOPs: a trace of some 600 KB, far past the limit. */
	for (int round = 0; round < 125; round++) {
		for (int i = 0; i < 32; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_nop(sqe);
			sqe->user_data = (unsigned) (round * 32 + i + 1);
		}
		CHECK_EQ(HC(io_uring_submit(&ring)), 32);
		for (int i = 0; i < 32; i++) {
			CHECK_EQ(HC(io_uring_wait_cqe(&ring, &cqe)), 0);
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	HCV(io_uring_queue_exit(&ring));
	close(fd);
	printf("4000 NOPs under RLIMIT_FSIZE\n");
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 7: errno -------------------------------------------------- */

static struct io_uring owner_ring;
static int owner_ret;

static void *foreign_submitter(void *arg)
{
	(void) arg;
	io_uring_prep_nop(HC(io_uring_get_sqe(&owner_ring)));
	owner_ret = HC(io_uring_submit(&owner_ring));
	return NULL;
}

static int child_errno(int single_issuer)
{
	struct io_uring ring, bad, full;
	struct io_uring_cqe *cqe;
	static char buf[2][8];
	int files[2] = { -5, -5 }, efd = eventfd(0, EFD_CLOEXEC), p[2][2];
	struct rlimit rl;
	int filled = 0, fillers[256];

	CHECK(efd >= 0);
	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	child_nops(&ring, 10);
	/* Calls that fail, with LIBURING_DEBUG explaining the first two. */
	CHECK_EQ(HC(io_uring_queue_init(8, &bad, 1U << 30)), -EINVAL);
	CHECK(HC(io_uring_register_files(&ring, files, 2)) < 0);
	CHECK_EQ(HC(io_uring_register_eventfd(&ring, efd)), 0);
	CHECK_EQ(HC(io_uring_unregister_eventfd(&ring)), 0);
	CHECK_EQ(HC(io_uring_unregister_eventfd(&ring)), -ENXIO);
	{
		struct __kernel_timespec ts = check_kts_ms(1);

		CHECK_EQ(HC(io_uring_wait_cqe_timeout(&ring, &cqe, &ts)), -ETIME);
	}
	/* A finding in io_uring_submit. */
	user_data_reuse(&ring);

	/* A finding in the submit of another thread than the owner's. */
	if (single_issuer) {
		pthread_t t;

		CHECK_EQ(HC(io_uring_queue_init(8, &owner_ring, IORING_SETUP_SINGLE_ISSUER)), 0);
		CHECK(pthread_create(&t, NULL, foreign_submitter, NULL) == 0);
		CHECK(pthread_join(t, NULL) == 0);
		CHECK_EQ(owner_ret, -EEXIST);
		HCV(io_uring_queue_exit(&owner_ring));
	}

	/* A finding while every descriptor is taken. */
	CHECK_EQ(HC(io_uring_queue_init(8, &full, 0)), 0);
	CHECK(pipe(p[0]) == 0 && pipe(p[1]) == 0);
	{
		struct io_uring_sqe *sqe = HC(io_uring_get_sqe(&full));

		io_uring_prep_read(sqe, p[0][0], buf[0], 8, 0);
		io_uring_sqe_set_data64(sqe, 9);
		CHECK_EQ(HC(io_uring_submit(&full)), 1);
	}
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	rl.rlim_cur = 64;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	while (filled < 256) {
		int fd = dup(0);

		if (fd < 0)
			break;
		fillers[filled++] = fd;
	}
	CHECKM(errno == EMFILE, "filling the table ended with %s", strerror(errno));
	{
		struct io_uring_sqe *sqe = HC(io_uring_get_sqe(&full));

		io_uring_prep_read(sqe, p[1][0], buf[1], 8, 0);
		io_uring_sqe_set_data64(sqe, 9);
		CHECK_EQ(HC(io_uring_submit(&full)), 1);
	}
	while (filled)
		close(fillers[--filled]);
	CHECK(write(p[0][1], "a", 1) == 1 && write(p[1][1], "b", 1) == 1);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(HC(io_uring_wait_cqe(&full, &cqe)), 0);
		HCV(io_uring_cqe_seen(&full, cqe));
	}
	HCV(io_uring_queue_exit(&full));
	HCV(io_uring_queue_exit(&ring));
	printf("errno checkpoints done\n");
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 9: submit on one thread, wait on another ------------------ */

#define SW_TOTAL 3000

static struct io_uring sw_ring;
static int sw_first_taken;

static void *sw_submit(void *arg)
{
	(void) arg;
	for (unsigned i = 0; i < SW_TOTAL; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&sw_ring);
		int ret;

		CHECK(sqe);
		io_uring_prep_nop(sqe);
		sqe->user_data = i + 1;
		/* The first one is taken and prepared while the waiter goes to
		 * sleep, and submitted a little later: SQEs taken but not yet
		 * submitted by another thread are not a mistake of the waiter. */
		if (i == 0) {
			__atomic_store_n(&sw_first_taken, 1, __ATOMIC_RELEASE);
			check_sleep_ms(30);
		}
		do {
			ret = io_uring_submit(&sw_ring);
		} while (ret == -EINTR || ret == -EAGAIN);
		CHECK_EQ(ret, 1);
		/* At most one in flight: the SQ and the CQ never fill. */
		while (io_uring_sq_ready(&sw_ring) ||
		       __atomic_load_n(sw_ring.cq.ktail, __ATOMIC_ACQUIRE) -
		       __atomic_load_n(sw_ring.cq.khead, __ATOMIC_ACQUIRE) > 4)
			sched_yield();
	}
	return NULL;
}

static void *sw_wait(void *arg)
{
	unsigned long long seen = 0;

	(void) arg;
	while (!__atomic_load_n(&sw_first_taken, __ATOMIC_ACQUIRE))
		sched_yield();
	for (unsigned i = 0; i < SW_TOTAL; i++) {
		struct io_uring_cqe *cqe;

		CHECK_EQ(io_uring_wait_cqe(&sw_ring, &cqe), 0);
		CHECK_EQ(cqe->res, 0);
		seen += cqe->user_data;
		io_uring_cqe_seen(&sw_ring, cqe);
	}
	CHECK_EQ(seen, (unsigned long long) SW_TOTAL * (SW_TOTAL + 1) / 2);
	return NULL;
}

static int child_submit_wait(const char *who)
{
	unsigned flags = !strcmp(who, "single-issuer") ? IORING_SETUP_SINGLE_ISSUER : 0;
	pthread_t t;

	CHECK_EQ(io_uring_queue_init(64, &sw_ring, flags), 0);
	if (!strcmp(who, "creator-waits")) {
		CHECK(pthread_create(&t, NULL, sw_submit, NULL) == 0);
		sw_wait(NULL);
	} else {
		/* The creator (the SINGLE_ISSUER ring's owner) submits. */
		CHECK(pthread_create(&t, NULL, sw_wait, NULL) == 0);
		sw_submit(NULL);
	}
	CHECK(pthread_join(t, NULL) == 0);
	io_uring_queue_exit(&sw_ring);
	printf("%s: %d NOPs, each reaped once\n", who, SW_TOTAL);
	fflush(stdout);
	harm_report();
	return 0;
}

/* ---- case 11: many threads setting up rings at once ----------------- */

#define MR_THREADS 32
#define MR_RINGS 100

static pthread_barrier_t mr_start;

static void *mr_thread(void *arg)
{
	(void) arg;
	pthread_barrier_wait(&mr_start);
	for (int i = 0; i < MR_RINGS; i++) {
		struct io_uring ring;
		struct io_uring_cqe *cqe;
		struct io_uring_sqe *sqe;

		CHECK_EQ(io_uring_queue_init(4, &ring, 0), 0);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		sqe->user_data = 1;
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		io_uring_cqe_seen(&ring, cqe);
		io_uring_queue_exit(&ring);
	}
	return NULL;
}

static int child_many_rings(void)
{
	pthread_t t[MR_THREADS];
	pthread_attr_t attr;

	CHECK(pthread_attr_init(&attr) == 0);
	CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
	CHECK(pthread_barrier_init(&mr_start, NULL, MR_THREADS) == 0);
	for (int i = 0; i < MR_THREADS; i++)
		CHECK(pthread_create(&t[i], &attr, mr_thread, NULL) == 0);
	for (int i = 0; i < MR_THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	printf("%d rings set up, used and torn down by %d threads\n", MR_THREADS * MR_RINGS,
	       MR_THREADS);
	fflush(stdout);
	harm_report();
	return 0;
}

static int child_main(int argc, char **argv)
{
	const char *mode = argv[2];

	harm_start();
	if (!strcmp(mode, "basic"))
		return child_basic();
	if (!strcmp(mode, "sig-setup"))
		return child_sig_setup(0);
	if (!strcmp(mode, "sig-setup-mt"))
		return child_sig_setup(1);
	if (!strcmp(mode, "fiber") && argc > 3)
		return child_fiber(argv[3]);
	if (!strcmp(mode, "stdio"))
		return child_stdio();
	if (!strcmp(mode, "dup2-race"))
		return child_dup2_race();
	if (!strcmp(mode, "fsize"))
		return child_fsize();
	if (!strcmp(mode, "errno") && argc > 3)
		return child_errno(atoi(argv[3]));
	if (!strcmp(mode, "submit-wait") && argc > 3)
		return child_submit_wait(argv[3]);
	if (!strcmp(mode, "many-rings"))
		return child_many_rings();
	FAIL("unknown child mode %s", mode);
}

/* ================================================================== */
/* The driver                                                          */
/* ================================================================== */

static char child_bin[4400], static_bin[4400], host_bin[4400];
static const char *stage, *src;

/* Builds the programs the cases run. */
static void build_children(void)
{
	struct harm_driver *d = harm_driver();
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	const char *extra = getenv("CAPI_EXTRA_CFLAGS") ? getenv("CAPI_EXTRA_CFLAGS") : "";

	snprintf(child_bin, sizeof(child_bin), "%s/diag-classes.child", d->dir);
	snprintf(static_bin, sizeof(static_bin), "%s/diag-classes.static", d->dir);
	snprintf(host_bin, sizeof(host_bin), "%s/plugin-host", d->dir);
	CHECK(check_system("%s -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I'%s/usr/include' -I'%s' "
			   "%s -rdynamic -o '%s' '%s/diag-classes.c' -L'%s/usr/lib' %s -lpthread -ldl",
			   cc, stage, src, extra, child_bin, src, stage, check_link_uring()) == 0);
	/* The plugin host links no liburing: it loads it. */
	CHECK(check_system("%s -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I'%s/usr/include' -I'%s' "
			   "%s -o '%s' '%s/diag-programs/plugin-host.c' -ldl",
			   cc, stage, src, extra, host_bin, src) == 0);
}

static struct harm_spec child_spec(const char *name, const char *mode, const char *arg)
{
	struct harm_spec s;

	memset(&s, 0, sizeof(s));
	s.name = name;
	s.argv[0] = child_bin;
	s.argv[1] = "child";
	s.argv[2] = mode;
	s.argv[3] = arg;
	return s;
}

/* Runs a child mode without and with the usual variables and compares. */
static void simple_case(const char *name, const char *mode, const char *arg, int timeout_ms)
{
	struct harm_spec s = child_spec(name, mode, arg);
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;

	s.timeout_ms = timeout_ms;
	harm_case_begin(name);
	harm_pair(&s, &env, 0, &plain, &traced);
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

/* ---- case 1 --------------------------------------------------------- */

static void case_sig_setup(void)
{
	simple_case("1-sig-setup", "sig-setup", NULL, 6000);
	simple_case("1-sig-setup-mt", "sig-setup-mt", NULL, 6000);
}

/* ---- case 2 --------------------------------------------------------- */

/* The function a finding's call site must name (or none). */
static void check_call_site(const struct harm_run *r, const char *want)
{
	const char *f = strstr(r->diag, "uring-check: user-data-reuse:");
	char head[2048], *from, *end;
	const char *nl;

	if (!f) {
		harm_problem("no user-data-reuse finding was printed (diagnostics: %.300s)", r->diag);
		return;
	}
	nl = strchr(f, '\n');
	snprintf(head, sizeof(head), "%.*s", nl ? (int) (nl - f) : (int) strlen(f), f);
	from = strstr(head, " called from ");
	if (!from) {
		printf("  finding without a call site (allowed): %s\n", head);
		return;
	}
	from += strlen(" called from ");
	end = strchr(from, ' ');
	if (end)
		*end = 0;
	if (strncmp(from, want, strlen(want)) || strncmp(from + strlen(want), "+0x", 3))
		harm_problem("the finding names the call site \"%s\", not %s (or none)", from, want);
	else
		printf("  the finding names %s\n", from);
}

static void case_fiber(void)
{
	static const struct { const char *variant, *caller; } v[] = {
		{ "fiber-direct", "harm_fiber_direct" },
		{ "fiber-indirect", "harm_fiber_indirect" },
		{ "fiber-small", "harm_fiber_direct" },
		{ "altstack-direct", "harm_alt_direct" },
		{ "altstack-indirect", "harm_alt_indirect" },
		{ "main-indirect", "harm_main_indirect" },
	};

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char name[64];
		struct harm_spec s;
		struct harm_env env = harm_vars(NULL);
		struct harm_run plain, traced;

		snprintf(name, sizeof(name), "2-%s", v[i].variant);
		if (!HAVE_MAKECONTEXT && !strncmp(v[i].variant, "fiber-", 6)) {
			printf("---- case %s: not built (no makecontext in this C library)\n", name);
			continue;
		}
		s = child_spec(name, "fiber", v[i].variant);
		s.timeout_ms = 5000;
		harm_case_begin(name);
		harm_pair(&s, &env, 0, &plain, &traced);
		check_call_site(&traced, v[i].caller);
		harm_free_run(&plain);
		harm_free_run(&traced);
		harm_case_end();
	}
}

/* ---- case 3 --------------------------------------------------------- */

static void nofile_64(void *arg, int traced)
{
	struct rlimit rl = { 64, 64 };

	(void) arg;
	(void) traced;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		_exit(125);
}

/* The trace-event array: one JSON array of objects (the closing ']' may
 * be missing, as that format allows). */
static void check_json_trace(const char *path)
{
	size_t len;
	char *text = harm_slurp(path, &len);
	size_t i = 0;

	if (!len) {
		harm_problem("the JSON trace %s is empty or missing", path);
		free(text);
		return;
	}
	if (check_system("command -v python3 >/dev/null 2>&1") == 0) {
		int rc = check_system(
			"python3 -c 'import json, re, sys\n"
			"t = open(sys.argv[1]).read().rstrip()\n"
			"if not t.endswith(\"]\"):\n"
			"    t = t.rstrip().rstrip(\",\") + \"]\"\n"
			"if re.match(r\"\\s*\\[\\s*\\[\", t):\n"
			"    sys.exit(\"it starts with two [\")\n"
			"try:\n"
			"    v = json.loads(t)\n"
			"except ValueError as e:\n"
			"    sys.exit(\"not JSON: %%s\" %% e)\n"
			"if not isinstance(v, list) or not all(isinstance(e, dict) for e in v):\n"
			"    sys.exit(\"not an array of trace events\")\n"
			"print(\"  JSON trace: %%d events\" %% len(v))' '%s'", path);

		if (rc)
			harm_problem("the JSON trace is not one trace-event array (python3 says so "
				     "above); it starts \"%.40s\"", text);
	} else {
		while (i < len && strchr(" \t\r\n", text[i]))
			i++;
		if (text[i] != '[')
			harm_problem("the JSON trace does not start with '['");
		for (i++; i < len && strchr(" \t\r\n", text[i]); i++)
			;
		if (text[i] == '[')
			harm_problem("the JSON trace starts with two '[': \"%.40s\"", text);
	}
	free(text);
}

static void case_reload(void)
{
	char lib[4400], ffi[4400], json[4400];
	struct harm_spec s;
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;

	snprintf(lib, sizeof(lib), "%s/usr/lib/liburing.so.2", stage);
	snprintf(ffi, sizeof(ffi), "%s/usr/lib/liburing-ffi.so.2", stage);
	memset(&s, 0, sizeof(s));
	s.argv[0] = host_bin;
	s.argv[1] = "reload";
	s.argv[2] = lib;
	s.timeout_ms = 15000;

	s.name = "3-reload";
	harm_case_begin(s.name);
	harm_pair(&s, &env, 0, &plain, &traced);
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();

	s.name = "3-reload-nofile64";
	s.prep = nofile_64;
	harm_case_begin(s.name);
	harm_pair(&s, &env, 0, &plain, &traced);
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();

	s.name = "3-two-libraries";
	s.prep = NULL;
	s.argv[1] = "both";
	s.argv[3] = ffi;
	snprintf(json, sizeof(json), "%s/trace.json", harm_driver()->dir);
	env = harm_vars(json);
	env.extra[0] = "LIBURING_TRACE_FORMAT=json";
	harm_case_begin(s.name);
	harm_pair(&s, &env, 0, &plain, &traced);
	check_json_trace(json);
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

/* ---- case 4 --------------------------------------------------------- */

static void close_stdio(void *arg, int traced)
{
	int which = (int) (long) arg;

	(void) traced;
	if (which & 1)
		close(1);
	if (which & 2)
		close(2);
}

static void case_closed_stdio(void)
{
	static const struct { const char *name; long which; int to_stderr; } v[] = {
		{ "4-closed-stdout", 1, 0 },
		{ "4-closed-stderr", 2, 0 },
		{ "4-closed-both", 3, 0 },
		{ "4-closed-stderr-trace-stderr", 2, 1 },
		{ "4-closed-both-trace-stderr", 3, 1 },
	};

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct harm_spec s = child_spec(v[i].name, "stdio", NULL);
		struct harm_env env = harm_vars(v[i].to_stderr ? "stderr" : NULL);
		struct harm_run plain, traced;

		s.prep = close_stdio;
		s.prep_arg = (void *) v[i].which;
		s.timeout_ms = 5000;
		harm_case_begin(v[i].name);
		harm_pair(&s, &env, 0, &plain, &traced);
		harm_free_run(&plain);
		harm_free_run(&traced);
		harm_case_end();
	}
}

/* ---- case 5 --------------------------------------------------------- */

static void case_dup2_race(void)
{
	struct harm_spec s = child_spec("5-dup2-race", "dup2-race", NULL);
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;
	unsigned runs = getenv("DIAG_RACE_RUNS") ? (unsigned) atoi(getenv("DIAG_RACE_RUNS")) : 10, differed = 0;

	s.timeout_ms = 5000;
	harm_case_begin(s.name);
	harm_exec(&s, NULL, "5.without", &plain);
	for (unsigned i = 0; i < runs; i++) {
		unsigned before = harm_driver()->problems;

		unlink(harm_driver()->trace);
		harm_exec(&s, &env, "5.with", &traced);
		/* The first run that differs is shown in full, the rest counted. */
		harm_driver()->quiet = 1;
		harm_compare(&plain, &traced, 0);
		harm_driver()->quiet = 0;
		if (harm_driver()->problems != before && !differed++) {
			printf("  run %u of %u with the variables differed:\n", i + 1, runs);
			harm_driver()->problems = before;
			harm_compare(&plain, &traced, 0);
		}
		harm_free_run(&traced);
		if (plain.timed_out || !WIFEXITED(plain.status) || WEXITSTATUS(plain.status))
			break;
	}
	printf("  %u of %u runs with the variables differed\n", differed, runs);
	harm_free_run(&plain);
	harm_case_end();
}

/* ---- case 6 --------------------------------------------------------- */

#define FSIZE_LIMIT (64 * 1024)

static void fsize_limit(void *arg, int traced)
{
	struct rlimit rl = { FSIZE_LIMIT, FSIZE_LIMIT };

	(void) arg;
	(void) traced;
	signal(SIGXFSZ, SIG_DFL);
	if (setrlimit(RLIMIT_FSIZE, &rl))
		_exit(125);
}

static void case_fsize(void)
{
	struct harm_spec s = child_spec("6-fsize", "fsize", NULL);
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;
	struct stat st;

	s.prep = fsize_limit;
	s.timeout_ms = 10000;
	harm_case_begin(s.name);
	harm_pair(&s, &env, 0, &plain, &traced);
	if (stat(env.trace, &st) == 0) {
		printf("  trace file: %lld bytes (limit %d)\n", (long long) st.st_size, FSIZE_LIMIT);
		if (st.st_size > FSIZE_LIMIT)
			harm_problem("the trace file is %lld bytes, past RLIMIT_FSIZE %d",
				     (long long) st.st_size, FSIZE_LIMIT);
	}
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

/* ---- case 7 --------------------------------------------------------- */

static void case_errno(void)
{
	int owner = KERNEL_HAS_PART("errno-owner", IORING_SETUP_SINGLE_ISSUER);

	simple_case("7-errno", "errno", owner ? "1" : "0", 10000);
}

/* ---- case 8 --------------------------------------------------------- */

static const char *ignored_head = "liburing: LIBURING_DEBUG/LIBURING_TRACE/LIBURING_CHECK ignored: ";

/* Exactly one diagnostic line, "liburing: " ... "ignored". */
static void check_one_ignored_line(const struct harm_run *r, int exact_head)
{
	const char *nl = strchr(r->diag, '\n');

	if (r->diag_lines != 1 || strncmp(r->diag, "liburing: ", 10) || !nl ||
	    !memmem(r->diag, (size_t) (nl - r->diag), "ignored", 7) ||
	    (exact_head && strncmp(r->diag, ignored_head, strlen(ignored_head))))
		harm_problem("wanted exactly one \"%s...\" line; got %u diagnostic lines: %.400s",
			     exact_head ? ignored_head : "liburing: ... ignored", r->diag_lines,
			     r->diag);
	else
		printf("  one line: %s", r->diag);
}

static void case_object(void)
{
	struct harm_driver *d = harm_driver();
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	static const char *const variants[] = { "8-object-truncated", "8-object-liburing-copy",
						"8-object-constructor", "8-object-stripped" };
	char lib[4400], obj[4500];

	snprintf(lib, sizeof(lib), "%s/lib-copy", d->dir);
	snprintf(obj, sizeof(obj), "%s/uring-rs/liburing-diag.so", lib);
	for (unsigned i = 0; i < 4; i++) {
		struct harm_spec s = child_spec(variants[i], "basic", NULL);
		struct harm_env env = harm_vars(NULL);
		struct harm_run plain, traced;

		CHECK(check_system("rm -rf '%s' && mkdir -p '%s/uring-rs' && cp -P '%s'/usr/lib/liburing.so* "
				   "'%s/' && cp '%s/usr/lib/uring-rs/liburing-diag.so' '%s'", lib, lib,
				   stage, lib, stage, obj) == 0);
		if (i == 0) {
			struct stat st;

			CHECK(stat(obj, &st) == 0);
			CHECK(truncate(obj, st.st_size / 2) == 0);
		} else if (i == 1) {
			CHECK(check_system("cp '%s/usr/lib/liburing.so.2' '%s'", stage, obj) == 0);
		} else if (i == 2) {
			CHECK(check_system("%s -shared -fPIC -o '%s' '%s/diag-programs/foreign-object.c'",
					   cc, obj, src) == 0);
		} else {
			/* As dh_strip and make install-strip leave the installed
			 * object: it must still be accepted and loaded. */
			CHECK(check_system("strip --remove-section=.comment --remove-section=.note "
					   "--strip-unneeded '%s'", obj) == 0);
		}
		s.ld_library_path = lib;
		s.timeout_ms = 5000;
		harm_case_begin(variants[i]);
		harm_pair(&s, &env, 0, &plain, &traced);
		if (i < 3)
			check_one_ignored_line(&traced, 0);
		else if (strstr(traced.diag, "ignored") || !traced.diag_lines)
			harm_problem("the stripped object was not loaded: %u diagnostic lines: %.400s",
				     traced.diag_lines, traced.diag);
		harm_free_run(&plain);
		harm_free_run(&traced);
		harm_case_end();
	}
}

/* ---- case 9 --------------------------------------------------------- */

static void case_submit_wait(void)
{
	static const char *const who[] = { "creator-waits", "creator-submits", "single-issuer" };

	for (unsigned i = 0; i < 3; i++) {
		char name[64];
		struct harm_spec s;
		struct harm_env env = harm_vars(NULL);
		struct harm_run plain, traced;

		snprintf(name, sizeof(name), "9-submit-wait-%s", who[i]);
		if (i == 2 && !KERNEL_HAS_PART("submit-wait-single-issuer", IORING_SETUP_SINGLE_ISSUER))
			continue;
		s = child_spec(name, "submit-wait", who[i]);
		s.timeout_ms = 15000;
		env.check = "abort";
		harm_case_begin(name);
		harm_pair(&s, &env, 0, &plain, &traced);
		if (harm_count_lines(traced.diag, "uring-check:"))
			harm_problem("LIBURING_CHECK reported a correct program: %.600s", traced.diag);
		harm_free_run(&plain);
		harm_free_run(&traced);
		harm_case_end();
	}
}

/* ---- case 10 -------------------------------------------------------- */

static void case_static(void)
{
	struct harm_driver *d = harm_driver();
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	struct harm_spec s = child_spec("10-static", "basic", NULL);
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;
	int full = check_system("printf 'int main(void){return 0;}' | %s -static -x c -o "
				"'%s/static-probe' - >/dev/null 2>&1", cc, d->dir) == 0;

	harm_case_begin(s.name);
	printf("  %s\n", full ? "fully static (-static)" : "no static C library: liburing.a in a "
	       "dynamic program");
	/* Without CAPI_EXTRA_CFLAGS: a sanitizer's runtime does not link
	 * statically (as in static_link.c). */
	CHECK(check_system("%s -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I'%s/usr/include' -I'%s' "
			   "%s -o '%s' '%s/diag-classes.c' '%s/usr/lib/liburing.a' -lpthread",
			   cc, stage, src, full ? "-static" : "", static_bin, src, stage) == 0);
	CHECK(check_system("! readelf -d '%s' 2>/dev/null | grep -q 'NEEDED.*liburing'",
			   static_bin) == 0);
	s.argv[0] = static_bin;
	s.timeout_ms = 5000;
	harm_pair(&s, &env, 0, &plain, &traced);
	check_one_ignored_line(&traced, 1);
	if (access(env.trace, F_OK) == 0)
		harm_problem("a trace file was made although the variables are ignored");
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

/* ---- case 11 -------------------------------------------------------- */

static void case_many_rings(void)
{
	struct harm_spec s = child_spec("11-many-rings", "many-rings", NULL);
	struct harm_env env = harm_vars(NULL);
	struct harm_run plain, traced;
	static unsigned char seen[1 << 16];
	unsigned summaries = 0, dups = 0, distinct = 0, wanted = MR_THREADS * MR_RINGS;
	char line[4096];
	FILE *f;

	s.timeout_ms = 20000;
	harm_case_begin(s.name);
	harm_pair(&s, &env, 0, &plain, &traced);
	f = fopen(env.trace, "r");
	if (!f) {
		harm_problem("no trace file");
	} else {
		memset(seen, 0, sizeof(seen));
		while (fgets(line, sizeof(line), f)) {
			unsigned id, sqes;
			int fd;

			/* trace.rs: the first summary line of a ring. */
			if (sscanf(line, "uring-trace: ring %u (fd %d): summary: %u SQEs consumed",
				   &id, &fd, &sqes) != 3)
				continue;
			summaries++;
			if (id < sizeof(seen) && seen[id]++)
				dups++;
			else
				distinct++;
		}
		fclose(f);
		printf("  %u summaries for %u rings (%u distinct rings, %u duplicates)\n", summaries,
		       wanted, distinct, dups);
		if (summaries != wanted || dups || distinct != wanted)
			harm_problem("%u summaries (%u distinct, %u duplicates) for %u rings that did "
				     "work", summaries, distinct, dups, wanted);
	}
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

/* ================================================================== */

static const struct {
	const char *name;
	void (*run)(void);
} all_cases[] = {
	{ "1", case_sig_setup },   { "2", case_fiber },        { "3", case_reload },
	{ "4", case_closed_stdio }, { "5", case_dup2_race },    { "6", case_fsize },
	{ "7", case_errno },       { "8", case_object },       { "9", case_submit_wait },
	{ "10", case_static },     { "11", case_many_rings },
};

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "child"))
		return child_main(argc, argv);
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here (raw io_uring_setup)");
	stage = check_env_or_skip("CAPI_STAGE");
	src = check_env_or_skip("CAPI_SRC");
	/* Its programs are built here (the child with -rdynamic, so that the
	 * call sites of case 2 have names; case 8's objects; case 10's static
	 * program): a machine that only runs the tests (a VM image) has no
	 * compiler. skips.tsv: env:cc. */
	{
		const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";

		if (check_system("set -- %s; command -v \"$1\" >/dev/null 2>&1", cc) != 0)
			SKIP("no C compiler (%s) where the tests run", cc);
	}
	harm_driver_init("diag-classes");
	build_children();
	for (unsigned i = 0; i < sizeof(all_cases) / sizeof(all_cases[0]); i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], all_cases[i].name);
		if (wanted)
			all_cases[i].run();
	}
	return harm_finish();
}
