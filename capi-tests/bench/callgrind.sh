#!/bin/sh
# SPDX-License-Identifier: MIT
# User-space instructions per call of the library's own functions, ours
# against upstream liburing (exact and repeatable, unlike wall time):
#
#   sh capi-tests/bench/callgrind.sh OUR_LIBDIR OUR_INC UP_LIBDIR UP_INC
#
# Builds api-calls.c and nop-bench.c against each library, runs both under
# `valgrind --tool=callgrind`, and prints callgrind_annotate's inclusive
# count divided by the calls made, per function and library.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
our_lib=$1 our_inc=$2 up_lib=$3 up_inc=$4
CC=${CC:-cc}
iters=${ITERS:-2000}
out=${BENCH_OUT:-$(mktemp -d /tmp/callgrind.XXXXXX)}
mkdir -p "$out"
for tool in valgrind callgrind_annotate; do
	command -v $tool >/dev/null || { echo "callgrind.sh: $tool not found" >&2; exit 2; }
done

for lib in ours upstream; do
	if [ $lib = ours ]; then L=$our_lib I=$our_inc; else L=$up_lib I=$up_inc; fi
	for prog in api-calls nop-bench; do
		$CC -O2 -D_GNU_SOURCE -I"$I" -o "$out/$prog-$lib" "$here/$prog.c" \
			-L"$L" -Wl,-rpath,"$L" -l:liburing.so.2 -ldl
	done
	valgrind --tool=callgrind --callgrind-out-file="$out/api-$lib.cg" \
		"$out/api-calls-$lib" "$iters" >/dev/null 2>&1
	valgrind --tool=callgrind --callgrind-out-file="$out/nop1-$lib.cg" \
		"$out/nop-bench-$lib" 1 "$iters" >/dev/null 2>&1
done

# calls per iteration of api-calls.c, by function
per_call() { # file function calls
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f="$2" -v n="$3" '$0 ~ ":"f" \\[" { gsub(",", "", $1); printf "%.1f", $1 / n; found=1; exit }
			END { if (!found) printf "-" }'
}
printf '%-34s %10s %10s\n' "function (instructions per call)" ours upstream
for fc in io_uring_submit:4 io_uring_submit_and_wait:1 __io_uring_get_cqe:1 \
	io_uring_peek_batch_cqe:2 io_uring_wait_cqes:1 io_uring_wait_cqe_timeout:1 \
	io_uring_submit_and_wait_timeout:1 io_uring_submit_and_get_events:1 \
	io_uring_get_events:1; do
	f=${fc%:*} n=${fc#*:}
	printf '%-34s %10s %10s\n' "$f" \
		"$(per_call "$out/api-ours.cg" "$f" $((n * iters)))" \
		"$(per_call "$out/api-upstream.cg" "$f" $((n * iters)))"
done
# nop-bench runs a short warm-up before its timed iterations: count calls.
calls=$((iters + iters / 10 + 1))
printf '%-34s %10s %10s\n' "nop-bench batch 1 submit_and_wait" \
	"$(per_call "$out/nop1-ours.cg" io_uring_submit_and_wait $calls)" \
	"$(per_call "$out/nop1-upstream.cg" io_uring_submit_and_wait $calls)"
echo "(callgrind files in $out)"
