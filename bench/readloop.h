/* SPDX-License-Identifier: MIT */
/*
 * The random 4 KiB read loop shared by the file workloads (buffered reads,
 * O_DIRECT reads, personality): keeps <qd> reads in flight until <n> have
 * completed, resubmitting from the completion loop, and records each read's
 * latency from queueing to its CQE being seen.
 */
#ifndef BENCH_READLOOP_H
#define BENCH_READLOOP_H

#include "common.h"

#include <liburing.h>

#define READ_BLOCK 4096

struct read_job {
	struct io_uring *ring;
	int fd;			/* file descriptor, or registered index with fixed_file */
	int fixed_file;		/* IOSQE_FIXED_FILE, fd is index 0 */
	int fixed_bufs;		/* read_fixed into registered buffer <slot> */
	unsigned short personality; /* 0: none */
	unsigned qd;
	long long blocks;	/* file size in READ_BLOCKs */
	char **bufs;		/* qd buffers of READ_BLOCK bytes, 4 KiB aligned */
	uint64_t rng;
};

/*
 * Creates (or keeps, when it already has the size) a file of <bytes> filled
 * with a pattern at <path>, synced to disk.
 */
void make_test_file(const char *path, long long bytes);
/* Reads the whole file once, so buffered reads find it in the page cache. */
void warm_page_cache(const char *path);
/* qd 4 KiB-aligned buffers of READ_BLOCK bytes. */
char **alloc_read_buffers(unsigned qd);
/*
 * Sets up <ring> with <ring_flags> and job->qd entries for reads of the open
 * file <fd> of <bytes>, with job->qd fresh buffers (dies on failure).
 */
void read_job_init(struct read_job *job, struct io_uring *ring, unsigned ring_flags, int fd,
		   long long bytes);
/* Registers job->bufs as fixed buffers (one per slot). */
void register_read_buffers(struct read_job *job);

/* Runs <n> reads; returns the number done (always n; dies on a short read). */
long long read_loop(struct read_job *job, long long n, struct lat_samples *lat);

#endif
