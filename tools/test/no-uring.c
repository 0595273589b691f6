// SPDX-License-Identifier: MIT
/*
 * no-uring [-e ENOSYS|EPERM|EACCES] command [arg...]
 *
 * Runs a command the way a container's default seccomp profile would: every
 * io_uring_setup(2) the command and its children make fails with the given
 * errno (EPERM by default), and nothing else changes. `make unit-test` runs
 * the Rust unit tests under it to prove that a test which needs a ring says
 * SKIP instead of failing where io_uring is refused. Unlike the sysctl
 * kernel.io_uring_disabled, the filter binds only this process tree.
 *
 * Exit status 77 when no filter can be installed here (a kernel without
 * seccomp filters), 2 on a usage error or a filter that does not answer as
 * asked; otherwise the command's own.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The architecture the test binaries run as; a system call made through
 * another ABI (x32, or 32-bit on a 64-bit kernel) is let through. */
#if defined(__x86_64__) && !defined(__ILP32__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH AUDIT_ARCH_RISCV64
#endif

static int errno_named(const char *name)
{
	if (!strcmp(name, "ENOSYS"))
		return ENOSYS;
	if (!strcmp(name, "EPERM"))
		return EPERM;
	if (!strcmp(name, "EACCES"))
		return EACCES;
	return -1;
}

int main(int argc, char **argv)
{
	int err = EPERM, first = 1;

	if (argc > 2 && !strcmp(argv[1], "-e")) {
		err = errno_named(argv[2]);
		first = 3;
	}
	if (err < 0 || first >= argc) {
		fprintf(stderr, "usage: no-uring [-e ENOSYS|EPERM|EACCES] command [arg...]\n");
		return 2;
	}

	struct sock_filter filter[] = {
#ifdef NATIVE_ARCH
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("no-uring: installing the seccomp filter");
		return 77;
	}
	/* The filter must answer as asked, or the run proves nothing. */
	long ret = syscall(__NR_io_uring_setup, 1, NULL);
	if (ret != -1 || errno != err) {
		fprintf(stderr, "no-uring: io_uring_setup still reachable (ret %ld, %s)\n",
			ret, strerror(errno));
		return 2;
	}
	execvp(argv[first], argv + first);
	fprintf(stderr, "no-uring: %s: %s\n", argv[first], strerror(errno));
	return 127;
}
