/* SPDX-License-Identifier: MIT */
/* Write a file, then read it back: one request each, submitted and reaped. */
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Submit what is queued and return the result of the one completion. */
static int run_one(struct io_uring *ring, unsigned long long expected_tag)
{
    struct io_uring_cqe *cqe;
    int ret = io_uring_submit(ring);

    if (ret < 0)
        return ret;
    ret = io_uring_wait_cqe(ring, &cqe);
    if (ret < 0)
        return ret;
    if (io_uring_cqe_get_data64(cqe) != expected_tag)
        ret = -1;
    else
        ret = cqe->res;   /* bytes moved, or a negated errno value */
    io_uring_cqe_seen(ring, cqe);
    return ret;
}

int main(void)
{
    static const char text[] = "hello, ring\n";
    char back[sizeof(text)] = "";
    char path[] = "submit_waitXXXXXX";
    struct io_uring ring;
    struct io_uring_sqe *sqe;
    int fd, ret;

    fd = mkstemp(path);
    if (fd < 0 || io_uring_queue_init(4, &ring, 0) < 0)
        return 1;
    unlink(path);

    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_write(sqe, fd, text, sizeof(text) - 1, 0);
    io_uring_sqe_set_data64(sqe, 1);
    ret = run_one(&ring, 1);
    if (ret != (int)sizeof(text) - 1) {
        fprintf(stderr, "write: %d\n", ret);
        return 1;
    }

    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, fd, back, sizeof(back) - 1, 0);
    io_uring_sqe_set_data64(sqe, 2);
    ret = run_one(&ring, 2);
    if (ret < 0 || strcmp(back, text) != 0) {
        fprintf(stderr, "read: %d\n", ret);
        return 1;
    }
    printf("read back %d bytes: %s", ret, back);
    io_uring_queue_exit(&ring);
    close(fd);
    return 0;
}
