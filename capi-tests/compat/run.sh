#!/bin/sh
# SPDX-License-Identifier: MIT
# Old-binary compatibility check (a test of capi-tests/run.sh).
#
#   sh capi-tests/compat/run.sh <stage-dir>
#
# Fetches Debian bookworm's liburing-dev and liburing2 2.3 packages (for the
# architecture CC builds for) with pytools/upstream/aptfetch.py into
# <repo>/.cache/compat, or .cache/compat-<arch> for a foreign one (kept between
# runs, the private apt state in its apt/; override with CAPI_COMPAT_CACHE;
# apt's output goes to compat-apt.log), unpacks them with dpkg -x, builds compat/prog.c
# against THOSE 2.3 headers linked to their liburing.so.2, and runs it:
#   control: with the 2.3 library itself (validates the program),
#   (a) with <stage>/usr/lib first on LD_LIBRARY_PATH,
#   (b) with <stage>/usr/lib/liburing.so.2 in LD_PRELOAD (no LD_LIBRARY_PATH).
# The program checks that the library it got is the one expected.
# Exit: 0 pass, 77 skip (packages unavailable), 1 fail.

set -u
if [ $# -ne 1 ] || [ ! -d "$1/usr/lib" ]; then
	echo "usage: sh $0 <stage-dir>" >&2
	exit 2
fi
stage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${CAPI_OUT:-}
[ -n "$out" ] || out=$(mktemp -d /tmp/capi-compat.XXXXXX)
mkdir -p "$out"
CC=${CC:-cc}
# The Debian architecture the compiler builds for (i686-linux-gnu-gcc or
# gcc -m32: i386); the packages are fetched for it.
native=$(dpkg --print-architecture 2>/dev/null || echo unknown)
case $($CC -dumpmachine 2>/dev/null) in
i?86-*) arch=i386 ;;
x86_64-*) case " ${CC} ${CFLAGS:-} " in *" -m32 "*) arch=i386 ;; *) arch=amd64 ;; esac ;;
aarch64-*) arch=arm64 ;;
arm*-*gnueabihf) arch=armhf ;;
arm*-*gnueabi) arch=armel ;;
riscv64-*) arch=riscv64 ;;
powerpc64le-*) arch=ppc64el ;;
s390x-*) arch=s390x ;;
*) arch=$native ;;
esac
if [ "$arch" = "$native" ]; then
	cache=${CAPI_COMPAT_CACHE:-$root/.cache/compat}
else
	cache=${CAPI_COMPAT_CACHE:-$root/.cache/compat-$arch}
fi
# The Debian release whose liburing is 2.3, fetched with the tree's one
# downloader: apt with a private state in $cache/apt (this machine's mirror),
# so the system's own apt configuration and lists play no part.
suite=bookworm
apt_log=$out/compat-apt.log
aptfetch() {
	PYTHONPATH="$root" python3 -m pytools.upstream.aptfetch "$cache/apt" --suite "$suite" --arch "$arch" "$@" \
		2>>"$apt_log"
}

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

find_libdir() {
	f=$(find "$cache/root/usr/lib" -name liburing.so.2 2>/dev/null | head -n 1)
	[ -n "$f" ] && dirname "$f"
}

if [ ! -f "$cache/root/usr/include/liburing.h" ] || [ -z "$(find_libdir)" ]; then
	command -v apt-get >/dev/null 2>&1 || skip "no apt-get to fetch liburing 2.3"
	command -v dpkg >/dev/null 2>&1 || skip "no dpkg to unpack liburing 2.3"
	command -v python3 >/dev/null 2>&1 || skip "no python3 to run pytools/upstream/aptfetch.py"
	pick_version() {
		aptfetch versions liburing2 | awk '/^2\.3/ { print; exit }'
	}
	# The lists are fetched when $cache/apt has none; once more if 2.3 is missing.
	ver=$(pick_version)
	if [ -z "$ver" ] && aptfetch update; then
		ver=$(pick_version)
	fi
	[ -n "$ver" ] || skip "apt knows no liburing2 2.3 package for $arch in $suite (see $apt_log)"
	echo "fetching liburing-dev and liburing2 $ver ($arch) into $cache"
	rm -rf "$cache/debs" "$cache/root"
	aptfetch download "$cache/debs" "liburing-dev=$ver" "liburing2=$ver" ||
		skip "apt-get download of liburing $ver failed (see $apt_log)"
	for deb in "$cache"/debs/*.deb; do
		dpkg -x "$deb" "$cache/root" || fail "dpkg -x $deb"
	done
fi
old_inc=$cache/root/usr/include
old_lib=$(find_libdir)
[ -n "$old_lib" ] || fail "no liburing.so.2 in $cache/root"

prog=$out/compat-prog
echo "+ build against $old_inc, link $old_lib/liburing.so.2"
$CC -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$old_inc" -o "$prog" "$here/prog.c" \
	-L"$old_lib" -luring -ldl || fail "cannot build the 2.3 program"
readelf -d "$prog" | grep -q 'NEEDED.*\[liburing\.so\.2\]' || fail "program does not need liburing.so.2"

ours=$stage/usr/lib/liburing.so.2
[ -e "$ours" ] || fail "$ours missing"
status=0

echo "+ control: 2.3 program on the 2.3 library"
if ! env LD_LIBRARY_PATH="$old_lib" COMPAT_EXPECT_DIR="$old_lib" "$prog"; then
	fail "the program does not even work with the 2.3 library it was built for"
fi

echo "+ (a) LD_LIBRARY_PATH=$stage/usr/lib"
if ! env LD_LIBRARY_PATH="$stage/usr/lib" COMPAT_EXPECT_DIR="$stage/usr/lib" "$prog"; then
	echo "FAIL: (a) 2.3 binary with the library under test first on LD_LIBRARY_PATH"
	status=1
fi

echo "+ (b) LD_PRELOAD=$ours"
if ! env -u LD_LIBRARY_PATH LD_PRELOAD="$ours" COMPAT_EXPECT_DIR="$stage/usr/lib" "$prog"; then
	echo "FAIL: (b) 2.3 binary with the library under test in LD_PRELOAD"
	status=1
fi
exit $status
