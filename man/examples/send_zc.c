/* SPDX-License-Identifier: MIT */
/* A zero-copy send over TCP on the loopback device: the first CQE carries
 * the byte count, the second (IORING_CQE_F_NOTIF) releases the buffer. */
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int tcp_pair(int *client, int *server)
{
    struct sockaddr_in addr = { .sin_family = AF_INET };
    socklen_t len = sizeof(addr);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);

    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
        listen(lfd, 1) < 0 || getsockname(lfd, (struct sockaddr *)&addr, &len) < 0)
        return -1;
    *client = socket(AF_INET, SOCK_STREAM, 0);
    if (*client < 0 || connect(*client, (struct sockaddr *)&addr, sizeof(addr)) < 0)
        return -1;
    *server = accept(lfd, NULL, NULL);
    close(lfd);
    return *server < 0 ? -1 : 0;
}

int main(void)
{
    static char data[4096];
    char in[sizeof(data)];
    struct io_uring ring;
    struct io_uring_cqe *cqe;
    int client, server, more = 1, sent = 0;

    if (tcp_pair(&client, &server) < 0 || io_uring_queue_init(4, &ring, 0) < 0)
        return 1;
    memset(data, 'z', sizeof(data));
    io_uring_prep_send_zc(io_uring_get_sqe(&ring), client, data, sizeof(data), 0, 0);
    io_uring_submit(&ring);

    while (more) {
        if (io_uring_wait_cqe(&ring, &cqe) < 0)
            return 1;
        if (cqe->res == -EINVAL || cqe->res == -EOPNOTSUPP) {
            printf("skip: no zero-copy send here (Linux 6.0): %s\n", strerror(-cqe->res));
            return 0;
        }
        if (cqe->flags & IORING_CQE_F_NOTIF) {
            printf("notification: data may be reused\n");
        } else {
            sent = cqe->res;
            printf("sent %d bytes\n", sent);
        }
        /* F_MORE on the first CQE: the notification is still to come. */
        more = cqe->flags & IORING_CQE_F_MORE;
        io_uring_cqe_seen(&ring, cqe);
    }
    /* Only now may data[] change. */
    if (sent != (int)sizeof(data) || recv(server, in, sizeof(in), MSG_WAITALL) != sent)
        return 1;
    io_uring_queue_exit(&ring);
    close(client);
    close(server);
    return 0;
}
