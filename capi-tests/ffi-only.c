/* SPDX-License-Identifier: MIT */
/*
 * liburing-ffi.so.2 used the way a foreign-language binding uses it: the
 * library is dlopen()ed and every helper (including the ones that liburing.h
 * provides as static inline code) is looked up with dlsym() and called
 * through a function pointer.  <liburing.h> is deliberately NOT included:
 * struct io_uring is an opaque 216-byte, 8-aligned block of memory, and only
 * the kernel ABI header <liburing/io_uring.h> is used to read SQE/CQE fields.
 *
 * Exercised through the FFI symbols: NOP round trip (get_sqe, prep_nop,
 * sqe_set_data64/set_data, submit, wait_cqe, peek_cqe, cqe_seen, cq_ready,
 * sq_ready), a file written and read back (prep_write/prep_writev,
 * prep_read/prep_readv), a read on an empty pipe linked to a link timeout
 * (-ECANCELED / -ETIME), and a provided-buffer-ring receive over a socketpair
 * (setup_buf_ring, buf_ring_mask/add/advance/cq_advance, prep_recv with
 * IOSQE_BUFFER_SELECT + sqe_set_buf_group, free_buf_ring).
 *
 * When the version map is known (env URING_FFI_MAP, else
 * $CAPI_SRC/../src/liburing-ffi.map as exported by capi-tests/run.sh), every
 * symbol of the map must resolve with dlvsym() under the version node the map
 * gives it; without a map that part is skipped with a message.
 *
 * Exit 0 pass, 77 skip, 1 fail.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <liburing/io_uring.h>	/* kernel ABI only: SQE/CQE layout, flags */

#if defined(LIBURING_H) || defined(LIB_URING_H)
#error "ffi-only.c must not see liburing.h"
#endif

/* ------------------------------------------------------------------ */
/* Reporting (check.h is not used: it includes liburing.h)             */
/* ------------------------------------------------------------------ */

__attribute__((noreturn, format(printf, 3, 4)))
static void fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

#define FAIL(...) fail_at(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			FAIL("check failed: %s", #cond);		\
	} while (0)

#define CHECK_EQ(got_expr, want_expr)					\
	do {								\
		long long got_ = (long long) (got_expr);		\
		long long want_ = (long long) (want_expr);		\
		if (got_ != want_)					\
			FAIL("%s: got %lld%s%s, expected %lld (%s)",	\
			     #got_expr, got_,				\
			     got_ < 0 && got_ > -4096 ? " " : "",	\
			     got_ < 0 && got_ > -4096 ?			\
				strerror((int) -got_) : "",		\
			     want_, #want_expr);			\
	} while (0)

static void note(const char *what)
{
	printf("ok: %s\n", what);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* The FFI surface used here, as function pointers                     */
/* ------------------------------------------------------------------ */

struct io_uring;		/* opaque: never dereferenced here */

static struct {
	int (*queue_init)(unsigned, struct io_uring *, unsigned);
	void (*queue_exit)(struct io_uring *);
	struct io_uring_sqe *(*get_sqe)(struct io_uring *);
	int (*submit)(struct io_uring *);
	int (*submit_and_wait)(struct io_uring *, unsigned);
	int (*wait_cqe)(struct io_uring *, struct io_uring_cqe **);
	int (*peek_cqe)(struct io_uring *, struct io_uring_cqe **);
	void (*cqe_seen)(struct io_uring *, struct io_uring_cqe *);
	unsigned (*cq_ready)(const struct io_uring *);
	unsigned (*sq_ready)(const struct io_uring *);
	void (*prep_nop)(struct io_uring_sqe *);
	void (*sqe_set_data64)(struct io_uring_sqe *, __u64);
	void (*sqe_set_data)(struct io_uring_sqe *, void *);
	__u64 (*cqe_get_data64)(const struct io_uring_cqe *);
	void *(*cqe_get_data)(const struct io_uring_cqe *);
	void (*sqe_set_flags)(struct io_uring_sqe *, unsigned);
	void (*sqe_set_buf_group)(struct io_uring_sqe *, int);
	void (*prep_write)(struct io_uring_sqe *, int, const void *, unsigned, __u64);
	void (*prep_read)(struct io_uring_sqe *, int, void *, unsigned, __u64);
	void (*prep_writev)(struct io_uring_sqe *, int, const struct iovec *, unsigned, __u64);
	void (*prep_readv)(struct io_uring_sqe *, int, const struct iovec *, unsigned, __u64);
	void (*prep_link_timeout)(struct io_uring_sqe *, const struct __kernel_timespec *, unsigned);
	void (*prep_recv)(struct io_uring_sqe *, int, void *, size_t, int);
	struct io_uring_buf_ring *(*setup_buf_ring)(struct io_uring *, unsigned, int, unsigned, int *);
	int (*free_buf_ring)(struct io_uring *, struct io_uring_buf_ring *, unsigned, int);
	int (*buf_ring_mask)(__u32);
	void (*buf_ring_add)(struct io_uring_buf_ring *, void *, unsigned, unsigned short, int, int);
	void (*buf_ring_advance)(struct io_uring_buf_ring *, int);
	void (*buf_ring_cq_advance)(struct io_uring *, struct io_uring_buf_ring *, int);
	int (*major_version)(void);
	int (*minor_version)(void);
	bool (*check_version)(int, int);
} fn;

static void *lib;
static char lib_path[PATH_MAX];

/* dlsym() one name from the FFI library; a missing symbol fails the test. */
static void *must_sym(const char *name)
{
	Dl_info info;
	void *p;
	const char *err;

	dlerror();
	p = dlsym(lib, name);
	err = dlerror();
	if (err || !p)
		FAIL("liburing-ffi.so.2 lacks symbol %s: %s", name, err ? err : "NULL address");
	/* It must be defined by the FFI library itself, not by a dependency. */
	if (!dladdr(p, &info) || !info.dli_fname)
		FAIL("dladdr(%s) found no object", name);
	if (!strstr(info.dli_fname, "liburing-ffi"))
		FAIL("%s resolved in %s, not in liburing-ffi", name, info.dli_fname);
	return p;
}

/* Function pointers are stored from the void * that dlsym returns (POSIX allows it). */
#define RESOLVE(member, name)						\
	do {								\
		void *sym_ = must_sym(name);				\
		_Static_assert(sizeof(fn.member) == sizeof(sym_), "fnptr size"); \
		memcpy(&fn.member, &sym_, sizeof(sym_));		\
	} while (0)

static void load_library(void)
{
	struct link_map *lm = NULL;

	lib = dlopen("liburing-ffi.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		FAIL("dlopen(liburing-ffi.so.2): %s", dlerror());
	if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
		snprintf(lib_path, sizeof(lib_path), "%s", lm->l_name);
	printf("loaded %s (LD_LIBRARY_PATH=%s)\n", lib_path,
	       getenv("LD_LIBRARY_PATH") ? getenv("LD_LIBRARY_PATH") : "");

	RESOLVE(queue_init, "io_uring_queue_init");
	RESOLVE(queue_exit, "io_uring_queue_exit");
	RESOLVE(get_sqe, "io_uring_get_sqe");
	RESOLVE(submit, "io_uring_submit");
	RESOLVE(submit_and_wait, "io_uring_submit_and_wait");
	RESOLVE(wait_cqe, "io_uring_wait_cqe");
	RESOLVE(peek_cqe, "io_uring_peek_cqe");
	RESOLVE(cqe_seen, "io_uring_cqe_seen");
	RESOLVE(cq_ready, "io_uring_cq_ready");
	RESOLVE(sq_ready, "io_uring_sq_ready");
	RESOLVE(prep_nop, "io_uring_prep_nop");
	RESOLVE(sqe_set_data64, "io_uring_sqe_set_data64");
	RESOLVE(sqe_set_data, "io_uring_sqe_set_data");
	RESOLVE(cqe_get_data64, "io_uring_cqe_get_data64");
	RESOLVE(cqe_get_data, "io_uring_cqe_get_data");
	RESOLVE(sqe_set_flags, "io_uring_sqe_set_flags");
	RESOLVE(sqe_set_buf_group, "io_uring_sqe_set_buf_group");
	RESOLVE(prep_write, "io_uring_prep_write");
	RESOLVE(prep_read, "io_uring_prep_read");
	RESOLVE(prep_writev, "io_uring_prep_writev");
	RESOLVE(prep_readv, "io_uring_prep_readv");
	RESOLVE(prep_link_timeout, "io_uring_prep_link_timeout");
	RESOLVE(prep_recv, "io_uring_prep_recv");
	RESOLVE(setup_buf_ring, "io_uring_setup_buf_ring");
	RESOLVE(free_buf_ring, "io_uring_free_buf_ring");
	RESOLVE(buf_ring_mask, "io_uring_buf_ring_mask");
	RESOLVE(buf_ring_add, "io_uring_buf_ring_add");
	RESOLVE(buf_ring_advance, "io_uring_buf_ring_advance");
	RESOLVE(buf_ring_cq_advance, "io_uring_buf_ring_cq_advance");
	RESOLVE(major_version, "io_uring_major_version");
	RESOLVE(minor_version, "io_uring_minor_version");
	RESOLVE(check_version, "io_uring_check_version");
	note("dlopen + dlsym of every helper used");
}

/* ------------------------------------------------------------------ */
/* Every symbol of the version map, under its node                     */
/* ------------------------------------------------------------------ */

/* Remove C comments in place (the map is read whole into memory). */
static void strip_comments(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '/' && r[1] == '*') {
			char *end = strstr(r + 2, "*/");

			r = end ? end + 2 : r + strlen(r);
			*w++ = ' ';
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

static int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/*
 * Walk the map: "NODE {" opens a node (global until a label says
 * otherwise), "global:"/"local:" switch the section, "name;" inside a global section is an exported symbol, "}"
 * (possibly followed by the parent node and ";") closes the node.
 */
static void check_map_symbols(void)
{
	const char *path = getenv("URING_FFI_MAP");
	char fallback[PATH_MAX];
	char node[256] = "", word[256];
	unsigned total = 0, missing = 0;
	bool in_node = false, global = false;
	char *text, *p;
	long size;
	FILE *f;

	if (!path || !*path) {
		const char *src = getenv("CAPI_SRC");

		path = NULL;
		if (src && *src) {
			snprintf(fallback, sizeof(fallback), "%s/../src/liburing-ffi.map", src);
			if (access(fallback, R_OK) == 0)
				path = fallback;
		}
	}
	if (!path) {
		printf("note: URING_FFI_MAP not set (and no $CAPI_SRC/../src/liburing-ffi.map): "
		       "skipping the every-map-symbol check\n");
		return;
	}

	f = fopen(path, "r");
	if (!f)
		FAIL("cannot open version map %s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		FAIL("cannot size %s", path);
	text = malloc((size_t) size + 1);
	CHECK(text != NULL);
	if (fread(text, 1, (size_t) size, f) != (size_t) size)
		FAIL("short read of %s", path);
	text[size] = '\0';
	fclose(f);
	strip_comments(text);

	p = text;
	while (*p) {
		size_t n = 0;

		if (*p == '{') {
			/* A node without a section label exports its names. */
			in_node = true;
			global = true;
			p++;
			continue;
		}
		if (*p == '}') {
			in_node = false;
			global = false;
			p++;
			continue;
		}
		if (!is_ident_char(*p)) {
			p++;
			continue;
		}
		while (is_ident_char(p[n]) && n + 1 < sizeof(word)) {
			word[n] = p[n];
			n++;
		}
		word[n] = '\0';
		p += n;
		if (*p == ':') {		/* section label */
			global = strcmp(word, "global") == 0;
			p++;
			continue;
		}
		if (!in_node) {
			/* "NODE {" names the next node; "} PARENT;" is ignored. */
			char *q = p;

			while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
				q++;
			if (*q == '{')
				snprintf(node, sizeof(node), "%s", word);
			continue;
		}
		if (!global)
			continue;
		total++;
		dlerror();
#ifdef __GLIBC__
		if (!dlvsym(lib, word, node)) {
#else
		/* Symbol versions are glibc's: elsewhere the name must resolve. */
		if (!dlsym(lib, word)) {
#endif
			const char *err = dlerror();

			fprintf(stderr, "missing: %s@%s (%s)\n", word, node, err ? err : "?");
			missing++;
		}
	}
	free(text);
	if (total == 0)
		FAIL("no symbols parsed from %s", path);
	if (missing)
		FAIL("%u of %u symbols of %s do not resolve in %s", missing, total, path, lib_path);
	printf("ok: all %u symbols of %s resolve with their version node\n", total, path);
}

/* ------------------------------------------------------------------ */
/* Ring memory: opaque, with a guard behind it                         */
/* ------------------------------------------------------------------ */

#define RING_SIZE 216
#define GUARD_SIZE 64

static struct {
	_Alignas(8) unsigned char ring[RING_SIZE];
	unsigned char guard[GUARD_SIZE];
} mem;

#define RING ((struct io_uring *) mem.ring)

static void check_guard(const char *when)
{
	for (unsigned i = 0; i < GUARD_SIZE; i++)
		if (mem.guard[i] != 0xa5)
			FAIL("library wrote past the 216-byte struct io_uring (%s)", when);
}

static struct io_uring_sqe *sqe_or_fail(void)
{
	struct io_uring_sqe *sqe = fn.get_sqe(RING);

	if (!sqe)
		FAIL("io_uring_get_sqe returned NULL");
	return sqe;
}

/* What a test needs from a CQE, copied out before the slot is released. */
struct done {
	__u64 user_data;
	__s32 res;
	__u32 flags;
};

/* Wait for one CQE, copy it out, mark it seen. */
static struct done reap_one(void)
{
	struct io_uring_cqe *cqe = NULL;
	struct done d;
	int ret = fn.wait_cqe(RING, &cqe);

	CHECK_EQ(ret, 0);
	CHECK(cqe != NULL);
	d.user_data = cqe->user_data;
	d.res = cqe->res;
	d.flags = cqe->flags;
	fn.cqe_seen(RING, cqe);
	return d;
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */
/* ------------------------------------------------------------------ */

static void test_nop(void)
{
	struct io_uring_cqe *cqe = NULL;
	unsigned seen = 0;
	int marker;

	for (unsigned i = 0; i < 4; i++) {
		struct io_uring_sqe *sqe = sqe_or_fail();

		fn.prep_nop(sqe);
		fn.sqe_set_data64(sqe, 1000 + i);
		CHECK_EQ(sqe->opcode, IORING_OP_NOP);
		CHECK_EQ(sqe->user_data, 1000 + i);
	}
	CHECK_EQ(fn.sq_ready(RING), 4);
	CHECK_EQ(fn.submit(RING), 4);
	CHECK_EQ(fn.sq_ready(RING), 0);

	for (unsigned i = 0; i < 4; i++) {
		struct done c = reap_one();
		unsigned long long ud = c.user_data;

		CHECK_EQ(c.res, 0);
		CHECK(ud >= 1000 && ud < 1004);
		CHECK((seen & (1u << (ud - 1000))) == 0);
		seen |= 1u << (ud - 1000);
	}
	CHECK_EQ(seen, 0xf);
	CHECK_EQ(fn.cq_ready(RING), 0);

	/* Nothing pending: peek reports -EAGAIN. */
	CHECK_EQ(fn.peek_cqe(RING, &cqe), -EAGAIN);

	/* A pointer user_data, completed with submit_and_wait, found by peek. */
	{
		struct io_uring_sqe *sqe = sqe_or_fail();

		fn.prep_nop(sqe);
		fn.sqe_set_data(sqe, &marker);
	}
	CHECK_EQ(fn.submit_and_wait(RING, 1), 1);
	CHECK_EQ(fn.cq_ready(RING), 1);
	cqe = NULL;
	CHECK_EQ(fn.peek_cqe(RING, &cqe), 0);
	CHECK(cqe != NULL);
	CHECK(fn.cqe_get_data(cqe) == (void *) &marker);
	CHECK_EQ(fn.cqe_get_data64(cqe), (uintptr_t) &marker);
	CHECK_EQ(cqe->res, 0);
	fn.cqe_seen(RING, cqe);
	CHECK_EQ(fn.cq_ready(RING), 0);
	CHECK_EQ(fn.peek_cqe(RING, &cqe), -EAGAIN);
	note("NOP round trip (set_data64/set_data, submit, wait/peek_cqe, cqe_seen)");
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char) (i * 31u + seed * 17u + (i >> 7));
}

static void test_file_rw(void)
{
	enum { A = 4096, B1 = 1000, B2 = 3096 };
	static unsigned char wa[A], wb1[B1], wb2[B2];
	static unsigned char ra[A], rb1[B1], rb2[B2], check[A + B1 + B2];
	struct iovec wv[2] = { { wb1, B1 }, { wb2, B2 } };
	struct iovec rv[2] = { { rb1, B1 }, { rb2, B2 } };
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	struct io_uring_sqe *sqe;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/ffi-only.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		FAIL("mkstemp(%s): %s", path, strerror(errno));
	unlink(path);

	fill(wa, A, 1);
	fill(wb1, B1, 2);
	fill(wb2, B2, 3);

	sqe = sqe_or_fail();
	fn.prep_write(sqe, fd, wa, A, 0);
	fn.sqe_set_data64(sqe, 1);
	CHECK_EQ(sqe->opcode, IORING_OP_WRITE);
	CHECK_EQ(sqe->fd, fd);
	CHECK(sqe->addr == (uintptr_t) wa);
	CHECK_EQ(sqe->len, A);
	CHECK_EQ(sqe->off, 0);
	sqe = sqe_or_fail();
	fn.prep_writev(sqe, fd, wv, 2, A);
	fn.sqe_set_data64(sqe, 2);
	CHECK_EQ(sqe->opcode, IORING_OP_WRITEV);
	CHECK(sqe->addr == (uintptr_t) wv);
	CHECK_EQ(sqe->len, 2);
	CHECK_EQ(sqe->off, A);
	CHECK_EQ(fn.submit(RING), 2);
	for (int i = 0; i < 2; i++) {
		struct done c = reap_one();

		if (c.user_data == 1)
			CHECK_EQ(c.res, A);
		else if (c.user_data == 2)
			CHECK_EQ(c.res, B1 + B2);
		else
			FAIL("unexpected user_data %llu", (unsigned long long) c.user_data);
	}

	/* The kernel's view of the file, independently of the ring. */
	CHECK_EQ(pread(fd, check, sizeof(check), 0), (ssize_t) sizeof(check));
	CHECK(memcmp(check, wa, A) == 0);
	CHECK(memcmp(check + A, wb1, B1) == 0);
	CHECK(memcmp(check + A + B1, wb2, B2) == 0);

	sqe = sqe_or_fail();
	fn.prep_read(sqe, fd, ra, A, 0);
	fn.sqe_set_data64(sqe, 3);
	CHECK_EQ(sqe->opcode, IORING_OP_READ);
	sqe = sqe_or_fail();
	fn.prep_readv(sqe, fd, rv, 2, A);
	fn.sqe_set_data64(sqe, 4);
	CHECK_EQ(sqe->opcode, IORING_OP_READV);
	CHECK_EQ(fn.submit(RING), 2);
	for (int i = 0; i < 2; i++) {
		struct done c = reap_one();

		if (c.user_data == 3)
			CHECK_EQ(c.res, A);
		else if (c.user_data == 4)
			CHECK_EQ(c.res, B1 + B2);
		else
			FAIL("unexpected user_data %llu", (unsigned long long) c.user_data);
	}
	CHECK(memcmp(ra, wa, A) == 0);
	CHECK(memcmp(rb1, wb1, B1) == 0);
	CHECK(memcmp(rb2, wb2, B2) == 0);
	close(fd);
	note("file write/writev then read/readv, data compared");
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_link_timeout(void)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 100 * 1000000LL };
	struct io_uring_sqe *sqe;
	char buf[16];
	int pfd[2], got_read = 0, got_timeout = 0;
	long long start, elapsed;

	CHECK(pipe(pfd) == 0);
	sqe = sqe_or_fail();
	fn.prep_read(sqe, pfd[0], buf, sizeof(buf), 0);
	fn.sqe_set_flags(sqe, IOSQE_IO_LINK);
	fn.sqe_set_data64(sqe, 10);
	CHECK_EQ(sqe->flags, IOSQE_IO_LINK);
	sqe = sqe_or_fail();
	fn.prep_link_timeout(sqe, &ts, 0);
	fn.sqe_set_data64(sqe, 11);
	CHECK_EQ(sqe->opcode, IORING_OP_LINK_TIMEOUT);
	CHECK(sqe->addr == (uintptr_t) &ts);
	CHECK_EQ(sqe->len, 1);

	start = now_ms();
	CHECK_EQ(fn.submit(RING), 2);
	for (int i = 0; i < 2; i++) {
		struct done c = reap_one();

		if (c.user_data == 10) {
			CHECK_EQ(c.res, -ECANCELED);
			got_read++;
		} else if (c.user_data == 11) {
			CHECK_EQ(c.res, -ETIME);
			got_timeout++;
		} else {
			FAIL("unexpected user_data %llu", (unsigned long long) c.user_data);
		}
	}
	elapsed = now_ms() - start;
	CHECK(got_read == 1 && got_timeout == 1);
	if (elapsed < 80 || elapsed > 5000)
		FAIL("linked timeout of 100ms fired after %lld ms", elapsed);
	close(pfd[0]);
	close(pfd[1]);
	printf("ok: linked timeout: read -ECANCELED, timeout -ETIME after %lld ms\n", elapsed);
}

static void test_buf_ring_recv(void)
{
	enum { NBUF = 8, BUFSZ = 64, BGID = 7 };
	static unsigned char bufs[NBUF][BUFSZ];
	static const char msg1[] = "first message through a provided buffer";
	static const char msg2[] = "second one";
	struct io_uring_buf_ring *br;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct done c;
	int sv[2], err = 0, mask;
	unsigned bid;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	br = fn.setup_buf_ring(RING, NBUF, BGID, 0, &err);
	if (!br) {
		if (err == -EINVAL || err == -ENOENT || err == -EOPNOTSUPP) {
			printf("note: kernel has no registered buffer rings (%d): "
			       "provided-buffer part skipped\n", err);
			close(sv[0]);
			close(sv[1]);
			return;
		}
		FAIL("io_uring_setup_buf_ring: %d (%s)", err, strerror(-err));
	}
	mask = fn.buf_ring_mask(NBUF);
	CHECK_EQ(mask, NBUF - 1);
	memset(bufs, 0, sizeof(bufs));
	for (int i = 0; i < NBUF; i++)
		fn.buf_ring_add(br, bufs[i], BUFSZ, (unsigned short) i, mask, i);
	fn.buf_ring_advance(br, NBUF);

	/* Receive armed before any data exists, then fed from the other end. */
	sqe = sqe_or_fail();
	fn.prep_recv(sqe, sv[0], NULL, BUFSZ, 0);
	fn.sqe_set_flags(sqe, IOSQE_BUFFER_SELECT);
	fn.sqe_set_buf_group(sqe, BGID);
	fn.sqe_set_data64(sqe, 20);
	CHECK_EQ(sqe->opcode, IORING_OP_RECV);
	CHECK_EQ(sqe->flags, IOSQE_BUFFER_SELECT);
	CHECK_EQ(sqe->buf_group, BGID);
	CHECK_EQ(fn.submit(RING), 1);
	CHECK_EQ(fn.peek_cqe(RING, &cqe), -EAGAIN);
	CHECK_EQ(write(sv[1], msg1, sizeof(msg1)), (ssize_t) sizeof(msg1));

	c = reap_one();
	CHECK_EQ(c.user_data, 20);
	CHECK_EQ(c.res, sizeof(msg1));
	CHECK(c.flags & IORING_CQE_F_BUFFER);
	bid = c.flags >> IORING_CQE_BUFFER_SHIFT;
	CHECK_EQ(bid, 0);
	CHECK(memcmp(bufs[bid], msg1, sizeof(msg1)) == 0);

	/* Data already queued; the next buffer of the ring is picked. */
	CHECK_EQ(write(sv[1], msg2, sizeof(msg2)), (ssize_t) sizeof(msg2));
	sqe = sqe_or_fail();
	fn.prep_recv(sqe, sv[0], NULL, BUFSZ, 0);
	fn.sqe_set_flags(sqe, IOSQE_BUFFER_SELECT);
	fn.sqe_set_buf_group(sqe, BGID);
	fn.sqe_set_data64(sqe, 21);
	CHECK_EQ(fn.submit_and_wait(RING, 1), 1);
	cqe = NULL;
	CHECK_EQ(fn.peek_cqe(RING, &cqe), 0);
	CHECK(cqe != NULL);
	CHECK_EQ(cqe->user_data, 21);
	CHECK_EQ(cqe->res, sizeof(msg2));
	CHECK(cqe->flags & IORING_CQE_F_BUFFER);
	bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
	CHECK_EQ(bid, 1);
	CHECK(memcmp(bufs[bid], msg2, sizeof(msg2)) == 0);
	/* Hand buffer 1 back and consume the CQE in one call. */
	fn.buf_ring_add(br, bufs[bid], BUFSZ, (unsigned short) bid, mask, 0);
	fn.buf_ring_cq_advance(RING, br, 1);
	CHECK_EQ(fn.cq_ready(RING), 0);

	CHECK_EQ(fn.free_buf_ring(RING, br, NBUF, BGID), 0);
	close(sv[0]);
	close(sv[1]);
	note("provided-buffer ring recv (buffer ids 0 and 1, content compared)");
}

int main(void)
{
	int ret;

	load_library();

	CHECK_EQ(fn.major_version(), 2);
	CHECK(fn.minor_version() >= 0);
	CHECK(!fn.check_version(2, 0));
	CHECK(fn.check_version(fn.major_version() + 1, 0));
	printf("library version %d.%d\n", fn.major_version(), fn.minor_version());

	check_map_symbols();

	memset(mem.ring, 0, sizeof(mem.ring));
	memset(mem.guard, 0xa5, sizeof(mem.guard));
	/* Whether io_uring is there at all: the raw system call says, not the
	 * library under test (capi-tests/skips.tsv, env:uring). */
	{
		struct io_uring_params p;
		long fd;

		memset(&p, 0, sizeof(p));
		fd = syscall(__NR_io_uring_setup, 4, &p);
		if (fd < 0) {
			printf("SKIP: io_uring unavailable (%s)\n", strerror(errno));
			return 77;
		}
		close((int) fd);
	}
	ret = fn.queue_init(8, RING, 0);
	CHECK_EQ(ret, 0);
	check_guard("io_uring_queue_init");

	test_nop();
	test_file_rw();
	test_link_timeout();
	test_buf_ring_recv();
	check_guard("tests");

	fn.queue_exit(RING);
	check_guard("io_uring_queue_exit");
	dlclose(lib);
	printf("PASS\n");
	return 0;
}
