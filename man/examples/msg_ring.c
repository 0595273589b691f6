/* SPDX-License-Identifier: MIT */
/* One ring posts a completion into another: a way to wake a thread that
 * waits on its own ring, with a value of the sender's choosing. */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>

int main(void)
{
    struct io_uring sender, receiver;
    struct io_uring_cqe *cqe;

    if (io_uring_queue_init(4, &sender, 0) < 0 || io_uring_queue_init(4, &receiver, 0) < 0)
        return 1;

    /* The receiver's CQE gets res 42 and user_data 0x1234. */
    io_uring_prep_msg_ring(io_uring_get_sqe(&sender), receiver.ring_fd, 42, 0x1234, 0);
    io_uring_submit(&sender);

    if (io_uring_wait_cqe(&sender, &cqe) < 0)
        return 1;
    if (cqe->res == -EINVAL || cqe->res == -EOPNOTSUPP) {
        printf("skip: no IORING_OP_MSG_RING here (Linux 5.18)\n");
        return 0;
    }
    printf("sender: res %d\n", cqe->res);
    io_uring_cqe_seen(&sender, cqe);

    if (io_uring_wait_cqe(&receiver, &cqe) < 0)
        return 1;
    printf("receiver: res %d, user_data 0x%llx\n", cqe->res,
           (unsigned long long)io_uring_cqe_get_data64(cqe));
    if (cqe->res != 42 || io_uring_cqe_get_data64(cqe) != 0x1234)
        return 1;
    io_uring_cqe_seen(&receiver, cqe);
    io_uring_queue_exit(&sender);
    io_uring_queue_exit(&receiver);
    return 0;
}
