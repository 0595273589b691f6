#!/bin/sh
# SPDX-License-Identifier: MIT
# The first step of `make test`: every program of prerequisites.txt is there,
# and rustc is new enough, or the run stops now instead of failing a stage
# twenty minutes in. Exit 1 with the missing programs and their packages.
#
#   check.sh [--install]
#
# With --install (what `make test` passes), missing Debian packages are
# installed first when that can be done without asking: as root, with
# apt-get (install.sh, which says what it installs). Otherwise the message
# names the one command to run. The Rust toolchain is never installed here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --install ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 &&
        ! sh "$here/check.sh" >/dev/null 2>&1; then
        sh "$here/install.sh" || true
    fi
    exec sh "$here/check.sh"
fi
missing=
packages=
while read -r cmd pkg _; do
    case $cmd in '' | '#'*) continue ;; esac
    command -v "$cmd" >/dev/null 2>&1 && continue
    missing="$missing $cmd"
    [ "$pkg" = - ] || case " $packages " in *" $pkg "*) ;; *) packages="$packages $pkg" ;; esac
done < "$here/prerequisites.txt"

msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$here/../../Cargo.toml")
rustc_bin=${RUSTC:-rustc}
old=
if command -v "$rustc_bin" >/dev/null 2>&1; then
    have=$("$rustc_bin" --version | cut -d' ' -f2)
    # sort -V puts the older first: anything but the MSRV first is too old.
    if [ "$(printf '%s\n%s\n' "$msrv" "$have" | sort -V | head -n 1)" != "$msrv" ]; then
        old="$rustc_bin $have is older than rust-version $msrv"
    fi
fi

if [ -n "$missing" ] || [ -n "$old" ]; then
    [ -z "$missing" ] || echo "prerequisites: missing:$missing (tools/deps/prerequisites.txt)"
    if [ -n "$packages" ]; then
        if [ "$(id -u)" = 0 ]; then
            echo "prerequisites: run 'make deps' (apt-get install$packages)"
        else
            echo "prerequisites: run 'sudo make deps' (apt-get install$packages)"
        fi
    fi
    [ -z "$old" ] || echo "prerequisites: $old"
    case $missing in *cargo* | *rustc*) old=x ;; esac
    [ -z "$old" ] || echo "prerequisites: a Rust toolchain >= $msrv: rustup's, or Debian's rustc and cargo (Debian 12: rustc-web cargo-web)"
    exit 1
fi
echo "prerequisites: all $(grep -c '^[a-z]' "$here/prerequisites.txt") programs of tools/deps/prerequisites.txt found, rustc $have"
