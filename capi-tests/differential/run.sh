#!/bin/sh
# SPDX-License-Identifier: MIT
# Differential bad-argument test: bad_args_diff.c built against upstream
# liburing (headers + liburing.so.2) and against ours, both run, and the
# outputs compared; a difference fails unless allow-list.txt explains it.
#
#   sh capi-tests/differential/run.sh <our-stage> <upstream-stage>
#
# A stage holds usr/include and usr/lib (liburing.so.2, liburing-ffi.so.2).
# Environment: CC, DIFF_OUT (work directory; default a fresh /tmp dir).
set -eu

if [ $# -lt 2 ]; then
	echo "usage: sh $0 <our-stage> <upstream-stage>" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
ours=$(cd "$1/usr" && pwd)
upstream=$(cd "$2/usr" && pwd)
CC=${CC:-cc}
out=${DIFF_OUT:-$(mktemp -d /tmp/bad-args-diff.XXXXXX)}
mkdir -p "$out"

for side in upstream ours; do
	if [ "$side" = ours ]; then usr=$ours; else usr=$upstream; fi
	# Library found by runpath only: LD_LIBRARY_PATH must not pick the other one.
	$CC -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I"$usr/include" \
		-o "$out/bad_args_diff.$side" "$here/bad_args_diff.c" \
		-L"$usr/lib" -Wl,-rpath,"$usr/lib" -l:liburing.so.2 -ldl
	start=$(date +%s.%N)
	env -u LD_LIBRARY_PATH -u LD_PRELOAD "$out/bad_args_diff.$side" \
		"$usr/lib/liburing-ffi.so.2" >"$out/$side.txt" 2>"$out/$side.err" </dev/null
	end=$(date +%s.%N)
	echo "$side: $(cat "$out/$side.err") in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s ($usr/lib)"
done

PYTHONPATH="$here/../.." python3 -m pytools.capi.compare "$out/upstream.txt" "$out/ours.txt" "$here/allow-list.txt" \
	--map "$here/../../src/liburing.map"
