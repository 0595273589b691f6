/* SPDX-License-Identifier: MIT */
/* One multishot accept serves three connections: one CQE per connection,
 * each with IORING_CQE_F_MORE while the request stays armed. */
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CLIENTS 3

int main(void)
{
    struct sockaddr_in addr = { .sin_family = AF_INET };
    socklen_t len = sizeof(addr);
    struct io_uring ring;
    struct io_uring_cqe *cqe;
    int lfd, clients[CLIENTS], i;

    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
        listen(lfd, CLIENTS) < 0 || getsockname(lfd, (struct sockaddr *)&addr, &len) < 0 ||
        io_uring_queue_init(8, &ring, 0) < 0)
        return 1;

    io_uring_prep_multishot_accept(io_uring_get_sqe(&ring), lfd, NULL, NULL, 0);
    io_uring_submit(&ring);

    for (i = 0; i < CLIENTS; i++) {
        clients[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (clients[i] < 0 || connect(clients[i], (struct sockaddr *)&addr, sizeof(addr)) < 0)
            return 1;
    }
    for (i = 0; i < CLIENTS; i++) {
        if (io_uring_wait_cqe(&ring, &cqe) < 0)
            return 1;
        if (cqe->res == -EINVAL) {
            printf("skip: no multishot accept here (Linux 5.19)\n");
            return 0;
        }
        if (cqe->res < 0) {
            fprintf(stderr, "accept: %s\n", strerror(-cqe->res));
            return 1;
        }
        /* res is the new connection's descriptor. */
        printf("connection %d: fd %d, %s\n", i, cqe->res,
               cqe->flags & IORING_CQE_F_MORE ? "still armed" : "ended");
        close(cqe->res);
        io_uring_cqe_seen(&ring, cqe);
    }
    for (i = 0; i < CLIENTS; i++)
        close(clients[i]);
    io_uring_queue_exit(&ring);
    close(lfd);
    return 0;
}
