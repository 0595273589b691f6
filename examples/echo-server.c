/* SPDX-License-Identifier: MIT */
/*
 * echo-server: a TCP echo server on one ring, with no per-connection reads
 * posted by hand and no buffer per connection.
 *
 *   echo-server [PORT [CLIENTS]]
 *
 * Listens on 127.0.0.1:PORT (0, the default, picks a free port) and prints
 * "listening on 127.0.0.1:<port>". With CLIENTS, it exits once that many
 * connections have come and gone; without, it serves until killed.
 *
 * What it shows:
 * - IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN: one thread owns
 *   the ring, and the kernel runs completion work only when that thread
 *   waits for completions, not at arbitrary interrupts.
 * - One multishot accept: a single SQE keeps producing a CQE per connection.
 * - One multishot receive per connection, drawing its buffers from a ring of
 *   provided buffers shared by all connections: memory is tied up only by
 *   data actually received and not yet echoed.
 * - A buffer goes back to the provided-buffer ring when its echo has been
 *   sent in full.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUFFER_GROUP 0
#define BUFFER_COUNT 64 /* a power of two, as buffer rings require */
#define BUFFER_SIZE 4096
#define MAX_CONNECTIONS 256

/* What a CQE is about: kept in the top byte of user_data. */
enum op { OP_ACCEPT = 1, OP_RECV, OP_SEND };

/* user_data = op << 56 | buffer id << 32 | socket */
static __u64 make_data(enum op op, unsigned bid, int fd)
{
	return ((__u64)op << 56) | ((__u64)bid << 32) | (__u32)fd;
}

static enum op data_op(__u64 data)
{
	return (enum op)(data >> 56);
}

static unsigned data_bid(__u64 data)
{
	return (unsigned)(data >> 32) & 0xffffff;
}

static int data_fd(__u64 data)
{
	return (int)(__u32)data;
}

struct server {
	struct io_uring ring;
	struct io_uring_buf_ring *buffers;
	char *memory; /* BUFFER_COUNT buffers of BUFFER_SIZE */
	/* An echo in progress, per buffer id: how much of it is sent. */
	struct {
		unsigned length, sent;
	} echo[BUFFER_COUNT];
	/* Connections whose receive ended for lack of buffers. */
	int starved[MAX_CONNECTIONS];
	int starved_count;
	int listen_fd;
	int clients_left; /* -1: serve forever */
	int open_connections;
};

static struct io_uring_sqe *get_sqe(struct server *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	/* Full SQ: hand what is queued to the kernel and take a fresh entry. */
	if (!sqe) {
		io_uring_submit(&s->ring);
		sqe = io_uring_get_sqe(&s->ring);
	}
	return sqe;
}

static void arm_accept(struct server *s)
{
	struct io_uring_sqe *sqe = get_sqe(s);

	io_uring_prep_multishot_accept(sqe, s->listen_fd, NULL, NULL, 0);
	io_uring_sqe_set_data64(sqe, make_data(OP_ACCEPT, 0, s->listen_fd));
}

static void arm_recv(struct server *s, int fd)
{
	struct io_uring_sqe *sqe = get_sqe(s);

	/* No buffer here: the kernel picks one from BUFFER_GROUP per CQE. */
	io_uring_prep_recv_multishot(sqe, fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BUFFER_GROUP;
	io_uring_sqe_set_data64(sqe, make_data(OP_RECV, 0, fd));
}

static void queue_send(struct server *s, int fd, unsigned bid)
{
	struct io_uring_sqe *sqe = get_sqe(s);
	char *data = s->memory + (size_t)bid * BUFFER_SIZE;

	io_uring_prep_send(sqe, fd, data + s->echo[bid].sent,
			   s->echo[bid].length - s->echo[bid].sent, MSG_NOSIGNAL);
	io_uring_sqe_set_data64(sqe, make_data(OP_SEND, bid, fd));
}

/*
 * Hand buffer @bid back to the kernel for the next receive, and restart the
 * receives that had stopped for want of one.
 */
static void recycle_buffer(struct server *s, unsigned bid)
{
	io_uring_buf_ring_add(s->buffers, s->memory + (size_t)bid * BUFFER_SIZE, BUFFER_SIZE,
			      (unsigned short)bid, io_uring_buf_ring_mask(BUFFER_COUNT), 0);
	io_uring_buf_ring_advance(s->buffers, 1);
	while (s->starved_count > 0)
		arm_recv(s, s->starved[--s->starved_count]);
}

static void connection_closed(struct server *s, int fd)
{
	/*
	 * A client closes only after reading back all it sent, so no send of
	 * this connection is still in flight when its receive sees the end.
	 */
	close(fd);
	s->open_connections--;
	if (s->clients_left > 0)
		s->clients_left--;
}

/* Returns 0, or -errno to stop the server. */
static int handle(struct server *s, struct io_uring_cqe *cqe)
{
	__u64 data = io_uring_cqe_get_data64(cqe);
	int more = cqe->flags & IORING_CQE_F_MORE;
	int fd = data_fd(data);
	unsigned bid;

	switch (data_op(data)) {
	case OP_ACCEPT:
		if (cqe->res < 0) {
			fprintf(stderr, "accept: %s\n", strerror(-cqe->res));
			return cqe->res;
		}
		if (s->open_connections == MAX_CONNECTIONS) {
			close(cqe->res); /* keeps the starved list bounded */
		} else {
			s->open_connections++;
			arm_recv(s, cqe->res);
		}
		/* The kernel ends a multishot request on errors: arm a new one. */
		if (!more)
			arm_accept(s);
		return 0;

	case OP_RECV:
		if (cqe->res == 0) {
			connection_closed(s, fd);
			return 0;
		}
		if (cqe->res == -ENOBUFS) {
			/*
			 * Every buffer holds an echo not yet sent. Re-arming
			 * now would only fail again: wait for a buffer.
			 */
			s->starved[s->starved_count++] = fd;
			return 0;
		}
		if (cqe->res < 0) {
			fprintf(stderr, "recv: %s\n", strerror(-cqe->res));
			connection_closed(s, fd);
			return 0;
		}
		bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
		s->echo[bid].length = (unsigned)cqe->res;
		s->echo[bid].sent = 0;
		queue_send(s, fd, bid);
		if (!more)
			arm_recv(s, fd);
		return 0;

	case OP_SEND:
		bid = data_bid(data);
		if (cqe->res < 0) {
			/* The peer is gone; its receive will see the end. */
			recycle_buffer(s, bid);
			return 0;
		}
		s->echo[bid].sent += (unsigned)cqe->res;
		if (s->echo[bid].sent < s->echo[bid].length)
			queue_send(s, fd, bid); /* short send: the rest */
		else
			recycle_buffer(s, bid);
		return 0;
	}
	fprintf(stderr, "unexpected user_data %llx\n", (unsigned long long)data);
	return -EINVAL;
}

static int listen_on_loopback(int port)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons((unsigned short)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 64) < 0 ||
	    getsockname(fd, (struct sockaddr *)&addr, &len) < 0) {
		close(fd);
		return -1;
	}
	printf("listening on 127.0.0.1:%d\n", ntohs(addr.sin_port));
	fflush(stdout);
	return fd;
}

int main(int argc, char *argv[])
{
	struct io_uring_params p;
	struct server s;
	unsigned bid;
	int ret;

	memset(&s, 0, sizeof(s));
	s.clients_left = argc > 2 ? atoi(argv[2]) : -1;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(64, &s.ring, &p);
	if (ret == -EINVAL) {
		/* Linux before 6.1 has no DEFER_TASKRUN. */
		printf("echo-server: skipped: kernel lacks IORING_SETUP_DEFER_TASKRUN\n");
		return 77;
	}
	if (ret < 0) {
		fprintf(stderr, "io_uring_queue_init_params: %s\n", strerror(-ret));
		return 1;
	}

	s.memory = malloc((size_t)BUFFER_COUNT * BUFFER_SIZE);
	if (!s.memory)
		return 1;
	s.buffers = io_uring_setup_buf_ring(&s.ring, BUFFER_COUNT, BUFFER_GROUP, 0, &ret);
	if (!s.buffers) {
		if (ret == -EINVAL) {
			printf("echo-server: skipped: kernel lacks provided buffer rings\n");
			return 77;
		}
		fprintf(stderr, "io_uring_setup_buf_ring: %s\n", strerror(-ret));
		return 1;
	}
	for (bid = 0; bid < BUFFER_COUNT; bid++)
		recycle_buffer(&s, bid);

	s.listen_fd = listen_on_loopback(argc > 1 ? atoi(argv[1]) : 0);
	if (s.listen_fd < 0) {
		perror("listen on 127.0.0.1");
		return 1;
	}
	arm_accept(&s);

	ret = 0;
	while (s.clients_left != 0 || s.open_connections > 0) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;

		/* Under DEFER_TASKRUN, this wait is where completions are produced. */
		ret = io_uring_submit_and_wait(&s.ring, 1);
		if (ret < 0 && ret != -EINTR) {
			fprintf(stderr, "io_uring_submit_and_wait: %s\n", strerror(-ret));
			break;
		}
		ret = 0;
		io_uring_for_each_cqe(&s.ring, head, cqe) {
			seen++;
			ret = handle(&s, cqe);
			if (ret < 0)
				break;
		}
		io_uring_cq_advance(&s.ring, seen);
		if (ret < 0)
			break;
	}

	io_uring_free_buf_ring(&s.ring, s.buffers, BUFFER_COUNT, BUFFER_GROUP);
	io_uring_queue_exit(&s.ring);
	close(s.listen_fd);
	free(s.memory);
	return ret < 0 ? 1 : 0;
}
