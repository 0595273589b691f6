#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-msrv: the rust-version of Cargo.toml (1.85) is honoured. Debian
# 12's rustc-web/cargo-web 1.85 (pinned: its security updates moved on) are
# installed if /usr/bin/rustc is not that release, then `make`, the unit tests
# and the capi-tests run with them, beside the usual toolchain: their own
# CARGO_TARGET_DIR and build directory under .cache/msrv, so nothing mixes.
set -eu
cd "$(dirname "$0")/../.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
pin=1.85.0+dfsg3-1~deb12u3
rustc=/usr/bin/rustc
cargo=/usr/bin/cargo

release() { "$1" --version 2>/dev/null | cut -d' ' -f2; }
if [ "$(release $rustc)" != "$msrv.0" ] || [ "$(release $cargo)" != "$msrv.0" ]; then
    echo "check-msrv: installing rustc-web/cargo-web $pin"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades \
        "rustc-web=$pin" "cargo-web=$pin" "libstd-rust-web-dev=$pin" "libstd-rust-web-1.85=$pin" >/dev/null
fi
[ "$(release $rustc)" = "$msrv.0" ] || { echo "check-msrv: $rustc is $(release $rustc), not $msrv"; exit 1; }

# RUSTC reaches cargo through the environment; rustup's cargo/rustc earlier in
# PATH are never asked.
dir=$PWD/.cache/msrv
set -- CARGO=$cargo CARGO_TARGET_DIR="$dir/target" BUILD=.cache/msrv/build
echo "check-msrv: $($rustc --version), $($cargo --version)"
status=0
for target in all unit-test check-symbols capi-tests; do
    start=$(date +%s)
    if RUSTC=$rustc make --no-print-directory "$@" "$target"; then
        echo "check-msrv: make $target with $msrv: ok ($(($(date +%s) - start)) s)"
    else
        echo "check-msrv: make $target with $msrv: FAIL"
        status=1
    fi
done
exit $status
