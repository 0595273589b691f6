/* SPDX-License-Identifier: MIT */
/*
 * A plugin host for capi-tests/diag-classes.c (case 3): it links no liburing
 * and loads it, as a host loads a plugin, with dlopen(RTLD_LOCAL):
 *
 *   plugin-host reload LIB       100 times: load LIB, set up a ring, 5 NOPs,
 *                                tear it down, unload LIB; exits 1 when it
 *                                ends with other descriptors than it began
 *                                with, 2 when a load or a call fails.
 *   plugin-host both LIB FFI     loads both (liburing.so.2 and
 *                                liburing-ffi.so.2), NOPs through each, and
 *                                exits with both loaded.
 *
 * It prints what it saw; its report (diag-compare.h) lists its descriptors.
 */
#include "../diag-compare.h"

#include <dlfcn.h>

typedef int (*init_fn)(unsigned, struct io_uring *, unsigned);
typedef struct io_uring_sqe *(*get_sqe_fn)(struct io_uring *);
typedef int (*submit_and_wait_fn)(struct io_uring *, unsigned);
typedef unsigned (*peek_batch_fn)(struct io_uring *, struct io_uring_cqe **, unsigned);
typedef void (*exit_fn)(struct io_uring *);

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p) {
		printf("dlsym(%s): %s\n", name, dlerror());
		exit(2);
	}
	return p;
}

/* A ring and 5 NOPs through the library behind handle `h`. */
static void nops_through(void *h, int load)
{
	init_fn init = (init_fn) sym(h, "io_uring_queue_init");
	get_sqe_fn get_sqe = (get_sqe_fn) sym(h, "io_uring_get_sqe");
	submit_and_wait_fn submit_and_wait = (submit_and_wait_fn) sym(h, "io_uring_submit_and_wait");
	peek_batch_fn peek_batch = (peek_batch_fn) sym(h, "io_uring_peek_batch_cqe");
	exit_fn queue_exit = (exit_fn) sym(h, "io_uring_queue_exit");
	struct io_uring ring;
	int ret = HC(init(8, &ring, 0));

	if (ret < 0) {
		printf("load %d: io_uring_queue_init: %s\n", load, strerror(-ret));
		exit(2);
	}
	for (int i = 0; i < 5; i++) {
		struct io_uring_sqe *sqe = HC(get_sqe(&ring));
		struct io_uring_cqe *cqe[8];
		unsigned n;

		io_uring_prep_nop(sqe);
		sqe->user_data = (unsigned) i + 1;
		ret = HC(submit_and_wait(&ring, 1));
		n = HC(peek_batch(&ring, cqe, 8));
		if (ret != 1 || n != 1 || cqe[0]->user_data != (unsigned) i + 1) {
			printf("load %d: NOP %d: submit %d, %u CQEs\n", load, i, ret, n);
			exit(2);
		}
		io_uring_cq_advance(&ring, n);
	}
	HCV(queue_exit(&ring));
}

static int open_fds(void)
{
	static int fds[65536];

	return harm_open_fds(fds, 65536);
}

/* Close-on-exec duplicates of fd 2 (the diagnostics' one descriptor). */
static int stderr_duplicates(void)
{
	static int fds[65536];
	struct stat err, st;
	int n = harm_open_fds(fds, 65536), dups = 0;

	if (fstat(2, &err))
		return 0;
	for (int i = 0; i < n; i++)
		if (fds[i] > 2 && (fcntl(fds[i], F_GETFD) & FD_CLOEXEC) && !fstat(fds[i], &st) &&
		    st.st_dev == err.st_dev && st.st_ino == err.st_ino)
			dups++;
	return dups;
}

int main(int argc, char **argv)
{
	int start, end;

	harm_start();
	if (argc == 3 && !strcmp(argv[1], "reload")) {
		start = open_fds();
		for (int i = 0; i < 100; i++) {
			void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);

			if (!h) {
				printf("load %d: %s\n", i + 1, dlerror());
				printf("descriptors: %d at the start, %d now\n", start, open_fds());
				harm_report();
				return 2;
			}
			nops_through(h, i + 1);
			if (dlclose(h)) {
				printf("unload %d: %s\n", i + 1, dlerror());
				return 2;
			}
		}
		end = open_fds();
		/* A C library whose dlclose never unloads (musl): the library is
		 * still there, attached, and keeps its one duplicate of stderr
		 * (not counted, so that the output is the same as without the
		 * variables). */
		if (end == start + 1 && dlopen(argv[2], RTLD_NOW | RTLD_NOLOAD) &&
		    stderr_duplicates() == 1)
			end--;
		printf("100 loads and unloads; descriptors: %d at the start, %d at the end\n", start,
		       end);
		harm_report();
		return end == start ? 0 : 1;
	}
	if (argc == 4 && !strcmp(argv[1], "both")) {
		void *a = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
		void *b = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);

		if (!a || !b) {
			printf("dlopen: %s\n", dlerror());
			return 2;
		}
		nops_through(a, 1);
		nops_through(b, 2);
		printf("NOPs through liburing.so.2 and liburing-ffi.so.2\n");
		harm_report();
		return 0;
	}
	fprintf(stderr, "usage: plugin-host reload LIB | both LIB FFI\n");
	return 2;
}
