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
//! The calls that hand the C caller's argument to the kernel untouched have
//! no function of their own here: their C entry points, generated from one
//! table (`tools/gen/src/register_calls/table.rs`), call [`register`],
//! [`without_argument`], [`with_int`] or [`ringless`] directly. What remains
//! builds the struct the kernel reads (tables with tags, updates, clones).
//!
//! Functions whose argument carries addresses the kernel will read or write
//! later are `unsafe`; the rest take references to self-contained structs.

use core::ffi::c_void;
use core::marker::PhantomData;
use core::mem::size_of;
use core::ptr::{self, null};

use crate::observe::{Unwatched, Watch, Watched};
use crate::ring::LiveRing;
use crate::structs::{int_flags, io_uring};
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::{
    io_uring_buf_reg, io_uring_buf_status, io_uring_clone_buffers, io_uring_file_index_range,
    io_uring_rsrc_register, io_uring_rsrc_update, io_uring_rsrc_update2, IORING_REGISTER_BUFFERS2,
    IORING_REGISTER_BUFFERS_UPDATE, IORING_REGISTER_CLONE_BUFFERS, IORING_REGISTER_FILES2,
    IORING_REGISTER_FILES_UPDATE, IORING_REGISTER_FILES_UPDATE2, IORING_REGISTER_FILE_ALLOC_RANGE,
    IORING_REGISTER_PBUF_STATUS, IORING_REGISTER_SRC_REGISTERED,
    IORING_REGISTER_USE_REGISTERED_RING, IORING_RSRC_REGISTER_SPARSE, IORING_UNREGISTER_PBUF_RING,
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
/// (ring-fd handling, resize, teardown). `W` says whether a failure is
/// reported to an observer (see [`crate::observe`]).
#[derive(Clone, Copy)]
pub struct RegTarget<'a, W: Watch = Unwatched>(LiveRing<'a, W>);

/// The target of a ring a C entry point took.
#[inline(always)]
pub fn live<W: Watch>(ring: LiveRing<'_, W>) -> RegTarget<'_, W> {
    RegTarget(ring)
}

impl<'a, W: Watch> From<LiveRing<'a, W>> for RegTarget<'a, W> {
    #[inline(always)]
    fn from(ring: LiveRing<'a, W>) -> RegTarget<'a, W> {
        RegTarget(ring)
    }
}

impl<'a> From<&'a io_uring> for RegTarget<'a> {
    #[inline]
    fn from(ring: &'a io_uring) -> RegTarget<'a> {
        // SAFETY: a `&io_uring` here is a ring set up by this library that
        // the caller owns for the call (the calls that take one run with
        // no other call on the ring), live for 'a.
        RegTarget(unsafe { LiveRing::from_ptr(core::ptr::from_ref(ring).cast_mut()) }.unwrap())
    }
}

/// Issues `opcode` on the ring `to` names.
///
/// # Safety
/// `arg` must be valid for whatever `opcode` and `nr_args` make the kernel
/// read or write, now and (for registered memory) for as long as the
/// registration lasts.
#[inline(always)]
pub unsafe fn register<'a, W: Watch>(
    to: impl Into<RegTarget<'a, W>>,
    opcode: u32,
    arg: *const c_void,
    nr_args: u32,
) -> SysResult<i32> {
    let ring = to.into().0;
    // The sanitizer build checks what the kernel is handed, as liburing's
    // does (its `do_register`).
    #[cfg(feature = "sanitize")]
    // SAFETY: forwarded caller guarantee: `arg` is what `opcode` reads.
    unsafe {
        crate::sanitize::check_register(opcode, arg, nr_args)
    };
    match ring.watch().watched() {
        // SAFETY: forwarded caller guarantee.
        None => unsafe { register_plain(ring.unwatched(), opcode, arg, nr_args) },
        // SAFETY: as above.
        Some(w) => unsafe { register_reported(ring.unwatched(), w, opcode, arg, nr_args) },
    }
}

/// [`register`] itself.
///
/// # Safety
/// As for [`register`].
#[inline(always)]
unsafe fn register_plain(
    ring: LiveRing,
    opcode: u32,
    arg: *const c_void,
    nr_args: u32,
) -> SysResult<i32> {
    // One call per choice of fd rather than a select of fd and flag: each
    // path then loads only the fd it passes (liburing's cost), and the
    // plain fd, the common case, falls through.
    if ring.int_flags() & int_flags::REG_REG_RING != 0 {
        crate::hint::cold_path();
        let opcode = opcode | IORING_REGISTER_USE_REGISTERED_RING;
        let fd = ring.enter_ring_fd() as u32;
        // SAFETY: forwarded caller guarantee; the fd is only a number to the kernel.
        unsafe { syscall::io_uring_register(fd, opcode, arg, nr_args) }
    } else {
        // SAFETY: as above.
        unsafe { syscall::io_uring_register(ring.ring_fd() as u32, opcode, arg, nr_args) }
    }
}

/// [`register`] in an observed call, out of line (one copy for every
/// entry point): a failure is told to the observer.
///
/// # Safety
/// As for [`register`].
#[cold]
#[inline(never)]
unsafe fn register_reported(
    ring: LiveRing,
    w: Watched,
    opcode: u32,
    arg: *const c_void,
    nr_args: u32,
) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    let r = unsafe { register_plain(ring, opcode, arg, nr_args) };
    if let Err(e) = r {
        let told = if ring.int_flags() & int_flags::REG_REG_RING != 0 {
            opcode | IORING_REGISTER_USE_REGISTERED_RING
        } else {
            opcode
        };
        w.register_failed(told, arg, nr_args, e);
    }
    r
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
pub fn register_with<'a, T, W: Watch>(
    to: impl Into<RegTarget<'a, W>>,
    op: RegOp<T>,
    arg: &mut T,
) -> SysResult<i32> {
    // SAFETY: `arg` is a live, exclusively borrowed `T`, which `op` proves is
    // all the kernel touches during the call (and nothing after it).
    unsafe { register(to, op.code, ptr::from_mut(arg).cast(), op.nr_args) }
}

/// Like [`register`] for opcodes that take no argument (NULL).
#[inline]
pub fn without_argument<'a, W: Watch>(
    to: impl Into<RegTarget<'a, W>>,
    opcode: u32,
    nr_args: u32,
) -> SysResult<i32> {
    // SAFETY: a null argument is never dereferenced by these opcodes.
    unsafe { register(to, opcode, null(), nr_args) }
}

/// Like [`register`] with the address of one `int` (`nr_args` 1), as the
/// eventfd registrations pass their descriptor.
///
/// # Safety
/// `opcode` must read at most one `int` at its argument, during the call
/// only.
#[inline(always)]
pub unsafe fn with_int<W: Watch>(ring: LiveRing<W>, opcode: u32, value: i32) -> SysResult<i32> {
    let mut value = value;
    // SAFETY: `value` is a live local; the caller vouches for what `opcode`
    // does with it. (The target is built here, not by the caller: so the
    // optimiser loads only the fd the taken path passes, as liburing does.)
    unsafe { register(live(ring), opcode, ptr::from_mut(&mut value).cast(), 1) }
}

/// Issues `opcode` with no ring (fd -1): the calls that act on the task or
/// name their ring inside the argument. The observer is not told: there is
/// no ring of the program's to explain a failure by.
///
/// # Safety
/// As [`register`].
#[inline]
pub unsafe fn ringless(opcode: u32, arg: *const c_void, nr_args: u32) -> SysResult<i32> {
    // SAFETY: forwarded caller guarantee.
    unsafe { syscall::io_uring_register(u32::MAX, opcode, arg, nr_args) }
}

/// A byte count as the kernel's `nr_args` (an `int` there): 2 GiB or more
/// is refused with `EINVAL` before the call, as liburing refuses it.
#[inline]
pub fn count_from_size(size: usize) -> SysResult<u32> {
    match i32::try_from(size) {
        Ok(n) => Ok(n as u32),
        Err(_) => {
            crate::hint::cold_path();
            Err(Errno::EINVAL)
        }
    }
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
unsafe fn rsrc_register2<W: Watch>(
    ring: LiveRing<W>,
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
unsafe fn rsrc_register2_with<W: Watch>(
    ring: LiveRing<W>,
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
unsafe fn rsrc_update2<W: Watch>(
    ring: LiveRing<W>,
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
pub fn with_nofile_retry(nr: u32, attempt: impl FnMut() -> SysResult<i32>) -> SysResult<i32> {
    let mut attempt = attempt;
    let first = attempt();
    if syscall::failed_with(&first, Errno::EMFILE) {
        return retry_with_more_files(nr, attempt);
    }
    first
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

/// `io_uring_register_files_tags`: like `io_uring_register_files`, with a tag per
/// slot (a CQE carries the tag when the file is later removed); tags may be
/// null.
///
/// # Safety
/// `files`, and `tags` unless null, must be readable for `nr` entries.
#[inline]
pub unsafe fn register_files_tags<W: Watch>(
    ring: LiveRing<W>,
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
pub fn register_files_sparse<W: Watch>(ring: LiveRing<W>, nr: u32) -> SysResult<i32> {
    with_nofile_retry(nr, move || sparse_table(ring, IORING_REGISTER_FILES2, nr))
}

/// An empty resource table of `nr` slots: `opcode` is
/// `IORING_REGISTER_FILES2` or `IORING_REGISTER_BUFFERS2`.
#[inline(always)]
fn sparse_table<W: Watch>(ring: LiveRing<W>, opcode: u32, nr: u32) -> SysResult<i32> {
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
pub unsafe fn register_files_update<W: Watch>(
    ring: LiveRing<W>,
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
pub unsafe fn register_files_update_tag<W: Watch>(
    ring: LiveRing<W>,
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
pub fn register_file_alloc_range<W: Watch>(
    ring: LiveRing<W>,
    off: u32,
    len: u32,
) -> SysResult<i32> {
    let mut range = io_uring_file_index_range { off, len, resv: 0 };
    register_with(live(ring), FILE_ALLOC_RANGE, &mut range)
}

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// `io_uring_register_buffers_tags`: `io_uring_register_buffers` with a tag per
/// slot (null for none).
///
/// # Safety
/// As `io_uring_register_buffers`; `tags`, unless null, readable for `nr` entries.
pub unsafe fn register_buffers_tags<W: Watch>(
    ring: LiveRing<W>,
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
pub fn register_buffers_sparse<W: Watch>(ring: LiveRing<W>, nr: u32) -> SysResult<i32> {
    sparse_table(ring, IORING_REGISTER_BUFFERS2, nr)
}

/// `io_uring_register_buffers_update_tag`: replaces `nr` slots from `off`.
///
/// # Safety
/// As [`register_buffers_tags`].
pub unsafe fn register_buffers_update_tag<W: Watch>(
    ring: LiveRing<W>,
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

/// `__io_uring_clone_buffers_offset`: copies `nr` registered buffers of
/// `src` starting at `src_off` into `dst` at `dst_off` (`nr == 0`: all).
///
/// `IORING_REGISTER_SRC_REGISTERED` in `flags` is kept only when `src` can
/// be named by its registered index; otherwise the real fd of `src` is used
/// and the flag dropped.
pub fn clone_buffers_offset_raw<W: Watch>(
    dst: LiveRing<W>,
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
pub fn clone_buffers_offset<W: Watch>(
    dst: LiveRing<W>,
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
pub fn clone_buffers<W: Watch>(dst: LiveRing<W>, src: LiveRing) -> SysResult<i32> {
    clone_buffers_offset_raw(dst, src, 0, 0, 0, IORING_REGISTER_SRC_REGISTERED)
}

/// `__io_uring_clone_buffers`: all of `src`'s buffers, with caller flags.
pub fn clone_buffers_raw<W: Watch>(dst: LiveRing<W>, src: LiveRing, flags: u32) -> SysResult<i32> {
    clone_buffers_offset_raw(dst, src, 0, 0, 0, flags)
}

// ---------------------------------------------------------------------------
// io-wq
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Wait-argument registration (a stub)
// ---------------------------------------------------------------------------

/// `io_uring_register_wait_reg`: kept as liburing 2.15 has it, a stub that
/// always fails with `EINVAL` (register a region with
/// `IORING_MEM_REGION_REG_WAIT_ARG` instead).
pub fn register_wait_reg() -> SysResult<i32> {
    Err(Errno::EINVAL)
}

#[cfg(test)]
mod tests;
