/* SPDX-License-Identifier: MIT */
/* Set up a ring, look at what the kernel granted, and tear it down. */
#include <liburing.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    struct io_uring_params p;
    struct io_uring ring;
    int ret;

    memset(&p, 0, sizeof(p));
    p.flags = IORING_SETUP_CQSIZE;
    p.cq_entries = 64;
    ret = io_uring_queue_init_params(8, &ring, &p);
    if (ret < 0) {
        fprintf(stderr, "io_uring_queue_init_params: %s\n", strerror(-ret));
        return 1;
    }
    /* Sizes are rounded up to powers of two. */
    printf("SQ %u entries, CQ %u entries\n", p.sq_entries, p.cq_entries);
    printf("single mmap: %s, no drop: %s\n",
           p.features & IORING_FEAT_SINGLE_MMAP ? "yes" : "no",
           p.features & IORING_FEAT_NODROP ? "yes" : "no");
    io_uring_queue_exit(&ring);
    return 0;
}
