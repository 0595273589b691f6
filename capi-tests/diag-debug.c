/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_DEBUG=1 explains failed setups and registrations: one line on
 * stderr naming the cause and the fix, with the return value unchanged.
 *
 * The environment is read when the library loads, so every case runs in a
 * fresh child: this program re-executes itself with the case name, with
 * and without LIBURING_DEBUG, and compares the child's return value and
 * stderr.  Cases that need a changed system state (the io_uring_disabled
 * sysctl) set it only around one child, serially, and restore it on every
 * path out of this process (normal exit, failure, SIGTERM/SIGINT/SIGALRM
 * from the test runner's timeout).
 */
#include "check.h"

#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define NOBODY 65534

/* ---------------------------------------------------------------- child */

static int child_setup(unsigned entries, unsigned flags, unsigned cpu)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.sq_thread_cpu = cpu;
	ret = io_uring_queue_init_params(entries, &ring, &p);
	if (!ret)
		io_uring_queue_exit(&ring);
	return ret;
}

static int child_big_buffer(void)
{
	struct io_uring ring;
	struct iovec iov;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return 1000 + ret;
	/* The ring itself is charged to RLIMIT_MEMLOCK too: lower the limit
	 * only once it exists. */
	if (setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ 0, 0 }))
		return 3000;
	iov.iov_len = 1 << 20;
	iov.iov_base = mmap(NULL, iov.iov_len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (iov.iov_base == MAP_FAILED)
		return 2000;
	ret = io_uring_register_buffers(&ring, &iov, 1);
	io_uring_queue_exit(&ring);
	return ret;
}

/* Rings kept open under a 64 KiB limit until one is refused. */
static int child_rings_until_memlock(void)
{
	struct io_uring rings[64];
	int i, ret = 0;

	if (setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ 65536, 65536 }))
		return 3000;
	/* As a program started as nobody is: it may read its /proc/self/fd. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	/* The rings of the run before are given back once torn down: wait
	 * with a raw ring, which the library does not diagnose (and which
	 * counts as one of this process's rings). */
	for (i = 0; i < 200; i++) {
		struct io_uring_params p = { 0 };

		if (check_raw_setup(8, &p) >= 0)
			break;
		usleep(10000);
	}
	for (i = 0; i < 64 && ret == 0; i++)
		ret = io_uring_queue_init(8, &rings[i], 0);
	return ret;
}

/* A second 4 MiB buffer registration under a 6 MiB limit. */
static int child_second_buffer(void)
{
	struct io_uring a, b;
	struct iovec iov[2];
	int i, ret;

	if (setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ 6 << 20, 6 << 20 }))
		return 3000;
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (io_uring_queue_init(4, &a, 0) || io_uring_queue_init(4, &b, 0))
		return 1000;
	for (i = 0; i < 2; i++) {
		iov[i].iov_len = 4 << 20;
		iov[i].iov_base = mmap(NULL, iov[i].iov_len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (iov[i].iov_base == MAP_FAILED)
			return 2000;
	}
	/* The buffers of the run before are given back once its rings are torn
	 * down: the first registration retries, raw (not diagnosed). */
	for (i = 0; i < 200; i++) {
		ret = check_raw_register(a.ring_fd, IORING_REGISTER_BUFFERS, &iov[0], 1);
		if (ret != -ENOMEM)
			break;
		usleep(10000);
	}
	if (ret)
		return 4000 + ret;
	return io_uring_register_buffers(&b, &iov[1], 1);
}

static int child_many_files(void)
{
	struct rlimit small = { 16, 16 };
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return 1000 + ret;
	if (setrlimit(RLIMIT_NOFILE, &small))
		return 3000;
	ret = io_uring_register_files_sparse(&ring, 64);
	io_uring_queue_exit(&ring);
	return ret;
}

/* A second file table on a ring that has one: the kernel's EBUSY. */
static int child_files_twice(void)
{
	struct io_uring ring;
	int fds[1] = { 0 };
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return 1000 + ret;
	ret = io_uring_register_files(&ring, fds, 1);
	if (ret)
		return 2000 + ret;
	ret = io_uring_register_files(&ring, fds, 1);
	io_uring_queue_exit(&ring);
	return ret;
}

static void drop_to_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		printf("cannot drop privileges: %s\n", strerror(errno));
		exit(3);
	}
}

static void install_seccomp(int err)
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
		printf("cannot install seccomp filter: %s\n", strerror(errno));
		exit(3);
	}
}

/* Runs case `name` in this (child) process; prints "ret=<n>". */
static int run_case(const char *name)
{
	const char *drop = getenv("DIAG_DROP");
	int ret;

	/* Privileges are dropped after exec: the binary and the library under
	 * test may live where nobody cannot read (the diagnosis looks at the
	 * process's rights when it runs, not when the library loads). */
	if (drop && *drop == 'z') {
		struct rlimit zero = { 0, 0 };

		if (setrlimit(RLIMIT_MEMLOCK, &zero))
			FAIL("setrlimit: %s", strerror(errno));
	}
	if (drop)
		drop_to_nobody();

	if (!strcmp(name, "unknown-flag"))
		ret = child_setup(8, 1u << 30, 0);
	else if (!strcmp(name, "defer-taskrun"))
		ret = child_setup(8, IORING_SETUP_DEFER_TASKRUN, 0);
	else if (!strcmp(name, "sq-aff-offline"))
		ret = child_setup(8, IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF, 4095);
	else if (!strcmp(name, "plain") || !strcmp(name, "plain-nobody"))
		ret = child_setup(8, 0, 0);
	else if (!strcmp(name, "memlock"))
		ret = child_big_buffer();
	else if (!strcmp(name, "memlock-rings"))
		ret = child_rings_until_memlock();
	else if (!strcmp(name, "memlock-second"))
		ret = child_second_buffer();
	else if (!strcmp(name, "nofile"))
		ret = child_many_files();
	else if (!strcmp(name, "files-twice"))
		ret = child_files_twice();
	else
		FAIL("unknown case %s", name);
	printf("ret=%d\n", ret);
	fflush(stdout);
	return 0;
}

/* --------------------------------------------------------------- parent */

static const char *self;

struct outcome {
	int ret;
	char err[4096];
	int lines;
};

/*
 * Runs case `name` in a child with LIBURING_DEBUG set or not; `prep` says
 * what the child does: 'n'/'m' drop to nobody after exec, 'z' also with
 * RLIMIT_MEMLOCK 0, 'N'/'P' seccomp filter answering ENOSYS/EPERM.
 */
static struct outcome run_child(const char *name, int debug, char prep)
{
	int out[2], err[2], st;
	struct outcome o;
	char buf[4096];
	ssize_t n;
	size_t got = 0;
	pid_t pid;

	memset(&o, 0, sizeof(o));
	CHECK(pipe(out) == 0 && pipe(err) == 0);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		if (debug)
			setenv("LIBURING_DEBUG", "1", 1);
		else
			unsetenv("LIBURING_DEBUG");
		unsetenv("LIBURING_TRACE");
		setenv("DIAG_CHILD", "1", 1);
		if (prep == 'm' || prep == 'n' || prep == 'z')
			setenv("DIAG_DROP", prep == 'z' ? "z" : "n", 1);
		else
			unsetenv("DIAG_DROP");
		if (prep == 'N')
			install_seccomp(ENOSYS);
		if (prep == 'P')
			install_seccomp(EPERM);
		execl(self, self, name, (char *) NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	while ((n = read(err[0], o.err + got, sizeof(o.err) - 1 - got)) > 0)
		got += (size_t) n;
	o.err[got] = 0;
	n = read(out[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(out[0]);
	close(err[0]);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "case %s: child status %#x, out: %s", name,
	       st, buf);
	CHECKM(sscanf(buf, "ret=%d", &o.ret) == 1, "case %s: child said: %s", name, buf);
	for (const char *p = o.err; (p = strstr(p, "liburing: ")); p++)
		o.lines++;
	return o;
}

static int checked;

/* The case fails with `want` both ways, and debug adds exactly one line
 * containing `expect` (and nothing without debug). */
static void expect_line(const char *name, char prep, int want, const char *expect)
{
	struct outcome plain = run_child(name, 0, prep);
	struct outcome dbg = run_child(name, 1, prep);

	printf("%-16s ret=%d (without LIBURING_DEBUG: %d)\n  %s", name, dbg.ret, plain.ret,
	       dbg.err);
	CHECKM(plain.ret == want, "%s: ret %d, want %d", name, plain.ret, want);
	CHECKM(dbg.ret == plain.ret, "%s: LIBURING_DEBUG changed ret %d -> %d", name, plain.ret,
	       dbg.ret);
	CHECKM(plain.err[0] == 0, "%s: output without LIBURING_DEBUG: %s", name, plain.err);
	CHECKM(dbg.lines == 1, "%s: %d diagnosis lines", name, dbg.lines);
	CHECKM(strstr(dbg.err, expect), "%s: missing \"%s\"", name, expect);
	checked++;
}

static void sysctl_cases(void)
{
	struct outcome o;

	/* The sysctls exist from Linux 6.6, and only root may change them. */
	if (!ENV_HAS_PART("sysctl", "uring-sysctl") || !ENV_HAS_PART("sysctl", "root"))
		return;
	CHECK(check_sysctl_save() == 0);

	/* Each child runs with the sysctl changed, which is restored at once. */
	check_sysctl_set("2", check_sysctl_saved_group());
	o = run_child("plain-nobody", 1, 'n');
	check_sysctl_restore();
	check_sysctl_set("2", check_sysctl_saved_group());
	{
		struct outcome plain = run_child("plain-nobody", 0, 'n');

		check_sysctl_restore();
		printf("%-16s ret=%d (without LIBURING_DEBUG: %d)\n  %s", "disabled=2", o.ret,
		       plain.ret, o.err);
		CHECK_EQ(plain.ret, -EPERM);
		CHECK_EQ(o.ret, plain.ret);
		CHECK_EQ(o.lines, 1);
		CHECK(strstr(o.err, "kernel.io_uring_disabled = 2"));
		checked++;
	}

	check_sysctl_set("1", "-1");
	o = run_child("plain-nobody", 1, 'n');
	check_sysctl_restore();
	printf("%-16s ret=%d\n  %s", "disabled=1", o.ret, o.err);
	CHECK_EQ(o.ret, -EPERM);
	CHECK_EQ(o.lines, 1);
	CHECK(strstr(o.err, "kernel.io_uring_disabled = 1"));
	CHECK(strstr(o.err, "kernel.io_uring_group"));
	checked++;

	/* The same sysctl, but nobody is in the allowed group. */
	check_sysctl_set("1", "65534");
	o = run_child("plain-nobody", 1, 'n');
	check_sysctl_restore();
	printf("%-16s ret=%d\n  %s", "disabled=1 grp", o.ret, o.err);
	CHECK_EQ(o.ret, 0);
	CHECK_EQ(o.lines, 0);
	checked++;
}

int main(int argc, char **argv)
{
	self = "/proc/self/exe";
	if (getenv("DIAG_CHILD") && argc == 2)
		return run_case(argv[1]);
	{
		static char path[4096];
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		CHECK(n > 0);
		path[n] = 0;
		self = path;
	}
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");

	expect_line("unknown-flag", 0, -EINVAL,
		    "does not know setup flag(s) bit 0x40000000 (not an io_uring setup flag); "
		    "fix: drop them\n");
	if (KERNEL_HAS_PART("defer-taskrun", IORING_SETUP_DEFER_TASKRUN))
		expect_line("defer-taskrun", 0, -EINVAL,
			    "IORING_SETUP_DEFER_TASKRUN requires IORING_SETUP_SINGLE_ISSUER");
	expect_line("sq-aff-offline", 0, -EINVAL, "CPU 4095, which is not online");
	expect_line("plain", 'N', -ENOSYS, "a seccomp filter is in force");
	expect_line("plain", 'P', -EPERM, "a seccomp filter is in force");
	/* The memlock cases drop to nobody (no CAP_IPC_LOCK): root only. */
	if (ENV_HAS_PART("memlock", "root"))
		expect_line("memlock", 'm', -ENOMEM,
			    "pins 1 MiB, charged to RLIMIT_MEMLOCK (0 bytes)");
	/*
	 * Whether the ring itself is charged depends on the kernel: a raw
	 * io_uring_setup under the same limit tells (env-facts.h), not the
	 * library under test.
	 */
	if (ENV_HAS_PART("memlock-ring", "root") && ENV_HAS_PART("memlock-ring", "memlock-charged"))
		expect_line("plain", 'z', -ENOMEM, "RLIMIT_MEMLOCK is 0 bytes");
	/* What the process holds already is counted: the ring that no longer
	 * fits, and a second registration the limit cannot take (the fix
	 * names what both need, not the one alone). */
	if (ENV_HAS_PART("memlock-held", "root") && ENV_HAS_PART("memlock-held", "memlock-charged")) {
		expect_line("memlock-rings", 'm', -ENOMEM, "RLIMIT_MEMLOCK is 64 KiB, ");
		expect_line("memlock-second", 'm', -ENOMEM,
			    "raise the memlock limit to at least 8");
	}
	if (KERNEL_HAS_PART("nofile", IORING_RSRC_REGISTER_SPARSE))
		expect_line("nofile", 0, -EMFILE,
			    "a table of 64 files exceeds RLIMIT_NOFILE (soft 16, hard 16)");
	expect_line("files-twice", 0, -EBUSY, "this ring already has such a table");
	sysctl_cases();
	printf("%d diagnoses checked\n", checked);
	return 0;
}
