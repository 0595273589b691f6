/* SPDX-License-Identifier: MIT */
/*
 * A ring set up before fork, then used by the child (the parent keeps
 * using its copy): both drive the same SQ and CQ.  Fixed: the child sets
 * up a ring of its own.
 */
#include <sys/wait.h>

#include "corpus.h"

static int nop(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;

	io_uring_prep_nop(sqe_of(ring));
	TRY(io_uring_submit_and_wait(ring, 1));
	TRY(io_uring_wait_cqe(ring, &cqe));
	io_uring_cqe_seen(ring, cqe);
	return 0;
}

int main(void)
{
	struct io_uring ring;
	int st;
	pid_t pid;

	bound(2);
	init(&ring, 8, 0);
	pid = fork();
	if (pid < 0)
		DIE("fork");
	if (pid == 0) {
#ifdef FIXED
		struct io_uring own;

		init(&own, 8, 0);
		nop(&own);
		io_uring_queue_exit(&own);
#else
		nop(&ring);
#endif
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		DIE("waitpid");
	nop(&ring);
	io_uring_queue_exit(&ring);
	if (WIFSIGNALED(st))
		raise(WTERMSIG(st));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
