/* SPDX-License-Identifier: MIT */
/* Move a file's contents into a pipe with splice, without copying them
 * through user memory. */
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    static const char text[] = "spliced through the kernel\n";
    char path[] = "splice_fileXXXXXX", out[64] = "";
    struct io_uring ring;
    struct io_uring_cqe *cqe;
    int fd, pipefd[2], res;

    fd = mkstemp(path);
    if (fd < 0 || pipe(pipefd) < 0 || io_uring_queue_init(4, &ring, 0) < 0)
        return 1;
    unlink(path);
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        return 1;

    /* From the file at offset 0 into the pipe (-1: a pipe has no offset). */
    io_uring_prep_splice(io_uring_get_sqe(&ring), fd, 0, pipefd[1], -1, strlen(text), 0);
    io_uring_submit(&ring);
    if (io_uring_wait_cqe(&ring, &cqe) < 0)
        return 1;
    res = cqe->res;
    io_uring_cqe_seen(&ring, cqe);
    printf("splice moved %d bytes\n", res);
    if (res != (int)strlen(text) || read(pipefd[0], out, sizeof(out) - 1) != res ||
        strcmp(out, text) != 0)
        return 1;
    io_uring_queue_exit(&ring);
    return 0;
}
