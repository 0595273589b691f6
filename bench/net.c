/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "net.h"

#include "common.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void set_nodelay(int fd)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("setsockopt(TCP_NODELAY)", -1);
}

static struct sockaddr_in loopback_addr(unsigned short port)
{
	struct sockaddr_in sa;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sa;
}

int loopback_listen(unsigned short *port)
{
	struct sockaddr_in sa = loopback_addr(0);
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket", -1);
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) || listen(fd, 128))
		die("bind/listen on 127.0.0.1", -1);
	if (getsockname(fd, (struct sockaddr *) &sa, &len))
		die("getsockname", -1);
	*port = ntohs(sa.sin_port);
	return fd;
}

int loopback_connect(unsigned short port)
{
	struct sockaddr_in sa = loopback_addr(port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket", -1);
	if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)))
		die("connect to 127.0.0.1", -1);
	set_nodelay(fd);
	return fd;
}

int loopback_accept(int listen_fd)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		die("accept", -1);
	set_nodelay(fd);
	return fd;
}

unsigned ring_flavour_flags(const char *name)
{
	if (!strcmp(name, "default"))
		return 0;
	if (!strcmp(name, "coop"))
		return IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
	if (!strcmp(name, "defer"))
		return IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER;
	fprintf(stderr, "unknown ring flavour %s (default, coop, defer)\n", name);
	exit(2);
}

void ring_init_flavour(struct io_uring *ring, unsigned entries, const char *flavour)
{
	int ret = io_uring_queue_init(entries, ring, ring_flavour_flags(flavour));

	if (ret == -EINVAL)
		skip("this kernel refuses the ring flags of this flavour");
	if (ret < 0)
		die("io_uring_queue_init", ret);
}
