// SPDX-License-Identifier: MIT
//! The `io_uring_register(2)` calls of liburing 2.15.
//!
//! All calls on a ring go through [`register`], which picks the fd the way
//! liburing does: once the ring fd itself is registered and the kernel can
//! use registered rings for registration (`IORING_FEAT_REG_REG_RING`), the
//! registered index is passed together with
//! `IORING_REGISTER_USE_REGISTERED_RING`; otherwise the real fd. A few calls
//! need no ring at all and pass fd -1.
//!
//! Behaviours kept from liburing on purpose:
//! - file table registrations that fail with `EMFILE` raise the soft
//!   `RLIMIT_NOFILE` once and retry;
//! - `io_uring_register_wait_reg` is a stub returning `EINVAL` (the kernel
//!   interface it was written for was replaced by memory regions).
//!
//! Registering the ring's own fd and resizing belong to the ring lifecycle
//! ([`crate::setup`]), which issues them through [`register_with`].
//!
//! Functions whose argument carries addresses the kernel will read or write
//! later are `unsafe`; the rest take references to self-contained structs.

use core::ffi::c_void;
use core::marker::PhantomData;
use core::mem::size_of;
use core::ptr::{self, null};

use crate::ring::LiveRing;
use crate::structs::{int_flags, io_uring};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    io_uring_bpf, io_uring_buf_reg, io_uring_buf_status, io_uring_clock_register,
    io_uring_clone_buffers, io_uring_file_index_range, io_uring_mem_region_reg, io_uring_napi,
    io_uring_probe, io_uring_query_hdr, io_uring_restriction, io_uring_rsrc_register,
    io_uring_rsrc_update, io_uring_rsrc_update2, io_uring_sqe, io_uring_sync_cancel_reg,
    io_uring_zcrx_ifq_reg, zcrx_ctrl, IORING_REGISTER_BPF_FILTER, IORING_REGISTER_BUFFERS,
    IORING_REGISTER_BUFFERS2, IORING_REGISTER_BUFFERS_UPDATE, IORING_REGISTER_CLOCK,
    IORING_REGISTER_CLONE_BUFFERS, IORING_REGISTER_ENABLE_RINGS, IORING_REGISTER_EVENTFD,
    IORING_REGISTER_EVENTFD_ASYNC, IORING_REGISTER_FILES, IORING_REGISTER_FILES2,
    IORING_REGISTER_FILES_UPDATE, IORING_REGISTER_FILES_UPDATE2, IORING_REGISTER_FILE_ALLOC_RANGE,
    IORING_REGISTER_IOWQ_AFF, IORING_REGISTER_IOWQ_MAX_WORKERS, IORING_REGISTER_MEM_REGION,
    IORING_REGISTER_NAPI, IORING_REGISTER_PBUF_STATUS, IORING_REGISTER_PERSONALITY,
    IORING_REGISTER_PROBE, IORING_REGISTER_QUERY, IORING_REGISTER_RESTRICTIONS,
    IORING_REGISTER_SEND_MSG_RING, IORING_REGISTER_SRC_REGISTERED, IORING_REGISTER_SYNC_CANCEL,
    IORING_REGISTER_USE_REGISTERED_RING, IORING_REGISTER_ZCRX_CTRL, IORING_REGISTER_ZCRX_IFQ,
    IORING_RSRC_REGISTER_SPARSE, IORING_UNREGISTER_BUFFERS, IORING_UNREGISTER_EVENTFD,
    IORING_UNREGISTER_FILES, IORING_UNREGISTER_IOWQ_AFF, IORING_UNREGISTER_NAPI,
    IORING_UNREGISTER_PBUF_RING, IORING_UNREGISTER_PERSONALITY,
};

// ---------------------------------------------------------------------------
// The one way in
// ---------------------------------------------------------------------------

/// Where registration calls on a ring go: its registered index (with
/// `IORING_REGISTER_USE_REGISTERED_RING`) once the ring fd is registered and
/// the kernel accepts registered rings for registration, else its fd.
///
/// Built from a [`LiveRing`] by the calls that may run alongside submit and
/// wait, or from `&io_uring` by the ones that own the ring for the call
/// (ring-fd handling, resize, teardown).
#[derive(Clone, Copy, Debug)]
pub struct RegTarget {
    /// The ring fd is registered and the kernel takes registered rings for
    /// registration: `enter_ring_fd` is the index to pass.
    registered: bool,
    enter_ring_fd: i32,
    ring_fd: i32,
}

impl RegTarget {
    #[inline(always)]
    fn of(int_flags: u8, enter_ring_fd: i32, ring_fd: i32) -> RegTarget {
        RegTarget {
            registered: int_flags & int_flags::REG_REG_RING != 0,
            enter_ring_fd,
            ring_fd,
        }
    }
}

/// The target of a ring a C entry point took.
#[inline(always)]
pub fn live(ring: LiveRing<'_>) -> RegTarget {
    RegTarget::of(ring.int_flags(), ring.enter_ring_fd(), ring.ring_fd())
}

impl From<&io_uring> for RegTarget {
    #[inline]
    fn from(ring: &io_uring) -> RegTarget {
        RegTarget::of(ring.int_flags, ring.enter_ring_fd, ring.ring_fd)
    }
}

/// Issues `opcode` on the ring `to` names.
///
/// # Safety
/// `arg` must be valid for whatever `opcode` and `nr_args` make the kernel
/// read or write, now and (for registered memory) for as long as the
/// registration lasts.
#[inline(always)]
pub unsafe fn register(
    to: impl Into<RegTarget>,
    opcode: u32,
    arg: *const c_void,
    nr_args: u32,
) -> SysResult<i32> {
    let to = to.into();
    // One call per choice of fd rather than a select of fd and flag: each
    // path then loads only the fd it passes (liburing's cost), and the
    // plain fd, the common case, falls through.
    let (r, opcode) = if to.registered {
        crate::hint::cold_path();
        let opcode = opcode | IORING_REGISTER_USE_REGISTERED_RING;
        // SAFETY: forwarded caller guarantee; the fd is only a number to the kernel.
        let r =
            unsafe { syscall::io_uring_register(to.enter_ring_fd as u32, opcode, arg, nr_args) };
        (r, opcode)
    } else {
        // SAFETY: as above.
        let r = unsafe { syscall::io_uring_register(to.ring_fd as u32, opcode, arg, nr_args) };
        (r, opcode)
    };
    // The observer hears of failures only: nothing on the success path.
    r.map_err(|e| crate::hooks::register_failed(opcode, arg, nr_args, e))
}

/// An `io_uring_register` opcode paired with the one argument struct `T` it
/// reads or fills in, and the `nr_args` that goes with it. Holding one is the
/// proof [`register_with`] needs, so that call is safe.
pub struct RegOp<T> {
    code: u32,
    nr_args: u32,
    _arg: PhantomData<fn(&mut T)>,
}

impl<T> RegOp<T> {
    /// # Safety
    /// With `nr_args`, opcode `code` must make the kernel read or write at
    /// most one `T` at its argument, during the call only, and follow no
    /// address held in it.
    pub const unsafe fn new(code: u32, nr_args: u32) -> RegOp<T> {
        RegOp {
            code,
            nr_args,
            _arg: PhantomData,
        }
    }
}

// Each `RegOp::new` below pairs an opcode with the one struct the kernel
// copies in (and, where noted, back out) during the call.

/// `io_uring_file_index_range`, read.
// SAFETY: one range struct, no addresses in it.
const FILE_ALLOC_RANGE: RegOp<io_uring_file_index_range> =
    unsafe { RegOp::new(IORING_REGISTER_FILE_ALLOC_RANGE, 0) };
/// One `io_uring_clone_buffers`, read.
// SAFETY: `src_fd` is a number; no addresses in it.
const CLONE_BUFFERS: RegOp<io_uring_clone_buffers> =
    unsafe { RegOp::new(IORING_REGISTER_CLONE_BUFFERS, 1) };
/// One `int` fd, read.
// SAFETY: a plain int.
const EVENTFD: RegOp<i32> = unsafe { RegOp::new(IORING_REGISTER_EVENTFD, 1) };
/// One `int` fd, read.
// SAFETY: a plain int.
const EVENTFD_ASYNC: RegOp<i32> = unsafe { RegOp::new(IORING_REGISTER_EVENTFD_ASYNC, 1) };
/// Only `bgid` is used when unregistering.
// SAFETY: one `io_uring_buf_reg`, whose `ring_addr` unregistering ignores.
pub const UNREGISTER_PBUF_RING: RegOp<io_uring_buf_reg> =
    unsafe { RegOp::new(IORING_UNREGISTER_PBUF_RING, 1) };
/// `buf_group` read, `head` written back.
// SAFETY: one `io_uring_buf_status`; no addresses in it.
pub const PBUF_STATUS: RegOp<io_uring_buf_status> =
    unsafe { RegOp::new(IORING_REGISTER_PBUF_STATUS, 1) };

/// Issues `op` with `arg` as its argument.
#[inline]
pub fn register_with<T>(to: impl Into<RegTarget>, op: RegOp<T>, arg: &mut T) -> SysResult<i32> {
    // SAFETY: `arg` is a live, exclusively borrowed `T`, which `op` proves is
    // all the kernel touches during the call (and nothing after it).
    unsafe { register(to, op.code, ptr::from_mut(arg).cast(), op.nr_args) }
}

/// Like [`register`] for opcodes that take no argument.
#[inline]
fn register_bare(to: impl Into<RegTarget>, opcode: u32, nr_args: u32) -> SysResult<i32> {
    // SAFETY: a null argument is never dereferenced by these opcodes.
    unsafe { register(to, opcode, null(), nr_args) }
}

/// A pointer as the kernel's `__u64` address field.
#[inline]
fn uaddr<T>(p: *const T) -> u64 {
    p as usize as u64
}

/// Registers a resource table (`IORING_REGISTER_FILES2` / `BUFFERS2`): `nr`
/// entries at `data`, with optional `tags`.
///
/// # Safety
/// `data`, and `tags` unless 0, must address readable arrays of `nr`
/// entries of the type `opcode` expects.
unsafe fn rsrc_register2(
    ring: LiveRing,
    opcode: u32,
    data: u64,
    tags: u64,
    nr: u32,
) -> SysResult<i32> {
    let mut reg = io_uring_rsrc_register {
        nr,
        data,
        tags,
        ..Default::default()
    };
    // SAFETY: forwarded caller guarantee.
    unsafe { rsrc_register2_with(ring, opcode, &mut reg) }
}

/// Issues a resource table registration described by `reg`.
///
/// # Safety
/// As [`rsrc_register2`], for the arrays `reg` names.
#[inline(always)]
unsafe fn rsrc_register2_with(
    ring: LiveRing,
    opcode: u32,
    reg: &mut io_uring_rsrc_register,
) -> SysResult<i32> {
    let size = size_of::<io_uring_rsrc_register>() as u32;
    // SAFETY: `reg` is live; the arrays it names are vouched for by the caller.
    unsafe { register(live(ring), opcode, ptr::from_mut(reg).cast(), size) }
}

/// Replaces `nr` slots from `off` of a resource table
/// (`IORING_REGISTER_FILES_UPDATE2` / `BUFFERS_UPDATE`).
///
/// # Safety
/// As [`rsrc_register2`].
unsafe fn rsrc_update2(
    ring: LiveRing,
    opcode: u32,
    off: u32,
    data: u64,
    tags: u64,
    nr: u32,
) -> SysResult<i32> {
    let mut up = io_uring_rsrc_update2 {
        offset: off,
        data,
        tags,
        nr,
        ..Default::default()
    };
    let size = size_of::<io_uring_rsrc_update2>() as u32;
    // SAFETY: `up` is live; the arrays it names are vouched for by the caller.
    unsafe { register(live(ring), opcode, ptr::from_mut(&mut up).cast(), size) }
}

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

/// `RLIMIT_NOFILE` as the kernel's resource number (its libc type varies).
#[allow(clippy::unnecessary_cast)]
const RLIMIT_NOFILE: u32 = libc::RLIMIT_NOFILE as u32;

/// Makes sure the soft `RLIMIT_NOFILE` allows at least `nr` descriptors,
/// raising it by `nr` when it does not (the hard limit is left alone; a
/// refused raise is not an error: the retry will tell).
fn raise_nofile_limit(nr: u32) -> SysResult<()> {
    let mut lim = syscall::getrlimit(RLIMIT_NOFILE)?;
    if lim.rlim_cur < u64::from(nr) {
        lim.rlim_cur = lim.rlim_cur.saturating_add(u64::from(nr));
        let _ = syscall::setrlimit(RLIMIT_NOFILE, &lim);
    }
    Ok(())
}

/// Runs a file-table registration; on `EMFILE`, raises the fd limit once
/// for `nr` files and tries again.
#[inline(always)]
fn with_nofile_retry(nr: u32, attempt: impl FnMut() -> SysResult<i32>) -> SysResult<i32> {
    let mut attempt = attempt;
    // Tested and passed on as the kernel's `int` and made a result once at
    // the end: the first attempt then costs liburing's one compare, where
    // a result tested for `EMFILE` and merged with the retry's would be
    // unpacked and repacked on the way out.
    let mut raw = syscall::to_int(attempt());
    if raw == -libc::EMFILE {
        raw = syscall::to_int(retry_with_more_files(nr, attempt));
    }
    syscall::from_int(raw)
}

/// The `EMFILE` half of [`with_nofile_retry`], out of line so that the
/// first attempt stays as small as liburing's.
#[cold]
#[inline(never)]
fn retry_with_more_files(nr: u32, mut attempt: impl FnMut() -> SysResult<i32>) -> SysResult<i32> {
    // liburing ignores a failure to read the limit and retries anyway.
    let _ = raise_nofile_limit(nr);
    attempt()
}

/// `io_uring_register_files`: a file table holding the `nr` fds of `files`.
///
/// # Safety
/// `files` must be readable for `nr` `int`s.
pub unsafe fn register_files(ring: LiveRing, files: *const i32, nr: u32) -> SysResult<i32> {
    // SAFETY: the kernel reads `nr` fds from `files`, as the caller vouches.
    with_nofile_retry(nr, move || unsafe {
        register(live(ring), IORING_REGISTER_FILES, files.cast(), nr)
    })
}

/// `io_uring_register_files_tags`: like [`register_files`], with a tag per
/// slot (a CQE carries the tag when the file is later removed); tags may be
/// null.
///
/// # Safety
/// `files`, and `tags` unless null, must be readable for `nr` entries.
#[inline]
pub unsafe fn register_files_tags(
    ring: LiveRing,
    files: *const i32,
    tags: *const u64,
    nr: u32,
) -> SysResult<i32> {
    let mut reg = io_uring_rsrc_register {
        nr,
        data: uaddr(files),
        tags: uaddr(tags),
        ..Default::default()
    };
    // Both attempts pass the one `reg`, so the retry needs only its address
    // and the ring kept across the first call.
    let reg = &mut reg;
    // SAFETY: the arrays are vouched for by the caller.
    with_nofile_retry(nr, move || unsafe {
        rsrc_register2_with(ring, IORING_REGISTER_FILES2, &mut *reg)
    })
}

/// `io_uring_register_files_sparse`: an empty file table of `nr` slots.
pub fn register_files_sparse(ring: LiveRing, nr: u32) -> SysResult<i32> {
    with_nofile_retry(nr, move || sparse_table(ring, IORING_REGISTER_FILES2, nr))
}

/// An empty resource table of `nr` slots: `opcode` is
/// `IORING_REGISTER_FILES2` or `IORING_REGISTER_BUFFERS2`.
#[inline(always)]
fn sparse_table(ring: LiveRing, opcode: u32, nr: u32) -> SysResult<i32> {
    let mut reg = io_uring_rsrc_register {
        nr,
        flags: IORING_RSRC_REGISTER_SPARSE,
        ..Default::default()
    };
    let size = size_of::<io_uring_rsrc_register>() as u32;
    // SAFETY: one `io_uring_rsrc_register` read during the call; with
    // `IORING_RSRC_REGISTER_SPARSE` and no data or tags it names no memory.
    unsafe { register(live(ring), opcode, ptr::from_mut(&mut reg).cast(), size) }
}

/// `io_uring_register_files_update`: replaces `nr` slots from `off`.
/// Returns how many were updated.
///
/// # Safety
/// `files` must be readable for `nr` `int`s.
pub unsafe fn register_files_update(
    ring: LiveRing,
    off: u32,
    files: *const i32,
    nr: u32,
) -> SysResult<i32> {
    let mut up = io_uring_rsrc_update {
        offset: off,
        resv: 0,
        data: uaddr(files),
    };
    // SAFETY: `up` is live; the fd array is vouched for by the caller.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_FILES_UPDATE,
            ptr::from_mut(&mut up).cast(),
            nr,
        )
    }
}

/// `io_uring_register_files_update_tag`: [`register_files_update`] with tags.
///
/// # Safety
/// `files`, and `tags` unless null, must be readable for `nr` entries.
pub unsafe fn register_files_update_tag(
    ring: LiveRing,
    off: u32,
    files: *const i32,
    tags: *const u64,
    nr: u32,
) -> SysResult<i32> {
    // SAFETY: the arrays are vouched for by the caller.
    unsafe {
        rsrc_update2(
            ring,
            IORING_REGISTER_FILES_UPDATE2,
            off,
            uaddr(files),
            uaddr(tags),
            nr,
        )
    }
}

/// `io_uring_register_file_alloc_range`: where direct-descriptor allocation
/// (`IORING_FILE_INDEX_ALLOC`) picks slots: `[off, off + len)`.
pub fn register_file_alloc_range(ring: LiveRing, off: u32, len: u32) -> SysResult<i32> {
    let mut range = io_uring_file_index_range { off, len, resv: 0 };
    register_with(live(ring), FILE_ALLOC_RANGE, &mut range)
}

/// `io_uring_unregister_files`.
pub fn unregister_files(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_UNREGISTER_FILES, 0)
}

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// `io_uring_register_buffers`: a buffer table of the `nr` iovecs.
///
/// # Safety
/// `iovecs` must be readable for `nr` entries, and the memory they describe
/// must stay mapped while registered (the kernel pins it).
pub unsafe fn register_buffers(
    ring: LiveRing,
    iovecs: *const libc::iovec,
    nr: u32,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe { register(live(ring), IORING_REGISTER_BUFFERS, iovecs.cast(), nr) }
}

/// `io_uring_register_buffers_tags`: [`register_buffers`] with a tag per
/// slot (null for none).
///
/// # Safety
/// As [`register_buffers`]; `tags`, unless null, readable for `nr` entries.
pub unsafe fn register_buffers_tags(
    ring: LiveRing,
    iovecs: *const libc::iovec,
    tags: *const u64,
    nr: u32,
) -> SysResult<i32> {
    // SAFETY: the arrays are vouched for by the caller.
    unsafe {
        rsrc_register2(
            ring,
            IORING_REGISTER_BUFFERS2,
            uaddr(iovecs),
            uaddr(tags),
            nr,
        )
    }
}

/// `io_uring_register_buffers_sparse`: an empty buffer table of `nr` slots.
pub fn register_buffers_sparse(ring: LiveRing, nr: u32) -> SysResult<i32> {
    sparse_table(ring, IORING_REGISTER_BUFFERS2, nr)
}

/// `io_uring_register_buffers_update_tag`: replaces `nr` slots from `off`.
///
/// # Safety
/// As [`register_buffers_tags`].
pub unsafe fn register_buffers_update_tag(
    ring: LiveRing,
    off: u32,
    iovecs: *const libc::iovec,
    tags: *const u64,
    nr: u32,
) -> SysResult<i32> {
    // SAFETY: the arrays are vouched for by the caller.
    unsafe {
        rsrc_update2(
            ring,
            IORING_REGISTER_BUFFERS_UPDATE,
            off,
            uaddr(iovecs),
            uaddr(tags),
            nr,
        )
    }
}

/// `io_uring_unregister_buffers`.
pub fn unregister_buffers(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_UNREGISTER_BUFFERS, 0)
}

/// `__io_uring_clone_buffers_offset`: copies `nr` registered buffers of
/// `src` starting at `src_off` into `dst` at `dst_off` (`nr == 0`: all).
///
/// `IORING_REGISTER_SRC_REGISTERED` in `flags` is kept only when `src` can
/// be named by its registered index; otherwise the real fd of `src` is used
/// and the flag dropped.
pub fn clone_buffers_offset_raw(
    dst: LiveRing,
    src: LiveRing,
    dst_off: u32,
    src_off: u32,
    nr: u32,
    flags: u32,
) -> SysResult<i32> {
    let by_index = flags & IORING_REGISTER_SRC_REGISTERED != 0
        && src.int_flags() & int_flags::REG_REG_RING != 0;
    let (src_fd, flags) = if by_index {
        (src.enter_ring_fd(), flags)
    } else {
        (src.ring_fd(), flags & !IORING_REGISTER_SRC_REGISTERED)
    };
    let mut arg = io_uring_clone_buffers {
        src_fd: src_fd as u32,
        flags,
        src_off,
        dst_off,
        nr,
        pad: [0; 3],
    };
    register_with(live(dst), CLONE_BUFFERS, &mut arg)
}

/// `io_uring_clone_buffers_offset`: [`clone_buffers_offset_raw`], naming
/// `src` by its registered index when possible.
pub fn clone_buffers_offset(
    dst: LiveRing,
    src: LiveRing,
    dst_off: u32,
    src_off: u32,
    nr: u32,
    flags: u32,
) -> SysResult<i32> {
    clone_buffers_offset_raw(
        dst,
        src,
        dst_off,
        src_off,
        nr,
        flags | IORING_REGISTER_SRC_REGISTERED,
    )
}

/// `io_uring_clone_buffers`: all of `src`'s buffers into an empty `dst` table.
pub fn clone_buffers(dst: LiveRing, src: LiveRing) -> SysResult<i32> {
    clone_buffers_offset_raw(dst, src, 0, 0, 0, IORING_REGISTER_SRC_REGISTERED)
}

/// `__io_uring_clone_buffers`: all of `src`'s buffers, with caller flags.
pub fn clone_buffers_raw(dst: LiveRing, src: LiveRing, flags: u32) -> SysResult<i32> {
    clone_buffers_offset_raw(dst, src, 0, 0, 0, flags)
}

// ---------------------------------------------------------------------------
// Eventfd, personalities, probe, restrictions
// ---------------------------------------------------------------------------

/// `io_uring_register_eventfd`: `event_fd` is signalled on completions.
/// The kernel does not wait for in-flight requests to do this.
pub fn register_eventfd(ring: LiveRing, event_fd: i32) -> SysResult<i32> {
    let mut fd = event_fd;
    register_with(live(ring), EVENTFD, &mut fd)
}

/// `io_uring_register_eventfd_async`: signalled only for completions that
/// were posted from the kernel's async workers.
pub fn register_eventfd_async(ring: LiveRing, event_fd: i32) -> SysResult<i32> {
    let mut fd = event_fd;
    register_with(live(ring), EVENTFD_ASYNC, &mut fd)
}

/// `io_uring_unregister_eventfd`.
pub fn unregister_eventfd(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_UNREGISTER_EVENTFD, 0)
}

/// `io_uring_register_personality`: records the caller's credentials and
/// returns their id, for `sqe->personality`.
pub fn register_personality(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_REGISTER_PERSONALITY, 0)
}

/// `io_uring_unregister_personality`: the id travels as the count argument.
pub fn unregister_personality(ring: LiveRing, id: i32) -> SysResult<i32> {
    register_bare(live(ring), IORING_UNREGISTER_PERSONALITY, id as u32)
}

/// `io_uring_register_probe`: fills `p` (with room for `nr_ops` entries).
///
/// # Safety
/// `p` must be writable for the header and `nr_ops` `io_uring_probe_op`s.
pub unsafe fn register_probe(
    ring: LiveRing,
    p: *mut io_uring_probe,
    nr_ops: u32,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_PROBE,
            p.cast_const().cast(),
            nr_ops,
        )
    }
}

/// `io_uring_register_restrictions`: only for rings created disabled.
///
/// # Safety
/// `res` must be readable for `nr` entries.
pub unsafe fn register_restrictions(
    ring: LiveRing,
    res: *const io_uring_restriction,
    nr: u32,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe { register(live(ring), IORING_REGISTER_RESTRICTIONS, res.cast(), nr) }
}

/// `io_uring_enable_rings`: starts a ring created with
/// `IORING_SETUP_R_DISABLED` (the caller becomes its submitter task).
pub fn enable_rings(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_REGISTER_ENABLE_RINGS, 0)
}

// ---------------------------------------------------------------------------
// io-wq
// ---------------------------------------------------------------------------

/// `io_uring_register_iowq_aff`: CPU affinity of the async workers.
/// `cpusz` is the mask's size in bytes; 2 GiB or more is refused.
///
/// # Safety
/// `mask` must be readable for `cpusz` bytes.
pub unsafe fn register_iowq_aff(
    ring: LiveRing,
    cpusz: usize,
    mask: *const libc::cpu_set_t,
) -> SysResult<i32> {
    let Ok(len) = i32::try_from(cpusz) else {
        crate::hint::cold_path();
        return Err(Errno::EINVAL);
    };
    // SAFETY: forwarded caller guarantee.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_IOWQ_AFF,
            mask.cast(),
            len as u32,
        )
    }
}

/// `io_uring_unregister_iowq_aff`.
pub fn unregister_iowq_aff(ring: LiveRing) -> SysResult<i32> {
    register_bare(live(ring), IORING_UNREGISTER_IOWQ_AFF, 0)
}

/// `io_uring_register_iowq_max_workers`: sets the bounded/unbounded worker
/// limits (0 leaves one unchanged) and returns the previous ones in `val`.
/// `val` goes to the kernel as given (a null one gets the kernel's answer).
///
/// # Safety
/// `val` must be null or valid for reading and writing two `u32`s.
pub unsafe fn register_iowq_max_workers(ring: LiveRing, val: *mut u32) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_IOWQ_MAX_WORKERS,
            val.cast_const().cast(),
            2,
        )
    }
}

// ---------------------------------------------------------------------------
// Cancelation, NAPI, clock, messages
// ---------------------------------------------------------------------------

/// `io_uring_register_sync_cancel`: cancels matching requests and waits
/// (up to `reg.timeout`) for them to finish. `reg` goes to the kernel as
/// given.
///
/// # Safety
/// `reg` must be null or a readable `io_uring_sync_cancel_reg`.
pub unsafe fn register_sync_cancel(
    ring: LiveRing,
    reg: *const io_uring_sync_cancel_reg,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer.
    unsafe { register(live(ring), IORING_REGISTER_SYNC_CANCEL, reg.cast(), 1) }
}

/// `io_uring_register_napi`: enables NAPI busy polling; the previous
/// settings are written back into `napi`, which goes to the kernel as given.
///
/// # Safety
/// `napi` must be null or valid for reading and writing.
pub unsafe fn register_napi(ring: LiveRing, napi: *mut io_uring_napi) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_NAPI,
            napi.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_unregister_napi`: disables it (old settings into `napi`).
///
/// # Safety
/// `napi` must be null or writable (liburing allows null).
pub unsafe fn unregister_napi(ring: LiveRing, napi: *mut io_uring_napi) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel skips a null argument.
    unsafe {
        register(
            live(ring),
            IORING_UNREGISTER_NAPI,
            napi.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_register_clock`: the clock wait timeouts are measured against.
/// `arg` goes to the kernel as given.
///
/// # Safety
/// `arg` must be null or a readable `io_uring_clock_register`.
pub unsafe fn register_clock(
    ring: LiveRing,
    arg: *const io_uring_clock_register,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer.
    unsafe { register(live(ring), IORING_REGISTER_CLOCK, arg.cast(), 0) }
}

/// `io_uring_register_sync_msg`: runs an `IORING_OP_MSG_RING` SQE
/// synchronously, with no source ring. `sqe` goes to the kernel as given.
///
/// # Safety
/// `sqe` must be null or a readable SQE.
pub unsafe fn register_sync_msg(sqe: *const io_uring_sqe) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer
    // (the target ring is named by fd inside the SQE).
    unsafe { syscall::io_uring_register(u32::MAX, IORING_REGISTER_SEND_MSG_RING, sqe.cast(), 1) }
}

// ---------------------------------------------------------------------------
// Memory regions, zero-copy receive, BPF filters, queries
// ---------------------------------------------------------------------------

/// `io_uring_register_region`.
///
/// # Safety
/// The region descriptor `reg` points to, and any user memory it names,
/// must be valid as the kernel requires for the lifetime of the ring.
pub unsafe fn register_region(ring: LiveRing, reg: *mut io_uring_mem_region_reg) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_MEM_REGION,
            reg.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_register_wait_reg`: kept as liburing 2.15 has it, a stub that
/// always fails with `EINVAL` (register a region with
/// `IORING_MEM_REGION_REG_WAIT_ARG` instead).
pub fn register_wait_reg() -> SysResult<i32> {
    Err(Errno::EINVAL)
}

/// `io_uring_register_ifq`: a zero-copy receive interface queue.
///
/// # Safety
/// `reg` and the area/region descriptors it points to must be valid as the
/// kernel requires.
pub unsafe fn register_ifq(ring: LiveRing, reg: *mut io_uring_zcrx_ifq_reg) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_ZCRX_IFQ,
            reg.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_register_zcrx_ctrl`. `ctrl` goes to the kernel as given.
///
/// # Safety
/// `ctrl` must be null or valid for what its operation makes the kernel
/// read and write.
pub unsafe fn register_zcrx_ctrl(ring: LiveRing, ctrl: *mut zcrx_ctrl) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee; the kernel checks the pointer.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_ZCRX_CTRL,
            ctrl.cast_const().cast(),
            0,
        )
    }
}

/// `io_uring_register_bpf_filter`: filters for this ring's requests.
///
/// # Safety
/// `bpf` and the program it points to must be readable.
pub unsafe fn register_bpf_filter(ring: LiveRing, bpf: *mut io_uring_bpf) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        register(
            live(ring),
            IORING_REGISTER_BPF_FILTER,
            bpf.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_register_bpf_filter_task`: filters for every ring of the task.
///
/// # Safety
/// As [`register_bpf_filter`].
pub unsafe fn register_bpf_filter_task(bpf: *mut io_uring_bpf) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        syscall::io_uring_register(
            u32::MAX,
            IORING_REGISTER_BPF_FILTER,
            bpf.cast_const().cast(),
            1,
        )
    }
}

/// `io_uring_register_query`: asks the kernel what it supports, no ring
/// needed. Queries chain through `next_entry`.
///
/// # Safety
/// Every header of the chain and its answer buffer must be valid.
pub unsafe fn register_query(query: *mut io_uring_query_hdr) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        syscall::io_uring_register(
            u32::MAX,
            IORING_REGISTER_QUERY,
            query.cast_const().cast(),
            0,
        )
    }
}

#[cfg(test)]
mod tests;
