/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_CHECK catches the mistakes of the corpus (capi-tests/check-corpus):
 * every program there is built as written (the mistake) and with -DFIXED
 * (its correction).  The mistake, run with LIBURING_CHECK=abort, must end
 * in SIGABRT after a finding with the expected tag (what, why, fix, and on
 * x86-64 and arm64 the program's call site, found by dladdr); the
 * correction must run to its end and report nothing under LIBURING_CHECK=1.
 * Without the variable, the mistake runs as it would anyway (its own exit
 * status, never a finding), so the checker is what makes the difference.
 *
 * The repository's examples (every .c of examples/) run under
 * LIBURING_CHECK=abort too, through examples/run.sh: a finding would abort
 * one and fail the run.
 */
#include "check.h"

#include <sys/stat.h>

struct corpus_case {
	const char *file;	/* check-corpus/<file>.c */
	const char *tag;	/* the finding expected of the mistake */
	int kernel;		/* the features it uses, as major*1000+minor */
	const char *says;	/* if set: words the finding must contain */
};

static const struct corpus_case cases[] = {
	{ "owner-thread", "owner-thread", 6000, NULL },
	{ "owner-enabled", "owner-thread", 6000, NULL },
	{ "peek-only", "peek-only", 6001, NULL },
	{ "unsubmitted-wait", "unsubmitted-wait", 5010, NULL },
	{ "multishot-ended", "multishot-ended", 6004, "submit it again" },
	{ "multishot-cancelled", "multishot-ended", 6004, "was cancelled" },
	{ "cq-overflow", "cq-overflow", 5010, NULL },
	{ "enobufs", "enobufs", 5019, "2 buffers taken, 0 returned since registration (2 still with the program)" },
	{ "link-cancelled", "link-cancelled", 5015, NULL },
	{ "user-data-reuse", "user-data-reuse", 5010, NULL },
	{ "fork", "fork", 5010, NULL },
	{ "timed-unsubmitted-wait", "unsubmitted-wait", 5011, "io_uring_wait_cqe_timeout" },
	{ "wait-unsatisfiable", "wait-unsatisfiable", 5010, "at most 1 CQE(s) can come" },
	{ "link-last", "link-last", 5003, "IOSQE_IO_LINK" },
	{ "deferred-pending", "deferred-pending", 6001, "never entered the kernel" },
	{ "deferred-exit", "deferred-pending", 6001, "at process exit" },
	{ "cq-head-past-tail", "cq-head-past-tail", 5010, "past the kernel's CQ tail" },
	{ "concurrent-submit", "concurrent-submit", 5017, "at the same time" },
	{ "owner-exited", "owner-exited", 6001, "has exited" },
};

struct run {
	int status;	/* waitpid status */
	char err[16384];
};

/* Runs `bin` with LIBURING_CHECK=`check` (NULL: unset), collecting stderr. */
static void run(const char *bin, const char *check, struct run *r)
{
	char log[4096];
	FILE *f;
	size_t n;
	pid_t pid;

	snprintf(log, sizeof(log), "%s.err", bin);
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
		execl(bin, bin, (char *) NULL);
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

static int exited(const struct run *r, int code)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == code;
}

int main(void)
{
	const char *stage, *src, *out, *cc;
	char bin[4096], fixed[4096], want[256];
	struct run r;
	int kernel = check_kernel_version();
	unsigned i, caught = 0, quiet = 0;

	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	stage = check_env_or_skip("CAPI_STAGE");
	src = check_env_or_skip("CAPI_SRC");
	out = check_env_or_skip("CAPI_OUT");
	cc = getenv("CC") ? getenv("CC") : "cc";
	snprintf(bin, sizeof(bin), "%s/diag-check.d", out);
	mkdir(bin, 0755);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct corpus_case *c = &cases[i];

		if (kernel < c->kernel) {
			check_note("%s: kernel older than its features, left out", c->file);
			continue;
		}
		snprintf(bin, sizeof(bin), "%s/diag-check.d/%s", out, c->file);
		snprintf(fixed, sizeof(fixed), "%s/diag-check.d/%s.fixed", out, c->file);
		CHECK(check_system("%s -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I%s/usr/include "
				   "-o %s %s/check-corpus/%s.c -L%s/usr/lib -Wl,-rpath,%s/usr/lib %s -lpthread",
				   cc, stage, bin, src, c->file, stage, stage, check_link_uring()) == 0);
		CHECK(check_system("%s -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -DFIXED -I%s/usr/include "
				   "-o %s %s/check-corpus/%s.c -L%s/usr/lib -Wl,-rpath,%s/usr/lib %s -lpthread",
				   cc, stage, fixed, src, c->file, stage, stage, check_link_uring()) == 0);
		snprintf(want, sizeof(want), "uring-check: %s: ring ", c->tag);

		/* The mistake, unchecked: no finding, and its own outcome. */
		run(bin, NULL, &r);
		CHECKM(!strstr(r.err, "uring-check"), "%s unchecked printed:\n%s", c->file, r.err);
		CHECKM(!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT,
			  "%s aborted without LIBURING_CHECK", c->file);

		/* The mistake, checked: caught with the right finding. */
		run(bin, "abort", &r);
		CHECKM(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT,
			  "%s: not aborted (status 0x%x); stderr:\n%s", c->file, r.status, r.err);
		CHECKM(strstr(r.err, want), "%s: no \"%s\" finding; stderr:\n%s",
			  c->file, want, r.err);
		CHECKM(strstr(r.err, "uring-check:   why: ") && strstr(r.err, "uring-check:   fix: "),
			  "%s: finding without why/fix:\n%s", c->file, r.err);
		CHECKM(strstr(r.err, ", thread ") && strstr(r.err, "), in "),
			  "%s: finding without thread or call:\n%s", c->file, r.err);
#if defined(__x86_64__) || defined(__aarch64__)
		{
			/* The call site: the program's own call into the library. */
			char site[4200];

			snprintf(site, sizeof(site), " called from %s+0x", bin);
			CHECKM(strstr(r.err, site),
			       "%s: finding without the call site \"%s\":\n%s", c->file, site,
			       r.err);
		}
#endif
		CHECKM(!c->says || strstr(r.err, c->says), "%s: finding without \"%s\":\n%s",
		       c->file, c->says, r.err);
		printf("caught %-19s %s", c->file, strstr(r.err, want));
		caught++;

		/* Its correction: runs to its end, nothing reported. */
		run(fixed, "1", &r);
		CHECKM(exited(&r, 0), "%s.fixed: status 0x%x; stderr:\n%s", c->file, r.status, r.err);
		CHECKM(!strstr(r.err, "uring-check"), "%s.fixed reported:\n%s", c->file, r.err);
		quiet++;
	}
	printf("%u mistakes caught, %u corrections quiet\n", caught, quiet);
	CHECK(caught > 0);

	/* The examples: a finding would abort one, and fail the run. */
	/* Built as the capi-tests are (-D_GNU_SOURCE: musl's <sched.h> shows
	 * cpu_set_t only then). */
	if (getenv("CAPI_NO_EXAMPLES")) {
		/* The installed-package test: no loopback network there for
		 * the echo server, and no examples beside the tests. */
		printf("examples: left out (CAPI_NO_EXAMPLES)\n");
		return 0;
	}
	CHECK(check_system("LIBURING_CHECK=abort EXAMPLES_CFLAGS='-O2 -D_GNU_SOURCE' sh "
			   "%s/../examples/run.sh %s", src, stage) == 0);
	return 0;
}
