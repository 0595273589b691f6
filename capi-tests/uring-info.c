/* SPDX-License-Identifier: MIT */
/*
 * uring-info (installed into bindir) runs, as root and as an unprivileged
 * user, and the opcodes its --json report lists are exactly those
 * io_uring_get_probe() reports.
 */
#include "check.h"

#include <grp.h>

/* Paths are built with snprintf into fixed buffers; a cut path fails later. */
#if defined(__GNUC__) && !defined(__clang__) /* a gcc-only warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define NOBODY 65534

/* Runs uring-info with `arg`, optionally as nobody; returns its stdout. */
static char *run_info(const char *bin, const char *arg, int as_nobody)
{
	static char buf[1 << 17];
	int pipefd[2], st;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	CHECK(pipe(pipefd) == 0);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		if (as_nobody && (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
			_exit(3);
		execl(bin, bin, arg, (char *) NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t) n;
	buf[got] = 0;
	close(pipefd[0]);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %s (nobody=%d): status %#x", bin,
	       arg ? arg : "", as_nobody, st);
	return buf;
}

/* The opcode numbers of the "opcodes" array of the JSON report. */
static int json_opcodes(const char *json, unsigned char *ops)
{
	const char *p = strstr(json, "\"opcodes\": [");
	const char *end;
	int n = 0;

	CHECK(p);
	end = strchr(p, ']');
	CHECK(end);
	while ((p = strstr(p, "{\"op\": ")) && p < end) {
		ops[n++] = (unsigned char) atoi(p + 7);
		p += 7;
	}
	return n;
}

int main(void)
{
	const char *stage = check_env_or_skip("CAPI_STAGE");
	const char *out = check_env_or_skip("CAPI_OUT");
	struct io_uring_probe *probe;
	unsigned char ops[256];
	char bin[4096], dir[4096];
	char *text, *json;
	int i, n, want = 0;

	snprintf(bin, sizeof(bin), "%s/usr/bin/uring-info", stage);
	CHECKM(access(bin, X_OK) == 0, "%s is not installed", bin);
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");

	text = run_info(bin, NULL, 0);
	printf("%s", text);
	CHECK(strstr(text, "io_uring:      enabled"));
	json = run_info(bin, "--json", 0);
	CHECK(strstr(json, "\"enabled\": true"));

	probe = io_uring_get_probe();
	CHECK(probe);
	n = json_opcodes(json, ops);
	for (i = 0; i < probe->ops_len; i++) {
		if (!(probe->ops[i].flags & IO_URING_OP_SUPPORTED))
			continue;
		CHECKM(want < n && ops[want] == probe->ops[i].op,
		       "uring-info lists opcode %d at %d, the probe has %d", want < n ? ops[want] : -1,
		       want, probe->ops[i].op);
		want++;
	}
	CHECK_EQ(n, want);
	io_uring_free_probe(probe);
	printf("%d opcodes, same as io_uring_get_probe()\n", n);

	/* As an unprivileged user, from a copy nobody can execute. */
	if (ENV_HAS_PART("nobody", "root")) {
		snprintf(dir, sizeof(dir), "%s/uring-info-nobody", out);
		CHECK(check_system("mkdir -p %s && cp %s %s/ && chmod 755 %s %s/uring-info", dir, bin,
				   dir, dir, dir) == 0);
		CHECK(check_system("chmod o+x %s", out) == 0);
		snprintf(bin, sizeof(bin), "%s/uring-info", dir);
		text = run_info(bin, NULL, 1);
		printf("---- as nobody\n%s", text);
		CHECK(strstr(text, "CAP_SYS_ADMIN: no"));
		json = run_info(bin, "--json", 1);
		CHECK(strstr(json, "\"cap_sys_admin\": false"));
	}
	return 0;
}
