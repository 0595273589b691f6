// SPDX-License-Identifier: MIT
//! Every registration call that hands its argument to the kernel untouched:
//! one row each. The C entry point (`src/capi/register_pass_through.rs`),
//! the kernel interface its reference page names and the bad-argument cases
//! of the differential test are generated from these rows; the row's doc
//! text is the function's doc comment, which the manual reads like any
//! other. Calls that build a struct for the kernel stay hand-written in
//! `src/capi/register.rs`.

use super::{Arg, Call, Nr, On, Retry};

/// Defaults for the rarely used columns.
const CALL: Call = Call {
    name: "",
    on: On::Ring,
    params: &[],
    opcode: "",
    arg: Arg::None,
    nr_args: Nr::Fixed(0),
    retry: Retry::None,
    doc: "",
};

pub const CALLS: &[Call] = &[
    // ---- Files -------------------------------------------------------------
    Call {
        name: "io_uring_register_files",
        params: &[("files", "*const c_int"), ("nr_files", "c_uint")],
        opcode: "IORING_REGISTER_FILES",
        arg: Arg::Pointer("files"),
        nr_args: Nr::Param("nr_files"),
        retry: Retry::RaiseFileLimit("nr_files"),
        doc: r#"Registers `nr_files` file descriptors as the ring's file table. A request
can then name a file by its index in the table (with `IOSQE_FIXED_FILE`)
instead of its descriptor, which saves the kernel a lookup and a
reference count per request. A -1 entry leaves the slot empty.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `files`: descriptors to put in slots 0 to `nr_files` - 1; -1 leaves a
  slot empty.
- `nr_files`: the table size.

# Return value
0 on success, or a negated errno value.

# Errors
- `EBUSY`: a file table is registered already. [check: register-EBUSY-files]
- `EBADF`: an entry is neither an open descriptor nor -1. [check: register-files-EBADF]
- `EMFILE`: `nr_files` exceeds the process's descriptor limit; the library
  raises the soft `RLIMIT_NOFILE` once and retries, as liburing does. [check: err-io_uring_register_files-EMFILE]

# See also
io_uring_unregister_files, io_uring_register_files_update,
io_uring_registered_files(7)

# Safety
`ring` null or valid; `files` readable for `nr_files` ints."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_files",
        opcode: "IORING_UNREGISTER_FILES",
        doc: r#"Unregisters the ring's file table; requests still using a file keep it
until they finish.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid."#,
        ..CALL
    },
    // ---- Buffers -----------------------------------------------------------
    Call {
        name: "io_uring_register_buffers",
        params: &[("iovecs", "*const iovec"), ("nr_iovecs", "c_uint")],
        opcode: "IORING_REGISTER_BUFFERS",
        arg: Arg::Pointer("iovecs"),
        nr_args: Nr::Param("nr_iovecs"),
        doc: r#"Registers `nr_iovecs` buffers with the ring, so that requests can use
them without the kernel mapping the memory each time. The memory is
pinned until io_uring_unregister_buffers() or the ring's exit; requests
name a buffer by its index (io_uring_prep_read_fixed(),
io_uring_prep_write_fixed(), zero-copy sends with a fixed buffer).
A null `ring` gives `-EINVAL` where liburing would dereference it.

The kernel reads the `iovecs` array only during the call: the array itself
may be freed or reused as soon as the call returns (the buffers it names must
stay). [check: register-buffers-iovecs-not-kept]

# Arguments
- `iovecs`: the buffers; buffer `i` is used as `buf_index` `i`.
- `nr_iovecs`: how many, at most 16384.

# Return value
0 on success, or a negated errno value.

# Errors
- `EBUSY`: a buffer table is registered already. [check: register-buffers-EBUSY]
- `ENOMEM`: pinning failed or exceeded the locked-memory limit. [check: err-io_uring_register_buffers-ENOMEM]
- `EFAULT`: a buffer is not valid memory. [check: register-buffers-EFAULT]

# See also
io_uring_unregister_buffers, io_uring_prep_read_fixed,
io_uring_registered_buffers(7)

# Safety
`ring` null or valid; `iovecs` readable for `nr_iovecs` entries."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_buffers",
        opcode: "IORING_UNREGISTER_BUFFERS",
        doc: r#"Unregisters all buffers of the ring and unpins their memory.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid."#,
        ..CALL
    },
    // ---- Eventfd, personalities, probe, restrictions -----------------------
    Call {
        name: "io_uring_register_eventfd",
        params: &[("fd", "c_int")],
        opcode: "IORING_REGISTER_EVENTFD",
        arg: Arg::Int("fd"),
        nr_args: Nr::Fixed(1),
        doc: r#"Has the kernel signal the eventfd `fd` when completions are posted, so
that an event loop built on epoll(7) or poll(2) learns about them. One
signal may stand for several completions: read the CQ ring until it is
empty.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `fd`: a descriptor from eventfd(2).

# Return value
0 on success, or a negated errno value.

# Errors
- `EBUSY`: an eventfd is registered already; unregister it first. [check: register-eventfd-EBUSY]
- `EINVAL`: `fd` is not an eventfd, or `ring` is NULL. [check: register-eventfd-EINVAL-not-eventfd]
- `EBADF`: `fd` is not an open descriptor. [check: register-eventfd-EBADF]

# Notes
From then on the kernel adds to the eventfd's counter when it posts
completions, so a program can wait for the ring with poll(2) or epoll(7)
next to its other descriptors. Treat a wake-up as a hint: reap until the CQ
ring is empty, since several completions may share one signal.

On a ring set up with `IORING_SETUP_DEFER_TASKRUN` the eventfd fires when
completion work is queued for the task, before any CQE is visible; the loop
must call io_uring_get_events() after the wake-up and then reap.

Registering an eventfd is available since Linux 5.2. Since Linux 5.18 the
kernel does it without waiting for the ring to go idle, and this library
lets the call run while other threads submit to or wait on the ring, so an
eventfd can be attached to a busy ring.

# See also
io_uring_unregister_eventfd, io_uring_register_eventfd_async,
io_uring_cq_eventfd_toggle, io_uring_get_events, io_uring(7)

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_eventfd_async",
        params: &[("fd", "c_int")],
        opcode: "IORING_REGISTER_EVENTFD_ASYNC",
        arg: Arg::Int("fd"),
        nr_args: Nr::Fixed(1),
        doc: r#"Like io_uring_register_eventfd(), but the eventfd is signalled only for
requests that completed asynchronously, not for those that completed
inline during submission (whose CQEs the submitter can reap at once).
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `fd`: a descriptor from eventfd(2).

# Return value
0 on success, or a negated errno value.

# Errors
- `EBUSY`: an eventfd is registered already. [check: err-io_uring_register_eventfd_async-EBUSY]
- `EINVAL`: `fd` is not an eventfd, or `ring` is NULL. [check: err-io_uring_register_eventfd_async-EINVAL]

# Notes
Requests that complete during submission do not signal. Needs Linux 5.6.

# See also
io_uring_register_eventfd, io_uring_unregister_eventfd

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_eventfd",
        opcode: "IORING_UNREGISTER_EVENTFD",
        doc: r#"Unregisters the ring's eventfd: completions no longer signal it.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
0 on success, or a negated errno value.

# Errors
- `ENXIO`: no eventfd is registered. [check: err-io_uring_unregister_eventfd-ENXIO]

# See also
io_uring_register_eventfd, io_uring_cq_eventfd_toggle

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_personality",
        opcode: "IORING_REGISTER_PERSONALITY",
        doc: r#"Registers the calling task's credentials. The ring returns an id for
them, and a request whose `personality` field holds the id runs with
those credentials, whichever task submits it.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
The new personality id (a positive 16-bit number) on success, or a negated
errno value. [check: register-personality-returns-id]

# Errors
- `EBUSY`: no free id is left (ids are 16 bits wide). [check: err-io_uring_register_personality-EBUSY]
- `ENOMEM`: the kernel could not store the credentials. [unchecked: memory exhaustion, which a check cannot cause without starving the machine]
- `EINVAL`: `ring` is NULL. [unchecked: a NULL ring crashes upstream liburing, which the checks also drive; capi-tests/differential covers this library's answer]

# Notes
The credentials are those of the calling thread at the time of the call:
user and group ids, supplementary groups and capabilities. To use them, store
the id in the SQE before submitting: `sqe->personality = id;`. The request
then runs with those credentials even if the thread has changed its own
since, for example after dropping privileges with setresuid(2).

A request naming an id that is not registered fails with `-EINVAL` in its
CQE. Personalities are available since Linux 5.6. The call may run while
other threads submit to or wait on the ring.

# See also
io_uring_unregister_personality, io_uring_get_sqe, io_uring(7)

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_personality",
        params: &[("id", "c_int")],
        opcode: "IORING_UNREGISTER_PERSONALITY",
        nr_args: Nr::Param("id"),
        doc: r#"Unregisters the credentials registered as personality `id` with
io_uring_register_personality().
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `id`: an id returned by io_uring_register_personality().

# Return value
0 on success, or a negated errno value.

# Errors
- `EINVAL`: no personality has that id, or `ring` is NULL. [check: err-io_uring_unregister_personality-EINVAL]

# Notes
Requests already submitted with the id keep the credentials they took.

# See also
io_uring_register_personality

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_probe",
        params: &[("p", "*mut io_uring_probe"), ("nr", "c_uint")],
        opcode: "IORING_REGISTER_PROBE",
        arg: Arg::Pointer("p"),
        nr_args: Nr::Param("nr"),
        doc: r#"Asks the kernel which request opcodes it supports and fills the probe
`p`, which has room for `nr` entries. io_uring_get_probe_ring() does the
allocation for you.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `p`: a zeroed probe with room for `nr` opcodes.
- `nr`: its number of op entries.

# Safety
`ring` null or valid; `p` writable for the header and `nr` ops."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_restrictions",
        params: &[("res", "*mut io_uring_restriction"), ("nr_res", "c_uint")],
        opcode: "IORING_REGISTER_RESTRICTIONS",
        arg: Arg::Pointer("res"),
        nr_args: Nr::Param("nr_res"),
        doc: r#"Limits what a ring will accept once enabled: which register opcodes,
which request opcodes and which SQE flags. Only a ring created with
`IORING_SETUP_R_DISABLED` can be restricted, and only once; a sandbox
can so hand a ring to less trusted code. Anything else fails with
`EACCES`.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `res`: the allowed register opcodes, SQE opcodes and SQE flags.
- `nr_res`: how many entries.

# Safety
`ring` null or valid; `res` readable for `nr_res` entries."#,
        ..CALL
    },
    Call {
        name: "io_uring_enable_rings",
        opcode: "IORING_REGISTER_ENABLE_RINGS",
        doc: r#"Starts a ring created with `IORING_SETUP_R_DISABLED`, usually after
io_uring_register_restrictions(). Until then the ring accepts no
submissions.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
0 on success, or a negated errno value.

# Errors
- `EBADFD`: the ring is not disabled. [check: err-io_uring_enable_rings-EBADFD]

# See also
io_uring_register_restrictions, io_uring_setup_flags(7)

# Safety
`ring` null or valid."#,
        ..CALL
    },
    // ---- io-wq -------------------------------------------------------------
    Call {
        name: "io_uring_register_iowq_aff",
        params: &[
            ("cpusz", "libc::size_t"),
            ("mask", "*const libc::cpu_set_t"),
        ],
        opcode: "IORING_REGISTER_IOWQ_AFF",
        arg: Arg::Pointer("mask"),
        nr_args: Nr::ByteSize("cpusz"),
        doc: r#"Confines the ring's asynchronous worker threads to the CPUs in `mask`
(`cpusz` bytes, as for sched_setaffinity(2)).
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `cpusz`: the size of `mask` in bytes.
- `mask`: the CPUs the workers may run on.

# Safety
`ring` null or valid; `mask` readable for `cpusz` bytes."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_iowq_aff",
        opcode: "IORING_UNREGISTER_IOWQ_AFF",
        doc: r#"Undoes io_uring_register_iowq_aff(): the asynchronous workers may run
on any CPU the ring's task may use again.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_iowq_max_workers",
        params: &[("values", "*mut c_uint")],
        opcode: "IORING_REGISTER_IOWQ_MAX_WORKERS",
        arg: Arg::Pointer("values"),
        nr_args: Nr::Fixed(2),
        doc: r#"Limits how many asynchronous worker threads the ring may start:
`values[0]` for bounded work (regular files, block devices), `values[1]`
for unbounded work (sockets, pipes); 0 leaves a limit unchanged. The
previous limits are written back into `values`.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `values`: two numbers, the limits for bounded and for unbounded workers;
  0 leaves a limit as it is. On return they hold the previous limits.

# Safety
`ring` null or valid; `values` null or valid for two unsigned ints."#,
        ..CALL
    },
    // ---- Cancelation, NAPI, clock, messages --------------------------------
    Call {
        name: "io_uring_register_sync_cancel",
        params: &[("reg", "*mut io_uring_sync_cancel_reg")],
        opcode: "IORING_REGISTER_SYNC_CANCEL",
        arg: Arg::Pointer("reg"),
        nr_args: Nr::Fixed(1),
        doc: r#"Cancels the requests `reg` matches (by user_data, descriptor or
opcode) and waits until they are gone, up to `reg->timeout`. Unlike
io_uring_prep_cancel(), no CQE needs to be reaped for the cancelation
itself.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Arguments
- `reg`: what to cancel (as the flags of io_uring_prep_cancel()) and how
  long to wait.

# Safety
`ring` null or valid; `reg` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_sync_msg",
        on: On::NoRing,
        params: &[("sqe", "*mut io_uring_sqe")],
        opcode: "IORING_REGISTER_SEND_MSG_RING",
        arg: Arg::Pointer("sqe"),
        nr_args: Nr::Fixed(1),
        doc: r#"Posts a completion into another ring without having a ring of one's
own: `sqe` is prepared with io_uring_prep_msg_ring() and run at once.

# Safety
`sqe` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_napi",
        params: &[("napi", "*mut io_uring_napi")],
        opcode: "IORING_REGISTER_NAPI",
        arg: Arg::Pointer("napi"),
        nr_args: Nr::Fixed(1),
        doc: r#"Enables busy polling of the network device queues (NAPI) that the
ring's sockets use, while the ring waits for completions: lower network
latency at the price of CPU time. The previous settings are written back
into `napi`.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid; `napi` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_unregister_napi",
        params: &[("napi", "*mut io_uring_napi")],
        opcode: "IORING_UNREGISTER_NAPI",
        arg: Arg::Pointer("napi"),
        nr_args: Nr::Fixed(1),
        doc: r#"Turns off the NAPI busy polling set up with io_uring_register_napi();
`napi`, if not NULL, receives the settings that were in force.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid; `napi` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_clock",
        params: &[("arg", "*mut io_uring_clock_register")],
        opcode: "IORING_REGISTER_CLOCK",
        arg: Arg::Pointer("arg"),
        doc: r#"Selects the clock that timeouts of waits on this ring are measured
against: CLOCK_MONOTONIC (the default) or CLOCK_BOOTTIME, which keeps
counting while the system is suspended.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid; `arg` null or valid."#,
        ..CALL
    },
    // ---- Regions, zcrx, BPF, query -----------------------------------------
    Call {
        name: "io_uring_register_region",
        params: &[("reg", "*mut io_uring_mem_region_reg")],
        opcode: "IORING_REGISTER_MEM_REGION",
        arg: Arg::Pointer("reg"),
        nr_args: Nr::Fixed(1),
        doc: r#"Registers a memory region with the ring, described by `reg`. The only
use so far is an array of wait arguments (`IORING_MEM_REGION_REG_WAIT_ARG`)
that io_uring_submit_and_wait_reg() names by index, so that a wait
passes no pointers to the kernel.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Safety
`ring` null or valid; `reg` as the kernel requires."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_ifq",
        params: &[("reg", "*mut io_uring_zcrx_ifq_reg")],
        opcode: "IORING_REGISTER_ZCRX_IFQ",
        arg: Arg::Pointer("reg"),
        nr_args: Nr::Fixed(1),
        doc: r#"Registers a zero-copy receive interface queue: received data of one
hardware receive queue of a network device lands directly in memory the
program supplies, and `IORING_OP_RECV_ZC` requests report where.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
0 on success, with `reg`'s offsets, `zcrx_id` and the refill region
filled in; a negated errno value on failure.

# Errors
- `EINVAL`: the ring lacks `IORING_SETUP_DEFER_TASKRUN`, 32-byte CQEs,
  or `reg` is malformed. [check: err-io_uring_register_ifq-EINVAL]
- `EPERM`: the caller lacks CAP_NET_ADMIN. [check: err-io_uring_register_ifq-EPERM]
- `EOPNOTSUPP`: the device or its driver cannot do zero-copy receive. [unchecked: needs a network device and receive queue to hand over, which the test machine has not]

# Notes
Needs Linux 6.15 (`IORING_REGISTER_ZCRX_IFQ`).

# See also
io_uring_zcrx(7), io_uring_register_zcrx_ctrl, io_uring_register(2)

# Safety
`ring` null or valid; `reg` as the kernel requires."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_zcrx_ctrl",
        params: &[("ctrl", "*mut zcrx_ctrl")],
        opcode: "IORING_REGISTER_ZCRX_CTRL",
        arg: Arg::Pointer("ctrl"),
        doc: r#"Controls a zero-copy receive instance. The instance was registered
with `io_uring_register_ifq`; `ctrl->op` is `ZCRX_CTRL_FLUSH_RQ` (return the
refill queue's buffers now) or `ZCRX_CTRL_EXPORT` (get a file descriptor
through which another ring can import the instance).
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
0 or, for `ZCRX_CTRL_EXPORT`, the new descriptor; a negated errno value
on failure (`EINVAL` for an unknown operation on older kernels).

# Notes
Needs Linux 6.19 (`IORING_REGISTER_ZCRX_CTRL`, register opcode 36);
liburing's page says 6.15, the release of zero-copy receive itself.

# See also
io_uring_register_ifq, io_uring_zcrx(7), io_uring_register(2)

# Safety
`ring` null or valid; `ctrl` null or valid."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_bpf_filter",
        params: &[("bpf", "*mut io_uring_bpf")],
        opcode: "IORING_REGISTER_BPF_FILTER",
        arg: Arg::Pointer("bpf"),
        nr_args: Nr::Fixed(1),
        doc: r#"Installs a BPF filter on the ring: a classic BPF program that sees each
request of one opcode before it is issued and allows or denies it; a
denied request completes with `-EACCES`.
A null `ring` gives `-EINVAL` where liburing would dereference it.

# Return value
0 on success; a negated errno value on failure.

# Notes
Needs Linux 7.0 (`IORING_REGISTER_BPF_FILTER`); `struct io_uring_bpf`
is declared in <liburing/io_uring/bpf_filter.h>.

# See also
io_uring_register_bpf_filter_task, io_uring_register_restrictions,
io_uring_register(2)

# Safety
`ring` null or valid; `bpf` as the kernel requires."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_bpf_filter_task",
        on: On::NoRing,
        params: &[("bpf", "*mut io_uring_bpf")],
        opcode: "IORING_REGISTER_BPF_FILTER",
        arg: Arg::Pointer("bpf"),
        nr_args: Nr::Fixed(1),
        doc: r#"Installs a BPF filter on the calling task rather than on one ring: it
applies to every ring the task uses.

# Return value
0 on success; a negated errno value on failure.

# Notes
Needs Linux 7.0 (`IORING_REGISTER_BPF_FILTER` with no ring).

# See also
io_uring_register_bpf_filter, io_uring_register(2)

# Safety
`bpf` as the kernel requires."#,
        ..CALL
    },
    Call {
        name: "io_uring_register_query",
        on: On::NoRing,
        params: &[("query", "*mut io_uring_query_hdr")],
        opcode: "IORING_REGISTER_QUERY",
        arg: Arg::Pointer("query"),
        doc: r#"Runs a chain of capability queries, which need no ring: each
`struct io_uring_query_hdr` names a question (`IO_URING_QUERY_OPCODES`,
`IO_URING_QUERY_ZCRX`, `IO_URING_QUERY_SCQ`) and a buffer for the answer,
and receives its own result.

# Return value
0 when the chain was walked (each header's `result` then says whether
its query worked); a negated errno value when it could not be.

# Errors
- `EINVAL`: the kernel predates the query interface, or a header has
  nonzero reserved fields. [check: err-io_uring_register_query-EINVAL]
- `EFAULT`: a header or answer buffer is not accessible. [check: err-io_uring_register_query-EFAULT]

# Notes
Needs Linux 6.18 (`IORING_REGISTER_QUERY`, register opcode 35);
liburing's page says 6.15. `IO_URING_QUERY_ZCRX` and
`IO_URING_QUERY_SCQ` came with 6.19.

# See also
io_uring_register(2), io_uring_get_probe

# Safety
The chain must be valid as the kernel requires."#,
        ..CALL
    },
];
