// SPDX-License-Identifier: MIT
// C++ consumer of liburing.h (built by capi-tests/cxx.c with -std=c++11,
// c++17 and c++20, -Wall -Wextra -Werror).  Two translation units include the
// header (this one and cxx_second.cpp) and are linked together.  Exit 0 when
// a NOP round trip and a CQE walk work.
#include <liburing.h>

#include <poll.h>

#include <cstdio>
#include <cstring>

int second_unit_roundtrip(struct io_uring *ring, unsigned n);

#define EXPECT(c)                                                          \
	do {                                                               \
		if (!(c)) {                                                \
			std::fprintf(stderr, "C++ check failed line %d: %s\n", \
				     __LINE__, #c);                        \
			return 1;                                          \
		}                                                          \
	} while (0)

namespace {

struct Ring {
	struct io_uring ring;
	int err;
	explicit Ring(unsigned entries) { err = io_uring_queue_init(entries, &ring, 0); }
	~Ring() { if (!err) io_uring_queue_exit(&ring); }
	Ring(const Ring &) = delete;
	Ring &operator=(const Ring &) = delete;
};

// Touch a range of inline helpers with C++ types so the compiler checks them.
void prepare_many(struct io_uring_sqe *sqe, int fd, char *buf, struct iovec *iov,
		  struct __kernel_timespec *ts, struct sockaddr *sa, socklen_t *salen,
		  struct msghdr *msg)
{
	io_uring_prep_read(sqe, fd, buf, 16, 0);
	io_uring_prep_write(sqe, fd, buf, 16, 0);
	io_uring_prep_readv(sqe, fd, iov, 1, 0);
	io_uring_prep_writev2(sqe, fd, iov, 1, 0, 0);
	io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
	io_uring_prep_timeout(sqe, ts, 1, 0);
	io_uring_prep_link_timeout(sqe, ts, 0);
	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_prep_accept(sqe, fd, sa, salen, 0);
	io_uring_prep_connect(sqe, fd, sa, *salen);
	io_uring_prep_send(sqe, fd, buf, 16, 0);
	io_uring_prep_recv(sqe, fd, buf, 16, 0);
	io_uring_prep_sendmsg(sqe, fd, msg, 0);
	io_uring_prep_recvmsg(sqe, fd, msg, 0);
	io_uring_prep_openat(sqe, AT_FDCWD, "/", O_RDONLY, 0);
	io_uring_prep_close(sqe, fd);
	io_uring_prep_cancel64(sqe, 1, 0);
	io_uring_prep_cancel(sqe, buf, 0);
	io_uring_prep_msg_ring(sqe, fd, 0, 0, 0);
	io_uring_prep_splice(sqe, fd, 0, fd, 0, 16, 0);
	io_uring_prep_fadvise(sqe, fd, 0, 16, 0);
	io_uring_prep_madvise(sqe, buf, 16, 0);
	io_uring_prep_statx(sqe, AT_FDCWD, "/", 0, 0, nullptr);
	io_uring_prep_shutdown(sqe, fd, 0);
	io_uring_prep_socket(sqe, AF_INET, SOCK_STREAM, 0, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	io_uring_sqe_set_data(sqe, buf);
	io_uring_prep_nop(sqe);
}

} // namespace

int main()
{
	Ring r(64);
	EXPECT(r.err == 0);
	struct io_uring *ring = &r.ring;

	// Batch of 32 NOPs tagged 1..32.
	for (unsigned i = 1; i <= 32; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
		EXPECT(sqe != nullptr);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, i);
	}
	EXPECT(io_uring_submit_and_wait(ring, 32) == 32);
	EXPECT(io_uring_cq_ready(ring) == 32);

	unsigned head, count = 0;
	unsigned long long sum = 0;
	struct io_uring_cqe *cqe;
	io_uring_for_each_cqe(ring, head, cqe) {
		EXPECT(cqe->res == 0);
		sum += io_uring_cqe_get_data64(cqe);
		count++;
	}
	EXPECT(count == 32);
	EXPECT(sum == 32 * 33 / 2);
	io_uring_cq_advance(ring, count);

	// Single NOP via wait_cqe, pointer user_data.
	int marker = 7;
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	EXPECT(sqe != nullptr);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data(sqe, &marker);
	EXPECT(io_uring_submit(ring) == 1);
	EXPECT(io_uring_wait_cqe(ring, &cqe) == 0);
	EXPECT(io_uring_cqe_get_data(cqe) == static_cast<void *>(&marker));
	io_uring_cqe_seen(ring, cqe);

	// Preps compiled with C++ types; the SQE is overwritten with a NOP last.
	char buf[16] = {};
	struct iovec iov = { buf, sizeof(buf) };
	struct __kernel_timespec ts = { 0, 1000 };
	struct sockaddr_storage ss;
	socklen_t slen = sizeof(ss);
	struct msghdr msg;
	std::memset(&msg, 0, sizeof(msg));
	sqe = io_uring_get_sqe(ring);
	prepare_many(sqe, -1, buf, &iov, &ts, reinterpret_cast<struct sockaddr *>(&ss), &slen,
		     &msg);
	io_uring_sqe_set_data64(sqe, 99);
	EXPECT(io_uring_submit_and_wait(ring, 1) == 1);
	EXPECT(io_uring_peek_cqe(ring, &cqe) == 0);
	EXPECT(io_uring_cqe_get_data64(cqe) == 99);
	io_uring_cqe_seen(ring, cqe);

	EXPECT(second_unit_roundtrip(ring, 16) == 0);

	struct io_uring_probe *p = io_uring_get_probe_ring(ring);
	EXPECT(p != nullptr);
	EXPECT(io_uring_opcode_supported(p, IORING_OP_NOP));
	io_uring_free_probe(p);

	EXPECT(!io_uring_check_version(IO_URING_VERSION_MAJOR, IO_URING_VERSION_MINOR));
	std::printf("C++ %ld ok\n", static_cast<long>(__cplusplus));
	return 0;
}
