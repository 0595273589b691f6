#!/bin/sh
# SPDX-License-Identifier: MIT
# i386, run natively on this x86_64 kernel: the library built for i686
# (Rust core from rust-src, Debian's i686 cross gcc), its symbols, liburing's
# own suite built -m32 in source and binary drop-in modes against upstream
# built the same way (0 regressions), and the capi-tests.
set -u
. "$(dirname "$0")/lib.sh"
cd "$ARCH_ROOT" || exit 1

need_packages gcc-i686-linux-gnu g++-i686-linux-gnu libc6-i386 lib32stdc++6 >"$ARCH_CACHE/logs/i386-packages.log" 2>&1 ||
	{ result FAIL i386-packages 0 "see $ARCH_CACHE/logs/i386-packages.log"; exit 1; }
rust_cross_env || { result FAIL i386-rust-src 0 "no Rust library source"; exit 1; }

build=$ARCH_CACHE/build-i386
stage=$build/stage
CC=i686-linux-gnu-gcc
CXX=i686-linux-gnu-g++
export CC CXX
set -- BUILD="$build" CARGO_TARGET_DIR="$ARCH_CACHE/target" RUST_TARGET=i686-unknown-linux-gnu \
	CARGO_BUILD_FLAGS=-Zbuild-std=core CROSS_COMPILE=i686-linux-gnu- CC=$CC CXX=$CXX

step i386-build make --no-print-directory stage "$@" || exit 1
step i386-symbols make --no-print-directory check-symbols "$@"

# Upstream's source from tools/upstream/upstream.py (fetched once). The
# reference mode (upstream on upstream) runs when the cache holds no results
# for this kernel, and is reused after.
src=${LIBURING_SRC:-$(python3 "$ARCH_ROOT"/tools/upstream/upstream.py source)}
suite_cache=$ARCH_CACHE/i386/liburing-tests
if [ "${CHECK_ARCH_SUITE:-full}" != none ]; then
	step i386-liburing-suite env ${src:+LIBURING_SRC="${src%/}"} \
		sh liburing-tests/run.sh --stage "$stage" --cache "$suite_cache" --no-bench \
		--modes source,binary
	if [ -f "$suite_cache/report.txt" ]; then
		sed -n '/^summary:/,$p' "$suite_cache/report.txt" | sed 's/^/    /'
	fi
fi

# diag-trace compares with upstream's build of the same architecture.
step i386-capi-tests env CAPI_UPSTREAM_USR="$suite_cache/stage-upstream/usr" \
	CAPI_BUILD_DIR="$ARCH_CACHE/i386/capi-tests" sh capi-tests/run.sh "$stage"
step i386-pkgconfig sh capi-tests/pkgconfig.sh "$stage"

# uring-info for i686 needs std built from source too (minutes on a busy
# machine the first time): CHECK_ARCH_URING_INFO=yes.
if [ "${CHECK_ARCH_URING_INFO:-no}" = yes ]; then
	step i386-uring-info sh -c '
		CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc cargo build --quiet --release \
			-p uring-info --target i686-unknown-linux-gnu -Zbuild-std=std,panic_abort \
			--target-dir "$1" && "$1/i686-unknown-linux-gnu/release/uring-info"' sh "$ARCH_CACHE/target-std"
fi
