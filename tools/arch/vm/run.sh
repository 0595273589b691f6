#!/bin/sh
# SPDX-License-Identifier: MIT
# The library and the capi-tests for aarch64, run on a Debian arm64 kernel
# under qemu-system-aarch64 at 4K and 16K pages (qemu-user has no io_uring).
#
#   sh tools/arch/vm/run.sh [4k|16k ...]      (default: both page sizes)
#
# Nothing is installed on the machine: Debian's packages (kernel, busybox,
# the cross gcc and glibc, qemu and its libraries, rust-src for -Zbuild-std)
# are fetched once into .cache/arch-vm and unpacked there (debs.sh). Builds
# and logs go to build/arch-vm. Each boot runs every capi-test as
# capi-tests/run.sh would (0 pass, 77 skip, else fail) inside the guest, then
# a list of liburing's own tests built against our headers and liburing.a
# (upstream's source from pytools/upstream/upstream.py, fetched once); the last line is `N passed, N failed` over both boots.
# Environment: VM_TIMEOUT (seconds per boot, default 900), VM_TEST_TIMEOUT
# (seconds per capi-test, default 240: under TCG init_exit_growth takes 80 s
# and more), VM_LIBURING_TIMEOUT (per liburing test, default 90),
# VM_LIBURING_TESTS (which of liburing's tests; empty: none),
# VM_LIBURING_PAGES (on which boots they run; default 16k).
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tools/arch/vm
cache=$repo/.cache/arch-vm
out=$repo/build/arch-vm
target=aarch64-unknown-linux-gnu
pages=${*:-4k 16k}
vm_timeout=${VM_TIMEOUT:-900}
test_timeout=${VM_TEST_TIMEOUT:-240}
liburing_timeout=${VM_LIBURING_TIMEOUT:-90}
start_all=$(date +%s)

# shellcheck source=common.sh
. "$here/common.sh"

mkdir -p "$out"
cd "$repo"

step "fetching Debian packages into $cache"
kernel_pkgs=""
for flavour in $pages; do
	case $flavour in
	4k) meta=linux-base-arm64 ;;
	16k) meta=linux-base-arm64-16k ;;
	*) echo "unknown page size $flavour (4k or 16k)" >&2; exit 2 ;;
	esac
	base=$(sh "$here/debs.sh" "$cache" --resolve sid arm64 "$meta")
	kernel_pkgs="$kernel_pkgs linux-binary-${base#linux-base-}"
done
# shellcheck disable=SC2086
quietly sh "$here/debs.sh" "$cache" sid arm64 busybox-static $kernel_pkgs
fetch_cross_tools

step "building the library for $target (core from $rust_lib)"
stage=$out/stage
build_our_library "$stage"

step "building uring-info for $target (std from the same source)"
# cargo links through a wrapper: the cross gcc with its sysroot.
link_cc=$tools/aarch64-cc
printf '#!/bin/sh\nexec %s "$@"\n' "$cross_cc" >"$link_cc"
chmod 755 "$link_cc"
RUSTC_BOOTSTRAP=1 __CARGO_TESTS_ONLY_SRC_ROOT=$(cd "$rust_lib" && pwd) \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$link_cc \
	quietly cargo build --release --quiet -p uring-info --target $target -Zbuild-std=std,panic_abort
mkdir -p "$stage/usr/bin"
cp "target/$target/release/uring-info" "$stage/usr/bin/"

step "building the capi-tests for aarch64"
tests=$out/tests
rm -rf "$tests"
mkdir -p "$tests"
cflags="-O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$stage/usr/include -I$repo/capi-tests"
# Two compilers at a time; a name goes to built/ or nobuild/ by outcome.
mkdir -p "$tests/built" "$tests/nobuild"
export cross_cc cflags tests stage
# shellcheck disable=SC2016 # expanded by the inner sh, from the exported variables
printf '%s\n' capi-tests/*.c | xargs -P 2 -n 1 sh -c '
	name=$(basename "$1" .c)
	if $cross_cc $cflags -o "$tests/$name" "$1" -L"$stage/usr/lib" \
		-luring -lpthread -ldl >"$tests/$name.build.log" 2>&1; then
		: >"$tests/built/$name"
	else
		: >"$tests/nobuild/$name"
	fi' sh
built=$(cd "$tests/built" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
nobuild=$(cd "$tests/nobuild" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
for name in $nobuild; do
	sed 's/^/    /' "$tests/$name.build.log" | head -n 20
done
# These compile programs while they run, or run strace or python3 (diag-harm,
# diag-json); the guest has none of them.
# diag-exit-threads runs 120 programs of four spinning threads: minutes
# under emulation, for what the native runs show.
guest_skip="static_link diag-trace diag-harm diag-check diag-json diag-exit-threads"

# A share of liburing's own suite in its source drop-in mode (the
# liburing-tests harness's term): upstream's test programs built against our
# headers and our liburing.a. Chosen to cover the common opcodes,
# registration and ring setups while fitting the time budget under TCG
# (left out: nop, poll, cq-overflow, 10 to 45 s each there; futex, 2 s
# natively but over 60 s there; pipe-bug, 25 s there on an idle machine and
# over 60 s on a busy one; timeout and wait-timeout, which time their
# waits and fail when emulation is slow).
liburing_tests=${VM_LIBURING_TESTS-nop-all-sizes read-write fsync poll-cancel link cq-full cq-size
 cq-peek-batch sq-full sq-space_left submit-and-wait eventfd register-restrictions probe buf-ring
 ringbuf-read send_recv socket-rw bind-listen accept connect shutdown splice statx openat2 rename
 unlink mkdir symlink truncate xattr madvise fadvise msg-ring file-register file-update
 fixed-buf-iter recv-multishot defer-taskrun resize-rings init-mem no-mmap-inval reg-wait ring-leak
 self personality}
upstream_src=$([ -z "$liburing_tests" ] || python3 -m pytools.upstream.upstream source 2>"$out/upstream-src.log" || true)
lt_built=""
if [ -n "$liburing_tests" ] && [ -z "$upstream_src" ]; then
	echo "liburing's source could not be fetched (see $out/upstream-src.log): its tests left out"
elif [ -n "$liburing_tests" ]; then
	# shellcheck disable=SC2086 # one word per test name
	step "building $(printf '%s\n' $liburing_tests | grep -c .) of liburing's tests for aarch64 (source drop-in)"
	lt=$out/liburing
	rm -rf "$lt"
	cp -a "$upstream_src" "$lt"
	(cd "$lt" && ./configure --cc="$cross_cc" >configure.log 2>&1) || { tail -n 20 "$lt/configure.log"; exit 1; }
	# Only our headers and our archive may be seen.
	mv "$lt/src/include" "$lt/src/include.upstream-hidden"
	cp "$stage/usr/lib/liburing.a" "$lt/src/"
	# shellcheck disable=SC2046
	make -k -j2 -C "$lt/test" CPPFLAGS="-I$stage/usr/include" \
		$(for t in $liburing_tests; do printf '%s.t ' "$t"; done) >"$lt/build.log" 2>&1 || true
	for t in $liburing_tests; do
		if [ -x "$lt/test/$t.t" ]; then
			lt_built="$lt_built $t"
		else
			nobuild="$nobuild liburing-source:$t"
		fi
	done
fi

step "making the initramfs"
initramfs_base "$out/initramfs" sh mount mkdir cat grep tail timeout date awk uname poweroff sync echo ip
mkdir -p "$root/repo/src"
cp -a "$stage/usr" "$root/stage-usr"
mkdir -p "$root/stage"
mv "$root/stage-usr" "$root/stage/usr"
# Tests that read the version maps find them through $CAPI_SRC/../src.
cp -a capi-tests "$root/repo/"
cp src/*.map "$root/repo/src/"
mkdir -p "$root/repo/bin"
for name in $built; do cp "$tests/$name" "$root/repo/bin/"; done
mkdir -p "$root/repo/liburing/source"
for name in $lt_built; do cp "$lt/test/$name.t" "$root/repo/liburing/source/"; done
{
	echo "#!/bin/sh"
	echo "test_timeout=$test_timeout"
	echo "liburing_timeout=$liburing_timeout"
	echo "tests=\"$built\""
	echo "guest_skip=\"$guest_skip\""
	echo "liburing_tests=\"$lt_built\""
	cat "$here/guest-init.sh"
} >"$root/init"
chmod 755 "$root/init"
python3 -m pytools.vm.cpio "$root" "$out/initramfs.cpio"

# liburing's tests run on the boots named in VM_LIBURING_PAGES (default
# 16k only: 4K pages are what liburing-tests runs the whole suite on, on
# this machine's own kernel).
with_liburing() {
	case " ${VM_LIBURING_PAGES-16k} " in *" $1 "*) echo 1 ;; *) echo 0 ;; esac
}
total_pass=0
total_fail=0
summary=$out/summary.txt
: >"$summary"
for flavour in $pages; do
	case $flavour in
	4k) kver=$(last_module_dir "$guest" '*-arm64') ;;
	16k) kver=$(last_module_dir "$guest" '*-arm64-16k') ;;
	esac
	step "booting $kver ($flavour pages) under qemu-system-aarch64"
	log=$out/console-$flavour.log
	boot_start=$(date +%s)
	boot_guest "$guest/usr/lib/modules/$kver/vmlinuz" "$log" "liburing_tests=$(with_liburing "$flavour")"
	secs=$(($(date +%s) - boot_start))
	# Rows the guest printed: "@@ name rc seconds".
	awk -v flavour="$flavour" -v secs="$secs" -v nobuild="$nobuild" '
		$1 == "@@" && $2 == "pagesize" { pagesize = $3 }
		$1 == "@@" && NF == 4 && $2 != "pagesize" {
			rc = $3; name = $2
			if (rc == 0) { res = "PASS"; p++ } else if (rc == 77) { res = "SKIP"; s++ } else { res = "FAIL"; f++; failed = failed " " name }
			printf "%-5s %-28s %-5s %5ss  rc=%s\n", flavour, name, res, $4, rc
		}
		/@@ done/ { done = 1 }
		/^\[ *[0-9]+\.[0-9]+\] .*(kernel BUG at|WARNING:|BUG:|Oops:|Internal error)/ { kern = kern "\n    " $0 }
		END {
			n = split(nobuild, nb, " ")
			for (i = 1; i <= n; i++) { printf "%-5s %-28s FAIL  does not compile\n", flavour, nb[i]; f++ }
			if (!done) { printf "%-5s %-28s FAIL  the guest did not finish (see console log)\n", flavour, "boot"; f++ }
			if (kern != "") { printf "%-5s %-28s FAIL  kernel log:%s\n", flavour, "kernel_log", kern; f++ }
			printf "%s pages (guest page size %s): %d passed, %d failed, %d skipped in %ss:%s\n", flavour, pagesize, p, f, s, secs, failed > "/dev/stderr"
			printf "%d %d\n", p, f > "'"$out"'/counts"
		}' "$log.txt" 2>>"$summary"
	read -r p f <"$out/counts"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	# The last lines of each failing test's output, as the guest printed them.
	awk '/^@@log / { show = 1; print; next } /^@@endlog/ { show = 0; next } show { print "    " $0 }' "$log.txt"
done
echo
cat "$summary"
echo "wall time $(($(date +%s) - start_all))s; logs in $out"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
