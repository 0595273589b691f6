#!/bin/sh
# SPDX-License-Identifier: MIT
# make unit-test: the Rust unit tests, with the tests that found the kernel
# lacking what they test counted as skipped, not passed. Such a test prints
# a line starting "SKIP:" and returns; libtest has no skip verdict, so its
# shown output is read here.   sh tools/test/unit-tests.sh <cargo> <package>...
set -u
cargo=$1
shift
pkgs=
for p in "$@"; do pkgs="$pkgs -p $p"; done
log=$(mktemp)
# shellcheck disable=SC2086
$cargo test --quiet --lib $pkgs -- --show-output >"$log" 2>&1
rc=$?
grep -E '^(test result|SKIP|failures|---- )' "$log" | grep -v '^---- .* stdout ----$' || true
passed=$(awk '/^test result:/ { n += $4 } END { print n + 0 }' "$log")
failed=$(awk '/^test result:/ { n += $6 } END { print n + 0 }' "$log")
skipped=$(grep -c '^SKIP' "$log")
[ "$rc" = 0 ] || tail -n 40 "$log"
rm -f "$log"
echo "$((passed - skipped)) passed, $failed failed, $skipped skipped"
exit "$rc"
