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
lib=$(ls -d "$cache"/root/usr/src/rustc-"$want"*/library 2>/dev/null | head -n 1 || true)
if [ -n "$lib" ] && [ -d "$lib/core" ]; then echo "$lib"; exit 0; fi

mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/root"
# The mirror the machine already uses, with the suite that carries the
# toolchain's release.
uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie-backports main\n' \
	"$uri" > "$cache/apt/sources.list"
opts="-o Dir::Etc::SourceList=$cache/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
 -o Dir::State::Lists=$cache/apt/lists -o Dir::Cache::Archives=$cache/apt/archives
 -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Architecture=amd64"
# shellcheck disable=SC2086
apt-get $opts update >&2
# shellcheck disable=SC2086
ver=$(apt-cache $opts madison rust-src | awk -v w="$want" '$3 ~ "^"w"\\+" { print $3; exit }')
[ -n "$ver" ] || { echo "rust-src $want not found in trixie-backports" >&2; exit 1; }
# shellcheck disable=SC2086
(cd "$cache/apt/archives" && apt-get $opts download "rust-src=$ver" >&2)
dpkg-deb -x "$cache"/apt/archives/rust-src_*.deb "$cache/root"
ls -d "$cache"/root/usr/src/rustc-"$want"*/library
