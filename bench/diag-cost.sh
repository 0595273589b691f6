#!/bin/sh
# SPDX-License-Identifier: MIT
# What the diagnostics cost per NOP round trip (get SQE, prep, submit, wait,
# seen): user-space instructions of bench/diag-nop.c's loop under callgrind,
# untraced, with LIBURING_CHECK=1, and with LIBURING_TRACE to a file (text,
# then JSON).
#
#   sh bench/diag-cost.sh STAGE_USR        (make bench-diag)
#
# Prints a note (and exits 1 with DIAG_COST_STRICT=1) when LIBURING_CHECK=1
# costs more than 3 times the untraced loop, issue 31's target.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usr=$1
CC=${CC:-cc}
n=${ITERS:-5000}
out=${BENCH_OUT:-$(mktemp -d /tmp/diag-cost.XXXXXX)}
command -v valgrind >/dev/null || { echo "diag-cost.sh: valgrind not found" >&2; exit 2; }
$CC -O2 -D_GNU_SOURCE -I"$usr/include" -o "$out/diag-nop" "$here/diag-nop.c" \
	-L"$usr/lib" -Wl,-rpath,"$usr/lib" -l:liburing.so.2

# instructions of run_loop (inclusive) per NOP, with the environment given
per_nop() { # name env...
	name=$1
	shift
	env -u LIBURING_CHECK -u LIBURING_TRACE -u LIBURING_DEBUG "$@" \
		valgrind --tool=callgrind --toggle-collect='run_loop*' \
		--callgrind-out-file="$out/$name.cg" "$out/diag-nop" "$n" >/dev/null 2>&1
	awk -v n="$n" '/^summary:/ { printf "%.1f", $2 / n }' "$out/$name.cg"
}
plain=$(per_nop plain)
check=$(per_nop check LIBURING_CHECK=1)
trace=$(per_nop trace LIBURING_TRACE="$out/trace.txt" LIBURING_TRACE_MAX=0)
json=$(per_nop json LIBURING_TRACE="$out/trace.json" LIBURING_TRACE_MAX=0)
printf '%-40s %12s %8s\n' "diagnostics (user instructions per NOP)" "per NOP" "x plain"
for row in "none:$plain" "LIBURING_CHECK=1:$check" "LIBURING_TRACE=<file>:$trace" \
	"LIBURING_TRACE=<file>.json:$json"; do
	awk -v name="${row%%:*}" -v v="${row#*:}" -v p="$plain" \
		'BEGIN { printf "%-40s %12.1f %8.2f\n", name, v, v / p }'
done
echo "(callgrind files in $out)"
if awk -v c="$check" -v p="$plain" 'BEGIN { exit !(c > 3 * p) }'; then
	echo "diag-cost: LIBURING_CHECK=1 costs more than 3 times the plain loop (the target)"
	[ "${DIAG_COST_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
