# SPDX-License-Identifier: MIT
# The rest of the guest's /init (run.sh and kernels.sh put its settings
# above: test_timeout, liburing_timeout, tests, guest_skip, liburing_tests,
# and optionally sides, lt_modes, lt_pair_rounds, always_log): mount what the
# tests use, run each one, print "@@ name rc seconds" rows and the tail of a
# failing test's output, then power off.
#   sides           whose capi-tests run: "ours" (/repo/bin on /stage) and
#                   "upstream" (/repo/bin-upstream on /upstream), rows
#                   "@@ upstream:name ..."; default ours
#   lt_modes        liburing's tests, each mode from /repo/liburing/MODE on
#                   its library: reference (/upstream), source (ours, linked
#                   in), binary (upstream's binaries on /stage); rows
#                   "@@ liburing-MODE:name ..."; default source
#   lt_pair_rounds  a test doing worse in a drop-in mode than on the
#                   reference is run again as that many back-to-back
#                   reference/ours pairs, rows "@@ pair MODE name round
#                   ref-rc ours-rc", which the host judges as the
#                   liburing-tests harness does (pytools/suite/pairs.py); default 0
#   always_log      tests whose output is printed whatever their result
#   log_lines       how much of a test's output is printed (default 15)
# /repo/extra.sh, when there, runs last (the host's own extra rows).
# shellcheck shell=sh
: "${test_timeout:?}" "${liburing_timeout:?}" "${tests?}" "${guest_skip?}"
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/shm /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
# The network tests talk over loopback (-nic none: there is no other).
ip link set lo up
echo "@@ pagesize $(awk '/KernelPageSize/ { print $2 $3; exit }' /proc/self/smaps)"
echo "@@ kernel $(uname -r)"
sides=${sides:-ours}
lt_modes=${lt_modes:-source}
lt_pair_rounds=${lt_pair_rounds:-0}
always_log=${always_log:-}
CAPI_SRC=/repo/capi-tests
CAPI_OUT=/tmp/out
TMPDIR=/tmp
export CAPI_SRC CAPI_OUT TMPDIR
mkdir -p "$CAPI_OUT"

show_log() { # name log rc
	case " $always_log " in *" ${1#*:} "*) ;; *)
		[ "$3" != 0 ] && [ "$3" != 77 ] || return 0
		;;
	esac
	echo "@@log $1"
	# What went wrong first (check.h's FAIL lines, diag-compare.h's
	# PROBLEM lines): the guest's logs are gone after the boot, and a long
	# test's tail may not reach back to them.
	awk '/(^|[^A-Z])(FAIL |PROBLEM )/ && n++ < 20 { print "! " $0 }' "$2"
	tail -n "${log_lines:-15}" "$2"
	echo "@@endlog"
}

# run_one NAME [SIDE]: one capi-test on our library or upstream's.
run_one() {
	if [ "${2:-ours}" = upstream ]; then
		bin=/repo/bin-upstream/$1 row=upstream:$1 lib=/upstream
	else
		bin=/repo/bin/$1 row=$1 lib=/stage
	fi
	start=$(date +%s)
	# CAPI_LIBRARY: which library a test checks (policy-knobs checks our
	# diagnostics on ours only).
	CAPI_LIBRARY=${2:-ours} CAPI_STAGE=$lib LD_LIBRARY_PATH=$lib/usr/lib timeout -s KILL "$test_timeout" "$bin" \
		>"/tmp/$row.log" 2>&1 </dev/null
	rc=$?
	echo "@@ $row $rc $(($(date +%s) - start))"
	show_log "$row" "/tmp/$row.log" "$rc"
}

# init_exit_growth is most of the run under TCG and only watches its own
# process: it runs beside the others, on the second CPU. diag-debug turns
# the kernel.io_uring_disabled sysctl on for a moment (every io_uring_setup
# in the machine then fails with EPERM), and so does policy-knobs where the
# host allows it (CAPI_POLICY_SYSCTL=1): they run alone, at the end.
long="init_exit_growth"
alone="diag-debug policy-knobs"
for side in $sides; do
	[ "$side" = upstream ] && dir=/repo/bin-upstream || dir=/repo/bin
	pids=""
	for name in $tests; do
		case " $long " in *" $name "*)
			[ -x "$dir/$name" ] || continue
			run_one "$name" "$side" &
			pids="$pids $!"
			;;
		esac
	done
	for name in $tests; do
		case " $long $alone " in *" $name "*) continue ;; esac
		[ "$side" = upstream ] && row=upstream:$name || row=$name
		case " $guest_skip " in *" $name "*)
			echo "@@ $row 77 0"
			continue
			;;
		esac
		# A test that does not build against upstream's headers has no row.
		[ -x "$dir/$name" ] || continue
		run_one "$name" "$side"
	done
	for pid in $pids; do wait "$pid"; done
	for name in $tests; do
		case " $alone " in *" $name "*)
			[ -x "$dir/$name" ] && run_one "$name" "$side"
			;;
		esac
	done
done

# lt_run MODE NAME: one of liburing's tests, in a scratch directory of its
# own (some make files where they run): 0 pass, 77 skip, else fail, as its
# runtests.sh. Sets rc.
lt_run() {
	case $1 in
	reference) lib=/upstream/usr/lib ;;
	*) lib=/stage/usr/lib ;;
	esac
	rm -rf "/tmp/lt-$2"
	mkdir -p "/tmp/lt-$2"
	cd "/tmp/lt-$2" || return
	start=$(date +%s)
	LD_LIBRARY_PATH=$lib timeout -s KILL "$liburing_timeout" "/repo/liburing/$1/$2.t" \
		>"/tmp/lt-$1-$2.log" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - start))
	cd /
}
# lt_worse OURS REF: ours did worse than the reference (pass -> anything
# else; skip -> a failure), as the harness's common.worse.
lt_worse() {
	case $2 in
	0) [ "$1" != 0 ] ;;
	77) [ "$1" != 0 ] && [ "$1" != 77 ] ;;
	*) return 1 ;;
	esac
}
# run.sh says on the kernel command line whether this boot runs them.
grep -q 'liburing_tests=1' /proc/cmdline || liburing_tests=""
suspects=""
for name in $liburing_tests; do
	ref_rc=""
	for mode in $lt_modes; do
		[ -x "/repo/liburing/$mode/$name.t" ] || continue
		lt_run "$mode" "$name"
		echo "@@ liburing-$mode:$name $rc $secs"
		show_log "liburing-$mode:$name" "/tmp/lt-$mode-$name.log" "$rc"
		if [ "$mode" = reference ]; then
			ref_rc=$rc
		elif [ -n "$ref_rc" ] && lt_worse "$rc" "$ref_rc"; then
			suspects="$suspects $mode:$name"
		fi
	done
done
# Paired reruns: every round goes over all suspects in turn.
round=1
while [ -n "$suspects" ] && [ "$round" -le "$lt_pair_rounds" ]; do
	for s in $suspects; do
		mode=${s%%:*}
		name=${s#*:}
		lt_run reference "$name"
		r=$rc
		lt_run "$mode" "$name"
		echo "@@ pair $mode $name $round $r $rc"
	done
	round=$((round + 1))
done
# shellcheck source=/dev/null # written into the guest by the host
[ -f /repo/extra.sh ] && . /repo/extra.sh
echo "@@ done"
sync
poweroff -f
