/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_CHECK in a program built with -fsanitize=address, on the ordinary
 * library (diag/src/check/asan.rs): capi-tests/asan-programs/poisoned-sqe.c
 * submits an SQE that points at freed memory, one opcode family per run.
 * With LIBURING_CHECK=1 each run must print an asan-poisoned finding naming
 * the field, followed by ASan's description naming the free, and go on to
 * its end (the request did reach the kernel); with LIBURING_CHECK=abort it
 * must end in SIGABRT after both; unchecked, nothing is printed; the same
 * program with a live buffer is quiet under LIBURING_CHECK=1.
 * Skipped when the compiler cannot build and run an ASan program
 * (env:asan in skips.tsv, the same probe as here).
 */
#include "check.h"

#include <sys/stat.h>

struct run {
	int status;
	char err[32768];
};

static void run(const char *bin, const char *family, const char *check, struct run *r)
{
	char log[4200];
	FILE *f;
	size_t n;
	pid_t pid;

	snprintf(log, sizeof(log), "%s.%s.err", bin, family);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (!freopen(log, "w", stderr))
			_exit(126);
		if (check)
			setenv("LIBURING_CHECK", check, 1);
		else
			unsetenv("LIBURING_CHECK");
		unsetenv("LIBURING_TRACE");
		unsetenv("LIBURING_DEBUG");
		alarm(20);
		execl(bin, bin, family, (char *) NULL);
		_exit(127);
	}
	CHECK(waitpid(pid, &r->status, 0) == pid);
	memset(r->err, 0, sizeof(r->err));
	f = fopen(log, "r");
	CHECK(f);
	n = fread(r->err, 1, sizeof(r->err) - 1, f);
	r->err[n] = 0;
	fclose(f);
}

static const struct { const char *family, *field; } cases[] = {
	{ "read", "addr" }, { "writev", "addr" }, { "timeout", "addr" },
	{ "openat", "addr" }, { "accept", "addr2" }, { "getxattr", "addr3" },
	{ "cmd-sock", "optval" },
};

int main(void)
{
	const char *stage, *src, *out, *cc;
	char bin[4096], probe[4096], want[256];
	struct run r;
	unsigned i;

	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	stage = check_env_or_skip("CAPI_STAGE");
	src = check_env_or_skip("CAPI_SRC");
	out = check_env_or_skip("CAPI_OUT");
	cc = getenv("CC") ? getenv("CC") : "cc";

	/* The independent probe: an empty ASan program builds and runs. */
	snprintf(probe, sizeof(probe), "%s/diag-asan.probe", out);
	if (check_system("echo 'int main(void) { return 0; }' | %s -fsanitize=address -x c -o %s - "
			 ">/dev/null 2>&1 && %s", cc, probe, probe) != 0)
		SKIP("%s cannot build and run a -fsanitize=address program", cc);

	snprintf(bin, sizeof(bin), "%s/diag-asan.poisoned-sqe", out);
	CHECK(check_system("%s -fsanitize=address -fno-omit-frame-pointer -g -O1 -Wall -Wextra -Werror "
			   "-D_GNU_SOURCE -I%s/usr/include -o %s %s/asan-programs/poisoned-sqe.c "
			   "-L%s/usr/lib -Wl,-rpath,%s/usr/lib -luring",
			   cc, stage, bin, src, stage, stage) == 0);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *fam = cases[i].family;

		snprintf(want, sizeof(want), "sqe->%s = 0x", cases[i].field);

		run(bin, fam, NULL, &r);
		CHECKM(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0,
		       "%s unchecked: status 0x%x:\n%s", fam, r.status, r.err);
		CHECKM(!strstr(r.err, "uring-check"), "%s unchecked printed:\n%s", fam, r.err);

		run(bin, fam, "1", &r);
		CHECKM(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0,
		       "%s checked: status 0x%x:\n%s", fam, r.status, r.err);
		CHECKM(strstr(r.err, "uring-check: asan-poisoned: ring ") && strstr(r.err, want),
		       "%s: no asan-poisoned finding naming %s:\n%s", fam, want, r.err);
		CHECKM(strstr(r.err, "uring-check:   fix: ") && strstr(r.err, "freed by thread"),
		       "%s: no fix or no ASan description of the free:\n%s", fam, r.err);
		CHECKM(strstr(r.err, "freed by thread") > strstr(r.err, "asan-poisoned"),
		       "%s: ASan's description before the finding:\n%s", fam, r.err);

		run(bin, fam, "abort", &r);
		CHECKM(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT,
		       "%s abort: status 0x%x:\n%s", fam, r.status, r.err);
		CHECKM(strstr(r.err, "freed by thread"), "%s abort: no description:\n%s", fam, r.err);
		printf("ok %s: caught (sqe->%s), described, aborts under abort\n", fam, cases[i].field);
	}

	run(bin, "fine", "1", &r);
	CHECKM(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0 && !strstr(r.err, "uring-check"),
	       "fine: status 0x%x, stderr:\n%s", r.status, r.err);
	printf("ok fine: quiet\n");
	return 0;
}
