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
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

static const struct claim {
	const char *name;
	int min_major, min_minor; /* the release from which the claim is stated */
	enum verdict (*run)(void);
} claims[] = {
	{ "enter-min-complete-capped", 6, 18, enter_min_complete_capped },
	{ "enter-timed-wait", 5, 11, enter_timed_wait },
	{ "get-sqe-not-cleared", 5, 1, get_sqe_not_cleared },
	{ "r-disabled-owner-is-enabler", 6, 0, r_disabled_owner_is_enabler },
	{ "recv-multishot-needs-buffer-select", 6, 0, recv_multishot_needs_buffer_select },
	{ "recv-multishot-rearm", 6, 0, recv_multishot_rearm },
	{ "submit-during-overflow", 6, 18, submit_during_overflow },
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
		return 0;
	}
	for (size_t i = 0; i < NCLAIMS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], claims[i].name);
		if (wanted)
			failed |= run(&claims[i]);
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0;

		while (i < NCLAIMS && strcmp(argv[a], claims[i].name))
			i++;
		if (i == NCLAIMS) {
			printf("%s: FAIL no such check\n", argv[a]);
			failed = 1;
		}
	}
	return failed;
}
