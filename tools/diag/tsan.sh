#!/bin/sh
# SPDX-License-Identifier: MIT
# ThreadSanitizer over the library with tracing on (make check-tsan):
#
#   sh tools/diag/tsan.sh OUT_DIR
#
# Builds the library with nightly rustc's -Zsanitizer=thread (core itself
# stays uninstrumented: no rust-src here, hence the ABI-mismatch allowance;
# the library's own atomics and accesses are instrumented), links the
# submitter/reaper C tests with -fsanitize=thread against it, and runs them
# with LIBURING_TRACE set to a file, LIBURING_DEBUG=1 and LIBURING_CHECK=1
# (the checker reads the rings from both threads too). Passes when the
# tests pass, ThreadSanitizer reports nothing and the checker finds nothing.
# Skips (exit 0, with a note) without a nightly toolchain.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
CC=${CC:-cc}
if ! cargo +nightly --version >/dev/null 2>&1; then
	echo "check-tsan: no nightly toolchain (rustup toolchain install nightly): skipped"
	exit 0
fi
mkdir -p "$out"
target=$(rustc -vV | sed -n 's/^host: //p')
t0=$(date +%s)
# --target keeps build scripts and proc macros (host code) uninstrumented.
# The library and the diagnostics archive, instrumented, relinked by the
# Makefile's own rules into a build directory of their own (a static program
# gets the trace by linking liburing-diag.a, as the README says).
RUSTFLAGS="-Zsanitizer=thread -Cunsafe-allow-abi-mismatch=sanitizer" \
	make --no-print-directory -s -C "$here" CARGO="cargo +nightly" RUST_TARGET="$target" \
	CARGO_TARGET_DIR="$out/target" BUILD="$out/build" "$out/build/liburing.a" "$out/build/liburing-diag.a"
lib="-Wl,-u,uring_diag_attach $out/build/liburing-diag.a $out/build/liburing.a"
inc=$here/build/stage/usr/include
test -f "$inc/liburing.h" || { echo "check-tsan: run make stage first" >&2; exit 2; }
status=0
# submit_wait_threads: one thread submits while another reaps; check-mt-correct:
# thirteen correct threaded patterns, each run as children of its own, without
# the variables and with them (the variables set here reach only the driver;
# it sets the children's, and reports their sanitizer output as failures).
for t in submit_wait_threads check-mt-correct; do
	src=$here/capi-tests/$t.c
	# shellcheck disable=SC2086 # $lib: the two archives and the flag that pulls one in
	$CC -O1 -g -fsanitize=thread -D_GNU_SOURCE -I"$inc" -I"$here/capi-tests" \
		-o "$out/$t" "$src" "$here/tools/diag/tsan-shim.c" $lib -lpthread -ldl
	rm -f "$out/$t.trace"
	set +e
	LIBURING_TRACE=$out/$t.trace LIBURING_DEBUG=1 LIBURING_CHECK=1 \
		TSAN_OPTIONS="halt_on_error=0 exitcode=66 history_size=4" \
		"$out/$t" > "$out/$t.log" 2>&1
	rc=$?
	set -e
	reports=$(grep -c 'WARNING: ThreadSanitizer' "$out/$t.log" || true)
	# The programs use their rings correctly: a finding is a false one.
	findings=$(grep -c '^uring-check:' "$out/$t.log" || true)
	lines=$(wc -l < "$out/$t.trace" 2>/dev/null || echo 0)
	echo "check-tsan: $t exit $rc, $reports ThreadSanitizer reports, $findings checker findings, $lines trace lines"
	if [ "$rc" != 0 ] || [ "$reports" != 0 ] || [ "$findings" != 0 ]; then
		status=1
		grep -A20 -e 'WARNING: ThreadSanitizer' -e '^uring-check:' "$out/$t.log" | head -60
	fi
done
echo "check-tsan: $(($(date +%s) - t0)) s"
exit $status
