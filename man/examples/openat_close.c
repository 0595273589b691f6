/* SPDX-License-Identifier: MIT */
/* Open a file into a slot of the registered file table, ask for its
 * metadata and close the slot again, as three linked requests: no file
 * descriptor is ever created. */
#define _GNU_SOURCE /* statx */
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <sys/stat.h>

int main(void)
{
    struct statx stx;
    struct io_uring ring;
    struct io_uring_sqe *sqe;
    struct io_uring_cqe *cqe;
    int i, failed = 0;

    if (io_uring_queue_init(4, &ring, 0) < 0)
        return 1;
    /* One empty slot of the registered file table. */
    if (io_uring_register_files_sparse(&ring, 1) < 0) {
        printf("skip: no sparse file tables (Linux 5.19)\n");
        return 0;
    }

    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_openat_direct(sqe, AT_FDCWD, "/proc/self/status", O_RDONLY, 0, 0);
    io_uring_sqe_set_flags(sqe, IOSQE_IO_LINK);
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_statx(sqe, AT_FDCWD, "/proc/self/status", 0, STATX_SIZE, &stx);
    io_uring_sqe_set_flags(sqe, IOSQE_IO_LINK);
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_close_direct(sqe, 0);
    io_uring_submit(&ring);

    for (i = 0; i < 3; i++) {
        if (io_uring_wait_cqe(&ring, &cqe) < 0)
            return 1;
        printf("request %d: res %d\n", i, cqe->res);
        failed |= cqe->res < 0;
        io_uring_cqe_seen(&ring, cqe);
    }
    io_uring_queue_exit(&ring);
    return failed;
}
