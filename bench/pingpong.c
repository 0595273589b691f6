/* SPDX-License-Identifier: MIT */
/*
 * Workload 4, TCP loopback ping-pong: `pingpong conns=<c> n=<round trips>
 * ring=default|coop|defer [msg=64]`.  A forked echo server and this client
 * each drive <c> connections over 127.0.0.1 with their own ring of the named
 * flavour.  The client keeps one <msg>-byte message in flight per
 * connection: send, then receive the echo in full (checked), then the next,
 * until <n> round trips are done across all connections (after a warm-up of
 * n/10).  One op = one round trip; latency = send queued to echo complete.
 */
#include "common.h"
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_MSG 4096
#define KIND_SEND 0
#define KIND_RECV 1

static inline unsigned long long tag(unsigned conn, unsigned kind)
{
	return (unsigned long long) conn << 1 | kind;
}

struct client_conn {
	int fd;
	int sent;		/* the send of the current message completed */
	unsigned got;		/* echo bytes received so far */
	unsigned long long seq;
	int64_t started;
	char out[MAX_MSG], in[MAX_MSG];
};

struct client {
	struct io_uring *ring;
	struct client_conn *conns;
	unsigned nconns, msg;
	long long budget;	/* round trips still to start */
	long long done;
};

static void queue_recv(struct client *c, unsigned i)
{
	struct client_conn *cc = &c->conns[i];
	struct io_uring_sqe *sqe = io_uring_get_sqe(c->ring);

	io_uring_prep_recv(sqe, cc->fd, cc->in + cc->got, c->msg - cc->got, 0);
	io_uring_sqe_set_data64(sqe, tag(i, KIND_RECV));
}

static void start_message(struct client *c, unsigned i)
{
	struct client_conn *cc = &c->conns[i];
	struct io_uring_sqe *sqe;

	c->budget--;
	cc->seq++;
	memcpy(cc->out, &cc->seq, sizeof(cc->seq));
	cc->sent = 0;
	cc->got = 0;
	cc->started = now_ns();
	sqe = io_uring_get_sqe(c->ring);
	io_uring_prep_send(sqe, cc->fd, cc->out, c->msg, 0);
	io_uring_sqe_set_data64(sqe, tag(i, KIND_SEND));
	queue_recv(c, i);
}

/* The echo of connection i is complete when both its send and its recv are. */
static void maybe_finish(struct client *c, unsigned i, struct lat_samples *lat)
{
	struct client_conn *cc = &c->conns[i];

	if (!cc->sent || cc->got < c->msg)
		return;
	if (memcmp(cc->in, cc->out, c->msg)) {
		fprintf(stderr, "echo mismatch on connection %u\n", i);
		exit(1);
	}
	if (lat)
		lat_add(lat, now_ns() - cc->started);
	c->done++;
	cc->got = 0;
	if (c->budget > 0)
		start_message(c, i);
}

static void client_round_trips(struct client *c, long long n, struct lat_samples *lat)
{
	unsigned i;

	c->budget = n;
	c->done = 0;
	for (i = 0; i < c->nconns && c->budget > 0; i++)
		start_message(c, i);
	while (c->done < n) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret = io_uring_submit_and_wait(c->ring, 1);

		if (ret < 0)
			die("io_uring_submit_and_wait", ret);
		io_uring_for_each_cqe(c->ring, head, cqe) {
			unsigned conn = (unsigned) (cqe->user_data >> 1);

			seen++;
			if (cqe->res <= 0)
				die((cqe->user_data & 1) ? "client recv" : "client send",
				    cqe->res ? cqe->res : -104);
			if ((cqe->user_data & 1) == KIND_SEND) {
				if ((unsigned) cqe->res != c->msg)
					die("short send", -5);
				c->conns[conn].sent = 1;
			} else {
				c->conns[conn].got += (unsigned) cqe->res;
				if (c->conns[conn].got < c->msg)
					queue_recv(c, conn);
			}
			maybe_finish(c, conn, lat);
		}
		io_uring_cq_advance(c->ring, seen);
	}
}

static BENCH_NOINLINE void bench_run(struct client *c, long long n, struct lat_samples *lat)
{
	client_round_trips(c, n, lat);
}

/* Echo server: recv, send back what came, recv again; ends when all close. */
static void serve(int listen_fd, unsigned nconns, const char *flavour)
{
	char (*bufs)[MAX_MSG] = calloc(nconns, MAX_MSG);
	int *fds = calloc(nconns, sizeof(*fds));
	unsigned i, open_conns = nconns;
	struct io_uring ring;

	if (!bufs || !fds)
		die("calloc", -12);
	for (i = 0; i < nconns; i++)
		fds[i] = loopback_accept(listen_fd);
	ring_init_flavour(&ring, 2 * nconns, flavour);
	for (i = 0; i < nconns; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_recv(sqe, fds[i], bufs[i], MAX_MSG, 0);
		io_uring_sqe_set_data64(sqe, tag(i, KIND_RECV));
	}
	while (open_conns) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret = io_uring_submit_and_wait(&ring, 1);

		if (ret < 0)
			die("server io_uring_submit_and_wait", ret);
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned conn = (unsigned) (cqe->user_data >> 1);
			struct io_uring_sqe *sqe;

			seen++;
			if (cqe->res < 0)
				die("server I/O", cqe->res);
			if ((cqe->user_data & 1) == KIND_RECV && cqe->res == 0) {
				close(fds[conn]);
				open_conns--;
				continue;
			}
			sqe = io_uring_get_sqe(&ring);
			if ((cqe->user_data & 1) == KIND_RECV) {
				io_uring_prep_send(sqe, fds[conn], bufs[conn], (size_t) cqe->res, 0);
				io_uring_sqe_set_data64(sqe, tag(conn, KIND_SEND));
			} else {
				io_uring_prep_recv(sqe, fds[conn], bufs[conn], MAX_MSG, 0);
				io_uring_sqe_set_data64(sqe, tag(conn, KIND_RECV));
			}
		}
		io_uring_cq_advance(&ring, seen);
	}
	io_uring_queue_exit(&ring);
}

int main(int argc, char **argv)
{
	unsigned nconns = (unsigned) arg_int(argc, argv, "conns", 1);
	long long n = arg_int(argc, argv, "n", 20000);
	const char *flavour = arg_str(argc, argv, "ring", "default");
	unsigned msg = (unsigned) arg_int(argc, argv, "msg", 64);
	struct client c = { 0 };
	struct lat_samples lat;
	struct io_uring ring;
	unsigned short port;
	int listen_fd, status;
	int64_t t0, t1;
	char extra[64];
	unsigned i;
	pid_t pid;

	if (!nconns || nconns > 1024 || n < nconns || !msg || msg > MAX_MSG) {
		fprintf(stderr, "usage: %s conns=N n=N ring=default|coop|defer [msg=64]\n",
			argv[0]);
		return 2;
	}
	ring_flavour_flags(flavour); /* validates the name before forking */
	listen_fd = loopback_listen(&port);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork", -1);
	if (pid == 0) {
		serve(listen_fd, nconns, flavour);
		_exit(0);
	}
	close(listen_fd);
	c.conns = calloc(nconns, sizeof(*c.conns));
	if (!c.conns)
		die("calloc", -12);
	for (i = 0; i < nconns; i++)
		c.conns[i].fd = loopback_connect(port);
	c.nconns = nconns;
	c.msg = msg;
	ring_init_flavour(&ring, 2 * nconns, flavour);
	c.ring = &ring;
	lat_init(&lat, (size_t) n);
	client_round_trips(&c, n / 10 + nconns, NULL); /* warm-up */
	bench_phase_mark();
	t0 = now_ns();
	bench_run(&c, n, &lat);
	t1 = now_ns();
	bench_phase_mark();
	io_uring_queue_exit(&ring);
	for (i = 0; i < nconns; i++)
		close(c.conns[i].fd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("echo server", -5);
	snprintf(extra, sizeof(extra), "conns=%u ring=%s", nconns, flavour);
	report(c.done, t1 - t0, &lat, extra);
	return 0;
}
