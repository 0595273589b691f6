#!/bin/sh
# SPDX-License-Identifier: MIT
# The arm64 packages of packaging/debian/ as installed, run on a Debian arm64
# kernel under qemu-system-aarch64 (4K pages; qemu-user has no io_uring):
# make check-debian-cross calls it once dpkg has installed liburing-rs2,
# liburing-rs-dev and uring-info of arm64 into its sid root (multiarch) and
# debian/tests/capi has compiled the capi-tests there (CAPI_BUILD_ONLY=1).
#
#   sh tools/arch/vm/packages.sh ROOT TESTS OUT
#
# ROOT: that root (its /usr/lib/aarch64-linux-gnu holds the arm64 C library
# and our private directory, as dpkg installed them); TESTS: the directory
# of the compiled tests (built.txt names them); OUT: logs and the initramfs.
# The guest gets the installed files at their installed paths, the arm64 C
# library of the root, busybox, and the tests; it runs them as
# debian/tests/capi would, with /stage/usr/lib the private directory
# (guest-init.sh: 0 pass, 77 skip, else fail). Kernel, busybox and qemu are
# Debian's packages fetched once into .cache/arch-vm (debs.sh), as
# check-arch-vm does. The last line is `N passed, N failed`.
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tools/arch/vm
cache=$repo/.cache/arch-vm
root=$(cd "$1" && pwd)
tests=$(cd "$2" && pwd)
out=$3
vm_timeout=${VM_TIMEOUT:-900}
test_timeout=${VM_TEST_TIMEOUT:-240}
start_all=$(date +%s)
ma=aarch64-linux-gnu
private=/usr/lib/$ma/uring-rs
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=common.sh
. "$here/common.sh"

step "fetching the arm64 kernel, busybox and qemu into $cache"
base=$(sh "$here/debs.sh" "$cache" --resolve sid arm64 linux-base-arm64)
quietly sh "$here/debs.sh" "$cache" sid arm64 busybox-static "linux-binary-${base#linux-base-}"
guest=$cache/root-arm64
qemu=$(command -v qemu-system-aarch64 || true)
if [ -z "$qemu" ]; then
	qemu_pkgs=$(sh "$here/debs.sh" "$cache" --missing bookworm amd64 qemu-system-arm)
	# shellcheck disable=SC2086
	[ -z "$qemu_pkgs" ] || quietly sh "$here/debs.sh" "$cache" bookworm amd64 $qemu_pkgs
	qemu=$cache/root-amd64/usr/bin/qemu-system-aarch64
	LD_LIBRARY_PATH=$cache/root-amd64/usr/lib/x86_64-linux-gnu:$cache/root-amd64/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi

step "making the initramfs from the installed packages"
r=$out/initramfs
rm -rf "$r"
mkdir -p "$r/bin" "$r/lib" "$r/proc" "$r/sys" "$r/tmp" "$r/dev" "$r/usr/lib/$ma" "$r/usr/bin" "$r/usr/include"
cp "$guest/usr/bin/busybox" "$r/bin/"
for applet in sh mount mkdir cat grep tail timeout date awk uname poweroff sync echo ip; do
	ln -s busybox "$r/bin/$applet"
done
# The C library as dpkg installed it for arm64 in the root, at the
# program interpreter's path.
for so in ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libgcc_s.so.1; do
	cp -L "$root/usr/lib/$ma/$so" "$r/usr/lib/$ma/"
done
ln -s "../usr/lib/$ma/ld-linux-aarch64.so.1" "$r/lib/ld-linux-aarch64.so.1"
# Our packages' files, at their installed paths.
cp -a "$root$private" "$r/usr/lib/$ma/"
cp -a "$root/usr/include/uring-rs" "$r/usr/include/"
cp -a "$root/usr/bin/uring-info" "$r/usr/bin/"
file -L "$r$private/liburing.so.2" | grep -q 'ARM aarch64' || { echo "not an aarch64 library"; exit 1; }
# debian/tests/capi's stage: the private directories.
mkdir -p "$r/stage/usr/bin"
ln -s "$private" "$r/stage/usr/lib"
ln -s /usr/include/uring-rs "$r/stage/usr/include"
ln -s /usr/bin/uring-info "$r/stage/usr/bin/uring-info"
mkdir -p "$r/repo/src" "$r/repo/bin"
cp -a "$repo/capi-tests" "$r/repo/"
cp "$repo"/src/*.map "$r/repo/src/"
built=$(tr '\n' ' ' <"$tests/built.txt")
for name in $built; do cp "$tests/$name" "$r/repo/bin/"; done
{
	echo "#!/bin/sh"
	echo "test_timeout=$test_timeout"
	echo "liburing_timeout=60"
	echo "tests=\"$built\""
	# As run.sh's guests: these compile programs, run strace or python3.
	echo "guest_skip=\"static_link diag-trace diag-harm diag-check diag-json diag-exit-threads\""
	echo "liburing_tests=\"\""
	cat "$here/guest-init.sh"
} >"$r/init"
chmod 755 "$r/init"
python3 -m pytools.vm.cpio "$r" "$out/initramfs.cpio"

kver=$(last_module_dir "$guest" '*-arm64')
step "booting $kver under qemu-system-aarch64"
log=$out/console.log
boot_guest "$guest/usr/lib/modules/$kver/vmlinuz" "$log"
awk '
	$1 == "@@" && $2 == "pagesize" { pagesize = $3 }
	$1 == "@@" && NF == 4 && $2 != "pagesize" {
		if ($3 == 0) { res = "PASS"; p++ } else if ($3 == 77) { res = "SKIP"; s++ } else { res = "FAIL"; f++ }
		printf "%-28s %-5s %5ss  rc=%s\n", $2, res, $4, $3
	}
	/@@ done/ { done = 1 }
	END {
		if (!done) { print "boot FAIL the guest did not finish (see console log)"; f++ }
		printf "arm64 kernel '"$kver"', page size %s: %d passed, %d failed, %d skipped\n", pagesize, p, f, s
		printf "%d passed, %d failed\n", p, f
	}' "$log.txt"
