/* SPDX-License-Identifier: MIT */
/*
 * The environment facts of capi-tests/skips.tsv ("env:<name>") that decide
 * whether a part of a test runs, each probed here from the process and the
 * kernel directly (credentials, rlimits, /proc/sys, a raw io_uring_setup),
 * never through the library under test: a wrong answer of the library then
 * fails the part instead of skipping it. capi-tests/run.sh gathers the same
 * facts before the run (in shell, or through support/env-facts.c for the
 * one that needs a system call) and expects a part skip exactly where one
 * is lacking.
 *
 * Needs nothing but libc and the kernel's headers (support/env-facts.c
 * builds it without liburing).
 */
#ifndef CAPI_ENV_FACTS_H
#define CAPI_ENV_FACTS_H

/* unshare and CLONE_NEWNS (sched.h) are GNU extensions. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ENV_FACT_NOBODY 65534
#define ENV_FACT_SYSCTL_DISABLED "/proc/sys/kernel/io_uring_disabled"
#define ENV_FACT_SYSCTL_GROUP "/proc/sys/kernel/io_uring_group"
#define ENV_FACT_TRACEFS "/sys/kernel/tracing"

/*
 * Whether the kernel charges a plain ring to RLIMIT_MEMLOCK: a child made
 * nobody (no CAP_IPC_LOCK) with that limit at 0 asks io_uring_setup(2)
 * straight for a 4-entry ring. Only root can make the child nobody; for
 * any other caller the answer is no (the parts that use it need root too).
 */
static inline int env_fact_memlock_charged(void)
{
	/* struct io_uring_params: 120 bytes, zeroed (no flags). */
	unsigned long long params[15];
	int st;
	pid_t pid;

	if (geteuid() != 0)
		return 0;
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		struct rlimit zero = { 0, 0 };
		long fd;

		memset(params, 0, sizeof(params));
		if (setrlimit(RLIMIT_MEMLOCK, &zero) || setgroups(0, NULL) ||
		    setgid(ENV_FACT_NOBODY) || setuid(ENV_FACT_NOBODY))
			_exit(2);
		fd = syscall(__NR_io_uring_setup, 4, params);
		_exit(fd < 0 && errno == ENOMEM ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 1;
}

/* Runs `probe` in a child; 1 when it exits 0. */
static inline int env_fact_in_child(int (*probe)(void))
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(probe() ? 1 : 0);
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A seccomp filter (allowing everything) can be installed: 0 when it can. */
static inline int env_fact_seccomp_probe(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ? -1 : 0;
}

/* A private mount namespace with a tmpfs of its own can be made (root, and
 * a kernel and container that allow it): 0 when it can. */
static inline int env_fact_mount_ns_probe(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	return mount("tmpfs", "/tmp", "tmpfs", 0, "size=64k") ? -1 : 0;
}

/* A free loop device can be taken: root, and /dev/loop-control answers
 * LOOP_CTL_GET_FREE (a guest or container without the loop driver or its
 * device nodes has none). */
static inline int env_fact_loop(void)
{
	int ctl, n;

	if (geteuid() != 0)
		return 0;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return 0;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	return n >= 0;
}

/* 1 when environment fact `name` holds, 0 when it does not or is unknown. */
static inline int env_fact(const char *name)
{
	struct rlimit rl;
	const char *v;

	if (!strcmp(name, "root"))
		return geteuid() == 0;
	/* The policy sysctls (Linux 6.6). */
	if (!strcmp(name, "uring-sysctl"))
		return !access(ENV_FACT_SYSCTL_DISABLED, F_OK) &&
		       !access(ENV_FACT_SYSCTL_GROUP, F_OK);
	/* The caller lets the tests switch io_uring off machine-wide. */
	if (!strcmp(name, "policy-sysctl")) {
		v = getenv("CAPI_POLICY_SYSCTL");
		return v && !strcmp(v, "1");
	}
	/* The hard RLIMIT_NOFILE allows 4096 descriptors. */
	if (!strcmp(name, "nofile-4096"))
		return !getrlimit(RLIMIT_NOFILE, &rl) &&
		       (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= 4096);
	if (!strcmp(name, "memlock-charged"))
		return env_fact_memlock_charged();
	if (!strcmp(name, "seccomp"))
		return env_fact_in_child(env_fact_seccomp_probe);
	if (!strcmp(name, "mount-ns"))
		return env_fact_in_child(env_fact_mount_ns_probe);
	if (!strcmp(name, "loop"))
		return env_fact_loop();
	/* The kernel's io_uring tracepoints through tracefs, for uring-info
	 * record --kernel: root, tracefs mounted with them, instances/
	 * writable. */
	if (!strcmp(name, "tracefs"))
		return geteuid() == 0 && !access(ENV_FACT_TRACEFS "/events/io_uring", F_OK) &&
		       !access(ENV_FACT_TRACEFS "/instances", W_OK);
	return 0;
}

#endif
