/* SPDX-License-Identifier: MIT */
/*
 * TCP over the loopback address only (127.0.0.1), for the socket workloads:
 * a listening socket on an ephemeral port, connecting to it, and the ring
 * flavours the workloads compare.
 */
#ifndef BENCH_NET_H
#define BENCH_NET_H

#include <liburing.h>

/* Listening socket on 127.0.0.1, ephemeral port; *port gets the port. */
int loopback_listen(unsigned short *port);
/* Connected socket to 127.0.0.1:<port>, TCP_NODELAY set. */
int loopback_connect(unsigned short port);
/* accept(2) with TCP_NODELAY set on the new socket. */
int loopback_accept(int listen_fd);

/*
 * Ring setup flags for a flavour name: "default" (0), "coop"
 * (COOP_TASKRUN | TASKRUN_FLAG), "defer" (DEFER_TASKRUN | SINGLE_ISSUER).
 * Dies on an unknown name.
 */
unsigned ring_flavour_flags(const char *name);
/* io_uring_queue_init with those flags; prints skip= and exits on -EINVAL. */
void ring_init_flavour(struct io_uring *ring, unsigned entries, const char *flavour);

#endif
