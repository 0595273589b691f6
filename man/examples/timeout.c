/* SPDX-License-Identifier: MIT */
/* A timeout that expires, and one that completes early because a NOP
 * completed first. */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>

static int wait_res(struct io_uring *ring)
{
    struct io_uring_cqe *cqe;
    int res;

    if (io_uring_wait_cqe(ring, &cqe) < 0)
        return -1000;
    res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    return res;
}

int main(void)
{
    struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };
    struct io_uring ring;
    int res;

    if (io_uring_queue_init(4, &ring, 0) < 0)
        return 1;

    /* count 0: a plain timer, which ends with -ETIME. */
    io_uring_prep_timeout(io_uring_get_sqe(&ring), &ts, 0, 0);
    io_uring_submit(&ring);
    res = wait_res(&ring);
    printf("timer: %d (-ETIME is %d)\n", res, -ETIME);
    if (res != -ETIME)
        return 1;

    /* count 1: the timeout ends with 0 as soon as one other request
     * completes. The NOP is queued after it, so its CQE comes first. */
    ts.tv_sec = 10;
    io_uring_prep_timeout(io_uring_get_sqe(&ring), &ts, 1, 0);
    io_uring_prep_nop(io_uring_get_sqe(&ring));
    io_uring_submit(&ring);
    if (wait_res(&ring) != 0 || (res = wait_res(&ring)) != 0)
        return 1;
    printf("counting timeout: %d\n", res);
    io_uring_queue_exit(&ring);
    return 0;
}
