#!/bin/sh
# Paired NOP round-trip benchmark: ours vs upstream liburing.
#
#   sh capi-tests/bench/run.sh [OUR_INC OUR_LIB UPSTREAM_INC UPSTREAM_LIB]
#
# Builds bench/nop-bench.c twice, once against each header set + library
# (liburing.so.2 by name, runpath set to that directory), checks each binary loads the intended
# library, then for ROUNDS rounds (default 7) runs both binaries for each batch
# size (1, 32, 128; fixed iteration counts), alternating which one goes first,
# and prints the median ns per NOP of each and the ratio ours/upstream
# (< 1.00: ours is faster).  Timing only: the exit status does not depend on
# the figures (non-zero only when something cannot be built or run).
#
# Defaults: ours = <repo>/build/stage/usr/{include,lib},
#           upstream = /tmp/ref/install/{include,lib}.
# Environment: CC, ROUNDS, BENCH_OUT (work dir).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
our_inc=${1:-$root/build/stage/usr/include}
our_lib=${2:-$root/build/stage/usr/lib}
up_inc=${3:-/tmp/ref/install/include}
up_lib=${4:-/tmp/ref/install/lib}
CC=${CC:-cc}
rounds=${ROUNDS:-7}
out=${BENCH_OUT:-$(mktemp -d /tmp/nop-bench.XXXXXX)}
mkdir -p "$out"

for d in "$our_inc" "$our_lib" "$up_inc" "$up_lib"; do
	[ -d "$d" ] || { echo "bench: $d is not a directory" >&2; exit 2; }
done

build() { # name inc lib
	$CC -O2 -D_GNU_SOURCE -I"$2" -o "$out/nop-bench-$1" "$here/nop-bench.c" \
		-L"$3" -Wl,-rpath,"$3" -l:liburing.so.2 -ldl
}
build ours "$our_inc" "$our_lib"
build upstream "$up_inc" "$up_lib"

# Which library each binary really loads.
check_lib() { # name libdir
	line=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD "$out/nop-bench-$1" 1 10)
	lib=${line#lib=}
	lib=${lib%% *}
	want=$(cd "$2" && pwd -P)
	got=$(cd "$(dirname "$lib")" && pwd -P)
	if [ "$got" != "$want" ]; then
		echo "bench: $1 binary loaded $lib, expected a library in $want" >&2
		exit 1
	fi
	echo "$1: $lib"
}
check_lib ours "$our_lib"
check_lib upstream "$up_lib"

iters_for() {
	case $1 in
	1) echo 300000 ;;
	32) echo 30000 ;;
	128) echo 8000 ;;
	esac
}

one() { # name batch -> ns_per_nop
	env -u LD_LIBRARY_PATH -u LD_PRELOAD "$out/nop-bench-$1" "$2" "$(iters_for "$2")" |
		sed -n 's/.*ns_per_nop=\([0-9.]*\).*/\1/p'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "rounds: $rounds (interleaved, alternating order)"
printf '%-6s %14s %14s %8s\n' batch ours_ns/nop upstream_ns/nop ratio
for b in 1 32 128; do
	: >"$out/ours.$b"
	: >"$out/upstream.$b"
	r=0
	while [ "$r" -lt "$rounds" ]; do
		if [ $((r % 2)) -eq 0 ]; then
			one ours "$b" >>"$out/ours.$b"
			one upstream "$b" >>"$out/upstream.$b"
		else
			one upstream "$b" >>"$out/upstream.$b"
			one ours "$b" >>"$out/ours.$b"
		fi
		r=$((r + 1))
	done
	o=$(median <"$out/ours.$b")
	u=$(median <"$out/upstream.$b")
	printf '%-6s %14s %14s %8s\n' "$b" "$o" "$u" "$(awk -v o="$o" -v u="$u" 'BEGIN { printf "%.3f", o / u }')"
done
