#!/bin/sh
# SPDX-License-Identifier: MIT
# make unit-test: the Rust unit tests, with the tests that found the kernel
# lacking what they test counted as skipped, not passed. Such a test prints
# one line "SKIP: <test>: <reason>" and returns (core/src/test_ring.rs); libtest
# has no skip verdict, so its shown output is read here.
#   sh tools/test/unit-tests.sh <cargo> <package>...
#   sh tools/test/unit-tests.sh --refused <no-uring> <cargo> <package>...
# --refused runs them under tools/test/no-uring.c, a seccomp filter that
# answers io_uring_setup with EPERM as a container's default profile does:
# every test must then pass or skip, none fail, and at least one must skip
# (else the filter did not reach the tests).
set -u
launcher=
if [ "$1" = --refused ]; then
	launcher=$2
	shift 2
	"$launcher" true
	case $? in
	0) ;;
	77) echo "no seccomp filter can be installed here: the run with io_uring refused is skipped"
	    exit 0 ;;
	*) exit 1 ;;
	esac
fi
cargo=$1
shift
pkgs=
for p in "$@"; do pkgs="$pkgs -p $p"; done
log=$(mktemp)
# shellcheck disable=SC2086
$launcher $cargo test --quiet --lib $pkgs -- --show-output >"$log" 2>&1
rc=$?
grep -E '^(test result|SKIP|failures|---- )' "$log" | grep -v '^---- .* stdout ----$' || true
passed=$(awk '/^test result:/ { n += $4 } END { print n + 0 }' "$log")
failed=$(awk '/^test result:/ { n += $6 } END { print n + 0 }' "$log")
# One skipped test per name, however many lines it printed.
skipped=$(grep '^SKIP: ' "$log" | cut -d' ' -f2 | sort -u | wc -l)
[ "$rc" = 0 ] || tail -n 40 "$log"
# With io_uring available, the skips must be exactly those unit-skips.tsv
# expects for this kernel (release from uname, against the release table).
if [ -z "$launcher" ]; then
	here=$(dirname "$0")
	krel=$(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
	expected=$(grep -v '^#' "$here/unit-skips.tsv" | while IFS='	' read -r t need; do
		rel=$(awk -F '\t' -v n="$need" '$1 == n { print $2 }' "$here/../../man/kernel-releases.tsv")
		awk -v r="$rel" -v k="$krel" 'BEGIN { split(r, a, "."); split(k, b, ".");
			exit !(b[1] * 1000 + b[2] < a[1] * 1000 + a[2]) }' && echo "$t"
	done | sort -u | tr '\n' ' ')
	got=$(grep '^SKIP: ' "$log" | cut -d' ' -f2 | sed 's/:$//' | sort -u | tr '\n' ' ')
	for t in $got; do
		case " $expected " in
		*" $t "*) ;;
		*) echo "FAIL $t: unexpected skip (not in tools/test/unit-skips.tsv for kernel $krel)"
		   failed=$((failed + 1)) rc=1 ;;
		esac
	done
	for t in $expected; do
		case " $got " in
		*" $t "*) ;;
		*) echo "FAIL $t: expected to skip on kernel $krel (tools/test/unit-skips.tsv), but did not skip"
		   failed=$((failed + 1)) rc=1 ;;
		esac
	done
fi
rm -f "$log"
echo "$((passed - skipped)) passed, $failed failed, $skipped skipped${launcher:+ (io_uring_setup refused by a seccomp filter)}"
if [ -n "$launcher" ] && [ "$rc" = 0 ] && [ "$skipped" = 0 ]; then
	echo "io_uring refused, yet no test skipped: the filter did not reach the tests"
	exit 1
fi
exit "$rc"
