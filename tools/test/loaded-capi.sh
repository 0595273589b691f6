#!/bin/sh
# SPDX-License-Identifier: MIT
# The capi-tests under load: every CPU kept busy by a spinning shell loop
# (at the tests' own priority), the whole suite run ROUNDS times per C
# compiler, counting the runs that failed. Shows that no test depends on an
# idle machine (issue 30). Not part of CI (minutes per round).
#   sh tools/test/loaded-capi.sh <stage-dir> [rounds (10)] [compiler ...]
# Compilers default to gcc and clang (the ones installed); each run's
# output goes to $LOADED_OUT (default /tmp/loaded-capi)/<cc>-<round>.log.
set -u
[ $# -ge 1 ] || { echo "usage: sh $0 <stage-dir> [rounds] [cc ...]" >&2; exit 2; }
stage=$1
rounds=${2:-10}
shift
[ $# -ge 1 ] && shift
ccs=${*:-gcc clang}
out=${LOADED_OUT:-/tmp/loaded-capi}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/../.." && pwd)

spinners=
stop_spinners() {
	for pid in $spinners; do kill "$pid" 2>/dev/null; done
	spinners=
}
trap stop_spinners EXIT INT TERM
n=$(nproc)
i=0
while [ "$i" -lt "$n" ]; do
	# Bounded even if this script is killed hard: 2 hours at most.
	timeout 7200 sh -c 'while :; do :; done' &
	spinners="$spinners $!"
	i=$((i + 1))
done
echo "load: $n spinning loops ($spinners), same priority as the tests"

total_fail=0
for cc in $ccs; do
	command -v "$cc" >/dev/null 2>&1 || { echo "$cc: not installed, lane left out"; continue; }
	cxx=c++
	[ "$cc" = clang ] && cxx=clang++
	runs_failed=0
	r=1
	while [ "$r" -le "$rounds" ]; do
		log=$out/$cc-$r.log
		start=$(date +%s)
		CC=$cc CXX=$cxx CAPI_NO_COMPAT=1 CAPI_BUILD_DIR=$out/$cc-build \
			sh "$here/capi-tests/run.sh" "$stage" >"$log" 2>&1
		rc=$?
		printf '%s round %d: %s (%ss)\n' "$cc" "$r" "$(tail -n 1 "$log")" "$(($(date +%s) - start))"
		if [ "$rc" != 0 ]; then
			runs_failed=$((runs_failed + 1))
			grep ' FAIL ' "$log" | sed 's/^/    /'
		fi
		r=$((r + 1))
	done
	echo "$cc: $rounds loaded runs, $runs_failed failed"
	total_fail=$((total_fail + runs_failed))
done
stop_spinners
[ "$total_fail" -eq 0 ]
