/* SPDX-License-Identifier: MIT */
/*
 * Opcode probes: io_uring_get_probe(), io_uring_get_probe_ring(),
 * io_uring_opcode_supported(), io_uring_register_probe(); the result agrees
 * with the raw IORING_REGISTER_PROBE; probes are released with
 * io_uring_free_probe() and also with plain free().
 *
 * Plain free() is only meaningful when the library allocates with the C
 * library's malloc.  Upstream's default x86-64 build is "nolibc" (its own
 * mmap-based allocator, no libc imports); such a library is exempt.  A
 * library that imports malloc/calloc must hand out probes that came from
 * them: this test interposes the allocator to see that.
 */
#include "check.h"

#include <dlfcn.h>
#include <elf.h>
#include <malloc.h>

/* ---- allocator interposition: remember recently returned blocks ---- */
#ifdef __GLIBC__
/* glibc exports its allocator under second names to forward to; musl
 * does not, so there the probes' origin is not checked. */
#define CAN_TRACK_ALLOCATOR 1
#define raw_malloc __libc_malloc
#define raw_free __libc_free
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

#define TRACK 64
static void *recent[TRACK];
static unsigned nrecent;

static void *track(void *p)
{
	if (p)
		recent[nrecent++ % TRACK] = p;
	return p;
}

void *malloc(size_t n) { return track(__libc_malloc(n)); }
void *calloc(size_t a, size_t b) { return track(__libc_calloc(a, b)); }
void *realloc(void *p, size_t n) { return track(__libc_realloc(p, n)); }
void free(void *p) { __libc_free(p); }
#else
#define CAN_TRACK_ALLOCATOR 0
#define raw_malloc malloc
#define raw_free free
static void *recent[1];
static unsigned nrecent;
#define TRACK 1
#endif

static int allocated_since(unsigned mark, const void *p)
{
	unsigned i;

	for (i = mark; i != nrecent && i - mark < TRACK; i++)
		if (recent[i % TRACK] == p)
			return 1;
	return 0;
}

/* ---- does the loaded liburing import malloc or calloc? ---- */
static int lib_imports_allocator(void)
{
	Dl_info info;
	void *sym = dlsym(RTLD_DEFAULT, "io_uring_get_probe_ring");
	FILE *f;
	long size;
	unsigned char *img;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	int i, found = 0;

	CHECK(sym && dladdr(sym, &info) && info.dli_fname);
	f = fopen(info.dli_fname, "rb");
	if (!f) {
		/* Statically linked into the executable: look at ourselves. */
		f = fopen("/proc/self/exe", "rb");
	}
	CHECK(f != NULL);
	CHECK_EQ(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	CHECK(size > (long) sizeof(Elf64_Ehdr));
	rewind(f);
	img = raw_malloc((size_t) size);
	CHECK(img != NULL);
	CHECK_EQ(fread(img, 1, (size_t) size, f), (size_t) size);
	fclose(f);
	eh = (Elf64_Ehdr *) img;
	CHECK(memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0);
	sh = (Elf64_Shdr *) (img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *syms;
		const char *strs;
		size_t n, k;

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		syms = (Elf64_Sym *) (img + sh[i].sh_offset);
		strs = (const char *) (img + sh[sh[i].sh_link].sh_offset);
		n = sh[i].sh_size / sizeof(Elf64_Sym);
		for (k = 0; k < n; k++) {
			const char *name = strs + syms[k].st_name;

			if (syms[k].st_shndx == SHN_UNDEF &&
			    (!strcmp(name, "malloc") || !strcmp(name, "calloc")))
				found = 1;
		}
	}
	raw_free(img);
	check_note("%s %s the C allocator", info.dli_fname, found ? "imports" : "does not import");
	return found;
}

#define NR_OPS 256

static void check_probe(const struct io_uring_probe *p, const struct io_uring_probe *ref)
{
	int op;

	CHECK(p != NULL);
	CHECK_EQ(p->last_op, ref->last_op);
	CHECK_EQ(p->ops_len, ref->ops_len);
	CHECK(p->last_op >= IORING_OP_READ);
	CHECK(p->ops_len >= (unsigned) p->last_op + 1);
	for (op = 0; op <= p->last_op; op++) {
		CHECK_EQ(p->ops[op].op, op);
		CHECK_EQ(p->ops[op].flags, ref->ops[op].flags);
		CHECK_EQ(io_uring_opcode_supported(p, op),
			 (ref->ops[op].flags & IO_URING_OP_SUPPORTED) != 0);
	}
	CHECK(io_uring_opcode_supported(p, IORING_OP_NOP));
	CHECK(io_uring_opcode_supported(p, IORING_OP_READV));
	CHECK(io_uring_opcode_supported(p, IORING_OP_WRITE));
	CHECK(!io_uring_opcode_supported(p, -1));
	CHECK(!io_uring_opcode_supported(p, p->last_op + 1));
	CHECK(!io_uring_opcode_supported(p, 255));
	CHECK(!io_uring_opcode_supported(p, 100000));
}

int main(void)
{
	struct io_uring ring;
	struct io_uring_probe *ref, *p, *mine;
	size_t len = sizeof(struct io_uring_probe) + NR_OPS * sizeof(struct io_uring_probe_op);
	int ret;

	check_ring_init(&ring, 4, 0);

	/* Reference: the kernel's answer through the raw syscall wrapper. */
	ref = calloc(1, len);
	CHECK(ref != NULL);
	REQUIRE_KERNEL(IORING_REGISTER_PROBE);
	ret = io_uring_register(ring.ring_fd, IORING_REGISTER_PROBE, ref, NR_OPS);
	CHECK_EQ(ret, 0);

	/* io_uring_register_probe on a caller buffer. */
	mine = calloc(1, len);
	CHECK(mine != NULL);
	CHECK_EQ(io_uring_register_probe(&ring, mine, NR_OPS), 0);
	check_probe(mine, ref);
	free(mine);

	/* Probe of an existing ring, released with io_uring_free_probe. */
	p = io_uring_get_probe_ring(&ring);
	check_probe(p, ref);
	io_uring_free_probe(p);
	p = io_uring_get_probe();
	check_probe(p, ref);
	io_uring_free_probe(p);
	io_uring_free_probe(NULL);

	if (!CAN_TRACK_ALLOCATOR) {
		check_note("note: no way to interpose this C library's allocator; probe origin not checked");
	} else if (lib_imports_allocator()) {
		unsigned mark = nrecent;

		/* The probe must be a block from malloc/calloc, big enough. */
		p = io_uring_get_probe_ring(&ring);
		check_probe(p, ref);
		CHECKM(allocated_since(mark, p), "probe %p did not come from malloc/calloc", (void *) p);
		CHECK(malloc_usable_size(p) >=
		      sizeof(*p) + (size_t) (p->last_op + 1) * sizeof(p->ops[0]));
		free(p);

		mark = nrecent;
		p = io_uring_get_probe();
		check_probe(p, ref);
		CHECKM(allocated_since(mark, p), "probe %p did not come from malloc/calloc", (void *) p);
		free(p);
	} else {
		check_note("note: library does not use the C allocator; plain free() not applicable");
	}

	/* Many get/free cycles (a leak or a double free would show under ASan/valgrind). */
	for (ret = 0; ret < 200; ret++) {
		p = io_uring_get_probe_ring(&ring);
		CHECK(p != NULL);
		io_uring_free_probe(p);
	}

	/* A probe of a closed ring fails cleanly with NULL. */
	io_uring_queue_exit(&ring);
	{
		struct io_uring dead;

		memset(&dead, 0, sizeof(dead));
		dead.ring_fd = -1;
		dead.enter_ring_fd = -1;
		CHECK(io_uring_get_probe_ring(&dead) == NULL);
	}

	free(ref);
	return 0;
}
