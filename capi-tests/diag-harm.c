/* SPDX-License-Identifier: MIT */
/*
 * The diagnostics never change what a program does.  Each scenario below is
 * run twice, as a child process of this program: once with no variable set
 * and once with LIBURING_DEBUG=1 and LIBURING_TRACE (a file, or stderr where
 * the scenario is about stderr).  Both runs must end the same way: exit 0,
 * within their time limit (a hang or a deadlock is killed by alarm(2) and
 * fails), with the scenario's own checks passing.
 *
 *   fork       a thread submits and reaps on a traced ring while the main
 *              thread forks 40 children, each of which sets up a ring of its
 *              own: no child may hang in the trace's bookkeeping.
 *   signal     a SIGALRM handler submits on a second ring, many times a
 *              second, while the main loop submits on the first.
 *   reuse-fd   the program closes every descriptor it did not open (as a
 *              daemon does) and opens its data file, which gets the trace's
 *              old number: the data file must be exactly what it wrote.
 *   sigpipe    stderr is a pipe whose reader has gone, then a pipe nobody
 *              reads that is full: a failed io_uring_queue_init still returns
 *              -EINVAL (no SIGPIPE death, no blocking), NOPs still work.
 *   mixed      rings with IORING_SETUP_CQE_MIXED / SQE_MIXED reaped inline
 *              (io_uring_for_each_cqe + io_uring_cq_advance) until the CQ
 *              has been lapped many times, then a library wait: it returns.
 *   passive    under strace: the same io_uring_enter and io_uring_register
 *              calls on the program's ring with and without the variables.
 * And, with the trace to a file: the file is created 0600, a symbolic link
 * or a FIFO is refused without blocking, and LIBURING_TRACE_MAX caps it.
 * Last, liburing.so.2 without its diagnostics object beside it: one line
 * says so and the program runs as without the variables.
 */
#include "check.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>

#ifndef IORING_SETUP_CQE_MIXED
#define IORING_SETUP_CQE_MIXED (1U << 18)
#endif

static void nops(struct io_uring *ring, int rounds)
{
	for (int i = 0; i < rounds; i++)
		check_nop_roundtrip(ring, 2, (unsigned long long) i * 2);
}

/* ---------------------------------------------------------------- fork */

static volatile int stop_thread;

static void *submitter(void *arg)
{
	struct io_uring *ring = arg;

	while (!stop_thread)
		check_nop_roundtrip(ring, 4, 0);
	return NULL;
}

static int scenario_fork(void)
{
	struct io_uring ring;
	pthread_t t;

	check_ring_init(&ring, 8, 0);
	CHECK(pthread_create(&t, NULL, submitter, &ring) == 0);
	for (int i = 0; i < 40; i++) {
		pid_t pid = fork();
		int st;

		CHECK(pid >= 0);
		if (pid == 0) {
			struct io_uring mine;

			alarm(10);
			check_ring_init(&mine, 4, 0);
			check_nop_roundtrip(&mine, 2, 0);
			io_uring_queue_exit(&mine);
			_exit(0);
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "child %d ended with status %#x (SIGALRM: hung)", i, st);
	}
	stop_thread = 1;
	CHECK(pthread_join(t, NULL) == 0);
	io_uring_queue_exit(&ring);
	return 0;
}

/* -------------------------------------------------------------- signal */

static struct io_uring sig_ring;
static volatile int handled;

static void on_alarm(int sig)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&sig_ring);
	struct io_uring_cqe *cqe;

	(void) sig;
	if (!sqe)
		return;
	io_uring_prep_nop(sqe);
	if (io_uring_submit_and_wait(&sig_ring, 1) == 1 && io_uring_peek_cqe(&sig_ring, &cqe) == 0) {
		io_uring_cqe_seen(&sig_ring, cqe);
		handled++;
	}
}

static int scenario_signal(void)
{
	struct itimerval every = { { 0, 200 }, { 0, 200 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	struct io_uring ring;
	long long end;

	check_ring_init(&ring, 8, 0);
	check_ring_init(&sig_ring, 8, 0);
	signal(SIGALRM, on_alarm);
	CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
	end = check_now_ms() + 1500;
	while (check_now_ms() < end || handled < 20)
		check_nop_roundtrip(&ring, 1, 0);
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	signal(SIGALRM, SIG_DFL);
	io_uring_queue_exit(&sig_ring);
	io_uring_queue_exit(&ring);
	return 0;
}

/* ------------------------------------------------------------ reuse-fd */

static int scenario_reuse_fd(void)
{
	char path[4096], buf[4096], back[8192];
	struct io_uring ring;
	int fd;

	snprintf(path, sizeof(path), "%s.data", getenv("HARM_SCRATCH"));
	/* Close every descriptor above stderr, as a daemon does. */
	for (int i = 3; i < 1024; i++)
		close(i);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 3);
	check_fill(buf, sizeof(buf), 7);
	CHECK(write(fd, buf, sizeof(buf)) == (ssize_t) sizeof(buf));
	check_ring_init(&ring, 8, 0);
	nops(&ring, 50);
	io_uring_queue_exit(&ring);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECKM(read(fd, back, sizeof(back)) == (ssize_t) sizeof(buf),
	       "the data file changed size: the trace wrote into it");
	CHECKM(memcmp(buf, back, sizeof(buf)) == 0, "the data file's bytes changed");
	close(fd);
	unlink(path);
	return 0;
}

/* ------------------------------------------------------------- sigpipe */

static void failed_init_and_nops(void)
{
	struct io_uring ring;

	CHECK_EQ(io_uring_queue_init(8, &ring, 1U << 30), -EINVAL);
	check_ring_init(&ring, 8, 0);
	nops(&ring, 20);
	io_uring_queue_exit(&ring);
}

static int scenario_sigpipe(void)
{
	int p[2];

	/* No reader at all. */
	CHECK(pipe(p) == 0);
	close(p[0]);
	CHECK(dup2(p[1], 2) == 2);
	close(p[1]);
	failed_init_and_nops();

	/* A reader that never reads: the pipe is full. */
	CHECK(pipe(p) == 0);
	CHECK(fcntl(p[1], F_SETFL, O_NONBLOCK) == 0);
	while (write(p[1], "x", 1) == 1)
		;
	CHECK(errno == EAGAIN);
	CHECK(fcntl(p[1], F_SETFL, 0) == 0);
	CHECK(dup2(p[1], 2) == 2);
	close(p[1]);
	failed_init_and_nops();
	close(p[0]);
	return 0;
}

/* --------------------------------------------------------------- mixed */

/* Whether the kernel takes these setup flags (a raw io_uring_setup, not the
 * library under test). */
static int kernel_takes(unsigned flags)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	fd = (int) syscall(__NR_io_uring_setup, 8, &p);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static int scenario_mixed(void)
{
	struct __kernel_timespec ts = check_kts_ms(1);
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned head, seen = 0;

	if (!kernel_takes(IORING_SETUP_CQE_MIXED))
		return CHECK_EXIT_SKIP;
	check_ring_init(&ring, 8, IORING_SETUP_CQE_MIXED);
	/* Mixed 16- and 32-byte CQEs on a 16-entry CQ, reaped inline for one
	 * to four laps, then a library wait, which the trace observes: its CQ
	 * cursor is then behind by more than a lap, at every alignment. */
	for (int cycle = 0; cycle < 40; cycle++) {
		int rounds = 4 + cycle % 11;

		for (int round = 0; round < rounds; round++) {
			for (int i = 0; i < 3; i++) {
				struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

				CHECK(sqe);
				io_uring_prep_nop(sqe);
				if ((cycle + round + i) % 2)
					sqe->nop_flags |= IORING_NOP_CQE32;
				sqe->user_data = round * 3 + i;
			}
			CHECK_EQ(io_uring_submit(&ring), 3);
			for (unsigned got = 0; got < 3;) {
				unsigned n = 0, slots = 0;

				io_uring_for_each_cqe(&ring, head, cqe) {
					slots += io_uring_cqe_nr(cqe);
					if (cqe->flags & IORING_CQE_F_SKIP)
						continue; /* padding at the wrap */
					CHECK_EQ(cqe->res, 0);
					n++;
				}
				io_uring_cq_advance(&ring, slots);
				got += n;
				seen += n;
			}
		}
		CHECK_EQ(io_uring_wait_cqe_timeout(&ring, &cqe, &ts), -ETIME);
	}
	CHECKM(seen > 1000, "%u CQEs", seen);
	io_uring_queue_exit(&ring);
	return 0;
}

/* ------------------------------------------------------------- passive */

static int scenario_nops(void)
{
	struct io_uring ring;

	check_ring_init(&ring, 8, 0);
	nops(&ring, 10);
	io_uring_queue_exit(&ring);
	return 0;
}

/* ------------------------------------------------------------- driver */

static const char *self_path;
static char scratch[4096];

enum trace_to { TRACE_NONE, TRACE_FILE, TRACE_STDERR };

/* Runs this program's `scenario` in a child with the given variables;
 * returns its exit status (128 + signal when killed). */
static int run(const char *scenario, enum trace_to trace, const char *extra_env,
	       const char *wrapper)
{
	char trace_var[4200], scratch_var[4200];
	pid_t pid;
	int st;

	snprintf(trace_var, sizeof(trace_var), "LIBURING_TRACE=%s",
		 trace == TRACE_STDERR ? "stderr" : scratch);
	snprintf(scratch_var, sizeof(scratch_var), "HARM_SCRATCH=%s", scratch);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		char *envp[8];
		char *argv[16];
		int e = 0, a = 0;

		envp[e++] = scratch_var;
		if (getenv("LD_LIBRARY_PATH")) {
			static char ld[8192];

			snprintf(ld, sizeof(ld), "LD_LIBRARY_PATH=%s", getenv("LD_LIBRARY_PATH"));
			envp[e++] = ld;
		}
		if (trace != TRACE_NONE) {
			envp[e++] = "LIBURING_DEBUG=1";
			envp[e++] = trace_var;
		}
		if (extra_env)
			envp[e++] = (char *) extra_env;
		envp[e] = NULL;
		if (wrapper) {
			argv[a++] = "strace";
			argv[a++] = "-f";
			argv[a++] = "-qq";
			argv[a++] = "-e";
			argv[a++] = "signal=none";
			argv[a++] = "-e";
			argv[a++] = "trace=io_uring_setup,io_uring_enter,io_uring_register";
			argv[a++] = "-o";
			argv[a++] = (char *) wrapper;
		}
		argv[a++] = (char *) self_path;
		argv[a++] = (char *) scenario;
		argv[a] = NULL;
		alarm(60);
		execve(wrapper ? "/usr/bin/strace" : self_path, argv, envp);
		_exit(127);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Both runs of `scenario` must pass (or both skip, when the kernel lacks
 * what it needs: decided by a raw io_uring_setup in the scenario). */
static int compare(const char *scenario, enum trace_to trace)
{
	int plain, traced;

	unlink(scratch);
	plain = run(scenario, TRACE_NONE, NULL, NULL);
	traced = run(scenario, trace, NULL, NULL);
	printf("%-9s without the variables: exit %d, with them: exit %d\n", scenario, plain,
	       traced);
	CHECKM(plain == traced, "%s: the diagnostics changed the outcome", scenario);
	CHECKM(plain == 0 || plain == CHECK_EXIT_SKIP, "%s failed (exit %d)", scenario, plain);
	return plain == CHECK_EXIT_SKIP;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long) st.st_size;
}

/* The enters and registrations on the program's ring (the last ring set
 * up: the trace probes the kernel's opcodes on a ring of its own at load,
 * before the program runs) in an strace log, from its setup on. */
static void ring_calls(const char *log, char *out, size_t len)
{
	char line[1024];
	int ring_fd = -1;
	FILE *f = fopen(log, "r");
	size_t used = 0;

	CHECK(f);
	out[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		char *call = strstr(line, "io_uring_");
		char *eq = strrchr(line, '=');
		char prefix[64];

		if (!call)
			continue;
		if (!strncmp(call, "io_uring_setup(", 15) && eq) {
			ring_fd = atoi(eq + 1);
			used = 0;
			out[0] = 0;
			continue;
		}
		snprintf(prefix, sizeof(prefix), "io_uring_enter(%d,", ring_fd);
		if (strncmp(call, prefix, strlen(prefix))) {
			snprintf(prefix, sizeof(prefix), "io_uring_register(%d,", ring_fd);
			if (strncmp(call, prefix, strlen(prefix)))
				continue;
		}
		/* The call and its arguments after the fd (whose number the
		 * trace's own descriptors shift), cut before any address. */
		used += snprintf(out + used, used < len ? len - used : 0, "%.*s%.30s\n",
				 (int) (strchr(call, '(') - call), call, strchr(call, ','));
	}
	fclose(f);
	CHECKM(ring_fd >= 0, "no io_uring_setup in %s", log);
}

static void check_passive(void)
{
	static char plain[1 << 14], traced[1 << 14];
	char log[4200];

	/* A prerequisite of make test (tools/deps/prerequisites.txt). */
	CHECKM(access("/usr/bin/strace", X_OK) == 0, "no /usr/bin/strace");
	snprintf(log, sizeof(log), "%s.strace", scratch);
	CHECK_EQ(run("nops", TRACE_NONE, NULL, log), 0);
	ring_calls(log, plain, sizeof(plain));
	CHECK_EQ(run("nops", TRACE_FILE, NULL, log), 0);
	ring_calls(log, traced, sizeof(traced));
	CHECKM(strcmp(plain, traced) == 0,
	       "the observer made calls on the program's ring:\n-- without --\n%s-- with --\n%s",
	       plain, traced);
	printf("passive: the same %zu bytes of io_uring_enter/register calls on the ring\n",
	       strlen(plain));
	unlink(log);
}

static void check_trace_file(void)
{
	char link_path[4200], var[4300];
	struct stat st;
	long size;

	/* Created 0600, whatever the umask lets through. */
	unlink(scratch);
	umask(0);
	CHECK_EQ(run("nops", TRACE_FILE, NULL, NULL), 0);
	umask(022);
	CHECK(stat(scratch, &st) == 0);
	CHECKM((st.st_mode & 0777) == 0600, "trace file mode %o", st.st_mode & 0777);
	CHECKM(st.st_size > 0, "empty trace file");

	/* A symbolic link is not followed. */
	snprintf(link_path, sizeof(link_path), "%s.link", scratch);
	unlink(link_path);
	unlink(scratch);
	CHECK(symlink(scratch, link_path) == 0);
	snprintf(var, sizeof(var), "LIBURING_TRACE=%s", link_path);
	CHECK_EQ(run("nops", TRACE_NONE, var, NULL), 0);
	CHECKM(access(scratch, F_OK) != 0, "the trace followed a symbolic link");
	unlink(link_path);

	/* A FIFO without reader is refused at once (the child's alarm would
	 * kill a load-time constructor blocked in open). */
	CHECK(mkfifo(link_path, 0600) == 0);
	CHECK_EQ(run("nops", TRACE_NONE, var, NULL), 0);
	unlink(link_path);

	/* LIBURING_TRACE_MAX caps the lines (summaries may follow). */
	unlink(scratch);
	CHECK_EQ(run("nops", TRACE_FILE, "LIBURING_TRACE_MAX=2k", NULL), 0);
	size = file_size(scratch);
	CHECKM(size > 0 && size <= 2048 + 200 + 2 * 1536, "capped trace is %ld bytes", size);
	printf("trace file: 0600, no symlink, no FIFO, capped at 2k: %ld bytes\n", size);
	unlink(scratch);
}

/* The library without its diagnostics object beside it: a program that
 * sets the variables runs as without them, told so in one line. */
static void check_missing_object(void)
{
	const char *stage = getenv("CAPI_STAGE");
	char dir[4200], err[4300], var[4400];
	char text[4096] = "";
	int fd, st;
	pid_t pid;

	CHECKM(stage, "CAPI_STAGE not set (run through capi-tests/run.sh)");
	snprintf(dir, sizeof(dir), "%s.lonely", scratch);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	CHECK(check_system("rm -rf %s && mkdir -p %s && cp %s/usr/lib/liburing.so.2 %s/", dir, dir,
			   stage, dir) == 0);
	snprintf(var, sizeof(var), "LD_LIBRARY_PATH=%s", dir);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		char *envp[] = { var, "LIBURING_DEBUG=1", "LIBURING_TRACE=stderr", NULL };
		char *argv[] = { (char *) self_path, "nops", NULL };
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (e < 0 || dup2(e, 2) < 0)
			_exit(90);
		alarm(30);
		execve(self_path, argv, envp);
		_exit(127);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "without its object: status %#x", st);
	fd = open(err, O_RDONLY);
	CHECK(fd >= 0);
	CHECK(read(fd, text, sizeof(text) - 1) >= 0);
	close(fd);
	CHECKM(strstr(text, "ignored: ") && strstr(text, "liburing-diag.so") && !strstr(text, "uring-trace:"),
	       "without its object, stderr says: %s", text);
	printf("missing object: one line, then as without the variables: %s", text);
	check_system("rm -rf %s", dir);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("CAPI_OUT") ? getenv("CAPI_OUT") : check_tmpdir();
	int skipped = 0;

	if (argc > 1) {
		alarm(30);
		if (!strcmp(argv[1], "fork"))
			return scenario_fork();
		if (!strcmp(argv[1], "signal"))
			return scenario_signal();
		if (!strcmp(argv[1], "reuse-fd"))
			return scenario_reuse_fd();
		if (!strcmp(argv[1], "sigpipe"))
			return scenario_sigpipe();
		if (!strcmp(argv[1], "mixed"))
			return scenario_mixed();
		if (!strcmp(argv[1], "nops"))
			return scenario_nops();
		FAIL("unknown scenario %s", argv[1]);
	}
	self_path = "/proc/self/exe";
	{
		static char exe[4096];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		CHECK(n > 0);
		exe[n] = 0;
		self_path = exe;
	}
	snprintf(scratch, sizeof(scratch), "%s/diag-harm.%d.trace", dir, (int) getpid());

	compare("fork", TRACE_FILE);
	compare("signal", TRACE_FILE);
	compare("reuse-fd", TRACE_FILE);
	compare("sigpipe", TRACE_STDERR);
	skipped += compare("mixed", TRACE_FILE);
	check_passive();
	check_trace_file();
	check_missing_object();
	unlink(scratch);
	if (skipped)
		SKIP("the kernel refuses IORING_SETUP_CQE_MIXED (raw io_uring_setup)");
	return 0;
}
