#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the path of a Rust standard library source tree matching the
# installed rustc (Debian's rust-src of trixie-backports, 1.95), fetched once
# into $CACHE/rust-src with a private apt state, so cargo -Zbuild-std can
# build core for targets rustup cannot download here.
# Usage: rust-src.sh CACHE_DIR   (prints .../usr/src/rustc-<ver>/library)
set -eu
cache=$1/rust-src
want=$(rustc --version | awk '{print $2}')
lib=
for d in "$cache"/root/usr/src/rustc-"$want"*/library; do
	if [ -d "$d" ]; then lib=$d; break; fi
done
if [ -n "$lib" ] && [ -d "$lib/core" ]; then echo "$lib"; exit 0; fi

mkdir -p "$cache/root"
# The one downloader, on the mirror the machine already uses, with the suite
# that carries the toolchain's release.
fetch() {
	PYTHONPATH="$(dirname "$0")/../.." python3 -m pytools.upstream.aptfetch "$cache/apt" --suite trixie-backports \
		--arch amd64 --max-age 3600 "$@"
}
ver=$(fetch versions rust-src | awk -v w="$want" 'index($0, w "+") == 1 { print; exit }')
[ -n "$ver" ] || { echo "rust-src $want not found in trixie-backports" >&2; exit 1; }
fetch download "$cache/apt/archives" "rust-src=$ver" >&2
dpkg-deb -x "$cache"/apt/archives/rust-src_*.deb "$cache/root"
ls -d "$cache"/root/usr/src/rustc-"$want"*/library
