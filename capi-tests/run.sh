#!/bin/sh
# SPDX-License-Identifier: MIT
# Build and run the C API tests against an installed liburing.
#
#   sh capi-tests/run.sh <stage-dir> [test-name ...]
#
# <stage-dir> holds usr/include (liburing.h) and usr/lib (liburing.so, .a).
# Every capi-tests/*.c is compiled with -Wall -Wextra -Werror against those
# headers, linked with -luring from <stage-dir>/usr/lib, and run with that
# directory first on LD_LIBRARY_PATH and a per-test timeout.  The old-binary
# compatibility check (compat/run.sh) runs as one more test.  Exit status of a
# test: 0 pass, 77 skip, anything else (or a timeout) fail; and a skip (of a
# test, or of a part: a "SKIP-PART <part>:" line) counts as a failure unless
# capi-tests/skips.tsv and the facts gathered before the run expect it, as
# does an expected skip that passed (see expected_skips below).
#
# Environment: CC (default cc), CAPI_TIMEOUT (seconds, default 180),
# CAPI_BUILD_DIR (where binaries and logs go; default a fresh /tmp dir),
# CAPI_NO_COMPAT=1 to leave out the compatibility check, CAPI_BUILD_ONLY=1 to
# compile the tests and run none (a machine that cannot run them, such as a
# cross build's, builds them for one that can; their names go to
# CAPI_BUILD_DIR/built.txt), CAPI_EXTRA_CFLAGS
# (added to every compile and link; `make` passes ./configure's sanitizers),
# CAPI_UPSTREAM_USR and CAPI_UPSTREAM_EXAMPLES (upstream liburing's installed
# usr/ and its examples' source, for diag-trace; by default asked of
# pytools/upstream/upstream.py, see below).

set -u

if [ $# -lt 1 ]; then
	echo "usage: sh $0 <stage-dir> [test-name ...]" >&2
	exit 2
fi
if [ ! -d "$1/usr/include" ] || [ ! -d "$1/usr/lib" ]; then
	echo "run.sh: $1 has no usr/include and usr/lib" >&2
	exit 2
fi
stage=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
timeout_s=${CAPI_TIMEOUT:-180}
out=${CAPI_BUILD_DIR:-}
if [ -z "$out" ]; then
	out=$(mktemp -d /tmp/capi-tests.XXXXXX)
fi
mkdir -p "$out"

CFLAGS="-O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$stage/usr/include -I$here ${CAPI_EXTRA_CFLAGS:-}"
LDFLAGS="-L$stage/usr/lib ${CAPI_EXTRA_CFLAGS:-}"
LIBS="-luring -lpthread -ldl"

# Exported for the tests that compile or inspect further programs.
CAPI_STAGE=$stage
CAPI_SRC=$here
CAPI_OUT=$out
export CAPI_STAGE CAPI_SRC CAPI_OUT CC
LD_LIBRARY_PATH="$stage/usr/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH

only=" $* "
selected() {
	[ "$only" = "  " ] && return 0
	case $only in *" $1 "*) return 0 ;; esac
	return 1
}

# Upstream liburing for diag-trace (upstream's io_uring-cp run on us): its
# install and its source's examples/, from the one provider, and only when an
# earlier step (make liburing-tests) has made them: `--cached` never fetches
# or builds (a build here would run with this caller's CC), and the test skips
# that case without them. A caller's CAPI_UPSTREAM_USR wins (tools/arch/i386.sh:
# upstream built for i386).
if selected diag-trace && command -v python3 >/dev/null 2>&1; then
	upstream() { PYTHONPATH="$here/.." python3 -m pytools.upstream.upstream --cached "$1" 2>/dev/null; }
	if [ -z "${CAPI_UPSTREAM_USR:-}" ] && up=$(upstream stage); then
		CAPI_UPSTREAM_USR=$up/usr
		export CAPI_UPSTREAM_USR
	fi
	if [ -z "${CAPI_UPSTREAM_EXAMPLES:-}" ] && up=$(upstream source); then
		CAPI_UPSTREAM_EXAMPLES=$up/examples
		export CAPI_UPSTREAM_EXAMPLES
	fi
fi

# The skips this machine should see, from facts gathered now, before any
# test runs: the kernel release against man/kernel-releases.tsv, and the
# environment facts capi-tests/skips.tsv lists. One "entry<TAB>why" line each.
expected="$out/expected-skips.txt"
kernel_rel=$(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
fact() { # 0 when environment fact $1 holds
	case $1 in
	root) [ "$(id -u)" = 0 ] ;;
	nobody) getent passwd nobody >/dev/null 2>&1 ;;
	cxx) command -v "${CXX:-c++}" >/dev/null 2>&1 ;;
	cc) command -v "$CC" >/dev/null 2>&1 ;;
	compat) command -v apt-get >/dev/null && command -v dpkg >/dev/null &&
		command -v python3 >/dev/null ;;
	uring-sysctl)
		[ -e /proc/sys/kernel/io_uring_disabled ] && [ -e /proc/sys/kernel/io_uring_group ] ;;
	policy-sysctl) [ "${CAPI_POLICY_SYSCTL:-}" = 1 ] ;;
	asan)
		# $CC builds and runs an empty -fsanitize=address program.
		echo 'int main(void) { return 0; }' |
			"$CC" -fsanitize=address -x c -o "$out/asan-fact" - >/dev/null 2>&1 &&
			"$out/asan-fact" >/dev/null 2>&1 ;;
	nofile-4096)
		# The hard limit, as this shell's children inherit it.
		n=$(awk '/^Max open files/ { print $5 }' /proc/self/limits)
		[ "$n" = unlimited ] || [ "${n:-0}" -ge 4096 ] ;;
	tracefs)
		[ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/events/io_uring ] &&
			[ -w /sys/kernel/tracing/instances ] ;;
	# A system call to learn: asked of support/env-facts.c, built below.
	memlock-charged | seccomp | mount-ns | loop) [ -x "$out/env-facts" ] && "$out/env-facts" "$1" ;;
	uring)
		d=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)
		[ "$d" = 0 ] || { [ "$d" = 1 ] && [ "$(id -u)" = 0 ]; } ;;
	iopoll)
		# The scratch directory's block device (none for tmpfs, overlayfs
		# and the like: major 0), then its whole disk's queue.
		t=${CAPI_TMPDIR:-${TMPDIR:-/tmp}}
		dev=$(stat -c '%d' "$t" 2>/dev/null) || return 1
		maj=$((dev >> 8 & 0xfff)) min=$(((dev & 0xff) | (dev >> 12 & 0xfff00)))
		[ "$maj" != 0 ] || return 1
		q=/sys/dev/block/$maj:$min/queue/io_poll
		[ -e "$q" ] || q=/sys/dev/block/$maj:$min/../queue/io_poll
		[ "$(cat "$q" 2>/dev/null)" = 1 ] ;;
	*) return 1 ;;
	esac
}
# The facts' probe program (libc only; see capi-tests/env-facts.h).
rm -f "$out/env-facts"
# shellcheck disable=SC2086 # CAPI_EXTRA_CFLAGS: several flags
$CC -O2 -Wall -Wextra -Werror -D_GNU_SOURCE ${CAPI_EXTRA_CFLAGS:-} -o "$out/env-facts" \
	"$here/support/env-facts.c" >"$out/env-facts.build.log" 2>&1 ||
	echo "run.sh: support/env-facts.c does not build (see $out/env-facts.build.log)" >&2
: >"$expected"
grep -v '^#' "$here/skips.tsv" | while IFS='	' read -r entry need; do
	[ -n "$entry" ] || continue
	case $need in
	env:*)
		fact "${need#env:}" || printf '%s\tenvironment lacks %s\n' "$entry" "$need" ;;
	*)
		rel=$(awk -F '\t' -v n="$need" '$1 == n { print $2; exit }' \
			"$here/../man/kernel-releases.tsv")
		case $rel in
		[0-9]*.[0-9]*) ;;
		*)
			echo "run.sh: skips.tsv names $need, which has no release in man/kernel-releases.tsv" >&2
			exit 2 ;;
		esac
		# shellcheck disable=SC2086 # two numbers, split on purpose
		if ! awk -v r="$rel" -v k="$kernel_rel" 'BEGIN { split(r, a, "."); split(k, b, " ");
			exit !(b[1] * 1000 + b[2] >= a[1] * 1000 + a[2]) }'; then
			printf '%s\tkernel %s is older than %s (%s)\n' "$entry" \
				"$(echo $kernel_rel | tr ' ' .)" "$need" "$rel"
		fi ;;
	esac
done >>"$expected" || exit 2
expect_skip() { # prints why entry $1 is expected to skip; false when it is not
	awk -F '\t' -v e="$1" '$1 == e { print $2; found = 1; exit } END { exit !found }' "$expected"
}

passed=0
failed=0
skipped=0
failed_names=""
summary="$out/summary.txt"
: >"$summary"

row() { # name result seconds note
	printf '%-28s %-5s %6s  %s\n' "$1" "$2" "$3" "$4" | tee -a "$summary"
}

# A passing test's part skips ("SKIP-PART <part>: ..." lines) against the
# expected ones: an unexpected part skip, or an expected one that did not
# happen, fails the test (the rows name the parts).
parts_ok() { # name log secs
	ok=0
	seen=$(sed -n 's/^SKIP-PART \([^:]*\):.*/\1/p' "$2" | sort -u | tr '\n' ' ')
	for part in $seen; do
		if [ -z "$(expect_skip "$1/$part")" ]; then
			row "$1" FAIL "$3" "unexpected $(grep -m1 "^SKIP-PART $part:" "$2" | cut -c1-100)"
			ok=1
		fi
	done
	for entry in $(awk -F '\t' -v t="$1/" 'index($1, t) == 1 { print $1 }' "$expected" | sort -u | tr '\n' ' '); do
		part=${entry#"$1"/}
		case " $seen " in
		*" $part "*) row "$1/$part" SKIP "$3" "expected: $(expect_skip "$entry")" ;;
		*)
			row "$1" FAIL "$3" "part $part ran, but a skip was expected ($(expect_skip "$entry"))"
			ok=1 ;;
		esac
	done
	return $ok
}

# Run one already-built command as test $1; the rest is the command.
run_test() {
	name=$1
	shift
	log="$out/$name.log"
	start=$(date +%s.%N)
	timeout -k 5 "$timeout_s" "$@" >"$log" 2>&1 </dev/null
	rc=$?
	end=$(date +%s.%N)
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	why=$(expect_skip "$name")
	case $rc in
	0)
		if [ -n "$why" ]; then
			failed=$((failed + 1))
			failed_names="$failed_names $name"
			row "$name" FAIL "$secs" "passed, but a skip was expected ($why): skips.tsv or check.h's probe is wrong"
		elif ! parts_ok "$name" "$log" "$secs"; then
			failed=$((failed + 1))
			failed_names="$failed_names $name"
		else
			passed=$((passed + 1))
			row "$name" PASS "$secs" ""
		fi
		;;
	77)
		if [ -n "$why" ]; then
			skipped=$((skipped + 1))
			row "$name" SKIP "$secs" "$(grep -m1 '^SKIP' "$log" | cut -c1-100)"
		else
			failed=$((failed + 1))
			failed_names="$failed_names $name"
			row "$name" FAIL "$secs" "unexpected $(grep -m1 '^SKIP' "$log" | cut -c1-100)"
		fi
		;;
	124 | 137)
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		row "$name" FAIL "$secs" "timeout after ${timeout_s}s"
		;;
	*)
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		row "$name" FAIL "$secs" "exit $rc"
		;;
	esac
}

printf '%-28s %-5s %6s  %s\n' TEST RESULT SECS NOTE
printf '%s\n' "stage: $stage   logs: $out"
printf 'expected skips (%s):%s\n' "$expected" "$(cut -f1 "$expected" | sort -u | tr '\n' ' ' | sed 's/^/ /')"

# The staged layout itself: headers, liburing.so.2, liburing.a, and a
# development symlink liburing.so that resolves inside the stage.  When that
# symlink is broken, -luring would silently pick liburing.a (or a system
# copy): the row fails, and the tests link liburing.so.2 by name instead, so
# that they still exercise the shared library.
layout_log="$out/stage_layout.log"
: >"$layout_log"
layout_ok=1
for f in usr/include/liburing.h usr/include/liburing/io_uring.h usr/lib/liburing.so.2 usr/lib/liburing.a; do
	if [ ! -e "$stage/$f" ]; then
		echo "missing $stage/$f" >>"$layout_log"
		layout_ok=0
	fi
done
dev_so="$stage/usr/lib/liburing.so"
dev_real=$(readlink -f "$dev_so" 2>/dev/null || true)
stage_lib_real=$(readlink -f "$stage/usr/lib")
if [ ! -e "$dev_so" ]; then
	echo "$dev_so is missing or dangling (-> $(readlink "$dev_so" 2>/dev/null))" >>"$layout_log"
	layout_ok=0
	LIBS="-l:liburing.so.2 -lpthread -ldl"
elif [ "${dev_real#"$stage_lib_real"/}" = "$dev_real" ]; then
	echo "$dev_so resolves outside the stage: $dev_real" >>"$layout_log"
	layout_ok=0
	LIBS="-l:liburing.so.2 -lpthread -ldl"
fi
CAPI_LINK_URING=${LIBS%% *}
export CAPI_LINK_URING
if selected stage_layout; then
	if [ $layout_ok = 1 ]; then
		passed=$((passed + 1))
		row stage_layout PASS 0 ""
	else
		failed=$((failed + 1))
		failed_names="$failed_names stage_layout"
		row stage_layout FAIL 0 "$(head -n 1 "$layout_log" | cut -c1-100)"
	fi
fi

rm -f "$out/built.txt"
for src in "$here"/*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	selected "$name" || continue
	bin="$out/$name"
	# shellcheck disable=SC2086
	if ! $CC $CFLAGS -o "$bin" "$src" $LDFLAGS $LIBS >"$out/$name.build.log" 2>&1; then
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		row "$name" FAIL "-" "does not compile (see $out/$name.build.log)"
		sed 's/^/    /' "$out/$name.build.log" | head -30
		continue
	fi
	if [ "${CAPI_BUILD_ONLY:-0}" = 1 ]; then
		echo "$name" >>"$out/built.txt"
		continue
	fi
	run_test "$name" "$bin"
done
if [ "${CAPI_BUILD_ONLY:-0}" = 1 ]; then
	echo "built $(wc -l <"$out/built.txt") tests in $out; $failed failed to compile"
	[ "$failed" -eq 0 ]
	exit
fi

if [ "${CAPI_NO_COMPAT:-0}" != 1 ] && selected compat; then
	run_test compat sh "$here/compat/run.sh" "$stage"
fi

for name in $failed_names; do
	[ -s "$out/$name.log" ] || continue
	echo
	echo "---- $name (last lines of $out/$name.log)"
	tail -n 25 "$out/$name.log" 2>/dev/null | sed 's/^/    /'
done

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
