#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Do our inline helpers write exactly what upstream's write?

    python3 -m pytools.suite.sqe_compare OUR_INCLUDE_DIR UPSTREAM_INCLUDE_DIR WORK_DIR [--calls N]

Part 1, SQE writers: every `IOURINGINLINE void` helper of upstream's
liburing.h that takes a `struct io_uring_sqe *` (the prep helpers, the
io_uring_sqe_set_* setters, io_uring_initialize_sqe) is called N times with
pseudo-random arguments on a 128-byte buffer of pseudo-random bytes, and the
buffer after each call is hashed.  Part 2, ring walkers: io_uring_get_sqe,
io_uring_get_sqe128, the CQE peek/wait/seen/iterate functions, the SQ and CQ
counters, the eventfd toggle and the buffer-ring helpers run on fake rings in
pseudo-random states; the hash covers what they return and every byte of ring
memory and ring struct afterwards.  Calls into the library are answered by
stubs that record their arguments.

The same generated program is compiled against upstream's headers and against
ours, as C (-O0, -O2) and C++11/17/20 (-O0, -O2), with a fixed seed; every
hash must agree.  On a mismatch the first differing calls are printed.
"""

import os
import re
import subprocess
import sys

DEFAULT_CALLS = 100000

CONFIGS = [("c", "gnu11", "-O0"), ("c", "gnu11", "-O2")] + [
    ("c++", std, opt) for std in ("c++11", "c++17", "c++20") for opt in ("-O0", "-O2")
]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def sqe_writers(upstream_header):
    """[(name, [(type, name)])] of upstream's API helpers that take an SQE."""
    with open(upstream_header) as f:
        code = strip_comments(f.read())
    out = []
    for m in re.finditer(r"IOURINGINLINE\s+void\s+(\w+)\s*\(([^)]*)\)", code):
        name, plist = m.group(1), m.group(2)
        params = []
        for p in plist.split(","):
            p = " ".join(p.split())
            pm = re.match(r"(.*?)(\w+)$", p)
            params.append((pm.group(1).strip(), pm.group(2)))
        if any(t.replace(" ", "") == "structio_uring_sqe*" for t, _ in params):
            if name not in [n for n, _ in out]:
                out.append((name, params))
    return out


PRELUDE = r"""
#define _GNU_SOURCE
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Mostly random, often one of the values helpers treat specially. */
static uint64_t arg(uint64_t *s)
{
	uint64_t r = rnd(s);

	switch (r & 7) {
	case 0: return 0;
	case 1: return ~0ULL;			/* -1, IORING_FILE_INDEX_ALLOC */
	case 2: return (r >> 8) & 15;
	case 3: return (uint64_t) -(int64_t) ((r >> 8) & 255);
	default: return rnd(s);
	}
}

/* FNV-1a style, a word at a time (n is a multiple of 8 or small). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *) p;
	uint64_t w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

static void fill(void *p, size_t n, uint64_t *s)
{
	unsigned char *b = (unsigned char *) p;
	uint64_t w;

	for (; n >= 8; n -= 8, b += 8) {
		w = rnd(s);
		memcpy(b, &w, 8);
	}
	while (n--)
		*b++ = (unsigned char) rnd(s);
}

static void dump(const char *what, unsigned long i, const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *) p;
	size_t k;

	printf("  %s #%lu:", what, i);
	for (k = 0; k < n; k++)
		printf("%s%02x", k % 8 ? "" : " ", b[k]);
	printf("\n");
}

static int dumping;		/* name of the helper to dump, via argv */
static const char *dump_name;
"""

WRITER = r"""
static uint64_t sqe_{idx}(unsigned long n)
{{
	uint64_t s = 0x9E3779B97F4A7C15ULL ^ {idx}ULL, h = 0xcbf29ce484222325ULL;
	unsigned long i;
	static unsigned char buf[128] __attribute__((aligned(64)));

	for (i = 0; i < n; i++) {{
{decls}
		fill(buf, sizeof(buf), &s);
		{name}({args});
		h = fnv(h, buf, sizeof(buf));
		if (dumping && i < 4 && !strcmp(dump_name, "{name}"))
			dump("{name}", i, buf, 64);
	}}
	return h;
}}
"""

# Part 2: the ring walkers on fake rings.  Library calls are stubs.
WALKERS = r"""
static uint64_t stub_log;

#ifdef __cplusplus
extern "C" {
#endif
int __io_uring_get_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr,
		       unsigned submit, unsigned wait_nr, sigset_t *sigmask)
	LIBURING_NOEXCEPT
{
	stub_log = stub_log * 31 + 1000 + submit * 7 + wait_nr + (sigmask ? 5 : 0);
	*cqe_ptr = ring->cq.cqes;
	return -62;
}

int __io_uring_sqring_wait(struct io_uring *ring) LIBURING_NOEXCEPT
{
	stub_log = stub_log * 31 + 2000 + (unsigned) ring->ring_fd;
	return -11;
}

int io_uring_buf_ring_head(struct io_uring *ring, int buf_group, uint16_t *head)
	LIBURING_NOEXCEPT
{
	stub_log = stub_log * 31 + 3000 + (unsigned) buf_group + (unsigned) ring->ring_fd;
	*head = (uint16_t) (buf_group * 3);
	return (buf_group & 3) == 3 ? -22 : 0;
}
#ifdef __cplusplus
}
#endif

struct fake {
	struct io_uring ring;
	unsigned sq_head, sq_tail, sq_flags, sq_mask, sq_entries, sq_dropped;
	unsigned cq_head, cq_tail, cq_flags, cq_mask, cq_entries, cq_overflow;
	unsigned char sqes[16 * 128];
	unsigned char cqes[16 * 32];
	unsigned char bufring[16 * 16];
};

static struct fake F;

/* A ring of 1..16 entries in a random state, with random flags. */
static void fake_ring(uint64_t *s)
{
	static const unsigned setup_bits[] = {
		IORING_SETUP_SQPOLL, IORING_SETUP_IOPOLL, IORING_SETUP_SQE128,
		IORING_SETUP_CQE32, IORING_SETUP_SQE_MIXED, IORING_SETUP_CQE_MIXED,
	};
	unsigned k, sq_n = 1U << (rnd(s) % 5), cq_n = 1U << (rnd(s) % 5);
	uint64_t r = rnd(s);

	fill(&F, sizeof(F), s);
	memset(&F.ring, 0, sizeof(F.ring));
	F.ring.flags = 0;
	for (k = 0; k < sizeof(setup_bits) / sizeof(setup_bits[0]); k++)
		if ((r >> k) & 1)
			F.ring.flags |= setup_bits[k];
	F.ring.features = (r >> 8) & 1 ? IORING_FEAT_EXT_ARG : 0;
	F.ring.ring_fd = (int) (r >> 9) & 7;
	F.sq_mask = sq_n - 1;
	F.sq_entries = sq_n;
	F.sq_head = (unsigned) rnd(s);
	F.sq_tail = F.sq_head + (unsigned) (rnd(s) % (sq_n + 1));
	F.sq_flags = (unsigned) rnd(s) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN |
					  IORING_SQ_NEED_WAKEUP);
	F.cq_mask = cq_n - 1;
	F.cq_entries = cq_n;
	F.cq_head = (unsigned) rnd(s);
	F.cq_tail = F.cq_head + (unsigned) (rnd(s) % (cq_n + 1));
	F.cq_flags = (unsigned) rnd(s) & IORING_CQ_EVENTFD_DISABLED;
	F.ring.sq.khead = &F.sq_head;
	F.ring.sq.ktail = &F.sq_tail;
	F.ring.sq.kring_mask = &F.sq_mask;
	F.ring.sq.kring_entries = &F.sq_entries;
	F.ring.sq.kflags = &F.sq_flags;
	F.ring.sq.kdropped = &F.sq_dropped;
	F.ring.sq.sqes = (struct io_uring_sqe *) F.sqes;
	F.ring.sq.sqe_head = F.sq_tail;
	F.ring.sq.sqe_tail = F.sq_tail;
	F.ring.sq.ring_mask = F.sq_mask;
	F.ring.sq.ring_entries = F.sq_entries;
	F.ring.cq.khead = &F.cq_head;
	F.ring.cq.ktail = &F.cq_tail;
	F.ring.cq.kring_mask = &F.cq_mask;
	F.ring.cq.kring_entries = &F.cq_entries;
	F.ring.cq.kflags = (r >> 12) & 1 ? NULL : &F.cq_flags;
	F.ring.cq.koverflow = &F.cq_overflow;
	F.ring.cq.cqes = (struct io_uring_cqe *) F.cqes;
	F.ring.cq.ring_mask = F.cq_mask;
	F.ring.cq.ring_entries = F.cq_entries;
	/* CQEs: flags from the interesting set, some internal timeouts */
	for (k = 0; k < 32; k++) {
		struct io_uring_cqe *c = (struct io_uring_cqe *) (F.cqes + 16 * k);
		uint64_t x = rnd(s);

		c->flags = (unsigned) x & (IORING_CQE_F_32 | IORING_CQE_F_SKIP |
					   IORING_CQE_F_MORE);
		if ((x >> 8) % 4 == 0)
			c->user_data = LIBURING_UDATA_TIMEOUT;
		c->res = (x >> 16) % 3 == 0 ? -(int) ((x >> 20) % 100) : (int) ((x >> 20) % 100);
	}
	/* as a kernel would: no 32-byte CQE sticks out past the tail */
	for (k = F.cq_head; k != F.cq_tail; ) {
		unsigned shift = F.ring.flags & IORING_SETUP_CQE32 ? 1 : 0;
		struct io_uring_cqe *c = (struct io_uring_cqe *)
			(F.cqes + 16 * ((k & F.cq_mask) << shift));

		if ((c->flags & IORING_CQE_F_32) && k + 1 == F.cq_tail)
			c->flags &= ~IORING_CQE_F_32;
		k += c->flags & IORING_CQE_F_32 ? 2 : 1;
	}
}

/* Offset of a pointer into F (-1 for NULL): the same in every build. */
static long rel(const void *p)
{
	return p ? (long) ((const char *) p - (const char *) &F) : -1;
}

/* Pointers hashed as offsets into F, so both builds agree. */
static uint64_t where(uint64_t h, const void *p)
{
	long off = rel(p);

	return fnv(h, &off, sizeof(off));
}

static uint64_t state(uint64_t h)
{
	struct io_uring copy = F.ring;

	/* pointers into F, as offsets */
	h = where(h, copy.sq.khead);
	h = where(h, copy.cq.kflags);
	copy.sq.khead = copy.sq.ktail = copy.sq.kring_mask = NULL;
	copy.sq.kring_entries = copy.sq.kflags = copy.sq.kdropped = NULL;
	copy.sq.array = NULL;
	copy.sq.sqes = NULL;
	copy.cq.khead = copy.cq.ktail = copy.cq.kring_mask = NULL;
	copy.cq.kring_entries = copy.cq.kflags = copy.cq.koverflow = NULL;
	copy.cq.cqes = NULL;
	h = fnv(h, &copy, sizeof(copy));
	return fnv(h, (const char *) &F + sizeof(F.ring), sizeof(F) - sizeof(F.ring));
}

static uint64_t walk(int which, unsigned long n)
{
	uint64_t s = 0xD1B54A32D192ED03ULL ^ (uint64_t) which, h = 0xcbf29ce484222325ULL;
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct io_uring_cqe *cqe = NULL;
		unsigned avail = 12345;
		long ret = 0;

		fake_ring(&s);
		stub_log = 0;
		switch (which) {
		case 0: ret = rel(io_uring_get_sqe(&F.ring)); break;
		case 1: ret = rel(io_uring_get_sqe128(&F.ring)); break;
		case 2: ret = io_uring_peek_cqe(&F.ring, &cqe); break;
		case 3: ret = io_uring_wait_cqe(&F.ring, &cqe); break;
		case 4: ret = __io_uring_peek_cqe(&F.ring, &cqe, (rnd(&s) & 1) ? &avail : NULL); break;
		case 5: ret = io_uring_wait_cqe_nr(&F.ring, &cqe, (unsigned) rnd(&s) % 4); break;
		case 6: {
			struct io_uring_cqe *c = (rnd(&s) & 3) ?
				(struct io_uring_cqe *) (F.cqes + 16 * (rnd(&s) % 16)) : NULL;
			io_uring_cqe_seen(&F.ring, c);
			break;
		}
		case 7: io_uring_cq_advance(&F.ring, (unsigned) rnd(&s) % 5); break;
		case 8: {
			unsigned head = 0, count = 0;

			io_uring_for_each_cqe(&F.ring, head, cqe) {
				ret = ret * 131 + rel(cqe) + head;
				count++;
			}
			ret += count;
			break;
		}
		case 9: {
			struct io_uring_cqe_iter it = io_uring_cqe_iter_init(&F.ring);

			while (io_uring_cqe_iter_next(&it, &cqe))
				ret = ret * 131 + rel(cqe);
			ret = ret * 7 + it.head;
			cqe = NULL;
			break;
		}
		case 10: ret = io_uring_cq_ready(&F.ring); break;
		case 11: ret = io_uring_sq_ready(&F.ring); break;
		case 12: ret = io_uring_sq_space_left(&F.ring); break;
		case 13: ret = io_uring_sqring_wait(&F.ring); break;
		case 14: ret = io_uring_cq_has_overflow(&F.ring); break;
		case 15: ret = io_uring_cq_eventfd_enabled(&F.ring); break;
		case 16: ret = io_uring_cq_eventfd_toggle(&F.ring, rnd(&s) & 1); break;
		case 17: ret = io_uring_load_sq_head(&F.ring); break;
		case 18: ret = (long) io_uring_cqe_shift(&F.ring) * 10 + io_uring_sqe_shift(&F.ring); break;
		case 19: {
			struct io_uring_buf_ring *br = (struct io_uring_buf_ring *) F.bufring;
			uint64_t a = rnd(&s);

			io_uring_buf_ring_add(br, (void *) (uintptr_t) rnd(&s), (unsigned) a,
					      (unsigned short) (a >> 32),
					      io_uring_buf_ring_mask(1U << (a >> 48) % 5),
					      (int) ((a >> 52) % 40) - 20);
			break;
		}
		case 20: io_uring_buf_ring_advance((struct io_uring_buf_ring *) F.bufring,
						   (int) (rnd(&s) % 70000) - 35000); break;
		case 21: io_uring_buf_ring_cq_advance(&F.ring, (struct io_uring_buf_ring *) F.bufring,
						      (int) (rnd(&s) % 5)); break;
		case 22: __io_uring_buf_ring_cq_advance(&F.ring, (struct io_uring_buf_ring *) F.bufring,
							(int) (rnd(&s) % 5), (int) (rnd(&s) % 9)); break;
		case 23: ret = io_uring_buf_ring_available(&F.ring, (struct io_uring_buf_ring *) F.bufring,
							   (unsigned short) rnd(&s)); break;
		case 24: io_uring_buf_ring_init((struct io_uring_buf_ring *) F.bufring); break;
		case 25: {
			struct io_uring_probe *p = (struct io_uring_probe *) F.sqes;
			int op = (int) (rnd(&s) % 80) - 5;

			p->last_op = (__u8) (rnd(&s) % 70);
			ret = io_uring_opcode_supported(p, op);
			break;
		}
		case 26: {
			struct msghdr m;
			int len = (int) (rnd(&s) % 300) - 20;
			struct io_uring_recvmsg_out *o;
			struct cmsghdr *c;
			int k;

			/* a control area of plausible headers: small lengths */
			for (k = 0; k < (int) (sizeof(F.cqes) / sizeof(size_t)); k++)
				((size_t *) F.cqes)[k] = (size_t) (rnd(&s) % 80);
			memset(&m, 0, sizeof(m));
			m.msg_namelen = (socklen_t) (rnd(&s) % 8 * 8);
			m.msg_controllen = (size_t) (rnd(&s) % 128);
			o = io_uring_recvmsg_validate(F.cqes, len, &m);
			ret = o ? 1 : 0;
			o = (struct io_uring_recvmsg_out *) F.cqes;
			o->controllen = (unsigned) (rnd(&s) % 128);
			ret = ret * 1000 + rel(io_uring_recvmsg_name(o));
			ret = ret * 1000 + rel(io_uring_recvmsg_payload(o, &m));
			ret = ret * 1000 + io_uring_recvmsg_payload_length(o, len, &m);
			for (c = io_uring_recvmsg_cmsg_firsthdr(o, &m); c;
			     c = io_uring_recvmsg_cmsg_nexthdr(o, &m, c))
				ret = ret * 13 + rel(c);
			break;
		}
		default: return 0;
		}
		h = fnv(h, &ret, sizeof(ret));
		h = fnv(h, &avail, sizeof(avail));
		h = fnv(h, &stub_log, sizeof(stub_log));
		h = where(h, cqe);
		h = state(h);
	}
	return h;
}
#define WALKERS 27
static const char *walker_names[WALKERS] = {
	"io_uring_get_sqe", "io_uring_get_sqe128", "io_uring_peek_cqe", "io_uring_wait_cqe",
	"__io_uring_peek_cqe", "io_uring_wait_cqe_nr", "io_uring_cqe_seen", "io_uring_cq_advance",
	"io_uring_for_each_cqe", "io_uring_cqe_iter_*", "io_uring_cq_ready", "io_uring_sq_ready",
	"io_uring_sq_space_left", "io_uring_sqring_wait", "io_uring_cq_has_overflow",
	"io_uring_cq_eventfd_enabled", "io_uring_cq_eventfd_toggle", "io_uring_load_sq_head",
	"io_uring_*_shift", "io_uring_buf_ring_add", "io_uring_buf_ring_advance",
	"io_uring_buf_ring_cq_advance", "__io_uring_buf_ring_cq_advance",
	"io_uring_buf_ring_available", "io_uring_buf_ring_init", "io_uring_opcode_supported",
	"io_uring_recvmsg_*",
};
"""

MAIN = r"""
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[1], NULL, 10);
	int k;

	if (argc > 2) {
		dumping = 1;
		dump_name = argv[2];
	}
{calls}
	for (k = 0; k < WALKERS; k++)
		printf("%s %016llx\n", walker_names[k], (unsigned long long) walk(k, n / 10));
	return 0;
}
"""


def c_value(ty, var):
    if "*" in ty:
        return "\t\t%s %s = (%s) (uintptr_t) arg(&s);" % (ty, var, ty)
    return "\t\t%s %s = (%s) arg(&s);" % (ty, var, ty)


def program(writers):
    parts = [PRELUDE]
    calls = []
    for idx, (name, params) in enumerate(writers):
        decls, args = [], []
        for i, (ty, _pname) in enumerate(params):
            if ty.replace(" ", "") == "structio_uring_sqe*":
                args.append("(struct io_uring_sqe *) buf")
                continue
            var = "a%d" % i
            decls.append(c_value(ty, var))
            args.append(var)
        parts.append(
            WRITER.format(idx=idx, name=name, decls="\n".join(decls), args=", ".join(args))
        )
        calls.append('\tprintf("%s %%016llx\\n", (unsigned long long) sqe_%d(n));' % (name, idx))
    parts.append(WALKERS)
    parts.append(MAIN.replace("{calls}", "\n".join(calls)))
    return "".join(parts)


def build(src, include, lang, std, opt, out):
    ext_src = src if lang == "c" else src[:-2] + ".cpp"
    cc = os.environ.get("CC", "cc") if lang == "c" else os.environ.get("CXX", "c++")
    cmd = [cc, "-std=" + std, opt, "-w", "-I" + include, "-o", out, ext_src]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.stdout.write("sqe-compare: build failed: %s\n%s" % (" ".join(cmd), r.stderr[-3000:]))
        return False
    return True


def run(binary, calls, name=None):
    r = subprocess.run(
        [binary, str(calls)] + ([name] if name else []), capture_output=True, text=True
    )
    if r.returncode:
        raise RuntimeError("%s exited with %d" % (binary, r.returncode))
    return r.stdout


def parse(out):
    res = {}
    for line in out.splitlines():
        if line and not line.startswith(" "):
            k, v = line.rsplit(" ", 1)
            res[k] = v
    return res


def main(argv):
    calls = DEFAULT_CALLS
    if "--calls" in argv:
        i = argv.index("--calls")
        calls = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    if len(argv) != 3:
        print(__doc__)
        return 2
    ours, theirs, work = (os.path.abspath(a) for a in argv)
    os.makedirs(work, exist_ok=True)
    writers = sqe_writers(os.path.join(theirs, "liburing.h"))
    src = os.path.join(work, "sqe_compare.c")
    for path in (src, src[:-2] + ".cpp"):
        with open(path, "w") as f:
            f.write(program(writers))
    failures, compared, reference = 0, 0, None
    for lang, std, opt in CONFIGS:
        tag = "%s%s" % (std, opt)
        bins = {}
        for side, inc in (("upstream", theirs), ("ours", ours)):
            b = os.path.join(work, "sqe-%s-%s" % (side, tag))
            if not build(src, inc, lang, std, opt, b):
                return 1
            bins[side] = b
        outs = {side: parse(run(b, calls)) for side, b in bins.items()}
        diff = [k for k in outs["upstream"] if outs["ours"].get(k) != outs["upstream"][k]]
        missing = [k for k in outs["upstream"] if k not in outs["ours"]]
        compared += len(outs["upstream"])
        if reference is None:
            reference = outs["upstream"]
        drift = [k for k in reference if outs["upstream"].get(k) != reference[k]]
        print(
            "sqe-compare %-11s %d SQE writers x %d calls, %d ring walkers x %d states: "
            "%d differ%s"
            % (
                tag,
                len(writers),
                calls,
                len(outs["upstream"]) - len(writers),
                calls // 10,
                len(diff) + len(missing),
                ""
                if not drift
                else " (upstream itself differs from -O0 C in "
                "%d: %s)" % (len(drift), ", ".join(drift)),
            )
        )
        for k in diff[:10]:
            failures += 1
            print("  DIFFERS: %s" % k)
            if k not in [n for n, _ in writers]:
                continue
            for side, b in bins.items():
                print("  %s:" % side)
                sys.stdout.write(
                    "\n".join(
                        l for l in run(b, min(calls, 4), k).splitlines() if l.startswith("  ")
                    )
                    + "\n"
                )
        failures += len(diff[10:]) + len(missing)
    print(
        "sqe-compare: %d comparisons in %d builds, %d differences"
        % (compared, len(CONFIGS), failures)
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
