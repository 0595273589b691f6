#!/bin/sh
# SPDX-License-Identifier: MIT
# clang as the C compiler for everything C in the tree, with liburing CI's
# clang warning set and -Werror:
#   - the library (src/ffi.c and, through it, every inline helper of the
#     headers) also with -Wshorten-64-to-32, as liburing CI builds its src/;
#   - every other C file (capi-tests, examples, bench, man/examples) compiled
#     against the staged headers, and the C++ sources with clang++;
#   - the capi-tests built with clang and those flags, and run.
#
#   sh tools/arch/clang/run.sh
#
# clang is installed with apt-get when missing. Builds and logs go to
# build/arch-clang. The last line is `N passed, N failed`.
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
out=$repo/build/arch-clang
start_all=$(date +%s)
passed=0
failed=0
# liburing 2.15's CI, clang job: FLAGS, and LIBURING_CFLAGS for src/.
flags="-g -O3 -Wall -Wextra -Werror -Wno-sign-compare -Wmissing-prototypes -Wstrict-prototypes
 -Wunreachable-code-loop-increment -Wunreachable-code -Wmissing-variable-declarations -Wextra-semi-stmt"
# One line: make recipes take it as a single variable.
flags=$(printf '%s' "$flags" | tr '\n' ' ')
lib_flags="-Wshorten-64-to-32"

step() { printf '== %s (%ss)\n' "$1" $(($(date +%s) - start_all)); }
finish() {
	echo "wall time $(($(date +%s) - start_all))s; logs in $out"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
# Runs a command as a counted check, showing its output only when it fails.
check() {
	name=$1
	shift
	log=$out/logs/$(echo "$name" | tr '/' '_').log
	if "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		head -n 30 "$log" | sed 's/^/    /'
		return 1
	fi
}

rm -rf "$out/logs"
mkdir -p "$out/logs"
cd "$repo"
if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
	step "installing clang"
	apt-get install -y -q --no-install-recommends clang >"$out/apt.log" 2>&1 ||
		{ tail -n 20 "$out/apt.log"; exit 1; }
fi
clang --version | head -n 1

step "the library with clang"
stage=$out/stage
rm -rf "$stage"
# shellcheck disable=SC2086
check library make --no-print-directory BUILD="$out/lib" CC=clang CPPFLAGS=-Werror \
	CFLAGS="$flags $lib_flags" lib ffi install DESTDIR="$stage" prefix=/usr || finish

step "every C file with clang"
inc="-I$stage/usr/include"
for src in $(git ls-files '*.c' | grep -v '^src/'); do
	# As each file's own build: the capi-tests scripts add -D_GNU_SOURCE;
	# the others (and the programs capi-tests/support/ builds at run time)
	# define it themselves where they need it.
	case $src in
	capi-tests/support/*) defs="" ;;
	capi-tests/*) defs="-D_GNU_SOURCE" ;;
	*) defs="" ;;
	esac
	# shellcheck disable=SC2086
	check "$src" clang $flags $defs $inc -I"$(dirname "$src")" -Icapi-tests -c -o /dev/null "$src" || true
done
for src in $(git ls-files '*.cpp' '*.cc'); do
	# shellcheck disable=SC2086
	check "$src" clang++ $flags $inc -c -o /dev/null "$src" || true
done
# The headers as C++ (liburing CI compiles a program with clang++).
printf '#include <liburing.h>\nint main(void) { struct io_uring r; return io_uring_queue_init(1, &r, 0) < 0; }\n' \
	>"$out/headers.cpp"
# shellcheck disable=SC2086
check headers-as-c++ clang++ $flags $inc -o "$out/headers-cpp" "$out/headers.cpp" \
	-L"$stage/usr/lib" -luring || true

step "capi-tests built with clang"
CC=clang CXX=clang++ CAPI_EXTRA_CFLAGS="$flags" CAPI_BUILD_DIR=$out/capi-tests \
	sh capi-tests/run.sh "$stage" >"$out/capi-tests.log" 2>&1 || true
grep -E ' (FAIL|SKIP) ' "$out/capi-tests.log" || true
counts=$(tail -n 1 "$out/capi-tests.log")
case $counts in
*" passed, "*" failed, "*" skipped")
	echo "capi-tests: $counts"
	# shellcheck disable=SC2086
	set -- $counts
	passed=$((passed + $1))
	failed=$((failed + $3))
	;;
*)
	failed=$((failed + 1))
	echo "FAIL capi-tests: no summary line"
	tail -n 20 "$out/capi-tests.log"
	;;
esac
finish
