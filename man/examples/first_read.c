/* SPDX-License-Identifier: MIT */
/* The smallest complete program: one read through io_uring, from a pipe. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    struct io_uring ring;
    struct io_uring_cqe *cqe;
    struct io_uring_sqe *sqe;
    char buf[32];
    int fds[2], ret;

    if (pipe(fds) || write(fds[1], "hello", 5) != 5)
        return 1;
    ret = io_uring_queue_init(4, &ring, 0);                /* step 1 */
    if (ret < 0) {
        fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
        return 1;
    }
    sqe = io_uring_get_sqe(&ring);                         /* step 2 */
    io_uring_prep_read(sqe, fds[0], buf, sizeof(buf), 0);  /* step 3 */
    io_uring_sqe_set_data64(sqe, 42);
    io_uring_submit(&ring);                                /* step 4 */
    ret = io_uring_wait_cqe(&ring, &cqe);                  /* step 5 */
    if (ret < 0) {
        fprintf(stderr, "io_uring_wait_cqe: %s\n", strerror(-ret));
        return 1;
    }
    if (cqe->res < 0)
        fprintf(stderr, "read: %s\n", strerror(-cqe->res));
    else
        printf("request %llu read %d bytes: %.*s\n",
               (unsigned long long)cqe->user_data, cqe->res, cqe->res, buf);
    io_uring_cqe_seen(&ring, cqe);                         /* step 6 */
    io_uring_queue_exit(&ring);
    return 0;
}
