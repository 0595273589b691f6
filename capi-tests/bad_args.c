/* SPDX-License-Identifier: MIT */
/*
 * Invalid arguments get liburing's documented errors (never a crash):
 * entry counts (0, too many without CLAMP), CQSIZE mistakes, unknown setup
 * flags and impossible flag combinations (the kernel's -EINVAL),
 * REGISTERED_FD_ONLY without NO_MMAP, peeking/waiting on an empty ring,
 * zero timeouts, ring-fd (un)registration in the wrong state, enable_rings on
 * an enabled ring, raw syscall wrappers on bad fds, memory-size helpers with
 * bad entry counts.  A failed setup leaves the fd table as it was.
 *
 * NULL arguments that liburing hands to the kernel untouched get the kernel's
 * own answer (compared with the raw io_uring_register(2) call), and the two
 * helpers that only look at a pointer after the kernel has answered
 * (io_uring_mlock_size_params, io_uring_buf_ring_head) answer as liburing
 * does; only where liburing itself would dereference NULL is it -EINVAL.
 */
#include "check.h"

#include <dirent.h>

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	CHECK(d != NULL);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int init_params(unsigned entries, unsigned flags, unsigned cq_entries,
		       struct io_uring *ring)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = cq_entries;
	return io_uring_queue_init_params(entries, ring, &p);
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_params p;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	int fds_before = count_fds();
	int ret;

	/* ---- entry counts ---- */
	CHECK_EQ(io_uring_queue_init(0, &ring, 0), -EINVAL);
	CHECK_EQ(io_uring_queue_init(32769, &ring, 0), -EINVAL);
	CHECK_EQ(io_uring_queue_init(1u << 31, &ring, 0), -EINVAL);
	CHECK_EQ(io_uring_queue_init(~0u, &ring, 0), -EINVAL);
	/* Raw setup agrees for 0. */
	memset(&p, 0, sizeof(p));
	CHECK_EQ(io_uring_setup(0, &p), -EINVAL);

	/* ---- CQSIZE ---- */
	CHECK_EQ(init_params(8, IORING_SETUP_CQSIZE, 0, &ring), -EINVAL);
	CHECK_EQ(init_params(8, IORING_SETUP_CQSIZE, 4, &ring), -EINVAL);
	CHECK_EQ(init_params(8, IORING_SETUP_CQSIZE, 65537, &ring), -EINVAL);

	/* ---- unknown / contradictory flags: the kernel's answer ---- */
	CHECK_EQ(io_uring_queue_init(8, &ring, 1u << 31), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.flags = 1u << 31;
	CHECK_EQ(io_uring_setup(8, &p), -EINVAL);
	/* SQ_AFF without SQPOLL. */
	CHECK_EQ(io_uring_queue_init(8, &ring, IORING_SETUP_SQ_AFF), -EINVAL);
	/* TASKRUN_FLAG without COOP_TASKRUN/DEFER_TASKRUN. */
	CHECK_EQ(io_uring_queue_init(8, &ring, IORING_SETUP_TASKRUN_FLAG), -EINVAL);
	/* ATTACH_WQ with a wq_fd that is not an io_uring. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ;
	p.wq_fd = 0;
	ret = io_uring_queue_init_params(8, &ring, &p);
	CHECKM(ret == -EINVAL || ret == -EBADF, "ATTACH_WQ to stdin: %d", ret);
	/* Non-zero reserved fields in the params. */
	memset(&p, 0, sizeof(p));
	p.resv[0] = 1;
	CHECK_EQ(io_uring_queue_init_params(8, &ring, &p), -EINVAL);
	/* REGISTERED_FD_ONLY requires NO_MMAP (checked by liburing itself). */
	CHECK_EQ(io_uring_queue_init(8, &ring, IORING_SETUP_REGISTERED_FD_ONLY), -EINVAL);

	/* Failed setups leaked no descriptor. */
	CHECK_EQ(count_fds(), fds_before);

	/* ---- a good ring, misused ---- */
	check_ring_init(&ring, 8, 0);

	/* Empty ring: peek -EAGAIN, cqe pointer cleared. */
	cqe = (struct io_uring_cqe *) 1;
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	CHECK(cqe == NULL);
	CHECK_EQ(io_uring_peek_batch_cqe(&ring, &cqe, 1), 0);
	/* wait_cqe_nr(0) on an empty ring does not block. */
	CHECK_EQ(io_uring_wait_cqe_nr(&ring, &cqe, 0), -EAGAIN);

	/* Zero timeout: -ETIME immediately. */
	ts = check_kts_ms(0);
	CHECK_EQ(io_uring_wait_cqe_timeout(&ring, &cqe, &ts), -ETIME);
	CHECK_EQ(io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL), -ETIME);

	/* Submitting nothing is fine. */
	CHECK_EQ(io_uring_submit(&ring), 0);
	CHECK_EQ(io_uring_submit_and_get_events(&ring), 0);
	CHECK_EQ(io_uring_get_events(&ring), 0);

	/* An invalid opcode is reported in its CQE, not by submit. */
	{
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_nop(sqe);
		sqe->opcode = 0xfe;
		io_uring_sqe_set_data64(sqe, 9);
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(io_uring_cqe_get_data64(cqe), 9);
		CHECK_EQ(cqe->res, -EINVAL);
		io_uring_cqe_seen(&ring, cqe);
	}
	/* Bad SQE flags likewise. */
	{
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_nop(sqe);
		io_uring_sqe_set_flags(sqe, 0x80);
		io_uring_sqe_set_data64(sqe, 10);
		CHECK_EQ(io_uring_submit(&ring), 1);
		CHECK_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		CHECK_EQ(io_uring_cqe_get_data64(cqe), 10);
		CHECK_EQ(cqe->res, -EINVAL);
		io_uring_cqe_seen(&ring, cqe);
	}

	/*
	 * Ring-fd registration state machine. The kernel decides what is
	 * possible (raw probe): registration from 5.18 (-EINVAL before),
	 * io_uring_close_ring_fd from 6.3 (-EOPNOTSUPP before, whatever the
	 * state).
	 */
	{
		int reg_reg, ring_fds = check_kernel_ring_fds(&reg_reg);

		CHECK_EQ(io_uring_unregister_ring_fd(&ring), -EINVAL);
		CHECK_EQ(io_uring_close_ring_fd(&ring), reg_reg ? -EINVAL : -EOPNOTSUPP);
		if (ring_fds) {
			CHECK_EQ(io_uring_register_ring_fd(&ring), 1);
			CHECK_EQ(io_uring_register_ring_fd(&ring), -EEXIST);
			CHECK_EQ(io_uring_unregister_ring_fd(&ring), 1);
		} else {
			CHECK_EQ(io_uring_register_ring_fd(&ring), -EINVAL);
		}
		CHECK_EQ(io_uring_unregister_ring_fd(&ring), -EINVAL);
	}

	/* enable_rings on a ring that is not disabled. */
	CHECK_EQ(io_uring_enable_rings(&ring), -EBADFD);

	/* The ring still works after all of the above. */
	check_nop_roundtrip(&ring, 8, 100);
	io_uring_queue_exit(&ring);

	/* ---- raw syscall wrappers return -errno ---- */
	CHECK_EQ(io_uring_enter(123456, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(io_uring_enter2(123456, 0, 0, 0, NULL, 0), -EBADF);
	CHECK_EQ(io_uring_register(123456, IORING_REGISTER_PROBE, NULL, 0), -EBADF);
	CHECK_EQ(io_uring_enter(0, 0, 0, 0, NULL), -EOPNOTSUPP); /* stdin is no ring */
	check_ring_init(&ring, 4, 0);
	CHECK_EQ(io_uring_register(ring.ring_fd, 0xffff, NULL, 0), -EINVAL);
	CHECK_EQ(io_uring_enter(ring.ring_fd, 0, 0, 1u << 30, NULL), -EINVAL);
	/* A personality id never registered: the kernel's -EINVAL. */
	CHECK_EQ(io_uring_unregister_personality(&ring, 0xffff), -EINVAL);
	/* errno is not used for reporting: a call that fails leaves it alone. */
	errno = 4242;
	CHECK_EQ(io_uring_enter(123456, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(errno, 4242);
	io_uring_queue_exit(&ring);

	/* ---- NULL arguments: the kernel's answer, as with liburing ---- */
	check_ring_init(&ring, 4, 0);
	{
		int fd = ring.ring_fd;
		__u16 head;

		CHECK_EQ(io_uring_register_iowq_max_workers(&ring, NULL),
			 io_uring_register(fd, IORING_REGISTER_IOWQ_MAX_WORKERS, NULL, 2));
		CHECK_EQ(io_uring_register_sync_cancel(&ring, NULL),
			 io_uring_register(fd, IORING_REGISTER_SYNC_CANCEL, NULL, 1));
		CHECK_EQ(io_uring_register_napi(&ring, NULL),
			 io_uring_register(fd, IORING_REGISTER_NAPI, NULL, 1));
		CHECK_EQ(io_uring_register_clock(&ring, NULL),
			 io_uring_register(fd, IORING_REGISTER_CLOCK, NULL, 0));
		CHECK_EQ(io_uring_register_zcrx_ctrl(&ring, NULL),
			 io_uring_register(fd, IORING_REGISTER_ZCRX_CTRL, NULL, 0));
		CHECK_EQ(io_uring_register_sync_msg(NULL),
			 io_uring_register(-1, IORING_REGISTER_SEND_MSG_RING, NULL, 1));
		/* An unknown group: the kernel's error, whatever `head` is. */
		ret = io_uring_buf_ring_head(&ring, 99, &head);
		CHECK(ret < 0);
		CHECK_EQ(io_uring_buf_ring_head(&ring, 99, NULL), ret);
		/* A NULL registration: liburing would write its flags. */
		CHECK_EQ(io_uring_register_buf_ring(&ring, NULL, 0), -EINVAL);
		/* A known group with a NULL `head`: liburing would write it. */
		if (KERNEL_HAS_PART("buf-ring", IORING_REGISTER_PBUF_RING)) {
			int err;
			struct io_uring_buf_ring *br = io_uring_setup_buf_ring(&ring, 8, 5, 0, &err);

			CHECKM(br != NULL, "io_uring_setup_buf_ring: %d", err);
			CHECK_EQ(io_uring_buf_ring_head(&ring, 5, NULL), -EINVAL);
			/* IORING_REGISTER_PBUF_STATUS: 6.8. */
			if (check_kernel_version() >= 6008) {
				CHECK_EQ(io_uring_buf_ring_head(&ring, 5, &head), 0);
				CHECK_EQ(head, 0);
			} else {
				CHECK_EQ(io_uring_buf_ring_head(&ring, 5, &head), -EINVAL);
			}
			CHECK_EQ(io_uring_free_buf_ring(&ring, br, 8, 5), 0);
		}
	}
	io_uring_queue_exit(&ring);
	/*
	 * io_uring_mlock_size_params() looks at its params only on kernels that
	 * still charge rings to RLIMIT_MEMLOCK (mlock_size > 0).
	 */
	memset(&p, 0, sizeof(p));
	if (io_uring_mlock_size_params(8, &p) == 0)
		CHECK_EQ(io_uring_mlock_size_params(8, NULL), 0);
	else
		CHECK_EQ(io_uring_mlock_size_params(8, NULL), -EINVAL);
	CHECK_EQ(io_uring_mlock_size_params(0, NULL), -EINVAL);
	/* liburing reads these params at once: -EINVAL instead of a crash. */
	CHECK_EQ(io_uring_memory_size_params(8, NULL), -EINVAL);
	{
		struct io_uring r2;
		static char mem[1 << 16] __attribute__((aligned(4096)));

		CHECK_EQ(io_uring_queue_init_params(8, &r2, NULL), -EINVAL);
		CHECK_EQ(io_uring_queue_init_mem(8, &r2, NULL, mem, sizeof(mem)), -EINVAL);
		CHECK_EQ(io_uring_queue_mmap(0, NULL, &r2), -EINVAL);
		CHECK_EQ(io_uring_set_iowait(NULL, true), -EINVAL);
		check_ring_init(&r2, 4, 0);
		CHECK_EQ(io_uring_resize_rings(&r2, NULL), -EINVAL);
		io_uring_queue_exit(&r2);
	}

	/* ---- size helpers ---- */
	CHECK_EQ(io_uring_memory_size(0, 0), -EINVAL);
	CHECK_EQ(io_uring_memory_size(40000, 0), -EINVAL);
	CHECK_EQ(io_uring_mlock_size(0, 0), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 2;
	CHECK_EQ(io_uring_memory_size_params(8, &p), -EINVAL);

	/* ---- helpers on a zeroed struct io_uring ---- */
	memset(&ring, 0, sizeof(ring));
	CHECK_EQ(io_uring_ring_dontfork(&ring), -EINVAL);

	/* ---- io_uring_queue_mmap on something that is not a ring ---- */
	{
		struct io_uring r2;

		memset(&p, 0, sizeof(p));
		p.sq_entries = 4;
		p.cq_entries = 8;
		p.sq_off.array = 64;
		p.cq_off.cqes = 64;
		ret = io_uring_queue_mmap(0, &p, &r2);
		CHECKM(ret < 0, "io_uring_queue_mmap(stdin) returned %d", ret);
	}

	CHECK_EQ(count_fds(), fds_before);
	return 0;
}
