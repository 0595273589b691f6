#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-offline: `make` builds with no network at all (`unshare -n`) from
# each offline crate source a packager or an air-gapped user has:
#   debian  Debian's packaged crates (librust-*-dev) as a cargo directory registry
#   vendor  a `cargo vendor` tree of the committed Cargo.lock
#   warm    a cargo home that fetched the lock's crates once
# each with the committed Cargo.lock and without it. Inputs are fetched once,
# with the network, into .cache/offline/; every build runs on a copy of the
# tracked tree with its own CARGO_HOME, so the user's cargo config plays no
# part. Source replacement lives in that CARGO_HOME, never in the repository.
# A Cargo.lock pins exact versions: where the offline source holds another
# libc than the lock (Debian's), `cargo update --offline` re-resolves first
# (dh-cargo deletes the lock instead, which is the "without" case).
# Debian's crates come from OFFLINE_DEBIAN_SUITE (default sid, what a package
# upload builds with) of the archive this machine's apt uses, through a private
# apt state under .cache/offline; OFFLINE_DEBIAN_SUITE=bookworm gives
# libc 0.2.139, the oldest this was proven with. OFFLINE_DEBIAN_CRATES lists the
# packages: every workspace member's dependencies must be there, as cargo
# resolves the whole workspace. OFFLINE_SOURCES picks some of the three.
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
cache=$root/.cache/offline
CARGO=${CARGO:-cargo}
debian_crates=${OFFLINE_DEBIAN_CRATES:-librust-libc-dev}
suite=${OFFLINE_DEBIAN_SUITE:-sid}
debs=$cache/debs-$suite
mkdir -p "$debs"

command -v unshare >/dev/null || { echo "check-offline: unshare (util-linux) missing"; exit 1; }
unshare -n true 2>/dev/null || { echo "check-offline: cannot unshare the network (needs root or user namespaces)"; exit 1; }

# (a) Debian's crates: .debs downloaded with the tree's one downloader
# (pytools/upstream/aptfetch.py: apt with a private state in .cache/offline/apt-SUITE,
# this machine's mirror), unpacked into one directory registry. Lists that no
# longer name the package's current file are refreshed once.
aptfetch() { python3 -m pytools.upstream.aptfetch "$cache/apt-$suite" --suite "$suite" "$@"; }
for pkg in $debian_crates; do
    ls "$debs/${pkg}"_*.deb >/dev/null 2>&1 && continue
    aptfetch download "$debs" "$pkg" 2>/dev/null ||
        { aptfetch update && aptfetch download "$debs" "$pkg"; }
done
rm -rf "$cache/debian-root"
for deb in "$debs"/*.deb; do dpkg -x "$deb" "$cache/debian-root"; done
debian_registry=$cache/debian-root/usr/share/cargo/registry
echo "check-offline: Debian $suite crates: $(cd "$debian_registry" && printf '%s ' *)"

# (b) the vendor tree and (c) the warm cargo home, redone when the lock changes.
lock_sum=$(sha256sum Cargo.lock | cut -d' ' -f1)
if [ "$(cat "$cache/vendor.sum" 2>/dev/null)" != "$lock_sum" ]; then
    rm -rf "$cache/vendor"
    "$CARGO" vendor --quiet --locked --versioned-dirs "$cache/vendor" >/dev/null
    echo "$lock_sum" > "$cache/vendor.sum"
fi
if [ "$(cat "$cache/warm.sum" 2>/dev/null)" != "$lock_sum" ]; then
    rm -rf "$cache/warm-home"
    CARGO_HOME=$cache/warm-home "$CARGO" fetch --quiet --locked
    echo "$lock_sum" > "$cache/warm.sum"
fi

work=$(mktemp -d /tmp/check-offline.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

replace_with() { # $1: cargo home, $2: source kind, $3: path
    mkdir -p "$1"
    printf '[source.crates-io]\nreplace-with = "offline"\n[source.offline]\n%s = "%s"\n' "$2" "$3" \
        > "$1/config.toml"
}

passed=0 failed=0
for source in ${OFFLINE_SOURCES:-debian vendor warm}; do
    for lock in with without; do
        case=$source-$lock-lock
        tree=$work/$case
        mkdir -p "$tree"
        git ls-files -z | xargs -0 cp --parents -t "$tree"
        [ "$lock" = with ] || rm -f "$tree/Cargo.lock"
        prepare='' offline=false
        case $source in
        debian)
            home=$work/home-$case
            replace_with "$home" directory "$debian_registry"
            [ "$lock" = without ] || prepare="$CARGO update --quiet --offline &&"
            ;;
        vendor)
            home=$work/home-$case
            replace_with "$home" directory "$cache/vendor"
            ;;
        warm)
            home=$cache/warm-home
            offline=true
            ;;
        esac
        # --offline (CARGO_NET_OFFLINE) only matters to the warm home, whose
        # index cache cargo would otherwise try to refresh.
        cmd="${prepare:+$prepare }CARGO_NET_OFFLINE=$offline make -s"
        start=$(date +%s)
        if (cd "$tree" && env CARGO_HOME="$home" CARGO_TARGET_DIR="$tree/target" \
            unshare -n sh -c "$cmd") > "$work/$case.log" 2>&1 && [ -f "$tree/build/liburing.so.2.15" ]; then
            libc=$(awk '/^name = "libc"/ { getline; print $3 }' "$tree/Cargo.lock" | tr -d '"')
            echo "ok: $case: '$cmd' under unshare -n in $(($(date +%s) - start)) s (libc $libc)"
            passed=$((passed + 1))
        else
            echo "FAIL: $case: '$cmd' under unshare -n; its last lines:"
            grep -v '^warning\|^ *|\|^ *=\|^ *-->\|^$\|^[0-9 ]*|' "$work/$case.log" | tail -n 6 | sed 's/^/    /'
            failed=$((failed + 1))
        fi
        rm -rf "$tree"
    done
done
echo "check-offline: $passed passed, $failed failed"
[ "$failed" = 0 ]
