#!/bin/sh
# SPDX-License-Identifier: MIT
# `make test` on a fresh Debian 12 (a minbase debootstrap, cached under
# .cache/fresh/base) given only what README.md's build prerequisites ask a user for: a Rust
# toolchain (Debian 12's rustc-web/cargo-web 1.85, the MSRV), make and git;
# `make deps` installs the rest from the prerequisites list. The committed HEAD
# is cloned into a copy of the base, the run's log is .cache/fresh/make-test.log,
# and whatever it leaves in the chroot's /tmp is listed at the end.
# Root only (debootstrap, chroot, mount namespace); the archive is the one this
# machine's apt uses.
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
fresh=$root/.cache/fresh
pin=1.85.0+dfsg3-1~deb12u3
mkdir -p "$fresh"

if [ ! -f "$fresh/base/.complete" ]; then
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
    archive=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null ||
        awk '/^deb / { print $2; exit }' /etc/apt/sources.list)
    rm -rf "$fresh/base"
    debootstrap --variant=minbase bookworm "$fresh/base" "$archive" > "$fresh/debootstrap.log" 2>&1
    touch "$fresh/base/.complete"
fi

run=$fresh/run
rm -rf "$run"
cp -a "$fresh/base" "$run"
git clone -q "$root" "$run/src"
# This machine's network settings: its resolver, and its TLS trust store
# (cargo reaches the crate registry through whatever this machine trusts).
cp /etc/resolv.conf "$run/etc/resolv.conf"
# (the bundle, and the local CAs update-ca-certificates rebuilds it from when
# a package installs ca-certificates)
mkdir -p "$run/etc/ssl/certs" "$run/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$run/etc/ssl/certs/"
cp -r /usr/local/share/ca-certificates/. "$run/usr/local/share/ca-certificates/"

cat > "$run/fresh.sh" <<INNER
set -eu
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root
apt-get update -qq
apt-get install -y -qq make git rustc-web=$pin cargo-web=$pin libstd-rust-web-dev=$pin libstd-rust-web-1.85=$pin >/dev/null
cd /src
make --no-print-directory deps
start=\$(date +%s)
status=0
make test || status=\$?
echo "fresh: make test took \$((\$(date +%s) - start)) s, exit \$status"
echo "fresh: left in /tmp: \$(ls -A /tmp | tr '\n' ' ')"
echo \$status > /fresh.status
INNER

# A private mount namespace: the mounts vanish with it.
unshare -m --fork sh -c '
    mount -t proc proc "$1/proc" && mount -t sysfs sys "$1/sys" && mount --rbind /dev "$1/dev" &&
    chroot "$1" sh /fresh.sh' sh "$run" 2>&1 | tee "$fresh/make-test.log"
exit "$(cat "$run/fresh.status" 2>/dev/null || echo 1)"
