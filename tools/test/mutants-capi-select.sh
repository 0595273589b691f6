#!/bin/sh
# SPDX-License-Identifier: MIT
# The capi-tests `make mutants` runs for a mutant of the given file (no
# argument or an empty one: the union, which the driver builds and checks
# first). Each list holds the quick tests (well under a second each) that
# call into that file and need neither root, a compiler nor a particular
# device, so that they pass on every machine the run is made on.
set -eu
setup="nop no_mmap no_sqarray big_entries mem_size cqsize_clamp r_disabled
	ring_fd exit_closes_only_its_own fallback-setup-flags bad_args"
queue="nop submit_all timeouts cq_overflow defer_taskrun submit_wait_threads
	fallback-wait-timeout rw eventfd-busy bad_args"
register="register-buffers register-files register-clock register-iowq register-misc
	register-napi register-probe register-resize register-restrictions register-ring-fd
	register-sync-cancel register-wait-reg registered_fd_only probe attach_wq bad_args"
geometry="nop no_mmap no_sqarray big_entries mem_size cqsize_clamp register-resize"
buf_ring="buf-ring fallback-buf-ring bad_args"
all="$setup $queue $register $geometry $buf_ring"
case ${1:-} in
# The C boundary's few safe functions (result conversions, versions,
# probe allocation) serve every entry point: all of them, and versions.
src/capi/*) list="$all versions" ;;
*/setup.rs) list=$setup ;;
*/queue.rs | core/src/queue/*) list=$queue ;;
*/register.rs) list=$register ;;
*/geometry.rs) list=$geometry ;;
*/buf_ring.rs) list=$buf_ring ;;
'') list="$all versions" ;;
*) list= ;;
esac
# One name a line, each once.
for t in $list; do echo "$t"; done | sort -u
