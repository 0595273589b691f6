#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Build every examples/*.c against an installed liburing and run it.
#
#   sh examples/run.sh <stage-dir>
#
# <stage-dir> holds usr/include and usr/lib (make stage). Each example is
# compiled with $CC, $EXAMPLES_CFLAGS and $EXAMPLES_LDFLAGS (the Makefile
# passes the user's CPPFLAGS/CFLAGS/LDFLAGS), linked to the stage's
# liburing.so, and run with that directory on LD_LIBRARY_PATH. An example
# exits 77 to say "skipped" (missing kernel feature, not root). Every
# example needs a scenario below; a new example without one fails.
set -u

if [ $# -ne 1 ] || [ ! -d "$1/usr/include" ]; then
	echo "usage: sh $0 <stage-dir>" >&2
	exit 2
fi
stage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
out=$(mktemp -d /tmp/examples.XXXXXX)
trap 'rm -rf "$out"' EXIT INT TERM
LD_LIBRARY_PATH="$stage/usr/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH

# Each scenario runs one built example ($1 = binary); exit status as the test's.
scenario_link_copy() {
	# An odd size: many full chunks and a short last one.
	head -c 5000001 /dev/urandom >"$out/copy.in" &&
		timeout 30 "$1" "$out/copy.in" "$out/copy.out" &&
		cmp "$out/copy.in" "$out/copy.out"
}

scenario_eventfd_loop() {
	timeout 60 "$1" 2000
}

scenario_personality() {
	timeout 30 "$1"
}

# The example makes two mistakes on purpose: LIBURING_DEBUG must explain the
# refused setup on stderr, LIBURING_TRACE must warn about the multishot
# receive without IOSQE_BUFFER_SELECT (README.md shows both outputs).
scenario_diagnostics() {
	LIBURING_DEBUG=1 LIBURING_TRACE="$out/diagnostics.trace" timeout 30 "$1" \
		2>"$out/diagnostics.err" || return $?
	grep -q '^liburing: io_uring_queue_init_params(entries 8, flags IORING_SETUP_DEFER_TASKRUN) failed' \
		"$out/diagnostics.err" || { echo "no LIBURING_DEBUG line"; return 1; }
	grep -q 'WARNING: .*lacks IOSQE_BUFFER_SELECT' "$out/diagnostics.trace" ||
		{ echo "no LIBURING_TRACE warning"; return 1; }
	echo "LIBURING_DEBUG and LIBURING_TRACE explained both mistakes"
}

# The server serves exactly 4 clients, then exits by itself; the clients run
# in parallel, each sending 200 messages of varying size and checking the
# echo of each before the next.
scenario_echo_server() {
	timeout 60 "$1" 0 4 >"$out/server.out" &
	server=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$out/server.out")
		[ -n "$port" ] && break
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$port" ]; then
		wait "$server"
		return $?
	fi
	timeout 60 python3 - "$port" >"$out/client.out" 2>&1 <<'EOF'
import socket, sys, threading

port, failures = int(sys.argv[1]), []

def client(n):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            for i in range(200):
                msg = bytes([(n + i) & 0xff]) * (1 + (i * 997 + n * 131) % 9000)
                s.sendall(msg)
                got = b""
                while len(got) < len(msg):
                    chunk = s.recv(65536)
                    if not chunk:
                        raise RuntimeError("server closed early")
                    got += chunk
                if got != msg:
                    raise RuntimeError("echo %d differs" % i)
    except Exception as e:
        failures.append("client %d: %s" % (n, e))

threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print("\n".join(failures) or "4 clients x 200 messages echoed")
sys.exit(1 if failures else 0)
EOF
	client_rc=$?
	wait "$server"
	server_rc=$?
	cat "$out/server.out" "$out/client.out"
	[ "$server_rc" -eq 77 ] && return 77
	[ "$client_rc" -eq 0 ] && [ "$server_rc" -eq 0 ]
}

passed=0
failed=0
skipped=0
for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	bin="$out/$name"
	# shellcheck disable=SC2086 # the flag variables are word lists
	if ! $CC ${EXAMPLES_CFLAGS:-} -I"$stage/usr/include" -o "$bin" "$src" \
		-L"$stage/usr/lib" -luring ${EXAMPLES_LDFLAGS:-} >"$out/$name.log" 2>&1; then
		echo "example $name: FAIL (build)"
		sed 's/^/    /' "$out/$name.log"
		failed=$((failed + 1))
		continue
	fi
	scenario=scenario_$(echo "$name" | tr '-' '_')
	if ! command -v "$scenario" >/dev/null 2>&1; then
		echo "example $name: FAIL (no scenario in examples/run.sh)"
		failed=$((failed + 1))
		continue
	fi
	"$scenario" "$bin" >"$out/$name.log" 2>&1
	rc=$?
	case $rc in
	0)
		echo "example $name: pass ($(tail -n 1 "$out/$name.log"))"
		passed=$((passed + 1))
		;;
	77)
		echo "example $name: skip ($(tail -n 1 "$out/$name.log"))"
		skipped=$((skipped + 1))
		;;
	*)
		echo "example $name: FAIL (exit $rc)"
		sed 's/^/    /' "$out/$name.log"
		failed=$((failed + 1))
		;;
	esac
done
echo "examples: $passed passed, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
