# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# What the guest runs under qemu-system share (sourced by run.sh and
# personality.sh for arm64 guests, kernels.sh for amd64 guests; they set repo,
# here, cache, out, target, vm_timeout and start_all first, and vm_arch
# x86_64 for an amd64 guest, aarch64 when unset): their progress lines, the
# cross tools and qemu, our library built for aarch64, the initramfs's base
# and the boot itself.
vm_arch=${vm_arch:-aarch64}
: "${repo:?}" "${here:?}" "${cache:?}" "${out:?}" "${vm_timeout:?}" "${start_all:?}"
: "${target=}" # amd64 guests (kernels.sh) need no cross target

# The name of the last (in sorted order) module directory of guest tree $1
# matching pattern $2: its kernel release.
last_module_dir() {
	k=
	for d in "$1"/usr/lib/modules/$2; do
		[ -d "$d" ] && k=${d##*/}
	done
	echo "$k"
}

step() { printf '== %s (%ss)\n' "$1" $(($(date +%s) - start_all)); }
quietly() { # run a command, show its output only when it fails
	log=$out/step.log
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "FAILED: $*"
		return 1
	fi
}

# The cross gcc and glibc, qemu-system-aarch64 and the Rust library source,
# from the cache (debs.sh). Sets host, guest, cross_cc, qemu and rust_lib.
fetch_cross_tools() {
	quietly sh "$here/debs.sh" "$cache" bookworm amd64 gcc-12-aarch64-linux-gnu cpp-12-aarch64-linux-gnu \
		binutils-aarch64-linux-gnu libc6-arm64-cross libc6-dev-arm64-cross libgcc-12-dev-arm64-cross \
		libgcc-s1-arm64-cross linux-libc-dev-arm64-cross
	# qemu-system-aarch64: the machine's own, or qemu-system-arm and those of
	# its libraries the machine lacks, unpacked in the cache.
	qemu=$(command -v qemu-system-aarch64 || true)
	if [ -z "$qemu" ]; then
		qemu_pkgs=$(sh "$here/debs.sh" "$cache" --missing bookworm amd64 qemu-system-arm)
		# shellcheck disable=SC2086
		quietly sh "$here/debs.sh" "$cache" bookworm amd64 $qemu_pkgs
		qemu=$cache/root-amd64/usr/bin/qemu-system-aarch64
	fi
	rust_lib=$(sh "$here/rust-core.sh" "$cache" 2>"$out/step.log") || { cat "$out/step.log"; exit 1; }
	host=$cache/root-amd64
	guest=$cache/root-arm64
	LD_LIBRARY_PATH=$host/usr/lib/x86_64-linux-gnu:$host/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	# The cross glibc's linker scripts name /usr/aarch64-linux-gnu/...: the
	# unpacked tree is the sysroot.
	cross_cc="$host/usr/bin/aarch64-linux-gnu-gcc-12 --sysroot=$host"
}

# build_our_library DESTDIR: the library for $target (core from rust_lib),
# relinked by the Makefile and installed under DESTDIR/usr. Sets tools (the
# directory of the cross binutils under their plain names).
build_our_library() {
	# The cross compiler also builds the boundary's C shims (build_detour.rs).
	RUSTC_BOOTSTRAP=1 __CARGO_TESTS_ONLY_SRC_ROOT=$(cd "$rust_lib" && pwd) \
		TARGET_CC="$cross_cc" \
		quietly cargo build --release --quiet -p uring-rs -p uring-diag --lib --target "$target" -Zbuild-std=core
	# The Makefile's relink calls ld, objcopy and ar by those names.
	tools=$out/bin
	mkdir -p "$tools"
	for t in ld objcopy ar nm; do
		ln -sf "$host/usr/bin/aarch64-linux-gnu-$t" "$tools/$t"
	done
	lib_build=$out/lib
	mkdir -p "$lib_build"
	# uring-info is a host tool; the guest needs only the libraries and headers.
	touch "$lib_build/uring-info.none"
	make_vars="BUILD=$lib_build RUST_A=target/$target/release/liburing.a CARGO=true
	 URING_INFO=$lib_build/uring-info.none install_uring_info=no"
	# The digest and archive tools run here, so they are built with this
	# machine's linker before the cross binutils come first on PATH.
	# shellcheck disable=SC2086
	quietly make --no-print-directory $make_vars "$lib_build/diag-digest" "$lib_build/section-aliases"
	# shellcheck disable=SC2086
	PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars lib ffi
	rm -rf "$1"
	# shellcheck disable=SC2086
	PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars install \
		DESTDIR="$1" prefix=/usr
	file -L "$1/usr/lib/liburing.so.2" | grep -q 'ARM aarch64' || { echo "not an aarch64 library"; exit 1; }
}

# initramfs_base ROOT APPLET...: a fresh ROOT with busybox under those
# applet names and the C library's shared objects (an amd64 guest takes this
# machine's own, which its programs were linked against; an arm64 guest the
# cross glibc's). Needs guest (the unpacked packages holding busybox) and,
# for arm64, host.
initramfs_base() {
	root=$1
	shift
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/lib" "$root/proc" "$root/sys" "$root/tmp" "$root/dev"
	cp "$guest/usr/bin/busybox" "$root/bin/"
	for applet in "$@"; do
		ln -s busybox "$root/bin/$applet"
	done
	case $vm_arch in
	x86_64)
		sysroot_lib=/lib/x86_64-linux-gnu
		cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib/"
		# The program interpreter's path in every amd64 binary.
		ln -s lib "$root/lib64"
		;;
	*)
		sysroot_lib=$host/usr/aarch64-linux-gnu/lib
		cp -L "$sysroot_lib/ld-linux-aarch64.so.1" "$root/lib/"
		;;
	esac
	cp -L "$sysroot_lib/libc.so.6" "$sysroot_lib/libm.so.6" "$sysroot_lib/libgcc_s.so.1" "$root/lib/"
}

# boot_guest IMAGE LOG [KERNEL-ARGS]: $out/initramfs.cpio on the kernel image
# IMAGE (a Debian kernel's vmlinuz), 2 CPUs, no network, within vm_timeout,
# under nice (the machine is shared); the console in LOG and, without
# carriage returns, in LOG.txt. arm64: -M virt, 2 GiB; amd64: the default
# PC, 1 GiB, TCG (KVM runs no vCPU on these machines).
boot_guest() {
	case $vm_arch in
	x86_64) machine="-accel tcg -cpu max -m 1024" console=ttyS0 ;;
	*) machine="-M virt -cpu max -m 2048" console=ttyAMA0 ;;
	esac
	# shellcheck disable=SC2086
	timeout -k 10 "$vm_timeout" nice "$qemu" ${qemu_args:-} $machine -smp 2 -nographic -nic none \
		-no-reboot -kernel "$1" -initrd "$out/initramfs.cpio" \
		-append "console=$console quiet panic=-1${3:+ $3}" </dev/null >"$2" 2>&1 || true
	tr -d '\r' <"$2" >"$2.txt"
}
