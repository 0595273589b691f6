/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "readloop.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

void make_test_file(const char *path, long long bytes)
{
	static char chunk[1 << 20];
	struct stat st;
	long long done;
	int fd;

	if (!stat(path, &st) && st.st_size == bytes)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path, -1);
	for (done = 0; done < bytes; done += (long long) sizeof(chunk)) {
		size_t i, len = sizeof(chunk);

		for (i = 0; i < len; i += 8)
			*(uint64_t *) (chunk + i) = (uint64_t) (done + (long long) i);
		if (bytes - done < (long long) len)
			len = (size_t) (bytes - done);
		if (write(fd, chunk, len) != (ssize_t) len)
			die("write test file", -1);
	}
	if (fsync(fd))
		die("fsync", -1);
	close(fd);
}

void warm_page_cache(const char *path)
{
	static char chunk[1 << 20];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path, -1);
	while (read(fd, chunk, sizeof(chunk)) > 0)
		;
	close(fd);
}

char **alloc_read_buffers(unsigned qd)
{
	char **bufs = calloc(qd, sizeof(*bufs));
	unsigned i;

	if (!bufs)
		die("calloc", -12);
	for (i = 0; i < qd; i++) {
		if (posix_memalign((void **) &bufs[i], 4096, READ_BLOCK))
			die("posix_memalign", -12);
		memset(bufs[i], 0, READ_BLOCK);
	}
	return bufs;
}

void read_job_init(struct read_job *job, struct io_uring *ring, unsigned ring_flags, int fd,
		   long long bytes)
{
	int ret = io_uring_queue_init(job->qd, ring, ring_flags);

	if (ret < 0)
		die("io_uring_queue_init", ret);
	job->ring = ring;
	job->fd = fd;
	job->blocks = bytes / READ_BLOCK;
	job->bufs = alloc_read_buffers(job->qd);
	job->rng = 0x9e3779b97f4a7c15ULL;
}

void register_read_buffers(struct read_job *job)
{
	struct iovec *iov = calloc(job->qd, sizeof(*iov));
	unsigned i;
	int ret;

	if (!iov)
		die("calloc", -12);
	for (i = 0; i < job->qd; i++) {
		iov[i].iov_base = job->bufs[i];
		iov[i].iov_len = READ_BLOCK;
	}
	ret = io_uring_register_buffers(job->ring, iov, job->qd);
	if (ret < 0)
		die("io_uring_register_buffers", ret);
	free(iov);
}

static void queue_read(struct read_job *job, unsigned slot, int64_t *queued_at)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(job->ring);
	unsigned long long off = (rng_next(&job->rng) % (uint64_t) job->blocks) * READ_BLOCK;

	if (job->fixed_bufs)
		io_uring_prep_read_fixed(sqe, job->fd, job->bufs[slot], READ_BLOCK, off, (int) slot);
	else
		io_uring_prep_read(sqe, job->fd, job->bufs[slot], READ_BLOCK, off);
	if (job->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->personality = job->personality;
	io_uring_sqe_set_data64(sqe, slot);
	queued_at[slot] = now_ns();
}

long long read_loop(struct read_job *job, long long n, struct lat_samples *lat)
{
	int64_t *queued_at = calloc(job->qd, sizeof(*queued_at));
	long long queued = 0, done = 0;
	unsigned slot;

	if (!queued_at)
		die("calloc", -12);
	for (slot = 0; slot < job->qd && queued < n; slot++, queued++)
		queue_read(job, slot, queued_at);
	while (done < n) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret = io_uring_submit_and_wait(job->ring, 1);

		if (ret < 0)
			die("io_uring_submit_and_wait", ret);
		io_uring_for_each_cqe(job->ring, head, cqe) {
			int64_t t = now_ns();

			if (cqe->res != READ_BLOCK)
				die("read", cqe->res < 0 ? cqe->res : -5);
			slot = (unsigned) cqe->user_data;
			if (lat)
				lat_add(lat, t - queued_at[slot]);
			seen++;
			done++;
			if (queued < n) {
				queue_read(job, slot, queued_at);
				queued++;
			}
		}
		io_uring_cq_advance(job->ring, seen);
	}
	free(queued_at);
	return done;
}
