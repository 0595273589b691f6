/* SPDX-License-Identifier: MIT */
/*
 * In a secure-execution process (setuid, setgid, file capabilities:
 * getauxval(AT_SECURE) != 0) the library ignores LIBURING_TRACE,
 * LIBURING_DEBUG and LIBURING_CHECK: a setuid-root copy of this program, run
 * as `nobody` with the first two set, must create no trace file and print
 * nothing, while the same copy without the setuid bit (the control) does
 * both; run with LIBURING_CHECK=abort over a CQ it lets overflow, the
 * setuid copy must run to its end silently, where the control aborts with a
 * finding.  Checked for the
 * program linked with liburing.a and with liburing.so.2 (found by rpath:
 * the dynamic loader ignores LD_LIBRARY_PATH in a secure process).
 * Needs root and a `nobody` account, and a directory that allows setuid.
 */
#include "check.h"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Paths are built with snprintf into fixed buffers; a cut path fails later. */
#if defined(__GNUC__) && !defined(__clang__) /* a gcc-only warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* The traced workload: a ring with traffic, and a setup that fails. */
static int workload(void)
{
	struct io_uring ring, bad;
	struct io_uring_cqe *cqe;

	if (io_uring_queue_init(4, &ring, 0))
		return 2;
	io_uring_prep_nop(io_uring_get_sqe(&ring));
	if (io_uring_submit_and_wait(&ring, 1) != 1 || io_uring_wait_cqe(&ring, &cqe))
		return 3;
	io_uring_cqe_seen(&ring, cqe);
	/* 0 entries: -EINVAL, which LIBURING_DEBUG would explain on stderr. */
	if (io_uring_queue_init(0, &bad, 0) != -EINVAL)
		return 4;
	io_uring_queue_exit(&ring);
	return 0;
}

/* A CQ of 8 filled with 16 NOPs never marked seen: a cq-overflow finding. */
static int overflow(void)
{
	struct io_uring ring;
	int i, j;

	if (io_uring_queue_init(4, &ring, 0))
		return 2;
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 4; j++)
			io_uring_prep_nop(io_uring_get_sqe(&ring));
		/* Old kernels refuse (-EBUSY) once completions wait in overflow. */
		if (io_uring_submit(&ring) < 0)
			break;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

static uid_t nobody_uid;
static gid_t nobody_gid;

/* Runs `bin workload` as nobody with LIBURING_TRACE=`trace` and
 * LIBURING_DEBUG=1 set, or with `trace` NULL `bin overflow` with
 * LIBURING_CHECK=abort; stderr to `err`. */
static int run_as_nobody(const char *bin, const char *trace, const char *err)
{
	char tvar[4200];
	char *argv[] = { (char *) bin, trace ? "workload" : "overflow", NULL };
	char *envp[] = { tvar, trace ? "LIBURING_DEBUG=1" : NULL, NULL };
	pid_t pid;
	int status;

	if (trace)
		snprintf(tvar, sizeof(tvar), "LIBURING_TRACE=%s", trace);
	else
		snprintf(tvar, sizeof(tvar), "LIBURING_CHECK=abort");
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(90);
		if (setgroups(0, NULL) || setgid(nobody_gid) || setuid(nobody_uid))
			_exit(91);
		execve(bin, argv, envp);
		_exit(92);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long) st.st_size;
}

static void check_variant(const char *name, const char *bin, const char *dir)
{
	char trace[4096], err[4096], check_err[4096];
	int rc;

	snprintf(trace, sizeof(trace), "%s/%s.trace", dir, name);
	snprintf(err, sizeof(err), "%s/%s.stderr", dir, name);
	snprintf(check_err, sizeof(check_err), "%s/%s.check.stderr", dir, name);

	/* Control: the same copy, not setuid: both variables work. */
	CHECK(chown(bin, 0, 0) == 0 && chmod(bin, 0755) == 0);
	unlink(trace);
	rc = run_as_nobody(bin, trace, err);
	CHECKM(rc == 0, "%s: control run exited %d", name, rc);
	CHECKM(file_size(trace) > 0, "%s: control run wrote no trace (%s)", name, trace);
	CHECKM(file_size(err) > 0, "%s: control run printed no LIBURING_DEBUG line", name);
	unlink(trace);
	rc = run_as_nobody(bin, NULL, check_err);
	CHECKM(rc == 128 + SIGABRT, "%s: LIBURING_CHECK=abort control run exited %d", name, rc);
	CHECKM(file_size(check_err) > 0, "%s: LIBURING_CHECK control run printed nothing", name);

	/* setuid root, run by nobody: AT_SECURE, so nothing at all. */
	CHECK(chmod(bin, 04755) == 0);
	rc = run_as_nobody(bin, trace, err);
	CHECKM(rc == 0, "%s: setuid run exited %d", name, rc);
	CHECKM(access(trace, F_OK) != 0, "%s: setuid run created %s", name, trace);
	CHECKM(file_size(err) == 0, "%s: setuid run printed %ld bytes", name, file_size(err));
	rc = run_as_nobody(bin, NULL, check_err);
	CHECKM(rc == 0, "%s: setuid run with LIBURING_CHECK=abort exited %d", name, rc);
	CHECKM(file_size(check_err) == 0, "%s: setuid run with LIBURING_CHECK printed %ld bytes",
	       name, file_size(check_err));
	printf("%s: setuid-root copy run by nobody: no trace file, no output, no check; "
	       "control: trace written, debug line printed, check aborted\n", name);
	CHECK(chmod(bin, 0755) == 0);
}

int main(int argc, char **argv)
{
	const char *stage, *src, *out, *cc;
	char dir[4096], bin[4096];
	struct passwd *pw;

	if (argc == 2 && !strcmp(argv[1], "workload"))
		return workload();
	if (argc == 2 && !strcmp(argv[1], "overflow"))
		return overflow();
	if (geteuid() != 0)
		SKIP("needs root to make a setuid-root copy");
	pw = getpwnam("nobody");
	if (!pw)
		SKIP("no `nobody` account");
	nobody_uid = pw->pw_uid;
	nobody_gid = pw->pw_gid;
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	stage = check_env_or_skip("CAPI_STAGE");
	src = check_env_or_skip("CAPI_SRC");
	out = check_env_or_skip("CAPI_OUT");
	cc = getenv("CC") ? getenv("CC") : "cc";

	/* A directory nobody can enter and write (the trace would land there). */
	snprintf(dir, sizeof(dir), "%s/diag-secure.d", out);
	mkdir(dir, 0777);
	CHECK(chmod(dir, 01777) == 0);
	CHECK(chmod(out, 0755) == 0);

	snprintf(bin, sizeof(bin), "%s/secure-static", dir);
	CHECK(check_system("%s -O2 -D_GNU_SOURCE -I%s/usr/include -I%s -o %s %s/diag-secure.c "
			   "-Wl,-u,uring_diag_attach %s/usr/lib/liburing-diag.a %s/usr/lib/liburing.a",
			   cc, stage, src, bin, src, stage, stage) == 0);
	check_variant("liburing.a", bin, dir);

	snprintf(bin, sizeof(bin), "%s/secure-shared", dir);
	CHECK(check_system("%s -O2 -D_GNU_SOURCE -I%s/usr/include -I%s -o %s %s/diag-secure.c "
			   "-L%s/usr/lib -Wl,-rpath,%s/usr/lib -l:liburing.so.2",
			   cc, stage, src, bin, src, stage, stage) == 0);
	{
		/* The loader must reach the stage as nobody: note when it cannot. */
		char probe[8192];

		snprintf(probe, sizeof(probe), "%s/usr/lib/liburing.so.2", stage);
		if (access(probe, R_OK)) {
			check_note("liburing.so.2 case skipped: %s not readable", probe);
			return 0;
		}
	}
	check_variant("liburing.so.2", bin, dir);
	return 0;
}
