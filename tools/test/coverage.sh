#!/bin/sh
# SPDX-License-Identifier: MIT
# make coverage (not in CI): the library built with LLVM's source-based
# coverage (-Cinstrument-coverage), staged as the tests load it (liburing.so.2
# and liburing.a, through the Makefile's own relink), then the Rust unit
# tests and the capi-tests run against it; llvm-profdata and llvm-cov of the
# LLVM release rustc uses (Debian's llvm-NN: `rustc -vV` names NN) merge the
# profiles and write, under build/coverage/:
#   report-unit.txt, report-lib.txt   per file: regions, functions, lines,
#                  branches (llvm-cov report), of the unit-test binary under
#                  the unit tests, and of liburing.so.2 under the capi-tests
#   summary.txt    per file of src/: lines either reached, and the lines
#                  neither reached (the two builds differ, dev and release,
#                  so their profiles are kept apart and joined by line)
#   html-lib/      the library's annotated sources (llvm-cov show)
# Environment: COVERAGE_CAPI=0 leaves the capi-tests out. Branch coverage
# needs -Zcoverage-options=branch (nightly): with stable rustc the report's
# branch columns stay empty.
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
rm -rf "$cov/prof" "$cov/stage" "$cov/html-lib"
mkdir -p "$cov/prof/unit" "$cov/prof/lib"
# Writable by the tests that drop to nobody (diag-secure, diag-debug).
chmod 1777 "$cov/prof/lib"
export CARGO_TARGET_DIR="$cov/target"
export RUSTFLAGS="-Cinstrument-coverage"
export LLVM_PROFILE_FILE="$cov/prof/unit/%p-%m.profraw"

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
export LLVM_PROFILE_FILE="$cov/prof/lib/%p-%m.profraw"

if [ "${COVERAGE_CAPI:-1}" != 0 ]; then
	echo "== coverage: capi-tests against the instrumented library"
	CAPI_NO_COMPAT=1 CAPI_BUILD_DIR="$cov/capi-tests" sh capi-tests/run.sh "$cov/stage" \
		>"$cov/capi-tests.log" 2>&1 || true
	tail -n 1 "$cov/capi-tests.log"
fi

echo "== coverage: report"
# Programs the tests run with a cleared environment write default_*.profraw
# into their working directory (here): theirs too.
find "$root" -maxdepth 1 -name 'default_*.profraw' -exec mv {} "$cov/prof/lib/" \;
skip='/(\.cargo|rustc|\.rustup)/|/uapi/|/sysinfo/'
for part in unit lib; do
	n=$(find "$cov/prof/$part" -name '*.profraw' | wc -l)
	[ "$n" -gt 0 ] || { echo "coverage: no $part profile written" >&2; exit 1; }
	"$profdata" merge --sparse -o "$cov/$part.profdata" "$cov/prof/$part"/*.profraw
	if [ "$part" = unit ]; then obj=$tests; else obj=$lib; fi
	"$llvmcov" report --instr-profile "$cov/$part.profdata" "$obj" \
		--ignore-filename-regex="$skip" >"$cov/report-$part.txt"
	"$llvmcov" export --format=lcov --instr-profile "$cov/$part.profdata" "$obj" \
		--ignore-filename-regex="$skip" >"$cov/$part.lcov"
done
"$llvmcov" show --instr-profile "$cov/lib.profdata" "$lib" --ignore-filename-regex="$skip" \
	--format=html --output-dir="$cov/html-lib" >/dev/null
# Per file of src/: a line counts as reached when either profile reached it;
# the line numbers neither reached follow.
cat "$cov/unit.lcov" "$cov/lib.lcov" | awk -v root="$root/" '
	/^SF:/ { f = substr($0, 4); sub(root, "", f) }
	/^DA:/ && f ~ /^src\// { split(substr($0, 4), a, ","); k = f SUBSEP a[1]; seen[k] = 1
		if (a[2] > 0) hit[k] = 1; files[f] = 1 }
	END {
		for (k in seen) { split(k, p, SUBSEP); n[p[1]]++; if (k in hit) h[p[1]]++
			else miss[p[1]] = miss[p[1]] " " p[2] }
		for (f in files) { printf "%-28s %5d/%5d lines %6.2f%%  unreached:%s\n", f, h[f], n[f],
			100 * h[f] / n[f], miss[f]; th += h[f]; tn += n[f] }
		printf "TOTAL src/ %d/%d lines %.2f%%\n", th, tn, 100 * th / tn > "/dev/stderr"
	}' 2>"$cov/total.txt" | sort | while read -r f hn lines pct label rest; do
	# shellcheck disable=SC2086 # the line numbers, one word each
	printf '%-28s %s %s %s %s%s\n' "$f" "$hn" "$lines" "$pct" "$label" \
		"$(printf ' %s' $rest | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ *$//')"
done >"$cov/summary.txt"
cat "$cov/total.txt" >>"$cov/summary.txt"
cut -c1-60 "$cov/summary.txt"
echo "coverage: $cov/summary.txt, report-unit.txt, report-lib.txt, html-lib/index.html"
