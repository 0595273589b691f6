#!/bin/sh
# SPDX-License-Identifier: MIT
# liburing.a as one member per exported function (or per group of functions
# that share most of their code), so that a static program
# gets only the functions it calls and what they reach: the linker takes
# whole archive members, and one relocatable object would bring the whole
# library (make footprint). liburing-ffi.a is these members and its helpers.
#
#   sh tools/split-archive.sh OUT.a WORKDIR OBJECT SYMS [OBJECT SYMS]...
#
# OBJECT is a relocatable object, the relinked library (Makefile's
# relink_object: every symbol local except its exported ones); SYMS (a file,
# one name a line) the functions to give a member each. A member is OBJECT
# cut down by `ld -r --gc-sections` to one of SYMS and what it reaches there;
# code two members share is copied into both as local symbols, and the other
# SYMS a member reaches are local there (its own copy, never a second
# definition). Undefined symbols no relocation of the member names are
# dropped, so a member needs no more of libc than its code.
#
# MEMBER_GROUPS (a file, optional) names functions that share most of their
# code, a group a line ('#' starts a comment): a group is one member, so a
# program calling several of them gets that code once.
#
# A member's writable data is its own copy too (the compiler addresses local
# data through its section, which no tool here can redirect to one shared
# definition). That is right only for data no two members need to share in
# a program linked with this archive: the observation state
# (core/src/observe), written only by __uring_rs_install, which the
# diagnostics archive brings together with the whole library (Makefile,
# DIAG_A) and which SYMS must therefore leave out; and the flags of the
# notice a static program without the diagnostics gets at its first ring
# setup (src/attach_diag.rs), whose every user is in the ring setup group
# of src/liburing.a.groups. Any other writable data stops the split.
# Tools from the environment as the Makefile names them: LD, OBJCOPY, AR,
# NM, RELINK_LDFLAGS.
set -eu
out=$1 work=$2
shift 2
LD=${LD:-ld} OBJCOPY=${OBJCOPY:-objcopy} AR=${AR:-ar} NM=${NM:-nm}
groups=${MEMBER_GROUPS:-}
RELINK_LDFLAGS=${RELINK_LDFLAGS:-}
rm -rf "$work"
mkdir -p "$work/members"
: >"$work/all-syms"

# Writable data: nm's d/D (data), b/B (bss), g/G and s/S (small data and
# bss of some targets); only the state named above may be there (its
# names in rustc's legacy and v0 manglings).
state='^(_ZN|_RNvNtCs[0-9A-Za-z]*_)(10uring_core7observe(8OBSERVER|9FAST_FROM)|5uring11attach_diag(10LOADER_RAN|7NOTICED))(17h[0-9a-f]{16}E)?(\.[0-9]+)?$'
while [ $# -ge 2 ]; do
	object=$1 syms=$2
	shift 2
	if grep -qx '__uring_rs_install' "$syms"; then
		echo "split-archive: $syms names __uring_rs_install (its state would not be shared)" >&2
		exit 1
	fi
	# ($-names are ARM's and RISC-V's mapping symbols, not data.)
	"$NM" "$object" | awk '$2 ~ /^[bBdDgGsS]$/ && $3 !~ /^\$/ { print $3 }' | grep -Ev "$state" >"$work/other-data" || true
	if [ -s "$work/other-data" ]; then
		# Data that cannot be told apart (LLVM's merged globals on riscv64
		# and arm64) or that the library writes: one member, as before.
		echo "split-archive: writable data in $object other than the observation state ($(tr '\n' ' ' <"$work/other-data")); $out stays one member" >&2
		"$OBJCOPY" --keep-global-symbols="$syms" "$object" "$work/members/whole.o"
		cat "$syms" >>"$work/all-syms"
		continue
	fi
	"$NM" -u "$object" | awk '{ print $2 }' | LC_ALL=C sort -u >"$work/undefined"
	# One line per member: a group of MEMBER_GROUPS whose names are in SYMS,
	# or a name of SYMS in no group.
	awk -v groups="$groups" '
		BEGIN {
			while (groups != "" && (getline line < groups) > 0) {
				sub(/#.*/, "", line)
				n = split(line, w)
				if (n == 0) continue
				ng++
				for (i = 1; i <= n; i++) group_of[w[i]] = ng
			}
		}
		{ want[$1] = 1; order[++nw] = $1 }
		END {
			for (i = 1; i <= nw; i++) {
				s = order[i]; g = group_of[s]
				if (!g) { print s; continue }
				if (done[g]++) continue
				line = ""
				for (t = 1; t <= nw; t++) if (group_of[order[t]] == g) line = line " " order[t]
				print substr(line, 2)
			}
			for (s in group_of) if (!(s in want)) { print "unknown " s > "/dev/stderr"; bad = 1 }
			exit bad
		}' "$syms" >"$work/member-lines" ||
		{ echo "split-archive: $groups names functions that $syms does not export" >&2; exit 1; }
	while read -r names; do
		m=$work/members/${names%% *}
		keep="" undef=""
		for sym in $names; do
			keep="$keep --keep-global-symbol=$sym"
			undef="$undef -u $sym"
		done
		# shellcheck disable=SC2086 # RELINK_LDFLAGS, undef, keep: lists of words
		"$LD" -r $RELINK_LDFLAGS --gc-sections $undef -o "$m.all" "$object"
		# shellcheck disable=SC2086
		"$OBJCOPY" $keep --strip-unneeded-symbols="$work/undefined" "$m.all" "$m.o"
		rm -f "$m.all"
	done <"$work/member-lines"
	cat "$syms" >>"$work/all-syms"
done

rm -f "$out"
"$AR" rcs "$out" "$work"/members/*.o

# Each name of the SYMS defined by exactly one member, and nothing else.
"$NM" -g --defined-only "$out" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort >"$work/defined"
LC_ALL=C sort "$work/all-syms" >"$work/want"
if ! cmp -s "$work/want" "$work/defined"; then
	echo "split-archive: $out does not define each of the names given once, and nothing more:" >&2
	diff "$work/want" "$work/defined" >&2 || true
	exit 1
fi
