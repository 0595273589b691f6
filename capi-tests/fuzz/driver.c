/* SPDX-License-Identifier: MIT */
/*
 * Fuzz driver: executes liburing API calls read from stdin, one operation a
 * line, through the liburing-ffi.so.2 named on the command line (dlopen by
 * path, every call through dlsym: no inline header code runs here), and
 * prints one result line per operation.  fuzz.py runs two drivers in
 * lockstep, one per library, and compares the lines.
 *
 *   driver <path to liburing-ffi.so.2>
 *
 * An operation that makes no sense in the current state (no ring, no CQE
 * held) prints "skip" instead of breaking liburing's contract, so any
 * sequence of lines, including a shrunk one, is safe to run.  Blocking calls
 * are made only with a timeout or when the result is already there; a
 * watchdog reports HANG for an operation that takes longer than 5 s.
 *
 * Operations (integers only):
 *   setup ENTRIES FLAGS CQ_ENTRIES   exit
 *   sqe KIND UD SQE_FLAGS A B        get_sqe + prep; KIND: 0 nop, 1 pipe read,
 *                                    2 pipe write, 3 socket read, 4 socket
 *                                    write, 5 timeout, 6 timeout remove,
 *                                    7 cancel, 8 link timeout, 9 poll,
 *                                    10 poll remove, 11 read_fixed, 12 failing nop,
 *                                    13 recv into a provided buffer
 *   submit  submit_wait_timeout N MS  submit_get_events  get_events
 *   peek  seen  wait_timeout MS  wait_cqes N MS  wait_if_ready
 *   batch N HALF                     peek_batch_cqe + cq_advance
 *   drain MS                         reap until nothing arrives for MS
 *   reg_files N  unreg_files  upd_files OFF  reg_bufs N  unreg_bufs
 *   reg_eventfd ASYNC  unreg_eventfd  read_eventfd  reg_ring_fd
 *   unreg_ring_fd  reg_personality  unreg_personality ID  probe
 *   setup_buf_ring BGID N  free_buf_ring  buf_ring_head BGID
 *   resize SQ CQ  enable  pipe_fill LEN  state
 *   submit_wait_min N MS MIN_US  wait_cqes_min N MS MIN_US
 *   reg_files_sparse N  alloc_range OFF LEN  reg_bufs_sparse N  upd_bufs OFF
 *   eventfd_toggle ON  restrict NOP_ONLY  sync_cancel UD MS  buf_add N BID
 *   unreg_buf_ring BGID  iowait ON  sqring_wait  max_workers BOUND UNBOUND
 *   (sqe KIND 13: recv with IOSQE_BUFFER_SELECT from buffer group B % 4)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

/* ---- every library function used, resolved from the given library ---- */
#define FUNCS(X)                                                              \
	X(io_uring_queue_init_params) X(io_uring_queue_exit) X(io_uring_get_sqe)     \
	X(io_uring_submit) X(io_uring_submit_and_wait_timeout)                       \
	X(io_uring_submit_and_get_events) X(io_uring_get_events)                     \
	X(io_uring_peek_cqe) X(io_uring_cqe_seen) X(io_uring_wait_cqe_timeout)       \
	X(io_uring_wait_cqes) X(io_uring_wait_cqe) X(io_uring_peek_batch_cqe)        \
	X(io_uring_cq_advance) X(io_uring_cq_ready) X(io_uring_sq_ready)             \
	X(io_uring_sq_space_left) X(io_uring_cq_has_overflow)                        \
	X(io_uring_register_files) X(io_uring_unregister_files)                      \
	X(io_uring_register_files_update) X(io_uring_register_buffers)               \
	X(io_uring_unregister_buffers) X(io_uring_register_eventfd)                  \
	X(io_uring_register_eventfd_async) X(io_uring_unregister_eventfd)            \
	X(io_uring_register_ring_fd) X(io_uring_unregister_ring_fd)                  \
	X(io_uring_register_personality) X(io_uring_unregister_personality)          \
	X(io_uring_get_probe_ring) X(io_uring_free_probe) X(io_uring_opcode_supported) \
	X(io_uring_setup_buf_ring) X(io_uring_free_buf_ring)                                                  \
	X(io_uring_resize_rings) X(io_uring_enable_rings)                            \
	X(io_uring_prep_nop) X(io_uring_prep_read) X(io_uring_prep_write)            \
	X(io_uring_prep_timeout) X(io_uring_prep_timeout_remove)                     \
	X(io_uring_prep_cancel64) X(io_uring_prep_link_timeout)                      \
	X(io_uring_prep_poll_add) X(io_uring_prep_poll_remove)                       \
	X(io_uring_prep_read_fixed) X(io_uring_sqe_set_data64)                       \
	X(io_uring_sqe_set_flags) X(io_uring_cqe_get_data64)                        \
	X(io_uring_submit_and_wait_min_timeout) X(io_uring_wait_cqes_min_timeout)    \
	X(io_uring_register_files_sparse) X(io_uring_register_file_alloc_range)      \
	X(io_uring_register_buffers_sparse) X(io_uring_register_buffers_update_tag)  \
	X(io_uring_cq_eventfd_toggle) X(io_uring_cq_eventfd_enabled)                 \
	X(io_uring_register_restrictions) X(io_uring_register_sync_cancel)           \
	X(io_uring_buf_ring_add) X(io_uring_buf_ring_advance) X(io_uring_buf_ring_mask) \
	X(io_uring_buf_ring_available) X(io_uring_unregister_buf_ring)               \
	X(io_uring_set_iowait) X(io_uring_sqring_wait) X(io_uring_register_iowq_max_workers) \
	X(io_uring_prep_recv) X(io_uring_sqe_set_buf_group)

#define DECLARE(name) static __typeof__(&name) f_##name;
FUNCS(DECLARE)
/* liburing-ffi.so.2 lacks this one (as upstream's): taken from liburing.so.2
 * in the same directory. */
static __typeof__(&io_uring_buf_ring_head) f_io_uring_buf_ring_head;

static void load(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		exit(2);
	}
#define LOAD(name)                                                            \
	*(void **) &f_##name = dlsym(h, #name);                                \
	if (!f_##name) {                                                       \
		fprintf(stderr, "%s: no symbol %s\n", path, #name);            \
		exit(2);                                                       \
	}
	FUNCS(LOAD)
	{
		char sib[4096];
		const char *slash = strrchr(path, '/');
		void *h2;

		snprintf(sib, sizeof(sib), "%.*sliburing.so.2",
			 slash ? (int) (slash - path + 1) : 0, path);
		h2 = dlopen(sib, RTLD_NOW | RTLD_LOCAL);
		if (!h2) {
			fprintf(stderr, "dlopen %s: %s\n", sib, dlerror());
			exit(2);
		}
		*(void **) &f_io_uring_buf_ring_head = dlsym(h2, "io_uring_buf_ring_head");
		if (!f_io_uring_buf_ring_head) {
			fprintf(stderr, "%s: no io_uring_buf_ring_head\n", sib);
			exit(2);
		}
	}
}

/* ---- state ---- */
static struct io_uring ring;
static int have_ring;
static struct io_uring_cqe *held;          /* from peek / wait, until seen */
static int sock_r, sock_w, pipe_r, pipe_w, pipe_w_nb, efd = -1;
static struct io_uring_buf_ring *br;
/*
 * One reader and one writer per channel at a time: when two requests wait on
 * the same pipe or socket, the one that loses the race after its poll fires
 * is handed to io-wq, and then completion order depends on thread timing.
 * Such requests carry a fixed user_data (CHANNEL_UD + slot) and the slot is
 * busy until a CQE with that user_data has been consumed (or the ring goes).
 */
#define CHANNEL_UD 100
enum { PIPE_READER, PIPE_WRITER, SOCK_READER, SOCK_WRITER, NR_SLOTS };
static int slot_busy[NR_SLOTS];
static int br_bgid, br_entries;
static unsigned char data[1 << 17] __attribute__((aligned(4096)));
#define DATA_HALF (sizeof(data) / 2)
/* Timeouts are read by the kernel at submission, so they must outlive prep. */
static struct __kernel_timespec ts_ms[4] = {
	{ 0, 0 }, { 0, 1000000 }, { 0, 20000000 }, { 10, 0 },
};

static struct __kernel_timespec *ts_for(int ms)
{
	if (ms <= 0)
		return &ts_ms[0];
	if (ms <= 1)
		return &ts_ms[1];
	if (ms <= 20)
		return &ts_ms[2];
	return &ts_ms[3];
}

/*
 * Data goes through a pipe and a UNIX stream socket pair: both complete reads
 * and writes inline or by poll, never through io-wq, so the order of
 * completions does not depend on worker-thread timing (a regular file, even
 * shmem, sends some reads and writes to io-wq).  They are made afresh with
 * every ring: the kernel cancels an exited ring's requests in the background,
 * and a late one must not move data of the next ring's channels.
 */
static void new_channels(void)
{
	char path[64];
	int p[2], sk[2];

	if (pipe_r) {
		close(pipe_r);
		close(pipe_w);
		close(pipe_w_nb);
		close(sock_r);
		close(sock_w);
	}
	if (pipe2(p, O_CLOEXEC) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sk)) {
		perror("pipe/socketpair");
		exit(2);
	}
	pipe_r = p[0];
	pipe_w = p[1];
	sock_r = sk[0];
	sock_w = sk[1];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pipe_w);
	pipe_w_nb = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (pipe_w_nb < 0) {
		perror(path);
		exit(2);
	}
}

static void on_alarm(int sig)
{
	static const char msg[] = "HANG\n";

	(void) sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(3);
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* CQEs of one reaping call, printed sorted (the kernel orders completions
 * of one batch only as far as it promises). */
struct cqe_rec {
	unsigned long long ud;
	int res;
	unsigned flags;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct cqe_rec *x = a, *y = b;

	if (x->ud != y->ud)
		return x->ud < y->ud ? -1 : 1;
	if (x->res != y->res)
		return x->res < y->res ? -1 : 1;
	return (x->flags > y->flags) - (x->flags < y->flags);
}

static void print_recs(struct cqe_rec *r, unsigned n)
{
	unsigned i;

	qsort(r, n, sizeof(*r), cmp_rec);
	for (i = 0; i < n; i++)
		out(" {%llu %d %#x}", r[i].ud, r[i].res, r[i].flags);
}

static void print_cqe(struct io_uring_cqe *c)
{
	out(" {%llu %d %#x}", (unsigned long long) c->user_data, c->res, c->flags);
}

/* A CQE is being consumed: free its channel slot. */
static void consumed(unsigned long long ud)
{
	if (ud >= CHANNEL_UD && ud < CHANNEL_UD + NR_SLOTS)
		slot_busy[ud - CHANNEL_UD] = 0;
}

static void drop_ring_state(void)
{
	memset(slot_busy, 0, sizeof(slot_busy));
	held = NULL;
	br = NULL;
	new_channels();
}

/* ---- operations ---- */
static void op_setup(unsigned entries, unsigned flags, unsigned cq)
{
	struct io_uring_params p;
	int ret;

	if (have_ring) {
		f_io_uring_queue_exit(&ring);
		have_ring = 0;
	}
	drop_ring_state();
	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = cq;
	ret = f_io_uring_queue_init_params(entries, &ring, &p);
	out("ret=%d", ret);
	if (ret == 0) {
		have_ring = 1;
		out(" sq=%u cq=%u flags=%#x", p.sq_entries, p.cq_entries, ring.flags);
	}
}

static int slot_of(int kind)
{
	switch (kind) {
	case 1: return PIPE_READER;
	case 2: return PIPE_WRITER;
	case 3: case 11: case 13: return SOCK_READER;
	case 4: return SOCK_WRITER;
	default: return -1;
	}
}

static void op_sqe(int kind, unsigned long long ud, unsigned sqe_flags, int a, int b)
{
	struct io_uring_sqe *sqe;
	unsigned off = (unsigned) a % DATA_HALF, len = (unsigned) b % 8192;
	int slot = slot_of(kind);

	if (slot >= 0) {
		if (slot_busy[slot]) {
			out("busy");
			return;
		}
		ud = CHANNEL_UD + slot;
		/* Its CQE must come, to free the slot. */
		sqe_flags &= ~IOSQE_CQE_SKIP_SUCCESS;
	}
	sqe = f_io_uring_get_sqe(&ring);
	if (!sqe) {
		out("sqe=NULL");
		return;
	}
	if (slot >= 0)
		slot_busy[slot] = 1;
	switch (kind) {
	case 0: /* nop */
		f_io_uring_prep_nop(sqe);
		break;
	case 1: /* read of the pipe (waits for data) */
		f_io_uring_prep_read(sqe, pipe_r, data + DATA_HALF + off % 4096, len, 0);
		break;
	case 2: /* write to the pipe */
		f_io_uring_prep_write(sqe, pipe_w, data + off, len, 0);
		break;
	case 3: /* read of the socket (waits for data); b: offset 0 or -1 */
		f_io_uring_prep_read(sqe, sock_r, data + DATA_HALF + off % 4096, len,
				     a & 1 ? -1 : 0);
		break;
	case 4: /* write to the socket */
		f_io_uring_prep_write(sqe, sock_w, data + off, len, a & 1 ? -1 : 0);
		break;
	case 5: /* timeout: a = ms, b = completion count */
		f_io_uring_prep_timeout(sqe, ts_for(a), (unsigned) b % 4, 0);
		break;
	case 6: /* timeout remove of user_data a */
		f_io_uring_prep_timeout_remove(sqe, (__u64) a, 0);
		break;
	case 7: /* cancel by user_data a (b: ALL) */
		f_io_uring_prep_cancel64(sqe, (__u64) a, b & 1 ? IORING_ASYNC_CANCEL_ALL : 0);
		break;
	case 8: /* link timeout (only meaningful after an IO_LINK SQE) */
		f_io_uring_prep_link_timeout(sqe, ts_for(a), 0);
		break;
	case 9: /* poll for the pipe being readable */
		f_io_uring_prep_poll_add(sqe, pipe_r, POLLIN);
		break;
	case 10: /* poll remove of user_data a */
		f_io_uring_prep_poll_remove(sqe, (__u64) a);
		break;
	case 11: /* read of the socket into registered buffer b % 4 */
		f_io_uring_prep_read_fixed(sqe, sock_r, data + (b % 4) * 4096, 1 + len % 4095,
					   -1, b % 4);
		break;
	case 13: /* recv from the socket into a provided buffer of group b % 4 */
		f_io_uring_prep_recv(sqe, sock_r, NULL, 1 + len % 300, 0);
		f_io_uring_sqe_set_buf_group(sqe, b % 4);
		sqe_flags |= IOSQE_BUFFER_SELECT;
		break;
	case 12: /* a NOP the kernel fails with -a */
		f_io_uring_prep_nop(sqe);
		sqe->nop_flags = IORING_NOP_INJECT_RESULT;
		sqe->len = (unsigned) -(a % 200);
		break;
	default:
		f_io_uring_prep_nop(sqe);
	}
	f_io_uring_sqe_set_data64(sqe, ud);
	f_io_uring_sqe_set_flags(sqe, sqe_flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK |
						   IOSQE_IO_DRAIN | IOSQE_ASYNC |
						   IOSQE_CQE_SKIP_SUCCESS | IOSQE_BUFFER_SELECT));
	out("ok");
}

/* (Call as op_wait_result(call(..., &c), &c): the pointer is read after the call.) */
static void op_wait_result(int ret, struct io_uring_cqe **cp)
{
	struct io_uring_cqe *c = *cp;

	out("ret=%d", ret);
	if (ret == 0 && c) {
		held = c;
		print_cqe(c);
	}
}

static void op_batch(unsigned n, int half)
{
	struct io_uring_cqe *cqes[256];
	struct cqe_rec recs[256];
	unsigned got, adv, i;

	if (n > 256)
		n = 256;
	got = f_io_uring_peek_batch_cqe(&ring, cqes, n);
	adv = half ? (got + 1) / 2 : got;
	for (i = 0; i < adv; i++) {
		recs[i].ud = f_io_uring_cqe_get_data64(cqes[i]);
		recs[i].res = cqes[i]->res;
		recs[i].flags = cqes[i]->flags;
		consumed(recs[i].ud);
	}
	f_io_uring_cq_advance(&ring, adv);
	held = NULL;
	out("got=%u adv=%u", got, adv);
	print_recs(recs, adv);
}

/* Reap everything that arrives until nothing has for `ms` (at most 4096). */
static void op_drain(int ms)
{
	static struct cqe_rec recs[4096];
	struct io_uring_cqe *c;
	unsigned n = 0;

	held = NULL;
	while (n < 4096) {
		int ret = f_io_uring_wait_cqe_timeout(&ring, &c, ts_for(ms));

		if (ret)
			break;
		recs[n].ud = c->user_data;
		recs[n].res = c->res;
		recs[n].flags = c->flags;
		consumed(recs[n].ud);
		n++;
		f_io_uring_cqe_seen(&ring, c);
	}
	out("n=%u", n);
	print_recs(recs, n);
}

static void op_reg_files(unsigned n)
{
	int fds[8] = { sock_r, pipe_r, pipe_w, -1, sock_w, -1, pipe_r, -1 };

	out("ret=%d", f_io_uring_register_files(&ring, fds, n % 9));
}

static void op_upd_files(unsigned off)
{
	int fds[2] = { pipe_w, -1 };

	out("ret=%d", f_io_uring_register_files_update(&ring, off % 10, fds, 2));
}

static void op_reg_bufs(unsigned n)
{
	struct iovec iov[4];
	unsigned i;

	for (i = 0; i < 4; i++) {
		iov[i].iov_base = data + i * 4096;
		iov[i].iov_len = 4096;
	}
	out("ret=%d", f_io_uring_register_buffers(&ring, iov, n % 5));
}

static void op_probe(void)
{
	struct io_uring_probe *p = f_io_uring_get_probe_ring(&ring);
	unsigned sum = 0;
	int op;

	if (!p) {
		out("probe=NULL");
		return;
	}
	for (op = 0; op < 80; op++)
		sum = sum * 3 + (unsigned) f_io_uring_opcode_supported(p, op);
	out("last_op=%u ops_len=%u sum=%u", p->last_op, p->ops_len, sum);
	f_io_uring_free_probe(p);
}

static void op_setup_buf_ring(int bgid, unsigned n)
{
	int err = 0;

	if (br) {
		out("skip");
		return;
	}
	n = 1u << (n % 6);
	br = f_io_uring_setup_buf_ring(&ring, n, bgid % 4, 0, &err);
	if (br) {
		br_bgid = bgid % 4;
		br_entries = n;
	}
	out("br=%s err=%d", br ? "ok" : "NULL", br ? 0 : err);
}

/* Provide n buffers (ids from `bid`) of 512 bytes to the buffer ring. */
static void op_buf_add(unsigned n, unsigned bid)
{
	int mask, i;

	if (!br) {
		out("skip");
		return;
	}
	mask = f_io_uring_buf_ring_mask(br_entries);
	n %= (unsigned) br_entries + 1;
	for (i = 0; i < (int) n; i++)
		f_io_uring_buf_ring_add(br, data + DATA_HALF + ((bid + i) % 64) * 512, 512,
					(unsigned short) (bid + i), mask, i);
	f_io_uring_buf_ring_advance(br, (int) n);
	out("added=%u available=%d", n, f_io_uring_buf_ring_available(&ring, br, br_bgid));
}

static void op_restrict(int allow_nop_only)
{
	struct io_uring_restriction res[2];

	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_READ;
	out("ret=%d", f_io_uring_register_restrictions(&ring, res, allow_nop_only ? 1 : 2));
}

static void op_sync_cancel(unsigned long long ud, int ms)
{
	struct io_uring_sync_cancel_reg reg;

	memset(&reg, 0, sizeof(reg));
	reg.addr = ud;
	reg.timeout.tv_sec = 0;
	reg.timeout.tv_nsec = ms > 0 ? 1000000LL * (ms > 20 ? 20 : ms) : 0;
	if (ms < 0)
		reg.timeout.tv_sec = reg.timeout.tv_nsec = -1;
	out("ret=%d", f_io_uring_register_sync_cancel(&ring, &reg));
}

static void op_state(void)
{
	out("sq_ready=%u space=%u cq_ready=%u overflow=%d", f_io_uring_sq_ready(&ring),
	    f_io_uring_sq_space_left(&ring), f_io_uring_cq_ready(&ring),
	    (int) f_io_uring_cq_has_overflow(&ring));
}

static void op_resize(unsigned sq, unsigned cq)
{
	struct io_uring_params p;

	/* Unsubmitted SQEs across a resize are a deliberate difference
	 * (README): only resize with an empty SQ, unless fuzz.py --selftest
	 * wants exactly that difference found. */
	if (f_io_uring_sq_ready(&ring) && !getenv("FUZZ_RESIZE_PENDING")) {
		out("skip");
		return;
	}
	memset(&p, 0, sizeof(p));
	p.sq_entries = 1u << (sq % 6);
	p.cq_entries = 1u << (cq % 8);
	if (p.cq_entries > p.sq_entries)
		p.flags = IORING_SETUP_CQSIZE;
	held = NULL;
	out("ret=%d", f_io_uring_resize_rings(&ring, &p));
}

/*
 * Before an operation that observes the CQ: give work the kernel finishes in
 * the background (io-wq, a request retried after its poll fired) a moment to
 * land, so that both drivers observe the same state.  Sleeps in 200 us steps
 * until the CQ has not grown for two steps (at most 10 ms); the sleep is a
 * syscall, so task work queued for this thread also runs on its way out.
 */
static void settle(const char *op)
{
	static const char *const observers[] = {
		"state", "peek", "batch", "wait_if_ready", "drain", "wait_timeout",
		"wait_cqes", "wait_cqes_min", "read_eventfd", "submit_wait_timeout",
		"submit_wait_min", "sync_cancel", "buf_add", NULL,
	};
	struct timespec ts = { 0, 200000 };
	unsigned last, now, quiet = 0;
	int i;

	if (getenv("FUZZ_NO_SETTLE"))
		return;
	for (i = 0; observers[i]; i++)
		if (!strcmp(op, observers[i]))
			break;
	if (!observers[i])
		return;
	last = have_ring ? f_io_uring_cq_ready(&ring) : 0;
	for (i = 0; i < 50 && quiet < 2; i++) {
		nanosleep(&ts, NULL);
		now = have_ring ? f_io_uring_cq_ready(&ring) : 0;
		quiet = now == last ? quiet + 1 : 0;
		last = now;
	}
}

static int needs_ring(const char *op)
{
	return strcmp(op, "setup") && strcmp(op, "exit") && strcmp(op, "pipe_fill");
}

int main(int argc, char **argv)
{
	char line[256], op[32];
	long long v[5];

	if (argc != 2) {
		fprintf(stderr, "usage: %s <liburing-ffi.so.2>\n", argv[0]);
		return 2;
	}
	load(argv[1]);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);

	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char) (i * 7 + (i >> 9));
	new_channels();

	while (fgets(line, sizeof(line), stdin)) {
		int n;

		memset(v, 0, sizeof(v));
		n = sscanf(line, "%31s %lld %lld %lld %lld %lld", op, &v[0], &v[1], &v[2], &v[3],
			   &v[4]);
		if (n < 1)
			continue;
		alarm(5);
		settle(op);
		if (needs_ring(op) && !have_ring) {
			out("skip");
		} else if (!strcmp(op, "setup")) {
			op_setup((unsigned) v[0], (unsigned) v[1], (unsigned) v[2]);
		} else if (!strcmp(op, "exit")) {
			if (have_ring)
				f_io_uring_queue_exit(&ring);
			have_ring = 0;
			drop_ring_state();
			out("ok");
		} else if (!strcmp(op, "sqe")) {
			op_sqe((int) v[0], (unsigned long long) v[1], (unsigned) v[2], (int) v[3],
			       (int) v[4]);
		} else if (!strcmp(op, "submit")) {
			out("ret=%d", f_io_uring_submit(&ring));
		} else if (!strcmp(op, "submit_wait_timeout")) {
			struct io_uring_cqe *c = NULL;
			int ret = f_io_uring_submit_and_wait_timeout(&ring, &c, (unsigned) v[0] % 4,
								     ts_for((int) v[1]), NULL);

			held = NULL;
			out("ret=%d", ret);
		} else if (!strcmp(op, "submit_get_events")) {
			out("ret=%d", f_io_uring_submit_and_get_events(&ring));
		} else if (!strcmp(op, "get_events")) {
			out("ret=%d", f_io_uring_get_events(&ring));
		} else if (!strcmp(op, "peek")) {
			struct io_uring_cqe *c = NULL;

			op_wait_result(f_io_uring_peek_cqe(&ring, &c), &c);
		} else if (!strcmp(op, "seen")) {
			if (!held) {
				out("skip");
			} else {
				consumed(held->user_data);
				f_io_uring_cqe_seen(&ring, held);
				held = NULL;
				out("ok");
			}
		} else if (!strcmp(op, "wait_timeout")) {
			struct io_uring_cqe *c = NULL;

			op_wait_result(f_io_uring_wait_cqe_timeout(&ring, &c, ts_for((int) v[0])), &c);
		} else if (!strcmp(op, "wait_cqes")) {
			struct io_uring_cqe *c = NULL;

			op_wait_result(f_io_uring_wait_cqes(&ring, &c, (unsigned) v[0] % 4,
							    ts_for((int) v[1]), NULL), &c);
		} else if (!strcmp(op, "wait_if_ready")) {
			struct io_uring_cqe *c = NULL;

			if (!f_io_uring_cq_ready(&ring))
				out("skip");
			else
				op_wait_result(f_io_uring_wait_cqe(&ring, &c), &c);
		} else if (!strcmp(op, "batch")) {
			op_batch((unsigned) v[0], (int) v[1]);
		} else if (!strcmp(op, "drain")) {
			op_drain((int) v[0]);
		} else if (!strcmp(op, "reg_files")) {
			op_reg_files((unsigned) v[0]);
		} else if (!strcmp(op, "unreg_files")) {
			out("ret=%d", f_io_uring_unregister_files(&ring));
		} else if (!strcmp(op, "upd_files")) {
			op_upd_files((unsigned) v[0]);
		} else if (!strcmp(op, "reg_bufs")) {
			op_reg_bufs((unsigned) v[0]);
		} else if (!strcmp(op, "unreg_bufs")) {
			out("ret=%d", f_io_uring_unregister_buffers(&ring));
		} else if (!strcmp(op, "reg_eventfd")) {
			if (efd < 0)
				efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
			out("ret=%d", v[0] ? f_io_uring_register_eventfd_async(&ring, efd) :
				      f_io_uring_register_eventfd(&ring, efd));
		} else if (!strcmp(op, "unreg_eventfd")) {
			out("ret=%d", f_io_uring_unregister_eventfd(&ring));
		} else if (!strcmp(op, "read_eventfd")) {
			eventfd_t val = 0;

			out("ret=%d", efd < 0 ? -EBADF : eventfd_read(efd, &val) ? -errno : 0);
			out(" nonzero=%d", val != 0);
		} else if (!strcmp(op, "reg_ring_fd")) {
			out("ret=%d", f_io_uring_register_ring_fd(&ring));
		} else if (!strcmp(op, "unreg_ring_fd")) {
			out("ret=%d", f_io_uring_unregister_ring_fd(&ring));
		} else if (!strcmp(op, "reg_personality")) {
			out("ret=%d", f_io_uring_register_personality(&ring));
		} else if (!strcmp(op, "unreg_personality")) {
			out("ret=%d", f_io_uring_unregister_personality(&ring, (int) v[0]));
		} else if (!strcmp(op, "probe")) {
			op_probe();
		} else if (!strcmp(op, "setup_buf_ring")) {
			op_setup_buf_ring((int) v[0], (unsigned) v[1]);
		} else if (!strcmp(op, "free_buf_ring")) {
			if (!br) {
				out("skip");
			} else {
				out("ret=%d", f_io_uring_free_buf_ring(&ring, br, br_entries, br_bgid));
				br = NULL;
			}
		} else if (!strcmp(op, "buf_ring_head")) {
			uint16_t head = 0xffff;
			int ret = f_io_uring_buf_ring_head(&ring, (int) v[0] % 4, &head);

			out("ret=%d head=%u", ret, ret ? 0 : head);
		} else if (!strcmp(op, "resize")) {
			op_resize((unsigned) v[0], (unsigned) v[1]);
		} else if (!strcmp(op, "enable")) {
			out("ret=%d", f_io_uring_enable_rings(&ring));
		} else if (!strcmp(op, "pipe_fill")) {
			ssize_t w = write(pipe_w_nb, data, (size_t) v[0] % 8192);

			out("ret=%zd", w < 0 ? -errno : w);
		} else if (!strcmp(op, "submit_wait_min")) {
			struct io_uring_cqe *c = NULL;
			int ret = f_io_uring_submit_and_wait_min_timeout(
				&ring, &c, (unsigned) v[0] % 4, ts_for((int) v[1]),
				(unsigned) v[2] % 5000, NULL);

			held = NULL;
			out("ret=%d", ret);
		} else if (!strcmp(op, "wait_cqes_min")) {
			struct io_uring_cqe *c = NULL;

			op_wait_result(f_io_uring_wait_cqes_min_timeout(&ring, &c, (unsigned) v[0] % 4,
									 ts_for((int) v[1]),
									 (unsigned) v[2] % 5000,
									 NULL), &c);
		} else if (!strcmp(op, "reg_files_sparse")) {
			out("ret=%d", f_io_uring_register_files_sparse(&ring, (unsigned) v[0]));
		} else if (!strcmp(op, "alloc_range")) {
			out("ret=%d", f_io_uring_register_file_alloc_range(&ring, (unsigned) v[0],
									   (unsigned) v[1]));
		} else if (!strcmp(op, "reg_bufs_sparse")) {
			out("ret=%d", f_io_uring_register_buffers_sparse(&ring, (unsigned) v[0]));
		} else if (!strcmp(op, "upd_bufs")) {
			struct iovec iov = { data + 4096, 4096 };
			__u64 tag = 0;

			out("ret=%d", f_io_uring_register_buffers_update_tag(&ring, (unsigned) v[0],
									     &iov, &tag, 1));
		} else if (!strcmp(op, "eventfd_toggle")) {
			int ret = f_io_uring_cq_eventfd_toggle(&ring, v[0] & 1);

			out("ret=%d enabled=%d", ret, (int) f_io_uring_cq_eventfd_enabled(&ring));
		} else if (!strcmp(op, "restrict")) {
			op_restrict((int) v[0] & 1);
		} else if (!strcmp(op, "sync_cancel")) {
			op_sync_cancel((unsigned long long) v[0], (int) v[1]);
		} else if (!strcmp(op, "buf_add")) {
			op_buf_add((unsigned) v[0], (unsigned) v[1]);
		} else if (!strcmp(op, "unreg_buf_ring")) {
			int ret = f_io_uring_unregister_buf_ring(&ring, (int) v[0] % 4);

			/* Our mapping of a ring the kernel no longer knows is freed
			 * by free_buf_ring only: forget it here (leak, not reuse). */
			if (!ret && br && br_bgid == (int) v[0] % 4)
				br = NULL;
			out("ret=%d", ret);
		} else if (!strcmp(op, "iowait")) {
			out("ret=%d", f_io_uring_set_iowait(&ring, v[0] & 1));
		} else if (!strcmp(op, "sqring_wait")) {
			out("ret=%d", f_io_uring_sqring_wait(&ring));
		} else if (!strcmp(op, "max_workers")) {
			unsigned vals[2] = { (unsigned) v[0], (unsigned) v[1] };
			int ret = f_io_uring_register_iowq_max_workers(&ring, vals);

			out("ret=%d", ret);
		} else if (!strcmp(op, "state")) {
			op_state();
		} else {
			out("unknown-op");
		}
		alarm(0);
		out("\n");
		fflush(stdout);
	}
	if (have_ring)
		f_io_uring_queue_exit(&ring);
	return 0;
}
