#!/bin/sh
# SPDX-License-Identifier: MIT
# make mutants (not in CI): cargo-mutants over the core's setup, queue,
# register and geometry and the C boundary (src/capi), each mutant tested by
# the Rust unit tests of its crate and by the capi-tests that call into the
# mutated file (tools/test/mutants-capi-select.sh), run against the library
# relinked from the mutant (tools/test/mutants-cargo.sh). Writes
# build/mutants/mutants.out/ (cargo-mutants' own output) and
# build/mutants/summary.txt (caught, missed, unviable, timeout per file).
# Environment:
#   MUTANTS_SHARD=k/n   a sample: every n-th mutant from the k-th, in
#                       cargo-mutants' listing order (round-robin sharding),
#                       so every file is sampled in proportion (default 0/1,
#                       all of them)
#   MUTANTS_JOBS        parallel scratch trees (default 1; each builds the
#                       library in release mode)
#   MUTANTS_FILES       the files to mutate (default the nine above)
#   MUTANTS_CAPI=0      the Rust unit tests only
#   MUTANTS_OUT         the output directory (default build/mutants)
#   MUTANTS_TIMEOUT     seconds a mutant's tests may take (default 75: the
#                       unmutated run takes about 17 s on a loaded machine);
#                       a mutant that makes a test hang counts as "timeout"
#   MUTANTS_CAPI_SAFE=1 the C boundary's `unsafe` functions mutated too:
#                       cargo-mutants leaves every `unsafe fn` alone, and
#                       nearly all of src/capi is `unsafe extern "C" fn`; so
#                       the run is made on a copy of the tree (build/
#                       mutants-src) whose src/capi functions are declared
#                       safe (their bodies already wrap each unsafe operation
#                       in its own block, as the crate's lints demand), which
#                       compiles to the same code
#   MUTANTS_ARGS        more cargo-mutants options (--iterate: skip the
#                       mutants an earlier run in the same MUTANTS_OUT caught)
# cargo-mutants itself (a pinned version) is installed into
# .cache/cargo-mutants on first use, as tools/deps/ruff.sh does for ruff.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
version=27.1.0
tool=$root/.cache/cargo-mutants/bin/cargo-mutants
real_cargo=$(command -v "${CARGO:-cargo}")
if [ ! -x "$tool" ] || [ "$("$tool" mutants --version 2>/dev/null)" != "cargo-mutants $version" ]; then
	echo "mutants: installing cargo-mutants $version into .cache/cargo-mutants"
	"$real_cargo" install --quiet --locked --root "$root/.cache/cargo-mutants" \
		--version "$version" cargo-mutants
fi
out=${MUTANTS_OUT:-$root/build/mutants}
files=${MUTANTS_FILES:-core/src/setup.rs core/src/queue.rs core/src/queue/submission.rs \
core/src/queue/completion.rs core/src/queue/waiting.rs core/src/register.rs \
core/src/geometry.rs src/capi/setup.rs src/capi/queue.rs src/capi/register.rs \
src/capi/buf_ring.rs src/capi/mod.rs}
mkdir -p "$out"

capi_bin=
if [ "${MUTANTS_CAPI:-1}" != 0 ]; then
	# The selected capi-tests, built once against the unmutated stage and
	# checked to pass: a mutant's failure is then the mutant's.
	echo "== mutants: building and checking the capi-tests of the selection"
	make --no-print-directory stage >"$out/stage.log" 2>&1 || { tail -n 20 "$out/stage.log"; exit 1; }
	capi_bin=$out/capi
	rm -rf "$capi_bin"
	# shellcheck disable=SC2046 # one test name a word
	if ! CAPI_NO_COMPAT=1 CAPI_BUILD_DIR=$capi_bin sh capi-tests/run.sh build/stage \
		$(sh tools/test/mutants-capi-select.sh) >"$out/capi-baseline.txt" 2>&1; then
		cat "$out/capi-baseline.txt"
		echo "mutants: the unmutated library fails the selected capi-tests" >&2
		exit 1
	fi
	if grep -q ' SKIP ' "$out/capi-baseline.txt"; then
		echo "mutants: a selected capi-test skips here; a mutant could not be told apart" >&2
		exit 1
	fi
fi

# The tree cargo-mutants copies and mutates.
tree=$root
if [ "${MUTANTS_CAPI_SAFE:-0}" = 1 ]; then
	tree=$root/build/mutants-src
	rm -rf "$tree"
	mkdir -p "$tree"
	git ls-files -z | tar --null -T - -cf - | tar -x -C "$tree"
	sed -i -E 's/\bunsafe (extern "C" fn|fn)\b/\1/' \
		"$tree"/src/capi/setup.rs "$tree"/src/capi/queue.rs \
		"$tree"/src/capi/register.rs "$tree"/src/capi/buf_ring.rs
fi

args=
for f in $files; do args="$args --file $f"; done
echo "== mutants: cargo-mutants $version, shard ${MUTANTS_SHARD:-0/1}, ${MUTANTS_JOBS:-1} job(s)"
# shellcheck disable=SC2086 # --file options, split on purpose
CARGO="$root/tools/test/mutants-cargo.sh" MUTANTS_REAL_CARGO=$real_cargo \
	MUTANTS_SOURCE=$tree MUTANTS_CAPI_BIN=$capi_bin \
	"$tool" mutants --dir "$tree" --workspace --no-shuffle --copy-target true $args --shard "${MUTANTS_SHARD:-0/1}" --sharding round-robin \
	--jobs "${MUTANTS_JOBS:-1}" --timeout "${MUTANTS_TIMEOUT:-75}" \
	--build-timeout "${MUTANTS_BUILD_TIMEOUT:-600}" ${MUTANTS_ARGS:-} --output "$out" || true
[ -d "$out/mutants.out" ] || { echo "mutants: cargo-mutants wrote no results" >&2; exit 1; }

# Per file: each outcome list names "file:line:col: mutation".
summary=$out/summary.txt
for kind in caught missed unviable timeout; do touch "$out/mutants.out/$kind.txt"; done
{
	printf '%-24s %7s %7s %9s %8s %13s %22s\n' file caught missed unviable timeout 'caught/viable' \
		'(caught+timeout)/viable'
	for f in $files; do
		c=$(grep -c "^$f:" "$out/mutants.out/caught.txt" || true)
		m=$(grep -c "^$f:" "$out/mutants.out/missed.txt" || true)
		u=$(grep -c "^$f:" "$out/mutants.out/unviable.txt" || true)
		t=$(grep -c "^$f:" "$out/mutants.out/timeout.txt" || true)
		v=$((c + m + t))
		printf '%-24s %7d %7d %9d %8d %13s %22s\n' "$f" "$c" "$m" "$u" "$t" \
			"$(awk -v c="$c" -v v="$v" 'BEGIN { if (v) printf "%.1f%%", 100 * c / v; else print "-" }')" \
			"$(awk -v c="$((c + t))" -v v="$v" 'BEGIN { if (v) printf "%.1f%%", 100 * c / v; else print "-" }')"
	done
} >"$summary"
cat "$summary"
echo "missed: $out/mutants.out/missed.txt"
