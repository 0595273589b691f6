# SPDX-License-Identifier: MIT
# The rest of the guest's /init (run.sh puts test_timeout and tests above):
# mount what the tests use, run each one, print "@@ name rc seconds" rows and
# the tail of a failing test's output, then power off.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/shm /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
echo "@@ pagesize $(awk '/KernelPageSize/ { print $2 $3; exit }' /proc/self/smaps)"
echo "@@ kernel $(uname -r)"
CAPI_STAGE=/stage
CAPI_SRC=/repo/capi-tests
CAPI_OUT=/tmp/out
TMPDIR=/tmp
LD_LIBRARY_PATH=/stage/usr/lib
export CAPI_STAGE CAPI_SRC CAPI_OUT TMPDIR LD_LIBRARY_PATH
mkdir -p "$CAPI_OUT"
for name in $tests; do
	start=$(date +%s)
	timeout -s KILL "$test_timeout" "/repo/bin/$name" >"/tmp/$name.log" 2>&1 </dev/null
	rc=$?
	echo "@@ $name $rc $(($(date +%s) - start))"
	if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
		echo "@@log $name"
		tail -n 15 "/tmp/$name.log"
		echo "@@endlog"
	fi
done
echo "@@ done"
sync
poweroff -f
