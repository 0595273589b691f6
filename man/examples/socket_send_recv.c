/* SPDX-License-Identifier: MIT */
/* A send and a receive on the two ends of a socket pair, in one submission. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int main(void)
{
    static const char msg[] = "ping";
    char buf[16] = "";
    struct io_uring ring;
    struct io_uring_sqe *sqe;
    struct io_uring_cqe *cqe;
    int sv[2], i;

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 ||
        io_uring_queue_init(4, &ring, 0) < 0)
        return 1;

    /* The receive is queued first; it waits until the send's data arrives. */
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_recv(sqe, sv[1], buf, sizeof(buf), 0);
    io_uring_sqe_set_data64(sqe, 'r');
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_send(sqe, sv[0], msg, strlen(msg), 0);
    io_uring_sqe_set_data64(sqe, 's');
    io_uring_submit(&ring);

    for (i = 0; i < 2; i++) {
        if (io_uring_wait_cqe(&ring, &cqe) < 0)
            return 1;
        printf("%s: res %d\n", io_uring_cqe_get_data64(cqe) == 'r' ? "recv" : "send",
               cqe->res);
        if (cqe->res != (int)strlen(msg))
            return 1;
        io_uring_cqe_seen(&ring, cqe);
    }
    printf("received \"%s\"\n", buf);
    io_uring_queue_exit(&ring);
    return 0;
}
