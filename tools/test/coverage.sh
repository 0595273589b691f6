#!/bin/sh
# SPDX-License-Identifier: MIT
# make coverage (not in CI): the library built with LLVM's source-based
# coverage (-Cinstrument-coverage), staged as the tests load it (liburing.so.2
# and liburing.a, through the Makefile's own relink), then the Rust unit
# tests and the capi-tests run against it; llvm-profdata and llvm-cov of the
# LLVM release rustc uses (Debian's llvm-NN: `rustc -vV` names NN) merge the
# profiles and write, under build/coverage/:
#   report.txt     per file: regions, functions, lines, branches (llvm-cov report)
#   summary.txt    per file of src/: line coverage, and the lines no test reached
#   html/          the annotated sources (llvm-cov show)
# Environment: COVERAGE_CAPI=0 leaves the capi-tests out.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cov=$root/build/coverage
nn=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\)\..*/\1/p')
profdata=$(command -v "llvm-profdata-$nn" || true)
llvmcov=$(command -v "llvm-cov-$nn" || true)
if [ -z "$profdata" ] || [ -z "$llvmcov" ]; then
	echo "coverage: rustc uses LLVM $nn; needs llvm-profdata-$nn and llvm-cov-$nn (apt-get install llvm-$nn)" >&2
	exit 1
fi
rm -rf "$cov/prof" "$cov/stage" "$cov/html"
mkdir -p "$cov/prof"
export CARGO_TARGET_DIR="$cov/target"
export RUSTFLAGS="-Cinstrument-coverage"
export LLVM_PROFILE_FILE="$cov/prof/%p-%m.profraw"

echo "== coverage: unit tests (uring-rs)"
tests=$(cargo test --quiet --lib -p uring-rs --no-run --message-format=json |
	sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | head -n 1)
[ -x "$tests" ] || { echo "coverage: no unit-test binary" >&2; exit 1; }
"$tests" --quiet >"$cov/unit-tests.log" 2>&1 || { tail -n 20 "$cov/unit-tests.log"; exit 1; }
tail -n 3 "$cov/unit-tests.log"

echo "== coverage: the library, instrumented, staged in $cov/stage"
# The Makefile's build with its own BUILD directory; SO_LDFLAGS without -s
# and --gc-sections, which would drop the profile sections.
make --no-print-directory BUILD="$cov/build" STAGE="$cov/stage" \
	SO_LDFLAGS="-shared -Wl,-z,now -Wl,-z,noexecstack" stage >"$cov/build.log" 2>&1 ||
	{ tail -n 30 "$cov/build.log"; exit 1; }
lib=$cov/stage/usr/lib/liburing.so.2
objects="--object $lib"

if [ "${COVERAGE_CAPI:-1}" != 0 ]; then
	echo "== coverage: capi-tests against the instrumented library"
	CAPI_NO_COMPAT=1 CAPI_BUILD_DIR="$cov/capi-tests" sh capi-tests/run.sh "$cov/stage" \
		>"$cov/capi-tests.log" 2>&1 || true
	tail -n 1 "$cov/capi-tests.log"
fi

echo "== coverage: report"
n=$(find "$cov/prof" -name '*.profraw' | wc -l)
[ "$n" -gt 0 ] || { echo "coverage: no profile written" >&2; exit 1; }
"$profdata" merge --sparse -o "$cov/merged.profdata" "$cov"/prof/*.profraw
# shellcheck disable=SC2086 # one --object option pair per word pair
"$llvmcov" report --instr-profile "$cov/merged.profdata" "$tests" $objects \
	--ignore-filename-regex='/(\.cargo|rustc|\.rustup)/|/uapi/|/sysinfo/|/tests?/' \
	>"$cov/report.txt"
# shellcheck disable=SC2086
"$llvmcov" show --instr-profile "$cov/merged.profdata" "$tests" $objects \
	--ignore-filename-regex='/(\.cargo|rustc|\.rustup)/|/uapi/|/sysinfo/' \
	--format=html --output-dir="$cov/html" >/dev/null
# shellcheck disable=SC2086
"$llvmcov" export --format=lcov --instr-profile "$cov/merged.profdata" "$tests" $objects \
	--ignore-filename-regex='/(\.cargo|rustc|\.rustup)/|/uapi/|/sysinfo/' >"$cov/lcov.info"
# Per file of src/: lines found/hit and the line numbers never reached.
awk -v root="$root/" '
	/^SF:/ { f = substr($0, 4); sub(root, "", f); n = 0; h = 0; miss = "" }
	/^DA:/ { split(substr($0, 4), a, ","); n++; if (a[2] > 0) h++; else miss = miss " " a[1] }
	/^end_of_record/ { if (f ~ /^src\//) { printf "%-28s %5d/%5d lines %6.2f%%  unreached:%s\n", f, h, n, n ? 100 * h / n : 0, miss; th += h; tn += n } }
	END { printf "%-28s %5d/%5d lines %6.2f%%\n", "TOTAL src/", th, tn, tn ? 100 * th / tn : 0 }
' "$cov/lcov.info" >"$cov/summary.txt"
cut -c1-60 "$cov/summary.txt"
echo "coverage: $cov/report.txt, $cov/summary.txt, $cov/html/index.html"
