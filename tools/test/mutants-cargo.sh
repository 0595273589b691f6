#!/bin/sh
# SPDX-License-Identifier: MIT
# The cargo that cargo-mutants calls during `make mutants` (its $CARGO; see
# tools/test/mutants.sh). Every command goes to the real cargo; `cargo test`
# then also runs the capi-tests that exercise the mutated file: the library
# is relinked from the mutated copy (`make lib` in cargo-mutants' scratch
# tree, the directory cargo runs in) and the C programs built once before the run (MUTANTS_CAPI_BIN)
# are run against it. A mutant the Rust tests miss is then caught when one
# of those programs exits non-zero (none of them skips on this machine: the
# driver checked that they all pass first) or runs over its time.
# Environment (set by mutants.sh): MUTANTS_REAL_CARGO, MUTANTS_SOURCE (the
# unmutated tree), MUTANTS_CAPI_BIN (the built tests; empty: Rust tests only).
set -u
real=${MUTANTS_REAL_CARGO:?}
[ "${1:-}" = test ] || exec "$real" "$@"
# cargo-mutants' build phase is `cargo test --no-run`: only the build.
case " $* " in *" --no-run "*) exec "$real" "$@" ;; esac
"$real" "$@" || exit
[ -n "${MUTANTS_CAPI_BIN:-}" ] || exit 0
if [ ! -f Makefile ] || [ ! -d src/capi ]; then
	echo "mutants-cargo.sh: not run from the tree's root ($(pwd))" >&2
	exit 2
fi

# Which file of the mutated set differs from the source tree (none: the
# baseline run, which runs every selection).
mutated=
for f in core/src/setup.rs core/src/queue.rs core/src/queue/submission.rs \
	core/src/queue/completion.rs core/src/queue/waiting.rs core/src/register.rs core/src/geometry.rs \
	src/capi/setup.rs src/capi/queue.rs src/capi/register.rs src/capi/buf_ring.rs src/capi/mod.rs; do
	if ! cmp -s "$f" "$MUTANTS_SOURCE/$f"; then
		mutated=$f
		break
	fi
done
tests=$(sh "$MUTANTS_SOURCE/tools/test/mutants-capi-select.sh" "$mutated")
[ -n "$tests" ] || exit 0

# The shared library of the mutated tree (build/liburing.so.2 of the
# scratch tree; the Makefile's CARGO_TARGET_DIR default, target/, is the
# scratch tree's too). Built without LTO, in 16 codegen units, incrementally
# and without debug information: the same code, relinked in seconds rather
# than a minute per mutant.
unset CARGO_TARGET_DIR
if ! CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
	CARGO_PROFILE_RELEASE_INCREMENTAL=true CARGO_PROFILE_RELEASE_DEBUG=false \
	make --no-print-directory CARGO="$real" lib >build-mutants-lib.log 2>&1; then
	tail -n 20 build-mutants-lib.log
	exit 1
fi
lib=$(pwd)/build

rc=0
for t in $tests; do
	LD_LIBRARY_PATH=$lib timeout -k 2 "${MUTANTS_CAPI_TIMEOUT:-20}" "$MUTANTS_CAPI_BIN/$t" \
		>"build/mutants-$t.log" 2>&1 </dev/null
	st=$?
	if [ "$st" != 0 ]; then
		echo "capi-test $t: exit $st"
		tail -n 5 "build/mutants-$t.log"
		rc=1
	fi
done
echo "capi-tests for ${mutated:-the baseline}: $(echo "$tests" | wc -w) run, $([ $rc = 0 ] && echo all passed || echo some failed)"
exit $rc
