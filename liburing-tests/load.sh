#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a command while every CPU is kept busy: one spinning shell loop per CPU,
# pinned to it with taskset when available, at normal priority, for the whole
# run. Used to show that the liburing-tests harness does not turn load into
# regressions (upstream's iowait.t, for one, fails whenever CPU 0 is busy):
#
#   sh liburing-tests/load.sh -- sh liburing-tests/run.sh --stage $PWD/build/stage
#   sh liburing-tests/load.sh -n 4 -- make test
#
# Exits with the command's status; prints the CPU time each spinner got, so the
# log shows the load was there.
set -u

spinners=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
	case "$1" in
	-n) spinners=$2; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ]; then
	echo "usage: sh liburing-tests/load.sh [-n SPINNERS] -- COMMAND [ARGS...]" >&2
	exit 2
fi

ncpu=$(nproc 2>/dev/null || echo 1)
pids=""
i=0
while [ "$i" -lt "$spinners" ]; do
	cpu=$((i % ncpu))
	if command -v taskset >/dev/null 2>&1; then
		taskset -c "$cpu" sh -c 'while :; do :; done' &
	else
		sh -c 'while :; do :; done' &
	fi
	pids="$pids $!"
	i=$((i + 1))
done
echo "load: $spinners spinning process(es) on $ncpu CPU(s): pids$pids"

# CPU seconds a process has used, from /proc/<pid>/stat (utime + stime).
cpu_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.0f", ($12 + $13) / hz }' \
		"/proc/$1/stat" 2>/dev/null || echo "?"
}

stop_load() {
	for p in $pids; do
		echo "load: spinner $p used $(cpu_seconds "$p") CPU s"
	done
	# Each spinner by its own pid: taskset execs the shell, so the pid is the loop.
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	pids=""
}
trap 'stop_load; exit 130' INT TERM

start=$(date +%s)
"$@"
status=$?
echo "load: command exited $status after $(($(date +%s) - start)) s under load"
stop_load
exit "$status"
