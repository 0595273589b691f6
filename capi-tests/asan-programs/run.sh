#!/bin/sh
# SPDX-License-Identifier: MIT
# The sanitizer build's SQE checks (core/src/sanitize.rs), one opcode family
# each: poisoned-sqe.c is built with -fsanitize=address against the library
# in <libdir> (headers from <includedir>) and run once per family. Each
# family must be stopped at submit (status 1), our line naming the opcode and
# the field, then ASan's description naming the free; the program with a
# live buffer must run to its end. `make check-sanitizer-build` runs it on a
# library built with SANITIZE=address,undefined.
#
#   sh capi-tests/asan-programs/run.sh <libdir> <includedir> <workdir>
set -u
lib=$1 inc=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
mkdir -p "$out"
bin=$out/poisoned-sqe
$CC -fsanitize=address -fno-omit-frame-pointer -g -O1 -Wall -Wextra -Werror \
	-I"$inc" -o "$bin" "$here/poisoned-sqe.c" -L"$lib" -luring || exit 1

fails=0
# family, and what our line must name: the SQE field, or for a
# registration what was checked
for case in read:'sqe->addr' writev:'sqe->addr' timeout:'sqe->addr' \
	openat:'sqe->addr' accept:'sqe->addr2' getxattr:'sqe->addr3' \
	cmd-sock:'sqe->optval' register-buffers:'the buffer of an iovec' \
	register-files:'the arg'; do
	family=${case%%:*} field=${case#*:}
	LD_LIBRARY_PATH=$lib "$bin" "$family" > "$out/$family.out" 2> "$out/$family.err"
	status=$?
	if [ $status -ne 1 ] ||
		! grep -q "liburing: sanitizer: .*$field points at poisoned memory" "$out/$family.err" ||
		! grep -q "freed by thread" "$out/$family.err" ||
		grep -q "submitted\|registered" "$out/$family.out"; then
		echo "FAIL $family: status $status, expected 1 with the finding and ASan's free stack:"
		sed 's/^/    /' "$out/$family.err" | head -20
		fails=$((fails + 1))
	else
		echo "ok   $family: stopped, $field"
	fi
done
LD_LIBRARY_PATH=$lib "$bin" fine > "$out/fine.out" 2> "$out/fine.err"
status=$?
if [ $status -ne 0 ] || ! grep -q "fine: res 4096" "$out/fine.out"; then
	echo "FAIL fine: status $status, expected the live-buffer read to complete"
	sed 's/^/    /' "$out/fine.err" | head -20
	fails=$((fails + 1))
else
	echo "ok   fine: ran to its end"
fi
[ $fails -eq 0 ]
