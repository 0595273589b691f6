/* SPDX-License-Identifier: MIT */
/*
 * LIBURING_TRACE in Chrome trace-event JSON (a file name ending in .json,
 * or LIBURING_TRACE_FORMAT=json): the file is one valid JSON array that
 * names a track per ring, holds one complete event ("X") per request with
 * its opcode, fd, length, result and flags, and every request exactly once,
 * and draws every call that entered the kernel as a slice ("X" of category
 * "enter": from its first enter to the end of the call), not an instant:
 * the waits with a timeout too, where the kernel takes the timeout in the
 * enter argument (IORING_FEAT_EXT_ARG; without it the wait submits a
 * timeout request, which the workload leaves out).
 *
 * This program re-executes itself as the workload (two rings: NOPs and
 * reads of /dev/zero in batches on one, NOPs on the other) under the trace,
 * then python3 (probed first: the test skips without it) checks the file.
 */
#include "check.h"

static int workload(void)
{
	static char buf[4][512];
	struct io_uring a, b;
	struct io_uring_cqe *cqe;
	int fd = open("/dev/zero", O_RDONLY), batch, i;
	unsigned ud = 1;

	CHECK(fd >= 0);
	check_ring_init(&a, 32, 0);
	check_ring_init(&b, 8, 0);
	for (batch = 0; batch < 5; batch++) {
		for (i = 0; i < 5; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&a);

			if (i < 4 && batch % 2)
				io_uring_prep_read(sqe, fd, buf[i], sizeof(buf[i]), 0);
			else
				io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, ud++);
		}
		CHECK_EQ(io_uring_submit_and_wait(&a, 5), 5);
		for (i = 0; i < 5; i++) {
			CHECK_EQ(io_uring_wait_cqe(&a, &cqe), 0);
			CHECK(cqe->res >= 0);
			io_uring_cqe_seen(&a, cqe);
		}
	}
	for (i = 0; i < 5; i++) {
		io_uring_prep_nop(io_uring_get_sqe(&b));
		io_uring_sqe_set_data64(b.sq.sqes + ((b.sq.sqe_tail - 1) & b.sq.ring_mask), 0x101 + i);
		CHECK_EQ(io_uring_submit_and_wait(&b, 1), 1);
		CHECK_EQ(io_uring_wait_cqe(&b, &cqe), 0);
		io_uring_cqe_seen(&b, cqe);
	}
	if (b.features & IORING_FEAT_EXT_ARG) {
		/* Nothing in flight: the wait sleeps in the kernel until the
		 * timeout. */
		struct __kernel_timespec ts = check_kts_ms(1);

		CHECK_EQ(io_uring_wait_cqe_timeout(&b, &cqe, &ts), -ETIME);
	}
	io_uring_queue_exit(&a);
	io_uring_queue_exit(&b);
	close(fd);
	return 0;
}

static const char *checker =
	"import json, sys\n"
	/* The array is left open (the format allows it): close it. */
	"t = open(sys.argv[1]).read().rstrip()\n"
	"if not t.endswith(']'):\n"
	"    t = t.rstrip(',') + ']'\n"
	"d = json.loads(t)\n"
	"assert isinstance(d, list) and d, 'not a JSON array of events'\n"
	"names = {}\n"
	"seen = {}\n"
	"enters = 0\n"
	"timed_waits = 0\n"
	"for e in d:\n"
	"    assert isinstance(e, dict) and e['ph'] in 'MXiC', e\n"
	"    assert isinstance(e['pid'], int) and isinstance(e['tid'], int), e\n"
	"    if e['ph'] == 'M':\n"
	"        if e['name'] == 'process_name':\n"
	"            names[e['pid']] = e['args']['name']\n"
	"        continue\n"
	"    assert isinstance(e['ts'], (int, float)) and e['ts'] >= 0, e\n"
	"    assert 'entered the kernel' not in e['name'] or e['ph'] == 'X', ('an enter as an instant', e)\n"
	"    if e['ph'] == 'X' and e.get('cat') == 'enter':\n"
	"        assert e['dur'] >= 0 and e['args']['enters'] >= 1, e\n"
	"        enters += 1\n"
	"        timed_waits += e['name'].startswith('wait') and e['args']['result'] == -int(sys.argv[3])\n"
	"    elif e['ph'] == 'X':\n"
	"        assert e['dur'] >= 0, e\n"
	"        a = e['args']\n"
	"        for k in ('opcode', 'user_data', 'fd', 'len', 'res', 'cqe_flags', 'sqe_flags'):\n"
	"            assert k in a, (k, e)\n"
	"        assert e['name'] in ('NOP', 'READ'), e\n"
	"        assert e['name'] != 'READ' or (a['fd'] >= 0 and a['len'] == 512 and a['res'] == 512), e\n"
	"        key = (e['pid'], int(a['user_data'], 16))\n"
	"        seen[key] = seen.get(key, 0) + 1\n"
	"    if e['ph'] == 'C':\n"
	"        assert isinstance(e['args']['entries'], int), e\n"
	"assert len(names) == 2 and all(n.startswith('ring ') for n in names.values()), names\n"
	"pa, pb = sorted(names)\n"
	"want = {(pa, u): 1 for u in range(1, 26)}\n"
	"want.update({(pb, u): 1 for u in range(0x101, 0x106)})\n"
	"assert seen == want, ('requests not each exactly once', sorted(set(seen.items()) ^ set(want.items())))\n"
	"assert enters >= 10, ('submit-and-wait calls without an enter slice', enters)\n"
	"assert timed_waits == int(sys.argv[2]), ('timed waits drawn as slices', timed_waits)\n"
	"print('ok: %d events, %d requests on %d rings, %d enter slices' % (len(d), len(seen), len(names), enters))\n";

int main(int argc, char *argv[])
{
	char path[4096], script[4096], self[4096];
	const char *out;
	FILE *f;
	int k;

	if (argc == 2 && !strcmp(argv[1], "workload"))
		return workload();
	if (check_setup_flags_supported(4, 0) < 0)
		SKIP("io_uring is not available here");
	if (system("command -v python3 >/dev/null 2>&1") != 0)
		SKIP("python3 not found (it checks the JSON)");
	out = check_env_or_skip("CAPI_OUT");
	CHECK(realpath(argv[0], self));
	snprintf(script, sizeof(script), "%s/diag-json.py", out);
	f = fopen(script, "w");
	CHECK(f && fputs(checker, f) >= 0 && fclose(f) == 0);

	for (k = 0; k < 2; k++) {
		/* A .json name, then LIBURING_TRACE_FORMAT=json with another name. */
		snprintf(path, sizeof(path), "%s/diag-json.%s", out, k ? "trace" : "json");
		unlink(path);
		CHECK(check_system("env -u LIBURING_CHECK -u LIBURING_DEBUG %s LIBURING_TRACE=%s %s workload",
				   k ? "LIBURING_TRACE_FORMAT=json" : "-u LIBURING_TRACE_FORMAT",
				   path, self) == 0);
		/* The timed waits the workload makes: one where the kernel
		 * takes a timeout in the enter argument (raw probe). */
		CHECK(check_system("python3 %s %s %d %d", script, path,
				   !!(check_kernel_features() & IORING_FEAT_EXT_ARG), ETIME) == 0);
	}
	return 0;
}
