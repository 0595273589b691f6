# SPDX-License-Identifier: MIT
# The rest of the guest's /init (run.sh puts test_timeout and tests above):
# mount what the tests use, run each one, print "@@ name rc seconds" rows and
# the tail of a failing test's output, then power off.
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
CAPI_STAGE=/stage
CAPI_SRC=/repo/capi-tests
CAPI_OUT=/tmp/out
TMPDIR=/tmp
LD_LIBRARY_PATH=/stage/usr/lib
export CAPI_STAGE CAPI_SRC CAPI_OUT TMPDIR LD_LIBRARY_PATH
mkdir -p "$CAPI_OUT"

run_one() {
	start=$(date +%s)
	timeout -s KILL "$test_timeout" "/repo/bin/$1" >"/tmp/$1.log" 2>&1 </dev/null
	rc=$?
	echo "@@ $1 $rc $(($(date +%s) - start))"
	if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
		echo "@@log $1"
		tail -n 15 "/tmp/$1.log"
		echo "@@endlog"
	fi
}

# init_exit_growth is most of the run under TCG and only watches its own
# process: it runs beside the others, on the second CPU. diag-debug turns
# the kernel.io_uring_disabled sysctl on for a moment (every io_uring_setup
# in the machine then fails with EPERM): it runs alone, at the end.
long="init_exit_growth"
alone="diag-debug"
pids=""
for name in $tests; do
	case " $long " in *" $name "*)
		run_one "$name" &
		pids="$pids $!"
		;;
	esac
done
for name in $tests; do
	case " $long $alone " in *" $name "*) continue ;; esac
	case " $guest_skip " in *" $name "*)
		echo "@@ $name 77 0"
		continue
		;;
	esac
	run_one "$name"
done
# liburing's own tests, each in a scratch directory of its own (some make
# files where they run): 0 pass, 77 skip, else fail, as its runtests.sh.
# run.sh says on the kernel command line whether this boot runs them.
grep -q 'liburing_tests=1' /proc/cmdline || liburing_tests=""
for name in $liburing_tests; do
	mkdir -p "/tmp/lt-$name"
	cd "/tmp/lt-$name" || continue
	start=$(date +%s)
	timeout -s KILL "$liburing_timeout" "/repo/liburing/$name.t" >"/tmp/lt-$name.log" 2>&1 </dev/null
	rc=$?
	cd /
	echo "@@ liburing:$name $rc $(($(date +%s) - start))"
	if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
		echo "@@log liburing:$name"
		tail -n 15 "/tmp/lt-$name.log"
		echo "@@endlog"
	fi
done
for pid in $pids; do wait "$pid"; done
for name in $tests; do
	case " $alone " in *" $name "*) run_one "$name" ;; esac
done
echo "@@ done"
sync
poweroff -f
