#!/bin/sh
# SPDX-License-Identifier: MIT
# The large-file ABI of liburing-ffi's off_t helpers on i386 (run natively on
# x86-64 with gcc -m32; needs gcc-multilib): src/ffi.c compiled as the
# Makefile compiles it (-D_FILE_OFFSET_BITS=64, as liburing's build), then
# lfs_abi.c built against it with and without _FILE_OFFSET_BITS=64.
#
#   sh packaging/lfs/lfs-abi.sh [work-dir]
#
# Expected: with _FILE_OFFSET_BITS=64 every field right; without it the
# loff_t helper still right, the off_t ones not (the caller passes a 4-byte
# off_t to a function taking 8 bytes): 32-bit programs calling them must be
# built with _FILE_OFFSET_BITS=64, as with liburing's own liburing-ffi.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$(mktemp -d /tmp/lfs-abi.XXXXXX)}
mkdir -p "$out"
cc=${CC:-cc}
# (-ffunction-sections, so the caller links only the helpers it calls, not
# the ones that need the Rust library.)
$cc -m32 -D_FILE_OFFSET_BITS=64 -O2 -fPIC -ffunction-sections -I"$repo/include" -c -o "$out/ffi.o" "$repo/src/ffi.c"
rc=0
for mode in lfs nolfs; do
	flags=
	[ $mode = lfs ] && flags=-D_FILE_OFFSET_BITS=64
	$cc -m32 $flags -O2 -I"$repo/include" -Wl,--gc-sections -o "$out/lfs_abi-$mode" "$here/lfs_abi.c" "$out/ffi.o"
	if [ $mode = lfs ]; then echo "== caller built with $flags"
	else echo "== caller built without _FILE_OFFSET_BITS"; fi
	if "$out/lfs_abi-$mode"; then result=ok; else result=fail; fi
	case $mode-$result in
	lfs-ok) echo "PASS: 64-bit off_t callers" ;;
	lfs-fail) echo "FAIL: 64-bit off_t callers"; rc=1 ;;
	nolfs-fail) echo "as expected: 32-bit off_t callers cannot use the off_t helpers" ;;
	nolfs-ok) echo "unexpected: a 32-bit off_t caller got every field"; rc=1 ;;
	esac
done
exit $rc
