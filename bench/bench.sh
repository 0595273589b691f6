#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench`: sh bench/bench.sh <our staged usr dir>
#
# 1. upstream liburing 2.15: its install, from pytools/upstream/upstream.py
#    (which fetches and builds it when missing);
# 2. matplotlib into a venv under .cache/bench-venv (once);
# 3. pytools/bench/run.py (timed rounds, io_uring_enter and callgrind
#    passes), then its report.py and plot.py into build/bench/.
# Environment: BENCH_QUICK=1 (3 rounds, a quarter of the ops),
# BENCH_PAIRS=N (rounds, default 7), BENCH_ONLY=nop,pingpong (workloads),
# BENCH_OUT (default <repo>/build/bench), BENCH_NULL_BLK=/dev/nullb0 (adds
# personality rows on that null_blk device where the kernel has one),
# LIBURING_SRC (passed to the provider), CC.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# The Python (pytools/) runs as modules of the repository.
PYTHONPATH=$root
export PYTHONPATH
ours=${1:?usage: bench.sh <our staged usr dir>}
out=${BENCH_OUT:-$root/build/bench}
venv=$root/.cache/bench-venv

mkdir -p "$(dirname "$out")"
upstream=$(python3 -m pytools.upstream.upstream stage 2>"$out.upstream.log")/usr || {
	tail -20 "$out.upstream.log"
	echo "bench: could not fetch or build upstream liburing (log: $out.upstream.log)" >&2
	exit 1
}

if ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
	echo "bench: installing matplotlib into $venv"
	python3 -m venv "$venv"
	"$venv/bin/python" -m pip install --quiet --disable-pip-version-check matplotlib
fi

rm -rf "$out"
mkdir -p "$out"
quick=
[ "${BENCH_QUICK:-0}" = 1 ] && quick=--quick
python3 -m pytools.bench.run --ours "$ours" --upstream "$upstream" --out "$out" ${BENCH_ONLY:+--only "$BENCH_ONLY"} \
	--pairs "${BENCH_PAIRS:-7}" $quick
python3 -m pytools.bench.report "$out"
"$venv/bin/python" -m pytools.bench.plot "$out"
python3 -m pytools.bench.report "$out" # again, now linking the plots
rm -rf "${out:?}/work" "${out:?}/bin"
echo
sed -n '/^## The seeds/,/^## 1\./p' "$out/report.md" | sed '$d'
echo "bench: report   $out/report.md"
echo "bench: plots    $out/ratios.png $out/instructions.png $out/pingpong-latency.png $out/defer-taskrun.png"
echo "bench: raw CSV  $out/raw.csv $out/counts.csv $out/functions.csv $out/summary.csv"
