/* SPDX-License-Identifier: MIT */
/* A futex wait and the wake that ends it, both as requests of one ring. */
#include <errno.h>
#include <liburing.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>

#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02 /* older <linux/futex.h> lacks the futex2 flags */
#endif

int main(void)
{
    static uint32_t word; /* the futex word */
    struct io_uring ring;
    struct io_uring_sqe *sqe;
    struct io_uring_cqe *cqe;
    int i, failed = 0;

    if (io_uring_queue_init(4, &ring, 0) < 0)
        return 1;

    /* Sleep while word is 0 ... */
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_futex_wait(sqe, &word, 0, FUTEX_BITSET_MATCH_ANY, FUTEX2_SIZE_U32, 0);
    io_uring_sqe_set_data64(sqe, 'w');
    io_uring_submit(&ring);

    /* ... until a wake for up to one waiter arrives (the wait was armed
     * during the first submission, so the wake finds it). */
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_futex_wake(sqe, &word, 1, FUTEX_BITSET_MATCH_ANY, FUTEX2_SIZE_U32, 0);
    io_uring_sqe_set_data64(sqe, 'k');
    io_uring_submit(&ring);

    for (i = 0; i < 2; i++) {
        if (io_uring_wait_cqe(&ring, &cqe) < 0)
            return 1;
        if (cqe->res == -EINVAL || cqe->res == -EOPNOTSUPP) {
            printf("skip: no futex requests here (Linux 6.7)\n");
            return 0;
        }
        /* The wait ends with 0, the wake reports how many it woke. */
        printf("%s: res %d\n", io_uring_cqe_get_data64(cqe) == 'w' ? "wait" : "wake",
               cqe->res);
        failed |= cqe->res < 0;
        io_uring_cqe_seen(&ring, cqe);
    }
    io_uring_queue_exit(&ring);
    return failed;
}
