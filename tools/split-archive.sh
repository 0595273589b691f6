#!/bin/sh
# SPDX-License-Identifier: MIT
# liburing.a as one member per exported function, so that a static program
# gets only the functions it calls and what they reach: the linker takes
# whole archive members, and one relocatable object would bring the whole
# library (make footprint).
#
#   sh tools/split-archive.sh OBJECT SYMS OUT.a WORKDIR
#
# OBJECT is the relinked library (Makefile's relink_object: every symbol
# local except its exported ones); SYMS the functions to give a member each,
# one name a line. Each member is OBJECT cut down by `ld -r --gc-sections`
# to one of SYMS and what it reaches; code two members share is copied into
# both as local symbols, and the other SYMS a member reaches are local there
# (its own copy, never a second definition). Undefined symbols no relocation
# of a member names are dropped, so it needs no more of libc than its code.
#
# A member's writable data is its own copy too (the compiler addresses local
# data through its section, which no tool here can redirect to one shared
# definition). That is right only for data nothing writes after load in a
# program linked with this archive: the hooks' state, written only by
# __uring_rs_install, which the diagnostics archive brings together with the
# whole library (Makefile, DIAG_A) and which SYMS must therefore leave out.
# Any other writable data stops the split.
# Tools from the environment as the Makefile names them: LD, OBJCOPY, AR,
# NM, RELINK_LDFLAGS.
set -eu
object=$1 syms=$2 out=$3 work=$4
LD=${LD:-ld} OBJCOPY=${OBJCOPY:-objcopy} AR=${AR:-ar} NM=${NM:-nm}
RELINK_LDFLAGS=${RELINK_LDFLAGS:-}
rm -rf "$work"
mkdir -p "$work/members"

if grep -qx '__uring_rs_install' "$syms"; then
	echo "split-archive: $syms names __uring_rs_install (its state would not be shared)" >&2
	exit 1
fi
# Writable data: nm's d/D (data), b/B (bss), g/G and s/S (small data and
# bss of some targets); only the hooks' set-at-load state may be there
# (its names in rustc's legacy and v0 manglings).
state='^(_ZN|_RNvNtCs[0-9A-Za-z]*_)10uring_core5hooks(8OBSERVER|14WATCHING_RINGS|5TIMED|9FAST_FROM)(17h[0-9a-f]{16}E)?(\.[0-9]+)?$'
"$NM" "$object" | awk '$2 ~ /^[bBdDgGsS]$/ { print $3 }' | grep -Ev "$state" >"$work/other-data" || true
if [ -s "$work/other-data" ]; then
	echo "split-archive: writable data other than the hooks' state; each member would get its own copy:" >&2
	cat "$work/other-data" >&2
	exit 1
fi
"$NM" -u "$object" | awk '{ print $2 }' | LC_ALL=C sort -u >"$work/undefined"

while read -r sym; do
	m=$work/members/$sym
	# shellcheck disable=SC2086 # RELINK_LDFLAGS: a list of words or empty
	"$LD" -r $RELINK_LDFLAGS --gc-sections -u "$sym" -o "$m.all" "$object"
	"$OBJCOPY" --keep-global-symbol="$sym" --strip-unneeded-symbols="$work/undefined" "$m.all" "$m.o"
	rm -f "$m.all"
done <"$syms"

rm -f "$out"
"$AR" rcs "$out" "$work"/members/*.o

# Each of SYMS defined by exactly one member, and nothing else global.
"$NM" -g --defined-only "$out" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort >"$work/defined"
if ! LC_ALL=C sort -u "$syms" | cmp -s - "$work/defined"; then
	echo "split-archive: $out does not define each of $syms once, and nothing more:" >&2
	LC_ALL=C sort -u "$syms" | diff - "$work/defined" >&2 || true
	exit 1
fi
