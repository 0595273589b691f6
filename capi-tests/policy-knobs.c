/* SPDX-License-Identifier: MIT */
/*
 * The administrator's io_uring switches: the kernel.io_uring_disabled sysctl
 * (0, 1, 2; Linux 6.6) with kernel.io_uring_group, for root, for an
 * unprivileged uid, and for that uid with the group as its gid or as a
 * supplementary group; and a seccomp filter answering io_uring_setup with
 * EPERM or ENOSYS. In each case io_uring_queue_init must return what a raw
 * io_uring_setup(2) returns (the same for liburing and for us), the kernel
 * must answer as its policy says, LIBURING_DEBUG must not change the result,
 * and on our library (CAPI_LIBRARY unset or "ours") LIBURING_DEBUG=1 must
 * print exactly one line on a refusal, naming the sysctl or the seccomp
 * filter, and nothing when the setup works.
 *
 * Each case runs in a fresh child (the library reads its environment when
 * it loads): this program re-executes itself, and the child takes the
 * credentials and filter of the case before it sets up any ring. The sysctl
 * cases change the switches for the whole machine, so they run only where
 * CAPI_POLICY_SYSCTL=1 says that is harmless (the VM guests of
 * tools/arch/vm/kernels.sh), as root, on a kernel that has them; they are
 * restored on every way out of this process.
 */
#include "check.h"

#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define UNPRIVILEGED 65534
#define URING_GID 4242
#define URING_GID_STR "4242"

/* ---------------------------------------------------------------- child */

/* Who the child is: 'r' root, 'n' the unprivileged uid and gid, 'g' that
 * uid with URING_GID as its gid, 's' that uid with URING_GID as a
 * supplementary group. */
static void become(char who)
{
	gid_t extra = URING_GID;
	int ok = 1;

	if (who == 'r')
		return;
	if (who == 's')
		ok = setgroups(1, &extra) == 0;
	else
		ok = setgroups(0, NULL) == 0;
	ok = ok && setgid(who == 'g' ? URING_GID : UNPRIVILEGED) == 0;
	ok = ok && setuid(UNPRIVILEGED) == 0;
	if (!ok) {
		printf("cannot change credentials: %s\n", strerror(errno));
		exit(3);
	}
}

static void deny_setup(int err)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		printf("cannot install the seccomp filter: %s\n", strerror(errno));
		exit(3);
	}
}

/* argv: who, filter ('-', 'P' EPERM, 'N' ENOSYS). Prints "raw=R lib=L". */
static int child(const char *who, const char *filter)
{
	struct io_uring_params p;
	struct io_uring ring;
	int raw, lib;
	long fd;

	become(who[0]);
	if (filter[0] == 'P')
		deny_setup(EPERM);
	else if (filter[0] == 'N')
		deny_setup(ENOSYS);
	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	raw = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close((int) fd);
	lib = io_uring_queue_init(4, &ring, 0);
	if (lib == 0)
		io_uring_queue_exit(&ring);
	printf("raw=%d lib=%d\n", raw, lib);
	fflush(stdout);
	return 0;
}

/* --------------------------------------------------------------- parent */

static char self[4096];
static int ours;

struct result {
	int raw, lib, lines;
	char err[4096];
};

static struct result run_child(char who, char filter, int debug)
{
	char whos[2] = { who, 0 }, filters[2] = { filter, 0 }, out[256];
	int out_pipe[2], err_pipe[2], st;
	struct result r;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	memset(&r, 0, sizeof(r));
	CHECK(pipe(out_pipe) == 0 && pipe(err_pipe) == 0);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(out_pipe[1], 1);
		dup2(err_pipe[1], 2);
		close(out_pipe[0]);
		close(err_pipe[0]);
		unsetenv("LIBURING_TRACE");
		unsetenv("LIBURING_CHECK");
		if (debug)
			setenv("LIBURING_DEBUG", "1", 1);
		else
			unsetenv("LIBURING_DEBUG");
		setenv("POLICY_CHILD", "1", 1);
		execl(self, self, whos, filters, (char *) NULL);
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	while ((n = read(err_pipe[0], r.err + got, sizeof(r.err) - 1 - got)) > 0)
		got += (size_t) n;
	r.err[got] = 0;
	n = read(out_pipe[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = 0;
	close(out_pipe[0]);
	close(err_pipe[0]);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %c/%c: status %#x, said: %s", who,
	       filter, st, out);
	CHECKM(sscanf(out, "raw=%d lib=%d", &r.raw, &r.lib) == 2, "child said: %s", out);
	for (const char *s = r.err; (s = strstr(s, "liburing: ")); s++)
		r.lines++;
	return r;
}

static const char *who_name(char who)
{
	switch (who) {
	case 'r':
		return "root";
	case 'n':
		return "uid 65534";
	case 'g':
		return "uid 65534 gid " URING_GID_STR;
	default:
		return "uid 65534 +group " URING_GID_STR;
	}
}

static int cases;

/*
 * One case: the kernel answers `want` (0 or -errno) to a raw setup, the
 * library the same with and without LIBURING_DEBUG, silently without it;
 * with it our library prints one line holding `phrase` and `phrase2` (when
 * not NULL) on a refusal, none on success.
 */
static void expect(const char *setting, char who, char filter, int want, const char *phrase,
		   const char *phrase2)
{
	struct result plain = run_child(who, filter, 0);
	struct result dbg = run_child(who, filter, 1);
	char a[64], b[64];

	printf("%-34s %-24s raw=%-4d lib=%-4d %s", setting, who_name(who), plain.raw, plain.lib,
	       dbg.err[0] ? dbg.err : "(LIBURING_DEBUG=1: silent)\n");
	CHECKM(plain.raw == want, "%s, %s: the kernel answered %s, its policy says %s", setting,
	       who_name(who), check_errstr(plain.raw, a, sizeof(a)), check_errstr(want, b, sizeof(b)));
	CHECKM(plain.lib == plain.raw, "%s, %s: io_uring_queue_init %d, raw setup %d", setting,
	       who_name(who), plain.lib, plain.raw);
	CHECKM(dbg.raw == plain.raw && dbg.lib == plain.lib,
	       "%s, %s: LIBURING_DEBUG changed the results (%d/%d to %d/%d)", setting, who_name(who),
	       plain.raw, plain.lib, dbg.raw, dbg.lib);
	CHECKM(plain.err[0] == 0, "%s, %s: output without LIBURING_DEBUG: %s", setting,
	       who_name(who), plain.err);
	if (ours) {
		CHECKM(dbg.lines == (want < 0), "%s, %s: %d diagnosis lines", setting, who_name(who),
		       dbg.lines);
		CHECKM(!phrase || strstr(dbg.err, phrase), "%s, %s: the diagnosis lacks \"%s\"",
		       setting, who_name(who), phrase);
		CHECKM(!phrase2 || strstr(dbg.err, phrase2), "%s, %s: the diagnosis lacks \"%s\"",
		       setting, who_name(who), phrase2);
	}
	cases++;
}

/* ------------------------------------------------------------ sysctls */

static void sysctl_cases(void)
{
	/*
	 * They switch io_uring off for the whole machine for a moment: only
	 * when the caller allows it (CAPI_POLICY_SYSCTL=1, as the VM guests
	 * do), and on a kernel that has the sysctls (Linux 6.6).
	 */
	if (!ENV_HAS_PART("sysctl", "policy-sysctl") || !ENV_HAS_PART("sysctl", "uring-sysctl"))
		return;
	if (geteuid() != 0)
		FAIL("CAPI_POLICY_SYSCTL=1 needs root");
	CHECK(check_sysctl_save() == 0);

	check_sysctl_set("0", "-1");
	expect("io_uring_disabled=0", 'n', '-', 0, NULL, NULL);

	check_sysctl_set("1", "-1");
	expect("io_uring_disabled=1 group=-1", 'r', '-', 0, NULL, NULL);
	expect("io_uring_disabled=1 group=-1", 'n', '-', -EPERM, "kernel.io_uring_disabled = 1",
	       "which is -1 (no group)");
	expect("io_uring_disabled=1 group=-1", 'g', '-', -EPERM, "kernel.io_uring_disabled = 1",
	       "which is -1 (no group)");

	check_sysctl_set("1", URING_GID_STR);
	expect("io_uring_disabled=1 group=" URING_GID_STR, 'r', '-', 0, NULL, NULL);
	expect("io_uring_disabled=1 group=" URING_GID_STR, 'n', '-', -EPERM,
	       "kernel.io_uring_disabled = 1", "(gid " URING_GID_STR "); this process (uid 65534) is not in that group");
	expect("io_uring_disabled=1 group=" URING_GID_STR, 'g', '-', 0, NULL, NULL);
	expect("io_uring_disabled=1 group=" URING_GID_STR, 's', '-', 0, NULL, NULL);

	check_sysctl_set("2", URING_GID_STR);
	expect("io_uring_disabled=2", 'r', '-', -EPERM, "kernel.io_uring_disabled = 2", NULL);
	expect("io_uring_disabled=2", 'g', '-', -EPERM, "kernel.io_uring_disabled = 2", NULL);
	/* The filter answers before the kernel's own policy is consulted. */
	expect("io_uring_disabled=2 + seccomp ENOSYS", 'r', 'N', -ENOSYS,
	       "a seccomp filter is in force", "kernel.io_uring_disabled is set too");
	check_sysctl_restore();
}

int main(int argc, char **argv)
{
	const char *lib = getenv("CAPI_LIBRARY");
	ssize_t n;

	if (getenv("POLICY_CHILD") && argc == 3)
		return child(argv[1], argv[2]);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	self[n] = 0;
	ours = !lib || !strcmp(lib, "ours");
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	if (geteuid() != 0)
		SKIP("changing credentials needs root");
	check_note("library: %s (the diagnoses are checked on ours only)",
		   ours ? "ours" : lib);

	expect("seccomp EPERM", 'r', 'P', -EPERM, "a seccomp filter is in force", NULL);
	expect("seccomp ENOSYS", 'r', 'N', -ENOSYS, "a seccomp filter is in force", NULL);
	expect("seccomp EPERM", 'n', 'P', -EPERM, "a seccomp filter is in force", NULL);
	sysctl_cases();
	printf("%d cases\n", cases);
	return 0;
}
