/* SPDX-License-Identifier: MIT */
/*
 * "The diagnostics never change what a program does", measured: a program
 * is run twice as a child, once without the variables and once with them
 * (LIBURING_TRACE, LIBURING_DEBUG=1, LIBURING_CHECK), and what it did is
 * compared (diag-classes.c, diag-hostile.c, check-mt-correct.c):
 *
 *   - how it ended: exit status or signal, or killed at its time limit
 *     (a hang or a deadlock);
 *   - the bytes it wrote to stdout and stderr itself: every line that
 *     starts with a diagnostics prefix ("uring-trace:", "uring-check:",
 *     "liburing: ") is the library's, set apart and counted, the rest is
 *     the program's;
 *   - every file it left in its scratch directory (HARM_SCRATCH), byte for
 *     byte;
 *   - its report (HARM_REPORT), written by harm_report() at its end: its
 *     open descriptors (number, what /proc/self/fd says they are, close-on-
 *     exec), and the errno seen after each library call the program wrapped
 *     in HC() (as a set of (line, errno) pairs: errno is set to
 *     HARM_SENTINEL before the call, so a call that succeeds and leaves it
 *     alone reports the sentinel).
 *
 * One exception is allowed in the descriptors: the diagnostics may keep one
 * duplicate of standard error, close-on-exec, numbered above every
 * descriptor of the run without the variables ("above the program's
 * reach"), and only when fd 2 was open when the program started.
 *
 * HARM_CALIBRATE=1 in the driver's environment runs the second run without
 * the variables too: every comparison must then hold (the checks that need
 * the diagnostics' own lines fail), which shows the scenarios themselves
 * are deterministic.
 *
 * The first half of this file is for the program under test (the child),
 * the second for the test that runs it (the driver). Both halves are
 * async-signal-safe where they say so; nothing here calls the library.
 */
#ifndef CAPI_DIAG_COMPARE_H
#define CAPI_DIAG_COMPARE_H

#include "check.h"

#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* Paths are built with snprintf into fixed buffers; a cut path fails later. */
#if defined(__GNUC__) && !defined(__clang__) /* a gcc-only warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* ================================================================== */
/* The child: errno checkpoints and the report                         */
/* ================================================================== */

/* errno before every checked call: no C library function sets this value. */
#define HARM_SENTINEL 12345
#define HARM_ERRNO_SLOTS 1024

struct harm_child {
	/* (line << 16 | errno + 1) pairs seen, an open-addressed set filled
	 * with compare-and-swap: usable from any thread and signal handler.
	 * 32-bit keys: armel and others have no lock-free 64-bit atomics. */
	unsigned errnos[HARM_ERRNO_SLOTS];
	/* What fd 2 was when the program started (for the one allowed
	 * duplicate of stderr). */
	int err_open;
	dev_t err_dev;
	ino_t err_ino;
};

static inline struct harm_child *harm_child(void)
{
	static struct harm_child c;

	return &c;
}

/* Call first in the child's main. */
static inline void harm_start(void)
{
	struct harm_child *c = harm_child();
	struct stat st;

	c->err_open = fstat(2, &st) == 0;
	if (c->err_open) {
		c->err_dev = st.st_dev;
		c->err_ino = st.st_ino;
	}
}

/* Records errno `e` after the call at `line` (async-signal-safe). */
static inline void harm_errno_note(int line, int e)
{
	unsigned key = ((unsigned) line << 16) | ((unsigned) (e + 1) & 0xffff);
	unsigned i = (key * 0x9E3779B1u >> 22) % HARM_ERRNO_SLOTS;

	for (unsigned n = 0; n < HARM_ERRNO_SLOTS; n++, i = (i + 1) % HARM_ERRNO_SLOTS) {
		unsigned *slot = &harm_child()->errnos[i];
		unsigned cur = __atomic_load_n(slot, __ATOMIC_RELAXED);

		if (cur == key)
			return;
		if (cur == 0 && __atomic_compare_exchange_n(slot, &cur, key, 0, __ATOMIC_RELAXED,
							     __ATOMIC_RELAXED))
			return;
		if (cur == key)
			return;
	}
}

/*
 * HC(call): the call with errno set to the sentinel before it and recorded
 * after it; its value is the call's. HCV for a call without a value.
 */
#define HC(expr)							\
	({								\
		__typeof__(expr) harm_r_;				\
		errno = HARM_SENTINEL;					\
		harm_r_ = (expr);					\
		harm_errno_note(__LINE__, errno);			\
		harm_r_;						\
	})
#define HCV(expr)							\
	do {								\
		errno = HARM_SENTINEL;					\
		expr;							\
		harm_errno_note(__LINE__, errno);			\
	} while (0)

/* errno's name ("EBADF"), or "?" where the C library cannot tell. */
static inline const char *harm_errname(int e)
{
#ifdef __GLIBC__
	const char *n = strerrorname_np(e);

	return n ? n : "?";
#else
	(void) e;
	return "?";
#endif
}

/* Appends to buf (at *used, of size len), like snprintf. */
__attribute__((format(printf, 4, 5)))
static inline void harm_cat(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t) n < len ? *used + (size_t) n : len;
}

/* What descriptor `fd` is, with the per-open numbers of pipes, sockets
 * and anonymous inodes taken out (they differ from run to run). */
static inline void harm_fd_target(int fd, char *out, size_t len)
{
	char link[64];
	ssize_t n;
	char *br;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, len - 1);
	if (n < 0) {
		snprintf(out, len, "?(%s)", strerror(errno));
		return;
	}
	out[n] = 0;
	br = strchr(out, '[');
	if (br && (!strncmp(out, "pipe:", 5) || !strncmp(out, "socket:", 7)))
		br[0] = 0;
}

static int harm_int_cmp(const void *a, const void *b)
{
	return *(const int *) a - *(const int *) b;
}

/*
 * The numbers of the program's open descriptors, ascending, into fds (room
 * for max); returns how many. From /proc/self/fd (every number, however
 * high), leaving out the directory's own descriptor; where that cannot be
 * opened (a seccomp filter), by asking fcntl about 0..65535.
 */
static inline int harm_open_fds(int *fds, int max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d) {
		for (int fd = 0; fd < 65536 && n < max; fd++)
			if (fcntl(fd, F_GETFD) >= 0)
				fds[n++] = fd;
		return n;
	}
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || atoi(de->d_name) == dirfd(d))
			continue;
		fds[n++] = atoi(de->d_name);
	}
	closedir(d);
	qsort(fds, (size_t) n, sizeof(fds[0]), harm_int_cmp);
	return n;
}

/* The program's descriptors, one "fd N target [cloexec] [=stderr]" line
 * each, appended to buf. */
static inline void harm_list_fds(char *buf, size_t len, size_t *used)
{
	struct harm_child *c = harm_child();
	static int fds[4096];
	int n = harm_open_fds(fds, 4096);

	for (int i = 0; i < n; i++) {
		int fd = fds[i], fl = fcntl(fd, F_GETFD);
		char what[512];
		struct stat st;

		if (fl < 0)
			continue;
		harm_fd_target(fd, what, sizeof(what));
		harm_cat(buf, len, used, "fd %d %s%s%s\n", fd, what,
			 (fl & FD_CLOEXEC) ? " cloexec" : "",
			 fd != 2 && c->err_open && fstat(fd, &st) == 0 &&
			 st.st_dev == c->err_dev && st.st_ino == c->err_ino ? " =stderr" : "");
	}
}

/* The errno set, sorted by line then value: "errno L<line> <value>". */
static inline void harm_list_errnos(char *buf, size_t len, size_t *used)
{
	unsigned keys[HARM_ERRNO_SLOTS];
	unsigned n = 0;

	for (unsigned i = 0; i < HARM_ERRNO_SLOTS; i++) {
		unsigned k = __atomic_load_n(&harm_child()->errnos[i], __ATOMIC_RELAXED);

		if (k)
			keys[n++] = k;
	}
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
			unsigned t = keys[j];

			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	for (unsigned i = 0; i < n; i++) {
		int e = (int) (keys[i] & 0xffff) - 1;

		harm_cat(buf, len, used, "errno L%u %d%s%s\n", keys[i] >> 16, e,
			 e == HARM_SENTINEL ? "" : " ",
			 e == HARM_SENTINEL ? "" : harm_errname(e));
	}
}

/*
 * Writes the report to $HARM_REPORT (stdout when unset): the descriptors
 * first (listed before the report's own file is opened), then the errno
 * set, then `extra` (a scenario's own findings, may be NULL).
 */
static inline void harm_report_extra(const char *extra)
{
	static char buf[1 << 17];
	const char *path = getenv("HARM_REPORT");
	size_t used = 0;
	int fd = 1;

	harm_list_fds(buf, sizeof(buf), &used);
	harm_list_errnos(buf, sizeof(buf), &used);
	if (extra)
		harm_cat(buf, sizeof(buf), &used, "%s", extra);
	if (path && *path) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return;
	}
	for (size_t done = 0; done < used;) {
		ssize_t w = write(fd, buf + done, used - done);

		if (w <= 0)
			break;
		done += (size_t) w;
	}
	if (fd != 1)
		close(fd);
}

static inline void harm_report(void)
{
	harm_report_extra(NULL);
}

/* The scenario's scratch directory ($HARM_SCRATCH) joined with `name`. */
static inline const char *harm_path(const char *name, char *out, size_t len)
{
	const char *d = getenv("HARM_SCRATCH");

	snprintf(out, len, "%s/%s", d && *d ? d : check_tmpdir(), name);
	return out;
}

/* Writes `len` bytes of pattern `seed` to a new file `name` of the scratch
 * directory; returns its descriptor (left open) or -1. */
static inline int harm_data_file(const char *name, size_t len, unsigned seed)
{
	char path[4096], buf[4096];
	int fd = open(harm_path(name, path, sizeof(path)), O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		check_fill(buf, n, seed++);
		if (write(fd, buf, n) != (ssize_t) n)
			break;
		len -= n;
	}
	return fd;
}

/* ================================================================== */
/* The driver: running a child twice and comparing                     */
/* ================================================================== */

/* The diagnostics' line prefixes (output.rs, trace.rs, check.rs,
 * setup_cause.rs, register_cause.rs, attach_diag.rs). */
static inline int harm_is_diag_line(const char *l, size_t n)
{
	static const char *const prefixes[] = { "uring-trace:", "uring-check:", "liburing: " };

	for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t p = strlen(prefixes[i]);

		if (n >= p && !memcmp(l, prefixes[i], p))
			return 1;
	}
	return 0;
}

struct harm_env {
	/* LIBURING_TRACE: NULL for none; "stderr" or a path. */
	const char *trace;
	/* LIBURING_CHECK: NULL for none, "1", "abort". */
	const char *check;
	/* LIBURING_DEBUG=1. */
	int debug;
	/* More NAME=value settings, NULL-terminated. */
	const char *extra[8];
};

struct harm_spec {
	const char *name;
	/* The program and its arguments (argv[0] is run). */
	const char *argv[8];
	/* NULL: the driver's own LD_LIBRARY_PATH. */
	const char *ld_library_path;
	/* In the child before exec, after stdio is set up (rlimits, closing
	 * descriptors, namespaces); `traced` says which run it is. */
	void (*prep)(void *arg, int traced);
	void *prep_arg;
	/* Killed after this long (default 10 s). */
	int timeout_ms;
};

struct harm_run {
	int status;		/* waitpid status, when not timed out */
	int timed_out;
	double secs;
	char *out, *err;	/* the program's own bytes */
	size_t out_len, err_len;
	char *diag;		/* the diagnostics' lines, both streams */
	unsigned diag_lines;
	char *report;		/* HARM_REPORT, "" if none */
	int has_report;
	char files[4200];	/* the directory the scratch was kept as */
};

/* Problems printed per case; the rest are counted. */
#define HARM_SHOWN 16

struct harm_driver {
	char self[4096];	/* this program */
	char dir[4096];		/* this test's working directory */
	char scratch[4300];	/* the child's HARM_SCRATCH */
	char report[4300];	/* the child's HARM_REPORT */
	char trace[4300];	/* a trace file path for the traced run */
	/* The case being judged. */
	const char *current;
	unsigned problems;
	/* Count problems without printing them (repeated runs). */
	int quiet;
	/* Problems of the case past the first HARM_SHOWN. */
	unsigned unshown;
	unsigned cases, failed;
	char failed_names[4096];
	long long case_start_ms;
};

static inline struct harm_driver *harm_driver(void)
{
	static struct harm_driver d;

	return &d;
}

/* Sets up the test's working directory (under CAPI_OUT) and finds itself. */
static inline void harm_driver_init(const char *test)
{
	struct harm_driver *d = harm_driver();
	const char *out = getenv("CAPI_OUT") ? getenv("CAPI_OUT") : check_tmpdir();
	ssize_t n = readlink("/proc/self/exe", d->self, sizeof(d->self) - 1);

	CHECK(n > 0);
	d->self[n] = 0;
	snprintf(d->dir, sizeof(d->dir), "%s/%s.%d", out, test, (int) getpid());
	CHECK(check_system("rm -rf '%s' && mkdir -p '%s'", d->dir, d->dir) == 0);
	snprintf(d->scratch, sizeof(d->scratch), "%s/scratch", d->dir);
	snprintf(d->report, sizeof(d->report), "%s/report", d->dir);
	snprintf(d->trace, sizeof(d->trace), "%s/trace", d->dir);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Reads a whole file (NUL-terminated; "" when missing). */
static inline char *harm_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = (char *) malloc(cap + 1);

	CHECK(buf);
	if (f) {
		size_t got;

		while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
			n += got;
			if (n == cap) {
				cap *= 2;
				buf = (char *) realloc(buf, cap + 1);
				CHECK(buf);
			}
		}
		fclose(f);
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

/* Splits `text` into the program's bytes (kept in place) and the
 * diagnostics' lines (appended to *diag). */
static inline size_t harm_split(char *text, size_t len, char **diag, size_t *diag_len,
				unsigned *lines)
{
	size_t keep = 0, at = 0;

	while (at < len) {
		char *nl = (char *) memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t) (nl - (text + at)) + 1 : len - at;

		if (harm_is_diag_line(text + at, n)) {
			*diag = (char *) realloc(*diag, *diag_len + n + 2);
			CHECK(*diag);
			memcpy(*diag + *diag_len, text + at, n);
			*diag_len += n;
			if (text[at + n - 1] != '\n')
				(*diag)[(*diag_len)++] = '\n';
			(*diag)[*diag_len] = 0;
			(*lines)++;
		} else {
			memmove(text + keep, text + at, n);
			keep += n;
		}
		at += n;
	}
	text[keep] = 0;
	return keep;
}

/* Closes every descriptor from `from` up (close_range where the kernel has
 * it). */
static inline void harm_close_from(int from)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned) from, ~0U, 0) == 0)
		return;
#endif
	for (int fd = from; fd < 65536; fd++)
		close(fd);
}

static inline void harm_free_run(struct harm_run *r)
{
	free(r->out);
	free(r->err);
	free(r->diag);
	free(r->report);
	memset(r, 0, sizeof(*r));
}

/*
 * Runs spec's program once, with the variables of `env` (NULL: none), its
 * stdout and stderr in files of the driver's directory, stdin /dev/null, no
 * other descriptor, in a process group of its own; keeps its scratch
 * directory as <dir>/<tag>.
 */
static inline void harm_exec(const struct harm_spec *spec, const struct harm_env *env,
			     const char *tag, struct harm_run *r)
{
	struct harm_driver *d = harm_driver();
	char out_path[4400], err_path[4400], keep[4400];
	static char vars[24][4400];
	const char *passthrough[] = { "TSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS",
				      "LSAN_OPTIONS", "CAPI_STAGE", "CAPI_SRC", "CAPI_OUT", "CC" };
	char *envp[32];
	int e = 0, timeout = spec->timeout_ms ? spec->timeout_ms : 10000;
	long long start = check_now_ms();
	char *diag = NULL;
	size_t diag_len = 0;
	pid_t pid;

	/* Calibration: both runs without the variables. */
	if (getenv("HARM_CALIBRATE"))
		env = NULL;
	memset(r, 0, sizeof(*r));
	/* The same paths in every run (the descriptors name them); kept
	 * under the run's tag afterwards. */
	snprintf(out_path, sizeof(out_path), "%s/stdout", d->dir);
	snprintf(err_path, sizeof(err_path), "%s/stderr", d->dir);
	snprintf(keep, sizeof(keep), "%s/%s.scratch", d->dir, tag);
	{
		char cmd[32768];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s' '%s' '%s' '%s' && mkdir -p '%s'",
			 d->scratch, keep, d->report, out_path, err_path, d->scratch);
		CHECKM(system(cmd) == 0, "%s", cmd);
	}

#define HARM_VAR(...) (snprintf(vars[e], sizeof(vars[e]), __VA_ARGS__), envp[e] = vars[e], e++)
	HARM_VAR("PATH=/usr/local/bin:/usr/bin:/bin");
	HARM_VAR("HARM_SCRATCH=%s", d->scratch);
	HARM_VAR("HARM_REPORT=%s", d->report);
	if (spec->ld_library_path)
		HARM_VAR("LD_LIBRARY_PATH=%s", spec->ld_library_path);
	else if (getenv("LD_LIBRARY_PATH"))
		HARM_VAR("LD_LIBRARY_PATH=%s", getenv("LD_LIBRARY_PATH"));
	for (unsigned i = 0; i < sizeof(passthrough) / sizeof(passthrough[0]); i++)
		if (getenv(passthrough[i]))
			HARM_VAR("%s=%s", passthrough[i], getenv(passthrough[i]));
	if (env) {
		if (env->trace)
			HARM_VAR("LIBURING_TRACE=%s", env->trace);
		if (env->check)
			HARM_VAR("LIBURING_CHECK=%s", env->check);
		if (env->debug)
			HARM_VAR("LIBURING_DEBUG=1");
		for (unsigned i = 0; i < 8 && env->extra[i]; i++)
			HARM_VAR("%s", env->extra[i]);
	}
#undef HARM_VAR
	envp[e] = NULL;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int er = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		setpgid(0, 0);
		if (in < 0 || o < 0 || er < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 ||
		    dup2(er, 2) < 0)
			_exit(126);
		harm_close_from(3);
		signal(SIGPIPE, SIG_DFL);
		if (spec->prep)
			spec->prep(spec->prep_arg, env != NULL);
		execve(spec->argv[0], (char *const *) spec->argv, envp);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		pid_t w = waitpid(pid, &r->status, WNOHANG);

		if (w == pid)
			break;
		CHECK(w == 0);
		if (check_now_ms() - start > timeout) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			CHECK(waitpid(pid, &r->status, 0) == pid);
			r->timed_out = 1;
			break;
		}
		check_sleep_ms(2);
	}
	/* Whatever the program left running in its group. */
	kill(-pid, SIGKILL);
	r->secs = (double) (check_now_ms() - start) / 1000.0;
	r->out = harm_slurp(out_path, &r->out_len);
	r->err = harm_slurp(err_path, &r->err_len);
	r->out_len = harm_split(r->out, r->out_len, &diag, &diag_len, &r->diag_lines);
	r->err_len = harm_split(r->err, r->err_len, &diag, &diag_len, &r->diag_lines);
	r->diag = diag ? diag : strdup("");
	r->has_report = access(d->report, F_OK) == 0;
	r->report = harm_slurp(d->report, NULL);
	CHECK(rename(d->scratch, keep) == 0);
	snprintf(r->files, sizeof(r->files), "%s", keep);
	snprintf(keep, sizeof(keep), "%s/%s.stdout", d->dir, tag);
	CHECK(rename(out_path, keep) == 0);
	snprintf(keep, sizeof(keep), "%s/%s.stderr", d->dir, tag);
	CHECK(rename(err_path, keep) == 0);
}

/* "exit 0", "killed by SIGSEGV", "timed out after 10 s". */
static inline const char *harm_how(const struct harm_run *r, char *buf, size_t len)
{
	if (r->timed_out)
		snprintf(buf, len, "timed out after %.0f s (hang or deadlock)", r->secs);
	else if (WIFEXITED(r->status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(r->status),
			 strsignal(WTERMSIG(r->status)));
	else
		snprintf(buf, len, "status %#x", r->status);
	return buf;
}

/* ---- verdicts ---------------------------------------------------- */

static inline void harm_case_begin(const char *name)
{
	struct harm_driver *d = harm_driver();

	d->current = name;
	d->problems = 0;
	d->unshown = 0;
	d->case_start_ms = check_now_ms();
	printf("---- case %s\n", name);
}

/* One way the case did not hold (printed at once). */
__attribute__((format(printf, 1, 2)))
static inline void harm_problem(const char *fmt, ...)
{
	struct harm_driver *d = harm_driver();
	va_list ap;

	d->problems++;
	if (d->quiet)
		return;
	if (d->problems > HARM_SHOWN) {
		d->unshown++;
		return;
	}
	printf("  PROBLEM [%s]: ", d->current);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void harm_case_end(void)
{
	struct harm_driver *d = harm_driver();
	double secs = (double) (check_now_ms() - d->case_start_ms) / 1000.0;

	d->cases++;
	if (d->unshown)
		printf("  (%u more problems not shown)\n", d->unshown);
	if (d->problems) {
		size_t n = strlen(d->failed_names);

		d->failed++;
		snprintf(d->failed_names + n, sizeof(d->failed_names) - n, " %s", d->current);
		printf("CASE %-28s FAIL (%u problems, %.1f s)\n", d->current, d->problems, secs);
	} else {
		printf("CASE %-28s PASS (%.1f s)\n", d->current, secs);
	}
}

/* The test's exit status: 0 when every case held. */
static inline int harm_finish(void)
{
	struct harm_driver *d = harm_driver();

	printf("%u of %u cases held%s%s\n", d->cases - d->failed, d->cases,
	       d->failed ? "; failed:" : "", d->failed ? d->failed_names : "");
	if (!d->failed)
		check_system("rm -rf '%s'", d->dir);
	return d->failed ? 1 : 0;
}

/* ---- comparing ----------------------------------------------------- */

/* Up to 60 bytes of `p` (n of them left), printable, others as \xNN. */
static inline const char *harm_snippet(const char *p, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && i < 60 && o + 5 < len; i++) {
		unsigned char c = (unsigned char) p[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = (char) c;
		} else if (c == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			o += (size_t) snprintf(out + o, len - o, "\\x%02x", c);
		}
	}
	out[o] = 0;
	return out;
}

/* Prints where two byte strings first differ. */
static inline void harm_diff_bytes(const char *what, const char *a, size_t alen, const char *b,
				   size_t blen)
{
	char sa[256], sb[256];
	size_t i = 0;

	if (alen == blen && !memcmp(a, b, alen))
		return;
	while (i < alen && i < blen && a[i] == b[i])
		i++;
	harm_problem("%s differs: %zu bytes without the variables, %zu with them; first "
		     "difference at byte %zu: without \"%s\", with \"%s\"", what, alen, blen, i,
		     harm_snippet(a + i, i < alen ? alen - i : 0, sa, sizeof(sa)),
		     harm_snippet(b + i, i < blen ? blen - i : 0, sb, sizeof(sb)));
}

/* A line of `text` (NUL-terminated lines) equal to `line` of length n. */
static inline int harm_has_line(const char *text, const char *line, size_t n)
{
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t m = nl ? (size_t) (nl - p) : strlen(p);

		if (m == n && !memcmp(p, line, n))
			return 1;
		p += m + (nl ? 1 : 0);
	}
	return 0;
}

static inline int harm_fd_number(const char *line)
{
	return strncmp(line, "fd ", 3) ? -1 : atoi(line + 3);
}

/* The reports: every line of one in the other, but for the one allowed
 * duplicate of stderr. */
static inline void harm_diff_reports(const struct harm_run *a, const struct harm_run *b)
{
	int max_plain = -1, allowed = 0;

	if (!a->has_report || !b->has_report) {
		if (a->has_report != b->has_report)
			harm_problem("the program's report (descriptors, errno) was written %s the "
				     "variables only", a->has_report ? "without" : "with");
		return;
	}
	for (const char *p = a->report; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t) (nl - p) : strlen(p);

		if (harm_fd_number(p) > max_plain)
			max_plain = harm_fd_number(p);
		if (!harm_has_line(b->report, p, n))
			harm_problem("report line only without the variables: %.*s", (int) n, p);
		p += n + (nl ? 1 : 0);
	}
	for (const char *p = b->report; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t) (nl - p) : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int) n, p);
		if (!harm_has_line(a->report, p, n)) {
			if (harm_fd_number(line) > max_plain && strstr(line, " cloexec =stderr") &&
			    !allowed) {
				allowed = 1;
				if (!harm_driver()->quiet)
					printf("  (allowed: the diagnostics' duplicate of stderr: "
					       "%s)\n", line);
			} else {
				harm_problem("report line only with the variables: %s%s", line,
					     !strncmp(line, "fd ", 3) ?
					     " (a descriptor the program can see)" : "");
			}
		}
		p += n + (nl ? 1 : 0);
	}
}

/* The kept scratch directories, file by file. */
static inline void harm_diff_files(const struct harm_run *a, const struct harm_run *b)
{
	const char *dirs[2] = { a->files, b->files };

	for (int side = 0; side < 2; side++) {
		DIR *dir = opendir(dirs[side]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char pa[4600], pb[4600], what[600];
			size_t la, lb;
			char *ca, *cb;

			if (de->d_name[0] == '.')
				continue;
			snprintf(pa, sizeof(pa), "%s/%s", dirs[0], de->d_name);
			snprintf(pb, sizeof(pb), "%s/%s", dirs[1], de->d_name);
			if (access(side ? pa : pb, F_OK) != 0) {
				harm_problem("file %s was left only %s the variables", de->d_name,
					     side ? "with" : "without");
				continue;
			}
			if (side)
				continue;
			ca = harm_slurp(pa, &la);
			cb = harm_slurp(pb, &lb);
			snprintf(what, sizeof(what), "the program's file %s", de->d_name);
			harm_diff_bytes(what, ca, la, cb, lb);
			free(ca);
			free(cb);
		}
		closedir(dir);
	}
}

/*
 * Compares the run without the variables (`plain`, which must have ended
 * with `want_exit`: otherwise the scenario itself is broken, a test bug)
 * with the run with them. Reports problems on the current case.
 */
static inline void harm_compare(const struct harm_run *plain, const struct harm_run *traced,
				int want_exit)
{
	char h1[128], h2[128];

	harm_how(plain, h1, sizeof(h1));
	harm_how(traced, h2, sizeof(h2));
	if (!harm_driver()->quiet)
		printf("  without the variables: %s (%.2f s); with them: %s (%.2f s), %u diagnostic "
		       "lines\n", h1, plain->secs, h2, traced->secs, traced->diag_lines);
	if (plain->timed_out || !WIFEXITED(plain->status) ||
	    WEXITSTATUS(plain->status) != want_exit) {
		harm_problem("BASELINE: without the variables the scenario ended with %s, not exit "
			     "%d (a test bug); its stderr: %.400s", h1, want_exit, plain->err);
		return;
	}
	if (plain->diag_lines)
		harm_problem("BASELINE: %u diagnostic lines without the variables: %.200s",
			     plain->diag_lines, plain->diag);
	if (plain->timed_out != traced->timed_out || plain->status != traced->status)
		harm_problem("the program ended differently: without the variables %s, with them "
			     "%s", h1, h2);
	harm_diff_bytes("the program's stdout", plain->out, plain->out_len, traced->out,
			traced->out_len);
	harm_diff_bytes("the program's stderr", plain->err, plain->err_len, traced->err,
			traced->err_len);
	harm_diff_reports(plain, traced);
	harm_diff_files(plain, traced);
}

/* The usual variables: a trace file (or "stderr"), DEBUG, CHECK=1. */
static inline struct harm_env harm_vars(const char *trace)
{
	struct harm_env e;

	memset(&e, 0, sizeof(e));
	e.trace = trace ? trace : harm_driver()->trace;
	e.check = "1";
	e.debug = 1;
	return e;
}

/* Runs the spec without and with `env` and compares; the runs are left in
 * *plain and *traced for further checks (free them with harm_free_run). */
static inline void harm_pair(const struct harm_spec *spec, const struct harm_env *env,
			     int want_exit, struct harm_run *plain, struct harm_run *traced)
{
	char tag[256];

	if (env->trace && env->trace[0] == '/')
		unlink(env->trace);
	snprintf(tag, sizeof(tag), "%s.without", spec->name);
	harm_exec(spec, NULL, tag, plain);
	snprintf(tag, sizeof(tag), "%s.with", spec->name);
	harm_exec(spec, env, tag, traced);
	harm_compare(plain, traced, want_exit);
}

/* Counts the diagnostic lines starting with `prefix`. */
static inline unsigned harm_count_lines(const char *text, const char *prefix)
{
	unsigned n = 0;
	size_t p = strlen(prefix);

	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');

		if (!strncmp(l, prefix, p))
			n++;
		if (!nl)
			break;
		l = nl + 1;
	}
	return n;
}

#endif
