/* SPDX-License-Identifier: MIT */
/*
 * Two common mistakes and their fixes, to show what LIBURING_DEBUG and
 * LIBURING_TRACE say about them (README.md, "Diagnostics"):
 *
 *   1. IORING_SETUP_DEFER_TASKRUN without IORING_SETUP_SINGLE_ISSUER: the
 *      kernel refuses the ring with EINVAL; LIBURING_DEBUG=1 says why.
 *   2. A multishot receive without IOSQE_BUFFER_SELECT: the kernel fails
 *      the request with EINVAL; LIBURING_TRACE warns when it is submitted.
 *
 * Each mistake is made once, then corrected. Exit 0 when both corrected
 * versions work.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define GROUP 7
#define NBUFS 4
#define BUFSZ 256

static char bufs[NBUFS][BUFSZ];

static int setup(struct io_uring *ring, unsigned flags)
{
    struct io_uring_params p;

    memset(&p, 0, sizeof(p));
    p.flags = flags;
    return io_uring_queue_init_params(8, ring, &p);
}

static int recv_one(struct io_uring *ring, int fd, int select)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    struct io_uring_cqe *cqe;
    int res;

    io_uring_prep_recv_multishot(sqe, fd, NULL, 0, 0);
    io_uring_sqe_set_data64(sqe, select ? 2 : 1);
    if (select) {
        sqe->flags |= IOSQE_BUFFER_SELECT;
        sqe->buf_group = GROUP;
    }
    io_uring_submit(ring);
    if (io_uring_wait_cqe(ring, &cqe))
        return -1;
    res = cqe->res;
    if (res > 0)
        printf("multishot recv: %d bytes \"%.*s\" in buffer %u, %s\n", res, res,
               bufs[cqe->flags >> IORING_CQE_BUFFER_SHIFT],
               cqe->flags >> IORING_CQE_BUFFER_SHIFT,
               cqe->flags & IORING_CQE_F_MORE ? "still armed" : "ended");
    else
        printf("multishot recv: %s\n", strerror(-res));
    io_uring_cqe_seen(ring, cqe);
    return res;
}

int main(void)
{
    struct io_uring_buf_ring *br;
    struct io_uring ring;
    int ret, sv[2], i;

    /* Mistake 1, then the fix. */
    ret = setup(&ring, IORING_SETUP_DEFER_TASKRUN);
    printf("DEFER_TASKRUN alone: %s\n", ret ? strerror(-ret) : "accepted");
    if (ret == 0)
        io_uring_queue_exit(&ring);
    ret = setup(&ring, IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
    if (ret == -EINVAL)
        ret = setup(&ring, 0);  /* a kernel before 6.1 */
    if (ret) {
        fprintf(stderr, "setup: %s\n", strerror(-ret));
        return 1;
    }
    printf("fixed: ring set up\n");

    /* Mistake 2, then the fix. */
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return 1;
    br = io_uring_setup_buf_ring(&ring, NBUFS, GROUP, 0, &ret);
    if (!br) {
        printf("no buffer rings here (%s): skipping the second part\n", strerror(-ret));
        return 0;
    }
    for (i = 0; i < NBUFS; i++)
        io_uring_buf_ring_add(br, bufs[i], BUFSZ, i, io_uring_buf_ring_mask(NBUFS), i);
    io_uring_buf_ring_advance(br, NBUFS);
    if (write(sv[1], "hello", 5) != 5)
        return 1;
    recv_one(&ring, sv[0], 0);
    ret = recv_one(&ring, sv[0], 1);
    io_uring_free_buf_ring(&ring, br, NBUFS, GROUP);
    io_uring_queue_exit(&ring);
    close(sv[0]);
    close(sv[1]);
    return ret == 5 ? 0 : 1;
}
