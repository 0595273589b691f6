#!/bin/sh
# SPDX-License-Identifier: MIT
# The library built for x86_64-unknown-linux-musl and the capi-tests built
# with musl-gcc against it, run natively (musl programs run on this kernel
# as they are).
#
#   sh tools/arch/musl/run.sh
#
# Needs musl-tools (installed with apt-get when missing) and Rust's core
# for the musl target, built with -Zbuild-std from Debian's rust-src of the
# installed rustc's release (fetched into .cache/arch-vm by rust-core.sh;
# rustup cannot download the target here). Builds and logs go to
# build/arch-musl. The last line is `N passed, N failed`.
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
out=$repo/build/arch-musl
target=x86_64-unknown-linux-musl
start_all=$(date +%s)
passed=0
failed=0

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
	if "$@" >"$out/$name.log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name (last lines of $out/$name.log)"
		tail -n 30 "$out/$name.log" | sed 's/^/    /'
		return 1
	fi
}

mkdir -p "$out"
cd "$repo"
if ! command -v musl-gcc >/dev/null; then
	step "installing musl-tools"
	apt-get install -y -q --no-install-recommends musl-tools >"$out/apt.log" 2>&1 ||
		{ tail -n 20 "$out/apt.log"; exit 1; }
fi

# musl-gcc sees only musl's headers; liburing.h also includes the kernel's
# (linux/, asm/), which musl leaves to the system as Alpine's linux-headers
# does: a wrapper adds the machine's kernel headers after musl's own.
kheaders=$out/kernel-headers
mkdir -p "$kheaders" "$out/bin"
ln -sfn /usr/include/linux "$kheaders/linux"
ln -sfn /usr/include/asm-generic "$kheaders/asm-generic"
ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$kheaders/asm"
musl_cc=$out/bin/musl-cc
printf '#!/bin/sh\nexec musl-gcc -idirafter %s "$@"\n' "$kheaders" >"$musl_cc"
chmod 755 "$musl_cc"

step "building the library for $target"
rust_lib=$(sh tools/arch/vm/rust-core.sh "$repo/.cache/arch-vm" 2>"$out/rust-src.log") ||
	{ cat "$out/rust-src.log"; exit 1; }
rust_lib=$(cd "$rust_lib" && pwd)
# musl's compiler also builds the boundary's C shims (build_detour.rs).
check rust-build env RUSTC_BOOTSTRAP=1 __CARGO_TESTS_ONLY_SRC_ROOT="$rust_lib" TARGET_CC="$musl_cc" \
	cargo build --release --quiet -p uring-rs -p uring-diag --lib --target $target -Zbuild-std=core || finish

lib_build=$out/lib
stage=$out/stage
mkdir -p "$lib_build"
# uring-info is a glibc host tool; the stage needs the libraries and headers.
touch "$lib_build/uring-info.none"
make_vars="CC=$musl_cc BUILD=$lib_build RUST_A=target/$target/release/liburing.a CARGO=true
 URING_INFO=$lib_build/uring-info.none install_uring_info=no"
rm -rf "$stage"
# shellcheck disable=SC2086
check relink make --no-print-directory $make_vars lib ffi install DESTDIR="$stage" prefix=/usr || finish

# Linked against musl's libc.so and nothing else, with musl's loader.
# shellcheck disable=SC2317 # called through `check`, below
needed_only_libc() {
	for so in "$stage/usr/lib/liburing.so.2" "$stage/usr/lib/liburing-ffi.so.2"; do
		readelf -d "$so" | awk '/NEEDED/ { print }' | tee /dev/stderr |
			grep -v 'Shared library: \[libc.so\]' && return 1
	done
	return 0
}
check needed-libc needed_only_libc || true

step "capi-tests with musl-gcc"
# The C++ header test needs a C++ standard library built for musl, which
# Debian does not ship: that test skips. The compat check
# runs Debian's glibc builds of liburing 2.3 programs, which says nothing
# about musl: left out.
# uring-info, a std Rust program, is not built for musl: Rust's musl std
# links libunwind.a and crt objects that come with rustup's target
# component, not with rust-src. Its test is left out, and so is
# diag-binary's, diag-kernel's and diag-exit-threads', whose traces uring-info
# records or decodes.
names="stage_layout $(printf '%s\n' capi-tests/*.c | sed 's|.*/||; s|\.c$||' | grep -vx -e uring-info -e diag-binary -e diag-kernel -e diag-exit-threads | tr '\n' ' ')"
echo "not run: uring-info, diag-binary, diag-kernel, diag-exit-threads (no musl build of the uring-info tool, which records and decodes their traces)"
# shellcheck disable=SC2086
CXX=no-musl-c++ CC=$musl_cc CAPI_NO_COMPAT=1 CAPI_BUILD_DIR=$out/capi-tests \
	sh capi-tests/run.sh "$stage" $names >"$out/capi-tests.log" 2>&1 || true
cat "$out/capi-tests.log"
counts=$(tail -n 1 "$out/capi-tests.log")
case $counts in
*" passed, "*" failed, "*" skipped")
	# shellcheck disable=SC2086 # the counts line, split into words on purpose
	set -- $counts
	passed=$((passed + $1))
	failed=$((failed + $3))
	;;
*)
	failed=$((failed + 1))
	echo "FAIL capi-tests: no summary line"
	;;
esac
finish
