#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check-kernels`: our library and upstream liburing 2.15 on the amd64
# kernels Debian ships, each booted under qemu-system-x86_64 (TCG: KVM runs
# no vCPU on these machines) from an initramfs, by the same pieces as the
# arm64 guests of run.sh (common.sh, guest-init.sh, pytools/vm/cpio.py, debs.sh).
#
#   sh tools/arch/vm/kernels.sh [KERNEL ...]    (default: 5.10 6.1 6.12 sid)
#
# KERNEL: 5.10 (bullseye), 6.1 (bookworm), 6.12 (trixie), sid (the newest).
# Each boot runs every capi-test built against our staged library and again
# built against upstream's install, then liburing's own tests (a selection,
# below) in the harness's three modes, reference, source and binary drop-in,
# on that kernel, with paired reruns of a test that does worse on ours;
# pytools/vm/kernels_report.py judges them as the harness does and writes
# build/kernels/report.md. The last line is `N passed, N failed`: a failed
# capi-test on ours, a capi-test that passes on upstream and not on ours, or
# a regression of liburing's suite against upstream on the same kernel fails.
# Nothing is installed on the machine: the kernels, busybox and qemu are
# Debian's packages fetched once into .cache/kernels (debs.sh); the guest's C
# library is this machine's, which the programs are linked against.
# Environment:
#   STAGE          our staged install (default build/stage; `make check-kernels` makes it)
#   KERNELS_OUT    where builds, logs and reports go (default build/kernels)
#   KERNELS_FULL=1 every one of liburing's tests instead of the selection
#   KERNELS_SUITE  which of liburing's tests (space-separated; "none": none)
#   KERNELS_CAPI   which capi-tests (space-separated; default all; "none":
#                  none, not even built)
#   KERNELS_MAN=1  also the manual's checks (man/checks, built against ours
#                  and upstream's; kernels_man.py judges them and writes
#                  build/kernels/man-report.md; make check-man-kernels)
#   KERNELS_UNIT=0 leaves out the Rust unit tests (KERNELS_UNIT_PKGS: which
#                  crates' tests; default those that ask the kernel)
#   VM_TIMEOUT (seconds per boot, default 3600), VM_TEST_TIMEOUT (per
#   capi-test, default 240), VM_LIBURING_TIMEOUT (per liburing test, default 60),
#   VM_MAN_TIMEOUT (per program of man/checks, default 900)
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tools/arch/vm
cache=$repo/.cache/kernels
out=${KERNELS_OUT:-$repo/build/kernels}
vm_arch=x86_64
vm_timeout=${VM_TIMEOUT:-3600}
test_timeout=${VM_TEST_TIMEOUT:-240}
liburing_timeout=${VM_LIBURING_TIMEOUT:-60}
man_timeout=${VM_MAN_TIMEOUT:-900}
kernels=${*:-5.10 6.1 6.12 sid}
stage=${STAGE:-$repo/build/stage}
start_all=$(date +%s)

. "$here/common.sh"

# liburing's tests run by default (KERNELS_FULL=1: all 255). The arm64
# guest's share (run.sh: common opcodes, registration, ring setups), and the
# tests that take a fallback path on an old kernel: waits with a timeout
# (timeout-new, wait-timeout, submit-and-wait, 7ad0e4b2f83c: the internal
# timeout SQE before 5.11), setup and its flags (io_uring_setup,
# single-issuer, defer-taskrun, ignore-single-mmap, no-mmap-inval, init-mem),
# registration calls refused by old kernels (io_uring_register, reg-fd-only,
# reg-reg-ring, buf-ring, buf-ring-nommap, ringbuf-status, resize-rings,
# reg-wait), the enter call (io_uring_enter), probes (probe, nop-flags) and
# the library's version (version).
default_suite="nop-all-sizes read-write fsync poll-cancel link cq-full cq-size cq-peek-batch
 sq-full sq-space_left submit-and-wait eventfd register-restrictions probe buf-ring ringbuf-read
 send_recv socket-rw bind-listen accept connect shutdown splice statx openat2 rename unlink mkdir
 symlink truncate xattr madvise fadvise msg-ring file-register file-update fixed-buf-iter
 recv-multishot defer-taskrun resize-rings init-mem no-mmap-inval reg-wait ring-leak self
 personality pipe-bug timeout-new wait-timeout 7ad0e4b2f83c io_uring_setup io_uring_register
 io_uring_enter single-issuer ignore-single-mmap reg-fd-only reg-reg-ring buf-ring-nommap
 ringbuf-status nop-flags version"
if [ "${KERNELS_FULL:-0}" = 1 ]; then
	suite=""
	suite_desc="all of liburing's tests"
else
	# One line of names, separated by single spaces.
	suite=$(printf '%s\n' "${KERNELS_SUITE:-$default_suite}" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
	suite_desc="$(echo "$suite" | wc -w) of liburing's tests"
fi
[ "$suite" = none ] && suite_desc="none of liburing's tests"

mkdir -p "$out"
cd "$repo"
[ -e "$stage/usr/lib/liburing.so.2" ] || { echo "no staged library in $stage (make stage)"; exit 2; }

step "fetching Debian's kernels, busybox and qemu into $cache"
debs() { sh "$here/debs.sh" "$cache" "$@"; }
images=""
for k in $kernels; do
	case $k in
	5.10) suite_of=bullseye ;;
	6.1) suite_of=bookworm ;;
	6.12) suite_of=trixie ;;
	sid) suite_of=sid ;;
	*) echo "unknown kernel $k (5.10, 6.1, 6.12 or sid)" >&2; exit 2 ;;
	esac
	# The metapackage names the release's image; sid's goes through linux-base.
	pkg=$(debs --resolve $suite_of amd64 linux-image-amd64 2>"$out/step.log")
	case $pkg in linux-base-amd64)
		pkg=$(debs --resolve $suite_of amd64 linux-base-amd64 2>"$out/step.log")
		pkg=linux-binary-${pkg#linux-base-}
		;;
	esac
	quietly debs $suite_of amd64 "$pkg"
	kver=${pkg#linux-image-}
	kver=${kver#linux-binary-}
	for image in "$cache/root-amd64/boot/vmlinuz-$kver" "$cache/root-amd64/usr/lib/modules/$kver/vmlinuz"; do
		[ -e "$image" ] && break
	done
	[ -e "$image" ] || { echo "no vmlinuz for $kver in $pkg"; exit 1; }
	images="$images $k=$image"
done
quietly debs sid amd64 busybox-static
guest=$cache/root-amd64
qemu=$(command -v qemu-system-x86_64 || true)
if [ -z "$qemu" ]; then
	qemu_pkgs=$(debs --missing bookworm amd64 qemu-system-x86)
	# shellcheck disable=SC2086
	[ -z "$qemu_pkgs" ] || quietly debs bookworm amd64 $qemu_pkgs
	qemu=$guest/usr/bin/qemu-system-x86_64
	LD_LIBRARY_PATH=$guest/usr/lib/x86_64-linux-gnu:$guest/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	# Firmware from the unpacked packages (their links point to /usr/share).
	qemu_args="-L $guest/usr/share/qemu -L $guest/usr/share/seabios"
fi

step "upstream liburing 2.15 (pytools/upstream/upstream.py)"
upstream_stage=$(python3 -m pytools.upstream.upstream stage 2>"$out/upstream.log") ||
	{ tail -n 20 "$out/upstream.log"; exit 1; }

cflags_base="-O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$repo/capi-tests"
capi_sides="ours upstream"
if [ "${KERNELS_CAPI:-}" = none ]; then
	capi_sides=""
else
	step "building the capi-tests against ours and against upstream"
fi
rm -rf "$out/tests-ours" "$out/tests-upstream"
for side in $capi_sides; do
	[ "$side" = ours ] && usr=$stage/usr || usr=$upstream_stage/usr
	dir=$out/tests-$side
	mkdir -p "$dir/built" "$dir/nobuild"
	export usr dir cflags_base
	# shellcheck disable=SC2016 # the inner script expands its own variables
	printf '%s\n' capi-tests/*.c | xargs -P 2 -n 1 sh -c '
		name=$(basename "$1" .c)
		if nice cc $cflags_base -I"$usr/include" -o "$dir/$name" "$1" -L"$usr/lib" \
			-luring -lpthread -ldl >"$dir/$name.build.log" 2>&1; then
			: >"$dir/built/$name"
		else
			: >"$dir/nobuild/$name"
		fi' sh
done
# The names of the files in directory $1, on one line.
names_in() { for f in "$1"/*; do if [ -e "$f" ]; then printf "%s " "${f##*/}"; fi; done; }
built=$(names_in "$out/tests-ours/built")
if [ -n "${KERNELS_CAPI:-}" ]; then
	built=$(for n in $built; do case " $KERNELS_CAPI " in *" $n "*) echo "$n" ;; esac; done | tr '\n' ' ')
fi
nobuild=$(names_in "$out/tests-ours/nobuild")
nobuild_upstream=$(names_in "$out/tests-upstream/nobuild")
for name in $nobuild; do
	sed 's/^/    /' "$out/tests-ours/$name.build.log" | head -n 20
done
# These compile programs while they run; the guest has no compiler (nor
# strace and python3, which diag-harm and diag-json need).
# diag-exit-threads runs 120 programs of four spinning threads: minutes
# under emulation, for what the native runs show.
guest_skip="static_link diag-trace diag-harm diag-check diag-json diag-exit-threads"

# The Rust unit tests of the crates that talk to the kernel, built here as
# `cargo test` builds them, without their debug info (the initramfs is
# unpacked into the guest's memory).
unit_dir=$out/unit
rm -rf "$unit_dir"
mkdir -p "$unit_dir"
if [ "${KERNELS_UNIT:-1}" = 1 ]; then
	step "building the Rust unit tests (cargo test --no-run)"
	pkg_args=$(for p in ${KERNELS_UNIT_PKGS:-uring-rs uring-core uring-diag uring-sysinfo}; do printf -- '-p %s ' "$p"; done)
	# shellcheck disable=SC2086 # one word per argument
	nice cargo test --quiet --no-run --lib $pkg_args --message-format=json >"$out/unit-build.json" \
		2>"$out/step.log" || { tail -n 40 "$out/step.log"; exit 1; }
	grep -o '"executable":"[^"]*"' "$out/unit-build.json" | sed 's/^"executable":"//; s/"$//' |
		while read -r exe; do
			name=${exe##*/}
			objcopy --strip-debug "$exe" "$unit_dir/${name%-*}"
		done
fi

man_checks=$out/man-checks
rm -rf "$man_checks"
if [ "${KERNELS_MAN:-0}" = 1 ]; then
	step "building the manual's checks (man/checks) against ours and upstream's"
	quietly nice python3 -m pytools.vm.kernels_man build "$stage/usr" "$upstream_stage/usr" "$man_checks"
fi

lt_built=""
if [ "$suite" != none ]; then
	step "building $suite_desc in three modes (pytools/vm/lt_builds.py)"
	# shellcheck disable=SC2086
	quietly nice python3 -m pytools.vm.lt_builds "$stage" "$out/liburing" $suite
	lt_built=$(names_in "$out/liburing/reference" | sed 's/\.t / /g')
fi

step "making the initramfs"
initramfs_base "$out/initramfs" sh mount mkdir cat grep tail timeout date awk uname poweroff sync \
	echo ip rm ls sed sysctl
mkdir -p "$root/repo/src" "$root/stage" "$root/upstream"
cp -a "$stage/usr" "$root/stage/"
cp -a "$upstream_stage/usr" "$root/upstream/"
rm -rf "$root/stage/usr/share" "$root/upstream/usr/share" "$root"/stage/usr/lib/*.a "$root"/upstream/usr/lib/*.a
# The binary mode's tests name our library by its path here as their run
# path (for a test that runs another with an empty environment).
mkdir -p "$root$(dirname "$stage")"
ln -s /stage "$root$stage"
# Tests that read the version maps find them through $CAPI_SRC/../src.
cp -a capi-tests "$root/repo/"
cp -a "$unit_dir" "$root/repo/unit"
cp src/*.map "$root/repo/src/"
mkdir -p "$root/repo/bin" "$root/repo/bin-upstream"
for name in $built; do cp "$out/tests-ours/$name" "$root/repo/bin/"; done
for name in $(names_in "$out/tests-upstream/built"); do cp "$out/tests-upstream/$name" "$root/repo/bin-upstream/"; done
if [ -n "$lt_built" ]; then
	mkdir -p "$root/repo/liburing"
	for mode in reference source binary; do cp -a "$out/liburing/$mode" "$root/repo/liburing/"; done
fi
cp "$here/kernels-guest.sh" "$root/repo/extra.sh"
if [ -d "$man_checks" ]; then
	mkdir -p "$root/repo/man-checks"
	cp -a "$man_checks/ours" "$man_checks/upstream" "$root/repo/man-checks/"
	cat "$here/kernels-man-guest.sh" >>"$root/repo/extra.sh"
fi
{
	echo "#!/bin/sh"
	echo "test_timeout=$test_timeout"
	echo "liburing_timeout=$liburing_timeout"
	echo "man_timeout=$man_timeout"
	echo "tests=\"$built\""
	echo "guest_skip=\"$guest_skip\""
	echo "liburing_tests=\"$lt_built\""
	echo "sides=\"ours upstream\""
	echo "lt_modes=\"reference source binary\""
	echo "lt_pair_rounds=3"
	echo "log_lines=40"
	echo "always_log=\"$(for f in capi-tests/fallback-*.c; do [ -e "$f" ] && f=${f##*/} && printf '%s ' "${f%.c}"; done)policy-knobs\""
	# policy-knobs switches io_uring off for the whole machine: harmless in
	# a guest of its own.
	echo "CAPI_POLICY_SYSCTL=1"
	echo "export CAPI_POLICY_SYSCTL"
	cat "$here/guest-init.sh"
} >"$root/init"
chmod 755 "$root/init"
python3 -m pytools.vm.cpio "$root" "$out/initramfs.cpio"
echo "    initramfs $(du -m "$out/initramfs.cpio" | cut -f1) MB"

for ki in $images; do
	k=${ki%%=*}
	image=${ki#*=}
	step "booting $k ($(basename "$image")) under qemu-system-x86_64 (TCG)"
	log=$out/console-$k.log
	boot_start=$(date +%s)
	boot_guest "$image" "$log" "liburing_tests=$([ -n "$lt_built" ] && echo 1 || echo 0)"
	# A guest that did not finish is booted once more (measured: sid's
	# kernel once died of an int3 Oops while patching its own code under
	# TCG with 2 vCPUs); the first console log is kept as LOG.1.txt and
	# the report says so.
	if ! grep -q '^@@ done' "$log.txt"; then
		echo "    the guest did not finish (see $log.1.txt): booting it again"
		mv "$log.txt" "$log.1.txt"
		boot_guest "$image" "$log" "liburing_tests=$([ -n "$lt_built" ] && echo 1 || echo 0)"
	fi
	echo "$(($(date +%s) - boot_start))" >"$out/wall-$k"
done
step "judging"
rc=0
# shellcheck disable=SC2086
python3 -m pytools.vm.kernels_report "$out" --nobuild "$nobuild" --nobuild-upstream "$nobuild_upstream" \
	--suite-desc "$suite_desc" $kernels || rc=$?
if [ -d "$man_checks" ]; then
	step "judging the manual's checks"
	# shellcheck disable=SC2086
	python3 -m pytools.vm.kernels_man report "$out" $kernels || rc=1
fi
echo "wall time $(($(date +%s) - start_all))s; logs and report in $out"
exit $rc
