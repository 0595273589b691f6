/* SPDX-License-Identifier: MIT */
/*
 * SQPOLL rings.
 *  1. While the SQ thread is awake, io_uring_submit() must not enter the
 *     kernel: proven in a child process whose seccomp filter makes every
 *     io_uring_enter fail with EPERM; the NOPs still complete, and are reaped
 *     without entering either.
 *  2. Once the thread has idled (sq_thread_idle) and raised
 *     IORING_SQ_NEED_WAKEUP, io_uring_submit() must enter to wake it (in the
 *     seccomp child it reports the -EPERM of that enter), and on a normal
 *     ring the submission then completes.
 *  3. SQ_AFF: the SQ thread is bound to sq_thread_cpu.
 */
#include "check.h"

#include <dirent.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* The audit architecture of this build's system calls, which the filter
 * must match (a 32-bit program on a 64-bit kernel reports its own). */
#if defined(__x86_64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__) && defined(__ARMEB__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_ARMEB
#elif defined(__arm__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define TEST_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TEST_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_PPC64
#elif defined(__s390x__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_S390X
#elif defined(__loongarch64)
#define TEST_AUDIT_ARCH AUDIT_ARCH_LOONGARCH64
#elif defined(__mips__) && defined(__mips64) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TEST_AUDIT_ARCH AUDIT_ARCH_MIPSEL64
#else
#define TEST_AUDIT_ARCH 0 /* unknown here: the seccomp part is skipped */
#endif

/* Make io_uring_enter fail with EPERM for this process; 0 or -errno. */
static int block_io_uring_enter(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (!TEST_AUDIT_ARCH)
		return -ENOSYS;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

static int sqpoll_ring(struct io_uring *ring, unsigned idle_ms, unsigned flags, int cpu)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL | flags;
	p.sq_thread_idle = idle_ms;
	if (cpu >= 0)
		p.sq_thread_cpu = (unsigned) cpu;
	return io_uring_queue_init_params(8, ring, &p);
}

/* Wait (without entering the kernel) until `n` CQEs are visible. */
static void spin_for_cqes(struct io_uring *ring, unsigned n, long timeout_ms)
{
	long long end = check_now_ms() + timeout_ms;

	while (io_uring_cq_ready(ring) < n) {
		CHECKM(check_now_ms() < end, "only %u of %u CQEs after %ld ms",
		       io_uring_cq_ready(ring), n, timeout_ms);
		check_sleep_ms(1);
	}
}

static void queue_nop(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, tag);
}

static void reap(struct io_uring *ring, unsigned long long tag)
{
	struct io_uring_cqe *cqe;

	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), tag);
	CHECK_EQ(cqe->res, 0);
	io_uring_cqe_seen(ring, cqe);
}

/* Wait until the SQ thread has gone to sleep and asked to be woken. */
static void wait_need_wakeup(struct io_uring *ring, long timeout_ms)
{
	long long end = check_now_ms() + timeout_ms;

	while (!(IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_NEED_WAKEUP)) {
		CHECKM(check_now_ms() < end, "SQ thread never set IORING_SQ_NEED_WAKEUP");
		check_sleep_ms(5);
	}
}

/*
 * Runs in a child; blocks io_uring_enter for itself. Exit code: 0 ok, 77 skip.
 *
 * The rings are created, and ring a's thread is woken by a first round trip,
 * before the filter goes in: right after setup the kernel may briefly show
 * IORING_SQ_NEED_WAKEUP (the thread has not run yet), and then an enter is
 * legitimately needed.
 */
static int child_no_enter(void)
{
	struct io_uring a, b;
	struct io_uring_cqe *cqe;
	int ret, i;

	/* a: long idle time, stays awake for part 1; b: idles after 20 ms. */
	CHECK_EQ(sqpoll_ring(&a, 10000, 0, -1), 0);
	CHECK_EQ(sqpoll_ring(&b, 20, 0, -1), 0);
	check_nop_roundtrip(&a, 1, 1);

	ret = block_io_uring_enter();
	if (ret)
		SKIP("cannot install a seccomp filter: %s", strerror(-ret));
	/* The filter works: a raw enter fails. */
	CHECK_EQ(io_uring_enter(0, 0, 0, 0, NULL), -EPERM);

	/* Part 1: submission is just a tail update, no syscall (the filter would refuse one). */
	for (i = 0; i < 3; i++)
		queue_nop(&a, 10 + i);
	/* At most 3: the awake thread may already have taken some (check.h). */
	ret = io_uring_submit(&a);
	CHECK(ret >= 0 && ret <= 3);
	spin_for_cqes(&a, 3, 5000);
	for (i = 0; i < 3; i++)
		reap(&a, 10 + i);
	CHECK_EQ(io_uring_peek_cqe(&a, &cqe), -EAGAIN);
	/* Again, several times, while the thread is still awake. */
	for (i = 0; i < 20; i++) {
		queue_nop(&a, 100 + i);
		ret = io_uring_submit(&a);
		if (ret == -EPERM && (IO_URING_READ_ONCE(*a.sq.kflags) & IORING_SQ_NEED_WAKEUP)) {
			/* Starved of CPU past its idle time, the thread went to
			 * sleep (a loaded machine): submit had to enter, as it
			 * must. The rounds before showed the tail-only path. */
			check_note("note: ring a's SQ thread went idle after %d rounds", i);
			break;
		}
		/*
		 * Pending SQEs, as liburing counts them (tail - khead): the
		 * thread may not have taken this one yet, and it moves khead
		 * only after its batch, so the last round's NOP, whose CQE is
		 * already reaped, may still count (seen under load).
		 */
		CHECKM(ret >= 0 && ret <= 2, "submit on an awake SQPOLL ring returned %d", ret);
		spin_for_cqes(&a, 1, 5000);
		reap(&a, 100 + i);
	}

	/* Part 2: once b's thread sleeps, submit must try to enter (and fail here). */
	wait_need_wakeup(&b, 5000);
	queue_nop(&b, 21);
	CHECK_EQ(io_uring_submit(&b), -EPERM);
	io_uring_queue_exit(&a);
	io_uring_queue_exit(&b);
	return 0;
}

/*
 * Find the SQ poll thread of this process and return its allowed-CPU list.
 * Returns the number of iou-sqp threads seen (the list is the first one's).
 */
static int sq_thread_cpus(char *out, size_t len)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300], line[256];
		FILE *f;
		int is_sqp = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Name:", 5) && strstr(line, "iou-sqp-"))
				is_sqp = 1;
			if (is_sqp && !strncmp(line, "Cpus_allowed_list:", 18) && !found++) {
				char *v = line + 18;

				while (*v == ' ' || *v == '\t')
					v++;
				v[strcspn(v, "\n")] = 0;
				snprintf(out, len, "%s", v);
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	pid_t pid;
	int status, ret, cpu;
	char cpus[256], want[16];

	REQUIRE_KERNEL(IORING_SETUP_SQPOLL);
	ret = sqpoll_ring(&ring, 1000, 0, -1);
	CHECK_EQ(ret, 0);
	CHECK(ring.flags & IORING_SETUP_SQPOLL);
	check_nop_roundtrip(&ring, 8, 1);
	io_uring_queue_exit(&ring);

	/* Parts 1 and 2 under seccomp, in a child. */
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		exit(child_no_enter());
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECKM(WIFEXITED(status), "seccomp child died (status 0x%x)", status);
	if (WEXITSTATUS(status) == CHECK_EXIT_SKIP)
		check_note("note: seccomp part skipped (see child output above)");
	else
		CHECKM(WEXITSTATUS(status) == 0, "seccomp child failed");

	/* Part 2 on a normal ring: wake the idle thread, the NOP completes. */
	ret = sqpoll_ring(&ring, 20, 0, -1);
	CHECK_EQ(ret, 0);
	check_nop_roundtrip(&ring, 4, 100);
	wait_need_wakeup(&ring, 5000);
	queue_nop(&ring, 200);
	CHECK_EQ(io_uring_submit(&ring), 1);
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(io_uring_cqe_get_data64(cqe), 200);
	io_uring_cqe_seen(&ring, cqe);
	/* Again, after another idle period, with submit_and_wait. */
	wait_need_wakeup(&ring, 5000);
	queue_nop(&ring, 201);
	CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
	reap(&ring, 201);
	/* io_uring_sqring_wait returns at once when the SQ has room. */
	CHECK_EQ(io_uring_sqring_wait(&ring), 0);
	io_uring_queue_exit(&ring);

	/*
	 * Part 3: SQ_AFF pins the thread to sq_thread_cpu (last online CPU).
	 * The threads of the rings above exit asynchronously: wait for them.
	 */
	{
		long long end = check_now_ms() + 10000;

		while (sq_thread_cpus(cpus, sizeof(cpus)) && check_now_ms() < end)
			check_sleep_ms(5);
	}
	cpu = (int) sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (cpu < 0)
		cpu = 0;
	ret = sqpoll_ring(&ring, 1000, IORING_SETUP_SQ_AFF, cpu);
	if (ret == -EINVAL || ret == -EPERM) {
		check_note("note: SQ_AFF on cpu %d rejected (%s), part 3 not run", cpu,
			   strerror(-ret));
		return 0;
	}
	CHECK_EQ(ret, 0);
	check_nop_roundtrip(&ring, 8, 300);
	CHECKM(sq_thread_cpus(cpus, sizeof(cpus)) == 1, "not exactly one iou-sqp thread");
	snprintf(want, sizeof(want), "%d", cpu);
	CHECKM(strcmp(cpus, want) == 0, "SQ thread allowed on CPUs '%s', expected '%s'", cpus, want);
	io_uring_queue_exit(&ring);
	return 0;
}
