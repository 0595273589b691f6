/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_TRACE=<file> logs every SQE the library hands to the kernel and
 * the CQEs it can see, warns about fields the kernel will reject, and
 * prints a per-ring summary at io_uring_queue_exit (or at exit for rings
 * never torn down).  Checked with this program linked four ways: against
 * liburing.so.2 (as run.sh builds it), liburing.a, liburing-ffi.so.2, and,
 * when upstream liburing and its examples are at hand (CAPI_UPSTREAM_USR and
 * CAPI_UPSTREAM_EXAMPLES, which run.sh asks pytools/upstream/upstream.py for),
 * upstream's unmodified io_uring-cp under LD_PRELOAD.
 */
#include "check.h"

#include <signal.h>
#include <sys/stat.h>

/* Paths are built with snprintf into fixed buffers; a cut path fails later. */
#if defined(__GNUC__) && !defined(__clang__) /* a gcc-only warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define NOPS 5

/* The traced workload; prints how many SQEs it submitted. */
static int workload(void)
{
	struct io_uring ring, forgotten;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	unsigned head, seen = 0;
	int i, sqes = 0;
	char buf[16];

	check_ring_init(&ring, 8, 0);
	for (i = 0; i < NOPS; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		sqe->user_data = 100 + i;
		sqes++;
	}
	CHECK_EQ(io_uring_submit_and_wait(&ring, NOPS), NOPS);
	io_uring_for_each_cqe(&ring, head, cqe)
		seen++;
	io_uring_cq_advance(&ring, seen);

	/* A read on fd -1 without IOSQE_FIXED_FILE: -EBADF. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, -1, buf, sizeof(buf), 0);
	sqe->user_data = 200;
	sqes++;
	/* A NOP with an sqe->flags bit no kernel defines: -EINVAL. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->flags = 0x80;
	sqe->user_data = 201;
	sqes++;
	CHECK_EQ(io_uring_submit(&ring), 2);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK(cqe->res < 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);

	/* A second ring the program never tears down: summarised at exit. */
	check_ring_init(&forgotten, 4, 0);
	sqe = io_uring_get_sqe(&forgotten);
	io_uring_prep_nop(sqe);
	sqe->user_data = 300;
	sqes++;
	CHECK_EQ(io_uring_submit_and_wait(&forgotten, 1), 1);
	printf("sqes=%d\n", sqes);
	return 0;
}

/*
 * Counts from what the kernel did: ring 1 hands 4 SQEs over, the first
 * invalid, and the kernel consumes only up to it; ring 2 submits twice,
 * then reaps as ordinary programs do (wait, cqe_seen), then an FSYNC with
 * DATASYNC; ring 3 does nothing.  Prints what the kernel returned.
 */
static int counts(void)
{
	struct io_uring a, b, idle;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 1000 };
	char buf[16], path[64] = "/tmp/diag-trace-XXXXXX";
	int i, r, fd;

	check_ring_init(&a, 8, 0);
	sqe = io_uring_get_sqe(&a);
	io_uring_prep_nop(sqe);
	sqe->flags = 0x80;
	sqe = io_uring_get_sqe(&a);
	io_uring_prep_read(sqe, 0, buf, sizeof(buf), 0);
	sqe = io_uring_get_sqe(&a);
	io_uring_prep_timeout(sqe, &ts, 0, 0);
	sqe = io_uring_get_sqe(&a);
	io_uring_prep_nop(sqe);
	r = io_uring_submit(&a);
	printf("consumed=%d\n", r);
	io_uring_queue_exit(&a);

	check_ring_init(&b, 8, 0);
	for (i = 0; i < 2; i++) {
		io_uring_prep_nop(io_uring_get_sqe(&b));
		CHECK_EQ(io_uring_submit(&b), 1);
	}
	for (i = 0; i < 2; i++) {
		CHECK_EQ(io_uring_wait_cqe(&b, &cqe), 0);
		io_uring_cqe_seen(&b, cqe);
	}
	fd = mkstemp(path);
	CHECK(fd >= 0);
	unlink(path);
	io_uring_prep_fsync(io_uring_get_sqe(&b), fd, IORING_FSYNC_DATASYNC);
	CHECK_EQ(io_uring_submit_and_wait(&b, 1), 1);
	CHECK_EQ(io_uring_wait_cqe(&b, &cqe), 0);
	io_uring_cqe_seen(&b, cqe);
	close(fd);
	io_uring_queue_exit(&b);

	check_ring_init(&idle, 4, 0);
	io_uring_queue_exit(&idle);
	return 0;
}

/* Traffic, then killed: the summary must be in the file all the same. */
static int killed(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int i;

	check_ring_init(&ring, 8, 0);
	for (i = 0; i < 3; i++) {
		io_uring_prep_nop(io_uring_get_sqe(&ring));
		CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	kill(getpid(), SIGKILL);
	return 1;
}

/*
 * The crash case of issue 17: a DEFER_TASKRUN ring with traffic, resized to
 * 256 SQ / 4096 CQ entries (which unmaps the old rings), then more traffic.
 * Exit 3: the kernel cannot resize rings (a note, not a failure).
 */
static int resized(void)
{
	struct io_uring ring;
	struct io_uring_params p;
	struct io_uring_cqe *cqe;
	int round, i, r;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER;
	if (io_uring_queue_init_params(8, &ring, &p))
		return 3;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 50; i++) {
			io_uring_prep_nop(io_uring_get_sqe(&ring));
			CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
			CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
			io_uring_cqe_seen(&ring, cqe);
		}
		if (round)
			break;
		memset(&p, 0, sizeof(p));
		p.sq_entries = 256;
		p.cq_entries = 4096;
		p.flags = IORING_SETUP_CQSIZE;
		r = io_uring_resize_rings(&ring, &p);
		if (r == -EINVAL || r == -EOPNOTSUPP)
			return 3;
		CHECK_EQ(r, 0);
	}
	io_uring_queue_exit(&ring);
	return 0;
}

static char trace[512];

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	CHECKM(fd >= 0, "no trace file %s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

/* Runs `cmd` traced into a fresh file and returns the trace. */
static char *traced(const char *how, const char *cmd)
{
	unlink(trace);
	CHECKM(check_system("LIBURING_TRACE=%s %s %s", trace, how, cmd) == 0, "%s failed", cmd);
	return slurp(trace);
}

static void check_workload_trace(const char *variant, const char *t)
{
	printf("---- %s\n%s", variant, t);
	CHECKM(count(t, "): SQE ") == NOPS + 3, "%s: %d SQE lines", variant, count(t, "): SQE "));
	CHECK(strstr(t, "ring 1 (fd "));
	CHECK(strstr(t, "summary: ops per opcode: NOP=6 READ=1"));
	/* Request times: per opcode from a fixed histogram, and the slowest. */
	CHECK(strstr(t, "summary: request times per opcode (") && strstr(t, " NOP n="));
	CHECK(strstr(t, " p50<=") && strstr(t, " p99<=") && strstr(t, " max="));
	CHECK(strstr(t, "summary: longest-waiting requests: ") && strstr(t, "user_data=0x"));
	CHECK(strstr(t, "summary: errors per opcode and errno: NOP/EINVAL=1 READ/EBADF=1") ||
	      strstr(t, "summary: errors per opcode and errno: READ/EBADF=1 NOP/EINVAL=1"));
	CHECK(strstr(t, "WARNING: SQE user_data=0xc8 READ: sqe->fd is negative without IOSQE_FIXED_FILE"));
	CHECK(strstr(t, "WARNING: SQE user_data=0xc9 NOP: sqe->flags has bits no kernel defines"));
	CHECK(strstr(t, "CQE user_data=0xc8 res=-EBADF"));
	CHECK(strstr(t, "summary: 7 SQEs consumed by the kernel in 2 submit calls"));
	/* The ring never exited is summarised at process exit. */
	CHECK(strstr(t, "ring 2 (fd "));
	CHECK(strstr(t, "summary: ops per opcode: NOP=1"));
	CHECKM(count(t, "summary: ops per opcode") == 2, "%s: summaries", variant);
}

static void check_counts(const char *self, const char *out)
{
	char how[8192], cwd[4096], err[4200];
	char *t;
	int consumed = 0;

	snprintf(how, sizeof(how), "%s counts", self);
	t = traced("", how);
	printf("---- counts\n%s", t);
	/* What io_uring_submit returned on ring 1, from an untraced run. */
	CHECK(check_system("%s counts > %s/counts.out", self, out) == 0);
	{
		char path[4300];
		FILE *f;

		snprintf(path, sizeof(path), "%s/counts.out", out);
		f = fopen(path, "r");
		CHECK(f && fscanf(f, "consumed=%d", &consumed) == 1);
		fclose(f);
	}
	CHECKM(consumed >= 1 && consumed < 4, "kernel consumed %d of 4", consumed);
	snprintf(how, sizeof(how), "summary: %d SQEs consumed by the kernel in 1 submit calls",
		 consumed);
	CHECKM(strstr(t, how), "missing \"%s\"", how);
	if (consumed == 1) {
		CHECK(strstr(t, "summary: ops per opcode: NOP=1\n"));
		CHECK(!strstr(t, "SQE READ"));
		CHECK(!strstr(t, "SQE TIMEOUT"));
	}
	CHECK(strstr(t, "summary: 3 SQEs consumed by the kernel in 3 submit calls"));
	CHECK(strstr(t, "SQE FSYNC") && strstr(t, "op_flags=DATASYNC"));
	CHECK(!strstr(t, "late"));
	CHECK(strstr(t, " 0 not seen"));
	/* The idle ring: set up, and no summary. */
	CHECK(strstr(t, "ring 3 (fd "));
	CHECK_EQ(count(t, "summary: ops per opcode"), 2);

	/* Asked for, the idle ring gets its summary too. */
	snprintf(how, sizeof(how), "%s counts", self);
	t = traced("LIBURING_TRACE_IDLE=1", how);
	CHECK_EQ(count(t, "summary: ops per opcode"), 3);

	/* LIBURING_TRACE=1 is stderr, not a file named 1. */
	snprintf(cwd, sizeof(cwd), "%s/trace-one", out);
	mkdir(cwd, 0755);
	snprintf(err, sizeof(err), "%s/stderr", cwd);
	CHECK(check_system("cd %s && LIBURING_TRACE=1 %s counts >/dev/null 2>%s", cwd, self, err) == 0);
	snprintf(how, sizeof(how), "%s/1", cwd);
	CHECKM(access(how, F_OK) != 0, "LIBURING_TRACE=1 created a file named 1");
	CHECK(strstr(slurp(err), "summary: 3 SQEs consumed"));

	/* Resize under tracing: no crash, the trace follows the new rings. */
	unlink(trace);
	{
		int rc = check_system("LIBURING_TRACE=%s %s resized", trace, self);

		t = slurp(trace);
		if (rc == 3) {
			printf("note: resize case skipped: the kernel cannot resize rings\n");
		} else {
			printf("---- resized (tail)\n%s", t + (strlen(t) > 1500 ? strlen(t) - 1500 : 0));
			CHECKM(rc == 0, "resized under LIBURING_TRACE: status %d", rc);
			CHECK(strstr(t, "changed: now 256 SQ / 4096 CQ entries"));
			CHECK(strstr(t, "summary: 100 SQEs consumed by the kernel in 100 submit calls"));
		}
	}

	/* Killed: the file still holds a current summary. */
	unlink(trace);
	check_system("LIBURING_TRACE=%s %s killed", trace, self);
	t = slurp(trace);
	printf("---- killed\n%s", t);
	CHECK(strstr(t, "summary: 3 SQEs consumed by the kernel in 3 submit calls"));
	CHECK(strstr(t, "summary: ops per opcode: NOP=3"));
}

/*
 * upstream's io_uring-cp, built against upstream, run with us preloaded.
 * Upstream's install (its usr/) and its examples' source come from the
 * environment (run.sh); either missing skips this case.
 */
static void preload_example(const char *stage)
{
	char up[4096], ex[4096], bin[4096], data[4096], copy[4096];
	const char *up_env = getenv("CAPI_UPSTREAM_USR");
	const char *ex_env = getenv("CAPI_UPSTREAM_EXAMPLES");
	struct stat st;
	char *t, *p;
	long reads = 0, writes = 0, size = 3 * 32768 + 1000;

	snprintf(up, sizeof(up), "%s", up_env ? up_env : "");
	snprintf(ex, sizeof(ex), "%s", ex_env ? ex_env : "");
	snprintf(bin, sizeof(bin), "%s/io_uring-cp.c", ex);
	if (!*up || !*ex || stat(up, &st) || stat(bin, &st)) {
		printf("note: LD_PRELOAD case skipped: no upstream liburing build"
		       " (CAPI_UPSTREAM_USR=%s) or examples (CAPI_UPSTREAM_EXAMPLES=%s)"
		       " (run make liburing-tests first)\n", up, ex);
		return;
	}
	snprintf(bin, sizeof(bin), "%s/io_uring-cp-upstream", getenv("CAPI_OUT"));
	CHECK(check_system("%s -O2 -D_GNU_SOURCE -I%s/include -o %s %s/io_uring-cp.c %s/helpers.c "
			   "-L%s/lib -Wl,-rpath,%s/lib -l:liburing.so.2",
			   getenv("CC") ? getenv("CC") : "cc", up, bin, ex, ex, up, up) == 0);
	snprintf(data, sizeof(data), "%s/cp-src", getenv("CAPI_OUT"));
	snprintf(copy, sizeof(copy), "%s/cp-dst", getenv("CAPI_OUT"));
	CHECK(check_system("head -c %ld /dev/urandom > %s", size, data) == 0);
	{
		char cmd[16384];

		snprintf(cmd, sizeof(cmd), "%s %s %s && cmp %s %s", bin, data, copy, data, copy);
		t = traced(stage, cmd);
	}
	printf("---- upstream io_uring-cp under LD_PRELOAD\n%s", t);
	/* io_uring-cp reads and writes 32 KiB blocks: its own count. */
	p = strstr(t, "ops per opcode:");
	CHECK(p);
	sscanf(strstr(p, "READV=") ? strstr(p, "READV=") : "READV=-1", "READV=%ld", &reads);
	sscanf(strstr(p, "WRITEV=") ? strstr(p, "WRITEV=") : "WRITEV=-1", "WRITEV=%ld", &writes);
	CHECK_EQ(reads, (size + 32767) / 32768);
	CHECK_EQ(writes, reads);
	CHECK_EQ(count(t, "): SQE "), reads + writes);
}

int main(int argc, char **argv)
{
	const char *stage, *src, *out, *cc;
	char self[4096], bin[4096], how[8192];
	ssize_t n;

	if (argc == 2 && !strcmp(argv[1], "workload"))
		return workload();
	if (argc == 2 && !strcmp(argv[1], "counts"))
		return counts();
	if (argc == 2 && !strcmp(argv[1], "killed"))
		return killed();
	if (argc == 2 && !strcmp(argv[1], "resized"))
		return resized();
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	stage = check_env_or_skip("CAPI_STAGE");
	src = check_env_or_skip("CAPI_SRC");
	out = check_env_or_skip("CAPI_OUT");
	cc = getenv("CC") ? getenv("CC") : "cc";
	snprintf(trace, sizeof(trace), "%s/diag-trace.trace", out);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	self[n] = 0;

	/* liburing.so.2, as this program was linked. */
	snprintf(how, sizeof(how), "%s workload", self);
	check_workload_trace("liburing.so.2", traced("", how));

	/* liburing.a with the diagnostics archive linked in, as documented
	 * (liburing.a alone has no loader: a static program gets the core). */
	snprintf(bin, sizeof(bin), "%s/diag-trace-static", out);
	CHECK(check_system("%s -O2 -D_GNU_SOURCE -I%s/usr/include -I%s -o %s %s/diag-trace.c "
			   "-Wl,-u,uring_diag_attach %s/usr/lib/liburing-diag.a %s/usr/lib/liburing.a",
			   cc, stage, src, bin, src, stage, stage) == 0);
	snprintf(how, sizeof(how), "%s workload", bin);
	check_workload_trace("liburing.a", traced("", how));

	/* liburing-ffi.so.2 */
	snprintf(bin, sizeof(bin), "%s/diag-trace-ffi", out);
	CHECK(check_system("%s -O2 -D_GNU_SOURCE -I%s/usr/include -I%s -o %s %s/diag-trace.c "
			   "-L%s/usr/lib -Wl,-rpath,%s/usr/lib -l:liburing-ffi.so.2",
			   cc, stage, src, bin, src, stage, stage) == 0);
	snprintf(how, sizeof(how), "%s workload", bin);
	check_workload_trace("liburing-ffi.so.2", traced("", how));

	check_counts(self, out);

	/* Nothing at all without the variable. */
	unlink(trace);
	CHECK(check_system("%s workload >/dev/null", self) == 0);
	CHECK(access(trace, F_OK) != 0);

	snprintf(how, sizeof(how), "LD_PRELOAD=%s/usr/lib/liburing.so.2", stage);
	preload_example(how);
	return 0;
}
