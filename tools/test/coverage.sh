#!/bin/sh
# SPDX-License-Identifier: MIT
# make coverage (not in CI): LLVM's source-based coverage (-Cinstrument-
# coverage) of the library's crates, measured four ways:
#   unit     the unit tests of uring-core, uring-diag and uring-rs (dev
#            builds, one test binary each)
#   capi     the capi-tests against the instrumented stage (release build,
#            through the Makefile's own relink: liburing.so.2, liburing.a and
#            the diagnostics object uring-rs/liburing-diag.so)
#   suite    liburing's own suite in binary mode (its tests linked with
#            upstream's liburing.so.2, run on the stage's)
# llvm-profdata and llvm-cov of the LLVM release rustc uses (Debian's
# llvm-NN) merge the profiles; each part's profile is read against each of
# its objects alone (a function compiled into two objects, as the core in
# both shared objects, is then counted in each) and a line counts as reached
# when any of them reached it. Under build/coverage/:
#   summary.txt   per file of core/src, diag/src and src (test files aside):
#                 lines reached, branches reached, the line numbers no test
#                 reached; then the totals of the core, the C boundary
#                 (src/capi), the diagnostics and everything
#   capi-errors.txt  each error return of src/capi (pytools/coverage/
#                 coverage_errors.py): reached of all, then those unreached
#   report-*.txt  llvm-cov report (regions, functions, lines, branches) of
#                 each object under each part
#   html-lib/     the stage's objects annotated under capi and suite together
# Branch coverage needs -Zcoverage-options=branch: with `cargo +nightly`
# (check-tsan's toolchain) when it is installed, else the stable toolchain
# and no branch columns. Environment: COVERAGE_TOOLCHAIN=stable forces the
# latter; COVERAGE_PARTS (default "unit capi suite") names the parts to run,
# the others' profiles of the last run are kept (the suite takes most of the
# time; unit tests added since then change no library function).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cov=$root/build/coverage
# Counters relocated at run time, so that the profile file can be mapped
# and written as the program runs (continuous mode, %c below): a test that
# aborts (LIBURING_CHECK=abort) or is killed at its timeout still counts.
flags="-Cinstrument-coverage -Cllvm-args=-runtime-counter-relocation"
cargo=cargo toolchain=
if [ "${COVERAGE_TOOLCHAIN:-}" != stable ] && cargo +nightly --version >/dev/null 2>&1; then
	cargo="cargo +nightly" toolchain=+nightly
	flags="$flags -Zcoverage-options=branch"
fi
nn=$(rustc ${toolchain:+"$toolchain"} -vV | sed -n 's/^LLVM version: \([0-9]*\)\..*/\1/p')
profdata=$(command -v "llvm-profdata-$nn" || true)
llvmcov=$(command -v "llvm-cov-$nn" || true)
if [ -z "$profdata" ] || [ -z "$llvmcov" ]; then
	echo "coverage: rustc uses LLVM $nn; needs llvm-profdata-$nn and llvm-cov-$nn (apt-get install llvm-$nn)" >&2
	exit 1
fi
parts=" ${COVERAGE_PARTS:-unit capi suite} "
runs() { case $parts in *" $1 "*) return 0 ;; esac; return 1; }
rm -rf "$cov/prof/build" "$cov/stage" "$cov/html-lib" "$cov/json" "$cov"/*.lcov "$cov"/report-*.txt
if runs unit; then rm -rf "$cov"/prof/unit-*; fi
if runs capi; then rm -rf "$cov/prof/capi"; fi
if runs suite; then rm -rf "$cov/prof/suite"; fi
mkdir -p "$cov/prof/build" "$cov/prof/capi" "$cov/prof/suite" "$cov/json"
# Writable by the tests that drop to nobody (diag-secure, diag-debug).
chmod 1777 "$cov/prof/capi" "$cov/prof/suite"
export CARGO_TARGET_DIR="$cov/target"
export RUSTFLAGS="$flags"
# The build's own tools (the header generator) write theirs apart.
export LLVM_PROFILE_FILE="$cov/prof/build/%p-%m%c.profraw"
echo "== coverage: $($cargo --version), $flags"

if runs unit; then
	echo "== coverage: unit tests (uring-core, uring-diag, uring-rs)"
	$cargo test --quiet --lib -p uring-core -p uring-diag -p uring-rs --no-run --message-format=json \
		>"$cov/unit-build.json" 2>"$cov/unit-build.log" || { tail -n 20 "$cov/unit-build.log"; exit 1; }
	sed -n 's/.*"name":"\([^"]*\)".*"executable":"\([^"]*\)".*/\1 \2/p' "$cov/unit-build.json" >"$cov/unit-binaries.txt"
	[ "$(wc -l <"$cov/unit-binaries.txt")" = 3 ] || { echo "coverage: expected 3 unit-test binaries" >&2; exit 1; }
	: >"$cov/unit-tests.log"
	while read -r crate bin; do
		mkdir -p "$cov/prof/unit-$crate"
		LLVM_PROFILE_FILE="$cov/prof/unit-$crate/%p-%m%c.profraw" "$bin" --quiet >>"$cov/unit-tests.log" 2>&1 ||
			{ tail -n 20 "$cov/unit-tests.log"; exit 1; }
		echo "$crate: $(grep '^test result' "$cov/unit-tests.log" | tail -n 1)"
	done <"$cov/unit-binaries.txt"
fi

echo "== coverage: the library, instrumented, staged in $cov/stage"
# rustc leaves the profile runtime (profiler_builtins, which writes the
# counters at exit) out of a no_std staticlib: its objects are added to both
# archives here, so the Makefile's relink carries them into every object it
# makes from them (its rule then finds the archives up to date).
$cargo build --release --quiet -p uring-rs -p uring-diag --lib >"$cov/build.log" 2>&1 ||
	{ tail -n 30 "$cov/build.log"; exit 1; }
rt=$(find "$(rustc ${toolchain:+"$toolchain"} --print sysroot)/lib/rustlib" \
	-name 'libprofiler_builtins-*.rlib' | head -n 1)
[ -n "$rt" ] || { echo "coverage: no profiler_builtins in the toolchain" >&2; exit 1; }
rm -rf "$cov/profile-rt" && mkdir -p "$cov/profile-rt"
(cd "$cov/profile-rt" && ar x "$rt" && rm -f ./*GCDA* ./*Windows* ./*Darwin* ./*Fuchsia* ./*AIX* ./*rcgu.o lib.rmeta*)
for a in liburing.a liburing_diag.a; do
	# (binutils' LTO plugin cannot read rustc's bitcode and says so per member)
	ar rs "$CARGO_TARGET_DIR/release/$a" "$cov"/profile-rt/*.o >>"$cov/build.log" 2>&1
done
# The Makefile's build with its own BUILD directory; SO_LDFLAGS without
# --gc-sections (for liburing.so.2 and liburing-diag.so alike), which would
# drop the profile sections nothing names.
make --no-print-directory CARGO="$cargo" BUILD="$cov/build" STAGE="$cov/stage" \
	SO_LDFLAGS="-shared -Wl,-z,now -Wl,-z,noexecstack" stage >>"$cov/build.log" 2>&1 ||
	{ tail -n 30 "$cov/build.log"; exit 1; }
libdir=$cov/stage/usr/lib
for o in liburing.so.2 uring-rs/liburing-diag.so; do
	readelf -SW "$libdir/$o" | grep -q __llvm_prf_cnts ||
		{ echo "coverage: $o has no profile counters" >&2; exit 1; }
done

if runs capi; then
	echo "== coverage: capi-tests against the instrumented library"
	LLVM_PROFILE_FILE="$cov/prof/capi/%p-%m%c.profraw" CAPI_NO_COMPAT=1 \
		CAPI_BUILD_DIR="$cov/capi-tests" sh capi-tests/run.sh "$cov/stage" \
		>"$cov/capi-tests.log" 2>&1 || true
	tail -n 1 "$cov/capi-tests.log"
	# Programs run with a cleared environment write default_*.profraw into
	# their working directory: here, or the capi-tests' build directory.
	find "$root" "$cov/capi-tests" -maxdepth 1 -name 'default_*.profraw' \
		-exec mv {} "$cov/prof/capi/" \;
fi

if runs suite; then
	echo "== coverage: liburing's suite, binary mode, against the instrumented library"
	# Only the profiles matter here (the verdicts are make liburing-tests'):
	# no reruns, and a shorter timeout for the tests the instrumented library
	# slows. The reference mode's stored results are reused (the harness
	# runs it too when it has none for this kernel and source).
	LLVM_PROFILE_FILE="$cov/prof/suite/%p-%m%c.profraw" sh liburing-tests/run.sh \
		--stage "$cov/stage" --modes binary --side-by-side 2 --retry-budget 0 \
		--timeout 30 --kill-after 5 >"$cov/suite.log" 2>&1 || true
	grep -E '^(binary|summary|SUMMARY)' "$cov/suite.log" | tail -n 3 || true
	# The tests run in the binary tree's test directory and its workers'
	# copies (the harness's cache).
	find "$root/.cache/liburing-tests/build" "$root/.cache/liburing-tests/work" \
		-name 'default_*.profraw' -exec mv {} "$cov/prof/suite/" \; 2>/dev/null || true
fi

echo "== coverage: report"
skip='/(\.cargo|rustc|\.rustup)/|/uapi/|/sysinfo/|/tools/'
: >"$cov/parts.txt"
for dir in "$cov"/prof/unit-* "$cov/prof/capi" "$cov/prof/suite"; do
	part=${dir##*/}
	n=$(find "$dir" -name '*.profraw' | wc -l)
	echo "$part: $n profiles" >>"$cov/parts.txt"
	[ "$n" -gt 0 ] || continue
	"$profdata" merge --sparse -o "$cov/$part.profdata" "$dir"/*.profraw
	case $part in
	unit-*) objs=$(awk -v c="${part#unit-}" '$1 == c { print $2 }' "$cov/unit-binaries.txt") ;;
	*) objs="$libdir/liburing.so.2 $libdir/uring-rs/liburing-diag.so" ;;
	esac
	for obj in $objs; do
		name=$part-$(basename "$obj" | sed 's/-[0-9a-f]*$//')
		"$llvmcov" report --instr-profile "$cov/$part.profdata" "$obj" \
			--ignore-filename-regex="$skip" >"$cov/report-$name.txt"
		"$llvmcov" export --format=lcov --instr-profile "$cov/$part.profdata" "$obj" \
			--ignore-filename-regex="$skip" >"$cov/$name.lcov"
		"$llvmcov" export --format=text --instr-profile "$cov/$part.profdata" "$obj" \
			--ignore-filename-regex="$skip" >"$cov/json/$name.json"
	done
done
for part in capi suite; do
	if [ -f "$cov/$part.profdata" ]; then set -- "$@" "$cov/$part.profdata"; fi
done
if [ $# -gt 0 ]; then
	"$profdata" merge --sparse -o "$cov/lib.profdata" "$@"
	"$llvmcov" show --instr-profile "$cov/lib.profdata" "$libdir/liburing.so.2" \
		-object "$libdir/uring-rs/liburing-diag.so" --ignore-filename-regex="$skip" \
		--format=html --output-dir="$cov/html-lib" >/dev/null
fi
# Per file: a line (a branch) counts as reached when any part reached it in
# any object; test files are left out.
cat "$cov"/*.lcov | awk -v root="$root/" '
	/^SF:/ { f = substr($0, 4); sub(root, "", f)
		keep = f ~ /^(core\/src|diag\/src|src)\// && f !~ /(^|\/)(tests|[a-z_]*_tests|test_ring)\.rs$/ }
	!keep { next }
	/^DA:/ { split(substr($0, 4), a, ","); k = f SUBSEP a[1]; seen[k] = 1
		if (a[2] > 0) hit[k] = 1; files[f] = 1 }
	/^BRDA:/ { split(substr($0, 6), a, ","); k = f SUBSEP a[1] SUBSEP a[2] SUBSEP a[3]; bseen[k] = 1
		if (a[4] != "-" && a[4] > 0) bhit[k] = 1 }
	END {
		for (k in seen) { split(k, p, SUBSEP); n[p[1]]++; if (k in hit) h[p[1]]++
			else miss[p[1]] = miss[p[1]] " " p[2] }
		for (k in bseen) { split(k, p, SUBSEP); bn[p[1]]++; if (k in bhit) bh[p[1]]++ }
		for (f in files) {
			g = f ~ /^core\// ? "core" : f ~ /^src\/capi\// ? "capi" : f ~ /^diag\// ? "diag" : "rest"
			printf "%-36s %5d/%5d lines %6.2f%% %4d/%4d branches  unreached:%s\n", f, h[f], n[f],
				100 * h[f] / n[f], bh[f], bn[f], miss[f]
			th[g] += h[f]; tn[g] += n[f]; tbh[g] += bh[f]; tbn[g] += bn[f]
			th["all"] += h[f]; tn["all"] += n[f]; tbh["all"] += bh[f]; tbn["all"] += bn[f]
		}
		split("core core/src|capi src/capi|diag diag/src|all everything", order, "|")
		for (i = 1; i <= 4; i++) { split(order[i], o, " ")
			printf "TOTAL %-12s %5d/%5d lines %6.2f%%", o[2], th[o[1]], tn[o[1]], 100 * th[o[1]] / tn[o[1]] > "/dev/stderr"
			if (tbn[o[1]]) printf "  %d/%d branches %.2f%%", tbh[o[1]], tbn[o[1]], 100 * tbh[o[1]] / tbn[o[1]] > "/dev/stderr"
			printf "\n" > "/dev/stderr" }
	}' 2>"$cov/total.txt" | sort | while read -r f hn lines pct bhn branches label rest; do
	# shellcheck disable=SC2086 # the line numbers, one word each
	printf '%-36s %s %s %s %s %s %s%s\n' "$f" "$hn" "$lines" "$pct" "$bhn" "$branches" "$label" \
		"$(printf ' %s' $rest | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ *$//')"
done >"$cov/summary.txt"
cat "$cov/total.txt" >>"$cov/summary.txt"
# The C boundary's explicit error returns, region by region.
python3 -m pytools.coverage.coverage_errors "$(command -v "llvm-cxxfilt-$nn" || echo llvm-cxxfilt)" "$root" \
	"$cov"/json/*.json >"$cov/capi-errors.txt"
cut -c1-90 "$cov/summary.txt"
cat "$cov/parts.txt" "$cov/capi-errors.txt"
echo "coverage: $cov/summary.txt, capi-errors.txt, report-*.txt, html-lib/index.html"
