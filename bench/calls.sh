#!/bin/sh
# SPDX-License-Identifier: MIT
# User-space instructions per call of the library's own functions, ours
# against upstream liburing (exact and repeatable, unlike wall time):
#
#   sh bench/calls.sh OUR_LIBDIR OUR_INC UP_LIBDIR UP_INC     (make bench-calls)
#
# Builds api-calls.c against each library, runs it under
# `valgrind --tool=callgrind`, and prints callgrind_annotate's inclusive
# count divided by the calls made, per function and library. Exits 1 when
# one of ours costs more than upstream's plus what the row is allowed:
# - every entry point: ring_check (2), the compare and branch with which it
#   turns a NULL ring into an error (and the submit paths let LIBURING_TRACE
#   watch the call), where liburing dereferences the pointer; where our code
#   saves a jump liburing takes, that nets +1 (docs/benchmarks.md, "What a call costs");
# - registration calls: also fail_hook (4), the test of the kernel's answer
#   that hands a failure to LIBURING_DEBUG (2), and the stack frame that
#   hook's call needs where liburing's leaf function uses the red zone (2);
# - every row: CALLS_TOLERANCE (default 2) for what another compiler release
#   may move; a lost fast path costs tens of instructions, not 2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
our_lib=$1 our_inc=$2 up_lib=$3 up_inc=$4
CC=${CC:-cc}
iters=${ITERS:-2000}
ring_check=2
fail_hook=4
tolerance=${CALLS_TOLERANCE:-2}
out=${BENCH_OUT:-$(mktemp -d /tmp/callgrind.XXXXXX)}
mkdir -p "$out"
for tool in valgrind callgrind_annotate; do
	command -v $tool >/dev/null || { echo "callgrind.sh: $tool not found" >&2; exit 2; }
done

for lib in ours upstream; do
	if [ $lib = ours ]; then L=$our_lib I=$our_inc; else L=$up_lib I=$up_inc; fi
	# A stripped copy of each library: callgrind then charges everything an
	# exported function runs to it, where with a full symbol table a tail
	# jump into an internal function would take that function's cost away.
	mkdir -p "$out/lib-$lib"
	strip -o "$out/lib-$lib/liburing.so.2" "$L/liburing.so.2"
	# The diagnostics object stays beside it, as installed (unused here).
	[ ! -d "$L/uring-rs" ] || cp -r "$L/uring-rs" "$out/lib-$lib/"
	L=$out/lib-$lib
	$CC -O2 -D_GNU_SOURCE -I"$I" -o "$out/api-calls-$lib" "$here/api-calls.c" \
		-L"$L" -Wl,-rpath,"$L" -l:liburing.so.2 -ldl
	valgrind --tool=callgrind --callgrind-out-file="$out/api-$lib.cg" \
		"$out/api-calls-$lib" "$iters" >/dev/null 2>&1
done

# calls per iteration of api-calls.c, by function
per_call() { # file function calls
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v f="$2" -v n="$3" '$0 ~ ":"f" \\[" { gsub(",", "", $1); printf "%.1f", $1 / n; found=1; exit }
			END { if (!found) printf "-" }'
}
printf '%-34s %10s %10s\n' "function (instructions per call)" ours upstream
worse=0
for fc in io_uring_submit:4 io_uring_submit_and_wait:1 __io_uring_get_cqe:1 \
	io_uring_peek_batch_cqe:2 io_uring_wait_cqes:1 io_uring_wait_cqe_timeout:1 \
	io_uring_submit_and_wait_timeout:1 io_uring_submit_and_get_events:1 \
	io_uring_get_events:1 io_uring_register_eventfd:1 io_uring_unregister_eventfd:1; do
	f=${fc%:*} n=${fc#*:}
	o=$(per_call "$out/api-ours.cg" "$f" $((n * iters)))
	u=$(per_call "$out/api-upstream.cg" "$f" $((n * iters)))
	# A measurement that found next to nothing is broken, not fast.
	if awk -v o="$o" 'BEGIN { exit !(o + 0 < 8) }'; then
		echo "calls.sh: $f measured at $o instructions per call: the measurement is broken" >&2
		worse=1
	fi
	mark=''
	allowed=$((ring_check + tolerance))
	case $f in *register*) allowed=$((allowed + fail_hook)) ;; esac
	if awk -v o="$o" -v u="$u" -v c="$allowed" 'BEGIN { exit !(o + 0 > u + c) }'; then
		mark=" (more than upstream + $allowed)" worse=1
	elif awk -v o="$o" -v u="$u" 'BEGIN { exit !(o + 0 > u + 0) }'; then
		mark=" (within upstream + $allowed)"
	fi
	printf '%-34s %10s %10s%s\n' "$f" "$o" "$u" "$mark"
done
echo "(callgrind files in $out)"
exit $worse
