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
mode=get
case $1 in --resolve | --versions | --missing)
	mode=${1#--}
	shift
	;;
esac
suite=$1
arch=$2
shift 2

state=$cache/apt/$suite-$arch
mkdir -p "$state/lists/partial" "$state/archives/partial" "$cache/root-$arch" "$cache/debs"
# The mirror comes from the machine's own apt configuration, never from here.
uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
printf 'deb [arch=%s signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
	"$arch" "$uri" "$suite" >"$state/sources.list"
: >"$state/status"
opts="-q -o Dir::Etc::SourceList=$state/sources.list -o Dir::Etc::SourceParts=/dev/null
 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
 -o Dir::State::Lists=$state/lists -o Dir::State::Status=$state/status
 -o Dir::Cache::Archives=$state/archives -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
 -o APT::Architecture=$arch -o APT::Architectures=$arch
 -o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o APT::Sandbox::User=root"
# One index download per suite and architecture a day is plenty.
if [ -z "$(find "$state/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	# shellcheck disable=SC2086
	apt-get $opts update >&2
fi

case $mode in
resolve)
	# shellcheck disable=SC2086
	apt-cache $opts depends "$1" | awk '/^  Depends:/ { print $2; exit }'
	exit 0
	;;
versions)
	# shellcheck disable=SC2086
	apt-cache $opts madison "$1" | awk '{ print $3 }'
	exit 0
	;;
missing)
	# What installing the packages would add to this machine, judged by its
	# real dpkg status (nothing is installed).
	# shellcheck disable=SC2086
	apt-get $opts -o Dir::State::Status=/var/lib/dpkg/status -s install --no-install-recommends "$@" |
		awk '/^Inst / { print $2 }'
	exit 0
	;;
esac

for pkg in "$@"; do
	name=${pkg%%=*}
	stamp=$cache/debs/$pkg.$arch.extracted
	[ -e "$stamp" ] && continue
	# shellcheck disable=SC2086
	(cd "$cache/debs" && apt-get $opts download "$pkg" >&2)
	deb=$(ls -t "$cache/debs/${name}"_*.deb | head -n 1)
	dpkg-deb -x "$deb" "$cache/root-$arch"
	echo "$deb" >"$stamp"
done
