/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "common.h"

#include <dlfcn.h>
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *arg_str(int argc, char **argv, const char *key, const char *dflt)
{
	size_t klen = strlen(key);
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], key, klen) && argv[i][klen] == '=')
			return argv[i] + klen + 1;
	return dflt;
}

long long arg_int(int argc, char **argv, const char *key, long long dflt)
{
	const char *v = arg_str(argc, argv, key, NULL);
	char *end;
	long long n;

	if (!v)
		return dflt;
	n = strtoll(v, &end, 0);
	if (*end || end == v) {
		fprintf(stderr, "bad number for %s: %s\n", key, v);
		exit(2);
	}
	return n;
}

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void lat_init(struct lat_samples *s, size_t cap)
{
	s->len = 0;
	s->cap = cap;
	s->ns = calloc(cap ? cap : 1, sizeof(*s->ns));
	if (!s->ns)
		die("calloc", -ENOMEM);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

int64_t lat_percentile(struct lat_samples *s, double p)
{
	size_t idx;

	if (!s->len)
		return 0;
	qsort(s->ns, s->len, sizeof(*s->ns), cmp_i64);
	/* nearest rank */
	idx = (size_t) (p / 100.0 * (double) s->len);
	if (idx >= s->len)
		idx = s->len - 1;
	return s->ns[idx];
}

void lat_dump(const struct lat_samples *s)
{
	const char *path = getenv("BENCH_LAT_FILE");
	FILE *f;
	size_t i;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		die(path, -1);
	for (i = 0; i < s->len; i++)
		fprintf(f, "%lld\n", (long long) s->ns[i]);
	fclose(f);
}

void bench_phase_mark(void)
{
	syscall(SYS_getppid);
}

void die(const char *what, int ret)
{
	int err = ret == -1 ? errno : -ret;

	fprintf(stderr, "%s: %s\n", what, strerror(err));
	exit(1);
}

void report(long long ops, int64_t wall_ns, struct lat_samples *lat, const char *extra)
{
	Dl_info info;

	if (!dladdr((void *) io_uring_queue_init, &info) || !info.dli_fname)
		info.dli_fname = "?";
	printf("lib=%s ops=%lld wall_ns=%lld ns_per_op=%.2f ops_per_s=%.0f", info.dli_fname, ops,
	       (long long) wall_ns, (double) wall_ns / (double) ops,
	       (double) ops * 1e9 / (double) wall_ns);
	if (lat) {
		long long p50 = lat_percentile(lat, 50), p99 = lat_percentile(lat, 99),
			  p999 = lat_percentile(lat, 99.9);

		printf(" p50_ns=%lld p99_ns=%lld p999_ns=%lld", p50, p99, p999);
		lat_dump(lat);
	}
	if (extra && *extra)
		printf(" %s", extra);
	printf("\n");
	fflush(stdout);
}

void skip(const char *reason)
{
	printf("skip=%s\n", reason);
	exit(0);
}
