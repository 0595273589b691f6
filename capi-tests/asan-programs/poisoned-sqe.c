/* SPDX-License-Identifier: MIT */
/*
 * An AddressSanitizer program that submits an SQE pointing at memory it has
 * freed, one opcode family per argument (the field the sanitizer checks in
 * brackets):
 *   read      IORING_OP_READ into a freed buffer              [addr]
 *   writev    IORING_OP_WRITEV from a freed iovec array       [addr]
 *   timeout   IORING_OP_TIMEOUT with a freed timespec         [addr]
 *   openat    IORING_OP_OPENAT of a freed path                [addr]
 *   accept    IORING_OP_ACCEPT with a freed address length    [addr2]
 *   getxattr  IORING_OP_GETXATTR of a freed path              [addr3]
 *   cmd-sock  IORING_OP_URING_CMD setsockopt, freed value     [optval]
 *   fine      the read, into a live buffer: must run to its end
 * and two registrations (liburing's sanitizer build checks them too):
 *   register-buffers  io_uring_register_buffers of a freed buffer
 *   register-files    io_uring_register_files of a freed fd array
 * Exit status 0 when the submit call returned (the request went to the
 * kernel, whose write into freed memory ASan cannot see), 2 on a setup error.
 * A library that checks stops it before that (liburing's and ours built
 * with --enable-sanitizer: status 1, with ASan's description of the memory).
 * Built with -fsanitize=address by capi-tests/asan-programs/run.sh and by
 * capi-tests/diag-asan.c.
 */
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* Memory handed back to the allocator: ASan keeps it poisoned (quarantine). */
static void *freed(size_t n)
{
	static void *volatile kept;
	void *p = malloc(n);

	if (!p)
		exit(2);
	memset(p, 0, n);
	/* Read back after the free through a volatile: the compiler rightly
	 * warns of using p itself, which is this program's whole mistake. */
	kept = p;
	free(p);
	return kept;
}

static int prep(struct io_uring_sqe *sqe, const char *family, int fd)
{
	if (!strcmp(family, "read")) {
		io_uring_prep_read(sqe, fd, freed(4096), 4096, 0);
	} else if (!strcmp(family, "fine")) {
		static char buf[4096];

		io_uring_prep_read(sqe, fd, buf, sizeof(buf), 0);
	} else if (!strcmp(family, "writev")) {
		io_uring_prep_writev(sqe, fd, freed(2 * sizeof(struct iovec)), 2, 0);
	} else if (!strcmp(family, "timeout")) {
		io_uring_prep_timeout(sqe, freed(sizeof(struct __kernel_timespec)), 0, 0);
	} else if (!strcmp(family, "openat")) {
		io_uring_prep_openat(sqe, AT_FDCWD, freed(64), O_RDONLY, 0);
	} else if (!strcmp(family, "accept")) {
		static struct sockaddr_in sa;

		io_uring_prep_accept(sqe, fd, (struct sockaddr *) &sa, freed(sizeof(socklen_t)), 0);
	} else if (!strcmp(family, "getxattr")) {
		static char value[64];

		io_uring_prep_getxattr(sqe, "user.x", value, freed(64), sizeof(value));
	} else if (!strcmp(family, "cmd-sock")) {
		io_uring_prep_cmd_sock(sqe, SOCKET_URING_OP_SETSOCKOPT, fd, SOL_SOCKET,
				       SO_REUSEADDR, freed(sizeof(int)), sizeof(int));
	} else {
		return -1;
	}
	sqe->user_data = 7;
	return 0;
}

int main(int argc, char *argv[])
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	const char *family = argc > 1 ? argv[1] : "read";
	int fd, ret;

	if (!strcmp(family, "accept") || !strcmp(family, "cmd-sock"))
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	else
		fd = open("/dev/zero", O_RDWR);
	if (fd < 0 || io_uring_queue_init(8, &ring, 0) < 0)
		return 2;
	if (!strcmp(family, "register-buffers")) {
		struct iovec iov = { .iov_base = freed(4096), .iov_len = 4096 };

		printf("%s: registered %d\n", family, io_uring_register_buffers(&ring, &iov, 1));
		return 0;
	}
	if (!strcmp(family, "register-files")) {
		printf("%s: registered %d\n", family,
		       io_uring_register_files(&ring, freed(2 * sizeof(int)), 2));
		return 0;
	}
	if (prep(io_uring_get_sqe(&ring), family, fd) < 0) {
		fprintf(stderr, "unknown family %s\n", family);
		return 2;
	}
	ret = io_uring_submit(&ring);
	printf("%s: submitted %d\n", family, ret);
	fflush(stdout);
	if (ret == 1 && io_uring_wait_cqe(&ring, &cqe) == 0) {
		printf("%s: res %d\n", family, cqe->res);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(fd);
	return 0;
}
