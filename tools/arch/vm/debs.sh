#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetches Debian packages for the cross and VM runs into a cache, without
# installing anything: a private apt state (lists, archives) under CACHE/apt
# reading the mirror this machine already uses, then `dpkg-deb -x` of each
# package into CACHE/root-ARCH. A package already extracted is not fetched again.
#
#   debs.sh CACHE SUITE ARCH PKG[=VERSION]...   e.g. debs.sh .cache/arch-vm sid arm64 busybox-static
#   debs.sh CACHE --resolve SUITE ARCH PKG   prints the package PKG depends on
#                                            (a kernel metapackage's image)
#   debs.sh CACHE --versions SUITE ARCH PKG  prints the versions the suite has
#   debs.sh CACHE --missing SUITE ARCH PKG...  prints what installing them
#                                              would add to this machine
set -eu
mkdir -p "$1"
# apt resolves relative Dir:: paths against its own directories.
cache=$(cd "$1" && pwd)
shift
mode='get'
case $1 in --resolve | --versions | --missing)
	mode=${1#--}
	shift
	;;
esac
suite=$1
arch=$2
shift 2

mkdir -p "$cache/root-$arch" "$cache/debs"
# The one downloader (its private apt state under CACHE/apt/SUITE-ARCH; the
# mirror comes from the machine's own apt configuration, never from here).
# One index download per suite and architecture a day is plenty.
fetch() {
	PYTHONPATH="$(dirname "$0")/../../.." python3 -m pytools.upstream.aptfetch "$cache/apt/$suite-$arch" --suite "$suite" \
		--arch "$arch" --max-age 86400 "$@"
}

case $mode in
resolve | versions)
	[ "$mode" = resolve ] && mode=depends
	fetch "$mode" "$1"
	exit 0
	;;
missing)
	# What installing the packages would add to this machine, judged by its
	# real dpkg status (nothing is installed).
	fetch missing "$@"
	exit 0
	;;
esac

for pkg in "$@"; do
	name=${pkg%%=*}
	stamp=$cache/debs/$pkg.$arch.extracted
	[ -e "$stamp" ] && continue
	fetch download "$cache/debs" "$pkg" >&2
	# shellcheck disable=SC2012 # the newest by time; Debian file names have no spaces
	deb=$(ls -t "$cache/debs/${name}"_*.deb | head -n 1)
	dpkg-deb -x "$deb" "$cache/root-$arch"
	echo "$deb" >"$stamp"
done
