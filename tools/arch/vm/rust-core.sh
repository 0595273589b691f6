#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the Rust standard library source tree (its library/ directory) of
# the same release as the installed rustc, from Debian's rust-src package,
# so that cargo -Zbuild-std can build core for targets rustup has no copy of
# here. The package is fetched once into CACHE (see debs.sh).
#
#   rust-core.sh CACHE
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=$1
release=$(rustc --version | awk '{ print $2 }')
lib=$(ls -d "$cache"/root-amd64/usr/src/rustc-"$release"/library 2>/dev/null || true)
if [ -z "$lib" ]; then
	# The suite keeps several releases; only the matching one builds.
	version=$(sh "$here/debs.sh" "$cache" --versions trixie-backports amd64 rust-src |
		awk -v r="$release" 'index($0, r "+") == 1 { print; exit }')
	if [ -z "$version" ]; then
		echo "rust-core.sh: no rust-src $release in trixie-backports" >&2
		exit 1
	fi
	sh "$here/debs.sh" "$cache" trixie-backports amd64 "rust-src=$version"
	lib=$cache/root-amd64/usr/src/rustc-$release/library
fi
[ -d "$lib/core" ] || { echo "rust-core.sh: $lib has no core" >&2; exit 1; }
echo "$lib"
