/* SPDX-License-Identifier: MIT */
/*
 * A DEFER_TASKRUN event loop woken by a registered eventfd. Each request
 * runs with a registered personality. The "clients" are socket pairs.
 * Build: cc defer_taskrun_server.c -o server -luring
 */
#include <liburing.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define CLIENTS 4

static int fail(const char *what, int err)
{
	fprintf(stderr, "%s: %s\n", what, strerror(-err));
	return 1;
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	char bufs[CLIENTS][64];
	int pairs[CLIENTS][2];
	int efd, personality, ret, served = 0;

	/* Completions are processed only when this thread asks for them. */
	ret = io_uring_queue_init(32, &ring, IORING_SETUP_SINGLE_ISSUER |
					     IORING_SETUP_DEFER_TASKRUN);
	if (ret == -EINVAL) {
		printf("skip: kernel has no IORING_SETUP_DEFER_TASKRUN\n");
		return 0;
	}
	if (ret < 0)
		return fail("queue_init", ret);

	/* The eventfd says "there is work": poll it with the rest of the loop. */
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = io_uring_register_eventfd(&ring, efd);
	if (ret < 0)
		return fail("register_eventfd", ret);

	/* The credentials the requests will run with, captured now. */
	personality = io_uring_register_personality(&ring);
	if (personality < 0)
		return fail("register_personality", personality);

	for (int i = 0; i < CLIENTS; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[i]))
			return 1;
		io_uring_prep_recv(sqe, pairs[i][0], bufs[i], sizeof(bufs[i]), 0);
		sqe->personality = (__u16) personality;
		io_uring_sqe_set_data64(sqe, (__u64) i);
	}
	ret = io_uring_submit(&ring);
	if (ret != CLIENTS)
		return fail("submit", ret < 0 ? ret : -EIO);

	for (int i = 0; i < CLIENTS; i++)
		if (write(pairs[i][1], "hello", 5) != 5)
			return 1;

	while (served < CLIENTS) {
		struct pollfd pfd = { .fd = efd, .events = POLLIN };
		eventfd_t count;
		unsigned head, seen = 0;

		if (poll(&pfd, 1, 5000) != 1)
			return fail("poll eventfd", -ETIMEDOUT);
		eventfd_read(efd, &count);

		/* Run the deferred completion work, then reap what it posted. */
		ret = io_uring_get_events(&ring);
		if (ret < 0)
			return fail("get_events", ret);
		io_uring_for_each_cqe(&ring, head, cqe) {
			int client = (int) io_uring_cqe_get_data64(cqe);

			if (cqe->res < 0)
				return fail("recv", cqe->res);
			printf("client %d sent %.*s\n", client, cqe->res, bufs[client]);
			seen++;
		}
		io_uring_cq_advance(&ring, seen);
		served += (int) seen;
	}

	io_uring_unregister_personality(&ring, personality);
	io_uring_unregister_eventfd(&ring);
	for (int i = 0; i < CLIENTS; i++) {
		close(pairs[i][0]);
		close(pairs[i][1]);
	}
	close(efd);
	io_uring_queue_exit(&ring);
	return 0;
}
