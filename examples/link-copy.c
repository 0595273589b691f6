/* SPDX-License-Identifier: MIT */
/*
 * link-copy: copy a file with pairs of linked requests.
 *
 *   link-copy SOURCE DEST
 *
 * The file is cut into chunks. Each chunk gets one read and one write that
 * share a buffer; the read carries IOSQE_IO_LINK, so the kernel starts the
 * write only once the read has completed in full. Several chunks are in
 * flight at once, and the program never waits between a read and its write.
 *
 * A chain is cut when a link fails, and for reads and writes a short
 * transfer counts as a failure: the write of a short read completes with
 * -ECANCELED. The chunk is then simply queued again from where its last
 * write stopped, which also covers short writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK_SIZE (64 * 1024)
#define CHUNKS_IN_FLIGHT 8

/* One chunk of the file and where its copy stands. */
struct chunk {
	off_t offset;     /* of the chunk in both files */
	size_t length;    /* bytes in the chunk */
	size_t copied;    /* bytes written so far */
	int read_result;  /* of the latest read, once its CQE is in */
	int cqes_pending; /* 2 while a read/write pair is in flight */
	char *buffer;
};

/* user_data: the chunk's slot, with the low bit telling read from write. */
static __u64 pair_data(unsigned slot, int is_write)
{
	return ((__u64)slot << 1) | (is_write ? 1 : 0);
}

/* Queue the read/write pair for what is left of chunk @c in slot @slot. */
static void queue_pair(struct io_uring *ring, struct chunk *c, unsigned slot,
		       int in_fd, int out_fd)
{
	size_t left = c->length - c->copied;
	off_t at = c->offset + (off_t)c->copied;
	struct io_uring_sqe *sqe;

	/* The ring has two SQEs per slot, so neither can be missing. */
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_read(sqe, in_fd, c->buffer, (unsigned)left, (__u64)at);
	sqe->flags |= IOSQE_IO_LINK;
	io_uring_sqe_set_data64(sqe, pair_data(slot, 0));

	sqe = io_uring_get_sqe(ring);
	io_uring_prep_write(sqe, out_fd, c->buffer, (unsigned)left, (__u64)at);
	io_uring_sqe_set_data64(sqe, pair_data(slot, 1));

	c->cqes_pending = 2;
}

/*
 * Account one CQE to its chunk. Returns 1 when the chunk's pair is over and
 * the chunk is done, 0 when it is not done yet (pair still in flight, or to
 * be queued again), -errno on a real error.
 */
static int reap(struct chunk *c, int is_write, int res)
{
	if (!is_write) {
		c->read_result = res;
	} else if (res >= 0) {
		c->copied += (size_t)res;
	} else if (res != -ECANCELED) {
		return res;
	}
	if (--c->cqes_pending > 0)
		return 0;

	/* Both CQEs are in. A failed read cancels the write: report the read. */
	if (c->read_result < 0)
		return c->read_result;
	if (c->read_result == 0 && c->copied < c->length)
		return -EIO; /* the source shrank under us */
	return c->copied == c->length;
}

static int copy_file(struct io_uring *ring, int in_fd, int out_fd, off_t size)
{
	struct chunk chunks[CHUNKS_IN_FLIGHT];
	off_t next_offset = 0;
	unsigned busy = 0, slot;
	int ret = 0;

	memset(chunks, 0, sizeof(chunks));
	for (slot = 0; slot < CHUNKS_IN_FLIGHT; slot++) {
		chunks[slot].buffer = malloc(CHUNK_SIZE);
		if (!chunks[slot].buffer) {
			ret = -ENOMEM;
			goto out;
		}
	}

	for (;;) {
		struct io_uring_cqe *cqe;

		/* Give every idle slot the next chunk of the file. */
		for (slot = 0; slot < CHUNKS_IN_FLIGHT && next_offset < size; slot++) {
			struct chunk *c = &chunks[slot];

			if (c->cqes_pending)
				continue;
			c->offset = next_offset;
			c->length = size - next_offset < CHUNK_SIZE ?
					    (size_t)(size - next_offset) : CHUNK_SIZE;
			c->copied = 0;
			next_offset += (off_t)c->length;
			queue_pair(ring, c, slot, in_fd, out_fd);
			busy++;
		}
		if (!busy)
			break;

		ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0)
			goto out;

		/* Reap everything that is there, not just the one waited for. */
		while (io_uring_peek_cqe(ring, &cqe) == 0) {
			__u64 data = io_uring_cqe_get_data64(cqe);
			struct chunk *c = &chunks[data >> 1];
			int done = reap(c, data & 1, cqe->res);

			io_uring_cqe_seen(ring, cqe);
			if (done < 0) {
				ret = done;
				goto out;
			}
			if (done)
				busy--;
			else if (!c->cqes_pending)
				queue_pair(ring, c, (unsigned)(c - chunks), in_fd, out_fd);
		}
	}
	ret = 0;
out:
	for (slot = 0; slot < CHUNKS_IN_FLIGHT; slot++)
		free(chunks[slot].buffer);
	return ret;
}

int main(int argc, char *argv[])
{
	struct io_uring ring;
	struct stat st;
	int in_fd, out_fd, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SOURCE DEST\n", argv[0]);
		return 2;
	}
	in_fd = open(argv[1], O_RDONLY);
	if (in_fd < 0 || fstat(in_fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	out_fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out_fd < 0) {
		perror(argv[2]);
		return 1;
	}

	/* Two SQEs per chunk in flight: a pair always fits. */
	ret = io_uring_queue_init(2 * CHUNKS_IN_FLIGHT, &ring, 0);
	if (ret < 0) {
		fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
		return 1;
	}
	ret = copy_file(&ring, in_fd, out_fd, st.st_size);
	io_uring_queue_exit(&ring);
	if (ret < 0) {
		fprintf(stderr, "copy failed: %s\n", strerror(-ret));
		return 1;
	}
	if (close(out_fd) < 0) {
		perror(argv[2]);
		return 1;
	}
	close(in_fd);
	printf("copied %lld bytes in chunks of %d, %d chunks in flight\n",
	       (long long)st.st_size, CHUNK_SIZE, CHUNKS_IN_FLIGHT);
	return 0;
}
