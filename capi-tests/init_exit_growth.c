/* SPDX-License-Identifier: MIT */
/*
 * No resource growth over many ring lifetimes: for every setup mode the
 * kernel accepts here (plain, SQPOLL, IOPOLL, SQE128, CQE32, NO_MMAP with
 * library and application memory, NO_SQARRAY, DEFER_TASKRUN|SINGLE_ISSUER,
 * COOP_TASKRUN|TASKRUN_FLAG, REGISTERED_FD_ONLY, a registered ring fd, a
 * provided buffer ring, CQE_MIXED/SQE_MIXED) rings are set up, used for one
 * NOP and torn down, 2,000+ cycles in all.  The number of open fds and of
 * lines in /proc/self/maps must be what they were before, and VmRSS may not
 * grow by more than a small allowance (malloc keeps freed memory).  A leak of
 * one fd, one mapping or a few hundred bytes per cycle would show.
 */
#include "check.h"

#include <dirent.h>

#define WARMUP 20
/* Per mode; an SQPOLL ring costs a kernel thread start and stop (~5 ms). */
#define CYCLES 1000
#define SQPOLL_CYCLES 150
#define RSS_ALLOWANCE_KB 1024

struct mode {
	const char *name;
	unsigned flags;
	int cycles;
	int app_mem;      /* io_uring_queue_init_mem with our own buffer */
	int reg_ring_fd;  /* io_uring_register_ring_fd + close_ring_fd */
	int buf_ring;     /* io_uring_setup_buf_ring + free_buf_ring */
};

static const struct mode modes[] = {
	{ "plain", 0, CYCLES, 0, 0, 0 },
	{ "sqpoll", IORING_SETUP_SQPOLL, SQPOLL_CYCLES, 0, 0, 0 },
	{ "iopoll", IORING_SETUP_IOPOLL, CYCLES, 0, 0, 0 },
	{ "sqe128", IORING_SETUP_SQE128, CYCLES, 0, 0, 0 },
	{ "cqe32", IORING_SETUP_CQE32, CYCLES, 0, 0, 0 },
	{ "no_mmap", IORING_SETUP_NO_MMAP, CYCLES, 0, 0, 0 },
	{ "no_mmap_app_mem", IORING_SETUP_NO_MMAP, CYCLES, 1, 0, 0 },
	{ "no_sqarray", IORING_SETUP_NO_SQARRAY, CYCLES, 0, 0, 0 },
	{ "defer_taskrun", IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER, CYCLES, 0, 0, 0 },
	{ "coop_taskrun", IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG, CYCLES, 0, 0, 0 },
	{ "registered_fd_only", IORING_SETUP_REGISTERED_FD_ONLY | IORING_SETUP_NO_MMAP, CYCLES, 0, 0, 0 },
	{ "register_ring_fd", 0, CYCLES, 0, 1, 0 },
	{ "buf_ring", 0, CYCLES, 0, 0, 1 },
	{ "cqe_mixed", IORING_SETUP_CQE_MIXED, CYCLES, 0, 0, 0 },
	{ "sqe_mixed", IORING_SETUP_SQE_MIXED, CYCLES, 0, 0, 0 },
	{ "sqe128_cqe32_no_sqarray",
	  IORING_SETUP_SQE128 | IORING_SETUP_CQE32 | IORING_SETUP_NO_SQARRAY, CYCLES, 0, 0, 0 },
};

/* What the kernel offers, asked once with raw calls (check.h) before the cycles. */
static int ring_fds, reg_reg, kernel_pbuf_ring;

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
	return n - 1; /* the directory stream's own fd */
}

static int count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0, c;

	CHECK(f != NULL);
	while ((c = fgetc(f)) != EOF)
		if (c == '\n')
			n++;
	fclose(f);
	return n;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

#define APP_BUF_SIZE (1u << 20)

/*
 * Each ring in application memory gets a buffer of its own, unmapped after
 * io_uring_queue_exit: the kernel tears a ring down asynchronously and may
 * still hold (and write) the old ring's pages after exit returns, so a
 * buffer reused at once could be shared by two rings. (Reusing one buffer
 * hung a warm-up cycle now and then, on a busy machine and on i386.)
 */
static void *app_buf_map(void)
{
	void *b = mmap(NULL, APP_BUF_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(b != MAP_FAILED);
	return b;
}

/* One lifetime: setup, one NOP round trip, optional extras, teardown. */
static void one_cycle(const struct mode *m, int cycle)
{
	struct io_uring ring;
	struct io_uring_params p;
	void *app_buf = m->app_mem ? app_buf_map() : NULL;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = m->flags;
	if (m->flags & IORING_SETUP_SQPOLL)
		p.sq_thread_idle = 10;
	if (m->app_mem)
		ret = io_uring_queue_init_mem(8, &ring, &p, app_buf, APP_BUF_SIZE);
	else
		ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret < 0)
		FAIL("%s: setup failed in cycle %d: %d (%s)", m->name, cycle, ret,
		     strerror(-ret));

	if (m->reg_ring_fd) {
		/* Refused before 5.18 (-EINVAL); closing the plain fd needs 6.3. */
		CHECK_EQ(io_uring_register_ring_fd(&ring), ring_fds ? 1 : -EINVAL);
		if (ring_fds)
			CHECK_EQ(io_uring_close_ring_fd(&ring), reg_reg ? 1 : -EOPNOTSUPP);
	}
	if (m->buf_ring && kernel_pbuf_ring) {
		struct io_uring_buf_ring *br;
		int err = 0;

		br = io_uring_setup_buf_ring(&ring, 16, 7, 0, &err);
		CHECKM(br != NULL, "setup_buf_ring: %d", err);
		CHECK_EQ(io_uring_free_buf_ring(&ring, br, 16, 7), 0);
	}
	/* IOPOLL rings reject NOPs only on old kernels; either way no leak. */
	if (!(m->flags & IORING_SETUP_IOPOLL))
		check_nop_roundtrip(&ring, 4, (unsigned long long) cycle * 4);
	io_uring_queue_exit(&ring);
	if (app_buf)
		munmap(app_buf, APP_BUF_SIZE);
}

static int supported(const struct mode *m)
{
	struct io_uring ring;
	struct io_uring_params p;
	void *app_buf;
	int ret;

	/*
	 * Measured: on 6.12 a NO_MMAP ring in the same application buffer as
	 * the rings before it takes no submissions (with upstream liburing
	 * too); 6.18 and 7.2 do (the ring memory code was rewritten in 6.13).
	 * Each ring now has a buffer of its own (app_buf_map); whether 6.12
	 * then takes them has not been measured, so the gate stays.
	 */
	if (m->app_mem && check_kernel_version() < 6013)
		return -EOPNOTSUPP;
	/* Whether the kernel takes the flags: the raw system call says. */
	ret = check_setup_flags_supported(8, m->flags);
	if (ret < 0)
		return ret;
	/* Then the library must set the ring up. */
	app_buf = m->app_mem ? app_buf_map() : NULL;
	memset(&p, 0, sizeof(p));
	p.flags = m->flags;
	if (m->app_mem)
		ret = io_uring_queue_init_mem(8, &ring, &p, app_buf, APP_BUF_SIZE);
	else
		ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret < 0)
		FAIL("%s: the kernel takes flags 0x%x, the library's setup fails: %d (%s)", m->name,
		     m->flags, ret, strerror(-ret));
	io_uring_queue_exit(&ring);
	if (app_buf)
		munmap(app_buf, APP_BUF_SIZE);
	return 0;
}

int main(void)
{
	int fds0, maps0, fds1, maps1, total = 0, tested = 0;
	long rss0, rss1;
	long long t0 = check_now_ms();
	size_t i;
	int c;

	ring_fds = check_kernel_ring_fds(&reg_reg);
	kernel_pbuf_ring = check_kernel_pbuf_ring();

	/* Warm up every supported mode once so lazily allocated state (malloc
	 * arenas, the kernel's per-task io_uring context) exists before counting. */
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (supported(&modes[i]) == 0) {
			check_note("warming up %s", modes[i].name);
			for (c = 0; c < WARMUP; c++)
				one_cycle(&modes[i], c);
		}

	fds0 = count_fds();
	maps0 = count_maps();
	rss0 = rss_kb();

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const struct mode *m = &modes[i];
		long long start = check_now_ms();
		int ret = supported(m);

		if (ret < 0) {
			check_note("%-24s not supported here (%s), left out", m->name,
				   strerror(-ret));
			continue;
		}
		for (c = 0; c < m->cycles; c++)
			one_cycle(m, c);
		total += m->cycles;
		tested++;
		fds1 = count_fds();
		maps1 = count_maps();
		check_note("%-24s %4d cycles %5lld ms  fds %d->%d  maps %d->%d  rss %ld->%ld kB",
			   m->name, m->cycles, check_now_ms() - start, fds0, fds1, maps0,
			   maps1, rss0, rss_kb());
		CHECKM(fds1 == fds0, "%s: open fds grew from %d to %d", m->name, fds0, fds1);
		CHECKM(maps1 == maps0, "%s: mappings grew from %d to %d", m->name, maps0, maps1);
	}
	rss1 = rss_kb();
	check_note("%d modes, %d cycles in %lld ms; rss %ld -> %ld kB", tested, total,
		   check_now_ms() - t0, rss0, rss1);
	CHECK(total >= 2000);
	CHECKM(rss1 - rss0 <= RSS_ALLOWANCE_KB, "RSS grew by %ld kB over %d cycles",
	       rss1 - rss0, total);
	return 0;
}
