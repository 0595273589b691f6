/* SPDX-License-Identifier: MIT */
/*
 * Hostile but ordinary programs, beyond the eleven of diag-classes.c: each
 * runs twice, without and with LIBURING_TRACE (a file, or stderr where it
 * says), LIBURING_DEBUG=1 and LIBURING_CHECK=1, and the two runs are
 * compared as diag-compare.h says (how it ended, its own output, its files,
 * its descriptors, errno after each library call). What each checks:
 *
 *   vfork-exec        a thread submits and reaps while the main thread
 *                     vfork()s and execs 10 children, which list the
 *                     descriptors they inherited: none of the diagnostics'.
 *   posix-spawn       the same with posix_spawn, the child's stdout a file
 *                     of the program (its contents compared).
 *   seccomp           a seccomp filter installed after ring setup allows
 *                     only the calls the program makes (EPERM for the rest):
 *                     NOPs, a finding, a refused io_uring_setup, its report,
 *                     all as without.
 *   ro-fs             the trace file's directory is a read-only tmpfs (a
 *                     private mount namespace): the program runs as without.
 *   full-fs           the trace file is on a 64 KiB tmpfs that fills up.
 *   rlimit-as         RLIMIT_AS at what the program had at start plus 64 MiB:
 *                     rings, a thread, 16 MiB of mallocs, then how much
 *                     address space it can still map with its rings alive
 *                     (to the page): the same.
 *   cancel-wait       pthread_cancel (asynchronous) of a thread blocked in
 *                     io_uring_wait_cqe; the main thread then reaps the
 *                     request and sets up a new ring.
 *   longjmp           a SIGALRM handler siglongjmp()s out of whatever
 *                     library call it interrupted, every third time, for
 *                     0.4 s and at least 30 alarms; then the ring is
 *                     drained and a new one used: no deadlock, same result.
 *   own-segv          a program with its own SIGSEGV and SIGBUS handlers
 *                     (which must never run) makes findings on a thread
 *                     with a 64 KiB stack, directly and through a function
 *                     pointer; its signal dispositions are unchanged after.
 *   close-range-child after fork the child closes every descriptor from 3 up
 *                     (close_range), opens a data file (the trace's old
 *                     number) and uses a ring of its own.
 *   close-all         the program closes every descriptor above 2 but its
 *                     ring mid-run, opens its data file, sets up a second
 *                     ring: its data file holds only its data.
 *   sigpipe-default   stderr a pipe without reader, SIGPIPE default, trace
 *                     to stderr: a finding and a failed setup, exit 0.
 *   sigpipe-ignored   the same with SIGPIPE ignored; the program's own write
 *                     to stderr fails with EPIPE as without.
 *   thread-names      threads rename themselves (pthread_setname_np, prctl)
 *                     and make findings: names read back are the same.
 *   nofile-tight      RLIMIT_NOFILE set to 3 + what the program opens: every
 *                     open of its own succeeds, the next fails EMFILE.
 *   stderr-reused     the program closes fd 2 mid-run and its data file takes
 *                     the number; then findings and a failed setup (a file
 *                     trace, and a stderr trace): the data file is its own.
 */
#include "diag-compare.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/time.h>

extern char **environ;

/* ================================================================== */
/* Pieces of the child programs                                        */
/* ================================================================== */

static void nops(struct io_uring *ring, int rounds)
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

/* Two reads in flight with one user_data (a LIBURING_CHECK finding),
 * completed and reaped; `through` submits (io_uring_submit, or a pointer
 * to it). */
static void user_data_reuse_via(struct io_uring *ring, int (*through)(struct io_uring *))
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char buf[2][8];
	int p[2][2];

	CHECK(pipe(p[0]) == 0 && pipe(p[1]) == 0);
	for (int i = 0; i < 2; i++) {
		sqe = HC(io_uring_get_sqe(ring));
		io_uring_prep_read(sqe, p[i][0], buf[i], 8, 0);
		io_uring_sqe_set_data64(sqe, 7);
		CHECK_EQ(HC(through(ring)), 1);
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

static void user_data_reuse(struct io_uring *ring)
{
	user_data_reuse_via(ring, io_uring_submit);
}

/* A setup the kernel refuses: a LIBURING_DEBUG line. */
static void failed_setup(void)
{
	struct io_uring bad;

	CHECK_EQ(HC(io_uring_queue_init(8, &bad, 1U << 30)), -EINVAL);
}

static void done(const char *what)
{
	printf("%s: done\n", what);
	fflush(stdout);
	harm_report();
}

/* A thread submitting and reaping NOPs until told to stop. */
struct busy {
	struct io_uring ring;
	pthread_t thread;
	volatile int stop;
};

static void *busy_loop(void *arg)
{
	struct busy *b = (struct busy *) arg;

	while (!__atomic_load_n(&b->stop, __ATOMIC_RELAXED)) {
		struct io_uring_cqe *cqe;

		for (int i = 0; i < 4; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);

			io_uring_prep_nop(sqe);
			sqe->user_data = (unsigned) i + 1;
		}
		CHECK_EQ(io_uring_submit(&b->ring), 4);
		for (int i = 0; i < 4; i++) {
			CHECK_EQ(io_uring_wait_cqe(&b->ring, &cqe), 0);
			io_uring_cqe_seen(&b->ring, cqe);
		}
	}
	return NULL;
}

static void busy_start(struct busy *b)
{
	memset(b, 0, sizeof(*b));
	CHECK_EQ(io_uring_queue_init(8, &b->ring, 0), 0);
	CHECK(pthread_create(&b->thread, NULL, busy_loop, b) == 0);
}

static void busy_stop(struct busy *b)
{
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELAXED);
	CHECK(pthread_join(b->thread, NULL) == 0);
	io_uring_queue_exit(&b->ring);
}

/* This program, run as "fdlist", with the environment minus LIBURING_*:
 * prints the descriptors it inherited. */
static const char *self_exe(void)
{
	static char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(n > 0);
	exe[n] = 0;
	return exe;
}

static char **env_without_liburing(void)
{
	static char *envp[256];
	int n = 0;

	for (char **e = environ; *e && n < 255; e++)
		if (strncmp(*e, "LIBURING_", 9))
			envp[n++] = *e;
	envp[n] = NULL;
	return envp;
}

static int child_fdlist(void)
{
	static char buf[1 << 14];
	size_t used = 0;

	harm_list_fds(buf, sizeof(buf), &used);
	printf("inherited:\n%s", buf);
	fflush(stdout);
	return 0;
}

/* ================================================================== */
/* The child programs                                                  */
/* ================================================================== */

static int child_vfork_exec(void)
{
	const char *exe = self_exe();
	char *argv[] = { (char *) exe, "child", "fdlist", NULL };
	char **envp = env_without_liburing();
	struct busy b;

	busy_start(&b);
	for (int i = 0; i < 10; i++) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = vfork();
		CHECK(pid >= 0);
		if (pid == 0) {
			execve(exe, argv, envp);
			_exit(127);
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		printf("child %d: status %#x\n", i, st);
	}
	busy_stop(&b);
	done("vfork-exec");
	return 0;
}

static int child_posix_spawn(void)
{
	const char *exe = self_exe();
	char *argv[] = { (char *) exe, "child", "fdlist", NULL };
	char path[4096];
	struct busy b;

	busy_start(&b);
	for (int i = 0; i < 10; i++) {
		posix_spawn_file_actions_t fa;
		char name[64];
		pid_t pid;
		int st;

		snprintf(name, sizeof(name), "spawned-%d.txt", i);
		CHECK(posix_spawn_file_actions_init(&fa) == 0);
		CHECK(posix_spawn_file_actions_addopen(&fa, 1, harm_path(name, path, sizeof(path)),
						       O_WRONLY | O_CREAT | O_TRUNC, 0600) == 0);
		fflush(stdout);
		CHECK(posix_spawn(&pid, exe, &fa, NULL, argv, env_without_liburing()) == 0);
		posix_spawn_file_actions_destroy(&fa);
		CHECK(waitpid(pid, &st, 0) == pid);
		printf("spawned %d: status %#x\n", i, st);
	}
	busy_stop(&b);
	done("posix-spawn");
	return 0;
}

/* ---- seccomp --------------------------------------------------------- */

#if defined(__x86_64__)
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define HOSTILE_AUDIT_ARCH AUDIT_ARCH_S390X
#endif

/* Allows the system calls this program makes from here on; EPERM for any
 * other (and for another architecture's calls). */
static void allow_only_own_calls(void)
{
	static const long own[] = {
		SYS_read, SYS_write, SYS_close, SYS_io_uring_enter, SYS_io_uring_register,
		SYS_exit, SYS_exit_group, SYS_futex, SYS_rt_sigprocmask,
		SYS_rt_sigreturn, SYS_munmap, SYS_madvise, SYS_brk, SYS_getpid, SYS_gettid,
		SYS_pipe2,
#ifdef SYS_pipe
		SYS_pipe,
#endif
#ifdef SYS_mmap
		SYS_mmap,
#endif
#ifdef SYS_mmap2
		SYS_mmap2,
#endif
#ifdef SYS_fcntl
		SYS_fcntl,
#endif
#ifdef SYS_fcntl64
		SYS_fcntl64,
#endif
#ifdef SYS_readlink
		SYS_readlink,
#endif
		SYS_readlinkat,
#ifdef SYS_fstat
		SYS_fstat,
#endif
#ifdef SYS_newfstatat
		SYS_newfstatat,
#endif
#ifdef SYS_fstat64
		SYS_fstat64,
#endif
#ifdef SYS_fstatat64
		SYS_fstatat64,
#endif
#ifdef SYS_statx
		SYS_statx,
#endif
#ifdef SYS_clock_gettime
		SYS_clock_gettime,
#endif
#ifdef SYS_clock_gettime64
		SYS_clock_gettime64,
#endif
	};
	struct sock_filter f[128];
	struct sock_fprog prog;
	unsigned n = 0;

#ifdef HOSTILE_AUDIT_ARCH
	f[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					       offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, HOSTILE_AUDIT_ARCH, 1, 0);
	f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#endif
	f[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					       offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		f[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned) own[i],
						       0, 1);
		f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	CHECK(n <= sizeof(f) / sizeof(f[0]));
	prog.len = (unsigned short) n;
	prog.filter = f;
	CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	CHECK(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0);
}

static int child_seccomp(void)
{
	struct io_uring ring, late;
	int fd = harm_data_file("data", 4096, 2);
	static char buf[1 << 17];
	int report = open(getenv("HARM_REPORT"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t used = 0;

	CHECK(fd >= 0 && report >= 0);
	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	nops(&ring, 5);
	printf("filter on\n");
	fflush(stdout);
	allow_only_own_calls();
	nops(&ring, 20);
	user_data_reuse(&ring);
	/* Refused by the filter: the program's own outcome, with and without. */
	printf("setup under the filter: %d\n", HC(io_uring_queue_init(8, &late, 0)));
	CHECK(write(fd, "after the filter\n", 17) == 17);
	HCV(io_uring_queue_exit(&ring));
	printf("seccomp: done\n");
	fflush(stdout);
	/* The report, to the descriptor opened before the filter. */
	harm_list_fds(buf, sizeof(buf), &used);
	harm_list_errnos(buf, sizeof(buf), &used);
	CHECK(write(report, buf, used) == (ssize_t) used);
	return 0;
}

/* ---- file systems: the trace's directory read-only or full ------------ */

static int child_work(const char *what)
{
	struct io_uring ring;
	int fd = harm_data_file("data", 8192, 4);

	CHECK(fd >= 0);
	CHECK_EQ(HC(io_uring_queue_init(64, &ring, 0)), 0);
	/* About 2,000 NOPs: a trace far past 64 KiB. */
	for (int round = 0; round < 64; round++) {
		struct io_uring_cqe *cqe;

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
	user_data_reuse(&ring);
	failed_setup();
	CHECK(write(fd, "more data\n", 10) == 10);
	HCV(io_uring_queue_exit(&ring));
	done(what);
	return 0;
}

/* ---- RLIMIT_AS -------------------------------------------------------- */

static long vm_size_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* The largest anonymous mapping the program can still make: under RLIMIT_AS,
 * what the limit leaves, to the page. Not a count of malloc'd 1 MiB blocks:
 * glibc 2.43 on a kernel with transparent huge pages "always" ends its heap
 * on a 2 MiB boundary from a random start, so the heap mapped (and counted)
 * at start has a free tail of 0 to 2 MiB that differs from run to run, and
 * the count with it: 63, 64 or 65 in the arm64 guest of the packages, and
 * HARM_CALIBRATE=1 (both runs without the variables) differed 3 times in 4. */
static size_t mappable_bytes(void)
{
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	size_t lo = 0, hi = (size_t) 128 << 20;	/* beyond what the limit leaves */
	void *p = mmap(NULL, hi, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECKM(p == MAP_FAILED, "a 128 MiB mapping fits under a limit of start + 64 MiB");
	while (hi - lo > page) {
		size_t mid = (lo + (hi - lo) / 2) / page * page;

		p = mmap(NULL, mid, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			hi = mid;
		} else {
			CHECK(munmap(p, mid) == 0);
			lo = mid;
		}
	}
	return lo;
}

static void *as_thread(void *arg)
{
	struct io_uring *ring = (struct io_uring *) arg;

	user_data_reuse(ring);
	return NULL;
}

static int child_rlimit_as(void)
{
	struct io_uring ring[4];
	struct rlimit rl;
	void *blocks[16];
	pthread_attr_t attr;
	pthread_t t;

	CHECK(getrlimit(RLIMIT_AS, &rl) == 0);
	rl.rlim_cur = (rlim_t) (vm_size_kb() + 64 * 1024) * 1024;
	CHECK(setrlimit(RLIMIT_AS, &rl) == 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(HC(io_uring_queue_init(256, &ring[i], 0)), 0);
		nops(&ring[i], 10);
	}
	CHECK(pthread_attr_init(&attr) == 0);
	CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
	CHECK(pthread_create(&t, &attr, as_thread, &ring[0]) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	for (int i = 0; i < 16; i++) {
		blocks[i] = malloc(1 << 20);
		CHECK(blocks[i]);
		memset(blocks[i], i, 1 << 20);
	}
	for (int i = 0; i < 16; i++)
		free(blocks[i]);
	/* How much more it can map with its rings alive. */
	printf("address space left with the rings alive: %zu KiB\n", mappable_bytes() >> 10);
	for (int i = 0; i < 4; i++)
		HCV(io_uring_queue_exit(&ring[i]));
	done("rlimit-as");
	return 0;
}

/* ---- pthread_cancel in a wait ----------------------------------------- */

static struct io_uring cancel_ring;

static void *cancel_waiter(void *arg)
{
	struct io_uring_cqe *cqe;

	(void) arg;
	CHECK(pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL) == 0);
	io_uring_wait_cqe(&cancel_ring, &cqe);
	return (void *) 1;
}

static int child_cancel_wait(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring again;
	char buf[8];
	void *res;
	pthread_t t;
	int p[2];

	CHECK_EQ(HC(io_uring_queue_init(8, &cancel_ring, 0)), 0);
	CHECK(pipe(p) == 0);
	io_uring_prep_read(HC(io_uring_get_sqe(&cancel_ring)), p[0], buf, 8, 0);
	CHECK_EQ(HC(io_uring_submit(&cancel_ring)), 1);
	for (int i = 0; i < 3; i++) {
		CHECK(pthread_create(&t, NULL, cancel_waiter, NULL) == 0);
		check_sleep_ms(30);
		CHECK(pthread_cancel(t) == 0);
		CHECK(pthread_join(t, &res) == 0);
		printf("waiter %d: %s\n", i, res == PTHREAD_CANCELED ? "cancelled" : "returned");
	}
	CHECK(write(p[1], "x", 1) == 1);
	CHECK_EQ(HC(io_uring_wait_cqe(&cancel_ring, &cqe)), 0);
	printf("the read completed with %d\n", cqe->res);
	HCV(io_uring_cqe_seen(&cancel_ring, cqe));
	HCV(io_uring_queue_exit(&cancel_ring));
	CHECK_EQ(HC(io_uring_queue_init(8, &again, 0)), 0);
	nops(&again, 10);
	HCV(io_uring_queue_exit(&again));
	done("cancel-wait");
	return 0;
}

/* ---- longjmp out of a handler ------------------------------------------ */

static sigjmp_buf jump_back;
static volatile sig_atomic_t alarms;

static void on_alarm_jump(int sig)
{
	(void) sig;
	if (++alarms % 3 == 0)
		siglongjmp(jump_back, 1);
}

static int child_longjmp(void)
{
	struct itimerval every = { { 0, 300 }, { 0, 300 } }, off = { { 0, 0 }, { 0, 0 } };
	struct __kernel_timespec ts = check_kts_ms(50);
	static struct io_uring ring, again;
	struct io_uring_cqe *cqe;
	static long long end, cap;
	static unsigned long long next = 1;

	CHECK_EQ(io_uring_queue_init(64, &ring, 0), 0);
	signal(SIGALRM, on_alarm_jump);
	end = check_now_ms() + 400;
	/* At least 30 alarms, however slowly the machine runs this process (an
	 * emulated guest on a busy host may run it for a few milliseconds of
	 * the 0.4 s): longer, up to 5 s, until they came. */
	cap = end + 4600;
	/* The jump target is complete before the first alarm can use it (an
	 * alarm inside sigsetjmp jumped through a half-written buffer on a
	 * slow emulated machine, with upstream's library as with ours). */
	if (sigsetjmp(jump_back, 1) == 0)
		CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
	while (check_now_ms() < end || (alarms < 30 && check_now_ms() < cap)) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (sqe) {
			io_uring_prep_nop(sqe);
			sqe->user_data = next++;
		}
		io_uring_submit(&ring);
		if (io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == 0)
			io_uring_cqe_seen(&ring, cqe);
	}
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	signal(SIGALRM, SIG_IGN);
	/* Whatever was taken and not submitted, then everything in flight. */
	io_uring_submit(&ring);
	while (io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == 0)
		io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	CHECKM(alarms >= 30, "only %d alarms", (int) alarms);
	CHECK_EQ(HC(io_uring_queue_init(8, &again, 0)), 0);
	nops(&again, 10);
	HCV(io_uring_queue_exit(&again));
	done("longjmp");
	return 0;
}

/* ---- its own SIGSEGV handler -------------------------------------------- */

static void on_fault(int sig)
{
	static const char line[] = "the program's own SIGSEGV/SIGBUS handler ran\n";

	(void) sig;
	if (write(2, line, sizeof(line) - 1) < 0)
		_exit(71);
	_exit(70);
}

static int (*volatile submit_pointer)(struct io_uring *) = io_uring_submit;

static void *fault_thread(void *arg)
{
	struct io_uring *ring = (struct io_uring *) arg;

	user_data_reuse_via(&ring[0], io_uring_submit);
	user_data_reuse_via(&ring[1], submit_pointer);
	return NULL;
}

static int child_own_segv(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGPIPE, SIGXFSZ, SIGSYS, SIGALRM, SIGCHLD };
	struct io_uring ring[3];
	struct sigaction sa;
	pthread_attr_t attr;
	pthread_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0 && sigaction(SIGBUS, &sa, NULL) == 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(HC(io_uring_queue_init(8, &ring[i], 0)), 0);
	CHECK(pthread_attr_init(&attr) == 0);
	/* A small stack, but at least the system's least (128 KiB on arm64). */
	CHECK(pthread_attr_setstacksize(&attr, (size_t) sysconf(_SC_THREAD_STACK_MIN) > 64 * 1024 ?
						       (size_t) sysconf(_SC_THREAD_STACK_MIN) :
						       64 * 1024) == 0);
	CHECK(pthread_create(&t, &attr, fault_thread, ring) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	user_data_reuse_via(&ring[2], submit_pointer);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction now;

		CHECK(sigaction(sigs[i], NULL, &now) == 0);
		printf("signal %d: %s, flags %#x\n", sigs[i],
		       now.sa_handler == on_fault ? "the program's handler" :
		       now.sa_handler == SIG_DFL ? "default" :
		       now.sa_handler == SIG_IGN ? "ignored" : "ANOTHER HANDLER",
		       (unsigned) now.sa_flags & ~0x04000000U /* SA_RESTORER */);
	}
	for (int i = 0; i < 3; i++)
		HCV(io_uring_queue_exit(&ring[i]));
	done("own-segv");
	return 0;
}

/* ---- close_range in a child ---------------------------------------------- */

static int child_close_range(void)
{
	struct io_uring ring;
	pid_t pid;
	int st;

	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	nops(&ring, 10);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		static char buf[1 << 14];
		struct io_uring mine;
		size_t used = 0;
		int fd;

		harm_close_from(3);
		fd = harm_data_file("child-data", 4096, 9);
		CHECK(fd >= 0);
		CHECK_EQ(HC(io_uring_queue_init(8, &mine, 0)), 0);
		nops(&mine, 20);
		user_data_reuse(&mine);
		failed_setup();
		CHECK(write(fd, "child's own line\n", 17) == 17);
		HCV(io_uring_queue_exit(&mine));
		harm_list_fds(buf, sizeof(buf), &used);
		printf("child after close_range, data file on %d:\n%s", fd, buf);
		fflush(stdout);
		_exit(0);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	printf("child: status %#x\n", st);
	nops(&ring, 10);
	HCV(io_uring_queue_exit(&ring));
	done("close-range-child");
	return 0;
}

/* ---- closing every descriptor mid-run ------------------------------------ */

static int child_close_all(void)
{
	struct io_uring a, b;
	int fd;

	CHECK_EQ(HC(io_uring_queue_init(8, &a, 0)), 0);
	nops(&a, 10);
	for (int n = 3; n < 1024; n++)
		if (n != a.ring_fd)
			close(n);
	fd = harm_data_file("data", 4096, 6);
	CHECK(fd >= 0);
	CHECK_EQ(HC(io_uring_queue_init(8, &b, 0)), 0);
	nops(&a, 10);
	nops(&b, 10);
	user_data_reuse(&b);
	failed_setup();
	CHECK(write(fd, "the program's own line\n", 23) == 23);
	HCV(io_uring_queue_exit(&b));
	HCV(io_uring_queue_exit(&a));
	printf("data file on %d\n", fd);
	done("close-all");
	return 0;
}

/* ---- stderr a pipe without reader ---------------------------------------- */

static int child_sigpipe(int ignore)
{
	struct io_uring ring;

	if (ignore)
		signal(SIGPIPE, SIG_IGN);
	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	nops(&ring, 20);
	failed_setup();
	user_data_reuse(&ring);
	if (ignore) {
		errno = 0;
		printf("its own write to stderr: %zd, errno %d\n", write(2, "x\n", 2), errno);
	}
	HCV(io_uring_queue_exit(&ring));
	done(ignore ? "sigpipe-ignored" : "sigpipe-default");
	return 0;
}

/* ---- threads that rename themselves -------------------------------------- */

static struct io_uring named_ring[4];

static void *named_thread(void *arg)
{
	long i = (long) arg;
	char name[16];

	snprintf(name, sizeof(name), "worker-%ld", i);
	if (i % 2)
		CHECK(pthread_setname_np(pthread_self(), name) == 0);
	else
		CHECK(prctl(PR_SET_NAME, name, 0, 0, 0) == 0);
	user_data_reuse(&named_ring[i]);
	snprintf(name, sizeof(name), "renamed-%ld", i);
	CHECK(pthread_setname_np(pthread_self(), name) == 0);
	nops(&named_ring[i], 5);
	CHECK(pthread_getname_np(pthread_self(), name, sizeof(name)) == 0);
	return strdup(name);
}

static int child_thread_names(void)
{
	char name[16];

	CHECK(prctl(PR_SET_NAME, "main-renamed", 0, 0, 0) == 0);
	for (long i = 0; i < 4; i++)
		CHECK_EQ(HC(io_uring_queue_init(8, &named_ring[i], 0)), 0);
	for (long i = 0; i < 4; i++) {
		pthread_t t;
		void *got;

		CHECK(pthread_create(&t, NULL, named_thread, (void *) i) == 0);
		CHECK(pthread_join(t, &got) == 0);
		printf("thread %ld ended named %s\n", i, (char *) got);
		free(got);
	}
	user_data_reuse(&named_ring[0]);
	CHECK(prctl(PR_GET_NAME, name, 0, 0, 0) == 0);
	printf("main thread named %s\n", name);
	for (int i = 0; i < 4; i++)
		HCV(io_uring_queue_exit(&named_ring[i]));
	done("thread-names");
	return 0;
}

/* ---- RLIMIT_NOFILE at what it uses --------------------------------------- */

static int child_nofile_tight(void)
{
	/* It opens: two rings, a data file, an eventfd, and two pipes for the
	 * finding (4): 8 descriptors above stdio. */
	struct rlimit rl;
	struct io_uring a, b;
	int fd, efd, extra;

	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	rl.rlim_cur = 3 + 8;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	printf("ring a: %d\n", HC(io_uring_queue_init(8, &a, 0)));
	printf("ring b: %d\n", HC(io_uring_queue_init(8, &b, 0)));
	fd = harm_data_file("data", 4096, 8);
	printf("data file: %s\n", fd >= 0 ? "opened" : strerror(errno));
	efd = eventfd(0, EFD_CLOEXEC);
	printf("eventfd: %s\n", efd >= 0 ? "opened" : strerror(errno));
	if (efd >= 0)
		printf("register eventfd: %d\n", HC(io_uring_register_eventfd(&a, efd)));
	nops(&a, 10);
	nops(&b, 10);
	user_data_reuse(&a);
	failed_setup();
	/* What it opens beyond: the limit it set. */
	{
		int p[2];

		CHECK(pipe(p) == 0);
		extra = open("/dev/null", O_RDONLY);
		printf("one more than it planned: %s\n", extra >= 0 ? "opened" : strerror(errno));
		close(p[0]);
		close(p[1]);
		if (extra >= 0)
			close(extra);
	}
	HCV(io_uring_queue_exit(&a));
	HCV(io_uring_queue_exit(&b));
	done("nofile-tight");
	return 0;
}

/* ---- stderr closed and its number reused mid-run ------------------------- */

static int child_stderr_reused(void)
{
	struct io_uring ring;
	int fd;

	CHECK_EQ(HC(io_uring_queue_init(8, &ring, 0)), 0);
	nops(&ring, 10);
	close(2);
	fd = harm_data_file("data", 4096, 10);
	CHECK_EQ(fd, 2);
	nops(&ring, 20);
	user_data_reuse(&ring);
	failed_setup();
	CHECK(write(fd, "the program's own line\n", 23) == 23);
	HCV(io_uring_queue_exit(&ring));
	done("stderr-reused");
	return 0;
}

static int child_main(const char *mode)
{
	harm_start();
	if (!strcmp(mode, "fdlist"))
		return child_fdlist();
	if (!strcmp(mode, "vfork-exec"))
		return child_vfork_exec();
	if (!strcmp(mode, "posix-spawn"))
		return child_posix_spawn();
	if (!strcmp(mode, "seccomp"))
		return child_seccomp();
	if (!strcmp(mode, "ro-fs") || !strcmp(mode, "full-fs"))
		return child_work(mode);
	if (!strcmp(mode, "rlimit-as"))
		return child_rlimit_as();
	if (!strcmp(mode, "cancel-wait"))
		return child_cancel_wait();
	if (!strcmp(mode, "longjmp"))
		return child_longjmp();
	if (!strcmp(mode, "own-segv"))
		return child_own_segv();
	if (!strcmp(mode, "close-range-child"))
		return child_close_range();
	if (!strcmp(mode, "close-all"))
		return child_close_all();
	if (!strcmp(mode, "sigpipe-default"))
		return child_sigpipe(0);
	if (!strcmp(mode, "sigpipe-ignored"))
		return child_sigpipe(1);
	if (!strcmp(mode, "thread-names"))
		return child_thread_names();
	if (!strcmp(mode, "nofile-tight"))
		return child_nofile_tight();
	if (!strcmp(mode, "stderr-reused"))
		return child_stderr_reused();
	FAIL("unknown child mode %s", mode);
}

/* ================================================================== */
/* The driver                                                          */
/* ================================================================== */

static char mount_dir[4400];

/* A private mount namespace with a tmpfs on mount_dir: read-only (arg 1)
 * or 64 KiB (arg 0). */
static void private_tmpfs(void *arg, int traced)
{
	int ro = (int) (long) arg;

	(void) traced;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", mount_dir, "tmpfs", 0, "size=64k,mode=0755"))
		_exit(124);
	if (ro && mount(NULL, mount_dir, NULL, MS_REMOUNT | MS_RDONLY, NULL))
		_exit(124);
}

/* stderr: a pipe whose reader has gone. */
static void stderr_broken_pipe(void *arg, int traced)
{
	int p[2];

	(void) arg;
	(void) traced;
	if (pipe(p) || dup2(p[1], 2) < 0)
		_exit(124);
	close(p[0]);
	close(p[1]);
}

struct hostile {
	const char *name;
	/* LIBURING_TRACE: NULL for the driver's file, or "stderr". */
	const char *trace;
	void (*prep)(void *, int);
	long prep_arg;
	/* A skips.tsv fact the part needs, or NULL. */
	const char *needs;
	int timeout_ms;
};

static void run_hostile(const struct hostile *h, const char *mode)
{
	struct harm_driver *d = harm_driver();
	char trace[4500];
	struct harm_spec s;
	struct harm_env env;
	struct harm_run plain, traced;

	if (h->needs && !ENV_HAS_PART(h->name, h->needs))
		return;
	memset(&s, 0, sizeof(s));
	s.name = h->name;
	s.argv[0] = d->self;
	s.argv[1] = "child";
	s.argv[2] = mode;
	s.prep = h->prep;
	s.prep_arg = (void *) h->prep_arg;
	s.timeout_ms = h->timeout_ms ? h->timeout_ms : 8000;
	/* On the tmpfs for the file-system parts. */
	snprintf(trace, sizeof(trace), "%s/trace", mount_dir);
	env = harm_vars(h->trace ? h->trace : h->prep == private_tmpfs ? trace : NULL);
	harm_case_begin(h->name);
	harm_pair(&s, &env, 0, &plain, &traced);
	harm_free_run(&plain);
	harm_free_run(&traced);
	harm_case_end();
}

int main(int argc, char **argv)
{
	static const struct hostile cases[] = {
		{ "vfork-exec", NULL, NULL, 0, NULL, 0 },
		{ "posix-spawn", NULL, NULL, 0, NULL, 0 },
		{ "seccomp", NULL, NULL, 0, "seccomp", 0 },
		{ "ro-fs", NULL, private_tmpfs, 1, "mount-ns", 0 },
		{ "full-fs", NULL, private_tmpfs, 0, "mount-ns", 0 },
		{ "rlimit-as", NULL, NULL, 0, NULL, 0 },
		{ "cancel-wait", NULL, NULL, 0, NULL, 0 },
		/* Its loop waits for 30 alarms: seconds on a starved emulated guest. */
		{ "longjmp", NULL, NULL, 0, NULL, 30000 },
		{ "own-segv", NULL, NULL, 0, NULL, 0 },
		{ "close-range-child", NULL, NULL, 0, NULL, 0 },
		{ "close-all", NULL, NULL, 0, NULL, 0 },
		{ "sigpipe-default", "stderr", stderr_broken_pipe, 0, NULL, 0 },
		{ "sigpipe-ignored", "stderr", stderr_broken_pipe, 0, NULL, 0 },
		{ "thread-names", NULL, NULL, 0, NULL, 0 },
		{ "nofile-tight", NULL, NULL, 0, NULL, 0 },
		{ "stderr-reused", NULL, NULL, 0, NULL, 0 },
		{ "stderr-reused-trace-stderr", "stderr", NULL, 0, NULL, 0 },
	};

	if (argc > 2 && !strcmp(argv[1], "child"))
		return child_main(argv[2]);
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here (raw io_uring_setup)");
	harm_driver_init("diag-hostile");
	snprintf(mount_dir, sizeof(mount_dir), "%s/mnt", harm_driver()->dir);
	CHECK(mkdir(mount_dir, 0755) == 0);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *mode = cases[i].name;
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], cases[i].name);
		if (!wanted)
			continue;
		if (!strcmp(mode, "stderr-reused-trace-stderr"))
			mode = "stderr-reused";
		run_hostile(&cases[i], mode);
	}
	return harm_finish();
}
