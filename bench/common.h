/* SPDX-License-Identifier: MIT */
/*
 * What every benchmark program shares: arguments given as key=value words,
 * a monotonic clock, latency samples with percentiles, and the one result
 * line pytools/bench/run.py parses.
 *
 * Every program does its measured work inside a function named bench_run()
 * (never inlined), so callgrind can count exactly that part (dumping its
 * counters on entry and on return of bench_run), and calls
 * bench_phase_mark() right before and right after it, so an strace pass can
 * count the io_uring_enter calls made in between.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_NOINLINE __attribute__((noinline))

/* Value of argument "key=..." as an integer, or dflt when absent. */
long long arg_int(int argc, char **argv, const char *key, long long dflt);
/* Value of argument "key=..." as a string, or dflt when absent. */
const char *arg_str(int argc, char **argv, const char *key, const char *dflt);

/* Nanoseconds of CLOCK_MONOTONIC. */
int64_t now_ns(void);

/* Latency samples in nanoseconds, kept in one preallocated array. */
struct lat_samples {
	int64_t *ns;
	size_t len, cap;
};
void lat_init(struct lat_samples *s, size_t cap);
static inline void lat_add(struct lat_samples *s, int64_t ns)
{
	if (s->len < s->cap)
		s->ns[s->len++] = ns;
}
/* Sorts the samples; p in [0, 100]. */
int64_t lat_percentile(struct lat_samples *s, double p);
/* Writes the samples, one per line, to $BENCH_LAT_FILE when it is set. */
void lat_dump(const struct lat_samples *s);

/* A marker syscall (getppid) the strace pass looks for around bench_run(). */
void bench_phase_mark(void);

/* Dies with a message naming what failed; ret is a -errno or -1 for errno. */
void die(const char *what, int ret);

/*
 * Prints the result line: "lib=<liburing in use> ops=<n> wall_ns=<t>
 * ns_per_op=<x> ops_per_s=<y>" then p50_ns/p99_ns/p999_ns when lat is not
 * NULL, then extra (already formatted "key=value ..." words, may be NULL).
 */
void report(long long ops, int64_t wall_ns, struct lat_samples *lat, const char *extra);
/* Prints "skip=<reason>" and exits 0: the machine cannot run this case. */
void skip(const char *reason);

/* xorshift64*: the same pseudo-random offsets for both libraries. */
static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
