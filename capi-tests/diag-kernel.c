/* SPDX-License-Identifier: MIT */
/*
 * The kernel's side of a binary trace: `uring-info record --kernel` runs a
 * program with the trace on and records the kernel's io_uring tracepoints
 * of its rings beside it (tracefs), and `uring-info trace` merges them.
 *
 * - refused: with tracefs where it is not (URING_INFO_TRACEFS naming an
 *   empty directory), record --kernel says what it would need, exits 1 and
 *   runs nothing.
 * - nobody (root only, to become nobody): the same as an unprivileged
 *   user, with the machine's tracefs.
 * - kernel (root, tracefs with the io_uring events: env:tracefs): a read of
 *   a pipe and an IOSQE_ASYNC read of another, both written 100 ms after;
 *   the summary with the kernel's side names the io-wq punt of the ASYNC
 *   one and the poll armed for the other, which waited longest on the
 *   file; the text trace and the JSON hold the kernel's events; without
 *   it (--no-kernel) the summary has no kernel's side. 16 NOPs on a ring
 *   of 8 CQEs reaped late: the overflowed CQEs are counted and named.
 */
#include "check.h"

#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define NOBODY 65534

static int late[2][2];

/* Writes one byte to each pipe 100 ms after the reads went in. */
static void *writer(void *arg)
{
	(void) arg;
	usleep(100000);
	CHECK(write(late[0][1], "x", 1) == 1);
	CHECK(write(late[1][1], "y", 1) == 1);
	return NULL;
}

/* The program recorded: two reads the data comes 100 ms late for. */
static int slow(void)
{
	static char buf[2][16];
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	pthread_t t;
	int i;

	CHECK(pipe(late[0]) == 0 && pipe(late[1]) == 0);
	check_ring_init(&ring, 8, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, late[0][0], buf[0], sizeof(buf[0]), 0);
	io_uring_sqe_set_data64(sqe, 1);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, late[1][0], buf[1], sizeof(buf[1]), 0);
	io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	io_uring_sqe_set_data64(sqe, 2);
	CHECK_EQ(io_uring_submit(&ring), 2);
	CHECK(pthread_create(&t, NULL, writer, NULL) == 0);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, 1);
		io_uring_cqe_seen(&ring, cqe);
	}
	CHECK(pthread_join(t, NULL) == 0);
	io_uring_queue_exit(&ring);
	return 0;
}

/* 16 NOPs in 4 submissions on a ring of 8 CQEs, reaped after: 8 of their
 * CQEs go to the kernel's overflow list (IORING_FEAT_NODROP, 5.5). */
static int overflow(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int r, i;

	check_ring_init(&ring, 4, 0);
	for (r = 0; r < 4; r++) {
		for (i = 0; i < 4; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, 0x0f00 + r * 4 + i);
		}
		CHECK_EQ(io_uring_submit(&ring), 4);
	}
	for (i = 0; i < 16; i++) {
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}

/* uring-info record --kernel of `self slow` as nobody; its exit status,
 * its stderr in `err`. */
static int record_as_nobody(const char *info, const char *self, const char *trace,
			    const char *err)
{
	int fd, st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0 || setgroups(0, NULL) || setgid(NOBODY) ||
		    setuid(NOBODY))
			_exit(3);
		execl(info, info, "record", "--kernel", "-o", trace, "--", self, "slow",
		      (char *) NULL);
		_exit(127);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char *argv[])
{
	char info[4096], self[4096], path[4096], empty[4096];
	const char *out;

	if (argc == 2 && !strcmp(argv[1], "slow"))
		return slow();
	if (argc == 2 && !strcmp(argv[1], "overflow"))
		return overflow();
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	out = check_env_or_skip("CAPI_OUT");
	CHECK(realpath(argv[0], self));
	check_stage_uring_info(info, sizeof(info));

	/* refused: no tracefs where it is told to look; nothing runs. */
	snprintf(empty, sizeof(empty), "%s/diag-kernel-no-tracefs", out);
	mkdir(empty, 0755);
	snprintf(path, sizeof(path), "%s/diag-kernel-refused.utrace", out);
	unlink(path);
	CHECK(check_system("URING_INFO_TRACEFS=%s %s record --kernel -o %s -- %s slow 2> %s.err; "
			   "test $? -eq 1", empty, info, path, self, path) == 0);
	CHECK(check_system("cat %s.err; grep -q \"may not record the kernel's io_uring tracepoints: \" %s.err "
			   "&& grep -q 'needs tracefs mounted' %s.err && grep -q 'root' %s.err",
			   path, path, path, path) == 0);
	CHECK(access(path, F_OK) != 0);
	printf("refused: says what it needs, exit 1, the program not run\n");

	/* nobody: an unprivileged user is refused the machine's tracefs. */
	if (ENV_HAS_PART("nobody", "root")) {
		snprintf(path, sizeof(path), "/tmp/diag-kernel-nobody.%d.utrace", (int) getpid());
		char err[4200];

		snprintf(err, sizeof(err), "%s.err", path);
		CHECK_EQ(record_as_nobody(info, self, path, err), 1);
		CHECK(check_system("cat %s; grep -q \"may not record the kernel's io_uring tracepoints: \" %s "
				   "&& grep -q 'write access to tracefs' %s", err, err, err) == 0);
		CHECK(access(path, F_OK) != 0);
		unlink(err);
		printf("nobody: refused, with what it would need\n");
	}

	/* kernel: the slow reads with the kernel's side merged, and without. */
	if (ENV_HAS_PART("kernel", "tracefs")) {
		snprintf(path, sizeof(path), "%s/diag-kernel.utrace", out);
		CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
				   "%s record --kernel -o %s -- %s slow 2> %s.record", info, path, self, path) == 0);
		/* One ring in the kernel's events: the program's. The binary
		 * trace sets up no probe ring of its own in the program. */
		CHECK(check_system("cat %s.record; grep -q 'events of 1 ring(s)' %s.record", path, path) == 0);
		CHECK(check_system("%s trace --summary %s > %s.txt && cat %s.txt", info, path, path, path) == 0);
		CHECK(check_system("grep -q \"ring 1: summary: the kernel's side: 2 of 2 requests found in its "
				   "events; [1-9][0-9]* punted to an io-wq worker, [1-9][0-9]* armed poll\" %s.txt",
				   path) == 0);
		/* The ASYNC read went to an io-wq worker at once. */
		CHECK(check_system("grep -q 'ring 1: summary: slow READ user_data=0x2 fd=[0-9]* (IOSQE_ASYNC) "
				   "took [0-9]\\{3,\\}ms: punted to an io-wq worker after ' %s.txt", path) == 0);
		/* The other armed poll (its pipe empty) and waited on the file. */
		CHECK(check_system("grep -q 'ring 1: summary: slow READ user_data=0x1 fd=[0-9]* took [0-9]\\{3,\\}ms: "
				   "armed poll after .*; waited longest ([0-9]\\{2,\\}ms) on the file to become "
				   "ready (polled)$' %s.txt", path) == 0);
		/* The text trace holds the kernel's events among the program's. */
		CHECK(check_system("%s trace %s > %s.text && grep -q 'ring 1 (fd [0-9]*): kernel: punted to an "
				   "io-wq worker (normal queue) user_data=0x2$' %s.text", info, path, path, path) == 0);
		/* Its JSON: the kernel's events as instants, the worker's on
		 * a track of its own, named. */
		CHECK(check_system("%s trace --json %s > %s.json && grep -q '\"name\":\"kernel: punted to an "
				   "io-wq worker (normal queue) user_data=0x2\",\"cat\":\"kernel\"' %s.json && "
				   "grep -q '\"name\":\"thread_name\",.*\"args\":{\"name\":\"iou-wrk-' %s.json",
				   info, path, path, path, path) == 0);
		/* Without the kernel's side: the program's alone. */
		CHECK(check_system("%s trace --summary --no-kernel %s > %s.alone && cat %s.alone && "
				   "! grep -q \"kernel's side\" %s.alone && grep -q 'READ n=2 ' %s.alone",
				   info, path, path, path, path, path) == 0);
		printf("kernel: the ASYNC read's punt and the other's poll named\n");

		/* The overflowed CQEs, counted and named. */
		snprintf(path, sizeof(path), "%s/diag-kernel-overflow.utrace", out);
		CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG -u LIBURING_TRACE_MAX "
				   "%s record --kernel -o %s -- %s overflow", info, path, self) == 0);
		CHECK(check_system("%s trace %s > %s.txt && grep -q \"ring 1: summary: the kernel's side: 16 of 16 "
				   "requests found in its events; .*, [1-9][0-9]* CQE(s) overflowed$\" %s.txt && "
				   "grep -q 'ring 1 (fd [0-9]*): kernel: CQE overflowed (the CQ was full) "
				   "user_data=0xf0[0-9a-f]$' %s.txt", info, path, path, path, path) == 0);
		printf("kernel: the overflowed CQEs named\n");
	}
	return 0;
}
