// SPDX-License-Identifier: MIT
//! The kernel interface newer than liburing 2.15's header, asked of the
//! kernel itself: which `IORING_NOP_*` flags a NOP takes (one NOP per flag on
//! a throwaway ring), and what zero-copy receive offers, events included
//! (`IORING_REGISTER_QUERY`, Linux 7.2 for the events).

use std::mem::size_of;
use std::ptr;
use std::sync::atomic::{AtomicU32, Ordering};

use uring_uapi::releases;
use uring_uapi::*;

/// What a NOP with one flag did.
pub struct NopFlag {
    pub name: &'static str,
    pub since: Option<(u32, u32)>,
    pub verdict: NopVerdict,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NopVerdict {
    /// The kernel knows the flag (the request may still fail for want of
    /// a file or buffer: that is the flag at work).
    Accepted,
    /// `-EINVAL`: the flag is unknown to this kernel.
    Refused,
    /// The kernel ignores `nop_flags` altogether (before 6.10).
    Ignored,
    /// No ring or no answer.
    Unknown,
}

/// What the zcrx queries answered.
pub struct Zcrx {
    /// `IO_URING_QUERY_ZCRX`: the `ZCRX_FEATURE_*` bits, or the errno (0:
    /// the kernel's query interface does not have this query).
    pub features: Result<u32, i32>,
    /// `IO_URING_QUERY_ZCRX_EVENT`: event type bits, `struct zcrx_stats`
    /// size and alignment, or the errno (0 as above).
    pub events: Result<(u32, u32, u32), i32>,
}

/// The NOP flags probed: those a NOP on a plain ring can take
/// (`IORING_NOP_CQE32` needs a ring with 32-byte CQEs).
const NOP_FLAGS: &[(&str, u32)] = &[
    ("IORING_NOP_INJECT_RESULT", IORING_NOP_INJECT_RESULT),
    ("IORING_NOP_FILE", IORING_NOP_FILE),
    ("IORING_NOP_FIXED_FILE", IORING_NOP_FIXED_FILE),
    ("IORING_NOP_FIXED_BUFFER", IORING_NOP_FIXED_BUFFER),
    ("IORING_NOP_TW", IORING_NOP_TW),
];

/// A ring mapped just far enough to run one request at a time.
struct Ring {
    fd: i32,
    sq: (*mut libc::c_void, usize),
    cq: (*mut libc::c_void, usize),
    sqes: (*mut libc::c_void, usize),
    p: io_uring_params,
}

fn map(fd: i32, len: usize, off: u64) -> Option<(*mut libc::c_void, usize)> {
    // SAFETY: a shared mapping of the ring fd at one of its documented
    // offsets; the kernel checks the length.
    let m = unsafe {
        libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_POPULATE,
            fd,
            off as libc::off_t,
        )
    };
    (m != libc::MAP_FAILED).then_some((m, len))
}

impl Ring {
    fn new() -> Option<Ring> {
        let mut p = io_uring_params::default();
        // SAFETY: `p` is a live io_uring_params the kernel reads and fills.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_io_uring_setup,
                2u32,
                &mut p as *mut io_uring_params,
            )
        };
        if fd < 0 {
            return None;
        }
        let fd = fd as i32;
        let sq_len = p.sq_off.array as usize + p.sq_entries as usize * size_of::<u32>();
        let cq_len = p.cq_off.cqes as usize + p.cq_entries as usize * size_of::<io_uring_cqe>();
        let sqes_len = p.sq_entries as usize * size_of::<io_uring_sqe>();
        let sq = map(fd, sq_len, IORING_OFF_SQ_RING);
        let cq = map(fd, cq_len, IORING_OFF_CQ_RING);
        let sqes = map(fd, sqes_len, IORING_OFF_SQES);
        let ring = Ring {
            fd,
            sq: sq.unwrap_or((libc::MAP_FAILED, 0)),
            cq: cq.unwrap_or((libc::MAP_FAILED, 0)),
            sqes: sqes.unwrap_or((libc::MAP_FAILED, 0)),
            p,
        };
        (sq.is_some() && cq.is_some() && sqes.is_some()).then_some(ring)
    }

    /// The ring word at byte `off` of mapping `base`.
    fn word(base: *mut libc::c_void, off: u32) -> &'static AtomicU32 {
        // SAFETY: `off` is one of the kernel's ring offsets inside the
        // mapping, 4-aligned; the mapping outlives every use (dropped last).
        unsafe { &*(base.cast::<u8>().add(off as usize).cast::<AtomicU32>()) }
    }

    /// Runs `sqe` and returns its CQE's `res`.
    fn run(&self, sqe: io_uring_sqe) -> Option<i32> {
        let (sq, cq, o, c) = (self.sq.0, self.cq.0, &self.p.sq_off, &self.p.cq_off);
        // Only this thread touches the ring; the kernel reads the SQ tail
        // after our release store and we read the CQ tail with acquire.
        let tail = Self::word(sq, o.tail).load(Ordering::Relaxed);
        let slot = tail & Self::word(sq, o.ring_mask).load(Ordering::Relaxed);
        // SAFETY: `slot` indexes the mapped SQE array and the SQ array.
        unsafe {
            self.sqes
                .0
                .cast::<io_uring_sqe>()
                .add(slot as usize)
                .write(sqe);
            sq.cast::<u8>()
                .add(o.array as usize)
                .cast::<u32>()
                .add(slot as usize)
                .write(slot);
        }
        Self::word(sq, o.tail).store(tail.wrapping_add(1), Ordering::Release);
        // SAFETY: io_uring_enter on our ring: submit one, wait for one.
        let r = unsafe {
            libc::syscall(
                libc::SYS_io_uring_enter,
                self.fd,
                1u32,
                1u32,
                IORING_ENTER_GETEVENTS,
                ptr::null::<libc::c_void>(),
                0usize,
            )
        };
        if r < 0 {
            return None;
        }
        let head = Self::word(cq, c.head).load(Ordering::Relaxed);
        if Self::word(cq, c.tail).load(Ordering::Acquire) == head {
            return None;
        }
        let idx = head & Self::word(cq, c.ring_mask).load(Ordering::Relaxed);
        // SAFETY: `idx` indexes the mapped CQE array; the acquire load above
        // ordered the kernel's write of this CQE before our read.
        let res = unsafe {
            (*cq.cast::<u8>()
                .add(c.cqes as usize)
                .cast::<io_uring_cqe>()
                .add(idx as usize))
            .res
        };
        Self::word(cq, c.head).store(head.wrapping_add(1), Ordering::Release);
        Some(res)
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        for (m, len) in [self.sq, self.cq, self.sqes] {
            if m != libc::MAP_FAILED {
                // SAFETY: a mapping made by `map` and used no more.
                unsafe { libc::munmap(m, len) };
            }
        }
        // SAFETY: closes the fd `Ring::new` opened.
        unsafe { libc::close(self.fd) };
    }
}

fn nop(flags: u32, len: u32) -> io_uring_sqe {
    io_uring_sqe {
        opcode: IORING_OP_NOP,
        fd: -1,
        len,
        rw_flags: flags,
        ..io_uring_sqe::ZEROED
    }
}

/// One NOP per flag; first one that injects a result, to tell a kernel
/// that reads `nop_flags` from one that ignores them.
pub fn nop_flags() -> Vec<NopFlag> {
    let ring = Ring::new();
    let reads_flags = ring
        .as_ref()
        .and_then(|r| r.run(nop(IORING_NOP_INJECT_RESULT, 42)))
        .map(|res| res == 42);
    NOP_FLAGS
        .iter()
        .map(|&(name, bit)| {
            let verdict = match (&ring, reads_flags) {
                (Some(r), Some(true)) => match r.run(nop(bit, 0)) {
                    Some(res) if res == -libc::EINVAL => NopVerdict::Refused,
                    Some(_) => NopVerdict::Accepted,
                    None => NopVerdict::Unknown,
                },
                (Some(_), Some(false)) => NopVerdict::Ignored,
                _ => NopVerdict::Unknown,
            };
            NopFlag {
                name,
                since: releases::find(name).and_then(|r| r.since),
                verdict,
            }
        })
        .collect()
}

/// Asks one query of `IORING_REGISTER_QUERY` (no ring needed).
fn query<T: Default>(op: u32) -> Result<T, i32> {
    let mut answer = T::default();
    let mut hdr = io_uring_query_hdr {
        query_data: &mut answer as *mut T as u64,
        query_op: op,
        size: size_of::<T>() as u32,
        ..Default::default()
    };
    // SAFETY: the header and its answer buffer live across the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_io_uring_register,
            -1,
            IORING_REGISTER_QUERY,
            &mut hdr as *mut io_uring_query_hdr,
            0u32,
        )
    };
    if r < 0 {
        return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    }
    if hdr.result < 0 {
        return Err(-hdr.result);
    }
    Ok(answer)
}

/// The zcrx queries, or `None` where the kernel has no query interface.
pub fn zcrx() -> Option<Zcrx> {
    let opcodes = query::<io_uring_query_opcode>(IO_URING_QUERY_OPCODES).ok()?;
    let asks = |op: u32| op < opcodes.nr_query_opcodes;
    let features = if asks(IO_URING_QUERY_ZCRX) {
        query::<io_uring_query_zcrx>(IO_URING_QUERY_ZCRX).map(|z| z.features)
    } else {
        Err(0)
    };
    let events = if asks(IO_URING_QUERY_ZCRX_EVENT) {
        query::<io_uring_query_zcrx_event>(IO_URING_QUERY_ZCRX_EVENT)
            .map(|e| (e.event_flags, e.stats_size, e.stats_off_alignment))
    } else {
        Err(0)
    };
    Some(Zcrx { features, events })
}

/// `ZCRX_FEATURE_*` bits as names.
pub fn zcrx_feature_names(bits: u32) -> Vec<String> {
    let known = [
        ("RX_PAGE_SIZE", ZCRX_FEATURE_RX_PAGE_SIZE),
        ("EVENT", ZCRX_FEATURE_EVENT),
    ];
    bit_names(bits, &known)
}

/// Event type bits (`1 << ZCRX_EVENT_*`) as names.
pub fn zcrx_event_names(bits: u32) -> Vec<String> {
    let known = [
        ("ALLOC_FAIL", 1 << ZCRX_EVENT_ALLOC_FAIL),
        ("COPY", 1 << ZCRX_EVENT_COPY),
    ];
    bit_names(bits, &known)
}

fn bit_names(bits: u32, known: &[(&str, u32)]) -> Vec<String> {
    let mut out: Vec<String> = known
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(n, _)| (*n).to_owned())
        .collect();
    let rest = known.iter().fold(bits, |r, (_, b)| r & !b);
    if rest != 0 {
        out.push(format!("{rest:#x}"));
    }
    out
}
