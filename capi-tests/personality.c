/* SPDX-License-Identifier: MIT */
/*
 * Registered personalities: a request carrying sqe->personality runs with
 * the credentials of the task that registered it, not of the submitter.
 *
 * Design: the privileged parent creates the ring and registers its
 * credentials (id). It then forks; the child drops to nobody/nogroup and is
 * from then on the only user of the ring (the rings are shared memory, the
 * child's copy of struct io_uring is the one that moves). The child opens a
 * root-only file (0600 inside a 0700 directory):
 *   - without a personality            -> -EACCES
 *   - with the registered id           -> success, the file reads back
 *   - with the id and IOSQE_ASYNC      -> success (io-wq uses the creds too)
 *   - with an id nobody registered     -> -EINVAL in the CQE
 *   - with an id the child registered  -> -EACCES (its own creds)
 * Then the parent unregisters the id while the child waits, and the child's
 * next request with it fails with -EINVAL. A second unregistration of the
 * same id fails with -EINVAL from the call itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <liburing.h>
#include "check.h"


#define UNPRIV_ID	65534
#define SECRET		"root only\n"

static char dir[64], path[96];

/* openat(path) through the ring with the given personality and flags. */
static int ring_open(struct io_uring *ring, unsigned short personality,
		     unsigned char sqe_flags)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	CHECKM(sqe, "get_sqe");
	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	sqe->personality = personality;
	sqe->flags |= sqe_flags;
	ret = io_uring_submit_and_wait(ring, 1);
	CHECKM(ret == 1, "submit_and_wait: %d", ret);
	ret = io_uring_peek_cqe(ring, &cqe);
	CHECKM(ret == 0, "peek_cqe: %d", ret);
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static void check_contents(int fd)
{
	char buf[64] = { 0 };

	CHECKM(read(fd, buf, sizeof(buf) - 1) == (ssize_t)strlen(SECRET),
	      "read back");
	CHECKM(!strcmp(buf, SECRET), "wrong contents");
	close(fd);
}

static int child(struct io_uring *ring, int id, int to_parent, int from_parent)
{
	int ret, own;
	char c;

	CHECKM(setgroups(0, NULL) == 0, "setgroups");
	CHECKM(setresgid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) == 0, "setresgid");
	CHECKM(setresuid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) == 0, "setresuid");
	CHECKM(open(path, O_RDONLY) < 0 && errno == EACCES,
	      "unprivileged open(2) should fail with EACCES");

	ret = ring_open(ring, 0, 0);
	CHECKM(ret == -EACCES, "openat without personality: %d, want -EACCES", ret);

	ret = ring_open(ring, id, 0);
	CHECKM(ret >= 0, "openat with personality %d: %d", id, ret);
	check_contents(ret);

	ret = ring_open(ring, id, IOSQE_ASYNC);
	CHECKM(ret >= 0, "async openat with personality %d: %d", id, ret);
	check_contents(ret);

	ret = ring_open(ring, 0, IOSQE_ASYNC);
	CHECKM(ret == -EACCES, "async openat without personality: %d", ret);

	ret = ring_open(ring, (id + 100) & 0xffff, 0);
	CHECKM(ret == -EINVAL, "openat with unknown personality: %d", ret);

	/* The child's own registration captures its own (unprivileged) creds. */
	own = io_uring_register_personality(ring);
	CHECKM(own > 0 && own != id, "child register_personality: %d", own);
	ret = ring_open(ring, own, 0);
	CHECKM(ret == -EACCES, "openat with the child's personality: %d", ret);
	CHECKM(io_uring_unregister_personality(ring, own) == 0, "child unregister");

	/* Let the parent unregister the privileged id, then try it again. */
	CHECKM(write(to_parent, "u", 1) == 1, "sync write");
	CHECKM(read(from_parent, &c, 1) == 1, "sync read");
	ret = ring_open(ring, id, 0);
	CHECKM(ret == -EINVAL, "openat with unregistered personality: %d", ret);
	ret = ring_open(ring, id, IOSQE_ASYNC);
	CHECKM(ret == -EINVAL, "async openat with unregistered personality: %d",
	      ret);
	return 0;
}

int main(void)
{
	int to_parent[2], from_parent[2], id, id2, fd, ret, status;
	struct io_uring ring;
	pid_t pid;
	char c;

	if (geteuid() != 0) {
		printf("SKIP: personality test needs root\n");
		return 77;
	}

	ret = io_uring_queue_init(8, &ring, 0);
	CHECKM(ret == 0, "queue_init: %d", ret);
	REQUIRE_KERNEL(IORING_REGISTER_PERSONALITY);
	id = io_uring_register_personality(&ring);
	CHECKM(id > 0, "register_personality: %d", id);
	/* Each registration is a new id. */
	id2 = io_uring_register_personality(&ring);
	CHECKM(id2 > 0 && id2 != id, "second register_personality: %d", id2);
	CHECKM(io_uring_unregister_personality(&ring, id2) == 0, "unregister id2");
	ret = io_uring_unregister_personality(&ring, id2);
	CHECKM(ret == -EINVAL, "re-unregister id2: %d, want -EINVAL", ret);

	strcpy(dir, "/tmp/personality-XXXXXX");
	CHECKM(mkdtemp(dir), "mkdtemp");
	CHECKM(chmod(dir, 0700) == 0, "chmod dir");
	snprintf(path, sizeof(path), "%s/secret", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
	CHECKM(fd >= 0, "create secret");
	CHECKM(write(fd, SECRET, strlen(SECRET)) == (ssize_t)strlen(SECRET), "write");
	close(fd);

	CHECKM(pipe(to_parent) == 0 && pipe(from_parent) == 0, "pipes");
	pid = fork();
	CHECKM(pid >= 0, "fork");
	if (pid == 0)
		exit(child(&ring, id, to_parent[1], from_parent[0]));

	/* Parent: leaves the SQ alone, only registers. */
	close(to_parent[1]);
	close(from_parent[0]);
	ret = read(to_parent[0], &c, 1);
	if (ret == 1) {
		ret = io_uring_unregister_personality(&ring, id);
		CHECKM(ret == 0, "parent unregister_personality: %d", ret);
		CHECKM(write(from_parent[1], "g", 1) == 1, "sync write");
	}
	CHECKM(waitpid(pid, &status, 0) == pid, "waitpid");

	unlink(path);
	rmdir(dir);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("FAIL: child failed (status 0x%x)\n", status);
		return 1;
	}
	ret = io_uring_unregister_personality(&ring, id);
	CHECKM(ret == -EINVAL, "double unregister: %d, want -EINVAL", ret);
	ret = io_uring_unregister_personality(&ring, 0xffff);
	CHECKM(ret == -EINVAL, "unregister unknown id: %d, want -EINVAL", ret);
	io_uring_queue_exit(&ring);
	printf("PASS\n");
	return 0;
}
