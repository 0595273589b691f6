/* SPDX-License-Identifier: MIT */
/*
 * Workload 5, multishot receive with a provided buffer ring: `recv-mshot
 * n=<messages> [msg=1024] [bufs=256]`.  A forked sender writes <n> messages
 * of <msg> bytes over a 127.0.0.1 TCP connection with write(2) and closes
 * it; this side receives them with one IORING_OP_RECV multishot request
 * picking <msg>-byte buffers from a buffer ring (re-armed whenever the
 * kernel ends it, e.g. when the ring ran out of buffers), recycling each
 * buffer as its CQE is seen, until end of stream.  One op = one <msg>-byte
 * message's worth of bytes; also prints the CQEs seen per wait call.
 */
#include "common.h"
#include "net.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define BGID 7

struct receiver {
	struct io_uring *ring;
	struct io_uring_buf_ring *br;
	char *bufs;
	unsigned nbufs, msg;
	int fd;
	long long bytes, cqes, waits, arms;
};

static void arm(struct receiver *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(r->ring);

	io_uring_prep_recv_multishot(sqe, r->fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BGID;
	r->arms++;
}

static BENCH_NOINLINE void bench_run(struct receiver *r)
{
	int eof = 0;

	arm(r);
	while (!eof) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0, recycled = 0, mask = io_uring_buf_ring_mask(r->nbufs);
		int ret = io_uring_submit_and_wait(r->ring, 1);

		if (ret < 0)
			die("io_uring_submit_and_wait", ret);
		r->waits++;
		io_uring_for_each_cqe(r->ring, head, cqe) {
			seen++;
			if (cqe->res > 0) {
				unsigned bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

				r->bytes += cqe->res;
				io_uring_buf_ring_add(r->br, r->bufs + (size_t) bid * r->msg, r->msg,
						      (unsigned short) bid, mask, (int) recycled);
				recycled++;
			} else if (cqe->res == 0) {
				eof = 1;
			} else if (cqe->res != -ENOBUFS) {
				die("recv multishot", cqe->res);
			}
			if (!(cqe->flags & IORING_CQE_F_MORE) && cqe->res != 0 && !eof)
				arm(r);
		}
		r->cqes += seen;
		io_uring_buf_ring_advance(r->br, (int) recycled);
		io_uring_cq_advance(r->ring, seen);
	}
}

static void send_all(unsigned short port, int go_fd, long long n, unsigned msg)
{
	char *buf = calloc(1, msg);
	int fd = loopback_connect(port);
	char go;
	long long i;

	if (!buf)
		die("calloc", -12);
	if (read(go_fd, &go, 1) != 1)
		die("sender start", -1);
	for (i = 0; i < n; i++) {
		size_t off = 0;

		buf[0] = (char) i;
		while (off < msg) {
			ssize_t w = write(fd, buf + off, msg - off);

			if (w <= 0)
				die("sender write", -1);
			off += (size_t) w;
		}
	}
	close(fd);
}

int main(int argc, char **argv)
{
	long long n = arg_int(argc, argv, "n", 100000);
	unsigned msg = (unsigned) arg_int(argc, argv, "msg", 1024);
	unsigned nbufs = (unsigned) arg_int(argc, argv, "bufs", 256);
	struct receiver r = { 0 };
	struct io_uring ring;
	unsigned short port;
	int listen_fd, go[2], status, ret;
	int64_t t0, t1;
	char extra[160];
	unsigned i;
	pid_t pid;

	if (n < 1 || !msg || nbufs < 1 || nbufs > 32768 || (nbufs & (nbufs - 1))) {
		fprintf(stderr, "usage: %s n=N [msg=1024] [bufs=power of two]\n", argv[0]);
		return 2;
	}
	listen_fd = loopback_listen(&port);
	if (pipe(go))
		die("pipe", -1);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork", -1);
	if (pid == 0) {
		close(listen_fd);
		send_all(port, go[0], n, msg);
		_exit(0);
	}
	r.fd = loopback_accept(listen_fd);
	close(listen_fd);
	ret = io_uring_queue_init(nbufs, &ring, 0);
	if (ret < 0)
		die("io_uring_queue_init", ret);
	r.ring = &ring;
	r.msg = msg;
	r.nbufs = nbufs;
	r.br = io_uring_setup_buf_ring(&ring, nbufs, BGID, 0, &ret);
	if (!r.br && (ret == -EINVAL || ret == -ENOENT))
		skip("this kernel has no provided buffer rings");
	if (!r.br)
		die("io_uring_setup_buf_ring", ret);
	if (posix_memalign((void **) &r.bufs, 4096, (size_t) nbufs * msg))
		die("posix_memalign", -12);
	for (i = 0; i < nbufs; i++)
		io_uring_buf_ring_add(r.br, r.bufs + (size_t) i * msg, msg, (unsigned short) i,
				      io_uring_buf_ring_mask(nbufs), (int) i);
	io_uring_buf_ring_advance(r.br, (int) nbufs);
	bench_phase_mark();
	t0 = now_ns();
	if (write(go[1], "g", 1) != 1)
		die("start sender", -1);
	bench_run(&r);
	t1 = now_ns();
	bench_phase_mark();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("sender", -5);
	if (r.bytes != n * (long long) msg) {
		fprintf(stderr, "received %lld bytes, expected %lld\n", r.bytes, n * (long long) msg);
		return 1;
	}
	io_uring_free_buf_ring(&ring, r.br, nbufs, BGID);
	io_uring_queue_exit(&ring);
	snprintf(extra, sizeof(extra), "cqes=%lld waits=%lld cqes_per_wait=%.2f arms=%lld MB_per_s=%.1f",
		 r.cqes, r.waits, (double) r.cqes / (double) r.waits, r.arms,
		 (double) r.bytes * 1e3 / (double) (t1 - t0));
	report(n, t1 - t0, NULL, extra);
	return 0;
}
