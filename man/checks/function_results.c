/* SPDX-License-Identifier: MIT */
/*
 * The RETURN VALUE claim of the pages whose functions "return 0 or a
 * non-negative count on success, a negated errno value on failure"
 * (make check-man).
 *
 *   function_results --list      case names with the kernel release each needs
 *   function_results [NAME...]   runs the named cases (all without names)
 *
 * One case per function, named "ret-<function>": the call with valid
 * arguments on a fresh ring must give the count the case expects (0 for a
 * plain success), and the same call on a copy of the ring whose descriptor
 * is -1 must give a negated errno value. Output and kernel-release rule as
 * man/checks/claims.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char why[256];

/* The fixture: a ring with an 8-slot sparse file table, and a pipe whose
 * read end a poll request (user_data 77) may wait on. */
struct fx {
	struct io_uring ring;
	int pipe[2];
	int target_ring_fd;
	int efd;
	void *mem;
	size_t mem_size;
};

/* An 8-slot file table of empty slots: sparse registration (5.19), or on
 * an older kernel 8 entries of -1 (empty slots since 5.5), so that a case
 * stated from an older release than 5.19 gets its table there too. */
static int files8(struct io_uring *r)
{
	int empty[8];

	if (!io_uring_register_files_sparse(r, 8))
		return 0;
	memset(empty, 0xff, sizeof(empty));
	return io_uring_register_files(r, empty, 8);
}

/* Each case: the call on r; on the good ring it must return want. */
typedef int (*call_fn)(struct fx *f, struct io_uring *r);

static int c_queue_init_mem(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	struct io_uring_params p;
	/* The bad copy stands for a call that cannot work: no entries. */
	unsigned entries = r == &f->ring ? 8 : 0;

	memset(&p, 0, sizeof(p));
	int ret = io_uring_queue_init_mem(entries, &ring, &p, f->mem, f->mem_size);

	if (ret >= 0)
		io_uring_queue_exit(&ring);
	/* The count is the bytes of buf used: positive. */
	return ret > 0 ? 0 : ret;
}

static int c_register_buf_ring(struct fx *f, struct io_uring *r)
{
	struct io_uring_buf_reg reg;

	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long)f->mem;
	reg.ring_entries = 4;
	reg.bgid = 1;
	return io_uring_register_buf_ring(r, &reg, 0);
}

static int c_unregister_buf_ring(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && c_register_buf_ring(f, r))
		return -10000;
	return io_uring_unregister_buf_ring(r, 1);
}

static int c_register_buffers_sparse(struct fx *f, struct io_uring *r)
{
	(void)f;
	return io_uring_register_buffers_sparse(r, 4);
}

static struct iovec iov_of(struct fx *f)
{
	struct iovec v = { .iov_base = f->mem, .iov_len = 4096 };

	return v;
}

static int c_register_buffers_tags(struct fx *f, struct io_uring *r)
{
	struct iovec v = iov_of(f);
	__u64 tag = 1;

	return io_uring_register_buffers_tags(r, &v, &tag, 1);
}

static int c_register_buffers_update_tag(struct fx *f, struct io_uring *r)
{
	struct iovec v = iov_of(f);
	__u64 tag = 1;

	if (r == &f->ring && io_uring_register_buffers_sparse(r, 4))
		return -10000;
	return io_uring_register_buffers_update_tag(r, 0, &v, &tag, 1);
}

static int c_unregister_buffers(struct fx *f, struct io_uring *r)
{
	struct iovec v = iov_of(f);

	/* A table the kernels of the claim (5.1) take: one buffer. */
	if (r == &f->ring && io_uring_register_buffers(r, &v, 1))
		return -10000;
	return io_uring_unregister_buffers(r);
}

static int c_register_clock(struct fx *f, struct io_uring *r)
{
	struct io_uring_clock_register c;

	(void)f;
	memset(&c, 0, sizeof(c));
	c.clockid = CLOCK_MONOTONIC;
	return io_uring_register_clock(r, &c);
}

static int c_register_file_alloc_range(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && files8(r))
		return -10000;
	return io_uring_register_file_alloc_range(r, 0, 4);
}

static int c_register_files_sparse(struct fx *f, struct io_uring *r)
{
	(void)f;
	return files8(r);
}

static int c_register_files_tags(struct fx *f, struct io_uring *r)
{
	__u64 tag = 1;

	return io_uring_register_files_tags(r, &f->pipe[0], &tag, 1);
}

static int c_register_files_update(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && files8(r))
		return -10000;
	return io_uring_register_files_update(r, 0, &f->pipe[0], 1);
}

static int c_register_files_update_tag(struct fx *f, struct io_uring *r)
{
	__u64 tag = 1;

	if (r == &f->ring && files8(r))
		return -10000;
	return io_uring_register_files_update_tag(r, 0, &f->pipe[0], &tag, 1);
}

static int c_unregister_files(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && files8(r))
		return -10000;
	return io_uring_unregister_files(r);
}

static int c_register_iowq_aff(struct fx *f, struct io_uring *r)
{
	cpu_set_t set;

	(void)f;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -10000;
	return io_uring_register_iowq_aff(r, sizeof(set), &set);
}

static int c_unregister_iowq_aff(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && c_register_iowq_aff(f, r))
		return -10000;
	return io_uring_unregister_iowq_aff(r);
}

static int c_register_iowq_max_workers(struct fx *f, struct io_uring *r)
{
	unsigned values[2] = { 0, 0 };

	(void)f;
	return io_uring_register_iowq_max_workers(r, values);
}

static int c_register_napi(struct fx *f, struct io_uring *r)
{
	struct io_uring_napi n;

	(void)f;
	memset(&n, 0, sizeof(n));
	n.busy_poll_to = 10;
	return io_uring_register_napi(r, &n);
}

static int c_unregister_napi(struct fx *f, struct io_uring *r)
{
	struct io_uring_napi n;

	if (r == &f->ring && c_register_napi(f, r))
		return -10000;
	memset(&n, 0, sizeof(n));
	return io_uring_unregister_napi(r, &n);
}

static int c_register_probe(struct fx *f, struct io_uring *r)
{
	/* Room for the header and 256 ops (a flexible array member cannot sit
	 * inside a struct in ISO C). */
	static _Alignas(struct io_uring_probe) unsigned char
		probe[sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op)];

	(void)f;
	memset(probe, 0, sizeof(probe));
	return io_uring_register_probe(r, (struct io_uring_probe *)probe, 256);
}

static int c_register_restrictions(struct fx *f, struct io_uring *r)
{
	struct io_uring_restriction res;
	struct io_uring ring;
	int ret;

	(void)f;
	memset(&res, 0, sizeof(res));
	res.opcode = IORING_RESTRICTION_SQE_OP;
	res.sqe_op = IORING_OP_NOP;
	/* Restrictions go on a disabled ring: made here. */
	if (io_uring_queue_init(4, &ring, IORING_SETUP_R_DISABLED))
		return -10000;
	if (r == &f->ring) {
		ret = io_uring_register_restrictions(&ring, &res, 1);
	} else {
		struct io_uring bad = ring;

		bad.ring_fd = bad.enter_ring_fd = -1;
		ret = io_uring_register_restrictions(&bad, &res, 1);
	}
	io_uring_queue_exit(&ring);
	return ret;
}

static int pending_poll(struct fx *f)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&f->ring);

	io_uring_prep_poll_add(sqe, f->pipe[0], POLLIN);
	io_uring_sqe_set_data64(sqe, 77);
	return io_uring_submit(&f->ring) == 1 ? 0 : -1;
}

static int c_register_sync_cancel(struct fx *f, struct io_uring *r)
{
	struct io_uring_sync_cancel_reg reg;

	if (r == &f->ring && pending_poll(f))
		return -10000;
	memset(&reg, 0, sizeof(reg));
	reg.addr = 77;
	reg.timeout.tv_sec = -1;
	reg.timeout.tv_nsec = -1;
	return io_uring_register_sync_cancel(r, &reg);
}

static int c_register_sync_msg(struct fx *f, struct io_uring *r)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_msg_ring(&sqe, r == &f->ring ? f->target_ring_fd : -1, 0, 5, 0);
	return io_uring_register_sync_msg(&sqe);
}

static int c_unregister_ring_fd(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && io_uring_register_ring_fd(r) != 1)
		return -10000;
	return io_uring_unregister_ring_fd(r);
}

static int c_wait_cqes_min_timeout(struct fx *f, struct io_uring *r)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe;

	if (r == &f->ring) {
		io_uring_prep_nop(io_uring_get_sqe(r));
		if (io_uring_submit(r) != 1)
			return -10000;
	}
	return io_uring_wait_cqes_min_timeout(r, &cqe, 1, &ts, 1000, NULL);
}


/* ---- functions with a result of their own ------------------------------ */

/* A NOP queued on r (good or bad copy alike: the SQ memory is shared). */
static void queue_nop(struct io_uring *r)
{
	io_uring_prep_nop(io_uring_get_sqe(r));
}

static int nop_done(struct fx *f)
{
	queue_nop(&f->ring);
	return io_uring_submit(&f->ring) == 1 ? 0 : -1;
}

static int c_submit(struct fx *f, struct io_uring *r)
{
	(void)f;
	queue_nop(r);
	return io_uring_submit(r);
}

static int c_submit_and_get_events(struct fx *f, struct io_uring *r)
{
	(void)f;
	queue_nop(r);
	return io_uring_submit_and_get_events(r);
}

static int c_submit_and_wait(struct fx *f, struct io_uring *r)
{
	(void)f;
	queue_nop(r);
	return io_uring_submit_and_wait(r, 1);
}

static int c_submit_and_wait_timeout(struct fx *f, struct io_uring *r)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe = NULL;

	(void)f;
	queue_nop(r);
	int ret = io_uring_submit_and_wait_timeout(r, &cqe, 1, &ts, NULL);

	return ret == 1 && !cqe ? -10001 : ret;
}

static int c_submit_and_wait_min_timeout(struct fx *f, struct io_uring *r)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe = NULL;

	(void)f;
	queue_nop(r);
	int ret = io_uring_submit_and_wait_min_timeout(r, &cqe, 1, &ts, 1000, NULL);

	return ret == 1 && !cqe ? -10001 : ret;
}

/* A wait that finds a completed NOP on the good ring, and must enter the
 * kernel (nothing ready) on the bad copy. */
static int c_wait_cqe(struct fx *f, struct io_uring *r)
{
	struct io_uring_cqe *cqe = NULL;

	if (r == &f->ring && nop_done(f))
		return -10000;
	int ret = io_uring_wait_cqe(r, &cqe);

	return !ret && !cqe ? -10001 : ret;
}

static int c_wait_cqe_nr(struct fx *f, struct io_uring *r)
{
	struct io_uring_cqe *cqe = NULL;

	if (r == &f->ring && (nop_done(f) || nop_done(f)))
		return -10000;
	int ret = io_uring_wait_cqe_nr(r, &cqe, 2);

	return !ret && !cqe ? -10001 : ret;
}

static int c_wait_cqe_timeout(struct fx *f, struct io_uring *r)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe = NULL;

	if (r == &f->ring && nop_done(f))
		return -10000;
	int ret = io_uring_wait_cqe_timeout(r, &cqe, &ts);

	return !ret && !cqe ? -10001 : ret;
}

static int c_wait_cqes(struct fx *f, struct io_uring *r)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe = NULL;

	if (r == &f->ring && nop_done(f))
		return -10000;
	int ret = io_uring_wait_cqes(r, &cqe, 1, &ts, NULL);

	return !ret && !cqe ? -10001 : ret;
}

static int c_get_cqe(struct fx *f, struct io_uring *r)
{
	struct io_uring_cqe *cqe = NULL;

	if (r == &f->ring && nop_done(f))
		return -10000;
	int ret = __io_uring_get_cqe(r, &cqe, 0, 1, NULL);

	return !ret && !cqe ? -10001 : ret;
}

static int c_peek_cqe(struct fx *f, struct io_uring *r)
{
	struct io_uring_cqe *cqe = NULL;

	if (r != &f->ring)
		return io_uring_peek_cqe(r, &cqe); /* -EAGAIN: nothing there */
	if (nop_done(f))
		return -10000;
	/* The NOP may still be on its way: wait for it first. */
	if (io_uring_wait_cqe(r, &cqe))
		return -10002;
	cqe = NULL;
	int ret = io_uring_peek_cqe(r, &cqe);

	return !ret && !cqe ? -10001 : ret;
}

static int c_get_events(struct fx *f, struct io_uring *r)
{
	(void)f;
	return io_uring_get_events(r);
}

/* Without SQPOLL the wait returns at once; the bad side is an SQPOLL ring
 * whose SQ the program has filled (the library then asks the kernel). */
static int c_sqring_wait(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;

	if (r == &f->ring)
		return io_uring_sqring_wait(r);
	if (io_uring_queue_init(4, &ring, IORING_SETUP_SQPOLL))
		return -10000;
	while (io_uring_get_sqe(&ring))
		;
	struct io_uring bad = ring;

	bad.ring_fd = bad.enter_ring_fd = -1;
	int ret = io_uring_sqring_wait(&bad);

	io_uring_queue_exit(&ring);
	return ret;
}

static int c___sqring_wait(struct fx *f, struct io_uring *r)
{
	(void)f;
	return __io_uring_sqring_wait(r);
}

static int c_enter(struct fx *f, struct io_uring *r)
{
	(void)f;
	return io_uring_enter(r->ring_fd, 0, 0, 0, NULL);
}

static int c_enter2(struct fx *f, struct io_uring *r)
{
	(void)f;
	return io_uring_enter2(r->ring_fd, 0, 0, 0, NULL, 0);
}

/* IORING_REGISTER_PERSONALITY answers with the new id (from 1). */
static int c_register(struct fx *f, struct io_uring *r)
{
	(void)f;
	int ret = io_uring_register(r->ring_fd, IORING_REGISTER_PERSONALITY, NULL, 0);

	return ret >= 1 ? 1 : ret;
}

static int c_register_buffers(struct fx *f, struct io_uring *r)
{
	struct iovec v = iov_of(f);

	return io_uring_register_buffers(r, &v, 1);
}

static int c_register_files(struct fx *f, struct io_uring *r)
{
	return io_uring_register_files(r, &f->pipe[0], 1);
}

static int c_register_eventfd(struct fx *f, struct io_uring *r)
{
	return io_uring_register_eventfd(r, f->efd);
}

static int c_register_eventfd_async(struct fx *f, struct io_uring *r)
{
	return io_uring_register_eventfd_async(r, f->efd);
}

static int c_unregister_eventfd(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && io_uring_register_eventfd(r, f->efd))
		return -10000;
	return io_uring_unregister_eventfd(r);
}

static int c_unregister_personality(struct fx *f, struct io_uring *r)
{
	int id = io_uring_register_personality(&f->ring);

	if (id < 1)
		return -10000;
	return io_uring_unregister_personality(r, id);
}

static int c_enable_rings(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;

	(void)f;
	if (io_uring_queue_init(4, &ring, IORING_SETUP_R_DISABLED))
		return -10000;
	struct io_uring bad = ring;

	bad.ring_fd = bad.enter_ring_fd = -1;
	int ret = io_uring_enable_rings(r == &f->ring ? &ring : &bad);

	io_uring_queue_exit(&ring);
	return ret;
}

/* The source ring of a clone: one registered buffer. */
static int clone_with(struct fx *f, struct io_uring *r, int how)
{
	struct io_uring src;
	struct iovec v = iov_of(f);
	int ret;

	if (io_uring_queue_init(4, &src, 0) || io_uring_register_buffers(&src, &v, 1))
		return -10000;
	switch (how) {
	case 0:
		ret = io_uring_clone_buffers(r, &src);
		break;
	case 1:
		ret = __io_uring_clone_buffers(r, &src, 0);
		break;
	case 2:
		ret = io_uring_clone_buffers_offset(r, &src, 0, 0, 1, 0);
		break;
	default:
		ret = __io_uring_clone_buffers_offset(r, &src, 0, 0, 1, 0);
		break;
	}
	io_uring_queue_exit(&src);
	return ret;
}

static int c_clone_buffers(struct fx *f, struct io_uring *r) { return clone_with(f, r, 0); }
static int c___clone_buffers(struct fx *f, struct io_uring *r) { return clone_with(f, r, 1); }
static int c_clone_buffers_offset(struct fx *f, struct io_uring *r) { return clone_with(f, r, 2); }
static int c___clone_buffers_offset(struct fx *f, struct io_uring *r) { return clone_with(f, r, 3); }

static int c_queue_init(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(r == &f->ring ? 4 : 0, &ring, 0);

	if (!ret)
		io_uring_queue_exit(&ring);
	return ret;
}

static int c_queue_init_params(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	int ret = io_uring_queue_init_params(r == &f->ring ? 4 : 0, &ring, &p);

	if (!ret)
		io_uring_queue_exit(&ring);
	return ret;
}

static int c_queue_mmap(struct fx *f, struct io_uring *r)
{
	struct io_uring_params p;
	struct io_uring ring;

	memset(&p, 0, sizeof(p));
	memset(&ring, 0, sizeof(ring));
	int fd = io_uring_setup(4, &p);

	if (fd < 0)
		return -10000;
	int ret = io_uring_queue_mmap(r == &f->ring ? fd : -1, &p, &ring);

	if (!ret)
		io_uring_queue_exit(&ring);
	else
		close(fd);
	return ret;
}

/* The ring descriptor (normalised to 0); io_uring_setup with 0 entries
 * on the bad side. */
static int c_setup(struct fx *f, struct io_uring *r)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	int fd = io_uring_setup(r == &f->ring ? 4 : 0, &p);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static int c_resize_rings(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (io_uring_queue_init_params(4, &ring, &p))
		return -10000;
	memset(&p, 0, sizeof(p));
	p.sq_entries = 8;
	p.cq_entries = 32;
	p.flags = IORING_SETUP_CQSIZE;
	/* The bad side: a plain ring, which cannot be resized. */
	int ret = io_uring_resize_rings(r == &f->ring ? &ring : r, &p);

	io_uring_queue_exit(&ring);
	return ret;
}

/* The bad side: ring memory that is no longer mapped, which madvise(2)
 * refuses. */
static int c_ring_dontfork(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring)
		return io_uring_ring_dontfork(r);
	void *gone = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (gone == MAP_FAILED)
		return -10000;
	munmap(gone, 65536);
	r->sq.ring_ptr = r->cq.ring_ptr = gone;
	r->sq.sqes = gone;
	return io_uring_ring_dontfork(r);
}

/* The bad side: a ring without IORING_FEAT_NO_IOWAIT. */
static int c_set_iowait(struct fx *f, struct io_uring *r)
{
	if (r != &f->ring)
		r->features &= ~IORING_FEAT_NO_IOWAIT;
	return io_uring_set_iowait(r, false);
}

static int c_buf_ring_head(struct fx *f, struct io_uring *r)
{
	uint16_t head = 9;
	int ret;

	if (r == &f->ring && !io_uring_setup_buf_ring(r, 4, 1, 0, &ret))
		return -10000;
	ret = io_uring_buf_ring_head(r, 1, &head);
	return !ret && head != 0 ? -10001 : ret;
}

static int c_buf_ring_available(struct fx *f, struct io_uring *r)
{
	struct io_uring_buf_ring *br;
	int ret;

	br = io_uring_setup_buf_ring(&f->ring, 4, 1, 0, &ret);
	if (!br)
		return -10000;
	for (int i = 0; i < 3; i++)
		io_uring_buf_ring_add(br, f->mem, 64, i, io_uring_buf_ring_mask(4), i);
	io_uring_buf_ring_advance(br, 3);
	return io_uring_buf_ring_available(r, br, 1);
}

/* A pointer result as 0 (a ring) or -err. */
static int c_setup_buf_ring(struct fx *f, struct io_uring *r)
{
	int err = 0;
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(r, 4, 1, 0, &err);

	(void)f;
	return br ? 0 : (err < 0 ? err : -10001);
}

static int c_free_buf_ring(struct fx *f, struct io_uring *r)
{
	int err;
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(&f->ring, 4, 1, 0, &err);

	if (!br)
		return -10000;
	return io_uring_free_buf_ring(r, br, 4, 1);
}

static int c_get_probe_ring(struct fx *f, struct io_uring *r)
{
	struct io_uring_probe *p = io_uring_get_probe_ring(r);

	(void)f;
	if (!p)
		return -1;
	io_uring_free_probe(p);
	return 0;
}

static int c_cq_eventfd_toggle(struct fx *f, struct io_uring *r)
{
	/* The bad side: no CQ flags word, as before Linux 5.8. */
	if (r != &f->ring)
		r->cq.kflags = NULL;
	return io_uring_cq_eventfd_toggle(r, false);
}

static int c_register_query(struct fx *f, struct io_uring *r)
{
	struct io_uring_query_opcode op;
	struct io_uring_query_hdr hdr;

	(void)f;
	memset(&op, 0, sizeof(op));
	memset(&hdr, 0, sizeof(hdr));
	hdr.query_data = (unsigned long)&op;
	hdr.query_op = IO_URING_QUERY_OPCODES;
	hdr.size = sizeof(op);
	/* The bad side: a header the kernel cannot read. */
	int ret = io_uring_register_query(r == &f->ring ? &hdr : (void *)8);

	if (!ret && (hdr.result || !op.nr_request_opcodes))
		return -10001;
	return ret;
}

/* A wait-argument region, entry 0 a 1 s timeout, on a ring that starts
 * disabled (the kernel takes such a region only then). */
static int c_submit_and_wait_reg(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	struct io_uring_region_desc rd;
	struct io_uring_mem_region_reg mr;
	struct io_uring_reg_wait *rw = f->mem;
	struct io_uring_cqe *cqe = NULL;

	if (io_uring_queue_init(4, &ring, IORING_SETUP_R_DISABLED))
		return -10000;
	memset(&rd, 0, sizeof(rd));
	rd.user_addr = (unsigned long)f->mem;
	rd.size = 4096;
	rd.flags = IORING_MEM_REGION_TYPE_USER;
	memset(&mr, 0, sizeof(mr));
	mr.region_uptr = (unsigned long)&rd;
	mr.flags = IORING_MEM_REGION_REG_WAIT_ARG;
	memset(rw, 0, 4096);
	rw[0].ts.tv_sec = 1;
	rw[0].flags = IORING_REG_WAIT_TS;
	int ret = io_uring_register_region(&ring, &mr);

	if (!ret)
		ret = io_uring_enable_rings(&ring);
	if (ret) {
		io_uring_queue_exit(&ring);
		return -10000 + ret;
	}
	struct io_uring bad = ring;

	bad.ring_fd = bad.enter_ring_fd = -1;
	queue_nop(&ring);
	ret = io_uring_submit_and_wait_reg(r == &f->ring ? &ring : &bad, &cqe, 1, 0);
	io_uring_queue_exit(&ring);
	return ret == 1 && !cqe ? -10001 : ret;
}


/* A classic BPF filter for NOP that allows every request (one instruction:
 * return 1). */
static struct sock_filter allow_all[] = { BPF_STMT(BPF_RET | BPF_K, 1) };

static void nop_filter(struct io_uring_bpf *b)
{
	memset(b, 0, sizeof(*b));
	b->cmd_type = IO_URING_BPF_CMD_FILTER;
	b->filter.opcode = IORING_OP_NOP;
	b->filter.filter_len = 1;
	b->filter.filter_ptr = (unsigned long)allow_all;
}

/* On the copy whose descriptor is -1 the call would be the task-wide
 * registration, which the kernel takes (Linux 7.2 answers 0): the failing
 * side is the good ring with an unknown command type instead. */
static int c_register_bpf_filter(struct fx *f, struct io_uring *r)
{
	struct io_uring_bpf b;

	nop_filter(&b);
	if (r != &f->ring) {
		r = &f->ring;
		b.cmd_type = 99;
	}
	return io_uring_register_bpf_filter(r, &b);
}

/* The task filter binds the calling task for good: done in a child; the
 * bad side asks for an unknown command type. */
static int c_register_bpf_filter_task(struct fx *f, struct io_uring *r)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct io_uring_bpf b;

		nop_filter(&b);
		if (r != &f->ring)
			b.cmd_type = 99;
		int ret = io_uring_register_bpf_filter_task(&b);

		_exit(ret < 0 && ret > -250 ? -ret : ret == 0 ? 0 : 254);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -10000;
	return WEXITSTATUS(st) == 254 ? -10254 : -WEXITSTATUS(st);
}


static int c_close_ring_fd(struct fx *f, struct io_uring *r)
{
	if (r == &f->ring && io_uring_register_ring_fd(r) != 1)
		return -10000;
	return io_uring_close_ring_fd(r);
}

/* A region of the program's memory on a ring that starts disabled. */
static int c_register_region(struct fx *f, struct io_uring *r)
{
	struct io_uring ring;
	struct io_uring_region_desc rd;
	struct io_uring_mem_region_reg mr;

	if (io_uring_queue_init(4, &ring, IORING_SETUP_R_DISABLED))
		return -10000;
	memset(&rd, 0, sizeof(rd));
	rd.user_addr = (unsigned long)f->mem;
	rd.size = 4096;
	rd.flags = IORING_MEM_REGION_TYPE_USER;
	memset(&mr, 0, sizeof(mr));
	mr.region_uptr = (unsigned long)&rd;
	struct io_uring bad = ring;

	bad.ring_fd = bad.enter_ring_fd = -1;
	int ret = io_uring_register_region(r == &f->ring ? &ring : &bad, &mr);

	io_uring_queue_exit(&ring);
	return ret;
}

struct row {
	const char *function;
	int min_major, min_minor;
	int want;	/* on the good ring */
	call_fn call;
};

static const struct row rows[] = {
	{ "io_uring_queue_init_mem", 6, 5, 0, c_queue_init_mem },
	{ "io_uring_register_buf_ring", 5, 19, 0, c_register_buf_ring },
	{ "io_uring_unregister_buf_ring", 5, 19, 0, c_unregister_buf_ring },
	{ "io_uring_register_buffers_sparse", 5, 19, 0, c_register_buffers_sparse },
	{ "io_uring_register_buffers_tags", 5, 13, 0, c_register_buffers_tags },
	{ "io_uring_register_buffers_update_tag", 5, 13, 1, c_register_buffers_update_tag },
	{ "io_uring_unregister_buffers", 5, 1, 0, c_unregister_buffers },
	{ "io_uring_register_clock", 6, 12, 0, c_register_clock },
	{ "io_uring_register_file_alloc_range", 6, 0, 0, c_register_file_alloc_range },
	{ "io_uring_register_files_sparse", 5, 19, 0, c_register_files_sparse },
	{ "io_uring_register_files_tags", 5, 13, 0, c_register_files_tags },
	{ "io_uring_register_files_update", 5, 5, 1, c_register_files_update },
	{ "io_uring_register_files_update_tag", 5, 13, 1, c_register_files_update_tag },
	{ "io_uring_unregister_files", 5, 1, 0, c_unregister_files },
	{ "io_uring_register_iowq_aff", 5, 14, 0, c_register_iowq_aff },
	{ "io_uring_unregister_iowq_aff", 5, 14, 0, c_unregister_iowq_aff },
	{ "io_uring_register_iowq_max_workers", 5, 15, 0, c_register_iowq_max_workers },
	{ "io_uring_register_napi", 6, 9, 0, c_register_napi },
	{ "io_uring_unregister_napi", 6, 9, 0, c_unregister_napi },
	{ "io_uring_register_probe", 5, 6, 0, c_register_probe },
	{ "io_uring_register_restrictions", 5, 10, 0, c_register_restrictions },
	{ "io_uring_register_sync_cancel", 6, 0, 0, c_register_sync_cancel },
	{ "io_uring_register_sync_msg", 6, 13, 0, c_register_sync_msg },
	{ "io_uring_unregister_ring_fd", 5, 18, 1, c_unregister_ring_fd },
	{ "io_uring_wait_cqes_min_timeout", 6, 12, 0, c_wait_cqes_min_timeout },
	{ "io_uring_submit", 5, 1, 1, c_submit },
	{ "io_uring_submit_and_get_events", 6, 3, 1, c_submit_and_get_events },
	{ "io_uring_submit_and_wait", 5, 1, 1, c_submit_and_wait },
	{ "io_uring_submit_and_wait_timeout", 5, 11, 1, c_submit_and_wait_timeout },
	{ "io_uring_submit_and_wait_min_timeout", 6, 12, 1, c_submit_and_wait_min_timeout },
	{ "io_uring_submit_and_wait_reg", 6, 13, 1, c_submit_and_wait_reg },
	{ "io_uring_wait_cqe", 5, 1, 0, c_wait_cqe },
	{ "io_uring_wait_cqe_nr", 5, 1, 0, c_wait_cqe_nr },
	{ "io_uring_wait_cqe_timeout", 5, 11, 0, c_wait_cqe_timeout },
	{ "io_uring_wait_cqes", 5, 11, 0, c_wait_cqes },
	{ "__io_uring_get_cqe", 5, 1, 0, c_get_cqe },
	{ "io_uring_peek_cqe", 5, 1, 0, c_peek_cqe },
	{ "io_uring_get_events", 6, 3, 0, c_get_events },
	{ "io_uring_enter", 5, 1, 0, c_enter },
	{ "io_uring_enter2", 5, 1, 0, c_enter2 },
	{ "io_uring_register", 5, 6, 1, c_register },
	{ "io_uring_register_buffers", 5, 1, 0, c_register_buffers },
	{ "io_uring_register_files", 5, 1, 0, c_register_files },
	{ "io_uring_register_eventfd", 5, 2, 0, c_register_eventfd },
	{ "io_uring_register_eventfd_async", 5, 6, 0, c_register_eventfd_async },
	{ "io_uring_unregister_eventfd", 5, 2, 0, c_unregister_eventfd },
	{ "io_uring_unregister_personality", 5, 6, 0, c_unregister_personality },
	{ "io_uring_enable_rings", 5, 10, 0, c_enable_rings },
	{ "io_uring_clone_buffers", 6, 12, 0, c_clone_buffers },
	{ "__io_uring_clone_buffers", 6, 12, 0, c___clone_buffers },
	{ "io_uring_clone_buffers_offset", 6, 13, 0, c_clone_buffers_offset },
	{ "__io_uring_clone_buffers_offset", 6, 13, 0, c___clone_buffers_offset },
	{ "io_uring_queue_init", 5, 1, 0, c_queue_init },
	{ "io_uring_queue_init_params", 5, 1, 0, c_queue_init_params },
	{ "io_uring_queue_mmap", 5, 1, 0, c_queue_mmap },
	{ "io_uring_setup", 5, 1, 0, c_setup },
	{ "io_uring_resize_rings", 6, 13, 0, c_resize_rings },
	{ "io_uring_ring_dontfork", 5, 1, 0, c_ring_dontfork },
	{ "io_uring_set_iowait", 6, 15, 0, c_set_iowait },
	{ "io_uring_buf_ring_head", 6, 8, 0, c_buf_ring_head },
	{ "io_uring_buf_ring_available", 6, 8, 3, c_buf_ring_available },
	{ "io_uring_setup_buf_ring", 5, 19, 0, c_setup_buf_ring },
	{ "io_uring_free_buf_ring", 5, 19, 0, c_free_buf_ring },
	{ "io_uring_get_probe_ring", 5, 6, 0, c_get_probe_ring },
	{ "io_uring_cq_eventfd_toggle", 5, 8, 0, c_cq_eventfd_toggle },
	{ "io_uring_register_query", 6, 18, 0, c_register_query },
	{ "io_uring_sqring_wait", 5, 1, 0, c_sqring_wait },
	{ "__io_uring_sqring_wait", 5, 1, 0, c___sqring_wait },
	{ "io_uring_close_ring_fd", 6, 4, 1, c_close_ring_fd },
	{ "io_uring_register_region", 6, 13, 0, c_register_region },
	{ "io_uring_register_bpf_filter", 7, 0, 0, c_register_bpf_filter },
	{ "io_uring_register_bpf_filter_task", 7, 0, 0, c_register_bpf_filter_task },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))


/* ---- results that need no failing twin: each check returns 0 when the
 * page's statement held, else 1 with why set ---------------------------- */

static int bad(const char *fmt, long a, long b)
{
	snprintf(why, sizeof(why), fmt, a, b);
	return 1;
}

/* Constants usable in #if. */
static int k_version_macros(void)
{
#if IO_URING_VERSION_MAJOR != 2 || IO_URING_VERSION_MINOR != 15
	return bad("IO_URING_VERSION_MAJOR.MINOR %ld.%ld, wanted 2.15", IO_URING_VERSION_MAJOR,
		   IO_URING_VERSION_MINOR);
#else
	return 0;
#endif
}

static int k_check_version_macro(void)
{
#if IO_URING_CHECK_VERSION(2, 15) || !IO_URING_CHECK_VERSION(2, 16)
	return bad("IO_URING_CHECK_VERSION(2, 15) true or (2, 16) false%ld%ld", 0, 0);
#else
	return 0;
#endif
}

static int k_major_version(void)
{
	return io_uring_major_version() == 2 ? 0 :
	       bad("io_uring_major_version() %ld, wanted %ld", io_uring_major_version(), 2);
}

static int k_minor_version(void)
{
	return io_uring_minor_version() == 15 ? 0 :
	       bad("io_uring_minor_version() %ld, wanted %ld", io_uring_minor_version(), 15);
}

/* A byte count for a ring the kernel takes, a negated errno value for
 * 100000 entries without IORING_SETUP_CLAMP (more than it takes). */
static int k_memory_size(void)
{
	long ok = io_uring_memory_size(8, 0), no = io_uring_memory_size(100000, 0);

	return ok > 0 && no < 0 && no > -4096 ? 0 : bad("sizes %ld and %ld", ok, no);
}

static int k_memory_size_params(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	long ok = io_uring_memory_size_params(8, &p);

	memset(&p, 0, sizeof(p));
	long no = io_uring_memory_size_params(100000, &p);

	return ok > 0 && no < 0 && no > -4096 ? 0 : bad("sizes %ld and %ld", ok, no);
}

/* Since Linux 5.12 the kernel charges ring memory to the memory cgroup,
 * not to RLIMIT_MEMLOCK: 0. */
static int k_mlock_size(void)
{
	long ok = io_uring_mlock_size(8, 0), no = io_uring_mlock_size(100000, 0);

	return ok == 0 && no < 0 && no > -4096 ? 0 : bad("sizes %ld and %ld", ok, no);
}

static int k_mlock_size_params(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	long ok = io_uring_mlock_size_params(8, &p);

	memset(&p, 0, sizeof(p));
	long no = io_uring_mlock_size_params(100000, &p);

	return ok == 0 && no < 0 && no > -4096 ? 0 : bad("sizes %ld and %ld", ok, no);
}

static int k_get_probe(void)
{
	struct io_uring_probe *p = io_uring_get_probe();

	if (!p)
		return bad("io_uring_get_probe() NULL%ld%ld", 0, 0);
	int nop = io_uring_opcode_supported(p, IORING_OP_NOP);
	int none = io_uring_opcode_supported(p, 250);

	io_uring_free_probe(p);
	return nop && !none ? 0 : bad("opcode_supported: NOP %ld, opcode 250 %ld", nop, none);
}

/* 4 entries: four SQEs, then NULL until a submit. */
static int k_get_sqe(void)
{
	struct io_uring ring;
	int n = 0;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	while (n < 10 && io_uring_get_sqe(&ring))
		n++;
	int after = io_uring_submit(&ring);
	int again = io_uring_get_sqe(&ring) != NULL;

	io_uring_queue_exit(&ring);
	return n == 4 && after == 4 && again ? 0 : bad("%ld SQEs before NULL, submit %ld", n, after);
}

/* A 128-byte SQE on an IORING_SETUP_SQE128 ring, NULL on a plain one. */
static int k_get_sqe128(void)
{
	struct io_uring big, plain;

	if (io_uring_queue_init(4, &big, IORING_SETUP_SQE128))
		return bad("queue_init SQE128%ld%ld", 0, 0);
	if (io_uring_queue_init(4, &plain, 0))
		return bad("queue_init%ld%ld", 0, 0);
	struct io_uring_sqe *a = io_uring_get_sqe128(&big), *b = io_uring_get_sqe128(&big);
	long step = (char *)b - (char *)a;
	int none = io_uring_get_sqe128(&plain) == NULL;

	io_uring_queue_exit(&big);
	io_uring_queue_exit(&plain);
	return a && step == 128 && none ? 0 : bad("SQE step %ld bytes, plain ring NULL %ld", step,
						   none);
}

static int k_sq_ready(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	queue_nop(&ring);
	queue_nop(&ring);
	unsigned before = io_uring_sq_ready(&ring);

	io_uring_submit(&ring);
	unsigned after = io_uring_sq_ready(&ring);

	io_uring_queue_exit(&ring);
	return before == 2 && after == 0 ? 0 : bad("sq_ready %ld before submit, %ld after",
						     before, after);
}

/* Three NOPs completed: the CQEs a loop or iterator sees, oldest first. */
static int three_done(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;

	if (io_uring_queue_init(8, ring, 0))
		return -1;
	for (int i = 0; i < 3; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 100 + i);
	}
	return io_uring_submit_and_wait(ring, 3) == 3 && !io_uring_peek_cqe(ring, &cqe) ? 0 : -1;
}

static int k_for_each_cqe(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0, order = 1;

	if (three_done(&ring))
		return bad("three NOPs%ld%ld", 0, 0);
	io_uring_for_each_cqe(&ring, head, cqe) {
		order &= cqe->user_data == 100 + n;
		n++;
	}
	io_uring_queue_exit(&ring);
	return n == 3 && order ? 0 : bad("loop ran %ld times, in order %ld", n, order);
}

static int k_cqe_iter(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned n = 0, order = 1;

	if (three_done(&ring))
		return bad("three NOPs%ld%ld", 0, 0);
	struct io_uring_cqe_iter it = io_uring_cqe_iter_init(&ring);

	while (io_uring_cqe_iter_next(&it, &cqe)) {
		order &= cqe->user_data == 100 + n;
		n++;
	}
	io_uring_queue_exit(&ring);
	return n == 3 && order ? 0 : bad("iterator gave %ld CQEs, in order %ld", n, order);
}

static int k_cqe_get_data(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	static int x;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data(sqe, &x);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 0x1234567890ULL);
	int ok = io_uring_submit_and_wait(&ring, 2) == 2;

	for (int i = 0; ok && i < 2; i++) {
		ok = !io_uring_peek_cqe(&ring, &cqe);
		if (ok && i == 0)
			ok = io_uring_cqe_get_data(cqe) == &x;
		else if (ok)
			ok = io_uring_cqe_get_data64(cqe) == 0x1234567890ULL;
		if (ok)
			io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return ok ? 0 : bad("user_data did not come back%ld%ld", 0, 0);
}

static int k_cqe_nr(void)
{
	struct io_uring_cqe c[2];

	memset(c, 0, sizeof(c));
	unsigned small = io_uring_cqe_nr(&c[0]);

	c[0].flags = IORING_CQE_F_32;
	unsigned big = io_uring_cqe_nr(&c[0]);

	return small == 1 && big == 2 ? 0 : bad("cqe_nr %ld plain, %ld with F_32", small, big);
}

static int k_buf_ring_mask(void)
{
	return io_uring_buf_ring_mask(8) == 7 ? 0 : bad("mask of 8: %ld%ld", io_uring_buf_ring_mask(8), 0);
}

static int k_smp_load_acquire(void)
{
	unsigned v = 5;
	unsigned a = io_uring_smp_load_acquire(&v);
	unsigned b = IO_URING_READ_ONCE(v);

	return a == 5 && b == 5 ? 0 : bad("loads gave %ld and %ld", a, b);
}

static int k_cq_eventfd_enabled(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	int on = io_uring_cq_eventfd_enabled(&ring);

	io_uring_cq_eventfd_toggle(&ring, false);
	int off = io_uring_cq_eventfd_enabled(&ring);

	io_uring_queue_exit(&ring);
	return on && !off ? 0 : bad("enabled %ld, after toggling off %ld", on, off);
}

/* More completions than the CQ ring holds: the kernel sets
 * IORING_SQ_CQ_OVERFLOW. */
static int k_cq_has_overflow(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	int before = io_uring_cq_has_overflow(&ring);

	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 4; j++)
			queue_nop(&ring);
		io_uring_submit(&ring);
	}
	int after = io_uring_cq_has_overflow(&ring);

	io_uring_queue_exit(&ring);
	return !before && after ? 0 : bad("overflow flag %ld before, %ld after 12 NOPs", before,
					   after);
}

/* With nothing ready: 0 and NULL. On a ring without IORING_FEAT_EXT_ARG
 * (kernels before 5.11; here the feature bit is cleared in the ring
 * structure, which is what the library reads) a CQE with user_data
 * LIBURING_UDATA_TIMEOUT is an internal timeout's: its negative res,
 * injected with IORING_NOP_INJECT_RESULT, is what the call returns. */
static int k___peek_cqe(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe = (void *)1;
	unsigned avail;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	ring.features &= ~IORING_FEAT_EXT_ARG;
	int empty = __io_uring_peek_cqe(&ring, &cqe, &avail);
	int was_null = cqe == NULL;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_nop(sqe);
	sqe->nop_flags = IORING_NOP_INJECT_RESULT;
	sqe->len = (unsigned)-ETIME;
	io_uring_sqe_set_data64(sqe, LIBURING_UDATA_TIMEOUT);
	queue_nop(&ring);
	io_uring_submit_and_wait(&ring, 2);
	int timeout_err = __io_uring_peek_cqe(&ring, &cqe, &avail);
	int next = __io_uring_peek_cqe(&ring, &cqe, &avail);
	int got = next == 0 && cqe && cqe->user_data == 0;

	io_uring_queue_exit(&ring);
	if (empty || !was_null)
		return bad("empty ring: %ld, cqe NULL %ld", empty, was_null);
	return timeout_err == -ETIME && got ? 0 : bad("timeout CQE gave %ld, then CQE %ld",
						       timeout_err, got);
}

/* A buffer as a multishot recvmsg fills it: the header, the name, the
 * control data, the payload. */
static int k_recvmsg_out(void)
{
	static char buf[256];
	struct msghdr msg;
	struct io_uring_recvmsg_out *o = (void *)buf;
	size_t hdr = sizeof(*o), name = 16, control = CMSG_SPACE(sizeof(int)), payload = 10;
	size_t len = hdr + name + control + payload;

	memset(&msg, 0, sizeof(msg));
	memset(buf, 0, sizeof(buf));
	msg.msg_namelen = name;
	msg.msg_controllen = control;
	o->namelen = name;
	o->controllen = control;
	o->payloadlen = payload;
	struct cmsghdr *c = (void *)(buf + hdr + name);

	c->cmsg_len = CMSG_LEN(sizeof(int));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	if (io_uring_recvmsg_validate(buf, len, &msg) != o)
		return bad("validate did not give the buffer%ld%ld", 0, 0);
	if (io_uring_recvmsg_validate(buf, hdr - 1, &msg) != NULL)
		return bad("validate of a short buffer is not NULL%ld%ld", 0, 0);
	if ((char *)io_uring_recvmsg_name(o) != buf + hdr)
		return bad("name at %ld, wanted %ld", (char *)io_uring_recvmsg_name(o) - buf, hdr);
	char *pl = io_uring_recvmsg_payload(o, &msg);

	if (pl != buf + hdr + name + control)
		return bad("payload at %ld, wanted %ld", pl - buf, hdr + name + control);
	unsigned plen = io_uring_recvmsg_payload_length(o, len, &msg);

	if (plen != payload)
		return bad("payload length %ld, wanted %ld", plen, payload);
	struct cmsghdr *first = io_uring_recvmsg_cmsg_firsthdr(o, &msg);

	if (first != c)
		return bad("first cmsg at %ld, wanted %ld", first ? (char *)first - buf : -1,
			   (char *)c - buf);
	if (io_uring_recvmsg_cmsg_nexthdr(o, &msg, first) != NULL)
		return bad("a second cmsg after the only one%ld%ld", 0, 0);
	o->controllen = 0;
	if (io_uring_recvmsg_cmsg_firsthdr(o, &msg) != NULL)
		return bad("first cmsg without control data is not NULL%ld%ld", 0, 0);
	return 0;
}

static int k_register_wait_reg(void)
{
	struct io_uring ring;
	struct io_uring_reg_wait rw;

	if (io_uring_queue_init(4, &ring, 0))
		return bad("queue_init%ld%ld", 0, 0);
	memset(&rw, 0, sizeof(rw));
	int ret = io_uring_register_wait_reg(&ring, &rw, 1);

	io_uring_queue_exit(&ring);
	return ret == -EINVAL ? 0 : bad("got %ld, wanted %ld", ret, -EINVAL);
}


static int in_child(int (*fn)(void));
static int ring_under_no_memlock(void);

/* io_uring_mlock_size.3: some kernels charge ring memory to RLIMIT_MEMLOCK
 * for a caller without CAP_IPC_LOCK (under a limit of 0 a ring cannot be
 * made: -ENOMEM; measured on a 6.18 kernel), others do not (Debian's 6.1,
 * 6.12, 7.2: the ring is made), while io_uring_mlock_size() says 0 on all
 * of them. Which a kernel does is not known from its release, so either
 * answer holds; any other fails. */
static int k_rings_charged_to_memlock(void)
{
	int none = in_child(ring_under_no_memlock);
	long said = io_uring_mlock_size(1024, 0);

	if (none != -ENOMEM && none != 0)
		return bad("a ring under a locked-memory limit of 0: %ld, wanted 0 or %ld", none,
			   -ENOMEM);
	return said == 0 ? 0 : bad("io_uring_mlock_size(1024) %ld, wanted %ld", said, 0);
}

struct plain_row {
	const char *name;
	int min_major, min_minor;
	int (*check)(void);
};

static const struct plain_row plain_rows[] = {
	{ "ret-IO_URING_VERSION_MAJOR", 5, 1, k_version_macros },
	{ "ret-IO_URING_VERSION_MINOR", 5, 1, k_version_macros },
	{ "ret-IO_URING_CHECK_VERSION", 5, 1, k_check_version_macro },
	{ "ret-io_uring_major_version", 5, 1, k_major_version },
	{ "ret-io_uring_minor_version", 5, 1, k_minor_version },
	{ "ret-io_uring_memory_size", 5, 1, k_memory_size },
	{ "ret-io_uring_memory_size_params", 5, 1, k_memory_size_params },
	{ "ret-io_uring_mlock_size", 5, 12, k_mlock_size },
	{ "ret-io_uring_mlock_size_params", 5, 12, k_mlock_size_params },
	{ "ret-io_uring_get_probe", 5, 6, k_get_probe },
	{ "ret-io_uring_opcode_supported", 5, 6, k_get_probe },
	{ "ret-io_uring_get_sqe", 5, 1, k_get_sqe },
	{ "ret-io_uring_get_sqe128", 5, 19, k_get_sqe128 },
	{ "ret-io_uring_sq_ready", 5, 1, k_sq_ready },
	{ "ret-io_uring_for_each_cqe", 5, 1, k_for_each_cqe },
	{ "ret-io_uring_cqe_iter_init", 5, 1, k_cqe_iter },
	{ "ret-io_uring_cqe_iter_next", 5, 1, k_cqe_iter },
	{ "ret-io_uring_cqe_get_data", 5, 1, k_cqe_get_data },
	{ "ret-io_uring_cqe_get_data64", 5, 1, k_cqe_get_data },
	{ "ret-io_uring_cqe_nr", 5, 1, k_cqe_nr },
	{ "ret-io_uring_buf_ring_mask", 5, 1, k_buf_ring_mask },
	{ "ret-io_uring_smp_load_acquire", 5, 1, k_smp_load_acquire },
	{ "ret-io_uring_cq_eventfd_enabled", 5, 8, k_cq_eventfd_enabled },
	{ "ret-io_uring_cq_has_overflow", 5, 5, k_cq_has_overflow },
	{ "ret-__io_uring_peek_cqe", 6, 10, k___peek_cqe },
	{ "ret-io_uring_recvmsg_validate", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_recvmsg_name", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_recvmsg_payload", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_recvmsg_payload_length", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_recvmsg_cmsg_firsthdr", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_recvmsg_cmsg_nexthdr", 5, 1, k_recvmsg_out },
	{ "ret-io_uring_register_wait_reg", 5, 1, k_register_wait_reg },
	{ "rings-charged-to-memlock", 5, 12, k_rings_charged_to_memlock },
};

#define NPLAIN (sizeof(plain_rows) / sizeof(plain_rows[0]))


/* ---- ERRORS entries: each function returns what the call gave; the table
 * says which negated errno the page promises ---------------------------- */

static void on_alarm(int sig)
{
	(void)sig;
}

/* SIGALRM every 20 ms, without SA_RESTART, until stopped: a wait that
 * starts late is still interrupted. */
static void signals_start(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	ualarm(20000, 20000);
}

static void signals_stop(void)
{
	ualarm(0, 0);
}

static int plain_ring(struct io_uring *r, unsigned flags)
{
	return io_uring_queue_init(4, r, flags);
}

/* A legacy provided-buffer group 3 (IORING_OP_PROVIDE_BUFFERS) and no
 * group 9. */
static int legacy_group(struct io_uring *r, void *mem)
{
	struct io_uring_cqe *cqe;

	if (plain_ring(r, 0))
		return -1;
	io_uring_prep_provide_buffers(io_uring_get_sqe(r), mem, 64, 2, 3, 0);
	if (io_uring_submit_and_wait(r, 1) != 1 || io_uring_peek_cqe(r, &cqe) || cqe->res)
		return -1;
	io_uring_cqe_seen(r, cqe);
	return 0;
}

static char mem64k[65536] __attribute__((aligned(4096)));

static int e_buf_ring_head(int legacy)
{
	struct io_uring r;
	uint16_t head;

	if (legacy_group(&r, mem64k))
		return -10000;
	int ret = io_uring_buf_ring_head(&r, legacy ? 3 : 9, &head);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_buf_ring_head_einval(void) { return e_buf_ring_head(1); }
static int e_buf_ring_head_enoent(void) { return e_buf_ring_head(0); }

static int e_buf_ring_available(int legacy)
{
	struct io_uring r;
	struct io_uring_buf_ring *br = (void *)mem64k;

	if (legacy_group(&r, mem64k + 4096))
		return -10000;
	int ret = io_uring_buf_ring_available(&r, br, legacy ? 3 : 9);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_buf_ring_available_einval(void) { return e_buf_ring_available(1); }
static int e_buf_ring_available_enoent(void) { return e_buf_ring_available(0); }

static int e_clone(int dst_has)
{
	struct io_uring src, dst;
	struct iovec v = { mem64k, 4096 };
	int ret = -10000;

	if (plain_ring(&src, 0) || plain_ring(&dst, 0))
		return -10000;
	if ((dst_has && (io_uring_register_buffers(&src, &v, 1) ||
			 io_uring_register_buffers(&dst, &v, 1))))
		goto out;
	ret = io_uring_clone_buffers(&dst, &src);
out:
	io_uring_queue_exit(&src);
	io_uring_queue_exit(&dst);
	return ret;
}

static int e_clone_ebusy(void) { return e_clone(1); }
static int e_clone_enxio(void) { return e_clone(0); }

static int e_close_ring_fd(int feature)
{
	struct io_uring r;

	if (plain_ring(&r, 0))
		return -10000;
	/* A kernel without the feature: the bit cleared where the library
	 * reads it. */
	if (!feature)
		r.features &= ~IORING_FEAT_REG_REG_RING;
	int ret = io_uring_close_ring_fd(&r);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_close_ring_fd_einval(void) { return e_close_ring_fd(1); }
static int e_close_ring_fd_eopnotsupp(void) { return e_close_ring_fd(0); }

/* A kernel without the CQ flags word (before 5.8): the pointer cleared
 * where the library reads it. */
static int e_cq_eventfd_toggle(void)
{
	struct io_uring r;

	if (plain_ring(&r, 0))
		return -10000;
	r.cq.kflags = NULL;
	int ret = io_uring_cq_eventfd_toggle(&r, false);

	r.cq.kflags = (void *)1;
	io_uring_queue_exit(&r);
	return ret;
}

static int e_enable_rings(void)
{
	struct io_uring r;

	if (plain_ring(&r, 0))
		return -10000;
	int ret = io_uring_enable_rings(&r);

	io_uring_queue_exit(&r);
	return ret;
}

/* The call in another thread than the ring's owner. */
struct other {
	struct io_uring *r;
	int (*fn)(struct io_uring *);
	int ret;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;

	o->ret = o->fn(o->r);
	return NULL;
}

static int submit_one(struct io_uring *r)
{
	queue_nop(r);
	return io_uring_submit(r);
}

static int in_other_thread(unsigned flags, int (*fn)(struct io_uring *))
{
	struct io_uring r;
	struct io_uring_params p;
	pthread_t t;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (io_uring_queue_init_params(4, &r, &p))
		return -10000;
	/* The owner is the thread that submits first. */
	if (submit_one(&r) != 1)
		return -10000;
	struct other o = { &r, fn, 0 };

	pthread_create(&t, NULL, other_thread, &o);
	pthread_join(t, NULL);
	io_uring_queue_exit(&r);
	return o.ret;
}

static int e_get_events_eexist(void)
{
	return in_other_thread(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
			       io_uring_get_events);
}

static int e_submit_eexist(void)
{
	return in_other_thread(IORING_SETUP_SINGLE_ISSUER, submit_one);
}

static int e_queue_init_params_einval(void)
{
	struct io_uring r;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	return io_uring_queue_init_params(0, &r, &p);
}

static int e_register_eventfd_async(int twice)
{
	struct io_uring r;
	int efd = eventfd(0, 0), pfd[2];

	if (efd < 0 || pipe(pfd) || plain_ring(&r, 0))
		return -10000;
	int ret = twice ? io_uring_register_eventfd_async(&r, efd) : 0;

	if (!ret)
		ret = io_uring_register_eventfd_async(&r, twice ? efd : pfd[0]);
	io_uring_queue_exit(&r);
	close(efd);
	close(pfd[0]);
	close(pfd[1]);
	return ret;
}

static int e_register_eventfd_async_ebusy(void) { return e_register_eventfd_async(1); }
static int e_register_eventfd_async_einval(void) { return e_register_eventfd_async(0); }

/* In a child whose descriptor limit (soft and hard) is 64: 100 files. */
static int e_register_files_emfile(void)
{
	int fds[100], st, ret;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { 64, 64 };
		struct io_uring r;

		for (int i = 0; i < 100; i++)
			fds[i] = -1;
		if (setrlimit(RLIMIT_NOFILE, &rl) || plain_ring(&r, 0))
			_exit(255);
		ret = io_uring_register_files(&r, fds, 100);
		_exit(ret < 0 && ret > -255 ? -ret : 254);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -10000;
	return WEXITSTATUS(st) >= 254 ? -10000 - WEXITSTATUS(st) : -WEXITSTATUS(st);
}

/* Personality ids are 16 bits: 65535 registrations fill them. */
static int e_register_personality_ebusy(void)
{
	struct io_uring r;
	int ret = 0;

	if (plain_ring(&r, 0))
		return -10000;
	for (int i = 0; i < 70000 && ret >= 0; i++)
		ret = io_uring_register_personality(&r);
	io_uring_queue_exit(&r);
	return ret;
}

static int e_unregister_personality_einval(void)
{
	struct io_uring r;

	if (plain_ring(&r, 0))
		return -10000;
	int ret = io_uring_unregister_personality(&r, 4321);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_unregister_eventfd_enxio(void)
{
	struct io_uring r;

	if (plain_ring(&r, 0))
		return -10000;
	int ret = io_uring_unregister_eventfd(&r);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_register_query(int bad_resv)
{
	struct io_uring_query_opcode op;
	struct io_uring_query_hdr hdr;

	memset(&op, 0, sizeof(op));
	memset(&hdr, 0, sizeof(hdr));
	hdr.query_data = bad_resv ? (unsigned long)&op : 8;
	hdr.query_op = IO_URING_QUERY_OPCODES;
	hdr.size = sizeof(op);
	hdr.__resv[0] = bad_resv;
	int ret = io_uring_register_query(&hdr);

	/* The kernel may answer a query in the header's result instead. */
	return ret ? ret : hdr.result;
}

static int e_register_query_einval(void) { return e_register_query(1); }
static int e_register_query_efault(void) { return e_register_query(0); }

static int e_resize(int pending)
{
	struct io_uring r;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = pending ? IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN : 0;
	if (io_uring_queue_init_params(8, &r, &p))
		return -10000;
	/* Completions waiting: 6, for a new CQ ring of 2. */
	for (int i = 0; pending && i < 6; i++)
		queue_nop(&r);
	if (pending && io_uring_submit_and_wait(&r, 6) != 6)
		return -10000;
	memset(&p, 0, sizeof(p));
	p.sq_entries = 2;
	p.cq_entries = 2;
	p.flags = IORING_SETUP_CQSIZE;
	int ret = io_uring_resize_rings(&r, &p);

	io_uring_queue_exit(&r);
	return ret;
}

static int e_resize_einval(void) { return e_resize(0); }
static int e_resize_eoverflow(void) { return e_resize(1); }

static int e_setup_buf_ring_einval(void)
{
	struct io_uring r;
	int err = 0;

	if (plain_ring(&r, 0))
		return -10000;
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(&r, 3, 1, 0, &err);

	io_uring_queue_exit(&r);
	return br ? 0 : err;
}

/* A kernel without IORING_FEAT_MIN_TIMEOUT: the bit cleared where the
 * library reads it. */
static int e_min_timeout_einval(void)
{
	struct io_uring r;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = { .tv_sec = 1 };

	if (plain_ring(&r, 0))
		return -10000;
	r.features &= ~IORING_FEAT_MIN_TIMEOUT;
	int ret = io_uring_submit_and_wait_min_timeout(&r, &cqe, 1, &ts, 1000, NULL);

	io_uring_queue_exit(&r);
	return ret;
}

/* What a wait gives with nothing to complete: ms_timeout -1 waits without
 * a timeout (interrupted by the repeating signal). */
enum wait_kind { W_SUBMIT_AND_WAIT, W_MIN_TIMEOUT, W_WAIT_TIMEOUT, W_CQE_NR, W_CQES };

static int empty_wait(enum wait_kind k, long ms, int signals)
{
	struct io_uring r;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };
	int ret;

	if (plain_ring(&r, 0))
		return -10000;
	if (signals)
		signals_start();
	switch (k) {
	case W_SUBMIT_AND_WAIT:
		ret = io_uring_submit_and_wait(&r, 1);
		break;
	case W_MIN_TIMEOUT:
		ret = io_uring_submit_and_wait_min_timeout(&r, &cqe, 1, &ts, 1000, NULL);
		break;
	case W_WAIT_TIMEOUT:
		ret = io_uring_submit_and_wait_timeout(&r, &cqe, 1, &ts, NULL);
		break;
	case W_CQE_NR:
		ret = io_uring_wait_cqe_nr(&r, &cqe, 2);
		break;
	default:
		ret = io_uring_wait_cqes(&r, &cqe, 1, &ts, NULL);
		break;
	}
	signals_stop();
	io_uring_queue_exit(&r);
	return ret;
}

static int e_submit_and_wait_eintr(void) { return empty_wait(W_SUBMIT_AND_WAIT, 0, 1); }
static int e_min_timeout_etime(void) { return empty_wait(W_MIN_TIMEOUT, 20, 0); }
static int e_min_timeout_eintr(void) { return empty_wait(W_MIN_TIMEOUT, 5000, 1); }
static int e_wait_timeout_eintr(void) { return empty_wait(W_WAIT_TIMEOUT, 5000, 1); }
static int e_wait_cqe_nr_eintr(void) { return empty_wait(W_CQE_NR, 0, 1); }
static int e_wait_cqes_etime(void) { return empty_wait(W_CQES, 20, 0); }
static int e_wait_cqes_eintr(void) { return empty_wait(W_CQES, 5000, 1); }


#define NOT_HERE_RES (-30000)
static const char *not_here_why = "";

/* Whether the effective capabilities hold CAP_NET_ADMIN (capget(2)). */
static int has_net_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	return !syscall(SYS_capget, &h, d) && (d[0].effective & (1U << CAP_NET_ADMIN));
}

/* A plain ring: neither IORING_SETUP_DEFER_TASKRUN nor 32-byte CQEs. The
 * kernel asks for CAP_NET_ADMIN first. */
static int e_register_ifq_einval(void)
{
	struct io_uring r;
	struct io_uring_zcrx_ifq_reg reg;

	if (!has_net_admin()) {
		not_here_why = "the caller lacks CAP_NET_ADMIN, which the kernel asks for first";
		return NOT_HERE_RES;
	}
	if (plain_ring(&r, 0))
		return -10000;
	memset(&reg, 0, sizeof(reg));
	int ret = io_uring_register_ifq(&r, &reg);

	io_uring_queue_exit(&r);
	return ret;
}

/* In a child without CAP_NET_ADMIN in its effective set (dropped with
 * capset(2) when the checks run as root). */
static int e_register_ifq_eperm(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		struct io_uring_zcrx_ifq_reg reg;
		struct io_uring r;

		if (syscall(SYS_capget, &h, d))
			_exit(255);
		d[0].effective &= ~(1U << CAP_NET_ADMIN);
		if (syscall(SYS_capset, &h, d) || plain_ring(&r, 0))
			_exit(255);
		memset(&reg, 0, sizeof(reg));
		int ret = io_uring_register_ifq(&r, &reg);

		_exit(ret < 0 && ret > -255 ? -ret : 254);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -10000;
	return WEXITSTATUS(st) >= 254 ? -10000 - WEXITSTATUS(st) : -WEXITSTATUS(st);
}


/* In a child: fn's negated errno (or -10000 and below when the child
 * failed otherwise). */
static int in_child(int (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int ret = fn();

		_exit(ret < 0 && ret > -250 ? -ret : ret == 0 ? 0 : 254);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -10000;
	return WEXITSTATUS(st) >= 253 ? -10000 - WEXITSTATUS(st) : -WEXITSTATUS(st);
}

/* Caps the address space at what the process maps now plus 16 KiB: the
 * next mapping of ring memory fails as it would with memory exhausted. */
static int tighten_address_space(void)
{
	unsigned long pages;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%lu", &pages) != 1)
		return -1;
	fclose(f);
	rlim_t limit = pages * (rlim_t)sysconf(_SC_PAGESIZE) + 16384;
	struct rlimit rl = { limit, limit };

	return setrlimit(RLIMIT_AS, &rl);
}

static int mapping_queue_init(void)
{
	static struct io_uring r;

	if (tighten_address_space())
		return -10000;
	return io_uring_queue_init(4096, &r, 0);
}

static int mapping_queue_init_params(void)
{
	static struct io_uring r;
	static struct io_uring_params p;

	if (tighten_address_space())
		return -10000;
	return io_uring_queue_init_params(4096, &r, &p);
}

static int mapping_queue_mmap(void)
{
	static struct io_uring r;
	static struct io_uring_params p;
	int fd = io_uring_setup(4096, &p);

	if (fd < 0 || tighten_address_space())
		return -10000;
	return io_uring_queue_mmap(fd, &p, &r);
}

static int mapping_setup_buf_ring(void)
{
	static struct io_uring r;
	int err = 0;

	if (io_uring_queue_init(4, &r, 0) || tighten_address_space())
		return -10000;
	/* 32768 entries of 16 bytes: 512 KiB to map. */
	return io_uring_setup_buf_ring(&r, 32768, 1, 0, &err) ? 0 : err;
}

/* Without CAP_IPC_LOCK (dropped with capset(2) before the ring is made,
 * which is when the kernel decides to charge the caller) and under a
 * locked-memory limit of `limit` bytes. */
static int without_ipc_lock(rlim_t limit)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct rlimit rl = { limit, limit };

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &h, d) || setrlimit(RLIMIT_MEMLOCK, &rl) ? -1 : 0;
}

/* Under a 1 MiB limit, a 2 MiB buffer cannot be pinned. The limit counts
 * what all processes of the user have charged; when even the ring does not
 * fit, the child exits with 253 and the case is not checkable here. */
static int memlock_register_buffers(void)
{
	static struct io_uring r;
	size_t len = 2 << 20;
	void *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec v = { buf, len };

	if (buf == MAP_FAILED || without_ipc_lock(1 << 20))
		return -10000;
	if (io_uring_queue_init(4, &r, 0))
		_exit(253);
	return io_uring_register_buffers(&r, &v, 1);
}

static int ring_under_no_memlock(void)
{
	static struct io_uring r;

	return without_ipc_lock(0) ? -10000 : io_uring_queue_init(64, &r, 0);
}

static int e_queue_init_enomem(void) { return in_child(mapping_queue_init); }
static int e_queue_init_params_enomem(void) { return in_child(mapping_queue_init_params); }
static int e_queue_mmap_enomem(void) { return in_child(mapping_queue_mmap); }
static int e_setup_buf_ring_enomem(void) { return in_child(mapping_setup_buf_ring); }
static int e_register_buffers_enomem(void)
{
	int ret = in_child(memlock_register_buffers);

	if (ret == -10253) {
		not_here_why = "the user's locked memory leaves no room for a ring under 1 MiB";
		return NOT_HERE_RES;
	}
	return ret;
}

struct errno_row {
	const char *name;
	int min_major, min_minor;
	int want;
	int (*call)(void);
};

static const struct errno_row errno_rows[] = {
	{ "err-io_uring_buf_ring_head-EINVAL", 6, 8, -EINVAL, e_buf_ring_head_einval },
	{ "err-io_uring_buf_ring_head-ENOENT", 6, 8, -ENOENT, e_buf_ring_head_enoent },
	{ "err-io_uring_buf_ring_available-EINVAL", 6, 8, -EINVAL, e_buf_ring_available_einval },
	{ "err-io_uring_buf_ring_available-ENOENT", 6, 8, -ENOENT, e_buf_ring_available_enoent },
	{ "err-io_uring_clone_buffers-EBUSY", 6, 12, -EBUSY, e_clone_ebusy },
	{ "err-io_uring_clone_buffers-ENXIO", 6, 12, -ENXIO, e_clone_enxio },
	{ "err-io_uring_close_ring_fd-EINVAL", 6, 4, -EINVAL, e_close_ring_fd_einval },
	{ "err-io_uring_close_ring_fd-EOPNOTSUPP", 5, 1, -EOPNOTSUPP, e_close_ring_fd_eopnotsupp },
	{ "err-io_uring_cq_eventfd_toggle-EOPNOTSUPP", 5, 1, -EOPNOTSUPP, e_cq_eventfd_toggle },
	{ "err-io_uring_enable_rings-EBADFD", 5, 10, -EBADFD, e_enable_rings },
	{ "err-io_uring_get_events-EEXIST", 6, 1, -EEXIST, e_get_events_eexist },
	{ "err-io_uring_submit-EEXIST", 6, 0, -EEXIST, e_submit_eexist },
	{ "err-io_uring_queue_init_params-EINVAL", 5, 1, -EINVAL, e_queue_init_params_einval },
	{ "err-io_uring_register_eventfd_async-EBUSY", 5, 6, -EBUSY,
	  e_register_eventfd_async_ebusy },
	{ "err-io_uring_register_eventfd_async-EINVAL", 5, 6, -EINVAL,
	  e_register_eventfd_async_einval },
	{ "err-io_uring_register_files-EMFILE", 5, 1, -EMFILE, e_register_files_emfile },
	{ "err-io_uring_register_personality-EBUSY", 5, 6, -EBUSY, e_register_personality_ebusy },
	{ "err-io_uring_unregister_personality-EINVAL", 5, 6, -EINVAL,
	  e_unregister_personality_einval },
	{ "err-io_uring_unregister_eventfd-ENXIO", 5, 2, -ENXIO, e_unregister_eventfd_enxio },
	{ "err-io_uring_register_query-EINVAL", 6, 18, -EINVAL, e_register_query_einval },
	{ "err-io_uring_register_query-EFAULT", 6, 18, -EFAULT, e_register_query_efault },
	{ "err-io_uring_resize_rings-EINVAL", 6, 13, -EINVAL, e_resize_einval },
	{ "err-io_uring_resize_rings-EOVERFLOW", 6, 13, -EOVERFLOW, e_resize_eoverflow },
	{ "err-io_uring_setup_buf_ring-EINVAL", 5, 19, -EINVAL, e_setup_buf_ring_einval },
	{ "err-io_uring_submit_and_wait_min_timeout-EINVAL", 5, 1, -EINVAL, e_min_timeout_einval },
	{ "err-io_uring_submit_and_wait_min_timeout-ETIME", 6, 12, -ETIME, e_min_timeout_etime },
	{ "err-io_uring_submit_and_wait_min_timeout-EINTR", 6, 12, -EINTR, e_min_timeout_eintr },
	{ "err-io_uring_submit_and_wait-EINTR", 5, 1, -EINTR, e_submit_and_wait_eintr },
	{ "err-io_uring_submit_and_wait_timeout-EINTR", 5, 11, -EINTR, e_wait_timeout_eintr },
	{ "err-io_uring_wait_cqe_nr-EINTR", 5, 1, -EINTR, e_wait_cqe_nr_eintr },
	{ "err-io_uring_wait_cqes-ETIME", 5, 11, -ETIME, e_wait_cqes_etime },
	{ "err-io_uring_wait_cqes-EINTR", 5, 11, -EINTR, e_wait_cqes_eintr },
	{ "err-io_uring_register_ifq-EINVAL", 6, 15, -EINVAL, e_register_ifq_einval },
	{ "err-io_uring_queue_init-ENOMEM", 5, 1, -ENOMEM, e_queue_init_enomem },
	{ "err-io_uring_queue_init_params-ENOMEM", 5, 1, -ENOMEM, e_queue_init_params_enomem },
	{ "err-io_uring_queue_mmap-ENOMEM", 5, 1, -ENOMEM, e_queue_mmap_enomem },
	{ "err-io_uring_setup_buf_ring-ENOMEM", 5, 19, -ENOMEM, e_setup_buf_ring_enomem },
	{ "err-io_uring_register_buffers-ENOMEM", 5, 1, -ENOMEM, e_register_buffers_enomem },
	{ "err-io_uring_register_ifq-EPERM", 6, 15, -EPERM, e_register_ifq_eperm },
};

#define NERRNO (sizeof(errno_rows) / sizeof(errno_rows[0]))

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

static int fx_open(struct fx *f)
{
	struct io_uring target;

	memset(f, 0, sizeof(*f));
	f->mem_size = 64 * 1024;
	f->mem = mmap(NULL, f->mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (f->mem == MAP_FAILED || pipe(f->pipe) || io_uring_queue_init(8, &f->ring, 0))
		return -1;
	/* The target of register_sync_msg: a ring descriptor kept open. */
	if (io_uring_queue_init(4, &target, 0))
		return -1;
	f->target_ring_fd = dup(target.ring_fd);
	f->efd = eventfd(0, 0);
	io_uring_queue_exit(&target);
	return 0;
}

static void fx_close(struct fx *f)
{
	io_uring_queue_exit(&f->ring);
	close(f->pipe[0]);
	close(f->pipe[1]);
	close(f->target_ring_fd);
	close(f->efd);
	munmap(f->mem, f->mem_size);
}

static int run_row(const struct row *r)
{
	struct fx f;
	int good, bad = 0, ok;

	if (!kernel_at_least(r->min_major, r->min_minor)) {
		printf("ret-%s: not checkable here (stated from Linux %d.%d)\n", r->function,
		       r->min_major, r->min_minor);
		return 0;
	}
	if (fx_open(&f)) {
		printf("ret-%s: FAIL making the fixture failed\n", r->function);
		return 1;
	}
	good = r->call(&f, &f.ring);
	fx_close(&f);
	ok = good == r->want;
	if (ok) {
		if (fx_open(&f)) {
			printf("ret-%s: FAIL making the fixture failed\n", r->function);
			return 1;
		}
		struct io_uring copy = f.ring;

		copy.ring_fd = copy.enter_ring_fd = -1;
		bad = r->call(&f, &copy);
		fx_close(&f);
		ok = bad < 0 && bad > -4096;
		snprintf(why, sizeof(why), "on a ring with descriptor -1: %d, wanted a negated errno",
			 bad);
	} else {
		snprintf(why, sizeof(why), "got %d (%s), wanted %d", good,
			 good < 0 && good > -4096 ? strerror(-good) : "-", r->want);
	}
	if (ok)
		printf("ret-%s: ok\n", r->function);
	else
		printf("ret-%s: FAIL %s\n", r->function, why);
	fflush(stdout);
	return !ok;
}

int main(int argc, char **argv)
{
	int failed = 0;

	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NROWS; i++)
			printf("ret-%s %d.%d\n", rows[i].function, rows[i].min_major,
			       rows[i].min_minor);
		for (size_t i = 0; i < NPLAIN; i++)
			printf("%s %d.%d\n", plain_rows[i].name, plain_rows[i].min_major,
			       plain_rows[i].min_minor);
		for (size_t i = 0; i < NERRNO; i++)
			printf("%s %d.%d\n", errno_rows[i].name, errno_rows[i].min_major,
			       errno_rows[i].min_minor);
		return 0;
	}
	for (size_t i = 0; i < NROWS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a] + (strncmp(argv[a], "ret-", 4) ? 0 : 4),
					  rows[i].function);
		if (wanted)
			failed |= run_row(&rows[i]);
	}
	for (size_t i = 0; i < NPLAIN; i++) {
		const struct plain_row *r = &plain_rows[i];
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], r->name);
		if (!wanted)
			continue;
		if (!kernel_at_least(r->min_major, r->min_minor)) {
			printf("%s: not checkable here (stated from Linux %d.%d)\n", r->name,
			       r->min_major, r->min_minor);
		} else if (r->check()) {
			printf("%s: FAIL %s\n", r->name, why);
			failed = 1;
		} else {
			printf("%s: ok\n", r->name);
		}
		fflush(stdout);
	}
	for (size_t i = 0; i < NERRNO; i++) {
		const struct errno_row *r = &errno_rows[i];
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], r->name);
		if (!wanted)
			continue;
		if (!kernel_at_least(r->min_major, r->min_minor)) {
			printf("%s: not checkable here (stated from Linux %d.%d)\n", r->name,
			       r->min_major, r->min_minor);
			continue;
		}
		int got = r->call();

		if (got == NOT_HERE_RES) {
			printf("%s: not checkable here (%s)\n", r->name, not_here_why);
		} else if (got == r->want) {
			printf("%s: ok\n", r->name);
		} else {
			printf("%s: FAIL got %d (%s), wanted %d (%s)\n", r->name, got,
			       got < 0 && got > -4096 ? strerror(-got) : "-", r->want,
			       strerror(-r->want));
			failed = 1;
		}
		fflush(stdout);
	}
	return failed;
}
