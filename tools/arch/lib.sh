# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Shared by the tools/arch/ scripts (sourced, not run): where things go, how a
# result is recorded, how packages and Rust's core for other targets arrive.
#   ARCH_ROOT     the repository
#   ARCH_CACHE    downloads and builds (default <repo>/.cache/arch)
#   ARCH_RESULTS  one line per result: "PASS|FAIL|SKIP name seconds note"

ARCH_ROOT=${ARCH_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
ARCH_CACHE=${ARCH_CACHE:-$ARCH_ROOT/.cache/arch}
ARCH_RESULTS=${ARCH_RESULTS:-$ARCH_CACHE/results.txt}
mkdir -p "$ARCH_CACHE/logs"
export ARCH_ROOT ARCH_CACHE ARCH_RESULTS

# result PASS|FAIL|SKIP name seconds note...
result() {
	r=$1 n=$2 s=$3
	shift 3
	printf '%s %s %s %s\n' "$r" "$n" "$s" "$*" >>"$ARCH_RESULTS"
	printf 'check-arch: %-4s %-28s %6ss  %s\n' "$r" "$n" "$s" "$*"
}

now() { date +%s; }

# step NAME COMMAND...: runs COMMAND with its output in logs/NAME.log and
# records PASS (exit 0), SKIP (exit 77) or FAIL with the log's last lines.
step() {
	name=$1
	shift
	log=$ARCH_CACHE/logs/$name.log
	t0=$(now)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(($(now) - t0))
	case $rc in
	0) result PASS "$name" "$secs" "$(step_note "$log")" ;;
	77) result SKIP "$name" "$secs" "$(grep -m1 'SKIP' "$log" | cut -c1-120)" ;;
	*)
		result FAIL "$name" "$secs" "exit $rc, log $log"
		tail -n 25 "$log" | sed 's/^/    /'
		;;
	esac
	return "$rc"
}

# A test runner's closing count, when the log has one.
step_note() {
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1
}

# need_packages PKG...: installs the Debian packages not yet installed.
need_packages() {
	missing=""
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	echo "installing:$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 $missing ||
		{ apt-get update -q -o DPkg::Lock::Timeout=600 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 $missing; }
}

# rust_cross_env: cargo may now build core for any target (-Zbuild-std)
# from the rust-src package matching the installed rustc (fetched by the
# first family that asks while the others wait: check-arch runs two at once).
rust_cross_env() {
	lib=$(flock "$ARCH_CACHE/.rust-src.lock" sh "$ARCH_ROOT/tools/arch/rust-src.sh" "$ARCH_CACHE") ||
		return 1
	__CARGO_TESTS_ONLY_SRC_ROOT=$lib
	RUSTC_BOOTSTRAP=1
	export __CARGO_TESTS_ONLY_SRC_ROOT RUSTC_BOOTSTRAP
}
