#!/bin/sh
# SPDX-License-Identifier: MIT
# What the diagnostics cost per NOP round trip (get SQE, prep, submit, wait,
# seen): user-space instructions of bench/diag-nop.c's loop under callgrind,
# untraced, with LIBURING_CHECK=1, and with LIBURING_TRACE to a file (text,
# JSON, then binary records), and the same loop on upstream liburing when its
# prefix is given.
#
#   sh bench/diag-cost.sh STAGE_USR [UPSTREAM_USR]   (make bench-diag, make bench-calls)
#
# Exits 1 when the JSON trace costs more than the text trace, or when
# LIBURING_CHECK=1 or the binary trace costs more than 3 times the untraced
# loop (the target the project holds them to; DIAG_COST_STRICT=0 makes that
# a note, e.g. for another compiler).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usr=$1 up=${2:-}
CC=${CC:-cc}
n=${ITERS:-5000}
out=${BENCH_OUT:-$(mktemp -d /tmp/diag-cost.XXXXXX)}
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "diag-cost.sh: valgrind not found" >&2; exit 2; }
$CC -O2 -D_GNU_SOURCE -I"$usr/include" -o "$out/diag-nop" "$here/diag-nop.c" \
	-L"$usr/lib" -Wl,-rpath,"$usr/lib" -l:liburing.so.2
if [ -n "$up" ]; then
	$CC -O2 -D_GNU_SOURCE -I"$up/include" -o "$out/diag-nop-upstream" "$here/diag-nop.c" \
		-L"$up/lib" -Wl,-rpath,"$up/lib" -l:liburing.so.2
fi

# instructions of run_loop (inclusive) per NOP, with the environment given
per_nop() { # name env...
	name=$1 prog=$out/diag-nop
	shift
	[ "$name" != upstream ] || prog=$out/diag-nop-upstream
	env -u LIBURING_CHECK -u LIBURING_TRACE -u LIBURING_DEBUG -u LIBURING_TRACE_FORMAT "$@" \
		valgrind --tool=callgrind --toggle-collect='run_loop*' \
		--callgrind-out-file="$out/$name.cg" "$prog" "$n" >/dev/null 2>&1
	awk -v n="$n" '/^summary:/ { printf "%.1f", $2 / n }' "$out/$name.cg"
}
plain=$(per_nop plain)
check=$(per_nop check LIBURING_CHECK=1)
trace=$(per_nop trace LIBURING_TRACE="$out/trace.txt" LIBURING_TRACE_MAX=0)
json=$(per_nop json LIBURING_TRACE="$out/trace.json" LIBURING_TRACE_MAX=0)
binary=$(per_nop binary LIBURING_TRACE="$out/trace.utrace" LIBURING_TRACE_MAX=0)
rows=
if [ -n "$up" ]; then
	rows="upstream liburing, none:$(per_nop upstream)"
fi
printf '%-40s %12s %8s\n' "diagnostics (user instructions per NOP)" "per NOP" "x plain"
for row in ${rows:+"$rows"} "none:$plain" "LIBURING_CHECK=1:$check" "LIBURING_TRACE=<file>:$trace" \
	"LIBURING_TRACE=<file>.json:$json" "LIBURING_TRACE=<file>.utrace:$binary"; do
	awk -v name="${row%%:*}" -v v="${row#*:}" -v p="$plain" \
		'BEGIN { printf "%-40s %12.1f %8.2f\n", name, v, v / p }'
done
echo "(callgrind files in $out)"
if awk -v j="$json" -v t="$trace" 'BEGIN { exit !(j > t) }'; then
	echo "diag-cost: the JSON trace costs more than the text trace"
	exit 1
fi
over=0
if awk -v c="$check" -v p="$plain" 'BEGIN { exit !(c > 3 * p) }'; then
	echo "diag-cost: LIBURING_CHECK=1 costs more than 3 times the plain loop (the target)"
	over=1
fi
if awk -v b="$binary" -v p="$plain" 'BEGIN { exit !(b > 3 * p) }'; then
	echo "diag-cost: the binary trace costs more than 3 times the plain loop (the target)"
	over=1
fi
[ "$over" = 0 ] || [ "${DIAG_COST_STRICT:-1}" = 0 ] || exit 1
exit 0
