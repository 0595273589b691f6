#!/bin/sh
# SPDX-License-Identifier: MIT
# Miri over the unit tests that need no kernel (make check-miri):
#
#   sh tools/diag/miri.sh TARGET_DIR
#
# Miri interprets the tests and stops at undefined behaviour: invalid or
# dangling references, use after free, misaligned or out-of-bounds
# accesses, data races between test threads. It cannot enter the kernel
# (core/src/raw_syscall/no_kernel.rs answers ENOSYS there, so the tests that need
# a ring skip), so it covers what runs without one: the uapi crate's tables
# and layouts, ring geometry, the C boundary's pointer checks, the
# diagnostics' text, names and release tables, the trace's ring table (its
# life cycle of records found, counted and freed once) and its summaries.
# Needs nightly's miri component; added when missing, else a skip note.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
if ! cargo +nightly miri --version >/dev/null 2>&1; then
	rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
	echo "check-miri: no nightly toolchain with miri (rustup component add --toolchain nightly miri): skipped"
	exit 0
fi
t0=$(date +%s)
export CARGO_TARGET_DIR="$out"
cd "$here"
log=$out/miri.log
mkdir -p "$out"
status=0
# Every unit test of the library (those that need a ring skip: see
# core/src/test_ring.rs), the uapi crate's and the sysinfo crate's.
cargo +nightly miri test --lib -p uring-rs -p uring-core -p uring-diag -- --nocapture >"$log" 2>&1 || status=1
cargo +nightly miri test -p uring-uapi >>"$log" 2>&1 || status=1
cargo +nightly miri test -p uring-sysinfo >>"$log" 2>&1 || status=1
grep '^test result' "$log" | sed 's/^/check-miri: /'
echo "check-miri: of the library's tests, $(grep -c 'SKIP: ' "$log") returned early: they need a ring"
if [ $status != 0 ]; then
	grep -B2 -A25 'error:' "$log" | head -80
	echo "check-miri: FAILED (log: $log)"
fi
echo "check-miri: $(($(date +%s) - t0)) s"
exit $status
