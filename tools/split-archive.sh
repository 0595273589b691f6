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
# cut down by `ld -r --gc-sections` to one of SYMS and what it reaches there,
# less what another member reaches too: each section two members reach is a
# member of its own, which they refer to by global hidden symbols that
# SECTION_ALIASES (tools/build/section-aliases.c) adds, so a program gets
# each piece of code once. Where that tool does not rewrite the object (its
# exit status 3: ARM, POWER, ...), or SECTION_ALIASES is empty, shared code is
# copied into each member as local symbols instead, and the other SYMS a
# member reaches are local there (its own copy, never a second definition).
# Undefined symbols no relocation of the member names are dropped, so a
# member needs no more of libc than its code.
#
# MEMBER_GROUPS (a file, optional) names functions that share most of their
# code, a group a line ('#' starts a comment): where shared code is copied,
# a group is one member, so a program calling several of them gets that
# code once. With shared members it is not used (each function is a member).
#
# Without SECTION_ALIASES a member's writable data is its own copy too (the
# compiler addresses local data through its section, which binutils alone
# cannot redirect to one shared definition). That is right only for data no
# two members need to share in
# a program linked with this archive: the observation state
# (core/src/observe), written only by __uring_rs_install, which the
# diagnostics archive brings together with the whole library (Makefile,
# DIAG_A) and which SYMS must therefore leave out; and the flags of the
# notice a static program without the diagnostics gets at its first ring
# setup (src/attach_diag.rs), whose every user is in the ring setup group
# of src/liburing.a.groups. Any other writable data stops the split.
# Tools from the environment as the Makefile names them: LD, OBJCOPY, AR,
# NM, READELF, RELINK_LDFLAGS, SECTION_ALIASES.
set -eu
out=$1 work=$2
shift 2
LD=${LD:-ld} OBJCOPY=${OBJCOPY:-objcopy} AR=${AR:-ar} NM=${NM:-nm}
groups=${MEMBER_GROUPS:-}
RELINK_LDFLAGS=${RELINK_LDFLAGS:-}
aliases=${SECTION_ALIASES:-}
READELF=${READELF:-readelf}
rm -rf "$work"
mkdir -p "$work/members"

# Each line of member-lines a member: OBJECT cut down to that line's
# functions and all they reach, what two members share copied into both.
copied_members() {
	while read -r names; do
		m=$work/members/${names%% *}
		keep="" undef=""
		for sym in $names; do
			keep="$keep --keep-global-symbol=$sym"
			undef="$undef -u $sym"
		done
		# shellcheck disable=SC2086 # RELINK_LDFLAGS, undef, keep: lists of words
		"$LD" -r $RELINK_LDFLAGS --gc-sections $undef -o "$m.all" "$1"
		# shellcheck disable=SC2086
		"$OBJCOPY" $keep --strip-unneeded-symbols="$work/undefined" "$m.all" "$m.o"
		rm -f "$m.all"
	done <"$work/member-lines"
}

# The allocated sections of an object, one name a line.
allocated() {
	"$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '$7 ~ /A/ { print $1 }' | LC_ALL=C sort -u
}

# The same members without copies, from OBJECT rewritten by section-aliases
# (every reference between sections through a global hidden symbol): a
# section that the closures of two lines reach is a member of its own,
# defining its global symbols; each line's member keeps only the sections
# no other line reaches and refers to the others' symbols.
shared_members() {
	i=0
	while read -r names; do
		i=$((i + 1))
		undef=""
		for sym in $names; do undef="$undef -u $sym"; done
		# shellcheck disable=SC2086
		"$LD" -r $RELINK_LDFLAGS --gc-sections $undef -o "$work/closure.o" "$1"
		allocated "$work/closure.o" >"$work/closure.$i"
	done <"$work/member-lines"
	cat "$work"/closure.* | LC_ALL=C sort | uniq -d >"$work/shared"
	i=0
	while read -r names; do
		i=$((i + 1))
		m=$work/members/${names%% *}
		LC_ALL=C comm -23 "$work/closure.$i" "$work/shared" >"$work/keep"
		# shellcheck disable=SC2086 # names: a list of words
		member "$1" "$m" "$work/keep" $names
	done <"$work/member-lines"
	i=0
	while read -r section; do
		i=$((i + 1))
		printf '%s\n' "$section" >"$work/keep"
		# Its global symbols: those of the object cut to this section alone.
		"$aliases" keep "$1" "$work/alone.o" "$work/keep"
		roots=$("$NM" -g --defined-only "$work/alone.o" | awk 'NF == 3 { print $3 }')
		# shellcheck disable=SC2086
		member "$1" "$work/members/shared-$(printf '%04d' $i)" "$work/keep" $roots
	done <"$work/shared"
}

# member OBJECT OUT SECTIONS ROOT... (sh has no local variables: m_*): OBJECT with the global symbols of
# other sections undefined, cut down to what the roots reach, without the
# undefined symbols nothing refers to; nothing written if it defines nothing.
member() {
	m_object=$1 m_out=$2 m_sections=$3
	shift 3
	"$aliases" keep "$m_object" "$m_out.kept" "$m_sections"
	"$NM" -g --defined-only "$m_out.kept" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u >"$m_out.defs"
	undef=""
	for sym in "$@"; do
		if grep -qxF "$sym" "$m_out.defs"; then undef="$undef -u $sym"; fi
	done
	rm -f "$m_out.defs"
	# (A line whose functions all sit in shared sections has no member.)
	if [ -z "$undef" ]; then rm -f "$m_out.kept"; return; fi
	# shellcheck disable=SC2086
	"$LD" -r $RELINK_LDFLAGS --gc-sections $undef -o "$m_out.all" "$m_out.kept"
	# The undefined symbols no relocation names (objcopy's
	# --strip-unneeded-symbols leaves undefined ones).
	"$NM" -u "$m_out.all" | awk '{ print $2 }' | LC_ALL=C sort -u >"$m_out.undef"
	"$READELF" -rW "$m_out.all" | awk 'NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print $5 }' | LC_ALL=C sort -u |
		LC_ALL=C comm -23 "$m_out.undef" - >"$m_out.dead"
	"$OBJCOPY" --strip-symbols="$m_out.dead" "$m_out.all" "$m_out.o"
	rm -f "$m_out.kept" "$m_out.all" "$m_out.undef" "$m_out.dead"
	if [ -z "$("$NM" -g --defined-only "$m_out.o")" ]; then rm -f "$m_out.o"; fi
}
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
	rc=3
	if [ -n "$aliases" ]; then
		rc=0
		"$aliases" alias "$object" "$work/aliased.o" || rc=$?
	fi
	# One line per member: a group of MEMBER_GROUPS whose names are in SYMS,
	# or a name of SYMS in no group. Groups only where shared code is
	# copied: with shared members a group would only give a program the
	# other functions of its group for nothing.
	line_groups=$groups
	if [ "$rc" = 0 ]; then line_groups=""; fi
	awk -v groups="$line_groups" '
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
	case $rc in
	0) shared_members "$work/aliased.o" ;;
	3)
		[ -z "$aliases" ] || echo "split-archive: code shared by members is copied into each" >&2
		copied_members "$object"
		;;
	*) exit 1 ;;
	esac
	cat "$syms" >>"$work/all-syms"
done

rm -f "$out"
"$AR" rcs "$out" "$work"/members/*.o

# Each name of the SYMS defined by exactly one member, and nothing else.
"$NM" -g --defined-only "$out" | awk 'NF == 3 && $3 !~ /^__uring_rs_s\./ { print $3 }' | LC_ALL=C sort >"$work/defined"
LC_ALL=C sort "$work/all-syms" >"$work/want"
if ! cmp -s "$work/want" "$work/defined"; then
	echo "split-archive: $out does not define each of the names given once, and nothing more:" >&2
	diff "$work/want" "$work/defined" >&2 || true
	exit 1
fi
