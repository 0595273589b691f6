/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_CHECK finds nothing in correct multi-threaded programs: thirteen
 * patterns that liburing's threading rules allow (one thread may submit
 * while another reaps; a ring used by several threads is used under the
 * program's own lock; SINGLE_ISSUER and DEFER_TASKRUN rings are submitted
 * to, and DEFER_TASKRUN rings waited on, by their owner only). Each runs as
 * a child three times: without the variables (it must pass: the program
 * itself is right), with LIBURING_CHECK=abort, and with
 * LIBURING_CHECK=abort, LIBURING_TRACE=<file> and LIBURING_DEBUG=1. Every
 * run must exit 0 with no "uring-check:" line and print the same.
 *
 *   submit-reap        a submitter thread and a reaper thread
 *   slot-reuse         the same, user_data a slot number reused once its
 *                      request completed
 *   mutex-submitters   four submitters under a mutex, one reaper
 *   ring-per-thread    eight threads, a ring each (NOPs, file writes/reads)
 *   single-issuer      a SINGLE_ISSUER ring: its owner submits, another
 *                      thread waits (no DEFER_TASKRUN)
 *   defer-msg-ring     a DEFER_TASKRUN ring's owner does all its submitting
 *                      and waiting; four threads post to it with MSG_RING
 *                      from rings of their own
 *   defer-eventfd      the same, the threads posting through an eventfd the
 *                      owner keeps a read armed on
 *   handoff            one ring handed between four threads under a mutex,
 *                      every request user_data 1 (one in flight at a time)
 *   creator-waits      the creator waits while a worker, the only
 *                      submitter, takes its first SQE and submits later
 *   timed-waits        timed waits on one thread, NOPs and timeouts
 *                      submitted in bursts on another
 *   eventfd-epoll      a registered eventfd in epoll; the reaper peeks
 *   pool-fork-exec     four workers with a ring each, while the main thread
 *                      forks helpers that exec
 *   sqpoll             an SQPOLL ring, submitter and reaper threads
 *
 * make check-tsan builds this with ThreadSanitizer and the diagnostics
 * archive (tools/diag/tsan.sh): the same runs, no report allowed.
 * `check-mt-correct PATTERN...` runs only those.
 */
#include "diag-compare.h"

#include <pthread.h>
#include <sys/epoll.h>

#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

/* ================================================================== */
/* Shared pieces                                                       */
/* ================================================================== */

/* One ring's flow between a submitting and a reaping side: never more in
 * flight than the CQ holds. */
struct flow {
	struct io_uring ring;
	unsigned long total;
	/* user_data: 1..total, or slot numbers 1..cycle reused once their
	 * request completed (a table of requests in flight). */
	unsigned cycle;
	unsigned long submitted;	/* atomic */
	unsigned long reaped;		/* atomic */
	unsigned long long sum;		/* of the user_data reaped */
	pthread_mutex_t lock;		/* for patterns with several submitters */
};

static void flow_init(struct flow *f, unsigned entries, unsigned flags, unsigned long total)
{
	memset(f, 0, sizeof(*f));
	CHECK_EQ(io_uring_queue_init(entries, &f->ring, flags), 0);
	f->total = total;
	CHECK(pthread_mutex_init(&f->lock, NULL) == 0);
}

static unsigned long load(unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Waits until `n` more fit in flight. */
static void flow_credit(struct flow *f, unsigned long n)
{
	unsigned long room = f->ring.cq.ring_entries / 2;

	while (load(&f->submitted) + n - load(&f->reaped) > room)
		sched_yield();
}

static struct io_uring_sqe *sqe_of(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	while (!sqe && (ring->flags & IORING_SETUP_SQPOLL)) {
		CHECK(io_uring_sqring_wait(ring) >= 0);
		sqe = io_uring_get_sqe(ring);
	}
	CHECK(sqe);
	return sqe;
}

/* Submits `n` NOPs carrying the next user_data values (1-based). */
static void flow_submit(struct flow *f, unsigned n)
{
	unsigned long first = __atomic_fetch_add(&f->submitted, n, __ATOMIC_ACQ_REL) + 1;
	int ret;

	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = sqe_of(&f->ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = f->cycle ? (first + i - 1) % f->cycle + 1 : first + i;
	}
	do {
		ret = io_uring_submit(&f->ring);
	} while (ret == -EINTR || ret == -EAGAIN || ret == -EBUSY);
	CHECK(ret >= 0);
}

static void flow_reaped(struct flow *f, struct io_uring_cqe *cqe)
{
	CHECKM(cqe->res == 0 || cqe->res == -ETIME, "CQE res %d", cqe->res);
	f->sum += cqe->user_data;
	__atomic_fetch_add(&f->reaped, 1, __ATOMIC_ACQ_REL);
}

/* Every user_data 1..total exactly once. */
static void flow_check(struct flow *f)
{
	CHECK_EQ(load(&f->reaped), f->total);
	if (!f->cycle)
		CHECK_EQ(f->sum, (unsigned long long) f->total * (f->total + 1) / 2);
}

static void *reaper_untimed(void *arg)
{
	struct flow *f = (struct flow *) arg;

	while (load(&f->reaped) < f->total) {
		struct io_uring_cqe *cqe;

		CHECK_EQ(io_uring_wait_cqe(&f->ring, &cqe), 0);
		flow_reaped(f, cqe);
		io_uring_cqe_seen(&f->ring, cqe);
	}
	return NULL;
}

static void *submitter_batches(void *arg)
{
	struct flow *f = (struct flow *) arg;

	while (load(&f->submitted) < f->total) {
		unsigned n = f->total - load(&f->submitted) < 8 ?
			     (unsigned) (f->total - load(&f->submitted)) : 8;

		flow_credit(f, n);
		flow_submit(f, n);
	}
	return NULL;
}

/*
 * Threads with rings of their own tear them down only once every such
 * thread is done with its own: ThreadSanitizer does not see the library's
 * mmap and munmap (raw system calls), so a ring mapped where another
 * thread's ring was would look like memory shared without synchronisation.
 */
static pthread_barrier_t rings_done;

static void start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	CHECK(pthread_create(t, NULL, fn, arg) == 0);
}

static void join(pthread_t t)
{
	CHECK(pthread_join(t, NULL) == 0);
}

/* ================================================================== */
/* The patterns                                                        */
/* ================================================================== */

static int p_submit_reap(void)
{
	struct flow f;
	pthread_t s, r;

	flow_init(&f, 64, 0, 4000);
	start(&r, reaper_untimed, &f);
	start(&s, submitter_batches, &f);
	join(s);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

/* Slot numbers reused: at most half the CQ in flight, 128 slots, so a
 * slot comes back only after its request completed. */
static int p_slot_reuse(void)
{
	struct flow f;
	pthread_t s, r;

	flow_init(&f, 64, 0, 4000);
	f.cycle = 128;
	start(&r, reaper_untimed, &f);
	start(&s, submitter_batches, &f);
	join(s);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static void *locked_submitter(void *arg)
{
	struct flow *f = (struct flow *) arg;

	for (int i = 0; i < 1000; i++) {
		CHECK(pthread_mutex_lock(&f->lock) == 0);
		flow_credit(f, 1);
		flow_submit(f, 1);
		CHECK(pthread_mutex_unlock(&f->lock) == 0);
	}
	return NULL;
}

static int p_mutex_submitters(void)
{
	struct flow f;
	pthread_t s[4], r;

	flow_init(&f, 64, 0, 4000);
	start(&r, reaper_untimed, &f);
	for (int i = 0; i < 4; i++)
		start(&s[i], locked_submitter, &f);
	for (int i = 0; i < 4; i++)
		join(s[i]);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static void *own_ring(void *arg)
{
	long n = (long) arg;
	char path[4096], name[32], out[512], in[512];
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int fd;

	snprintf(name, sizeof(name), "thread-%ld", n);
	fd = open(harm_path(name, path, sizeof(path)), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(io_uring_queue_init(8, &ring, 0), 0);
	for (int i = 0; i < 200; i++) {
		check_fill(out, sizeof(out), (unsigned) (n * 1000 + i));
		io_uring_prep_write(sqe_of(&ring), fd, out, sizeof(out), (unsigned) i * sizeof(out));
		CHECK_EQ(io_uring_submit_and_wait(&ring, 1), 1);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, (int) sizeof(out));
		io_uring_cqe_seen(&ring, cqe);
		io_uring_prep_read(sqe_of(&ring), fd, in, sizeof(in), (unsigned) i * sizeof(out));
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->res, (int) sizeof(in));
		CHECK(!memcmp(in, out, sizeof(in)));
		io_uring_cqe_seen(&ring, cqe);
	}
	pthread_barrier_wait(&rings_done);
	io_uring_queue_exit(&ring);
	close(fd);
	return NULL;
}

static int p_ring_per_thread(void)
{
	pthread_t t[8];

	CHECK(pthread_barrier_init(&rings_done, NULL, 8) == 0);
	for (long i = 0; i < 8; i++)
		start(&t[i], own_ring, (void *) i);
	for (int i = 0; i < 8; i++)
		join(t[i]);
	return 0;
}

static int p_single_issuer(void)
{
	struct flow f;
	pthread_t r;

	/* Set up here: this thread is the owner, the only submitter. */
	flow_init(&f, 64, IORING_SETUP_SINGLE_ISSUER, 3000);
	start(&r, reaper_untimed, &f);
	submitter_batches(&f);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

#define POSTERS 4
#define POSTS 200

static struct io_uring owner_ring;

static void *msg_poster(void *arg)
{
	long n = (long) arg;
	struct io_uring mine;
	struct io_uring_cqe *cqe;

	CHECK_EQ(io_uring_queue_init(8, &mine, 0), 0);
	for (int i = 0; i < POSTS; i++) {
		io_uring_prep_msg_ring(sqe_of(&mine), owner_ring.ring_fd, 0,
				       (unsigned long long) (n * POSTS + i + 1), 0);
		CHECK_EQ(io_uring_submit(&mine), 1);
		CHECK_EQ(io_uring_wait_cqe(&mine, &cqe), 0);
		CHECK_EQ(cqe->res, 0);
		io_uring_cqe_seen(&mine, cqe);
	}
	pthread_barrier_wait(&rings_done);
	io_uring_queue_exit(&mine);
	return NULL;
}

static int p_defer_msg_ring(void)
{
	unsigned long long sum = 0, total = POSTERS * POSTS;
	pthread_t t[POSTERS];

	CHECK_EQ(io_uring_queue_init(64, &owner_ring,
				     IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN), 0);
	CHECK(pthread_barrier_init(&rings_done, NULL, POSTERS) == 0);
	for (long i = 0; i < POSTERS; i++)
		start(&t[i], msg_poster, (void *) i);
	for (unsigned long long got = 0; got < total; got++) {
		struct io_uring_cqe *cqe;

		CHECK_EQ(io_uring_wait_cqe(&owner_ring, &cqe), 0);
		sum += cqe->user_data;
		io_uring_cqe_seen(&owner_ring, cqe);
	}
	for (int i = 0; i < POSTERS; i++)
		join(t[i]);
	CHECK_EQ(sum, total * (total + 1) / 2);
	io_uring_queue_exit(&owner_ring);
	return 0;
}

static int post_efd;

static void *efd_poster(void *arg)
{
	(void) arg;
	for (int i = 0; i < POSTS; i++) {
		unsigned long long one = 1;

		CHECK(write(post_efd, &one, sizeof(one)) == sizeof(one));
		if (i % 50 == 0)
			check_sleep_ms(1);
	}
	return NULL;
}

static int p_defer_eventfd(void)
{
	unsigned long long got = 0, value;
	pthread_t t[POSTERS];

	post_efd = eventfd(0, EFD_CLOEXEC);
	CHECK(post_efd >= 0);
	CHECK_EQ(io_uring_queue_init(8, &owner_ring,
				     IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN), 0);
	for (long i = 0; i < POSTERS; i++)
		start(&t[i], efd_poster, NULL);
	while (got < POSTERS * POSTS) {
		struct io_uring_cqe *cqe;

		io_uring_prep_read(sqe_of(&owner_ring), post_efd, &value, sizeof(value), 0);
		CHECK_EQ(io_uring_submit(&owner_ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&owner_ring, &cqe), 0);
		CHECK_EQ(cqe->res, (int) sizeof(value));
		got += value;
		io_uring_cqe_seen(&owner_ring, cqe);
	}
	for (int i = 0; i < POSTERS; i++)
		join(t[i]);
	CHECK_EQ(got, POSTERS * POSTS);
	io_uring_queue_exit(&owner_ring);
	close(post_efd);
	return 0;
}

static void *handed(void *arg)
{
	struct flow *f = (struct flow *) arg;

	for (int i = 0; i < 500; i++) {
		struct io_uring_cqe *cqe;

		CHECK(pthread_mutex_lock(&f->lock) == 0);
		flow_submit(f, 1);
		CHECK_EQ(io_uring_wait_cqe(&f->ring, &cqe), 0);
		flow_reaped(f, cqe);
		io_uring_cqe_seen(&f->ring, cqe);
		CHECK(pthread_mutex_unlock(&f->lock) == 0);
	}
	return NULL;
}

static int p_handoff(void)
{
	struct flow f;
	pthread_t t[4];

	flow_init(&f, 8, 0, 2000);
	/* One request in flight at a time: every one can be user_data 1. */
	f.cycle = 1;
	for (int i = 0; i < 4; i++)
		start(&t[i], handed, &f);
	for (int i = 0; i < 4; i++)
		join(t[i]);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static int first_taken;

static void *late_submitter(void *arg)
{
	struct flow *f = (struct flow *) arg;
	struct io_uring_sqe *sqe = sqe_of(&f->ring);

	/* The first SQE taken and prepared, submitted a while later. */
	io_uring_prep_nop(sqe);
	sqe->user_data = __atomic_add_fetch(&f->submitted, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&first_taken, 1, __ATOMIC_RELEASE);
	check_sleep_ms(30);
	CHECK_EQ(io_uring_submit(&f->ring), 1);
	return submitter_batches(f);
}

static int p_creator_waits(void)
{
	struct flow f;
	pthread_t s;

	flow_init(&f, 64, 0, 2000);
	start(&s, late_submitter, &f);
	while (!__atomic_load_n(&first_taken, __ATOMIC_ACQUIRE))
		sched_yield();
	reaper_untimed(&f);
	join(s);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static void *timed_reaper(void *arg)
{
	struct flow *f = (struct flow *) arg;

	while (load(&f->reaped) < f->total) {
		struct __kernel_timespec ts = check_kts_ms(3);
		struct io_uring_cqe *cqe;
		int ret = io_uring_wait_cqe_timeout(&f->ring, &cqe, &ts);

		if (ret == -ETIME)
			continue;
		CHECK_EQ(ret, 0);
		flow_reaped(f, cqe);
		io_uring_cqe_seen(&f->ring, cqe);
	}
	return NULL;
}

static void *burst_submitter(void *arg)
{
	struct flow *f = (struct flow *) arg;
	struct __kernel_timespec ts = check_kts_ms(1);

	while (load(&f->submitted) < f->total) {
		unsigned long first = __atomic_fetch_add(&f->submitted, 2, __ATOMIC_ACQ_REL) + 1;
		struct io_uring_sqe *sqe;

		flow_credit(f, 0);
		sqe = sqe_of(&f->ring);
		io_uring_prep_nop(sqe);
		sqe->user_data = first;
		sqe = sqe_of(&f->ring);
		io_uring_prep_timeout(sqe, &ts, 0, 0);
		sqe->user_data = first + 1;
		CHECK_EQ(io_uring_submit(&f->ring), 2);
		/* A pause: the reaper's waits time out meanwhile. */
		if (first % 20 == 1)
			check_sleep_ms(5);
	}
	return NULL;
}

static int p_timed_waits(void)
{
	struct flow f;
	pthread_t s, r;

	flow_init(&f, 64, 0, 400);
	start(&r, timed_reaper, &f);
	start(&s, burst_submitter, &f);
	join(s);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static int reaper_efd;

static void *epoll_reaper(void *arg)
{
	struct flow *f = (struct flow *) arg;
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, reaper_efd, &ev) == 0);
	while (load(&f->reaped) < f->total) {
		struct io_uring_cqe *cqe;
		unsigned long long v;
		unsigned head, n = 0;

		if (epoll_wait(ep, &ev, 1, 100) == 1)
			CHECK(read(reaper_efd, &v, sizeof(v)) == sizeof(v));
		io_uring_for_each_cqe(&f->ring, head, cqe) {
			flow_reaped(f, cqe);
			n++;
		}
		io_uring_cq_advance(&f->ring, n);
	}
	close(ep);
	return NULL;
}

static int p_eventfd_epoll(void)
{
	struct flow f;
	pthread_t s, r;

	flow_init(&f, 64, 0, 3000);
	reaper_efd = eventfd(0, EFD_CLOEXEC);
	CHECK(reaper_efd >= 0);
	CHECK_EQ(io_uring_register_eventfd(&f.ring, reaper_efd), 0);
	start(&r, epoll_reaper, &f);
	start(&s, submitter_batches, &f);
	join(s);
	join(r);
	flow_check(&f);
	CHECK_EQ(io_uring_unregister_eventfd(&f.ring), 0);
	io_uring_queue_exit(&f.ring);
	close(reaper_efd);
	return 0;
}

static volatile int pool_stop;

static void *pool_worker(void *arg)
{
	struct io_uring ring;
	unsigned long n = 0;

	(void) arg;
	CHECK_EQ(io_uring_queue_init(8, &ring, 0), 0);
	while (!__atomic_load_n(&pool_stop, __ATOMIC_RELAXED) || n < 100) {
		struct io_uring_cqe *cqe;
		struct io_uring_sqe *sqe = sqe_of(&ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = ++n;
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(cqe->user_data, n);
		io_uring_cqe_seen(&ring, cqe);
	}
	pthread_barrier_wait(&rings_done);
	io_uring_queue_exit(&ring);
	return NULL;
}

static int p_pool_fork_exec(void)
{
	static char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *argv[] = { exe, "child", "noop", NULL };
	extern char **environ;
	pthread_t t[4];

	CHECK(len > 0);
	exe[len] = 0;
	CHECK(pthread_barrier_init(&rings_done, NULL, 4) == 0);
	for (int i = 0; i < 4; i++)
		start(&t[i], pool_worker, NULL);
	for (int i = 0; i < 5; i++) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			execve(exe, argv, environ);
			_exit(127);
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "helper %d: status %#x", i, st);
	}
	__atomic_store_n(&pool_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 4; i++)
		join(t[i]);
	return 0;
}

static int p_sqpoll(void)
{
	struct flow f;
	pthread_t s, r;

	flow_init(&f, 64, IORING_SETUP_SQPOLL, 2000);
	start(&r, reaper_untimed, &f);
	start(&s, submitter_batches, &f);
	join(s);
	join(r);
	flow_check(&f);
	io_uring_queue_exit(&f.ring);
	return 0;
}

static const struct pattern {
	const char *name;
	int (*run)(void);
	/* A kernel-releases.tsv name the part needs, or NULL. */
	const char *needs;
} patterns[] = {
	{ "submit-reap", p_submit_reap, NULL },
	{ "slot-reuse", p_slot_reuse, NULL },
	{ "mutex-submitters", p_mutex_submitters, NULL },
	{ "ring-per-thread", p_ring_per_thread, NULL },
	{ "single-issuer", p_single_issuer, "IORING_SETUP_SINGLE_ISSUER" },
	{ "defer-msg-ring", p_defer_msg_ring, "IORING_SETUP_DEFER_TASKRUN" },
	{ "defer-eventfd", p_defer_eventfd, "IORING_SETUP_DEFER_TASKRUN" },
	{ "handoff", p_handoff, NULL },
	{ "creator-waits", p_creator_waits, NULL },
	{ "timed-waits", p_timed_waits, NULL },
	{ "eventfd-epoll", p_eventfd_epoll, NULL },
	{ "pool-fork-exec", p_pool_fork_exec, NULL },
	{ "sqpoll", p_sqpoll, "IORING_SETUP_SQPOLL" },
};

#define NPATTERNS (sizeof(patterns) / sizeof(patterns[0]))

/* ================================================================== */
/* The driver                                                          */
/* ================================================================== */

static void judge(const struct harm_run *r, const char *how, const struct harm_run *plain)
{
	char h[128];

	harm_how(r, h, sizeof(h));
	printf("  %-37s %s (%.2f s), %u diagnostic lines\n", how, h, r->secs, r->diag_lines);
	if (r->timed_out || !WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0)
		harm_problem("%s: %s; its stderr: %.300s", how, h, r->err);
	if (harm_count_lines(r->diag, "uring-check:"))
		harm_problem("%s: LIBURING_CHECK reported a correct program:\n%.800s", how, r->diag);
	/* Sanitizer reports (make check-tsan) are the program's stderr here. */
	if (strstr(r->err, "ThreadSanitizer") || strstr(r->err, "Sanitizer"))
		harm_problem("%s: a sanitizer report:\n%.3000s", how, r->err);
	if (plain && (r->out_len != plain->out_len || memcmp(r->out, plain->out, r->out_len)))
		harm_problem("%s: printed \"%.200s\", without the variables \"%.200s\"", how, r->out,
			     plain->out);
}

static void run_pattern(const struct pattern *p)
{
	struct harm_driver *d = harm_driver();
	struct harm_spec s;
	struct harm_env check, traced;
	struct harm_run r0, r1, r2;
	char tag[128];

	if (p->needs && !check_kernel_has_part_at(__FILE__, __LINE__, p->name, p->needs))
		return;
	memset(&s, 0, sizeof(s));
	s.name = p->name;
	s.argv[0] = d->self;
	s.argv[1] = "child";
	s.argv[2] = p->name;
	s.timeout_ms = 20000;
	memset(&check, 0, sizeof(check));
	check.check = "abort";
	traced = harm_vars(NULL);
	traced.check = "abort";
	harm_case_begin(p->name);
	snprintf(tag, sizeof(tag), "%s.plain", p->name);
	harm_exec(&s, NULL, tag, &r0);
	judge(&r0, "without the variables", NULL);
	if (d->problems) {
		harm_problem("BASELINE: the pattern fails without the variables (a test bug)");
	} else {
		snprintf(tag, sizeof(tag), "%s.check", p->name);
		harm_exec(&s, &check, tag, &r1);
		judge(&r1, "LIBURING_CHECK=abort", &r0);
		unlink(d->trace);
		snprintf(tag, sizeof(tag), "%s.traced", p->name);
		harm_exec(&s, &traced, tag, &r2);
		judge(&r2, "the same with LIBURING_TRACE, DEBUG", &r0);
		harm_free_run(&r1);
		harm_free_run(&r2);
	}
	harm_free_run(&r0);
	harm_case_end();
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "child")) {
		harm_start();
		if (!strcmp(argv[2], "noop"))
			return 0;
		for (unsigned i = 0; i < NPATTERNS; i++)
			if (!strcmp(argv[2], patterns[i].name)) {
				int ret = patterns[i].run();

				printf("%s: done\n", patterns[i].name);
				return ret;
			}
		FAIL("unknown pattern %s", argv[2]);
	}
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here (raw io_uring_setup)");
	harm_driver_init("check-mt-correct");
	for (unsigned i = 0; i < NPATTERNS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], patterns[i].name);
		if (wanted)
			run_pattern(&patterns[i]);
	}
	return harm_finish();
}
