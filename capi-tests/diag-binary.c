/* SPDX-License-Identifier: MIT */
/*
 * The binary trace (LIBURING_TRACE_FORMAT=binary, or a .utrace file) and
 * its decoder, `uring-info trace`:
 *
 * - killed: a workload submitting NOPs (and reads of /dev/zero) one at a
 *   time reports each user_data once io_uring_submit returned; it is
 *   killed with SIGKILL; the decoded trace holds the SQE of the last
 *   user_data it reported, and the summary names per-opcode times.
 * - damaged: the same file with a record overwritten is refused (exit 1,
 *   "damaged"); a text file is refused as not a binary trace.
 * - wrapped: with LIBURING_TRACE_MAX=64k the file is a ring of blocks; a
 *   run of 20000 NOPs leaves the newest: the last request is there, the
 *   first is not, and the summary says it is a flight recorder.
 * - crashed: a read in flight, then a fault (SIGSEGV) or abort(): the
 *   process dies of the same signal as untraced, and the decoded trace
 *   says so per ring, with the read's age reckoned to the crash, and the
 *   SQEs prepared and never submitted then: 3 taken and left before the
 *   fault (the oldest named where the kernel lets its SQE pages be
 *   read with process_vm_readv: not 5.10 or 6.1), 0 before abort() (its
 *   3 were submitted).
 * - left: 3 SQEs taken and never submitted on a ring never torn down,
 *   then exit: the decoded trace counts them at process exit.
 * - stuck: a NOP-free wait on a ring with a read of an empty pipe in
 *   flight: decoded while the program hangs (uring-info pointed at a
 *   running program's trace), the summary gives the read's and the wait's
 *   ages up to now (at least the 300 ms waited); killed, it lists the read
 *   as still in flight at the ring's last event. It took 3 SQEs it never
 *   submitted: the live decode (which reads them from the running
 *   program's memory) says so.
 * - bimodal: reads of a pipe, half of them with the data already there,
 *   half written later: the summary's histogram of READ (and of the
 *   pipe's descriptor) shows two groups of marks with empty buckets
 *   between them; the IOSQE_ASYNC NOPs have a row of their own. "Later"
 *   is 64 times the slowest quick round, at least 250 ms: before 6.x a
 *   pipe read is punted to an io-wq worker even with its data there,
 *   which in an emulated guest on a loaded host took tens of ms.
 * - nested: a SIGALRM handler submits NOPs on a ring of its own while the
 *   main loop submits on another (the handler interrupts the trace's
 *   writer): the file decodes, with every request of the main loop.
 * - snapshot: LIBURING_TRACE_SNAPSHOT_SIGNAL=SIGUSR2 sent twice to a
 *   program waiting for a read, with a SIGUSR2 handler of its own: it
 *   goes on (its handler runs too), and the decoded summary gives the
 *   read in flight, the 3 SQEs it took and never submitted, and the
 *   thread asleep at each snapshot.
 */
#include "check.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>

/* Submits one request at a time and prints its user_data to stdout once
 * submitted; `n` of them (0: until killed). */
static int workload(long n)
{
	static char buf[512];
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int fd = open("/dev/zero", O_RDONLY);
	unsigned long long ud;
	int ret;

	CHECK(fd >= 0);
	check_ring_init(&ring, 64, 0);
	for (ud = 1; n == 0 || ud <= (unsigned long long) n; ud++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (ud % 3 == 0)
			io_uring_prep_read(sqe, fd, buf, sizeof(buf), 0);
		else
			io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, ud);
		CHECK_EQ(io_uring_submit(&ring), 1);
		if (n == 0) {
			printf("%llu\n", ud);
			fflush(stdout);
		}
		/* 5.10 answers a wait that a signal interrupted (the nested
		 * case's SIGALRM) with -EINTR, as a program must expect: wait
		 * again. */
		do
			ret = io_uring_wait_cqe(&ring, &cqe);
		while (ret == -EINTR);
		CHECK_EQ(ret, 0);
		CHECK(cqe->res >= 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(fd);
	return 0;
}

/* Takes `n` SQEs (NOPs, user_data 0x5e0 on) and leaves them unsubmitted:
 * the trace's snapshots count them, the library never seeing them taken. */
static void take_unsubmitted(struct io_uring *ring, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		CHECK(sqe);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 0x5e0 + k);
	}
}

/* A read of a pipe nobody writes to, in flight, then a wait for it (3
 * SQEs taken and not submitted meanwhile). */
static int stuck(void)
{
	static char buf[16];
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int p[2];

	CHECK(pipe(p) == 0);
	check_ring_init(&ring, 8, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	io_uring_sqe_set_data64(sqe, 0x5157);
	CHECK_EQ(io_uring_submit(&ring), 1);
	take_unsubmitted(&ring, 3);
	printf("waiting\n");
	fflush(stdout);
	io_uring_wait_cqe(&ring, &cqe);
	return 1;
}

/* A read of a pipe nobody writes to, in flight, then a crash: a store to
 * a page it may not write ("fault", 3 SQEs taken and not submitted), or
 * abort() (3 SQEs taken and submitted). No core file. */
static int crash(int fault)
{
	static char buf[16];
	struct rlimit no_core = { 0, 0 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	volatile char *page;
	int p[2];

	CHECK(pipe(p) == 0);
	CHECK(setrlimit(RLIMIT_CORE, &no_core) == 0);
	check_ring_init(&ring, 8, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	io_uring_sqe_set_data64(sqe, 0xc4a5);
	CHECK_EQ(io_uring_submit(&ring), 1);
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(page != MAP_FAILED);
	take_unsubmitted(&ring, 3);
	if (!fault)
		CHECK_EQ(io_uring_submit(&ring), 3);
	usleep(20000);
	if (fault)
		page[0] = 1;
	else
		abort();
	return 0;
}

/* One round: a read of the pipe (its byte written before the submit, or
 * delay_us after it), then a NOP (IOSQE_ASYNC for the late rounds).
 * Returns how long the round took, in microseconds. */
static long bimodal_round(struct io_uring *ring, const int p[2], int k, long delay_us)
{
	static char buf[16];
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!delay_us)
		CHECK_EQ(write(p[1], "x", 1), 1);
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_read(sqe, p[0], buf, 1, 0);
	io_uring_sqe_set_data64(sqe, 0x5ead00 + k);
	CHECK_EQ(io_uring_submit(ring), 1);
	if (delay_us) {
		usleep(delay_us);
		CHECK_EQ(write(p[1], "x", 1), 1);
	}
	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	CHECK_EQ(cqe->res, 1);
	io_uring_cqe_seen(ring, cqe);
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 0x40900 + k);
	if (delay_us)
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	CHECK_EQ(io_uring_submit(ring), 1);
	CHECK_EQ(io_uring_wait_cqe(ring, &cqe), 0);
	io_uring_cqe_seen(ring, cqe);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
}

/* Two populations of reads of one pipe: eight at once (written before),
 * then eight late ones, written at least 64 times the slowest quick
 * round later (and at least 250 ms): every late time lies six doublings
 * or more above every quick one, whatever the machine's load. */
static int bimodal(void)
{
	struct io_uring ring;
	long slowest = 1, delay_us;
	int p[2], k;

	CHECK(pipe(p) == 0);
	check_ring_init(&ring, 8, 0);
	for (k = 0; k < 8; k++) {
		long took = bimodal_round(&ring, p, k, 0);

		if (took > slowest)
			slowest = took;
	}
	delay_us = 64 * slowest;
	if (delay_us < 250000)
		delay_us = 250000;
	if (delay_us > 3000000)
		delay_us = 3000000;
	printf("bimodal: slowest quick round %ld us, late reads written %ld us after\n",
	       slowest, delay_us);
	for (k = 8; k < 16; k++)
		bimodal_round(&ring, p, k, delay_us);
	io_uring_queue_exit(&ring);
	return 0;
}

static struct io_uring handler_ring;
static volatile sig_atomic_t handled;

static void on_alarm(int sig)
{
	struct io_uring_cqe *cqe;

	(void) sig;
	io_uring_prep_nop(io_uring_get_sqe(&handler_ring));
	io_uring_sqe_set_data64(handler_ring.sq.sqes + ((handler_ring.sq.sqe_tail - 1) & handler_ring.sq.ring_mask),
				0xa1a0000 + handled);
	if (io_uring_submit(&handler_ring) == 1 && io_uring_wait_cqe(&handler_ring, &cqe) == 0) {
		io_uring_cqe_seen(&handler_ring, cqe);
		handled++;
	}
}

/* The main loop's NOPs with SIGALRM every 50 us meanwhile. */
static int nested(void)
{
	struct itimerval every = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };

	check_ring_init(&handler_ring, 8, 0);
	CHECK(signal(SIGALRM, on_alarm) != SIG_ERR);
	CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
	CHECK(workload(20000) == 0);
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	printf("%d\n", (int) handled);
	return 0;
}

/* The program's own SIGUSR2 handler, which the snapshot's chains to. */
static void on_usr2(int sig)
{
	(void) sig;
	if (write(1, "handled\n", 8) != 8)
		_exit(3);
}

/* A read of a pipe nobody writes to, waited for again after each signal
 * (a handled signal ends an io_uring wait with -EINTR). */
static int snapshot(void)
{
	static char buf[16];
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int p[2];

	CHECK(signal(SIGUSR2, on_usr2) != SIG_ERR);
	CHECK(pipe(p) == 0);
	check_ring_init(&ring, 8, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	io_uring_sqe_set_data64(sqe, 0x5157);
	CHECK_EQ(io_uring_submit(&ring), 1);
	take_unsubmitted(&ring, 3);
	printf("waiting\n");
	fflush(stdout);
	while (io_uring_wait_cqe(&ring, &cqe) == -EINTR)
		;
	return 1;
}

/* 3 SQEs taken and never submitted on a ring never torn down; exit. */
static int left(void)
{
	static struct io_uring ring;

	check_ring_init(&ring, 8, 0);
	take_unsubmitted(&ring, 3);
	return 0;
}

/* Runs `self mode` under the binary trace into `path`, kills it once it
 * printed `lines` lines; returns the last line it printed. */
/* Whether `pid` is in io_uring_enter now (/proc/PID/syscall: its number
 * first), waiting up to 5 s for it. */
static int in_enter(pid_t pid)
{
	char name[64], buf[64];
	int k;

	snprintf(name, sizeof(name), "/proc/%d/syscall", (int) pid);
	for (k = 0; k < 500; k++) {
		FILE *f = fopen(name, "r");
		int got = f && fgets(buf, sizeof(buf), f) && atol(buf) == __NR_io_uring_enter;

		if (f)
			fclose(f);
		if (got)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* The installed uring-info. */
static char info[4096];

/* Starts `self mode` under the binary trace into `path` (removed first),
 * with LIBURING_TRACE_SNAPSHOT_SIGNAL set when snapshot_signal is; its
 * standard output is the stream returned. */
static FILE *start_traced(const char *self, const char *mode, const char *path,
			  const char *snapshot_signal, pid_t *pid)
{
	FILE *f;
	int p[2];

	unlink(path);
	CHECK(pipe(p) == 0);
	fflush(stdout);
	*pid = fork();
	CHECK(*pid >= 0);
	if (*pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		unsetenv("LIBURING_CHECK");
		unsetenv("LIBURING_DEBUG");
		unsetenv("LIBURING_TRACE_MAX");
		unsetenv("LIBURING_TRACE_FORMAT");
		setenv("LIBURING_TRACE", path, 1);
		if (snapshot_signal)
			setenv("LIBURING_TRACE_SNAPSHOT_SIGNAL", snapshot_signal, 1);
		execl(self, self, mode, (char *) NULL);
		_exit(127);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	CHECK(f);
	return f;
}

static unsigned long long run_and_kill(const char *self, const char *mode, const char *path,
				       long lines)
{
	char line[64];
	unsigned long long last = 0;
	long seen = 0;
	FILE *f;
	pid_t pid;
	int status;

	f = start_traced(self, mode, path, NULL, &pid);
	while (seen < lines && fgets(line, sizeof(line), f)) {
		last = strtoull(line, NULL, 10);
		seen++;
	}
	CHECK_EQ(seen, lines);
	if (!strcmp(mode, "stuck")) {
		/* Killed while it sleeps in the kernel, not before; decoded
		 * while it hangs, 300 ms after it went to sleep. */
		CHECK(in_enter(pid));
		usleep(300000);
		CHECK(check_system("%s trace --summary %s > %s.live.txt", info, path, path) == 0);
	}
	CHECK(kill(pid, SIGKILL) == 0);
	while (fgets(line, sizeof(line), f))
		last = strtoull(line, NULL, 10);
	fclose(f);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	return last;
}

/* How a record names the oldest SQE never submitted: the trace reads it
 * from the ring's SQE array with process_vm_readv, which older kernels
 * refuse for io_uring's mappings (5.10 and 6.1 here: their pages are not
 * ordinary ones); then the record names none. Probed here on a ring of
 * this test's own, independently of the library's trace. */
static const char *oldest_named = " (the oldest: NOP user_data=0x5e0)";

static void probe_sqe_pages(void)
{
	struct io_uring ring;
	char copy[64];
	struct iovec to = { copy, sizeof(copy) }, from;

	check_ring_init(&ring, 8, 0);
	from.iov_base = ring.sq.sqes;
	from.iov_len = sizeof(copy);
	if (process_vm_readv(getpid(), &to, 1, &from, 1, 0) != (ssize_t) sizeof(copy)) {
		oldest_named = "";
		printf("this kernel's SQE pages are not readable by process_vm_readv: "
		       "the oldest SQE never submitted goes unnamed\n");
	}
	io_uring_queue_exit(&ring);
}

static void snapshot_part(const char *self, const char *out)
{
	char path[4096], line[64];
	int status, k;
	FILE *f;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/diag-binary-snapshot.utrace", out);
	f = start_traced(self, "snapshot", path, "SIGUSR2", &pid);
	CHECK(fgets(line, sizeof(line), f) && !strcmp(line, "waiting\n"));
	for (k = 0; k < 2; k++) {
		CHECK(in_enter(pid));
		usleep(100000);
		CHECK(kill(pid, SIGUSR2) == 0);
		CHECK(fgets(line, sizeof(line), f) && !strcmp(line, "handled\n"));
	}
	CHECK(in_enter(pid));
	CHECK(waitpid(pid, &status, WNOHANG) == 0);
	CHECK(kill(pid, SIGKILL) == 0);
	fclose(f);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("test $(grep -c 'ring 1 (fd [0-9]*): snapshot asked by signal %d (SIGUSR2); "
			   "3 SQE(s) prepared and never submitted%s$' %s.txt) -eq 2",
			   SIGUSR2, oldest_named, path) == 0);
	CHECK(check_system("test $(grep -c 'ring 1: summary: at the snapshot of +[0-9.]*s (signal %d (SIGUSR2)): "
			   "in flight READ user_data=0x5157 fd=[0-9]* age [0-9]*ms; "
			   "3 SQE(s) prepared and never submitted%s; "
			   "thread [0-9]* (diag-binary) "
			   "asleep in the kernel for 1 CQE(s) since [0-9]*ms;$' %s.txt) -eq 2", SIGUSR2, oldest_named, path) == 0);
	printf("snapshot: two snapshots on demand, the program's handler chained, the read in flight named\n");
}

int main(int argc, char *argv[])
{
	char path[4096], copy[4096], text[4096], self[4096];
	const char *out;
	unsigned long long last;
	FILE *f;
	int fd;

	if (argc == 2 && !strcmp(argv[1], "forever"))
		return workload(0);
	if (argc == 2 && !strcmp(argv[1], "many"))
		return workload(20000);
	if (argc == 2 && !strcmp(argv[1], "stuck"))
		return stuck();
	if (argc == 2 && !strcmp(argv[1], "snapshot"))
		return snapshot();
	if (argc == 2 && !strcmp(argv[1], "nested"))
		return nested();
	if (argc == 2 && !strcmp(argv[1], "bimodal"))
		return bimodal();
	if (argc == 2 && !strcmp(argv[1], "fault"))
		return crash(1);
	if (argc == 2 && !strcmp(argv[1], "abort"))
		return crash(0);
	if (argc == 2 && !strcmp(argv[1], "left"))
		return left();
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	out = check_env_or_skip("CAPI_OUT");
	CHECK(realpath(argv[0], self));
	check_stage_uring_info(info, sizeof(info));
	probe_sqe_pages();

	/* killed: the last request reported is in the decoded trace. */
	snprintf(path, sizeof(path), "%s/diag-binary.utrace", out);
	last = run_and_kill(self, "forever", path, 3000);
	CHECK(last >= 3000);
	CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("grep -q 'SQE NOP .*user_data=0x%llx$\\|SQE READ .*user_data=0x%llx$' %s.txt",
			   last, last, path) == 0);
	CHECK(check_system("grep -q 'summary: request times per opcode.* NOP n=[0-9]* p50=.* READ n=' %s.txt",
			   path) == 0);
	printf("killed: request 0x%llx present in the decoded trace\n", last);

	/* damaged: a record overwritten; a text file. */
	snprintf(copy, sizeof(copy), "%s/diag-binary-damaged.utrace", out);
	CHECK(check_system("cp %s %s", path, copy) == 0);
	fd = open(copy, O_WRONLY);
	CHECK(fd >= 0);
	CHECK(pwrite(fd, "\xee\xee\xee\xee", 4, 256 + 64 + 10 * 32) == 4);
	close(fd);
	CHECK(check_system("%s trace %s 2> %s.err; test $? -eq 1 && grep -q damaged %s.err",
			   info, copy, copy, copy) == 0);
	snprintf(text, sizeof(text), "%s/diag-binary.txt", out);
	f = fopen(text, "w");
	CHECK(f && fputs("uring-trace: ring 1 (fd 3): SQE NOP\n", f) >= 0 && fclose(f) == 0);
	CHECK(check_system("%s trace %s 2> %s.err; test $? -eq 1 && grep -q 'not a uring-rs binary trace' %s.err",
			   info, text, text, text) == 0);
	printf("damaged: refused with exit 1\n");

	/* wrapped: a flight recorder of 64k keeps the newest. */
	snprintf(path, sizeof(path), "%s/diag-binary-ring.utrace", out);
	unlink(path);
	CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG LIBURING_TRACE=%s "
			   "LIBURING_TRACE_MAX=64k %s many", path, self) == 0);
	CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("grep -q 'flight recorder' %s.txt", path) == 0);
	CHECK(check_system("grep -q 'CQE user_data=0x%x res=' %s.txt", 20000, path) == 0);
	CHECK(check_system("! grep -q 'SQE NOP .*user_data=0x1$' %s.txt", path) == 0);
	printf("wrapped: newest kept, oldest gone\n");

	/* stuck: the read in flight is named with its age. */
	snprintf(path, sizeof(path), "%s/diag-binary-stuck.utrace", out);
	run_and_kill(self, "stuck", path, 1);
	CHECK(check_system("%s trace --summary %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("grep -q 'still in flight.* READ user_data=0x5157 fd=[0-9]* age' %s.txt",
			   path) == 0);
	CHECK(check_system("grep -q 'sleeps in the kernel on ring 1 for 1 CQE' %s.txt", path) == 0);
	/* Decoded while it hung: ages to now, at least the 300 ms slept. */
	CHECK(check_system("age=$(sed -n 's/.*still in flight now, the process running.* READ "
			   "user_data=0x5157 fd=[0-9]* age \\([0-9]*\\)ms;.*/\\1/p' %s.live.txt); "
			   "test \"${age:-0}\" -ge 300", path) == 0);
	CHECK(check_system("grep -q 'sleeps in the kernel on ring 1 for 1 CQE(s) since [0-9]*ms before now' "
			   "%s.live.txt", path) == 0);
	/* ... and its SQEs taken and not submitted, read from its memory. */
	CHECK(check_system("grep -q '^uring-trace: ring 1: summary: 3 SQE(s) prepared and never submitted now, "
			   "the process running$' %s.live.txt", path) == 0);
	/* Its JSON: the ring as a "process" named with its fd (as the
	 * library's JSON trace), the read an open slice. */
	CHECK(check_system("%s trace --json %s > %s.json", info, path, path) == 0);
	CHECK(check_system("grep -q '\"name\":\"process_name\",\"pid\":1,.*\"ring 1 (fd [0-9]*)\"' %s.json "
			   "&& grep -q '\"name\":\"READ (in flight)\",\"cat\":\"request\",\"pid\":1,' %s.json",
			   path, path) == 0);
	printf("stuck: the read in flight is named, with its age while the program hangs\n");

	/* snapshot: LIBURING_TRACE_SNAPSHOT_SIGNAL=SIGUSR2, sent twice while
	 * the program waits: each writes what is in flight (the program's own
	 * handler still runs, and the program goes on), read after it was
	 * killed. */
	snapshot_part(self, out);

	/* crashed: the process dies of the same signal as untraced, and the
	 * read still in flight is reckoned to the crash (20 ms after it). */
	{
		const struct {
			const char *mode;
			int sig;
			const char *name;
			int unsubmitted;
			const char *oldest;
		} crashes[] = { { "fault", SIGSEGV, "SIGSEGV", 3, oldest_named },
				{ "abort", SIGABRT, "SIGABRT", 0, "" } };
		unsigned k;

		for (k = 0; k < sizeof(crashes) / sizeof(crashes[0]); k++) {
			snprintf(path, sizeof(path), "%s/diag-binary-%s.utrace", out, crashes[k].mode);
			unlink(path);
			CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
					   "LIBURING_TRACE=%s %s %s 2>/dev/null; test $? -eq %d",
					   path, self, crashes[k].mode, 128 + crashes[k].sig) == 0);
			CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
			CHECK(check_system("grep -q 'ring 1 (fd [0-9]*): the process got fatal signal %d (%s); "
					   "%d SQE(s) prepared and never submitted%s$' %s.txt",
					   crashes[k].sig, crashes[k].name, crashes[k].unsubmitted,
					   crashes[k].oldest, path) == 0);
			CHECK(check_system("grep -q '^uring-trace: ring 1: summary: %d SQE(s) prepared and never "
					   "submitted when the process got fatal signal %d (%s)%s$' %s.txt",
					   crashes[k].unsubmitted, crashes[k].sig, crashes[k].name,
					   crashes[k].oldest, path) == 0);
			CHECK(check_system("age=$(sed -n 's/.*still in flight when the process got fatal signal %d "
					   "(%s).* READ user_data=0xc4a5 fd=[0-9]* age \\([0-9]*\\)ms;.*/\\1/p' %s.txt); "
					   "test \"${age:-0}\" -ge 20", crashes[k].sig, crashes[k].name, path) == 0);
			printf("crashed (%s): died of it, the read's age reckoned to it, %d SQE(s) never submitted\n",
			       crashes[k].name, crashes[k].unsubmitted);
		}
	}

	/* left: a ring never torn down, 3 SQEs taken and not submitted,
	 * counted at process exit. */
	snprintf(path, sizeof(path), "%s/diag-binary-left.utrace", out);
	unlink(path);
	CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
			   "LIBURING_TRACE=%s %s left", path, self) == 0);
	CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("grep -q 'ring 1 (fd [0-9]*): still set up at process exit; "
			   "3 SQE(s) prepared and never submitted$' %s.txt", path) == 0);
	CHECK(check_system("grep -q '^uring-trace: ring 1: summary: 3 SQE(s) prepared and never submitted "
			   "at process exit$' %s.txt", path) == 0);
	printf("left: 3 SQE(s) never submitted, counted at process exit\n");

	/* bimodal: two populations of READ times, two groups in its bar
	 * (at least 4 empty buckets, 16 times apart, between), in its
	 * descriptor's and in the no-flags row's; the ASYNC NOPs a row of
	 * their own. */
	snprintf(path, sizeof(path), "%s/diag-binary-bimodal.utrace", out);
	unlink(path);
	CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
			   "LIBURING_TRACE=%s %s bimodal", path, self) == 0);
	CHECK(check_system("%s trace --summary %s > %s.txt", info, path, path) == 0);
	CHECK(check_system("grep -q 'ring 1: summary: request time histograms, one column per doubling' %s.txt",
			   path) == 0);
	CHECK(check_system("grep -Eq 'ring 1:   opcode READ +n=16 +\\| *[^ |]+.* {4,}[^ |]+ *\\|$' %s.txt",
			   path) == 0);
	CHECK(check_system("grep -Eq 'ring 1:   fd [0-9]+ +n=16 +\\| *[^ |]+.* {4,}[^ |]+ *\\|$' %s.txt",
			   path) == 0);
	CHECK(check_system("grep -Eq 'ring 1:   opcode NOP +n=16 +\\|' %s.txt",
			   path) == 0);
	CHECK(check_system("grep -Eq 'ring 1:   flags ASYNC +n=8 +\\| *[^ |]+' %s.txt", path) == 0);
	CHECK(check_system("grep -Eq 'ring 1:   flags none +n=24 +\\| *[^ |]+.* {4,}[^ |]+ *\\|$' %s.txt",
			   path) == 0);
	printf("bimodal: the READ histogram has two peaks apart\n");

	/* nested: writers interrupted by a signal handler's. */
	snprintf(path, sizeof(path), "%s/diag-binary-nested.utrace", out);
	unlink(path);
	CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
			   "LIBURING_TRACE=%s %s nested > %s.handled", path, self, path) == 0);
	CHECK(check_system("%s trace %s > %s.txt", info, path, path) == 0);
	/* The handler's ring was set up first (ring 1), the loop's second. */
	/* Every main-loop completion decoded, or counted as lost: the arm64
	 * guest with 16 KiB pages (check-arch) once decoded fewer than 20000
	 * there; the counts are printed so that a shortfall shows its size. */
	CHECK(check_system("n=$(grep -c 'ring 2 (fd [0-9]*): CQE user_data=' %s.txt); "
			   "lost=$(sed -n 's/.*, \\([0-9]*\\) records lost.*/\\1/p' %s.txt | head -1); "
			   "echo \"nested: main loop $n of 20000 completions decoded, ${lost:-0} records lost\"; "
			   "test $n -le 20000 && test $((n + ${lost:-0})) -ge 20000", path, path) == 0);
	/* The handler's: every one but those whose two records were counted
	 * as lost (a handler that interrupts its thread while it allocates
	 * the file's next blocks waits for nothing: it drops its records). */
	CHECK(check_system("n=$(grep -c 'ring 1 (fd [0-9]*): SQE NOP .*user_data=0xa1a' %s.txt); "
			   "lost=$(sed -n 's/.*, \\([0-9]*\\) records lost.*/\\1/p' %s.txt); "
			   "test $n -gt 0 && test $n -ge $(($(cat %s.handled) - ${lost:-0} / 2))",
			   path, path, path) == 0);
	printf("nested: every request decoded, the handler's too\n");
	return 0;
}
