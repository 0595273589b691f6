# SPDX-License-Identifier: MIT
# The rest of the guest's /init for personality.sh (which puts rounds and
# nreads above): load null_blk as the seeds did (one device, completions at
# once), then run bench/personality at QD 128 on /dev/nullb0, built against
# ours and against upstream liburing, without and with a registered
# personality, in an order that rotates each round. Prints
# "@@ run ROUND SIDE PERSONALITY <result line>" rows, then powers off.
# shellcheck shell=sh
: "${rounds:?}" "${nreads:?}"
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
echo "@@ pagesize $(awk '/KernelPageSize/ { print $2 $3; exit }' /proc/self/smaps)"
echo "@@ kernel $(uname -r)"
if ! insmod /mod/configfs.ko >/tmp/insmod.log 2>&1; then
	# Built in on some kernels: null_blk then loads without it.
	echo "@@ configfs-insmod $(cat /tmp/insmod.log)"
fi
if ! insmod /mod/null_blk.ko nr_devices=1 completion_nsec=0 >/tmp/insmod.log 2>&1; then
	echo "@@ nullblk-fail insmod: $(cat /tmp/insmod.log)"
fi
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 10 ]; do
	sleep 1
	i=$((i + 1))
done
if [ ! -b /dev/nullb0 ]; then
	echo "@@ nullblk-fail no /dev/nullb0"
	ls /dev
else
	echo "@@ nullblk $(cat /sys/block/nullb0/size) sectors"
	set -- ours:0 ours:1 upstream:0 upstream:1
	r=1
	while [ $r -le "$rounds" ]; do
		for cfg in "$@"; do
			side=${cfg%:*}
			pers=${cfg#*:}
			res=$("/bin/personality-$side" file=/dev/nullb0 device=1 qd=128 \
				personality="$pers" n="$nreads" 2>&1 | tail -n 1)
			echo "@@ run $r $side $pers $res"
		done
		# Rotate: the first configuration of this round runs last in the next.
		first=$1
		shift
		set -- "$@" "$first"
		r=$((r + 1))
	done
fi
echo "@@ done"
sync
poweroff -f
