#!/bin/sh
# SPDX-License-Identifier: MIT
# Compile, link and symbol check on architectures this machine cannot run
# io_uring for: the library built with Rust core for the target and Debian
# 12's cross gcc and binutils, its two shared objects checked for exactly
# liburing's versioned symbols, SONAME and only libc needed, no Rust panic
# path, and every capi-test compiled (-Werror) and linked against it.
#   CHECK_ARCH_CROSS  Debian architectures (default: all below)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ARCH_ROOT" || exit 1
rust_cross_env || { result FAIL cross-rust-src 0 "no Rust library source"; exit 1; }
# A cargo target directory of its own: the i386 family builds beside this one.
target_dir=$ARCH_CACHE/target-cross

# Debian architecture -> Rust target, GNU triplet of the cross tools.
target_of() {
	case $1 in
	armhf) echo "armv7-unknown-linux-gnueabihf arm-linux-gnueabihf" ;;
	armel) echo "armv5te-unknown-linux-gnueabi arm-linux-gnueabi" ;;
	riscv64) echo "riscv64gc-unknown-linux-gnu riscv64-linux-gnu" ;;
	ppc64el) echo "powerpc64le-unknown-linux-gnu powerpc64le-linux-gnu" ;;
	s390x) echo "s390x-unknown-linux-gnu s390x-linux-gnu" ;;
	mips64el) echo "mips64el-unknown-linux-gnuabi64 mips64el-linux-gnuabi64" ;;
	loong64) echo "loongarch64-unknown-linux-gnu loongarch64-linux-gnu" ;;
	*) return 1 ;;
	esac
}

# Every capi-test compiled for the target with the flags capi-tests/run.sh
# uses, and linked against the cross-built liburing.so.
capi_compile() { # triplet build-dir
	out=$2/capi-tests
	mkdir -p "$out"
	# Two at a time, one line per program: "ok NAME" or "FAIL NAME".
	# shellcheck disable=SC2016 # expanded by the inner sh, from its arguments
	printf '%s\n' capi-tests/*.c | xargs -P 2 -I{} sh -c '
		t=$(basename "$1" .c)
		if "$2-gcc" -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -Icapi-tests \
			-o "$3/$t" "$1" -L"$4" -Wl,-rpath-link,"$4" -luring -lpthread -ldl 2>"$3/$t.log"
		then echo "ok $t"; else echo "FAIL $t"; cat "$3/$t.log"; fi' sh {} "$1" "$out" "$2" >"$out/results.txt"
	cat "$out/results.txt"
	n=$(grep -c '^ok ' "$out/results.txt")
	bad=$(grep -c '^FAIL ' "$out/results.txt")
	echo "$n passed, $bad failed"
	[ "$bad" -eq 0 ]
}

symbols() { # triplet build-dir
	if "$1-nm" "$2/liburing.o" | grep -q panicking; then
		echo "FAIL: liburing.o contains a Rust panic path"
		return 1
	fi
	NM=$1-nm sh capi-tests/check-symbols.sh "$2/liburing.so.2.15" src/liburing.map liburing.so.2 &&
		NM=$1-nm sh capi-tests/check-symbols.sh "$2/liburing-ffi.so.2.15" src/liburing-ffi.map liburing-ffi.so.2
}

for arch in ${CHECK_ARCH_CROSS:-armhf armel riscv64 ppc64el s390x mips64el loong64}; do
	# shellcheck disable=SC2046 # target_of prints words, one per positional parameter
	set -- $(target_of "$arch") || { result FAIL "$arch" 0 "unknown architecture"; continue; }
	rust=$1 triplet=$2
	build=$ARCH_CACHE/build-$arch
	if [ "$arch" = loong64 ]; then
		# Debian 12 has no loong64 cross gcc or binutils (sid's need a newer
		# glibc than this machine's): the Rust library is compiled only.
		step "$arch-compile" cargo build --release --quiet -p uring-rs -p uring-diag --lib \
			--target "$rust" -Zbuild-std=core --target-dir "$target_dir"
		continue
	fi
	need_packages "gcc-$triplet" >"$ARCH_CACHE/logs/$arch-packages.log" 2>&1 ||
		{ result FAIL "$arch-packages" 0 "see $ARCH_CACHE/logs/$arch-packages.log"; continue; }
	localize=yes
	[ "$arch" != mips64el ] || localize=no
	step "$arch-build" make --no-print-directory lib ffi BUILD="$build" RELINK_LOCALIZE=$localize \
		CARGO_TARGET_DIR="$target_dir" RUST_TARGET="$rust" \
		CARGO_BUILD_FLAGS=-Zbuild-std=core CROSS_COMPILE="$triplet-" CC="$triplet-gcc" || continue
	step "$arch-symbols" symbols "$triplet" "$build"
	step "$arch-capi-compile" capi_compile "$triplet" "$build"
done
