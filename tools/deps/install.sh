#!/bin/sh
# SPDX-License-Identifier: MIT
# make deps: installs, with apt-get, the Debian package of every program of
# prerequisites.txt that is missing (nothing when all are there). The Rust
# toolchain is left to the user (see prerequisites.txt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
packages=
while read -r cmd pkg _; do
    case $cmd in '' | '#'*) continue ;; esac
    [ "$pkg" != - ] || continue
    command -v "$cmd" >/dev/null 2>&1 && continue
    case " $packages " in *" $pkg "*) ;; *) packages="$packages $pkg" ;; esac
done < "$here/prerequisites.txt"
if [ -z "$packages" ]; then
    echo "deps: every program of tools/deps/prerequisites.txt is installed"
    exit 0
fi
command -v apt-get >/dev/null 2>&1 || { echo "deps: no apt-get; install:$packages"; exit 1; }
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "deps: apt-get install$packages"
$sudo apt-get update -qq
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $packages >/dev/null
