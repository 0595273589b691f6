# SPDX-License-Identifier: MIT
# shellcheck shell=sh
: "${test_timeout:?}" # set by the guest's /init, which sources this file
# The last part of the amd64 kernels' guest run (kernels.sh puts it at
# /repo/extra.sh; guest-init.sh sources it): what our diagnostics say on
# this kernel, between "@@diag TITLE" and "@@enddiag" lines: uring-info, and
# the LIBURING_DEBUG lines of the fallback tests' refused calls.
echo "@@diag uring-info"
LD_LIBRARY_PATH=/stage/usr/lib /stage/usr/bin/uring-info 2>&1 | head -n 150
echo "@@enddiag"
for t in fallback-setup-flags fallback-ring-fd fallback-buf-ring fallback-wait-timeout fallback-resize; do
	[ -x "/repo/bin/$t" ] || continue
	echo "@@diag LIBURING_DEBUG=1 $t"
	LIBURING_DEBUG=1 CAPI_STAGE=/stage LD_LIBRARY_PATH=/stage/usr/lib "/repo/bin/$t" 2>&1 |
		grep '^liburing' | head -n 30
	echo "@@enddiag"
done
# The Rust unit tests (kernels.sh puts their binaries in /repo/unit): one
# row "@@ unit BINARY PASSED FAILED SKIPPED RC SECONDS" each; a test that
# found the kernel lacking what it tests prints "SKIP: <test>: <reason>"
# (core/src/test_ring.rs) and counts as skipped, not passed. The report
# lists the failed tests, which fail the run (KERNELS_UNIT_STRICT=0: listed
# only).
for t in /repo/unit/*; do
	[ -x "$t" ] || continue
	name=${t##*/}
	start=$(date +%s)
	(cd /tmp && timeout -s KILL "$test_timeout" "$t" --test-threads=2 --show-output) \
		>"/tmp/unit-$name.log" 2>&1 </dev/null
	rc=$?
	counts=$(awk '/^test result:/ { p += $4; f += $6 } /^SKIP: / { s[$2] = 1 }
		END { n = 0; for (k in s) n++; print p - n, f + 0, n }' "/tmp/unit-$name.log")
	echo "@@ unit $name $counts $rc $(($(date +%s) - start))"
	if [ "$rc" != 0 ]; then
		# Per failed test: where it panicked, and the assertion's values.
		echo "@@log unit:$name"
		grep -A 3 -E "^thread '.*' .*panicked at " "/tmp/unit-$name.log" | grep -v '^--$' | tail -n 120
		grep '^test result:' "/tmp/unit-$name.log"
		echo "@@endlog"
	fi
done
