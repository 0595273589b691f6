#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check-arch`: the library on other architectures. Runs one script per
# target family (tools/arch/<family>.sh), each recording its results through
# lib.sh, then prints them all and one closing "N passed, N failed" line.
#
# The families go in two lanes side by side. Those that use io_uring on this
# machine's kernel (i386, musl, clang) run one after another: their capi-tests
# include diag-debug, which turns io_uring off machine-wide for a moment, and
# the i386 suite next to it would fail for that. Beside them run those that
# do not (cross: compile, link and nm only; vm: its own kernel under qemu),
# which need the CPU the i386 suite's sleeping tests leave idle: they run
# under nice, so that they take that idle CPU without delaying the suite's
# timing-sensitive tests (nor its paired reruns, which judge them). A family's
# output goes to logs/family-<name>.out and is printed whole when it ends;
# the results are listed in the order the families were asked for.
#   CHECK_ARCH_FAMILIES  families to run (default: i386 cross musl clang vm)
#   CHECK_ARCH_PARALLEL  no: one family after another, in that order
#   CHECK_ARCH_CROSS     architectures of the cross family (see cross.sh)
#   CHECK_ARCH_SUITE     i386 liburing suite: full (default) or none
#   CHECK_ARCH_SUITE_SHARES  i386 suite runs side by side (default 2, see i386.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: >"$ARCH_RESULTS"
t0=$(now)
families=${CHECK_ARCH_FAMILIES:-i386 cross musl clang vm}

# run_family NAME: its results go to results-NAME.txt; its output is printed
# in one piece (one lane at a time) when it is over.
run_family() {
	f=$1
	out=$ARCH_CACHE/logs/family-$f.out
	: >"$ARCH_CACHE/results-$f.txt"
	start=$(now)
	if [ -f "$here/$f.sh" ]; then
		ARCH_RESULTS=$ARCH_CACHE/results-$f.txt sh "$here/$f.sh" >"$out" 2>&1 || true
	else
		# The one record, in result()'s format, in $f's own results file.
		echo "FAIL $f 0 no tools/arch/$f.sh" >"$ARCH_CACHE/results-$f.txt"
		echo "check-arch: FAIL $f: no tools/arch/$f.sh" >"$out"
	fi
	# shellcheck disable=SC2016 # expanded by the inner sh, from its arguments
	flock "$ARCH_CACHE/.output.lock" sh -c 'echo "==== check-arch: $1 ($2 s)"; cat "$3"' \
		sh "$f" $(($(now) - start)) "$out"
}

lane() {
	for f in "$@"; do
		run_family "$f"
	done
}

if [ "${CHECK_ARCH_PARALLEL:-yes}" = no ]; then
	# shellcheck disable=SC2086
	lane $families
else
	native="" beside=""
	for f in $families; do
		case $f in
		cross | vm) beside="$beside $f" ;;
		*) native="$native $f" ;;
		esac
	done
	# (the subshell renices itself: it is its child's parent)
	# shellcheck disable=SC2086
	(sh -c 'renice -n 10 -p "$PPID"' >/dev/null 2>&1; lane $beside) &
	beside_pid=$!
	# shellcheck disable=SC2086
	lane $native
	wait "$beside_pid"
fi
for f in $families; do
	cat "$ARCH_CACHE/results-$f.txt" >>"$ARCH_RESULTS"
done

echo
echo "==== check-arch results ($(($(now) - t0)) s; logs in $ARCH_CACHE/logs)"
awk '{ r = $1; n = $2; s = $3; $1 = $2 = $3 = ""; sub(/^ +/, ""); printf "%-4s %-28s %6ss  %s\n", r, n, s, $0 }' "$ARCH_RESULTS"
passed=$(grep -c '^PASS ' "$ARCH_RESULTS")
failed=$(grep -c '^FAIL ' "$ARCH_RESULTS")
skipped=$(grep -c '^SKIP ' "$ARCH_RESULTS")
echo "($skipped skipped)"
# What failed, again at the very end (CI keeps only the tail of the output):
# the failing lines of each failed step's log.
grep '^FAIL ' "$ARCH_RESULTS" | sed -n 's/.* log \(.*\)$/\1/p' | while read -r log; do
	[ -f "$log" ] || continue
	echo "---- failures in $log:"
	grep -E '(^|[[:space:]])(FAIL|TIMEOUT)([[:space:]]|$)|rc=(1|2|124|137)\b' "$log" | head -n 20 | sed 's/^/    /'
	tail -n 5 "$log" | sed 's/^/    | /'
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
