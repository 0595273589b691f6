/* SPDX-License-Identifier: MIT */
/*
 * Rings across fork(), on a plain ring and on a NO_MMAP ring in application
 * memory.
 *   Without io_uring_ring_dontfork: the child shares the ring memory; it
 *   sees the CQE the parent left in the CQ, marks it seen, submits a NOP of
 *   its own, and the parent then sees both the advanced CQ head and the
 *   child's completion.
 *   With io_uring_ring_dontfork: the ring memory is absent from the child's
 *   /proc/self/maps, and a grandchild that touches the CQ head dies of
 *   SIGSEGV; the parent's ring keeps working.  (On the NO_MMAP ring only the
 *   SQE array is marked, as liburing does: that is what is checked there.)
 */
#include "check.h"

#define APP_BUF_SIZE (1u << 20)

enum { CHILD_OK = 0, CHILD_BAD = 3 };

/* Whether `addr` lies in some mapping of this process. msync() answers
 * ENOMEM for an unmapped page and allocates nothing, unlike reading
 * /proc/self/maps through stdio: musl's stdio buffer is a fresh mmap that
 * can land exactly where the dropped ring was. */
static int mapped(const void *addr)
{
	uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
	void *start = (void *) ((uintptr_t) addr & ~(page - 1));

	if (msync(start, 1, MS_ASYNC) == 0)
		return 1;
	return errno == ENOMEM ? 0 : -1;
}

static int wait_child(pid_t pid)
{
	int st;

	CHECK_EQ(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void init_ring(struct io_uring *ring, int no_mmap, void *buf)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	if (no_mmap) {
		p.flags = IORING_SETUP_NO_MMAP;
		CHECK_OK(io_uring_queue_init_mem(8, ring, &p, buf, APP_BUF_SIZE));
	} else {
		CHECK_OK(io_uring_queue_init_params(8, ring, &p));
	}
}

/* Submit one NOP and wait until its CQE is visible, without consuming it. */
static void leave_cqe(struct io_uring *ring, __u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;

	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, ud);
	CHECK_EQ(io_uring_submit_and_wait(ring, 1), 1);
	CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, ud);
}

static void shared_after_fork(int no_mmap, void *buf)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned head_before;
	pid_t pid;

	init_ring(&ring, no_mmap, buf);
	leave_cqe(&ring, 42);
	head_before = *ring.cq.khead;

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct io_uring_sqe *sqe;

		if (io_uring_peek_cqe(&ring, &cqe) || cqe->user_data != 42)
			_exit(CHILD_BAD);
		io_uring_cqe_seen(&ring, cqe);
		sqe = io_uring_get_sqe(&ring);
		if (!sqe)
			_exit(CHILD_BAD);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 43);
		if (io_uring_submit(&ring) != 1)
			_exit(CHILD_BAD);
		_exit(CHILD_OK);
	}
	CHECK_EQ(wait_child(pid), CHILD_OK);
	/* The child's cqe_seen moved the shared head. */
	CHECK_EQ(*ring.cq.khead, head_before + 1);
	/* The child shares the SQ ring, but not our copy of struct io_uring:
	 * catch up with what it submitted. */
	ring.sq.sqe_head++;
	ring.sq.sqe_tail++;
	CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 43);
	io_uring_cqe_seen(&ring, cqe);
	check_nop_roundtrip(&ring, 4, 100);
	check_note("%s: child saw the parent's CQE and the parent saw the child's",
		   no_mmap ? "no_mmap" : "plain");
	io_uring_queue_exit(&ring);
}

static void absent_after_dontfork(int no_mmap, void *buf)
{
	struct io_uring ring;
	pid_t pid;

	init_ring(&ring, no_mmap, buf);
	leave_cqe(&ring, 7);
	CHECK_EQ(io_uring_ring_dontfork(&ring), 0);
	CHECK_EQ(mapped(ring.cq.khead), 1);
	CHECK_EQ(mapped(ring.sq.sqes), 1);

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pid_t gc;
		int st;

		/* On a NO_MMAP ring from io_uring_queue_init_mem liburing knows
		 * no ring size for the SQ/CQ ring in the application's buffer
		 * and marks only the SQE array; check what is marked. */
		if (mapped(ring.sq.sqes) != 0 ||
		    (!no_mmap && (mapped(ring.cq.khead) != 0 || mapped(ring.sq.khead) != 0))) {
			fprintf(stderr, "child still maps cq.khead %d sq.khead %d sqes %d\n",
				mapped(ring.cq.khead), mapped(ring.sq.khead),
				mapped(ring.sq.sqes));
			_exit(CHILD_BAD);
		}
		gc = fork();
		if (gc < 0)
			_exit(CHILD_BAD);
		if (gc == 0) {
			/* Must fault: the ring is not in this address space. */
			volatile unsigned v = no_mmap ?
				*(volatile unsigned *) ring.sq.sqes :
				*(volatile unsigned *) ring.cq.khead;

			(void) v;
			_exit(CHILD_OK);
		}
		if (waitpid(gc, &st, 0) != gc || !WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			_exit(CHILD_BAD + 1);
		_exit(CHILD_OK);
	}
	CHECK_EQ(wait_child(pid), CHILD_OK);
	{
		struct io_uring_cqe *cqe;

		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->user_data, 7);
		io_uring_cqe_seen(&ring, cqe);
	}
	check_nop_roundtrip(&ring, 4, 200);
	check_note("%s: after dontfork the child has no ring mapping and touching it faults",
		   no_mmap ? "no_mmap" : "plain");
	io_uring_queue_exit(&ring);
}

int main(void)
{
	void *buf = mmap(NULL, APP_BUF_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	/* A raw setup without ring addresses fails with -EFAULT when NO_MMAP is known. */
	int no_mmap_ok = check_setup_flags_supported(8, IORING_SETUP_NO_MMAP) != -EINVAL;

	CHECK(buf != MAP_FAILED);
	shared_after_fork(0, NULL);
	absent_after_dontfork(0, NULL);
	if (no_mmap_ok) {
		/* The application's buffer is MAP_SHARED, so a child shares it
		 * as it shares the kernel's mappings. */
		shared_after_fork(1, buf);
		/*
		 * Measured: on 6.12 the parent then reads a zeroed CQE from
		 * its own buffer, with upstream liburing too; on 6.18 and 7.2
		 * it is kept (the ring memory code was rewritten in 6.13).
		 */
		if (check_kernel_version() >= 6013)
			absent_after_dontfork(1, buf);
		else
			check_note("no_mmap after dontfork: left out before 6.13");
	} else {
		check_note("NO_MMAP not supported: left out");
	}
	munmap(buf, APP_BUF_SIZE);
	return 0;
}
