/* SPDX-License-Identifier: MIT */
/*
 * The RETURN VALUE claim of every io_uring_prep_* page (make check-man):
 * the helper returns nothing, the request's result arrives in its CQE's
 * res, which holds on success what the page says (bytes, a descriptor, 0,
 * the events...), and on failure a negated errno value.
 *
 *   request_results --list      case names with the kernel release each needs
 *   request_results [NAME...]   runs the named cases (all without names)
 *
 * One case per helper page, named "res-<helper>". Each case prepares one
 * request with the helper on a fresh ring and a fresh fixture (a file, a
 * socket pair, a pipe, a registered buffer and an 8-slot file table), and
 * judges the res (and flags) of that request's CQE; then it prepares the
 * same request again with an SQE flag bit the kernel does not know, which
 * must fail it with -EINVAL in res: the failure path of the same request.
 * Output and kernel-release rule as man/checks/claims.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <liburing.h>
#include <linux/futex.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#endif
#ifndef FUTEX2_PRIVATE
#define FUTEX2_PRIVATE 128
#endif

/*
 * The helpers ahead of liburing (header-only here) are in no liburing
 * release, whose headers also lack the 7.2 kernel names (IORING_NOP_FILE,
 * write_stream) that come with them: their cases are built against ours only.
 */
#ifdef IORING_NOP_FILE
#define AHEAD_OF_LIBURING 1
#endif

#define TAG 0xC1A1
#define BGID 7
#define NOT_HERE_RES (-30000)

enum want { W_EQ, W_FD, W_GE0 };

struct fx {
	struct io_uring ring;
	struct io_uring target;	/* msg_ring's other ring */
	int have_target;
	int have_ring;		/* ring set up (fx_close exits it) */
	char dir[64];
	char path[128];		/* dir/data: 4096 bytes */
	int file, sv[2], pipe[2], listener, epfd;
	int loop;		/* a loop device over a file of dir, or -1 */
	char *buf;		/* 4096 bytes, registered as buffer 0 */
	struct io_uring_buf_ring *br;
	char *br_mem;
	struct iovec iov;
	struct msghdr msg;
	struct sockaddr_un addr;
	struct sockaddr_in inaddr;
	uint32_t *futex;
	struct futex_waitv waitv;
	int fds[2];
	struct statx stx;
	struct epoll_event ev[2];
	struct __kernel_timespec ts;
	struct open_how how;
	char small[64];
	/* what the row expects */
	enum want want;
	int want_res;
	unsigned want_flags;
	int (*judge)(struct fx *, struct io_uring_cqe *);
	const char *skip;
};

static char why[256];

static int fail_why(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return 0;
}

/* ---- the fixture ------------------------------------------------------ */

/* Rings are torn down asynchronously, so a request a failed run left
 * pending can outlive its fixture: every run gets names and futex words
 * of its own. */
static unsigned run_no;

static void abstract_name(struct sockaddr_un *sa, const char *what)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "uring-res-%s-%d-%u", what,
		 getpid(), run_no);
}

static int fx_open(struct fx *f, unsigned ring_flags)
{
	struct io_uring_params p;

	memset(f, 0, sizeof(*f));
	f->file = f->sv[0] = f->sv[1] = f->pipe[0] = f->pipe[1] = f->listener = f->epfd = -1;
	f->loop = -1;
	snprintf(f->dir, sizeof(f->dir), "res-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/data", f->dir);
	f->file = open(f->path, O_RDWR | O_CREAT, 0644);
	f->buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->file < 0 || f->buf == MAP_FAILED)
		return -1;
	memset(f->buf, 'a', 4096);
	if (write(f->file, f->buf, 4096) != 4096)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, f->sv) || pipe(f->pipe))
		return -1;
	memset(&p, 0, sizeof(p));
	p.flags = ring_flags;
	int ret = io_uring_queue_init_params(16, &f->ring, &p);

	if (ret) {
		/* The library returns -errno without setting errno. */
		errno = -ret;
		return -1;
	}
	f->have_ring = 1;
	f->iov.iov_base = f->buf;
	f->iov.iov_len = 4096;
	io_uring_register_buffers(&f->ring, &f->iov, 1);
	/* A kernel without sparse registration (5.19) takes a table of -1
	 * entries (empty slots, since 5.5) the old way. */
	if (io_uring_register_files_sparse(&f->ring, 8)) {
		int empty[8];

		memset(empty, 0xff, sizeof(empty));
		io_uring_register_files(&f->ring, empty, 8);
	}
	f->iov.iov_len = 16;
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(p);
}

static void fx_close(struct fx *f)
{
	if (f->have_ring)
		io_uring_queue_exit(&f->ring);
	if (f->have_target)
		io_uring_queue_exit(&f->target);
	int fds[] = { f->file, f->sv[0], f->sv[1], f->pipe[0], f->pipe[1], f->listener, f->epfd };

	if (f->loop >= 0) {
		ioctl(f->loop, LOOP_CLR_FD, 0);
		close(f->loop);
	}
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (f->buf && f->buf != MAP_FAILED)
		munmap(f->buf, 4096);
	free(f->br_mem);
	nftw(f->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* A ring of 4 provided buffers of 64 bytes in group BGID (registered with
 * IORING_REGISTER_PBUF_RING, 5.19). */
static int fx_buf_ring(struct fx *f)
{
	int ret;

	f->br = io_uring_setup_buf_ring(&f->ring, 4, BGID, 0, &ret);
	if (!f->br)
		return -1;
	f->br_mem = calloc(4, 64);
	for (int i = 0; i < 4; i++)
		io_uring_buf_ring_add(f->br, f->br_mem + i * 64, 64, i, io_uring_buf_ring_mask(4), i);
	io_uring_buf_ring_advance(f->br, 4);
	return 0;
}

static int fx_listen(struct fx *f)
{
	abstract_name(&f->addr, "listen");
	f->listener = socket(AF_UNIX, SOCK_STREAM, 0);
	if (f->listener < 0 || bind(f->listener, (struct sockaddr *)&f->addr, sizeof(f->addr)) ||
	    listen(f->listener, 4))
		return -1;
	return 0;
}

/* A client connected to the listener (left open for the process's life:
 * the accept side needs it pending). */
static int fx_connect_client(struct fx *f)
{
	int c = socket(AF_UNIX, SOCK_STREAM, 0);

	if (c < 0 || connect(c, (struct sockaddr *)&f->addr, sizeof(f->addr)))
		return -1;
	return 0;
}

/* A UDP socket on loopback, bound, as the destination of zero-copy sends
 * (AF_UNIX has no zero-copy); also connected to itself. */
static int fx_udp(struct fx *f)
{
	socklen_t len = sizeof(f->inaddr);
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&f->inaddr, 0, sizeof(f->inaddr));
	f->inaddr.sin_family = AF_INET;
	f->inaddr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&f->inaddr, sizeof(f->inaddr)) ||
	    getsockname(s, (struct sockaddr *)&f->inaddr, &len) ||
	    connect(s, (struct sockaddr *)&f->inaddr, sizeof(f->inaddr))) {
		if (s >= 0)
			close(s);
		f->skip = "no loopback UDP socket on this machine";
		return -1;
	}
	close(f->sv[1]);
	f->sv[1] = s;
	return 0;
}

static struct io_uring_sqe *sqe_of(struct fx *f)
{
	return io_uring_get_sqe(&f->ring);
}

/* Submits what is queued (requests the judged one acts on). */
static int settle(struct fx *f)
{
	return io_uring_submit(&f->ring) < 0 ? -1 : 0;
}

static void expect(struct fx *f, enum want w, int res)
{
	f->want = w;
	f->want_res = res;
}

static int kernel_at_least(int major, int minor);

/* A request that stays pending (poll on the empty pipe), user_data 77. */
static int pending_poll(struct fx *f)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_add(sqe, f->pipe[0], POLLIN);
	io_uring_sqe_set_data64(sqe, 77);
	return settle(f);
}

/* ---- one prep function per page: prepares the judged request ---------- */

/* What a prep function returns when it queued and tagged the judged
 * request itself, ahead of others. */
static struct io_uring_sqe queued_marker;
#define QUEUED (&queued_marker)

#define ROW(name) static struct io_uring_sqe *name(struct fx *f)

ROW(p_nop)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_nop(sqe);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_nop128)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe128(&f->ring);

	if (sqe)
		io_uring_prep_nop128(sqe);
	expect(f, W_EQ, 0);
	return sqe;
}

#ifdef AHEAD_OF_LIBURING
/* NOP_FILE looks the fixture's file up: found, so 0. */
ROW(p_nop_flags)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_nop_flags(sqe, f->file, 0, IORING_NOP_FILE);
	expect(f, W_EQ, 0);
	return sqe;
}
#endif

ROW(p_rw)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_rw(IORING_OP_READ, sqe, f->file, f->small, 16, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_read)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_read(sqe, f->file, f->small, 16, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_write)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_write(sqe, f->file, f->small, 16, 4096);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_readv)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_readv(sqe, f->file, &f->iov, 1, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_readv2)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_readv2(sqe, f->file, &f->iov, 1, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_writev)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_writev(sqe, f->file, &f->iov, 1, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_writev2)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_writev2(sqe, f->file, &f->iov, 1, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_read_fixed)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_read_fixed(sqe, f->file, f->buf, 16, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_write_fixed)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_write_fixed(sqe, f->file, f->buf, 16, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_readv_fixed)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_readv_fixed(sqe, f->file, &f->iov, 1, 0, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

ROW(p_writev_fixed)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_writev_fixed(sqe, f->file, &f->iov, 1, 0, 0, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

static int has_buffer_and_more(struct fx *f, struct io_uring_cqe *cqe)
{
	unsigned want = IORING_CQE_F_BUFFER | IORING_CQE_F_MORE;

	if (cqe->res != 8 || (cqe->flags & want) != want)
		return fail_why("res %d flags %#x, wanted 8 with F_BUFFER and F_MORE", cqe->res,
				cqe->flags);
	(void)f;
	return 1;
}

ROW(p_read_multishot)
{
	if (fx_buf_ring(f) || write(f->pipe[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_read_multishot(sqe, f->pipe[0], 0, 0, BGID);
	f->judge = has_buffer_and_more;
	return sqe;
}

ROW(p_recv)
{
	if (write(f->sv[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_recv(sqe, f->sv[0], f->small, 8, 0);
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_recv_multishot)
{
	if (fx_buf_ring(f) || write(f->sv[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_recv_multishot(sqe, f->sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BGID;
	f->judge = has_buffer_and_more;
	return sqe;
}

ROW(p_set_buf_group)
{
	if (fx_buf_ring(f) || write(f->sv[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_recv(sqe, f->sv[0], NULL, 8, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_BUFFER_SELECT);
	io_uring_sqe_set_buf_group(sqe, BGID);
	expect(f, W_EQ, 8);
	f->want_flags = IORING_CQE_F_BUFFER;
	return sqe;
}

static void msg_of(struct fx *f, void *name, socklen_t namelen)
{
	memset(&f->msg, 0, sizeof(f->msg));
	f->iov.iov_base = f->small;
	f->iov.iov_len = 8;
	f->msg.msg_iov = &f->iov;
	f->msg.msg_iovlen = 1;
	f->msg.msg_name = name;
	f->msg.msg_namelen = namelen;
}

ROW(p_recvmsg)
{
	if (write(f->sv[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	msg_of(f, NULL, 0);
	io_uring_prep_recvmsg(sqe, f->sv[0], &f->msg, 0);
	expect(f, W_EQ, 8);
	return sqe;
}

static int recvmsg_out_payload(struct fx *f, struct io_uring_cqe *cqe)
{
	unsigned want = IORING_CQE_F_BUFFER | IORING_CQE_F_MORE;

	if (cqe->res <= 0 || (cqe->flags & want) != want)
		return fail_why("res %d flags %#x, wanted bytes with F_BUFFER and F_MORE",
				cqe->res, cqe->flags);
	char *b = f->br_mem + 64 * (cqe->flags >> IORING_CQE_BUFFER_SHIFT);
	struct io_uring_recvmsg_out *o = io_uring_recvmsg_validate(b, cqe->res, &f->msg);

	if (!o || o->payloadlen != 8)
		return fail_why("no io_uring_recvmsg_out with an 8-byte payload at the buffer's "
				"start (res %d)", cqe->res);
	return 1;
}

ROW(p_recvmsg_multishot)
{
	if (fx_buf_ring(f) || write(f->sv[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	memset(&f->msg, 0, sizeof(f->msg));
	io_uring_prep_recvmsg_multishot(sqe, f->sv[0], &f->msg, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BGID;
	f->judge = recvmsg_out_payload;
	return sqe;
}

ROW(p_send)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_send(sqe, f->sv[0], "12345678", 8, 0);
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_sendmsg)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	msg_of(f, NULL, 0);
	io_uring_prep_sendmsg(sqe, f->sv[0], &f->msg, 0);
	expect(f, W_EQ, 8);
	return sqe;
}

/* An unbound datagram socket sends to the bound one by address. */
static int dgram_pair(struct fx *f)
{
	abstract_name(&f->addr, "dgram");
	close(f->sv[0]);
	close(f->sv[1]);
	f->sv[0] = socket(AF_UNIX, SOCK_DGRAM, 0);
	f->sv[1] = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (f->sv[0] < 0 || f->sv[1] < 0 ||
	    bind(f->sv[1], (struct sockaddr *)&f->addr, sizeof(f->addr)))
		return -1;
	return 0;
}

ROW(p_sendto)
{
	if (dgram_pair(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_sendto(sqe, f->sv[0], "12345678", 8, 0, (struct sockaddr *)&f->addr,
			     sizeof(f->addr));
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_send_set_addr)
{
	if (dgram_pair(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_send(sqe, f->sv[0], "12345678", 8, 0);
	io_uring_prep_send_set_addr(sqe, (struct sockaddr *)&f->addr, sizeof(f->addr));
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_send_bundle)
{
	if (fx_buf_ring(f))
		return NULL;
	memset(f->br_mem, 'b', 4 * 64);
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_send_bundle(sqe, f->sv[0], 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BGID;
	/* All four provided buffers go in one bundle. */
	expect(f, W_EQ, 4 * 64);
	return sqe;
}

/* Zero-copy: bytes sent with F_MORE, then a notification CQE. */
static int zc_judge(struct fx *f, struct io_uring_cqe *cqe)
{
	struct io_uring_cqe *notif;
	struct __kernel_timespec ts = { .tv_sec = 2 };

	if (cqe->res != 8 || !(cqe->flags & IORING_CQE_F_MORE))
		return fail_why("res %d flags %#x, wanted 8 with F_MORE", cqe->res, cqe->flags);
	io_uring_cqe_seen(&f->ring, cqe);
	if (io_uring_wait_cqe_timeout(&f->ring, &notif, &ts))
		return fail_why("no notification CQE");
	int ok = notif->user_data == TAG && (notif->flags & IORING_CQE_F_NOTIF);

	if (!ok)
		fail_why("second CQE flags %#x user_data %llu, wanted F_NOTIF", notif->flags,
			 (unsigned long long)notif->user_data);
	io_uring_cqe_seen(&f->ring, notif);
	return ok ? 2 : 0;
}

/* A zero-copy send the kernel refused: -EINVAL; when the CQE says a
 * notification follows, that is consumed too. */
static int zc_refused_judge(struct fx *f, struct io_uring_cqe *cqe)
{
	struct io_uring_cqe *notif;
	struct __kernel_timespec ts = { .tv_sec = 2 };
	int more = cqe->flags & IORING_CQE_F_MORE;

	if (cqe->res != -EINVAL)
		return fail_why("res %d flags %#x, wanted -EINVAL (before Linux 6.15)", cqe->res,
				cqe->flags);
	io_uring_cqe_seen(&f->ring, cqe);
	if (more && !io_uring_wait_cqe_timeout(&f->ring, &notif, &ts))
		io_uring_cqe_seen(&f->ring, notif);
	return 2;
}

ROW(p_send_zc)
{
	if (fx_udp(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_send_zc(sqe, f->sv[1], "12345678", 8, 0, 0);
	f->judge = zc_judge;
	return sqe;
}

ROW(p_send_zc_fixed)
{
	if (fx_udp(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_send_zc_fixed(sqe, f->sv[1], f->buf, 8, 0, 0, 0);
	f->judge = zc_judge;
	return sqe;
}

ROW(p_sendmsg_zc)
{
	if (fx_udp(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	msg_of(f, NULL, 0);
	io_uring_prep_sendmsg_zc(sqe, f->sv[1], &f->msg, 0);
	f->judge = zc_judge;
	return sqe;
}

ROW(p_sendmsg_zc_fixed)
{
	if (fx_udp(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	msg_of(f, NULL, 0);
	f->iov.iov_base = f->buf;
	io_uring_prep_sendmsg_zc_fixed(sqe, f->sv[1], &f->msg, 0, 0);
	/* The page: registered buffers for IORING_OP_SENDMSG_ZC from 6.15. */
	f->judge = kernel_at_least(6, 15) ? zc_judge : zc_refused_judge;
	return sqe;
}

ROW(p_splice)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_splice(sqe, f->file, 0, f->pipe[1], -1, 16, 0);
	expect(f, W_EQ, 16);
	return sqe;
}

/* tee(2) duplicates from one pipe into another; the second pipe is made
 * here and closed with the process. */
ROW(p_tee)
{
	int other[2];

	if (pipe(other) || write(f->pipe[1], "12345678", 8) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_tee(sqe, f->pipe[0], other[1], 8, 0);
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_poll_add)
{
	if (write(f->pipe[1], "x", 1) != 1)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_add(sqe, f->pipe[0], POLLIN);
	expect(f, W_EQ, POLLIN);
	return sqe;
}

ROW(p_poll_multishot)
{
	if (write(f->pipe[1], "x", 1) != 1)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_multishot(sqe, f->pipe[0], POLLIN);
	expect(f, W_EQ, POLLIN);
	f->want_flags = IORING_CQE_F_MORE;
	return sqe;
}

ROW(p_poll_remove)
{
	if (pending_poll(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_remove(sqe, 77);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_poll_update)
{
	if (pending_poll(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_update(sqe, 77, 78, POLLIN | POLLPRI,
				  IORING_POLL_UPDATE_EVENTS | IORING_POLL_UPDATE_USER_DATA);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fsync)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fsync(sqe, f->file, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_sync_file_range)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_sync_file_range(sqe, f->file, 4096, 0, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fallocate)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fallocate(sqe, f->file, 0, 0, 8192);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fadvise)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fadvise(sqe, f->file, 0, 4096, POSIX_FADV_NORMAL);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fadvise64)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fadvise64(sqe, f->file, 0, 4096, POSIX_FADV_NORMAL);
	/* The page: the 64-bit length (in addr) from 6.11, -EINVAL before. */
	expect(f, W_EQ, kernel_at_least(6, 11) ? 0 : -EINVAL);
	return sqe;
}

ROW(p_madvise)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_madvise(sqe, f->buf, 4096, MADV_NORMAL);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_madvise64)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_madvise64(sqe, f->buf, 4096, MADV_NORMAL);
	/* The page: the 64-bit length (in off) from 6.11, -EINVAL before. */
	expect(f, W_EQ, kernel_at_least(6, 11) ? 0 : -EINVAL);
	return sqe;
}

ROW(p_ftruncate)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_ftruncate(sqe, f->file, 100);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_timeout)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->ts.tv_nsec = 1000000;
	io_uring_prep_timeout(sqe, &f->ts, 0, 0);
	expect(f, W_EQ, -ETIME);
	return sqe;
}

static int pending_timeout(struct fx *f)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->ts.tv_sec = 10;
	io_uring_prep_timeout(sqe, &f->ts, 0, 0);
	io_uring_sqe_set_data64(sqe, 77);
	return settle(f);
}

ROW(p_timeout_remove)
{
	if (pending_timeout(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_timeout_remove(sqe, 77, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_timeout_update)
{
	if (pending_timeout(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);
	static struct __kernel_timespec later = { .tv_sec = 20 };

	io_uring_prep_timeout_update(sqe, &later, 77, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_link_timeout)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_add(sqe, f->pipe[0], POLLIN);
	io_uring_sqe_set_data64(sqe, 77);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = sqe_of(f);
	f->ts.tv_nsec = 1000000;
	io_uring_prep_link_timeout(sqe, &f->ts, 0);
	expect(f, W_EQ, -ETIME);
	return sqe;
}

static int close_direct_slot(struct fx *f, struct io_uring_cqe *cqe)
{
	unsigned want = f->want_flags;

	if (cqe->res != f->want_res || (cqe->flags & want) != want)
		return fail_why("res %d flags %#x, wanted %d (a slot) flags %#x", cqe->res,
				cqe->flags, f->want_res, want);
	return 1;
}

ROW(p_accept)
{
	if (fx_listen(f) || fx_connect_client(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_accept(sqe, f->listener, NULL, NULL, 0);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_accept_direct)
{
	if (fx_listen(f) || fx_connect_client(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_accept_direct(sqe, f->listener, NULL, NULL, 0, 3);
	expect(f, W_EQ, 0);
	return sqe;
}

/* Slot 0 holds a file, so an allocated slot is 1: the res names the slot. */
static int fill_slot0(struct fx *f)
{
	return io_uring_register_files_update(&f->ring, 0, &f->file, 1) == 1 ? 0 : -1;
}

ROW(p_multishot_accept)
{
	if (fx_listen(f) || fx_connect_client(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_multishot_accept(sqe, f->listener, NULL, NULL, 0);
	expect(f, W_FD, 0);
	f->want_flags = IORING_CQE_F_MORE;
	return sqe;
}

ROW(p_multishot_accept_direct)
{
	if (fx_listen(f) || fx_connect_client(f) || fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_multishot_accept_direct(sqe, f->listener, NULL, NULL, 0);
	expect(f, W_EQ, 1);
	f->want_flags = IORING_CQE_F_MORE;
	f->judge = close_direct_slot;
	return sqe;
}

ROW(p_connect)
{
	if (fx_listen(f))
		return NULL;
	close(f->sv[0]);
	f->sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_connect(sqe, f->sv[0], (struct sockaddr *)&f->addr, sizeof(f->addr));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_bind)
{
	close(f->sv[0]);
	f->sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	abstract_name(&f->addr, "bind");
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_bind(sqe, f->sv[0], (struct sockaddr *)&f->addr, sizeof(f->addr));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_listen)
{
	close(f->sv[0]);
	f->sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	abstract_name(&f->addr, "listen2");
	if (bind(f->sv[0], (struct sockaddr *)&f->addr, sizeof(f->addr)))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_listen(sqe, f->sv[0], 4);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_cancel64)
{
	if (pending_poll(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_cancel64(sqe, 77, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_cancel)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_poll_add(sqe, f->pipe[0], POLLIN);
	io_uring_sqe_set_data(sqe, f);
	if (settle(f))
		return NULL;
	sqe = sqe_of(f);
	io_uring_prep_cancel(sqe, f, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_cancel_fd)
{
	if (pending_poll(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_cancel_fd(sqe, f->pipe[0], 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_epoll_ctl)
{
	f->epfd = epoll_create1(0);
	f->ev[0].events = EPOLLIN;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_epoll_ctl(sqe, f->epfd, f->pipe[0], EPOLL_CTL_ADD, &f->ev[0]);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_epoll_wait)
{
	struct epoll_event ev = { .events = EPOLLIN };

	f->epfd = epoll_create1(0);
	if (epoll_ctl(f->epfd, EPOLL_CTL_ADD, f->pipe[0], &ev) || write(f->pipe[1], "x", 1) != 1)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_epoll_wait(sqe, f->epfd, f->ev, 2, 0);
	expect(f, W_EQ, 1);
	return sqe;
}

ROW(p_files_update)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->fds[0] = f->file;
	f->fds[1] = f->pipe[0];
	io_uring_prep_files_update(sqe, f->fds, 2, 0);
	expect(f, W_EQ, 2);
	return sqe;
}

ROW(p_openat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_openat(sqe, AT_FDCWD, f->path, O_RDONLY, 0);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_openat_direct)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_openat_direct(sqe, AT_FDCWD, f->path, O_RDONLY, 0, 2);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_open)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_open(sqe, f->path, O_RDONLY, 0);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_open_direct)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_open_direct(sqe, f->path, O_RDONLY, 0, 2);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_openat2)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->how.flags = O_RDONLY;
	io_uring_prep_openat2(sqe, AT_FDCWD, f->path, &f->how);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_openat2_direct)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->how.flags = O_RDONLY;
	io_uring_prep_openat2_direct(sqe, AT_FDCWD, f->path, &f->how, 2);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_close)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_close(sqe, dup(f->file));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_close_direct)
{
	if (fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_close_direct(sqe, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_statx)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_statx(sqe, AT_FDCWD, f->path, 0, STATX_SIZE, &f->stx);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fixed_fd_install)
{
	if (fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fixed_fd_install(sqe, 0, 0);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_pipe)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_pipe(sqe, f->fds, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_pipe_direct)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_pipe_direct(sqe, f->fds, 0, 4);
	expect(f, W_EQ, 0);
	return sqe;
}

/* dir/name as a path, in one of two static buffers. */
static const char *in_dir(struct fx *f, const char *name)
{
	static char paths[2][160];
	static int next;
	char *p = paths[next++ % 2];

	snprintf(p, sizeof(paths[0]), "%s/%s", f->dir, name);
	return p;
}

ROW(p_unlinkat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_unlinkat(sqe, AT_FDCWD, f->path, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_unlink)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_unlink(sqe, f->path, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_renameat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_renameat(sqe, AT_FDCWD, f->path, AT_FDCWD, in_dir(f, "renamed"), 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_rename)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_rename(sqe, f->path, in_dir(f, "renamed"));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_mkdirat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_mkdirat(sqe, AT_FDCWD, in_dir(f, "sub"), 0755);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_mkdir)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_mkdir(sqe, in_dir(f, "sub"), 0755);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_symlinkat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_symlinkat(sqe, "data", AT_FDCWD, in_dir(f, "sym"));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_symlink)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_symlink(sqe, "data", in_dir(f, "sym"));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_linkat)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_linkat(sqe, AT_FDCWD, f->path, AT_FDCWD, in_dir(f, "hard"), 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_link)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_link(sqe, f->path, in_dir(f, "hard"), 0);
	expect(f, W_EQ, 0);
	return sqe;
}

/* user.* attributes need a file system that keeps them (an independent
 * probe with fsetxattr(2)). */
static int xattr_ready(struct fx *f)
{
	if (fsetxattr(f->file, "user.claim", "12345", 5, 0)) {
		f->skip = "the file system of the working directory keeps no user xattrs";
		return -1;
	}
	return 0;
}

ROW(p_getxattr)
{
	if (xattr_ready(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_getxattr(sqe, "user.claim", f->small, f->path, sizeof(f->small));
	expect(f, W_EQ, 5);
	return sqe;
}

ROW(p_fgetxattr)
{
	if (xattr_ready(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fgetxattr(sqe, f->file, "user.claim", f->small, sizeof(f->small));
	expect(f, W_EQ, 5);
	return sqe;
}

ROW(p_setxattr)
{
	if (xattr_ready(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_setxattr(sqe, "user.other", "abc", f->path, 0, 3);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_fsetxattr)
{
	if (xattr_ready(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_fsetxattr(sqe, f->file, "user.other", "abc", 0, 3);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_shutdown)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_shutdown(sqe, f->sv[0], SHUT_WR);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_provide_buffers)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_provide_buffers(sqe, f->buf, 64, 4, BGID, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_remove_buffers)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_provide_buffers(sqe, f->buf, 64, 4, BGID, 0);
	io_uring_sqe_set_data64(sqe, 77);
	if (settle(f))
		return NULL;
	sqe = sqe_of(f);
	io_uring_prep_remove_buffers(sqe, 3, BGID);
	expect(f, W_EQ, 3);
	return sqe;
}

static int target_ring(struct fx *f)
{
	if (io_uring_queue_init(4, &f->target, 0))
		return -1;
	f->have_target = 1;
	return io_uring_register_files_sparse(&f->target, 4) ? -1 : 0;
}

ROW(p_msg_ring)
{
	if (target_ring(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_msg_ring(sqe, f->target.ring_fd, 5, 99, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_msg_ring_cqe_flags)
{
	if (target_ring(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_msg_ring_cqe_flags(sqe, f->target.ring_fd, 5, 99, 0, 1U << 20);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_msg_ring_fd)
{
	if (target_ring(f) || fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_msg_ring_fd(sqe, f->target.ring_fd, 0, 1, 99, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_msg_ring_fd_alloc)
{
	if (target_ring(f) || fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_msg_ring_fd_alloc(sqe, f->target.ring_fd, 0, 99, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_socket)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_socket(sqe, AF_UNIX, SOCK_STREAM, 0, 0);
	expect(f, W_FD, 0);
	return sqe;
}

ROW(p_socket_direct)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_socket_direct(sqe, AF_UNIX, SOCK_STREAM, 0, 3, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_socket_direct_alloc)
{
	if (fill_slot0(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_socket_direct_alloc(sqe, AF_UNIX, SOCK_STREAM, 0, 0);
	expect(f, W_EQ, 1);
	f->judge = close_direct_slot;
	return sqe;
}

/* SOCKET_URING_OP_SIOCINQ: the socket driver answers with the bytes
 * waiting to be read (AF_UNIX sockets do not take it; UDP does). */
ROW(p_uring_cmd)
{
	if (fx_udp(f) || send(f->sv[1], "12345678", 8, 0) != 8)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_uring_cmd(sqe, SOCKET_URING_OP_SIOCINQ, f->sv[1]);
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_uring_cmd128)
{
	if (fx_udp(f) || send(f->sv[1], "12345678", 8, 0) != 8)
		return NULL;
	struct io_uring_sqe *sqe = io_uring_get_sqe128(&f->ring);

	if (sqe)
		io_uring_prep_uring_cmd128(sqe, SOCKET_URING_OP_SIOCINQ, f->sv[1]);
	expect(f, W_EQ, 8);
	return sqe;
}

ROW(p_cmd_sock)
{
	static int one = 1;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_cmd_sock(sqe, SOCKET_URING_OP_SETSOCKOPT, f->sv[0], SOL_SOCKET,
			       SO_KEEPALIVE, &one, sizeof(one));
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_cmd_getsockname)
{
	static struct sockaddr_un sa;
	static socklen_t len;
	struct io_uring_sqe *sqe = sqe_of(f);

	len = sizeof(sa);
	io_uring_prep_cmd_getsockname(sqe, f->sv[0], (struct sockaddr *)&sa, &len, 0);
	expect(f, W_EQ, 0);
	return sqe;
}


/* A free loop device (independent probe: /dev/loop-control) over a 1 MiB
 * file of the fixture, which takes discards (it punches holes). */
static int fx_loop(struct fx *f)
{
	char dev[32], path[160];
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);

	if (ctl >= 0)
		close(ctl);
	if (n < 0) {
		f->skip = "no free loop device (/dev/loop-control needs root)";
		return -1;
	}
	snprintf(path, sizeof(path), "%s/disk", f->dir);
	int backing = open(path, O_RDWR | O_CREAT, 0600);

	if (backing < 0 || ftruncate(backing, 1 << 20))
		return -1;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	f->loop = open(dev, O_RDWR | O_CLOEXEC);
	int ret = f->loop < 0 ? -1 : ioctl(f->loop, LOOP_SET_FD, backing);

	/* Another program may have taken the device in between: one more
	 * free one. */
	if (ret && errno == EBUSY && (ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) >= 0) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		close(ctl);
		close(f->loop);
		snprintf(dev, sizeof(dev), "/dev/loop%d", n);
		f->loop = n < 0 ? -1 : open(dev, O_RDWR | O_CLOEXEC);
		ret = f->loop < 0 ? -1 : ioctl(f->loop, LOOP_SET_FD, backing);
	}
	close(backing);
	if (ret) {
		f->skip = "the free loop device could not be set up";
		return -1;
	}
	return 0;
}

ROW(p_cmd_discard)
{
	if (fx_loop(f))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_cmd_discard(sqe, f->loop, 0, 65536);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_waitid)
{
	static siginfo_t si;
	pid_t pid = fork();

	if (pid == 0)
		_exit(3);
	if (pid < 0)
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_waitid(sqe, P_PID, pid, &si, WEXITED, 0);
	expect(f, W_EQ, 0);
	return sqe;
}

#define FUTEX_FLAGS (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)
static uint32_t futex_words[512];

/* A futex wait armed first, so that a wake finds one waiter. */
static int armed_wait(struct fx *f, int vectored)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->futex = &futex_words[run_no % 512];
	*f->futex = 0;
	if (vectored) {
		f->waitv.val = 0;
		f->waitv.uaddr = (uintptr_t)f->futex;
		f->waitv.flags = FUTEX_FLAGS;
		io_uring_prep_futex_waitv(sqe, &f->waitv, 1, 0);
	} else {
		io_uring_prep_futex_wait(sqe, f->futex, 0, FUTEX_BITSET_MATCH_ANY, FUTEX_FLAGS, 0);
	}
	io_uring_sqe_set_data64(sqe, vectored ? TAG : 77);
	return settle(f);
}

static void wake(struct fx *f, __u64 ud)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_futex_wake(sqe, f->futex, 1, FUTEX_BITSET_MATCH_ANY, FUTEX_FLAGS, 0);
	io_uring_sqe_set_data64(sqe, ud);
}

ROW(p_futex_wake)
{
	if (armed_wait(f, 0))
		return NULL;
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_futex_wake(sqe, f->futex, 1, FUTEX_BITSET_MATCH_ANY, FUTEX_FLAGS, 0);
	expect(f, W_EQ, 1);
	return sqe;
}

/* The judged wait is submitted first; the wake that ends it is queued
 * after it by the runner's submit. */
ROW(p_futex_wait)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	f->futex = &futex_words[run_no % 512];
	*f->futex = 0;
	io_uring_prep_futex_wait(sqe, f->futex, 0, FUTEX_BITSET_MATCH_ANY, FUTEX_FLAGS, 0);
	io_uring_sqe_set_data64(sqe, TAG);
	if (settle(f))
		return NULL;
	wake(f, 78);
	expect(f, W_EQ, 0);
	return QUEUED;
}

ROW(p_futex_waitv)
{
	if (armed_wait(f, 1))
		return NULL;
	wake(f, 78);
	expect(f, W_EQ, 0);
	return QUEUED;
}

ROW(p_set_data)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data(sqe, f);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_set_data64)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 5);
	expect(f, W_EQ, 0);
	return sqe;
}

ROW(p_set_flags)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_read(sqe, f->file, f->small, 16, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	expect(f, W_EQ, 16);
	return sqe;
}

#ifdef AHEAD_OF_LIBURING
/* Stream 0 (none) is what a file without write streams takes. */
ROW(p_set_write_stream)
{
	struct io_uring_sqe *sqe = sqe_of(f);

	io_uring_prep_write(sqe, f->file, f->small, 16, 4096);
	io_uring_sqe_set_write_stream(sqe, 0);
	expect(f, W_EQ, 16);
	return sqe;
}
#endif

/* ---- the table ---------------------------------------------------------- */

struct row {
	const char *helper;
	int min_major, min_minor;	/* the release the page states */
	unsigned ring_flags;
	struct io_uring_sqe *(*prep)(struct fx *);
};

#ifndef IORING_SETUP_SQE_MIXED
#define IORING_SETUP_SQE_MIXED (1U << 19)
#endif

static const struct row rows[] = {
	{ "io_uring_prep_nop", 5, 1, 0, p_nop },
	{ "io_uring_prep_nop128", 6, 19, IORING_SETUP_SQE_MIXED, p_nop128 },
#ifdef AHEAD_OF_LIBURING
	{ "io_uring_prep_nop_flags", 6, 13, 0, p_nop_flags },
#endif
	{ "io_uring_prep_rw", 5, 6, 0, p_rw },
	{ "io_uring_prep_read", 5, 6, 0, p_read },
	{ "io_uring_prep_write", 5, 6, 0, p_write },
	{ "io_uring_prep_readv", 5, 1, 0, p_readv },
	{ "io_uring_prep_readv2", 5, 1, 0, p_readv2 },
	{ "io_uring_prep_writev", 5, 1, 0, p_writev },
	{ "io_uring_prep_writev2", 5, 1, 0, p_writev2 },
	{ "io_uring_prep_read_fixed", 5, 1, 0, p_read_fixed },
	{ "io_uring_prep_write_fixed", 5, 1, 0, p_write_fixed },
	{ "io_uring_prep_readv_fixed", 6, 15, 0, p_readv_fixed },
	{ "io_uring_prep_writev_fixed", 6, 15, 0, p_writev_fixed },
	{ "io_uring_prep_read_multishot", 6, 7, 0, p_read_multishot },
	{ "io_uring_prep_recv", 5, 6, 0, p_recv },
	{ "io_uring_prep_recv_multishot", 6, 0, 0, p_recv_multishot },
	{ "io_uring_prep_recvmsg", 5, 3, 0, p_recvmsg },
	{ "io_uring_prep_recvmsg_multishot", 6, 0, 0, p_recvmsg_multishot },
	{ "io_uring_prep_send", 5, 6, 0, p_send },
	{ "io_uring_prep_sendmsg", 5, 3, 0, p_sendmsg },
	{ "io_uring_prep_sendto", 6, 10, 0, p_sendto },
	{ "io_uring_prep_send_set_addr", 6, 10, 0, p_send_set_addr },
	{ "io_uring_prep_send_bundle", 6, 10, 0, p_send_bundle },
	{ "io_uring_prep_send_zc", 6, 0, 0, p_send_zc },
	{ "io_uring_prep_send_zc_fixed", 6, 0, 0, p_send_zc_fixed },
	{ "io_uring_prep_sendmsg_zc", 6, 1, 0, p_sendmsg_zc },
	{ "io_uring_prep_sendmsg_zc_fixed", 6, 1, 0, p_sendmsg_zc_fixed },
	{ "io_uring_prep_splice", 5, 7, 0, p_splice },
	{ "io_uring_prep_tee", 5, 8, 0, p_tee },
	{ "io_uring_prep_poll_add", 5, 1, 0, p_poll_add },
	{ "io_uring_prep_poll_multishot", 5, 13, 0, p_poll_multishot },
	{ "io_uring_prep_poll_remove", 5, 1, 0, p_poll_remove },
	{ "io_uring_prep_poll_update", 5, 13, 0, p_poll_update },
	{ "io_uring_prep_fsync", 5, 1, 0, p_fsync },
	{ "io_uring_prep_sync_file_range", 5, 2, 0, p_sync_file_range },
	{ "io_uring_prep_fallocate", 5, 6, 0, p_fallocate },
	{ "io_uring_prep_fadvise", 5, 6, 0, p_fadvise },
	{ "io_uring_prep_fadvise64", 5, 6, 0, p_fadvise64 },
	{ "io_uring_prep_madvise", 5, 6, 0, p_madvise },
	{ "io_uring_prep_madvise64", 5, 6, 0, p_madvise64 },
	{ "io_uring_prep_ftruncate", 6, 9, 0, p_ftruncate },
	{ "io_uring_prep_timeout", 5, 4, 0, p_timeout },
	{ "io_uring_prep_timeout_remove", 5, 5, 0, p_timeout_remove },
	{ "io_uring_prep_timeout_update", 5, 11, 0, p_timeout_update },
	{ "io_uring_prep_link_timeout", 5, 5, 0, p_link_timeout },
	{ "io_uring_prep_accept", 5, 5, 0, p_accept },
	{ "io_uring_prep_accept_direct", 5, 19, 0, p_accept_direct },
	{ "io_uring_prep_multishot_accept", 5, 19, 0, p_multishot_accept },
	{ "io_uring_prep_multishot_accept_direct", 5, 19, 0, p_multishot_accept_direct },
	{ "io_uring_prep_connect", 5, 5, 0, p_connect },
	{ "io_uring_prep_bind", 6, 11, 0, p_bind },
	{ "io_uring_prep_listen", 6, 11, 0, p_listen },
	{ "io_uring_prep_cancel64", 5, 5, 0, p_cancel64 },
	{ "io_uring_prep_cancel", 5, 5, 0, p_cancel },
	{ "io_uring_prep_cancel_fd", 6, 0, 0, p_cancel_fd },
	{ "io_uring_prep_epoll_ctl", 5, 6, 0, p_epoll_ctl },
	{ "io_uring_prep_epoll_wait", 6, 15, 0, p_epoll_wait },
	{ "io_uring_prep_files_update", 5, 6, 0, p_files_update },
	{ "io_uring_prep_openat", 5, 6, 0, p_openat },
	{ "io_uring_prep_openat_direct", 5, 15, 0, p_openat_direct },
	{ "io_uring_prep_open", 5, 6, 0, p_open },
	{ "io_uring_prep_open_direct", 5, 15, 0, p_open_direct },
	{ "io_uring_prep_openat2", 5, 6, 0, p_openat2 },
	{ "io_uring_prep_openat2_direct", 5, 15, 0, p_openat2_direct },
	{ "io_uring_prep_close", 5, 6, 0, p_close },
	{ "io_uring_prep_close_direct", 5, 15, 0, p_close_direct },
	{ "io_uring_prep_statx", 5, 6, 0, p_statx },
	{ "io_uring_prep_fixed_fd_install", 6, 8, 0, p_fixed_fd_install },
	{ "io_uring_prep_pipe", 6, 16, 0, p_pipe },
	{ "io_uring_prep_pipe_direct", 6, 16, 0, p_pipe_direct },
	{ "io_uring_prep_unlinkat", 5, 11, 0, p_unlinkat },
	{ "io_uring_prep_unlink", 5, 11, 0, p_unlink },
	{ "io_uring_prep_renameat", 5, 11, 0, p_renameat },
	{ "io_uring_prep_rename", 5, 11, 0, p_rename },
	{ "io_uring_prep_mkdirat", 5, 15, 0, p_mkdirat },
	{ "io_uring_prep_mkdir", 5, 15, 0, p_mkdir },
	{ "io_uring_prep_symlinkat", 5, 15, 0, p_symlinkat },
	{ "io_uring_prep_symlink", 5, 15, 0, p_symlink },
	{ "io_uring_prep_linkat", 5, 15, 0, p_linkat },
	{ "io_uring_prep_link", 5, 15, 0, p_link },
	{ "io_uring_prep_getxattr", 5, 19, 0, p_getxattr },
	{ "io_uring_prep_fgetxattr", 5, 19, 0, p_fgetxattr },
	{ "io_uring_prep_setxattr", 5, 19, 0, p_setxattr },
	{ "io_uring_prep_fsetxattr", 5, 19, 0, p_fsetxattr },
	{ "io_uring_prep_shutdown", 5, 11, 0, p_shutdown },
	{ "io_uring_prep_provide_buffers", 5, 7, 0, p_provide_buffers },
	{ "io_uring_prep_remove_buffers", 5, 7, 0, p_remove_buffers },
	{ "io_uring_prep_msg_ring", 5, 18, 0, p_msg_ring },
	{ "io_uring_prep_msg_ring_cqe_flags", 6, 3, 0, p_msg_ring_cqe_flags },
	{ "io_uring_prep_msg_ring_fd", 6, 0, 0, p_msg_ring_fd },
	{ "io_uring_prep_msg_ring_fd_alloc", 6, 0, 0, p_msg_ring_fd_alloc },
	{ "io_uring_prep_socket", 5, 19, 0, p_socket },
	{ "io_uring_prep_socket_direct", 5, 19, 0, p_socket_direct },
	{ "io_uring_prep_socket_direct_alloc", 5, 19, 0, p_socket_direct_alloc },
	{ "io_uring_prep_uring_cmd", 6, 7, 0, p_uring_cmd },
	{ "io_uring_prep_uring_cmd128", 6, 19, IORING_SETUP_SQE_MIXED, p_uring_cmd128 },
	{ "io_uring_prep_cmd_sock", 6, 7, 0, p_cmd_sock },
	{ "io_uring_prep_cmd_getsockname", 6, 19, 0, p_cmd_getsockname },
	{ "io_uring_prep_cmd_discard", 6, 12, 0, p_cmd_discard },
	{ "io_uring_prep_waitid", 6, 7, 0, p_waitid },
	{ "io_uring_prep_futex_wake", 6, 7, 0, p_futex_wake },
	{ "io_uring_prep_futex_wait", 6, 7, 0, p_futex_wait },
	{ "io_uring_prep_futex_waitv", 6, 7, 0, p_futex_waitv },
	{ "io_uring_sqe_set_data", 5, 1, 0, p_set_data },
	{ "io_uring_sqe_set_data64", 5, 1, 0, p_set_data64 },
	{ "io_uring_sqe_set_flags", 5, 1, 0, p_set_flags },
#ifdef AHEAD_OF_LIBURING
	{ "io_uring_sqe_set_write_stream", 6, 16, 0, p_set_write_stream },
#endif
	{ "io_uring_sqe_set_buf_group", 5, 19, 0, p_set_buf_group },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

/* The CQE of TAG within two seconds (others are consumed), or NULL. */
static struct io_uring_cqe *tagged_cqe(struct io_uring *ring)
{
	struct __kernel_timespec ts = { .tv_sec = 2 };
	struct io_uring_cqe *cqe;

	for (int n = 0; n < 32; n++) {
		if (io_uring_wait_cqe_timeout(ring, &cqe, &ts))
			return NULL;
		if (cqe->user_data == TAG)
			return cqe;
		io_uring_cqe_seen(ring, cqe);
	}
	return NULL;
}

/* One run of a row: 1 when the claim held, 0 when not (why says), -1 when
 * the fixture could not be made, NOT_HERE_RES when its probe says the
 * machine cannot show it. bad_flag: fail the request with an unknown SQE
 * flag bit and expect -EINVAL. */
static int run_once(const struct row *r, int bad_flag)
{
	struct fx *f = calloc(1, sizeof(*f));
	int ok = -1;

	run_no++;

	/* A fixture can fail for want of a resource another process holds
	 * for a moment (a busy machine's rings are torn down asynchronously):
	 * tried three times, 100 ms apart, before the case fails. */
	for (int attempt = 0; f && fx_open(f, r->ring_flags); attempt++) {
		int err = errno;

		fx_close(f);
		memset(f, 0, sizeof(*f));
		if (attempt == 2) {
			snprintf(why, sizeof(why), "making the fixture failed (%s)", strerror(err));
			goto out;
		}
		usleep(100 * 1000);
	}
	if (!f) {
		snprintf(why, sizeof(why), "making the fixture failed (out of memory)");
		goto out;
	}
	struct io_uring_sqe *sqe = r->prep(f);

	if (!sqe) {
		if (f->skip) {
			snprintf(why, sizeof(why), "%s", f->skip);
			ok = NOT_HERE_RES;
		} else {
			snprintf(why, sizeof(why), "setting up the request failed");
		}
		goto out;
	}
	if (sqe != QUEUED) {
		io_uring_sqe_set_data64(sqe, TAG);
		if (bad_flag)
			sqe->flags |= 1U << 7;
	} else if (bad_flag) {
		/* The judged request went in already: nothing to fail. */
		ok = 1;
		goto out;
	}
	if (io_uring_submit(&f->ring) < 0) {
		snprintf(why, sizeof(why), "submit failed");
		goto out;
	}
	struct io_uring_cqe *cqe = tagged_cqe(&f->ring);

	if (!cqe) {
		snprintf(why, sizeof(why), "no CQE for the request within 2 s");
		ok = 0;
		goto out;
	}
	if (bad_flag) {
		ok = cqe->res == -EINVAL;
		if (!ok)
			fail_why("with an unknown SQE flag: res %d, wanted -EINVAL", cqe->res);
	} else if (f->judge) {
		ok = f->judge(f, cqe) ? 1 : 0;
	} else if (f->want == W_FD) {
		ok = cqe->res >= 0 && (cqe->flags & f->want_flags) == f->want_flags;
		if (!ok)
			fail_why("res %d flags %#x, wanted a descriptor", cqe->res, cqe->flags);
		else
			close(cqe->res);
	} else {
		ok = cqe->res == f->want_res && (cqe->flags & f->want_flags) == f->want_flags;
		if (!ok)
			fail_why("res %d (%s) flags %#x, wanted %d flags %#x", cqe->res,
				 cqe->res < 0 ? strerror(-cqe->res) : "-", cqe->flags,
				 f->want_res, f->want_flags);
	}
out:
	if (f)
		fx_close(f);
	free(f);
	return ok;
}

static int run_row(const struct row *r)
{
	int ok = 0;

	why[0] = 0;
	if (!kernel_at_least(r->min_major, r->min_minor)) {
		printf("res-%s: not checkable here (stated from Linux %d.%d)\n", r->helper,
		       r->min_major, r->min_minor);
		return 0;
	}
	int v = run_once(r, 0);

	if (v == 1)
		v = run_once(r, 1);
	if (v == 1)
		ok = 1;
	if (v == NOT_HERE_RES)
		printf("res-%s: not checkable here (%s)\n", r->helper, why);
	else if (ok)
		printf("res-%s: ok\n", r->helper);
	else
		printf("res-%s: FAIL %s\n", r->helper, why);
	fflush(stdout);
	return !ok && v != NOT_HERE_RES;
}

int main(int argc, char **argv)
{
	int failed = 0;

	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NROWS; i++)
			printf("res-%s %d.%d\n", rows[i].helper, rows[i].min_major,
			       rows[i].min_minor);
		return 0;
	}
	for (size_t i = 0; i < NROWS; i++) {
		int wanted = argc == 1;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a] + (strncmp(argv[a], "res-", 4) ? 0 : 4),
					  rows[i].helper);
		if (wanted)
			failed |= run_row(&rows[i]);
	}
	return failed;
}
