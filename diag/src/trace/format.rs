// SPDX-License-Identifier: MIT
//! The binary trace's file layout (`LIBURING_TRACE_FORMAT=binary`): written
//! by the diagnostics (`super::binary`), read by `uring-info trace`, which
//! includes this file by path so the two cannot disagree.
//!
//! A process's region of the trace file starts (at an 8-byte aligned
//! offset) with a [`head`] of `HEAD_BYTES`, then `blocks` blocks of
//! `BLOCK_BYTES`. A block belongs to one thread while it fills it: a block
//! head (the thread's kernel id and name, and the block's sequence number,
//! 0 while the block is being prepared), then records of `RECORD_BYTES`.
//! A record's kind byte is stored last, so a record is either whole or
//! reads as kind 0, which ends the block's records: a writer killed in the
//! middle of one leaves the records before it. Every number is in the
//! writer's byte order ([`ORDER`] tells a reader which).

// Some names only the decoder reads.
#![allow(dead_code)]

/// The first bytes of a region.
pub const MAGIC: [u8; 8] = *b"URTRACE1";
/// The layout's version: a reader refuses any other. A field added where
/// every older writer of this version left zero, zero reading as "not
/// recorded", keeps the version (readers of older files then say
/// "unknown"); anything else (a size, an offset, a field's meaning)
/// changes it.
pub const VERSION: u32 = 1;
/// Read back as this number in the writer's byte order.
pub const ORDER: u32 = 0x0102_0304;
pub const HEAD_BYTES: usize = 256;
pub const BLOCK_BYTES: usize = 16384;
pub const BLOCK_HEAD_BYTES: usize = 64;
pub const RECORD_BYTES: usize = 32;
pub const RECORDS_PER_BLOCK: usize = (BLOCK_BYTES - BLOCK_HEAD_BYTES) / RECORD_BYTES;

/// Byte offsets of the region head's fields.
pub mod head {
    /// [`super::MAGIC`].
    pub const MAGIC: usize = 0;
    /// u32 [`super::VERSION`].
    pub const VERSION: usize = 8;
    /// u32 [`super::ORDER`].
    pub const ORDER: usize = 12;
    /// u32: head, block, block head and record sizes, in this order.
    pub const SIZES: usize = 16;
    /// u64: the region's bytes from its head (the next process's region
    /// may follow it).
    pub const REGION_BYTES: usize = 32;
    /// u32: blocks in the region.
    pub const BLOCKS: usize = 40;
    /// u32: [`super::WRAPS`].
    pub const FLAGS: usize = 44;
    /// u32: the writing process.
    pub const PID: usize = 48;
    /// u32 (atomic): blocks handed out so far; the newest block has this
    /// sequence number.
    pub const NEXT_SEQ: usize = 52;
    /// u32 (atomic): records that could not be written (the region was
    /// full, or a thread's block was in use by a signal handler's
    /// interrupted writer).
    pub const LOST: usize = 56;
    /// u64: CLOCK_MONOTONIC and CLOCK_REALTIME at attach, in ns.
    pub const START_MONO: usize = 64;
    pub const START_REAL: usize = 72;
    /// u64: a digest of bytes 0..CHECKED (FNV-1a), so a damaged head
    /// is refused.
    pub const DIGEST: usize = 80;
    pub const CHECKED: usize = 52;
    /// The program's name, NUL-padded (32 bytes).
    pub const PROGRAM: usize = 96;
    /// u64: the records' clock: its reading at attach (taken with
    /// START_MONO) and its rate, in ns per tick times 2^32. A record's
    /// `ns` is a reading of that clock: START_MONO + (ns - TICKS0) * RATE
    /// / 2^32 is CLOCK_MONOTONIC.
    pub const TICKS0: usize = 128;
    pub const RATE: usize = 136;
    /// u64: the writer's address of its first ring slot's ring address
    /// (a `struct io_uring *` the size of [`ADDRESS_BYTES`], 0 when the
    /// slot is free); slot i (ring number i + 1) is [`RINGS_STRIDE`]
    /// bytes times i further, [`RINGS_COUNT`] slots. With [`SQE_HEAD_AT`],
    /// a reader allowed to read the running writer's memory (ptrace
    /// access) counts its SQEs prepared and never submitted. 0: not
    /// recorded (an older writer).
    pub const RINGS_AT: usize = 144;
    /// u32 each.
    pub const RINGS_STRIDE: usize = 152;
    pub const RINGS_COUNT: usize = 156;
    pub const ADDRESS_BYTES: usize = 160;
    /// u32: the offset of `sq.sqe_head` in the writer's `struct
    /// io_uring`; `sqe_tail` is the u32 after it.
    pub const SQE_HEAD_AT: usize = 164;
}

/// [`head::FLAGS`]: the region is a ring of blocks (a flight recorder:
/// `LIBURING_TRACE_MAX` was given), the oldest reused first.
pub const WRAPS: u32 = 1;

/// Byte offsets of a block head's fields.
pub mod block {
    /// u32 (atomic): the block's sequence number plus one; 0 while it is
    /// being prepared (its records are then not to be read).
    pub const SEQ: usize = 0;
    /// u32 (atomic): 1 while a thread writes into the block.
    pub const OWNER: usize = 4;
    /// u32: the writing thread's kernel id (`gettid`).
    pub const TID: usize = 8;
    /// u32: its process (a forked child writes blocks of its own).
    pub const PID: usize = 12;
    /// The thread's name (`PR_GET_NAME`), NUL-padded (16 bytes).
    pub const NAME: usize = 16;
}

/// One event, 32 bytes with the same offsets on every target.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Record {
    /// A [`kind`]; stored last (0: no record).
    pub kind: u8,
    /// The ring's number in this trace (its setup record names it).
    pub ring: u8,
    pub opcode: u8,
    pub sqe_flags: u8,
    pub a: u32,
    pub b: i32,
    pub c: u32,
    pub user_data: u64,
    /// The time, in ticks of the region's clock ([`head::RATE`]).
    pub ns: u64,
}

/// Record kinds, and what their fields hold.
pub mod kind {
    /// A ring was set up: a = SQ entries, b = ring fd, c = setup flags,
    /// user_data = CQ entries | features << 32.
    pub const RING: u8 = 1;
    /// An SQE the kernel consumed: opcode, sqe_flags, a = len, b = fd,
    /// c = buf_index | personality << 16, user_data.
    pub const SQE: u8 = 2;
    /// A CQE the library saw: a = flags, b = res, c = its CQ position.
    pub const CQE: u8 = 3;
    /// A submit call that entered the kernel or failed: a = enters,
    /// b = result, user_data = when it first entered (0: not timed).
    pub const SUBMIT: u8 = 4;
    /// A wait call that entered the kernel: as [`SUBMIT`].
    pub const WAIT: u8 = 5;
    /// A thread is about to sleep in the kernel for a = CQEs (b = 1: with
    /// a timeout); its next [`WAIT`] record ends the wait.
    pub const WAITING: u8 = 6;
    /// CQ overflow seen: a = CQEs dropped so far, b = 1 when the kernel
    /// flags held-back CQEs (`IORING_SQ_CQ_OVERFLOW`).
    pub const OVERFLOW: u8 = 7;
    /// a = CQEs consumed by the program and overwritten before the library
    /// could see them.
    pub const NOT_SEEN: u8 = 8;
    /// The ring is torn down: a = SQEs prepared and never submitted.
    pub const EXIT: u8 = 9;
    /// Resize or ring-fd change: a = SQ entries, b = ring fd.
    pub const CHANGED: u8 = 10;
    /// The process is exiting with the ring never torn down: a = SQEs
    /// prepared and never submitted (when the ring could still be read).
    pub const AT_EXIT: u8 = 11;
    /// The process got a fatal signal (a = its number) and dies of it: the
    /// ring's last record. b = SQEs prepared and never submitted, when c
    /// bit 0 is set (clear: they could not be read, or an older writer);
    /// with c bit 1, opcode, sqe_flags and user_data are the oldest of
    /// them's.
    pub const SIGNAL: u8 = 12;
    /// The snapshot signal (`LIBURING_TRACE_SNAPSHOT_SIGNAL`, a = its
    /// number) came: what is in flight now is what the user asked about.
    /// b and c as for [`SIGNAL`].
    pub const SNAPSHOT: u8 = 13;
    /// The last kind a reader of this version knows.
    pub const LAST: u8 = SNAPSHOT;
}

/// 64-bit FNV-1a over `bytes` (the region head's digest).
pub fn digest(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

// The record's layout is the file's: 32 bytes, user_data at 16, ns at 24.
const _: () = assert!(core::mem::size_of::<Record>() == RECORD_BYTES);
const _: () = assert!(core::mem::offset_of!(Record, user_data) == 16);
const _: () = assert!(core::mem::offset_of!(Record, ns) == 24);
