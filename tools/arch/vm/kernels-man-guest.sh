# SPDX-License-Identifier: MIT
# shellcheck shell=sh
: "${man_timeout:?}" # set by the guest's /init (kernels.sh, KERNELS_MAN=1)
# The manual's checks on this kernel (kernels.sh appends this to
# /repo/extra.sh when KERNELS_MAN=1): each program of man/checks, built on
# the host against our install and against upstream's (pytools/vm/kernels_man.py
# build), in /repo/man-checks/SIDE/. Its result lines ("CASE: ok", "CASE:
# FAIL ...", "CASE: not checkable here (...)") are printed between
# "@@man SIDE PROGRAM" and "@@endman RC SECONDS"; kernels_man.py report
# judges them as check-man does.
# register-file-backed-EFAULT maps a file it makes in /var/tmp.
mkdir -p /var/tmp
for side in ours upstream; do
	[ "$side" = ours ] && lib=/stage || lib=/upstream
	for exe in /repo/man-checks/"$side"/*; do
		[ -x "$exe" ] || continue
		name=${exe##*/}
		# A scratch directory of its own: some cases make files where they run.
		rm -rf /tmp/man-run
		mkdir -p /tmp/man-run
		cd /tmp/man-run || continue
		start=$(date +%s)
		LD_LIBRARY_PATH=$lib/usr/lib timeout -s KILL "$man_timeout" "$exe" \
			>"/tmp/man-$side-$name.out" 2>"/tmp/man-$side-$name.err" </dev/null
		rc=$?
		secs=$(($(date +%s) - start))
		cd /
		echo "@@man $side $name"
		cat "/tmp/man-$side-$name.out"
		echo "@@endman $rc $secs"
		if [ "$rc" != 0 ]; then
			echo "@@log man:$side:$name"
			tail -n "${log_lines:-15}" "/tmp/man-$side-$name.err"
			echo "@@endlog"
		fi
	done
done
