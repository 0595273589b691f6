#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check-arch`: the library on other architectures. Runs one script per
# target family (tools/arch/<family>.sh), each recording its results through
# lib.sh, then prints them all and one closing "N passed, N failed" line.
#   CHECK_ARCH_FAMILIES  families to run (default: i386 cross musl clang vm)
#   CHECK_ARCH_CROSS     architectures of the cross family (see cross.sh)
#   CHECK_ARCH_SUITE     i386 liburing suite: full (default) or none
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: >"$ARCH_RESULTS"
t0=$(now)
for family in ${CHECK_ARCH_FAMILIES:-i386 cross musl clang vm}; do
	echo "==== check-arch: $family"
	if [ ! -f "$here/$family.sh" ]; then
		result FAIL "$family" 0 "no tools/arch/$family.sh"
		continue
	fi
	sh "$here/$family.sh" || true
done
echo
echo "==== check-arch results ($(($(now) - t0)) s; logs in $ARCH_CACHE/logs)"
awk '{ r = $1; n = $2; s = $3; $1 = $2 = $3 = ""; sub(/^ +/, ""); printf "%-4s %-28s %6ss  %s\n", r, n, s, $0 }' "$ARCH_RESULTS"
passed=$(grep -c '^PASS ' "$ARCH_RESULTS")
failed=$(grep -c '^FAIL ' "$ARCH_RESULTS")
skipped=$(grep -c '^SKIP ' "$ARCH_RESULTS")
echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
