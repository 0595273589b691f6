/* SPDX-License-Identifier: MIT */
/*
 * uring-info (installed into bindir) runs, as root and as an unprivileged
 * user, and the opcodes its --json report lists are exactly those
 * io_uring_get_probe() reports. Its io-wq bound is the one a thread's first
 * ring of 4 x CPUs entries gets. Under a small RLIMIT_MEMLOCK (as nobody,
 * where rings are charged to it) its own probe rings must not turn into
 * refusals: no setup flag "refused (-ENOMEM)", and the max entries line.
 */
#include "check.h"

#include <grp.h>
#include <pthread.h>
#include <sys/resource.h>

/* Paths are built with snprintf into fixed buffers; a cut path fails later. */
#if defined(__GNUC__) && !defined(__clang__) /* a gcc-only warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define NOBODY 65534

/* RLIMIT_MEMLOCK for the next run_info (0: unchanged). */
static rlim_t memlock_limit;

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
		if (memlock_limit) {
			struct rlimit rl = { memlock_limit, memlock_limit };

			if (setrlimit(RLIMIT_MEMLOCK, &rl))
				_exit(3);
		}
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

/* The bounded io-wq workers of a thread whose first ring has 4 x CPUs entries. */
static void *first_ring_bound(void *arg)
{
	unsigned *bounded = arg, workers[2] = { 0, 0 }, entries = 1;
	struct io_uring ring;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	while (entries < 4 * (unsigned) (cpus > 0 ? cpus : 1))
		entries <<= 1;
	if (io_uring_queue_init(entries, &ring, 0) == 0) {
		if (io_uring_register_iowq_max_workers(&ring, workers) == 0)
			*bounded = workers[0];
		io_uring_queue_exit(&ring);
	}
	return NULL;
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
	const char *out = check_env_or_skip("CAPI_OUT");
	struct io_uring_probe *probe;
	unsigned char ops[256];
	char bin[4096], dir[4096];
	char *text, *json;
	int i, n, want = 0;

	check_stage_uring_info(bin, sizeof(bin));
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

	text = run_info(bin, NULL, 0);
	if (strstr(text, "io-wq workers")) {
		unsigned bounded = 0;
		char want_line[64];
		pthread_t t;

		CHECK(pthread_create(&t, NULL, first_ring_bound, &bounded) == 0);
		CHECK(pthread_join(t, NULL) == 0);
		snprintf(want_line, sizeof(want_line), "io-wq workers   %u bounded", bounded);
		CHECKM(bounded && strstr(text, want_line), "want \"%s\" in:\n%s", want_line, text);
		printf("%s, as a thread's first ring of 4 x CPUs entries gets\n", want_line);
	}

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

	/* Its own probe rings under a small locked-memory limit. */
	if (ENV_HAS_PART("small-memlock", "memlock-charged")) {
		memlock_limit = 16384;
		text = run_info(bin, NULL, 1);
		memlock_limit = 0;
		printf("---- as nobody, RLIMIT_MEMLOCK 16384\n%s", text);
		CHECKM(!strstr(text, "refused (-ENOMEM)"), "a probe ring's ENOMEM reported as a refusal");
		CHECK(strstr(text, "max entries"));
	}
	return 0;
}
