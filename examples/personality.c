/* SPDX-License-Identifier: MIT */
/*
 * personality: run one request with credentials the process no longer has.
 *
 *   personality        (as root; otherwise it says so and exits with 77)
 *
 * io_uring_register_personality() records the caller's current credentials
 * in the ring and returns an id. Any later SQE with that id in
 * sqe->personality runs with those credentials, whatever the submitting
 * thread's credentials are by then. A server can thus drop privileges and
 * keep exactly one capability: "do this request as the user I registered".
 *
 * The demo, as root:
 *  1. creates a private directory with a file only root may read;
 *  2. registers its (root) credentials as a personality;
 *  3. switches its effective uid to nobody (65534);
 *  4. opens the file twice through the ring: without the personality the
 *     open fails with EACCES, with it the open succeeds;
 *  5. switches back to root and cleans up.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOBODY 65534

/* Open @path read-only through the ring; @personality 0 means "as I am now". */
static int ring_open(struct io_uring *ring, const char *path, unsigned short personality)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	sqe->personality = personality;
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_peek_cqe(ring, &cqe);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

int main(void)
{
	char dir[] = "/tmp/personality-demo.XXXXXX";
	char path[sizeof(dir) + 16];
	struct io_uring ring;
	int fd, id, without, with, status = 1;

	if (geteuid() != 0) {
		printf("personality: skipped: needs root (it switches to uid %d and back)\n",
		       NOBODY);
		return 77;
	}

	/* 1. A file only root can open: mode 0600 inside a mode 0700 directory. */
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/secret", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write(fd, "root only\n", 10) != 10) {
		perror(path);
		goto out_dir;
	}
	close(fd);

	if (io_uring_queue_init(4, &ring, 0) < 0) {
		fprintf(stderr, "io_uring_queue_init failed\n");
		goto out_file;
	}

	/* 2. Remember who we are now. */
	id = io_uring_register_personality(&ring);
	if (id == -EINVAL) {
		printf("personality: skipped: kernel lacks registered personalities\n");
		status = 77;
		goto out_ring;
	}
	if (id < 0) {
		fprintf(stderr, "io_uring_register_personality: %s\n", strerror(-id));
		goto out_ring;
	}

	/* 3. Become nobody (effective uid only, so that we can come back). */
	if (seteuid(NOBODY) < 0) {
		perror("seteuid(nobody)");
		goto out_personality;
	}

	/* 4. The same open, without and with the registered credentials. */
	without = ring_open(&ring, path, 0);
	with = ring_open(&ring, path, (unsigned short)id);

	/* 5. Root again, to clean up. */
	if (seteuid(0) < 0) {
		perror("seteuid(0)");
		goto out_personality;
	}

	printf("as uid %d: open without personality: %s\n", NOBODY,
	       without < 0 ? strerror(-without) : "opened");
	printf("as uid %d: open with personality %d: %s\n", NOBODY, id,
	       with < 0 ? strerror(-with) : "opened");
	if (without >= 0)
		close(without);
	if (with >= 0)
		close(with);
	if (without == -EACCES && with >= 0)
		status = 0;
	else
		fprintf(stderr, "expected EACCES without and success with the personality\n");

out_personality:
	io_uring_unregister_personality(&ring, id);
out_ring:
	io_uring_queue_exit(&ring);
out_file:
	unlink(path);
out_dir:
	rmdir(dir);
	return status;
}
