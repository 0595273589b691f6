#!/bin/sh
# SPDX-License-Identifier: MIT
# pkgconfig.sh <destdir-tree>
#
# Proves the installed pkg-config files are usable: for liburing and for
# liburing-ffi, a program is compiled and linked with nothing but
# `pkg-config --cflags --libs <pkg>` (run against the tree through
# PKG_CONFIG_LIBDIR + PKG_CONFIG_SYSROOT_DIR, the way a cross/DESTDIR build
# does it), then checked and run:
#   - pkg-config knows the package and its version equals the header's;
#   - the program is linked dynamically against the tree's library
#     (NEEDED liburing.so.2 resp. liburing-ffi.so.2; a static fallback or a
#     library from outside the tree is a failure) with versioned references;
#   - it runs: sets up a ring, NOP round trip, the library it got at run time
#     lives in the tree and reports the header's version;
#   - the liburing-ffi program also calls inline helpers of liburing.h
#     (io_uring_get_sqe is real in both; io_uring_prep_nop, io_uring_cqe_seen,
#     io_uring_cq_ready are reached through their exported FFI symbols).
#
# <destdir-tree> is what `make install DESTDIR=<dir>` (or `make stage`,
# build/stage) produced: <dir>/usr/include, <dir>/usr/lib/pkgconfig, ...
# Exit: 0 pass, 77 skip (no pkg-config / no .pc files), 1 fail.
# Environment: CC (default cc).
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: sh $0 <destdir-tree>" >&2
	exit 2
fi
tree=$(cd "$1" && pwd)
CC=${CC:-cc}

if ! command -v pkg-config >/dev/null 2>&1; then
	echo "SKIP: pkg-config is not installed"
	exit 77
fi
pc=$(find -L "$tree" -maxdepth 6 -name liburing.pc -path '*/pkgconfig/*' 2>/dev/null | head -n 1)
if [ -z "$pc" ]; then
	echo "SKIP: no liburing.pc under $tree"
	exit 77
fi
pcdir=$(dirname "$pc")

# Only the tree's .pc files, with paths rebased into the tree.
PKG_CONFIG_LIBDIR=$pcdir
PKG_CONFIG_PATH=
PKG_CONFIG_SYSROOT_DIR=$tree
export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
echo "tree: $tree   pc dir: $pcdir   ($(pkg-config --version 2>/dev/null))"

tmp=$(mktemp -d /tmp/pkgconfig-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

cat >"$tmp/prog.c" <<'EOF'
/* Built by capi-tests/pkgconfig.sh with pkg-config flags only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <liburing.h>

#ifdef VIA_FFI_SYMBOLS
/* Bind to the out-of-line copies that only liburing-ffi exports. */
extern void ffi_prep_nop(struct io_uring_sqe *) __asm__("io_uring_prep_nop");
extern void ffi_cqe_seen(struct io_uring *, struct io_uring_cqe *) __asm__("io_uring_cqe_seen");
extern unsigned ffi_cq_ready(const struct io_uring *) __asm__("io_uring_cq_ready");
#define PREP_NOP ffi_prep_nop
#define CQE_SEEN ffi_cqe_seen
#define CQ_READY ffi_cq_ready
#else
#define PREP_NOP io_uring_prep_nop
#define CQE_SEEN io_uring_cqe_seen
#define CQ_READY io_uring_cq_ready
#endif

static int bad(const char *what, int v)
{
	fprintf(stderr, "prog: %s (%d)\n", what, v);
	return 1;
}

int main(int argc, char **argv)
{
	char want[PATH_MAX], got[PATH_MAX];
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	Dl_info info;
	char *slash;
	int ret;

	if (argc != 2 || !realpath(argv[1], want))
		return bad("usage: prog <expected-libdir>", argc);
	if (!dladdr((void *) io_uring_queue_init, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, got))
		return bad("dladdr(io_uring_queue_init) failed", 0);
	slash = strrchr(got, '/');
	*slash = '\0';
	printf("prog: io_uring_queue_init from %s/%s\n", got, slash + 1);
	if (strcmp(got, want) != 0)
		return bad("library does not come from the installed tree", 0);
	if (io_uring_major_version() != IO_URING_VERSION_MAJOR ||
	    io_uring_minor_version() != IO_URING_VERSION_MINOR)
		return bad("library version differs from the header", io_uring_minor_version());

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		return bad("io_uring_queue_init", ret);
	sqe = io_uring_get_sqe(&ring);
	if (!sqe)
		return bad("io_uring_get_sqe returned NULL", 0);
	PREP_NOP(sqe);
	io_uring_sqe_set_data64(sqe, 77);
	ret = io_uring_submit(&ring);
	if (ret != 1)
		return bad("io_uring_submit", ret);
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (ret < 0)
		return bad("io_uring_wait_cqe", ret);
	if (cqe->res != 0 || cqe->user_data != 77)
		return bad("unexpected NOP completion", cqe->res);
	CQE_SEEN(&ring, cqe);
	if (CQ_READY(&ring) != 0)
		return bad("CQE left after io_uring_cqe_seen", (int) CQ_READY(&ring));
	io_uring_queue_exit(&ring);
	printf("prog: NOP round trip ok, version %d.%d\n",
	       io_uring_major_version(), io_uring_minor_version());
	return 0;
}
EOF

# The version the installed header announces.
hdr_version() {
	vh=$(find -L "$tree" -maxdepth 6 -name io_uring_version.h -path '*/liburing/*' | head -n 1)
	[ -n "$vh" ] || return 1
	maj=$(sed -n 's/^#define IO_URING_VERSION_MAJOR[ \t]*\([0-9]*\).*/\1/p' "$vh")
	min=$(sed -n 's/^#define IO_URING_VERSION_MINOR[ \t]*\([0-9]*\).*/\1/p' "$vh")
	echo "$maj.$min"
}
want_version=$(hdr_version)

check_pkg() { # pkg soname extra-cflags
	pkg=$1 soname=$2 extra=$3
	echo "== $pkg"
	if ! pkg-config --exists "$pkg"; then
		fail "pkg-config does not know $pkg in $pcdir"
		return
	fi
	ver=$(pkg-config --modversion "$pkg")
	[ "$ver" = "$want_version" ] || fail "$pkg: pkg-config version '$ver', header says '$want_version'"
	cflags=$(pkg-config --cflags "$pkg") || { fail "pkg-config --cflags $pkg"; return; }
	libs=$(pkg-config --libs "$pkg") || { fail "pkg-config --libs $pkg"; return; }
	echo "cflags: $cflags"
	echo "libs:   $libs"
	libdir=
	for f in $libs; do
		case $f in
		-L*)
			d=${f#-L}
			case $d in
			"$tree"/*) libdir=$d ;;
			*) fail "$pkg: -L$d lies outside the tree" ;;
			esac
			;;
		esac
	done
	if [ -z "$libdir" ]; then
		fail "$pkg: no -L into the tree in '$libs'"
		return
	fi
	bin="$tmp/prog-$pkg"
	# shellcheck disable=SC2086
	if ! $CC -O2 -Wall -Wextra -Werror $extra $cflags -o "$bin" "$tmp/prog.c" $libs \
		>"$tmp/$pkg.build.log" 2>&1; then
		fail "$pkg: program does not build with pkg-config's flags:"
		sed 's/^/    /' "$tmp/$pkg.build.log" | head -20
		return
	fi
	needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	echo "NEEDED: $needed"
	case " $needed " in
	*" $soname "*) ;;
	*)
		dev=${soname%.2}
		# shellcheck disable=SC2012 # ls -l shows where the symlink points, for the message only
		fail "$pkg: program is not linked against $soname; the linker fell back to the static archive ($dev in $libdir: $(ls -l "$libdir/$dev" 2>&1 | sed 's/.* \([^ ]* -> [^ ]*\)$/\1/'))"
		return
		;;
	esac
	refs=$(nm -D --undefined-only --with-symbol-versions "$bin" | awk '/io_uring_/ { print $NF }')
	echo "references: $(echo "$refs" | tr '\n' ' ')"
	if [ -z "$refs" ]; then
		fail "$pkg: program has no dynamic io_uring references"
	elif echo "$refs" | grep -v -q '@LIBURING_'; then
		fail "$pkg: unversioned io_uring references: $(echo "$refs" | grep -v '@LIBURING_' | tr '\n' ' ')"
	fi
	if ! LD_LIBRARY_PATH="$libdir" "$bin" "$libdir"; then
		fail "$pkg: program failed at run time"
	fi
}

check_pkg liburing liburing.so.2 ""
if [ -e "$pcdir/liburing-ffi.pc" ]; then
	check_pkg liburing-ffi liburing-ffi.so.2 "-DVIA_FFI_SYMBOLS"
else
	fail "no liburing-ffi.pc in $pcdir"
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "PASS: liburing and liburing-ffi link and run via pkg-config"
exit 0
