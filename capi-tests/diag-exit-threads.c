/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics at a process exit that other threads live through for a
 * moment: main returns while four threads loop NOPs on rings of their own,
 * with LIBURING_CHECK=1 and a binary trace (then a text one). The process
 * must end as it does untraced, status 0, every time: the library's
 * destructor runs while those threads may still be inside a hook, so the
 * diagnostics may unmap nothing then, and the trace file may be cut only
 * where no writer still is. Then the binary file, written by all the runs
 * one after another, must decode.
 *
 * Measured before the fix: 4 of 150 runs died of SIGSEGV (records
 * unmapped under a hook), then 2 of 300 of SIGBUS (the file cut under a
 * block just taken), and a file of 30 runs decoded as damaged.
 */
#include "check.h"

#include <pthread.h>
#include <sys/wait.h>

#define RUNS 60

static void *spin(void *arg)
{
	struct io_uring ring;

	(void) arg;
	if (io_uring_queue_init(8, &ring, 0))
		return NULL;
	for (;;) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		struct io_uring_cqe *cqe;

		io_uring_prep_nop(sqe);
		io_uring_submit(&ring);
		if (!io_uring_wait_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
	}
	return NULL;
}

static int workload(void)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		CHECK(pthread_create(&t[i], NULL, spin, NULL) == 0);
	usleep(20000);
	return 0;
}

int main(int argc, char *argv[])
{
	char self[4096], path[4096], info[4096];
	const char *out, *formats[] = { "utrace", "txt" };
	int run, f, bad = 0;

	if (argc == 2 && !strcmp(argv[1], "spin"))
		return workload();
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	out = check_env_or_skip("CAPI_OUT");
	CHECK(realpath(argv[0], self));
	check_stage_uring_info(info, sizeof(info));

	for (f = 0; f < 2; f++) {
		snprintf(path, sizeof(path), "%s/diag-exit-threads.%s", out, formats[f]);
		unlink(path);
		for (run = 0; run < RUNS; run++) {
			int status = check_system("env -u LIBURING_DEBUG LIBURING_CHECK=1 LIBURING_TRACE=%s "
						  "%s spin > /dev/null 2>&1", path, self);

			if (status != 0) {
				printf("%s run %d: status %d\n", formats[f], run, status);
				bad++;
			}
		}
		printf("%s: %d runs, %d ended otherwise than untraced\n", formats[f], RUNS, bad);
		CHECK_EQ(bad, 0);
	}
	snprintf(path, sizeof(path), "%s/diag-exit-threads.utrace", out);
	CHECK(check_system("%s trace --summary %s > %s.summary", info, path, path) == 0);
	CHECK(check_system("test $(grep -c 'summary: .* SQEs consumed by the kernel' %s.summary) -ge %d",
			   path, RUNS) == 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/diag-exit-threads.txt", out);
	unlink(path);
	printf("%d runs of each: all ended with status 0, the binary file decodes\n", RUNS);
	return 0;
}
