/* SPDX-License-Identifier: MIT */
/*
 * The manual's checkable claims, one case each (make check-man).
 *
 *   claims --list        the case names with the kernel release each needs
 *   claims [NAME...]     runs the named cases (all without names)
 *
 * Each case prints one line: "NAME: ok", "NAME: FAIL <what happened>" or
 * "NAME: not checkable here (<why>)". A page names a case in its source with
 * a roff comment `.\" @check NAME` beside the claim. The program is built
 * twice, against this library and against upstream liburing, and both must
 * pass: a claim about the kernel holds whichever library drives it.
 *
 * A case whose claim is stated only from some kernel release names that
 * release (min); on an older kernel it reports "not checkable here" and
 * passes nothing. Exit status: 1 when a case failed, else 0.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

enum verdict { OK, FAIL, NOT_HERE };

static char why[256];

static enum verdict fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return FAIL;
}

static enum verdict not_here(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return NOT_HERE;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A blocking call that the claim says returns at once gets SIGALRM (no
 * SA_RESTART) after two seconds instead of hanging the check. */
static void guard(unsigned seconds)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

static int nops(struct io_uring *ring, unsigned n, __u64 first_data)
{
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (!sqe)
			return -EBUSY;
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, first_data + i);
	}
	return io_uring_submit(ring);
}

/* io_uring_enter.2: min_complete larger than the CQ ring is capped at the
 * ring's size, not refused with EINVAL. */
static enum verdict enter_min_complete_capped(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(8, &ring, 0);

	if (ret)
		return fail("queue_init: %d", ret);
	unsigned cq = *ring.cq.kring_entries, sq = *ring.sq.kring_entries;

	for (unsigned sent = 0; sent < cq; sent += sq) {
		ret = nops(&ring, sq, sent);
		if (ret != (int)sq) {
			io_uring_queue_exit(&ring);
			return fail("submitting %u NOPs: %d", sq, ret);
		}
	}
	guard(2);
	ret = io_uring_enter(ring.ring_fd, 0, 100000, IORING_ENTER_GETEVENTS, NULL);
	alarm(0);
	unsigned ready = io_uring_cq_ready(&ring);
	io_uring_queue_exit(&ring);
	if (ret != 0)
		return fail("enter(min_complete=100000) on a %u-entry CQ returned %d", cq, ret);
	if (ready != cq)
		return fail("%u CQEs ready, wanted %u", ready, cq);
	return OK;
}

static int timed_wait(struct io_uring *ring, unsigned min_complete, long ms)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000 };
	struct io_uring_getevents_arg arg = { .ts = (__u64)(uintptr_t)&ts };

	return io_uring_enter2(ring->ring_fd, 0, min_complete,
			       IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
			       (sigset_t *)&arg, sizeof(arg));
}

/* io_uring_enter.2: a timed wait that ends at its timeout returns 0 when
 * some CQE is in the ring, and fails with ETIME only when the ring is empty. */
static enum verdict enter_timed_wait(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(8, &ring, 0);

	if (ret)
		return fail("queue_init: %d", ret);
	if (!(ring.features & IORING_FEAT_EXT_ARG)) {
		io_uring_queue_exit(&ring);
		return not_here("no IORING_FEAT_EXT_ARG");
	}
	guard(2);
	double t0 = now();
	ret = timed_wait(&ring, 1, 50);
	double empty_wait = now() - t0;
	int empty_ret = ret;
	ret = nops(&ring, 2, 1);
	if (ret != 2) {
		alarm(0);
		io_uring_queue_exit(&ring);
		return fail("submitting 2 NOPs: %d", ret);
	}
	t0 = now();
	ret = timed_wait(&ring, 3, 50);
	double ready_wait = now() - t0;
	alarm(0);
	io_uring_queue_exit(&ring);
	if (empty_ret != -ETIME)
		return fail("timed wait on an empty ring returned %d, not -ETIME", empty_ret);
	if (empty_wait < 0.045)
		return fail("timed wait on an empty ring returned after %.3f s", empty_wait);
	if (ret != 0)
		return fail("timed wait for 3 with 2 CQEs ready returned %d, not 0", ret);
	if (ready_wait < 0.045)
		return fail("timed wait for 3 with 2 ready returned after %.3f s, before "
			    "its timeout", ready_wait);
	return OK;
}

/* io_uring_get_sqe.3, io_uring.7: a reused slot keeps what the previous
 * request wrote into opcode, fd, addr, len, off and user_data; flags,
 * ioprio, the op flags, buf_index, personality, file_index and addr3 come
 * back zero. */
/* io_uring_register_buffers(3): the iovec array is read during the call
 * only; freed (after being overwritten) right after it, the buffer it named
 * still works as fixed buffer 0. */
static enum verdict register_buffers_iovecs_not_kept(void)
{
	struct iovec *iov = malloc(sizeof(*iov));
	void *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	char got[64];
	int p[2], ret;
	enum verdict v = OK;

	if (!iov || buf == MAP_FAILED || pipe(p))
		return fail("setting up: %s", strerror(errno));
	ret = io_uring_queue_init(2, &ring, 0);
	if (ret)
		return fail("queue_init: %d", ret);
	memset(buf, 'k', sizeof(got));
	iov->iov_base = buf;
	iov->iov_len = 4096;
	ret = io_uring_register_buffers(&ring, iov, 1);
	memset(iov, 0xff, sizeof(*iov));
	free(iov);
	if (ret) {
		v = fail("register_buffers: %d", ret);
		goto out;
	}
	io_uring_prep_write_fixed(io_uring_get_sqe(&ring), p[1], buf, sizeof(got), 0, 0);
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret != 1 || io_uring_peek_cqe(&ring, &cqe)) {
		v = fail("submit_and_wait: %d", ret);
		goto out;
	}
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (ret != (int)sizeof(got))
		v = fail("write_fixed after the iovec array was freed: %d", ret);
	else if (read(p[0], got, sizeof(got)) != (ssize_t)sizeof(got) || memchr(got, 'k', 1) == NULL ||
		 memcmp(got, buf, sizeof(got)))
		v = fail("the pipe holds other bytes than the registered buffer's");
out:
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	munmap(buf, 4096);
	return v;
}

static enum verdict get_sqe_not_cleared(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(1, &ring, 0);

	if (ret)
		return fail("queue_init: %d", ret);
	unsigned sq = *ring.sq.kring_entries;
	struct io_uring_sqe *sqe;

	/* Every slot once, each with fields that a reused slot shows again. */
	for (unsigned i = 0; i < sq; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		sqe->fd = 7;
		io_uring_sqe_set_data64(sqe, 0xfeed + i);
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
		sqe->buf_index = 3;
	}
	ret = io_uring_submit_and_wait(&ring, sq);
	if (ret != (int)sq) {
		io_uring_queue_exit(&ring);
		return fail("submit_and_wait: %d", ret);
	}
	io_uring_cq_advance(&ring, io_uring_cq_ready(&ring));
	sqe = io_uring_get_sqe(&ring);
	enum verdict v = OK;

	if (!sqe)
		v = fail("no SQE after the ring was drained");
	else if (sqe->user_data != 0xfeed || sqe->fd != 7 || sqe->opcode != IORING_OP_NOP)
		v = fail("reused slot: user_data %#llx fd %d opcode %u (expected the "
			 "previous request's 0xfeed, 7, NOP kept)",
			 (unsigned long long)sqe->user_data, sqe->fd, sqe->opcode);
	else if (sqe->flags || sqe->buf_index || sqe->personality || sqe->addr3)
		v = fail("reused slot: flags %u buf_index %u personality %u addr3 %llu "
			 "(expected 0)", sqe->flags, sqe->buf_index, sqe->personality,
			 (unsigned long long)sqe->addr3);
	else {
		io_uring_prep_nop(sqe);
		if (sqe->user_data != 0xfeed)
			v = fail("io_uring_prep_nop changed user_data to %#llx",
				 (unsigned long long)sqe->user_data);
	}
	io_uring_queue_exit(&ring);
	return v;
}

struct owner_test {
	struct io_uring *ring;
	int enable_ret, submit_ret;
};

static void *enable_in_thread(void *p)
{
	struct owner_test *t = p;

	t->enable_ret = io_uring_enable_rings(t->ring);
	t->submit_ret = nops(t->ring, 1, 2);
	return NULL;
}

/* io_uring.7, io_uring_setup_flags.7: the owner of an IORING_SETUP_R_DISABLED
 * single-issuer ring is the thread that enables it. Created in main, enabled
 * (and submitted to) in a thread: the thread submits, main gets EEXIST. */
static enum verdict r_disabled_owner_is_enabler(void)
{
	struct io_uring ring;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED;
	int ret = io_uring_queue_init_params(4, &ring, &p);

	if (ret == -EINVAL)
		return not_here("IORING_SETUP_SINGLE_ISSUER refused (EINVAL)");
	if (ret)
		return fail("queue_init_params: %d", ret);
	struct owner_test t = { .ring = &ring };
	pthread_t th;

	pthread_create(&th, NULL, enable_in_thread, &t);
	pthread_join(th, NULL);
	ret = nops(&ring, 1, 3);
	io_uring_queue_exit(&ring);
	if (t.enable_ret)
		return fail("enable_rings in the thread: %d", t.enable_ret);
	if (t.submit_ret != 1)
		return fail("submit from the enabling thread: %d, wanted 1", t.submit_ret);
	if (ret != -EEXIST)
		return fail("submit from the creating thread: %d, wanted -EEXIST", ret);
	return OK;
}

static int wait_cqe_ms(struct io_uring *ring, struct io_uring_cqe **cqe, long ms)
{
	struct __kernel_timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };

	return io_uring_wait_cqe_timeout(ring, cqe, &ts);
}

/* io_uring_prep_recv_multishot.3: without IOSQE_BUFFER_SELECT the kernel
 * fails the request with EINVAL. */
static enum verdict recv_multishot_needs_buffer_select(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return fail("socketpair: %s", strerror(errno));
	int ret = io_uring_queue_init(4, &ring, 0);

	if (ret)
		return fail("queue_init: %d", ret);
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	static char buf[64];

	io_uring_prep_recv_multishot(sqe, sv[0], buf, sizeof(buf), 0);
	io_uring_submit(&ring);
	ret = wait_cqe_ms(&ring, &cqe, 1000);
	enum verdict v = OK;

	if (ret)
		v = fail("no CQE: %d", ret);
	else if (cqe->res != -EINVAL)
		v = fail("res %d, wanted -EINVAL", cqe->res);
	else if (cqe->flags & IORING_CQE_F_MORE)
		v = fail("the failing CQE has IORING_CQE_F_MORE");
	io_uring_queue_exit(&ring);
	close(sv[0]);
	close(sv[1]);
	return v;
}

/* io_uring_prep_recv_multishot.3: a CQE without IORING_CQE_F_MORE ends the
 * request (here: out of buffers, -ENOBUFS); data sent afterwards posts
 * nothing until the program arms it again. */
static enum verdict recv_multishot_rearm(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int sv[2], ret, err;
	static char bufs[2][64];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return fail("socketpair: %s", strerror(errno));
	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return fail("queue_init: %d", ret);
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(&ring, 2, 1, 0, &err);

	if (!br) {
		io_uring_queue_exit(&ring);
		return err == -EINVAL ? not_here("no buffer rings") : fail("buf ring: %d", err);
	}
	io_uring_buf_ring_add(br, bufs[0], sizeof(bufs[0]), 0, io_uring_buf_ring_mask(2), 0);
	io_uring_buf_ring_advance(br, 1);

	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = 1;
	io_uring_submit(&ring);
	enum verdict v = OK;
	int more_first = 0, res_second = 0, more_second = 1;

	if (write(sv[1], "a", 1) != 1) {
		v = fail("write");
		goto out;
	}
	if (wait_cqe_ms(&ring, &cqe, 1000)) {
		v = fail("no CQE for the first message");
		goto out;
	}
	more_first = cqe->flags & IORING_CQE_F_MORE;
	io_uring_cqe_seen(&ring, cqe);
	if (write(sv[1], "b", 1) != 1) {
		v = fail("write");
		goto out;
	}
	if (wait_cqe_ms(&ring, &cqe, 1000)) {
		v = fail("no CQE for the second message");
		goto out;
	}
	res_second = cqe->res;
	more_second = cqe->flags & IORING_CQE_F_MORE;
	io_uring_cqe_seen(&ring, cqe);
	if (!more_first) {
		v = fail("first CQE lacks IORING_CQE_F_MORE");
		goto out;
	}
	if (res_second != -ENOBUFS || more_second) {
		v = fail("second CQE: res %d F_MORE %d, wanted -ENOBUFS without F_MORE",
			 res_second, !!more_second);
		goto out;
	}
	/* Ended: a buffer back and more data posts nothing. */
	io_uring_buf_ring_add(br, bufs[1], sizeof(bufs[1]), 1, io_uring_buf_ring_mask(2), 0);
	io_uring_buf_ring_advance(br, 1);
	if (write(sv[1], "c", 1) != 1) {
		v = fail("write");
		goto out;
	}
	ret = wait_cqe_ms(&ring, &cqe, 200);
	if (ret != -ETIME) {
		v = fail("a CQE (res %d) after the request ended", ret ? ret : cqe->res);
		goto out;
	}
	/* Armed again, it receives what waited in the socket. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = 1;
	io_uring_submit(&ring);
	if (wait_cqe_ms(&ring, &cqe, 1000) || cqe->res != 2)
		v = fail("re-armed request did not receive the 2 waiting bytes");
out:
	io_uring_free_buf_ring(&ring, br, 2, 1);
	io_uring_queue_exit(&ring);
	close(sv[0]);
	close(sv[1]);
	return v;
}

/* io_uring_submit.3, io_uring_enter.2: with completions waiting in the
 * overflow list (IORING_SQ_CQ_OVERFLOW set), submitting and waiting still
 * succeed on this kernel rather than failing with EBUSY. */
static enum verdict submit_during_overflow(void)
{
	struct io_uring ring;
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	int ret = io_uring_queue_init_params(4, &ring, &p);

	if (ret)
		return fail("queue_init: %d", ret);
	if (!(p.features & IORING_FEAT_NODROP)) {
		io_uring_queue_exit(&ring);
		return not_here("no IORING_FEAT_NODROP");
	}
	unsigned cq = p.cq_entries, sq = p.sq_entries, sent = 0;
	enum verdict v = OK;

	/* Fill the CQ ring and then some, reaping nothing. */
	while (sent < cq + sq) {
		ret = nops(&ring, sq, sent);
		if (ret != (int)sq) {
			v = fail("submit with %u CQEs unreaped returned %d", sent, ret);
			goto out;
		}
		sent += sq;
	}
	if (!(IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW)) {
		v = fail("IORING_SQ_CQ_OVERFLOW not set after %u unreaped NOPs", sent);
		goto out;
	}
	ret = nops(&ring, 1, 999);
	if (ret != 1) {
		v = fail("submit while overflowing returned %d", ret);
		goto out;
	}
	guard(2);
	ret = io_uring_submit_and_wait(&ring, 1);
	alarm(0);
	if (ret < 0)
		v = fail("submit_and_wait while overflowing returned %d", ret);
out:
	io_uring_queue_exit(&ring);
	return v;
}



static int read_at(struct io_uring *ring, int fd, char *buf, unsigned len, __u64 off)
{
	struct io_uring_cqe *cqe;

	io_uring_prep_read(io_uring_get_sqe(ring), fd, buf, len, off);
	io_uring_submit(ring);
	if (wait_cqe_ms(ring, &cqe, 2000))
		return -20000;
	int res = cqe->res;

	io_uring_cqe_seen(ring, cqe);
	return res;
}

/* io_uring_prep_read.3: offset -1 reads at the file position and moves it;
 * another offset leaves the position alone. */
static enum verdict prep_read_offset_minus_one(void)
{
	struct io_uring ring;
	char name[] = "/tmp/uring-claims-XXXXXX", buf[4] = { 0 };
	int fd = mkstemp(name);
	enum verdict v = OK;

	if (fd < 0)
		return fail("mkstemp: %s", strerror(errno));
	unlink(name);
	if (write(fd, "abcdefgh", 8) != 8 || lseek(fd, 2, SEEK_SET) != 2 ||
	    io_uring_queue_init(4, &ring, 0)) {
		close(fd);
		return fail("setting up the file or ring");
	}
	int res = read_at(&ring, fd, buf, 3, (__u64)-1);
	off_t pos = lseek(fd, 0, SEEK_CUR);

	if (res != 3 || memcmp(buf, "cde", 3) || pos != 5)
		v = fail("offset -1 from position 2: res %d data %.3s position %ld, wanted 3 "
			 "cde 5", res, buf, (long)pos);
	res = read_at(&ring, fd, buf, 3, 0);
	pos = lseek(fd, 0, SEEK_CUR);
	if (v == OK && (res != 3 || memcmp(buf, "abc", 3) || pos != 5))
		v = fail("offset 0: res %d data %.3s position %ld, wanted 3 abc 5", res, buf,
			 (long)pos);
	io_uring_queue_exit(&ring);
	close(fd);
	return v;
}

/* io_uring_prep_read.3: a pipe ignores the offset; a socket fails any
 * offset but 0 and -1 with ESPIPE. */
static enum verdict prep_read_non_seekable(void)
{
	struct io_uring ring;
	int p[2], sv[2], r[4];
	char buf[4];

	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || io_uring_queue_init(4, &ring, 0))
		return fail("setting up");
	if (write(p[1], "xyz", 3) != 3 || write(sv[1], "ab", 2) != 2)
		return fail("write");
	r[0] = read_at(&ring, p[0], buf, 3, 12345);
	r[1] = read_at(&ring, sv[0], buf, 1, 77);
	r[2] = read_at(&ring, sv[0], buf, 1, 0);
	r[3] = read_at(&ring, sv[0], buf, 1, (__u64)-1);
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
	if (r[0] != 3)
		return fail("pipe at offset 12345: %d, wanted 3", r[0]);
	if (r[1] != -ESPIPE)
		return fail("socket at offset 77: %d, wanted -ESPIPE", r[1]);
	if (r[2] != 1 || r[3] != 1)
		return fail("socket at offsets 0 and -1: %d and %d, wanted 1 and 1", r[2], r[3]);
	return OK;
}

/* io_uring_submit.3 and the prep pages: the iovec array of a readv is read
 * while the request is submitted (IORING_FEAT_SUBMIT_STABLE); changing it
 * afterwards, before the data arrives, changes nothing. */
static enum verdict submit_stable_iovec(void)
{
	struct io_uring ring;
	struct io_uring_params prm;
	struct io_uring_cqe *cqe;
	static char buf[8], other[8];
	int p[2];

	memset(&prm, 0, sizeof(prm));
	if (pipe(p) || io_uring_queue_init_params(4, &ring, &prm))
		return fail("setting up");
	if (!(prm.features & IORING_FEAT_SUBMIT_STABLE)) {
		io_uring_queue_exit(&ring);
		return not_here("no IORING_FEAT_SUBMIT_STABLE");
	}
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };

	io_uring_prep_readv(io_uring_get_sqe(&ring), p[0], &iov, 1, 0);
	int ret = io_uring_submit(&ring);

	/* The pipe is empty: the request waits. Point the iovec elsewhere. */
	iov.iov_base = other;
	iov.iov_len = 1;
	enum verdict v = OK;

	if (ret != 1)
		v = fail("submit: %d", ret);
	else if (write(p[1], "hello", 5) != 5)
		v = fail("write");
	else if (wait_cqe_ms(&ring, &cqe, 2000))
		v = fail("no CQE");
	else if (cqe->res != 5 || memcmp(buf, "hello", 5) || other[0])
		v = fail("res %d, buffer %.5s: the changed iovec was used", cqe->res, buf);
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	return v;
}


static void prep_pipe_read(struct io_uring *ring, int fd, __u64 data)
{
	static char buf[8];
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_read(sqe, fd, buf, sizeof(buf), 0);
	io_uring_sqe_set_data64(sqe, data);
}

/* io_uring_cancelation.7 RETURN VALUE: a cancel request's CQE holds 0 when
 * it cancelled its target, the number cancelled with
 * IORING_ASYNC_CANCEL_ALL; the cancelled requests complete with
 * -ECANCELED. Reads wait on an empty pipe. */
static enum verdict cancel_results(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int p[2], canceled = 0, one = -1, all = -1;

	if (pipe(p) || io_uring_queue_init(8, &ring, 0))
		return fail("setting up");
	prep_pipe_read(&ring, p[0], 1);
	prep_pipe_read(&ring, p[0], 2);
	prep_pipe_read(&ring, p[0], 3);
	io_uring_submit(&ring);
	/* One by user_data, then all that read the pipe, by descriptor. */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_cancel64(sqe, 1, 0);
	io_uring_sqe_set_data64(sqe, 100);
	io_uring_submit(&ring);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_cancel_fd(sqe, p[0], IORING_ASYNC_CANCEL_ALL);
	io_uring_sqe_set_data64(sqe, 101);
	io_uring_submit(&ring);
	for (int i = 0; i < 5; i++) {
		if (wait_cqe_ms(&ring, &cqe, 2000))
			break;
		if (cqe->user_data == 100)
			one = cqe->res;
		else if (cqe->user_data == 101)
			all = cqe->res;
		else if (cqe->res == -ECANCELED)
			canceled++;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	if (one != 0 || all != 2 || canceled != 3)
		return fail("cancel by user_data: %d (wanted 0), cancel all by fd: %d (wanted 2), "
			    "-ECANCELED reads: %d (wanted 3)", one, all, canceled);
	return OK;
}


/* io_uring_multishot.7: a multishot request ends when the CQ ring
 * overflows: its CQE that went to the overflow list lacks
 * IORING_CQE_F_MORE, and later events post nothing. A multishot poll on a
 * datagram socket, a 2-entry CQ ring, 10 events without reaping. */
static enum verdict multishot_ends_on_overflow(void)
{
	struct io_uring ring;
	struct io_uring_params prm;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0, more = 0, last_more = 1;
	int sv[2];
	char b;

	memset(&prm, 0, sizeof(prm));
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || io_uring_queue_init_params(1, &ring, &prm))
		return fail("setting up");
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_poll_multishot(sqe, sv[0], POLLIN);
	io_uring_submit(&ring);
	for (unsigned i = 0; i < prm.cq_entries + 8; i++) {
		if (write(sv[1], "x", 1) != 1 || read(sv[0], &b, 1) != 1)
			return fail("socket");
		usleep(10000);
	}
	/* Everything posted so far, the overflowed CQEs included. */
	for (int round = 0; round < 3; round++) {
		io_uring_get_events(&ring);
		io_uring_for_each_cqe(&ring, head, cqe) {
			n++;
			more += !!(cqe->flags & IORING_CQE_F_MORE);
			last_more = !!(cqe->flags & IORING_CQE_F_MORE);
		}
		io_uring_cq_advance(&ring, io_uring_cq_ready(&ring));
	}
	enum verdict v = OK;

	if (n != prm.cq_entries + 1 || more != prm.cq_entries || last_more)
		v = fail("%u CQEs, %u with F_MORE, the last %s F_MORE; wanted %u, %u, without",
			 n, more, last_more ? "with" : "without", prm.cq_entries + 1,
			 prm.cq_entries);
	else if (write(sv[1], "x", 1) != 1)
		v = fail("write");
	else if (wait_cqe_ms(&ring, &cqe, 100) != -ETIME)
		v = fail("a CQE after the request ended");
	io_uring_queue_exit(&ring);
	close(sv[0]);
	close(sv[1]);
	return v;
}


/* The polling threads of this process: its tasks named iou-sqp-*. */
static int sqpoll_threads(void)
{
	char path[300], comm[32];
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");

		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-sqp-", 8))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* The polling-thread count once it has stopped changing: a new thread
 * names itself after it starts, so the count is sampled every 20 ms until
 * it stays the same for 100 ms (2 s at most). */
static int settled_sqpoll_threads(void)
{
	int last = sqpoll_threads(), same = 0;

	for (int i = 0; i < 100 && same < 5; i++) {
		usleep(20000);
		int n = sqpoll_threads();

		same = n == last ? same + 1 : 0;
		last = n;
	}
	return last;
}

/* io_uring_sqpoll.7: IORING_SETUP_ATTACH_WQ makes rings of one process
 * share a polling thread: a ring and one attached to it have one thread
 * between them; a third, not attached, brings its own. */
static enum verdict sqpoll_attach_shares_thread(void)
{
	struct io_uring a, b, c;
	struct io_uring_params p;
	int shared, sep;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	if (io_uring_queue_init_params(4, &a, &p))
		return fail("SQPOLL ring");
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_ATTACH_WQ;
	p.wq_fd = a.ring_fd;
	if (io_uring_queue_init_params(4, &c, &p)) {
		io_uring_queue_exit(&a);
		return fail("attached SQPOLL ring");
	}
	shared = settled_sqpoll_threads();
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	if (io_uring_queue_init_params(4, &b, &p)) {
		io_uring_queue_exit(&c);
		io_uring_queue_exit(&a);
		return fail("second SQPOLL ring");
	}
	sep = settled_sqpoll_threads();
	io_uring_queue_exit(&b);
	io_uring_queue_exit(&c);
	io_uring_queue_exit(&a);
	if (shared != 1 || sep != 2)
		return fail("polling threads: %d for a ring and one attached to it (wanted 1), "
			    "%d with a third ring not attached (wanted 2)", shared, sep);
	return OK;
}


/* Submits the n prepared SQEs and returns their results in res[], by
 * user_data (0..n-1); 0 when all n CQEs came. */
static int results(struct io_uring *ring, int n, int *res)
{
	struct io_uring_cqe *cqe;

	if (io_uring_submit(ring) != n)
		return -1;
	for (int i = 0; i < n; i++) {
		if (wait_cqe_ms(ring, &cqe, 2000))
			return -1;
		if (cqe->user_data < (unsigned)n)
			res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/* io_uring_linked_requests.7: a short read ends the chain (the next request
 * gets -ECANCELED); with IOSQE_IO_HARDLINK the chain goes on. */
static enum verdict link_short_read(void)
{
	struct io_uring ring;
	static char buf[8];
	int p[2], res[4] = { 0 };

	if (pipe(p) || io_uring_queue_init(8, &ring, 0))
		return fail("setting up");
	/* One chain at a time: two chains submitted together may have their
	 * reads served in either order (Linux 6.1 served the second chain's
	 * first). The first read finds 6 of its 8 bytes, the second 3. */
	for (int hard = 0; hard < 2; hard++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		struct io_uring_cqe *cqe;

		if (write(p[1], hard ? "xyz" : "abcdef", hard ? 3 : 6) != (hard ? 3 : 6))
			return fail("write");
		io_uring_prep_read(sqe, p[0], buf, 8, 0);
		sqe->flags |= hard ? IOSQE_IO_HARDLINK : IOSQE_IO_LINK;
		io_uring_sqe_set_data64(sqe, 2 * hard);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 2 * hard + 1);
		int ret = io_uring_submit(&ring);

		if (ret != 2)
			return fail("submit: %d", ret);
		for (int i = 0; i < 2; i++) {
			if (wait_cqe_ms(&ring, &cqe, 2000))
				return fail("no CQE for the %s chain", hard ? "second" : "first");
			if (cqe->user_data < 4)
				res[cqe->user_data] = cqe->res;
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	if (res[0] != 6 || res[1] != -ECANCELED)
		return fail("linked: short read %d, next %d (wanted 6, -ECANCELED)", res[0], res[1]);
	if (res[2] != 3 || res[3] != 0)
		return fail("hard-linked: short read %d, next %d (wanted 3, 0)", res[2], res[3]);
	return OK;
}

/* io_uring_linked_requests.7: a linked timeout that expires cancels its
 * request (-ECANCELED) and posts -ETIME; when the request finishes first,
 * the timeout posts -ECANCELED. */
static enum verdict link_timeout_results(void)
{
	struct io_uring ring;
	static struct __kernel_timespec ts = { .tv_nsec = 20000000 };
	static char buf[8];
	int p[2], res[4] = { 0 };

	if (pipe(p) || io_uring_queue_init(8, &ring, 0))
		return fail("setting up");
	/* 0: a read that waits, 1: its timeout; 2: a NOP, 3: its timeout. */
	for (int i = 0; i < 2; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (i == 0)
			io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
		else
			io_uring_prep_nop(sqe);
		sqe->flags |= IOSQE_IO_LINK;
		io_uring_sqe_set_data64(sqe, 2 * i);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_link_timeout(sqe, &ts, 0);
		io_uring_sqe_set_data64(sqe, 2 * i + 1);
	}
	int r = results(&ring, 4, res);

	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	if (r)
		return fail("CQEs missing");
	if (res[0] != -ECANCELED || res[1] != -ETIME)
		return fail("expired: request %d, timeout %d (wanted -ECANCELED, -ETIME)", res[0],
			    res[1]);
	if (res[2] != 0 || res[3] != -ECANCELED)
		return fail("request first: request %d, timeout %d (wanted 0, -ECANCELED)", res[2],
			    res[3]);
	return OK;
}

/* io_uring_registered_files.7: an empty or out-of-range slot of the file
 * table gives -EBADF. */
static enum verdict fixed_file_bad_slot(void)
{
	struct io_uring ring;
	static char buf[8];
	int fds[2] = { -1, -1 }, res[2] = { 0 };

	if (io_uring_queue_init(4, &ring, 0) || io_uring_register_files(&ring, fds, 2))
		return fail("setting up");
	for (int i = 0; i < 2; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_read(sqe, i == 0 ? 1 : 9, buf, sizeof(buf), 0);
		sqe->flags |= IOSQE_FIXED_FILE;
		io_uring_sqe_set_data64(sqe, i);
	}
	int r = results(&ring, 2, res);

	io_uring_queue_exit(&ring);
	if (r || res[0] != -EBADF || res[1] != -EBADF)
		return fail("empty slot %d, slot past the table %d (wanted -EBADF twice)", res[0],
			    res[1]);
	return OK;
}

/* io_uring_features.7: an SQE flag the kernel does not know makes the
 * request's CQE say -EINVAL (bit 7 of sqe->flags has no meaning). */
static enum verdict unknown_sqe_flag(void)
{
	struct io_uring ring;
	int res[1] = { 0 };

	if (io_uring_queue_init(4, &ring, 0))
		return fail("setting up");
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	io_uring_prep_nop(sqe);
	sqe->flags |= 1U << 7;
	io_uring_sqe_set_data64(sqe, 0);
	int r = results(&ring, 1, res);

	io_uring_queue_exit(&ring);
	if (r || res[0] != -EINVAL)
		return fail("NOP with sqe->flags bit 7: %d, wanted -EINVAL", res[0]);
	return OK;
}

/* io_uring_prep_poll_update.3: a new user_data without
 * IORING_POLL_UPDATE_USER_DATA fails the update with -EINVAL (the armed
 * poll is left alone); with the flag the update succeeds. */
static enum verdict poll_update_user_data_needs_flag(void)
{
	struct io_uring ring;
	int p[2], res[2] = { 1, 1 };

	if (pipe(p) || io_uring_queue_init(8, &ring, 0))
		return fail("setting up");
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	/* user_data of the updates: 0, which results() files under res[0]
	 * of the array it is given. */
	io_uring_prep_poll_add(sqe, p[0], POLLIN);
	io_uring_sqe_set_data64(sqe, 100);
	io_uring_submit(&ring);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_update(sqe, 100, 101, POLLIN, IORING_POLL_UPDATE_EVENTS);
	io_uring_sqe_set_data64(sqe, 0);
	/* One submit each: a request that fails its preparation ends the
	 * submit it is in (no IORING_SETUP_SUBMIT_ALL). */
	int r = results(&ring, 1, res);

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_update(sqe, 100, 101, POLLIN,
				  IORING_POLL_UPDATE_EVENTS | IORING_POLL_UPDATE_USER_DATA);
	io_uring_sqe_set_data64(sqe, 0);
	r |= results(&ring, 1, res + 1);

	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	if (r || res[0] != -EINVAL || res[1] != 0)
		return fail("without the flag %d (wanted -EINVAL), with it %d (wanted 0)", res[0],
			    res[1]);
	return OK;
}

/* io_uring_enter.2, io_uring_submit.3: without IORING_SETUP_SUBMIT_ALL a
 * submit stops after an entry that fails its preparation: that entry is
 * consumed (and counted; its CQE has the error), the ones after it stay in
 * the SQ ring for the next call. With the flag (5.18) all go. */
static int submit_past_bad(unsigned flags, int *first, int *left)
{
	struct io_uring ring;

	if (io_uring_queue_init(8, &ring, flags))
		return -1;
	io_uring_prep_nop(io_uring_get_sqe(&ring));
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	/* A new user_data without IORING_POLL_UPDATE_USER_DATA: refused at
	 * preparation. */
	io_uring_prep_poll_update(sqe, 100, 101, POLLIN, IORING_POLL_UPDATE_EVENTS);
	io_uring_prep_nop(io_uring_get_sqe(&ring));
	*first = io_uring_submit(&ring);
	*left = (int)io_uring_sq_ready(&ring);
	io_uring_queue_exit(&ring);
	return 0;
}

static enum verdict submit_stops_at_failed_prep(void)
{
	int first, left, all_first, all_left;

	if (submit_past_bad(0, &first, &left) ||
	    submit_past_bad(IORING_SETUP_SUBMIT_ALL, &all_first, &all_left))
		return fail("setting up");
	if (first != 2 || left != 1 || all_first != 3 || all_left != 0)
		return fail("plain ring: %d submitted, %d left (wanted 2, 1); SUBMIT_ALL: %d, %d "
			    "(wanted 3, 0)", first, left, all_first, all_left);
	return OK;
}

/* ---- Section 2 errno claims: one call, one expected result ------------
 *
 * Each function below makes one call that the page says fails with an
 * errno, and returns what it got: the negated errno of a system call
 * wrapper (io_uring_setup, io_uring_enter, io_uring_register; both
 * libraries return -errno) or the res of a request's CQE. The table says
 * which value the page promises. */

/* A plain ring of 4 entries set up with flags, or NULL. */
static struct io_uring *plain(unsigned flags)
{
	static struct io_uring rings[4];
	static int next;
	struct io_uring *r = &rings[next++ % 4];
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	return io_uring_queue_init_params(4, r, &p) ? NULL : r;
}

/* The res of the one request prep() prepares on a fresh ring. */
static int one_request(unsigned ring_flags, void (*prep)(struct io_uring_sqe *, void *),
		       void *arg)
{
	struct io_uring *r = plain(ring_flags);
	struct io_uring_cqe *cqe;

	if (!r)
		return -10000;
	prep(io_uring_get_sqe(r), arg);
	int ret = io_uring_submit(r);

	if (ret == 1)
		ret = wait_cqe_ms(r, &cqe, 2000);
	if (ret == 0)
		ret = cqe->res;
	else
		ret = -20000 + ret;
	io_uring_queue_exit(r);
	return ret;
}

static int setup_with(unsigned entries, struct io_uring_params *p)
{
	int fd = io_uring_setup(entries, p);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static int setup_params(unsigned entries, unsigned flags, unsigned cq_entries)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = cq_entries;
	return setup_with(entries, &p);
}

static int setup_null_params(void) { return io_uring_setup(4, NULL); }
static int setup_zero_entries(void) { return setup_params(0, 0, 0); }
static int setup_too_many(void) { return setup_params(32769, 0, 0); }
static int setup_too_many_clamped(void) { return setup_params(32769, IORING_SETUP_CLAMP, 0); }
static int setup_cq_smaller(void) { return setup_params(8, IORING_SETUP_CQSIZE, 4); }
static int setup_cq_too_big(void) { return setup_params(8, IORING_SETUP_CQSIZE, 65537); }
static int setup_unknown_flag(void) { return setup_params(4, 1U << 31, 0); }

static int setup_reserved(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.resv[0] = 1;
	return setup_with(4, &p);
}

static int setup_defer_without_single(void)
{
	return setup_params(4, IORING_SETUP_DEFER_TASKRUN, 0);
}

static int setup_bad_cpu(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF;
	p.sq_thread_cpu = 4095;
	return setup_with(4, &p);
}

static int setup_attach(int wq_fd, unsigned flags)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ | flags;
	p.wq_fd = wq_fd;
	return setup_with(4, &p);
}

static int setup_attach_not_uring(void)
{
	int fds[2];

	if (pipe(fds))
		return -10000;
	int ret = setup_attach(fds[0], IORING_SETUP_SQPOLL);

	close(fds[0]);
	close(fds[1]);
	return ret;
}

static int setup_attach_no_sqpoll(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	int ret = setup_attach(r->ring_fd, IORING_SETUP_SQPOLL);

	io_uring_queue_exit(r);
	return ret;
}

static int setup_attach_closed(void)
{
	return setup_attach(1000000, IORING_SETUP_SQPOLL);
}

/* Runs fn in a child process and returns what it returned (as an exit
 * status: -errno values up to 255 fit). */
static int in_child(int (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();

	if (pid == 0)
		_exit(-fn() & 0xff);
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -10000;
	return -WEXITSTATUS(st);
}

static int emfile_child(void)
{
	struct rlimit rl = { 3, 3 };

	/* 0, 1, 2 are taken: no descriptor is left for the ring. */
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -10000;
	return setup_params(4, 0, 0);
}

static int setup_emfile(void) { return in_child(emfile_child); }

static int sqpoll_fd = -1;

static int attach_other_process_child(void)
{
	return setup_attach(sqpoll_fd, IORING_SETUP_SQPOLL);
}

static int setup_attach_other_process(void)
{
	struct io_uring *r = plain(IORING_SETUP_SQPOLL);

	if (!r)
		return -10000;
	sqpoll_fd = r->ring_fd;
	int ret = in_child(attach_other_process_child);

	io_uring_queue_exit(r);
	return ret;
}

/* 1 when the ring descriptor io_uring_setup returns is close-on-exec. */
static int setup_cloexec(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	int fd = io_uring_setup(4, &p);

	if (fd < 0)
		return fd;
	int ret = !!(fcntl(fd, F_GETFD) & FD_CLOEXEC);

	close(fd);
	return ret;
}

static int enter_bad_fd(void) { return io_uring_enter(-1, 0, 0, 0, NULL); }

static int enter_not_registered(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	nops(r, 1, 0);	/* the task now has io_uring state: index 3 is empty */
	int ret = io_uring_enter(3, 0, 0, IORING_ENTER_REGISTERED_RING, NULL);

	io_uring_queue_exit(r);
	return ret;
}

static int enter_disabled(void)
{
	struct io_uring *r = plain(IORING_SETUP_R_DISABLED);

	if (!r)
		return -10000;
	int ret = io_uring_enter(r->ring_fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);

	io_uring_queue_exit(r);
	return ret;
}

static struct io_uring *issuer_ring;
static int issuer_ret;

static void *submit_from_thread(void *p)
{
	(void)p;
	issuer_ret = nops(issuer_ring, 1, 0);
	return NULL;
}

static void *wait_from_thread(void *p)
{
	struct io_uring_cqe *cqe;

	(void)p;
	issuer_ret = wait_cqe_ms(issuer_ring, &cqe, 20);
	return NULL;
}

static void *register_from_thread(void *p)
{
	int efd = eventfd(0, 0);

	(void)p;
	issuer_ret = io_uring_register_eventfd(issuer_ring, efd);
	close(efd);
	return NULL;
}

static int other_thread(unsigned flags, void *(*fn)(void *))
{
	issuer_ring = plain(IORING_SETUP_SINGLE_ISSUER | flags);
	if (!issuer_ring)
		return -10000;
	pthread_t th;

	pthread_create(&th, NULL, fn, NULL);
	pthread_join(th, NULL);
	io_uring_queue_exit(issuer_ring);
	return issuer_ret;
}

static int enter_other_thread(void) { return other_thread(0, submit_from_thread); }
/* Waiting is the owner's alone only with DEFER_TASKRUN; on a plain
 * single-issuer ring another thread's timed wait just times out. */
static int wait_other_thread(void) { return other_thread(0, wait_from_thread); }

static int wait_other_thread_defer(void)
{
	return other_thread(IORING_SETUP_DEFER_TASKRUN, wait_from_thread);
}

static int register_other_thread(void) { return other_thread(0, register_from_thread); }

static int enter_ext_arg(void *arg, size_t argsz, unsigned flags)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	int ret = io_uring_enter2(r->ring_fd, 0, 1, IORING_ENTER_GETEVENTS | flags,
				  (sigset_t *)arg, argsz);

	io_uring_queue_exit(r);
	return ret;
}

static int enter_bad_arg(void)
{
	return enter_ext_arg((void *)8, sizeof(struct io_uring_getevents_arg),
			     IORING_ENTER_EXT_ARG);
}

static int enter_bad_argsz(void)
{
	struct io_uring_getevents_arg arg;

	memset(&arg, 0, sizeof(arg));
	return enter_ext_arg(&arg, 3, IORING_ENTER_EXT_ARG);
}

static int enter_unknown_flag(void) { return enter_ext_arg(NULL, 0, 1U << 30); }

static int enter_signal(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	guard(2);
	ualarm(50000, 0);	/* the signal 50 ms into the wait */
	int ret = io_uring_enter(r->ring_fd, 0, 1, IORING_ENTER_GETEVENTS, NULL);

	alarm(0);
	io_uring_queue_exit(r);
	return ret;
}

/* io_uring_enter.2: the SQPOLL thread belongs to the process that made the
 * ring and ends with it; a process that still holds the ring (here one
 * forked before the maker exited) then gets EOWNERDEAD. The holder reports
 * through a pipe, within two seconds. */
static int enter_sqpoll_owner_dead(void)
{
	int p[2], st;

	if (pipe(p))
		return -10000;
	pid_t maker = fork();

	if (maker == 0) {
		struct io_uring_params params;

		memset(&params, 0, sizeof(params));
		params.flags = IORING_SETUP_SQPOLL;
		params.sq_thread_idle = 1000;
		int fd = io_uring_setup(4, &params);

		if (fd >= 0 && fork() == 0) {
			int got = 0;

			/* Wait for the maker (and its thread) to be gone. */
			for (int i = 0; i < 200 && got != -EOWNERDEAD; i++) {
				got = io_uring_enter(fd, 0, 0, IORING_ENTER_SQ_WAKEUP, NULL);
				if (got != -EOWNERDEAD)
					usleep(10000);
			}
			if (write(p[1], &got, sizeof(got)) != sizeof(got))
				_exit(1);
			_exit(0);
		}
		_exit(fd >= 0 ? 0 : 1);
	}
	close(p[1]);
	if (maker < 0 || waitpid(maker, &st, 0) != maker || !WIFEXITED(st) || WEXITSTATUS(st)) {
		close(p[0]);
		return -10000;
	}
	struct pollfd pfd = { .fd = p[0], .events = POLLIN };
	int got = -10001;

	if (poll(&pfd, 1, 5000) == 1 && read(p[0], &got, sizeof(got)) != sizeof(got))
		got = -10002;
	close(p[0]);
	return got;
}

static int enter_not_uring(void)
{
	int fds[2];

	if (pipe(fds))
		return -10000;
	int ret = io_uring_enter(fds[0], 0, 0, 0, NULL);

	close(fds[0]);
	close(fds[1]);
	return ret;
}

/* Submitting a request whose memory is bad: the call succeeds, the CQE
 * carries EFAULT. Returns the enter result if it is not 1, else the res. */
static int enter_bad_sqe_memory(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;
	int fds[2];

	if (!r || pipe(fds))
		return -10000;
	io_uring_prep_readv(io_uring_get_sqe(r), fds[0], (struct iovec *)8, 1, 0);
	int ret = io_uring_submit(r);

	if (ret == 1)
		ret = wait_cqe_ms(r, &cqe, 2000) ? -20000 : 1000 + cqe->res;
	io_uring_queue_exit(r);
	close(fds[0]);
	close(fds[1]);
	return ret;
}

static void prep_read_fd(struct io_uring_sqe *sqe, void *arg)
{
	static char buf[8];

	io_uring_prep_read(sqe, *(int *)arg, buf, sizeof(buf), 0);
}

static int cqe_bad_fd(void)
{
	int fd = 1000000;

	return one_request(0, prep_read_fd, &fd);
}

static void prep_fixed(struct io_uring_sqe *sqe, void *arg)
{
	prep_read_fd(sqe, arg);
	sqe->flags |= IOSQE_FIXED_FILE;
}

static int cqe_bad_fixed_file(void)
{
	int index = 3;

	return one_request(0, prep_fixed, &index);
}

static void prep_readv_bad(struct io_uring_sqe *sqe, void *arg)
{
	(void)arg;
	io_uring_prep_readv(sqe, 0, (struct iovec *)8, 1, 0);
}

static int cqe_efault(void) { return one_request(0, prep_readv_bad, NULL); }

static void prep_fsync_addr(struct io_uring_sqe *sqe, void *arg)
{
	(void)arg;
	io_uring_prep_fsync(sqe, 0, 0);
	sqe->addr = 1;
}

static int cqe_unused_field(void) { return one_request(0, prep_fsync_addr, NULL); }

static void prep_fsync_flag(struct io_uring_sqe *sqe, void *arg)
{
	(void)arg;
	io_uring_prep_fsync(sqe, 0, 1U << 30);
}

static int cqe_unknown_flag(void) { return one_request(0, prep_fsync_flag, NULL); }

static void prep_read_fixed_bad(struct io_uring_sqe *sqe, void *arg)
{
	static char buf[8];

	(void)arg;
	io_uring_prep_read_fixed(sqe, 0, buf, sizeof(buf), 0, 5);
}

static int cqe_bad_buf_index(void) { return one_request(0, prep_read_fixed_bad, NULL); }

static void prep_recv_select(struct io_uring_sqe *sqe, void *arg)
{
	io_uring_prep_recv(sqe, *(int *)arg, NULL, 8, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = 7;
}

static int cqe_no_buffers(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || write(sv[1], "x", 1) != 1)
		return -10000;
	int ret = one_request(0, prep_recv_select, &sv[0]);

	close(sv[0]);
	close(sv[1]);
	return ret;
}

static void prep_cancel_nothing(struct io_uring_sqe *sqe, void *arg)
{
	(void)arg;
	io_uring_prep_cancel64(sqe, 0x12345678, 0);
}

static int cqe_cancel_not_found(void) { return one_request(0, prep_cancel_nothing, NULL); }

static void prep_timeout(struct io_uring_sqe *sqe, void *arg)
{
	static struct __kernel_timespec ts = { .tv_nsec = 10000000 };

	(void)arg;
	io_uring_prep_timeout(sqe, &ts, 0, 0);
}

static int cqe_timeout(void) { return one_request(0, prep_timeout, NULL); }

static void prep_unknown_opcode(struct io_uring_sqe *sqe, void *arg)
{
	(void)arg;
	io_uring_prep_nop(sqe);
	sqe->opcode = 250;
}

static int cqe_unknown_opcode(void) { return one_request(0, prep_unknown_opcode, NULL); }

static void prep_accept_dontwait(struct io_uring_sqe *sqe, void *arg)
{
	io_uring_prep_accept(sqe, *(int *)arg, NULL, NULL, 0);
	sqe->ioprio |= IORING_ACCEPT_DONTWAIT;
}

static int cqe_accept_dontwait(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	/* An abstract address: nothing in the file system. */
	snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "uring-claims-%d", getpid());
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		return -10000;
	int ret = one_request(0, prep_accept_dontwait, &fd);

	close(fd);
	return ret;
}

static void prep_uring_cmd(struct io_uring_sqe *sqe, void *arg)
{
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, *(int *)arg, NULL, 0, 0);
}

static int cqe_cmd_not_supported(void)
{
	int fds[2];

	if (pipe(fds))
		return -10000;
	int ret = one_request(0, prep_uring_cmd, &fds[0]);

	close(fds[0]);
	close(fds[1]);
	return ret;
}

/* A link whose head fails: the next request gets ECANCELED. */
static int cqe_link_canceled(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;
	int res[2] = { 0, 0 };

	if (!r)
		return -10000;
	struct io_uring_sqe *sqe = io_uring_get_sqe(r);

	prep_read_fd(sqe, &(int){ 1000000 });
	sqe->flags |= IOSQE_IO_LINK;
	sqe->user_data = 0;
	io_uring_prep_nop(sqe = io_uring_get_sqe(r));
	sqe->user_data = 1;
	if (io_uring_submit(r) != 2)
		return -20000;
	for (int i = 0; i < 2; i++) {
		if (wait_cqe_ms(r, &cqe, 2000))
			return -20000;
		res[cqe->user_data & 1] = cqe->res;
		io_uring_cqe_seen(r, cqe);
	}
	io_uring_queue_exit(r);
	return res[0] == -EBADF ? res[1] : -30000;
}

/* A ring restricted to NOP (and, for registration, to PROBE). */
static struct io_uring *restricted(void)
{
	struct io_uring *r = plain(IORING_SETUP_R_DISABLED);
	struct io_uring_restriction res[2];

	if (!r)
		return NULL;
	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[1].register_op = IORING_REGISTER_PROBE;
	if (io_uring_register_restrictions(r, res, 2) || io_uring_enable_rings(r)) {
		io_uring_queue_exit(r);
		return NULL;
	}
	return r;
}

static int cqe_restricted(void)
{
	struct io_uring *r = restricted();
	struct io_uring_cqe *cqe;

	if (!r)
		return -10000;
	prep_timeout(io_uring_get_sqe(r), NULL);
	int ret = io_uring_submit(r);

	if (ret == 1)
		ret = wait_cqe_ms(r, &cqe, 2000) ? -20000 : cqe->res;
	io_uring_queue_exit(r);
	return ret;
}

static int register_restricted(void)
{
	struct io_uring *r = restricted();

	if (!r)
		return -10000;
	int efd = eventfd(0, 0);
	int ret = io_uring_register_eventfd(r, efd);

	close(efd);
	io_uring_queue_exit(r);
	return ret;
}

static int reg(unsigned ring_flags, unsigned opcode, const void *arg, unsigned nr)
{
	struct io_uring *r = plain(ring_flags);

	if (!r)
		return -10000;
	int ret = io_uring_register(r->ring_fd, opcode, arg, nr);

	io_uring_queue_exit(r);
	return ret;
}

static int register_bad_fd(void)
{
	return io_uring_register(1000000, IORING_REGISTER_PROBE, NULL, 0);
}

static int register_bad_eventfd(void)
{
	int fd = 1000000;

	return reg(0, IORING_REGISTER_EVENTFD, &fd, 1);
}

static int register_enable_enabled(void)
{
	return reg(0, IORING_REGISTER_ENABLE_RINGS, NULL, 0);
}

static int register_files_twice(void)
{
	struct io_uring *r = plain(0);
	int fds[1] = { 0 };

	if (!r)
		return -10000;
	int ret = io_uring_register_files(r, fds, 1);

	if (ret == 0)
		ret = io_uring_register_files(r, fds, 1);
	else
		ret = -20000;
	io_uring_queue_exit(r);
	return ret;
}

static int register_pbuf_twice(void)
{
	struct io_uring *r = plain(0);
	int err;

	if (!r)
		return -10000;
	struct io_uring_buf_ring *br = io_uring_setup_buf_ring(r, 2, 3, 0, &err);

	if (!br) {
		io_uring_queue_exit(r);
		return -20000;
	}
	/* A second ring for the same group id. */
	io_uring_setup_buf_ring(r, 2, 3, 0, &err);
	io_uring_queue_exit(r);
	return err;
}

static int register_bad_arg(void)
{
	return reg(0, IORING_REGISTER_FILES, (void *)8, 1);
}

/* A mapped buffer one page over 1 GiB (mapped, never touched). */
static int kernel_at_least(int major, int minor);

/* What an errno case returns when the running kernel cannot show its
 * claim; errno_not_here says why. */
#define ERRNO_NOT_HERE (-30000)
static const char *errno_not_here;

static int register_huge_buffer(void)
{
	size_t len = (1UL << 30) + 4096;

	/* The page: 6.18 refuses (EFAULT); Linux 7.2 registers the buffer,
	 * which means pinning 1 GiB (a 1 GiB guest ran out of memory). */
	if (kernel_at_least(6, 19)) {
		errno_not_here = "newer than 6.18: Linux 7.2 registers such a buffer, the "
				 "release that lifted the limit is not established; pinning "
				 "1 GiB is not tried";
		return ERRNO_NOT_HERE;
	}
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -10000;
	struct iovec iov = { .iov_base = p, .iov_len = len };
	int ret = reg(0, IORING_REGISTER_BUFFERS, &iov, 1);

	munmap(p, len);
	return ret;
}

static int register_unknown_opcode(void) { return reg(0, 999, NULL, 0); }

static int register_zero_files(void)
{
	int fd = 0;

	return reg(0, IORING_REGISTER_FILES, &fd, 0);
}

static int register_resize_plain(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.sq_entries = 8;
	p.cq_entries = 16;
	return reg(0, IORING_REGISTER_RESIZE_RINGS, &p, 1);
}

static int register_too_many_files(void)
{
	static int fds[4];

	return reg(0, IORING_REGISTER_FILES, fds, 1U << 21);
}

static int register_pbuf_status_missing(void)
{
	struct io_uring_buf_status st;

	memset(&st, 0, sizeof(st));
	st.buf_group = 9;
	return reg(0, IORING_REGISTER_PBUF_STATUS, &st, 1);
}

static int register_unregister_missing_pbuf(void)
{
	struct io_uring_buf_reg br;

	memset(&br, 0, sizeof(br));
	br.bgid = 9;
	return reg(0, IORING_UNREGISTER_PBUF_RING, &br, 1);
}

static int register_unregister_no_files(void)
{
	return reg(0, IORING_UNREGISTER_FILES, NULL, 0);
}

static int register_unregister_no_eventfd(void)
{
	return reg(0, IORING_UNREGISTER_EVENTFD, NULL, 0);
}

static int register_not_uring(void)
{
	int fds[2];

	if (pipe(fds))
		return -10000;
	int ret = io_uring_register(fds[0], IORING_REGISTER_PROBE, NULL, 0);

	close(fds[0]);
	close(fds[1]);
	return ret;
}


/* io_uring_enter.2 RETURN VALUE: the number of SQEs consumed, fewer than
 * to_submit when fewer are there. Raw enter on a ring whose 3 SQEs the
 * library published without entering. */
static int enter_returns_consumed(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	for (int i = 0; i < 3; i++)
		io_uring_prep_nop(io_uring_get_sqe(r));
	/* Publish the 3 SQEs by hand (what io_uring_submit does before it
	 * enters), then ask the kernel for 5. */
	unsigned tail = r->sq.sqe_tail;

	r->sq.sqe_head = tail;
	io_uring_smp_store_release(r->sq.ktail, tail);
	int ret = io_uring_enter(r->ring_fd, 5, 0, 0, NULL);

	io_uring_queue_exit(r);
	return ret;
}

/* io_uring_register.2 RETURN VALUE: IORING_REGISTER_PERSONALITY returns the
 * new personality id (positive). */
static int register_returns_personality(void)
{
	int id = reg(0, IORING_REGISTER_PERSONALITY, NULL, 0);

	return id > 0 ? 1 : id;
}

/* io_uring_setup.2 ENOSYS: a seccomp filter that answers io_uring_setup
 * with ENOSYS (in a child, which the filter then binds). */
static int enosys_child(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -10000;
	return setup_params(4, 0, 0);
}

static int setup_enosys_seccomp(void) { return in_child(enosys_child); }


/* ---- Section 3 claims: a library call and the value its page promises. */

static int s3_queue_init_zero(void)
{
	struct io_uring r;
	int ret = io_uring_queue_init(0, &r, 0);

	if (ret == 0)
		io_uring_queue_exit(&r);
	return ret;
}

static int s3_peek_empty(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;

	if (!r)
		return -10000;
	int ret = io_uring_peek_cqe(r, &cqe);

	io_uring_queue_exit(r);
	return ret;
}

static int s3_wait_timeout_empty(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;

	if (!r)
		return -10000;
	int ret = wait_cqe_ms(r, &cqe, 20);

	io_uring_queue_exit(r);
	return ret;
}

static int s3_submit_and_wait_timeout_expired(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = { .tv_nsec = 20000000 };

	if (!r)
		return -10000;
	int ret = io_uring_submit_and_wait_timeout(r, &cqe, 1, &ts, NULL);

	io_uring_queue_exit(r);
	return ret;
}

static int s3_wait_signal(int timed)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqe;

	if (!r)
		return -10000;
	guard(2);
	ualarm(50000, 0);
	int ret = timed ? wait_cqe_ms(r, &cqe, 1000) : io_uring_wait_cqe(r, &cqe);

	alarm(0);
	io_uring_queue_exit(r);
	return ret;
}

static int s3_wait_cqe_eintr(void) { return s3_wait_signal(0); }
static int s3_wait_cqe_timeout_eintr(void) { return s3_wait_signal(1); }

static int s3_register_files_ebadf(void)
{
	struct io_uring *r = plain(0);
	int fds[2] = { -1, 1000000 };

	if (!r)
		return -10000;
	int ret = io_uring_register_files(r, fds, 2);

	io_uring_queue_exit(r);
	return ret;
}

static int s3_register_buffers(int twice)
{
	struct io_uring *r = plain(0);
	/* Anonymous memory: a static buffer lies in the program's file-backed
	 * data pages, which older kernels refuse to register (Linux 6.1:
	 * -EINVAL for the first registration, not EBUSY for the second). */
	void *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec iov = { .iov_base = twice ? buf : (void *)4096, .iov_len = 4096 };

	if (!r || buf == MAP_FAILED)
		return -10000;
	int ret = io_uring_register_buffers(r, &iov, 1);

	if (twice)
		ret = ret ? -20000 + ret : io_uring_register_buffers(r, &iov, 1);
	io_uring_queue_exit(r);
	munmap(buf, 4096);
	return ret;
}

static int s3_register_buffers_ebusy(void) { return s3_register_buffers(1); }
static int s3_register_buffers_efault(void) { return s3_register_buffers(0); }

/* 0: register twice (EBUSY); 1: a pipe, not an eventfd (EINVAL); 2: a
 * closed descriptor (EBADF). */
static int s3_register_eventfd(int how)
{
	struct io_uring *r = plain(0);
	int efd = eventfd(0, 0), p[2] = { -1, -1 }, ret;

	if (!r || efd < 0 || pipe(p))
		return -10000;
	if (how == 0)
		ret = io_uring_register_eventfd(r, efd) ? -20000 :
		      io_uring_register_eventfd(r, efd);
	else if (how == 1)
		ret = io_uring_register_eventfd(r, p[0]);
	else
		ret = io_uring_register_eventfd(r, 1000000);
	io_uring_queue_exit(r);
	close(efd);
	close(p[0]);
	close(p[1]);
	return ret;
}

static int s3_register_eventfd_ebusy(void) { return s3_register_eventfd(0); }
static int s3_register_eventfd_einval(void) { return s3_register_eventfd(1); }
static int s3_register_eventfd_ebadf(void) { return s3_register_eventfd(2); }

/* io_uring_registered_buffers.7, io_uring_register.2: a buffer in a
 * shared mapping of a regular file (on an ext4 or other disk file system,
 * not shared memory) is refused: EOPNOTSUPP on older kernels, EFAULT on
 * newer ones (stated from 6.18, where it was checked). */
static int register_file_backed(void)
{
	char name[] = "/var/tmp/uring-claims-XXXXXX";
	struct statfs sf;
	int fd = mkstemp(name);

	if (fd < 0)
		return -10000;
	/* The page: files that live in memory are taken (Linux 7.2 registered
	 * one from an initramfs root). */
	if (!fstatfs(fd, &sf) && (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)) {
		unlink(name);
		close(fd);
		errno_not_here = sf.f_type == TMPFS_MAGIC ?
			"/var/tmp is on tmpfs here, whose files the page excepts" :
			"/var/tmp is on ramfs here, whose files the page excepts";
		return ERRNO_NOT_HERE;
	}
	unlink(name);
	if (ftruncate(fd, 4096)) {
		close(fd);
		return -10000;
	}
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	close(fd);
	if (m == MAP_FAILED)
		return -10000;
	struct iovec iov = { .iov_base = m, .iov_len = 4096 };
	int ret = reg(0, IORING_REGISTER_BUFFERS, &iov, 1);

	munmap(m, 4096);
	return ret;
}


static int s3_register_ring_fd(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	int ret = io_uring_register_ring_fd(r);

	io_uring_queue_exit(r);
	return ret;
}

static int s3_register_personality(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	int ret = io_uring_register_personality(r);

	io_uring_queue_exit(r);
	return ret > 0 && ret <= 0xffff ? 1 : ret;
}

/* 3 completions ready: io_uring_cq_ready says 3 and io_uring_peek_batch_cqe
 * with room for 8 stores 3; returns 10 * ready + batch. */
static int s3_ready_and_batch(void)
{
	struct io_uring *r = plain(0);
	struct io_uring_cqe *cqes[8];

	if (!r)
		return -10000;
	for (int i = 0; i < 3; i++)
		io_uring_prep_nop(io_uring_get_sqe(r));
	if (io_uring_submit_and_wait(r, 3) != 3) {
		io_uring_queue_exit(r);
		return -20000;
	}
	int ready = (int)io_uring_cq_ready(r);
	int batch = (int)io_uring_peek_batch_cqe(r, cqes, 8);

	io_uring_queue_exit(r);
	return 10 * ready + batch;
}

/* A 4-entry SQ with one SQE taken: io_uring_sq_space_left says 3. */
static int s3_sq_space_left(void)
{
	struct io_uring *r = plain(0);

	if (!r)
		return -10000;
	io_uring_get_sqe(r);
	int ret = (int)io_uring_sq_space_left(r);

	io_uring_queue_exit(r);
	return ret;
}

/* io_uring_check_version(2, 15) is false with a 2.15 library, (2, 16) true:
 * returns 2 * first + second. */
static int s3_check_version(void)
{
	return 2 * io_uring_check_version(2, 15) + io_uring_check_version(2, 16);
}

static const struct errno_claim {
	const char *name;
	int want;	/* the value the call or the CQE must give */
	int min_major, min_minor;
	int (*call)(void);
} errno_claims[] = {
	{ "setup-returns-cloexec-fd", 1, 5, 1, setup_cloexec },
	{ "setup-ENOSYS-seccomp", -ENOSYS, 5, 1, setup_enosys_seccomp },
	{ "setup-EFAULT-params", -EFAULT, 5, 1, setup_null_params },
	{ "setup-EINVAL-zero-entries", -EINVAL, 5, 1, setup_zero_entries },
	{ "setup-EINVAL-too-many-entries", -EINVAL, 5, 1, setup_too_many },
	{ "setup-clamp-caps-entries", 0, 5, 6, setup_too_many_clamped },
	{ "setup-EINVAL-cq-smaller", -EINVAL, 5, 5, setup_cq_smaller },
	{ "setup-EINVAL-cq-too-big", -EINVAL, 5, 5, setup_cq_too_big },
	{ "setup-EINVAL-unknown-flag", -EINVAL, 5, 1, setup_unknown_flag },
	{ "setup-EINVAL-reserved", -EINVAL, 5, 1, setup_reserved },
	{ "setup-EINVAL-flag-needs-other", -EINVAL, 6, 1, setup_defer_without_single },
	{ "setup-EINVAL-sq-thread-cpu", -EINVAL, 5, 1, setup_bad_cpu },
	{ "setup-EINVAL-attach-not-uring", -EINVAL, 5, 6, setup_attach_not_uring },
	{ "setup-EINVAL-attach-no-sqpoll", -EINVAL, 5, 11, setup_attach_no_sqpoll },
	{ "setup-ENXIO-attach-closed", -ENXIO, 5, 6, setup_attach_closed },
	{ "setup-EMFILE", -EMFILE, 5, 1, setup_emfile },
	{ "setup-attach-other-process-new-thread", 0, 5, 11, setup_attach_other_process },
	{ "enter-returns-consumed", 3, 5, 1, enter_returns_consumed },
	{ "enter-EBADF-fd", -EBADF, 5, 1, enter_bad_fd },
	{ "enter-EBADF-registered-index", -EBADF, 5, 18, enter_not_registered },
	{ "enter-EBADFD-disabled", -EBADFD, 5, 10, enter_disabled },
	{ "enter-EEXIST-single-issuer", -EEXIST, 6, 0, enter_other_thread },
	{ "enter-wait-other-thread-allowed", -ETIME, 6, 0, wait_other_thread },
	{ "enter-EEXIST-defer-taskrun-wait", -EEXIST, 6, 1, wait_other_thread_defer },
	{ "enter-EFAULT-arg", -EFAULT, 5, 11, enter_bad_arg },
	{ "enter-bad-sqe-memory-in-cqe", 1000 - EFAULT, 5, 1, enter_bad_sqe_memory },
	{ "enter-EINTR", -EINTR, 5, 1, enter_signal },
	{ "enter-EINVAL-unknown-flag", -EINVAL, 5, 1, enter_unknown_flag },
	{ "enter-EINVAL-argsz", -EINVAL, 5, 11, enter_bad_argsz },
	{ "enter-EOPNOTSUPP-not-uring", -EOPNOTSUPP, 5, 1, enter_not_uring },
	{ "enter-EOWNERDEAD-sqpoll-owner-exited", -EOWNERDEAD, 6, 18, enter_sqpoll_owner_dead },
	{ "cqe-EACCES-restricted", -EACCES, 5, 10, cqe_restricted },
	{ "cqe-EAGAIN-accept-dontwait", -EAGAIN, 6, 10, cqe_accept_dontwait },
	{ "cqe-EBADF-fd", -EBADF, 5, 1, cqe_bad_fd },
	{ "cqe-EBADF-fixed-file", -EBADF, 5, 1, cqe_bad_fixed_file },
	{ "cqe-ECANCELED-link", -ECANCELED, 5, 3, cqe_link_canceled },
	{ "cqe-EFAULT", -EFAULT, 5, 1, cqe_efault },
	{ "cqe-EINVAL-unused-field", -EINVAL, 5, 1, cqe_unused_field },
	{ "cqe-EINVAL-unknown-flag", -EINVAL, 5, 1, cqe_unknown_flag },
	{ "cqe-EFAULT-buf-index", -EFAULT, 5, 1, cqe_bad_buf_index },
	{ "cqe-ENOBUFS", -ENOBUFS, 5, 7, cqe_no_buffers },
	{ "cqe-ENOENT-cancel", -ENOENT, 5, 5, cqe_cancel_not_found },
	{ "cqe-EINVAL-unknown-opcode", -EINVAL, 5, 1, cqe_unknown_opcode },
	{ "cqe-EOPNOTSUPP-file", -EOPNOTSUPP, 5, 19, cqe_cmd_not_supported },
	{ "cqe-ETIME-timeout", -ETIME, 5, 4, cqe_timeout },
	{ "register-returns-personality-id", 1, 5, 6, register_returns_personality },
	{ "register-EACCES-restricted", -EACCES, 5, 10, register_restricted },
	{ "register-EBADF-fd", -EBADF, 5, 1, register_bad_fd },
	{ "register-EBADF-eventfd", -EBADF, 5, 2, register_bad_eventfd },
	{ "register-EBADFD-enable", -EBADFD, 5, 10, register_enable_enabled },
	{ "register-EBUSY-files", -EBUSY, 5, 1, register_files_twice },
	{ "register-EEXIST-single-issuer", -EEXIST, 6, 0, register_other_thread },
	{ "register-EEXIST-buffer-group", -EEXIST, 5, 19, register_pbuf_twice },
	{ "register-EFAULT-arg", -EFAULT, 5, 1, register_bad_arg },
	{ "register-EFAULT-over-1GiB", -EFAULT, 6, 18, register_huge_buffer },
	{ "register-file-backed-EFAULT", -EFAULT, 6, 18, register_file_backed },
	{ "register-EINVAL-opcode", -EINVAL, 5, 1, register_unknown_opcode },
	{ "register-EINVAL-zero-files", -EINVAL, 5, 1, register_zero_files },
	{ "register-EINVAL-resize-plain", -EINVAL, 6, 13, register_resize_plain },
	{ "register-EMFILE-files", -EMFILE, 5, 1, register_too_many_files },
	{ "register-ENOENT-pbuf-status", -ENOENT, 6, 8, register_pbuf_status_missing },
	{ "register-ENOENT-unregister-pbuf", -ENOENT, 5, 19, register_unregister_missing_pbuf },
	{ "register-ENXIO-files", -ENXIO, 5, 1, register_unregister_no_files },
	{ "register-ENXIO-eventfd", -ENXIO, 5, 2, register_unregister_no_eventfd },
	{ "register-EOPNOTSUPP-not-uring", -EOPNOTSUPP, 5, 1, register_not_uring },
	{ "queue-init-EINVAL-zero-entries", -EINVAL, 5, 1, s3_queue_init_zero },
	{ "register-ring-fd-returns-1", 1, 5, 18, s3_register_ring_fd },
	{ "register-personality-returns-id", 1, 5, 6, s3_register_personality },
	{ "cq-ready-and-peek-batch-count", 33, 5, 1, s3_ready_and_batch },
	{ "sq-space-left", 3, 5, 1, s3_sq_space_left },
	{ "check-version", 1, 5, 1, s3_check_version },
	{ "peek-cqe-EAGAIN", -EAGAIN, 5, 1, s3_peek_empty },
	{ "wait-cqe-timeout-ETIME", -ETIME, 5, 1, s3_wait_timeout_empty },
	{ "submit-and-wait-timeout-ETIME", -ETIME, 5, 1, s3_submit_and_wait_timeout_expired },
	{ "wait-cqe-EINTR", -EINTR, 5, 1, s3_wait_cqe_eintr },
	{ "wait-cqe-timeout-EINTR", -EINTR, 5, 1, s3_wait_cqe_timeout_eintr },
	{ "register-files-EBADF", -EBADF, 5, 1, s3_register_files_ebadf },
	{ "register-buffers-EBUSY", -EBUSY, 5, 1, s3_register_buffers_ebusy },
	{ "register-buffers-EFAULT", -EFAULT, 5, 1, s3_register_buffers_efault },
	{ "register-eventfd-EBUSY", -EBUSY, 5, 2, s3_register_eventfd_ebusy },
	{ "register-eventfd-EINVAL-not-eventfd", -EINVAL, 5, 2, s3_register_eventfd_einval },
	{ "register-eventfd-EBADF", -EBADF, 5, 2, s3_register_eventfd_ebadf },
};

#define NERRNOS (sizeof(errno_claims) / sizeof(errno_claims[0]))

static const struct errno_claim *current_errno;

static enum verdict run_errno_claim(void)
{
	int got = current_errno->call();

	if (got == current_errno->want)
		return OK;
	if (got == ERRNO_NOT_HERE)
		return not_here("%s", errno_not_here);
	if (got <= -10000)
		return fail("setting up the case failed (%d)", got);
	return fail("got %d (%s), wanted %d (%s)", got,
		    got < 0 && got > -4096 ? strerror(-got) : "-",
		    current_errno->want,
		    current_errno->want < 0 ? strerror(-current_errno->want) : "-");
}

struct claim {
	const char *name;
	int min_major, min_minor; /* the release from which the claim is stated */
	enum verdict (*run)(void);
};

static const struct claim claims[] = {
	{ "enter-min-complete-capped", 6, 18, enter_min_complete_capped },
	{ "enter-timed-wait", 5, 11, enter_timed_wait },
	{ "get-sqe-not-cleared", 5, 1, get_sqe_not_cleared },
	{ "register-buffers-iovecs-not-kept", 5, 1, register_buffers_iovecs_not_kept },
	{ "r-disabled-owner-is-enabler", 6, 0, r_disabled_owner_is_enabler },
	{ "recv-multishot-needs-buffer-select", 6, 0, recv_multishot_needs_buffer_select },
	{ "recv-multishot-rearm", 6, 0, recv_multishot_rearm },
	{ "submit-during-overflow", 6, 18, submit_during_overflow },
	{ "prep-read-offset-minus-one", 5, 6, prep_read_offset_minus_one },
	{ "prep-read-non-seekable", 5, 6, prep_read_non_seekable },
	{ "submit-stable-iovec", 5, 5, submit_stable_iovec },
	{ "cancel-results", 5, 19, cancel_results },
	{ "multishot-ends-on-overflow", 5, 13, multishot_ends_on_overflow },
	{ "sqpoll-attach-shares-thread", 5, 12, sqpoll_attach_shares_thread },
	{ "link-short-read", 5, 6, link_short_read },
	{ "link-timeout-results", 5, 5, link_timeout_results },
	{ "fixed-file-bad-slot", 5, 13, fixed_file_bad_slot },
	{ "unknown-sqe-flag", 5, 1, unknown_sqe_flag },
	{ "poll-update-user-data-needs-flag", 5, 13, poll_update_user_data_needs_flag },
	{ "submit-stops-at-failed-prep", 5, 18, submit_stops_at_failed_prep },
};

#define NCLAIMS (sizeof(claims) / sizeof(claims[0]))

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

static int run(const struct claim *c)
{
	enum verdict v;

	why[0] = 0;
	if (!kernel_at_least(c->min_major, c->min_minor))
		v = not_here("stated from Linux %d.%d", c->min_major, c->min_minor);
	else
		v = c->run();
	if (v == OK)
		printf("%s: ok\n", c->name);
	else if (v == FAIL)
		printf("%s: FAIL %s\n", c->name, why);
	else
		printf("%s: not checkable here (%s)\n", c->name, why);
	fflush(stdout);
	return v == FAIL;
}

int main(int argc, char **argv)
{
	int failed = 0;

	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NCLAIMS; i++)
			printf("%s %d.%d\n", claims[i].name, claims[i].min_major,
			       claims[i].min_minor);
		for (size_t i = 0; i < NERRNOS; i++)
			printf("%s %d.%d\n", errno_claims[i].name, errno_claims[i].min_major,
			       errno_claims[i].min_minor);
		return 0;
	}
	for (size_t i = 0; i < NCLAIMS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], claims[i].name);
		if (wanted)
			failed |= run(&claims[i]);
	}
	for (size_t i = 0; i < NERRNOS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], errno_claims[i].name);
		if (wanted) {
			struct claim c = { errno_claims[i].name, errno_claims[i].min_major,
					   errno_claims[i].min_minor, run_errno_claim };

			current_errno = &errno_claims[i];
			failed |= run(&c);
		}
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0, j = 0;

		while (i < NCLAIMS && strcmp(argv[a], claims[i].name))
			i++;
		while (j < NERRNOS && strcmp(argv[a], errno_claims[j].name))
			j++;
		if (i == NCLAIMS && j == NERRNOS) {
			printf("%s: FAIL no such check\n", argv[a]);
			failed = 1;
		}
	}
	return failed;
}
