#!/bin/sh
# SPDX-License-Identifier: MIT
# Copies a `make bench` run into docs/bench/ the way runs are committed: the
# report and its plots only (raw CSV and callgrind profiles stay in build/,
# where report.py can be run again on them).
#   sh bench/publish.sh <run dir, e.g. build/bench> <docs/bench/NAME>
set -eu
src=${1:?usage: publish.sh <run dir> <docs/bench/NAME>}
dst=${2:?usage: publish.sh <run dir> <docs/bench/NAME>}
[ -f "$src/report.md" ] || { echo "publish: $src/report.md missing" >&2; exit 1; }
mkdir -p "$dst"
cp "$src/report.md" "$dst/"
for png in "$src"/*.png; do
	[ -e "$png" ] && cp "$png" "$dst/"
done
echo "publish: $(cd "$dst" && printf '%s ' *)-> $dst"
