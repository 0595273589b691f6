#!/bin/sh
# SPDX-License-Identifier: MIT
# make test: runs each stage (a make target) in order, every one whatever the
# earlier ones did, and ends with one line: N passed, N failed. Exit 1 if any
# failed. A stage's own output streams as it runs; the list of failed stages
# and their times is repeated at the end.
#   sh tools/test/run-stages.sh <make> <stage>...
set -u
make_cmd=$1
shift
passed=0
failed=0
table=
n=0
total=$#
start_all=$(date +%s)
for stage in "$@"; do
    n=$((n + 1))
    echo "== make test: stage $n/$total: $stage"
    start=$(date +%s)
    if $make_cmd --no-print-directory "$stage"; then
        verdict=ok
        passed=$((passed + 1))
    else
        verdict=FAIL
        failed=$((failed + 1))
    fi
    secs=$(($(date +%s) - start))
    echo "== make test: stage $n/$total: $stage: $verdict ($secs s)"
    table="$table$(printf '  %-20s %-5s %5s s' "$stage" "$verdict" "$secs")
"
done
echo "== make test: $total stages in $(($(date +%s) - start_all)) s"
printf '%s' "$table"
echo "$passed passed, $failed failed"
# STAGES_COUNTS=<file>: the two counts appended there too (.ci/run adds up
# the runs of make test and of its own stages into one closing line).
[ -z "${STAGES_COUNTS:-}" ] || echo "$passed $failed" >>"$STAGES_COUNTS"
[ "$failed" = 0 ]
