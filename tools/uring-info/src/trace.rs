// SPDX-License-Identifier: MIT
//! `uring-info trace FILE`: decodes a binary trace (`LIBURING_TRACE_FORMAT=
//! binary`) into the text trace, a summary with request times per opcode
//! and their histograms, or Chrome trace-event JSON. The layout is the writer's own file.

use std::collections::HashMap;
use std::fmt::Write as _;

use uring_sysinfo::errno_name;
use uring_uapi::names::{self, OPCODE};

#[path = "../../../diag/src/trace/format.rs"]
mod format;

use format::{block, head, kind};

pub mod kernel;

/// One record with where it came from.
#[derive(Clone, Copy)]
struct Event {
    r: format::Record,
    /// The writing process (a file may hold several) and thread.
    pid: u32,
    tid: u32,
    seq: u32,
    index: u32,
}

struct Trace {
    pid: u32,
    program: String,
    wraps: bool,
    lost: u32,
    events: Vec<Event>,
    threads: HashMap<u32, String>,
    /// CLOCK_MONOTONIC now, when the process that wrote the file still
    /// runs with it mapped ([`live_now`]): ages are then reckoned to now,
    /// not to the last event (a hung program's requests age while it
    /// hangs, writing nothing).
    now: Option<u64>,
    /// Where the first region's writer keeps its rings' addresses
    /// ([`head::RINGS_AT`]): 0 when its head does not say.
    rings: RingTable,
    /// Per ring of the first region's process, read from it now when it
    /// runs ([`live_unsubmitted`]): its SQEs prepared and never submitted,
    /// or why they could not be read.
    live_sqes: HashMap<u8, Result<u32, String>>,
}

/// The writer's ring table, as its region head gives it.
#[derive(Clone, Copy, Default)]
struct RingTable {
    at: u64,
    stride: u32,
    count: u32,
    address_bytes: u32,
    sqe_head_at: u32,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(0, |s| u32::from_ne_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8).map_or(0, |s| {
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        u64::from_ne_bytes(a)
    })
}

fn name_at(b: &[u8], at: usize, len: usize) -> String {
    let s = b.get(at..at + len).unwrap_or(&[]);
    let end = s.iter().position(|&c| c == 0).unwrap_or(s.len());
    String::from_utf8_lossy(s.get(..end).unwrap_or(&[])).into_owned()
}

/// Reads every region of `bytes` (one per process that traced into the
/// file); why not when the file is not a trace this decoder understands.
fn parse(bytes: &[u8]) -> Result<Trace, String> {
    if bytes.len() < format::HEAD_BYTES || bytes.get(..8) != Some(&format::MAGIC[..]) {
        return Err("not a uring-rs binary trace (no URTRACE1 head; text and JSON traces are read as they are)".into());
    }
    let mut t = Trace {
        pid: 0,
        program: String::new(),
        wraps: false,
        lost: 0,
        events: Vec::new(),
        threads: HashMap::new(),
        now: None,
        rings: RingTable::default(),
        live_sqes: HashMap::new(),
    };
    let mut at = 0;
    let mut regions = 0;
    while let Some(region) = bytes.get(at..) {
        if region.len() < format::HEAD_BYTES || region.get(..8) != Some(&format::MAGIC[..]) {
            break;
        }
        let used = parse_region(region, &mut t, regions == 0)?;
        regions += 1;
        // The next process's region starts at the next 8-byte boundary.
        at += used;
        while at % 8 != 0
            || bytes
                .get(at..at + 8)
                .is_some_and(|m| m.iter().all(|&b| b == 0))
        {
            if at >= bytes.len() {
                break;
            }
            at += if at % 8 != 0 { 8 - at % 8 } else { 8 };
        }
    }
    t.events.sort_by_key(|e| (e.r.ns, e.seq, e.index));
    // A CQE logged twice (two threads walked the CQ) has one CQ position.
    let mut seen = std::collections::HashSet::new();
    t.events
        .retain(|e| e.r.kind != kind::CQE || seen.insert((e.pid, e.r.ring, e.r.c, e.r.user_data)));
    Ok(t)
}

/// Reads one region into `t`; the bytes it takes in the file.
fn parse_region(bytes: &[u8], t: &mut Trace, first: bool) -> Result<usize, String> {
    if u32_at(bytes, head::ORDER) != format::ORDER {
        return Err("written on a machine of the other byte order".into());
    }
    let version = u32_at(bytes, head::VERSION);
    if version != format::VERSION {
        return Err(format!(
            "trace format version {version}, this decoder reads version {}",
            format::VERSION
        ));
    }
    let checked = bytes.get(..head::CHECKED).unwrap_or(&[]);
    if format::digest(checked) != u64_at(bytes, head::DIGEST) {
        return Err("its head is damaged (the digest does not match)".into());
    }
    let sizes = [0, 1, 2, 3].map(|i| u32_at(bytes, head::SIZES + 4 * i) as usize);
    if sizes
        != [
            format::HEAD_BYTES,
            format::BLOCK_BYTES,
            format::BLOCK_HEAD_BYTES,
            format::RECORD_BYTES,
        ]
    {
        return Err("its block or record sizes are not this decoder's".into());
    }
    let blocks = u32_at(bytes, head::BLOCKS) as usize;
    let wraps = u32_at(bytes, head::FLAGS) & format::WRAPS != 0;
    // Blocks handed out: a region that does not wrap was cut after them
    // at exit (another process's region may follow).
    let handed = (u32_at(bytes, head::NEXT_SEQ) as usize).min(blocks);
    let used = if wraps { blocks } else { handed };
    // Record times are ticks of the writer's clock: to CLOCK_MONOTONIC.
    let (mono0, ticks0, rate) = (
        u64_at(bytes, head::START_MONO),
        u64_at(bytes, head::TICKS0),
        u64_at(bytes, head::RATE),
    );
    let to_ns = |ticks: u64| -> u64 {
        let d = i128::from(ticks) - i128::from(ticks0);
        (i128::from(mono0) + ((d * i128::from(rate)) >> 32)).max(0) as u64
    };
    if first {
        t.pid = u32_at(bytes, head::PID);
        t.program = name_at(bytes, head::PROGRAM, 16);
        t.rings = RingTable {
            at: u64_at(bytes, head::RINGS_AT),
            stride: u32_at(bytes, head::RINGS_STRIDE),
            count: u32_at(bytes, head::RINGS_COUNT),
            address_bytes: u32_at(bytes, head::ADDRESS_BYTES),
            sqe_head_at: u32_at(bytes, head::SQE_HEAD_AT),
        };
    }
    t.wraps |= wraps;
    t.lost += u32_at(bytes, head::LOST);
    for i in 0..used {
        let at = format::HEAD_BYTES + i * format::BLOCK_BYTES;
        // A file cut short ends after the last block written.
        let Some(b) = bytes.get(at..(at + format::BLOCK_BYTES).min(bytes.len())) else {
            break;
        };
        let seq = u32_at(b, block::SEQ);
        if seq == 0 {
            continue;
        }
        let tid = u32_at(b, block::TID);
        let pid = u32_at(b, block::PID);
        t.threads
            .entry(tid)
            .or_insert_with(|| name_at(b, block::NAME, 16));
        for k in 0..format::RECORDS_PER_BLOCK {
            let ra = format::BLOCK_HEAD_BYTES + k * format::RECORD_BYTES;
            let Some(rb) = b.get(ra..ra + format::RECORD_BYTES) else {
                break;
            };
            let kind = rb[0];
            if kind == 0 {
                // The block's end (or a record its writer never finished).
                break;
            }
            if kind > kind::LAST || rb[1] == 0 {
                return Err(format!(
                    "damaged: block {i}, record {k} has kind {kind} ring {}, which no writer makes",
                    rb[1]
                ));
            }
            let r = format::Record {
                kind,
                ring: rb[1],
                opcode: rb[2],
                sqe_flags: rb[3],
                a: u32_at(rb, 4),
                b: u32_at(rb, 8) as i32,
                c: u32_at(rb, 12),
                user_data: u64_at(rb, 16),
                ns: to_ns(u64_at(rb, 24)),
            };
            t.events.push(Event {
                r,
                pid,
                tid,
                seq,
                index: k as u32,
            });
        }
    }
    Ok(format::HEAD_BYTES + used * format::BLOCK_BYTES)
}

fn opname(op: u8) -> String {
    names::short_name(OPCODE, u64::from(op)).map_or_else(|| format!("opcode {op}"), str::to_owned)
}

fn res_text(res: i32) -> String {
    if res < 0 {
        errno_name(-res).map_or_else(|| format!("{res}"), |n| format!("-{n}"))
    } else {
        res.to_string()
    }
}

/// A fatal signal's number and name.
fn signal_name(sig: u32) -> String {
    let name = match sig as i32 {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGABRT => "SIGABRT",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGUSR2 => "SIGUSR2",
        _ => return sig.to_string(),
    };
    format!("{sig} ({name})")
}

/// A summary's requests in flight, each aged to `until`: " none", or the
/// first eight and how many more.
fn write_in_flight<'a>(
    out: &mut String,
    stuck: impl ExactSizeIterator<Item = &'a Event>,
    until: u64,
) {
    let n = stuck.len();
    if n == 0 {
        out.push_str(" none");
    }
    for e in stuck.take(8) {
        let _ = write!(
            out,
            " {} user_data={:#x} fd={} age {};",
            opname(e.r.opcode),
            e.r.user_data,
            e.r.b,
            dur(until.saturating_sub(e.r.ns))
        );
    }
    if n > 8 {
        let _ = write!(out, " and {} more", n - 8);
    }
}

fn dur(ns: u64) -> String {
    if ns >= 10_000_000_000 {
        format!("{}s", ns / 1_000_000_000)
    } else if ns >= 10_000_000 {
        format!("{}ms", ns / 1_000_000)
    } else if ns >= 10_000 {
        format!("{}us", ns / 1_000)
    } else {
        format!("{ns}ns")
    }
}

/// A ring of the trace: its process and its number there.
type RingKey = (u32, u8);

fn ring_of(e: &Event) -> RingKey {
    (e.pid, e.r.ring)
}

/// A request in flight: its SQE's event.
type InFlight = HashMap<(RingKey, u64), Event>;

/// The text trace, one line per record.
fn text(t: &Trace, k: Option<&kernel::Merged>, out: &mut String) {
    let t0 = t.events.first().map_or(0, |e| e.r.ns);
    let mut fds: HashMap<RingKey, i32> = HashMap::new();
    // The kernel's events of the trace's rings, each printed before the
    // first of the program's events that comes after it.
    let klines = k.map(kernel::Merged::lines).unwrap_or_default();
    let mut kl = klines.iter().peekable();
    let mut kernel_line = |upto: u64, fds: &HashMap<RingKey, i32>, out: &mut String| {
        while let Some((ns, tid, comm, ring, what)) = kl.next_if(|l| l.0 <= upto) {
            let _ = writeln!(
                out,
                "+{:.6}s [{tid} {comm}] uring-trace: ring {} (fd {}): {what}",
                ns.saturating_sub(t0) as f64 / 1e9,
                ring.1,
                fds.get(ring).copied().unwrap_or(-1)
            );
        }
    };
    for e in &t.events {
        let r = &e.r;
        kernel_line(r.ns, &fds, out);
        let fd = *fds.entry(ring_of(e)).or_insert(-1);
        let _ = write!(
            out,
            "+{:.6}s [{} {}] uring-trace: ring {} (fd {}): ",
            (r.ns - t0) as f64 / 1e9,
            e.tid,
            t.threads.get(&e.tid).map_or("", String::as_str),
            r.ring,
            if r.kind == kind::RING { r.b } else { fd }
        );
        match r.kind {
            kind::RING => {
                fds.insert(ring_of(e), r.b);
                let _ = write!(
                    out,
                    "set up: {} SQ / {} CQ entries, flags {:#x}",
                    r.a, r.user_data as u32, r.c
                );
            }
            kind::SQE => {
                let _ = write!(
                    out,
                    "SQE {} {}={} len={} flags={:#x} user_data={:#x}",
                    opname(r.opcode),
                    if r.sqe_flags & 1 != 0 { "file" } else { "fd" },
                    r.b,
                    r.a,
                    r.sqe_flags,
                    r.user_data
                );
                if r.sqe_flags & 0x20 != 0 {
                    let _ = write!(out, " buf_group={}", r.c & 0xffff);
                }
            }
            kind::CQE => {
                let _ = write!(
                    out,
                    "CQE user_data={:#x} res={} flags={:#x}",
                    r.user_data,
                    res_text(r.b),
                    r.a
                );
                if r.b == -105 {
                    out.push_str(" (ENOBUFS: the provided-buffer group ran dry)");
                }
            }
            kind::SUBMIT => {
                let _ = write!(out, "submit call: {} enters, result {}", r.a, res_text(r.b));
            }
            kind::WAIT => {
                let _ = write!(out, "wait call: {} enters, result {}", r.a, res_text(r.b));
            }
            kind::WAITING => {
                let _ = write!(out, "thread sleeps in the kernel for {} CQE(s)", r.a);
            }
            kind::OVERFLOW => {
                let _ = write!(
                    out,
                    "CQ overflow: {} CQEs dropped so far{}",
                    r.a,
                    if r.b != 0 {
                        ", CQEs held back (IORING_SQ_CQ_OVERFLOW)"
                    } else {
                        ""
                    }
                );
            }
            kind::NOT_SEEN => {
                let _ = write!(
                    out,
                    "{} CQE(s) consumed and overwritten before the library saw them",
                    r.a
                );
            }
            kind::EXIT => {
                let _ = write!(
                    out,
                    "torn down; {} SQE(s) prepared and never submitted",
                    r.a
                );
            }
            kind::CHANGED => {
                let _ = write!(out, "changed: now {} SQ entries, fd {}", r.a, r.b);
                fds.insert(ring_of(e), r.b);
            }
            kind::AT_EXIT => {
                out.push_str("still set up at process exit");
                if r.a != u32::MAX {
                    let _ = write!(out, "; {} SQE(s) prepared and never submitted", r.a);
                }
            }
            kind::SIGNAL => {
                let _ = write!(out, "the process got fatal signal {}", signal_name(r.a));
                out.push_str(&unsubmitted_text(r, "; "));
            }
            kind::SNAPSHOT => {
                let _ = write!(out, "snapshot asked by signal {}", signal_name(r.a));
                out.push_str(&unsubmitted_text(r, "; "));
            }
            _ => {}
        }
        out.push('\n');
    }
    kernel_line(u64::MAX, &fds, out);
}

/// A fatal or snapshot signal record's SQEs prepared and never submitted
/// (after `lead`), or nothing when its writer could not read them.
fn unsubmitted_text(r: &format::Record, lead: &str) -> String {
    if r.c & 1 == 0 {
        return String::new();
    }
    format!(
        "{lead}{} SQE(s) prepared and never submitted{}",
        r.b,
        oldest_text(r)
    )
}

/// The oldest SQE prepared and never submitted, when the record has it.
fn oldest_text(r: &format::Record) -> String {
    if r.c & 2 == 0 {
        return String::new();
    }
    format!(
        " (the oldest: {} user_data={:#x})",
        opname(r.opcode),
        r.user_data
    )
}

/// Per ring: request times per opcode, what is still in flight, who waits
/// (and with the kernel's side, where its slowest requests spent their time).
fn summary(t: &Trace, k: Option<&kernel::Merged>, out: &mut String) {
    let _ = writeln!(
        out,
        "uring-trace: process {} ({}): {} events, {} threads{}{}",
        t.pid,
        t.program,
        t.events.len(),
        t.threads.len(),
        if t.wraps {
            ", flight recorder (the newest events)"
        } else {
            ""
        },
        if t.lost != 0 {
            format!(", {} records lost", t.lost)
        } else {
            String::new()
        }
    );
    let last = t.events.last().map_or(0, |e| e.r.ns);
    let mut in_flight: InFlight = HashMap::new();
    let mut lat: HashMap<(RingKey, u8), Vec<u64>> = HashMap::new();
    // Every completed request: its SQE and its time, for the histograms.
    let mut done: Vec<(Event, u64)> = Vec::new();
    let mut counts: HashMap<RingKey, [u64; 4]> = HashMap::new();
    let mut waiting: HashMap<u32, Event> = HashMap::new();
    // The newest count of SQEs prepared and never submitted, and when.
    let mut unsubmitted: HashMap<RingKey, (u32, String)> = HashMap::new();
    let mut signalled: HashMap<RingKey, u32> = HashMap::new();
    // At each snapshot signal: its record, the ring's requests in flight
    // and the threads asleep on it then.
    let mut snapshots: Vec<(Event, Vec<Event>, Vec<Event>)> = Vec::new();
    // A plain submit call (one enter that consumed its SQEs) has no record
    // of its own: its SQE records share a thread and a time.
    let calls: std::collections::HashSet<(RingKey, u32, u64)> = t
        .events
        .iter()
        .filter(|e| e.r.kind == kind::SUBMIT)
        .map(|e| (ring_of(e), e.tid, e.r.ns))
        .collect();
    let mut groups = std::collections::HashSet::new();
    let mut ring_last: HashMap<RingKey, u64> = HashMap::new();
    for e in &t.events {
        let r = &e.r;
        ring_last.insert(ring_of(e), r.ns);
        let c = counts.entry(ring_of(e)).or_default();
        if r.kind == kind::SQE
            && groups.insert((ring_of(e), e.tid, r.ns))
            && !calls.contains(&(ring_of(e), e.tid, r.ns))
        {
            c[3] += 1;
            c[2] += 1;
        }
        match r.kind {
            kind::RING => {
                in_flight.retain(|k, _| k.0 != ring_of(e));
            }
            kind::SQE => {
                c[0] += 1;
                in_flight.insert((ring_of(e), r.user_data), *e);
            }
            kind::CQE => {
                c[1] += 1;
                let more = r.a & 2 != 0;
                let key = (ring_of(e), r.user_data);
                if let Some(s) = in_flight.get(&key).copied() {
                    if !more {
                        in_flight.remove(&key);
                        let took = r.ns.saturating_sub(s.r.ns);
                        lat.entry((ring_of(e), s.r.opcode)).or_default().push(took);
                        done.push((s, took));
                    }
                }
                waiting.remove(&e.tid);
            }
            kind::SUBMIT | kind::WAIT => {
                c[2] += u64::from(r.a);
                c[3] += 1;
                waiting.remove(&e.tid);
            }
            kind::WAITING => {
                waiting.insert(e.tid, *e);
            }
            kind::EXIT => {
                unsubmitted.insert(ring_of(e), (r.a, "at teardown".into()));
            }
            kind::AT_EXIT if r.a != u32::MAX => {
                unsubmitted.insert(ring_of(e), (r.a, "at process exit".into()));
            }
            kind::SIGNAL => {
                signalled.insert(ring_of(e), r.a);
                if r.c & 1 != 0 {
                    unsubmitted.insert(
                        ring_of(e),
                        (
                            r.b as u32,
                            format!(
                                "when the process got fatal signal {}{}",
                                signal_name(r.a),
                                oldest_text(r)
                            ),
                        ),
                    );
                }
            }
            kind::SNAPSHOT => {
                let mut stuck: Vec<Event> = in_flight
                    .values()
                    .filter(|s| ring_of(s) == ring_of(e))
                    .copied()
                    .collect();
                stuck.sort_by_key(|s| s.r.ns);
                let mut asleep: Vec<Event> = waiting
                    .values()
                    .filter(|w| ring_of(w) == ring_of(e))
                    .copied()
                    .collect();
                asleep.sort_by_key(|w| w.r.ns);
                snapshots.push((*e, stuck, asleep));
            }
            _ => {}
        }
    }
    let mut rings: Vec<RingKey> = counts.keys().copied().collect();
    rings.sort_unstable();
    let several = rings
        .iter()
        .any(|r| r.0 != rings.first().map_or(0, |f| f.0));
    let ring_name = |r: RingKey| {
        if several {
            format!("process {} ring {}", r.0, r.1)
        } else {
            format!("ring {}", r.1)
        }
    };
    for ring in rings {
        let name = ring_name(ring);
        let c = counts.get(&ring).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "uring-trace: {name}: summary: {} SQEs consumed by the kernel, {} CQEs seen, {} calls that entered the kernel or failed, {} enters",
            c[0], c[1], c[3], c[2]
        );
        let _ = write!(
            out,
            "uring-trace: {name}: summary: request times per opcode (SQE consumed to last CQE, as the library saw them):"
        );
        let mut ops: Vec<_> = lat.iter_mut().filter(|(k, _)| k.0 == ring).collect();
        ops.sort_by_key(|(k, _)| k.1);
        if ops.is_empty() {
            out.push_str(" none");
        }
        for ((_, op), v) in ops {
            v.sort_unstable();
            let q = |p: usize| {
                v.get((v.len() * p).div_ceil(100).max(1) - 1)
                    .copied()
                    .unwrap_or(0)
            };
            let _ = write!(
                out,
                " {} n={} p50={} p99={} max={};",
                opname(*op),
                v.len(),
                dur(q(50)),
                dur(q(99)),
                dur(v.last().copied().unwrap_or(0))
            );
        }
        out.push('\n');
        histograms(&name, ring, &done, out);
        let mut stuck: Vec<&Event> = in_flight.values().filter(|e| ring_of(e) == ring).collect();
        stuck.sort_by_key(|e| e.r.ns);
        let _ = write!(
            out,
            "uring-trace: {name}: summary: still in flight {} (longest waiting first):",
            if t.now.is_some() {
                "now, the process running".to_owned()
            } else if let Some(sig) = signalled.get(&ring) {
                format!("when the process got fatal signal {}", signal_name(*sig))
            } else {
                "at the ring's last event".to_owned()
            }
        );
        let until = t
            .now
            .or_else(|| ring_last.get(&ring).copied())
            .unwrap_or(last);
        write_in_flight(out, stuck.iter().copied(), until);
        out.push('\n');
        let mine: Vec<_> = snapshots.iter().filter(|s| ring_of(&s.0) == ring).collect();
        for (snap, stuck, asleep) in mine.iter().rev().take(SNAPSHOTS).rev() {
            let at = snap.r.ns;
            let _ = write!(
                out,
                "uring-trace: {name}: summary: at the snapshot of +{:.6}s (signal {}): in flight",
                at.saturating_sub(t.events.first().map_or(0, |e| e.r.ns)) as f64 / 1e9,
                signal_name(snap.r.a)
            );
            write_in_flight(out, stuck.iter(), at);
            if snap.r.c & 1 != 0 {
                let _ = write!(out, "{};", unsubmitted_text(&snap.r, " "));
            }
            for w in asleep {
                let _ = write!(
                    out,
                    " thread {} ({}) asleep in the kernel for {} CQE(s) since {};",
                    w.tid,
                    t.threads.get(&w.tid).map_or("", String::as_str),
                    w.r.a,
                    dur(at.saturating_sub(w.r.ns))
                );
            }
            out.push('\n');
        }
        if mine.len() > SNAPSHOTS {
            let _ = writeln!(
                out,
                "uring-trace: {name}: summary: ({} earlier snapshots left out)",
                mine.len() - SNAPSHOTS
            );
        }
        let live = (ring.0 == t.pid)
            .then(|| t.live_sqes.get(&ring.1))
            .flatten();
        match (live, unsubmitted.get(&ring)) {
            (Some(Ok(n)), _) => {
                let _ = writeln!(
                    out,
                    "uring-trace: {name}: summary: {n} SQE(s) prepared and never submitted now, the process running"
                );
            }
            (Some(Err(why)), _) => {
                let _ = writeln!(
                    out,
                    "uring-trace: {name}: summary: SQEs prepared and never submitted now: unknown ({why})"
                );
            }
            (None, Some((n, when))) => {
                let _ = writeln!(
                    out,
                    "uring-trace: {name}: summary: {n} SQE(s) prepared and never submitted {when}"
                );
            }
            (None, None) => {}
        }
        if let Some(k) = k {
            let end = t
                .now
                .or_else(|| ring_last.get(&ring).copied())
                .unwrap_or(last);
            let reqs: Vec<(Event, u64, bool)> = done
                .iter()
                .filter(|(s, _)| ring_of(s) == ring)
                .map(|(s, took)| (*s, *took, false))
                .chain(
                    stuck
                        .iter()
                        .map(|s| (**s, end.saturating_sub(s.r.ns), true)),
                )
                .collect();
            k.summary(&name, &reqs, out);
        }
    }
    for (tid, e) in &waiting {
        let _ = writeln!(
            out,
            "uring-trace: thread {tid} ({}) sleeps in the kernel on {} for {} CQE(s) since {} before {}",
            t.threads.get(tid).map_or("", String::as_str),
            ring_name(ring_of(e)),
            e.r.a,
            dur(t.now.unwrap_or(last).saturating_sub(e.r.ns)),
            if t.now.is_some() {
                "now (the process running)"
            } else {
                "the trace's end"
            }
        );
    }
}

/// How many of a ring's snapshots (the newest) the summary gives.
const SNAPSHOTS: usize = 4;

/// SQE flags a request's time depends on (`IOSQE_*`, a stable ABI).
const FIXED_FILE: u8 = 1 << 0;
const LINKED: u8 = (1 << 2) | (1 << 3);
const ASYNC: u8 = 1 << 4;

/// How many descriptors get a histogram of their own: the busiest.
const TOP_DESCRIPTORS: usize = 8;

/// Marks for a bucket's count relative to its row's fullest bucket, least
/// first; an empty bucket is a blank, so peaks stand apart as groups.
const MARKS: &[u8] = b".:-=+*#%@";

/// The log2 bucket of a time: bucket k holds [2^k, 2^(k+1)) ns.
fn bucket(ns: u64) -> usize {
    (63 - (ns | 1).leading_zeros()) as usize
}

/// One row: its label, its request count, its counts per bucket.
type Row = (String, u64, [u64; 64]);

fn add(rows: &mut Vec<Row>, label: String, took: u64) {
    let at = match rows.iter().position(|r| r.0 == label) {
        Some(at) => at,
        None => {
            rows.push((label, 0, [0; 64]));
            rows.len() - 1
        }
    };
    if let Some(row) = rows.get_mut(at) {
        row.1 += 1;
        row.2[bucket(took)] += 1;
    }
}

/// Latency histograms of `ring`'s completed requests split by opcode, by
/// SQE flag group and by descriptor (the busiest [`TOP_DESCRIPTORS`]), one
/// text bar per row on one shared axis of log2 buckets: a percentile hides
/// two populations, a bar shows them as two groups of marks.
fn histograms(name: &str, ring: RingKey, done: &[(Event, u64)], out: &mut String) {
    let mut ops: Vec<Row> = Vec::new();
    let mut flags: Vec<Row> = Vec::new();
    let mut fds: Vec<Row> = Vec::new();
    let (mut lo, mut hi) = (63, 0);
    let mine = done.iter().filter(|(s, _)| ring_of(s) == ring);
    for (s, took) in mine {
        let r = &s.r;
        lo = lo.min(bucket(*took));
        hi = hi.max(bucket(*took));
        add(&mut ops, format!("opcode {}", opname(r.opcode)), *took);
        for (bit, group) in [
            (ASYNC, "ASYNC"),
            (LINKED, "LINK"),
            (FIXED_FILE, "FIXED_FILE"),
        ] {
            if r.sqe_flags & bit != 0 {
                add(&mut flags, format!("flags {group}"), *took);
            }
        }
        if r.sqe_flags & (ASYNC | LINKED | FIXED_FILE) == 0 {
            add(&mut flags, "flags none".to_owned(), *took);
        }
        // A request without one (a NOP, a timeout) has fd -1.
        if r.b >= 0 {
            let kind = if r.sqe_flags & FIXED_FILE != 0 {
                "file"
            } else {
                "fd"
            };
            add(&mut fds, format!("{kind} {}", r.b), *took);
        }
    }
    if ops.is_empty() {
        return;
    }
    ops.sort_by(|a, b| a.0.cmp(&b.0));
    fds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let more_fds = fds.len().saturating_sub(TOP_DESCRIPTORS);
    fds.truncate(TOP_DESCRIPTORS);
    let _ = writeln!(
        out,
        "uring-trace: {name}: summary: request time histograms, one column per doubling from {} to {} (log2 buckets; mark = share of the row's fullest bucket, {} least to most, blank none):",
        dur(if lo == 0 { 0 } else { 1 << lo }),
        dur(1u64 << (hi + 1).min(63)),
        String::from_utf8_lossy(MARKS)
    );
    let width = ops
        .iter()
        .chain(&flags)
        .chain(&fds)
        .map(|r| r.0.len())
        .max()
        .unwrap_or(0);
    for (label, n, counts) in ops.iter().chain(&flags).chain(&fds) {
        let most = counts.iter().copied().max().unwrap_or(1).max(1);
        let bar: String = counts
            .get(lo..=hi)
            .unwrap_or(&[])
            .iter()
            .map(|&c| {
                if c == 0 {
                    ' '
                } else {
                    // At least the least mark, the fullest gets the most.
                    let at = (c * MARKS.len() as u64).div_ceil(most) as usize;
                    char::from(MARKS.get(at.max(1) - 1).copied().unwrap_or(b'@'))
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "uring-trace: {name}:   {label:<width$} n={n:<7} |{bar}|"
        );
    }
    // Under the bars: where 1us, 1ms and 1s fall (the buckets of 2^10,
    // 2^20 and 2^30 ns), so a peak reads as a time.
    let mut axis = vec![b' '; hi + 1 - lo];
    for (k, tick) in [(10, "^1us"), (20, "^1ms"), (30, "^1s")] {
        if (lo..=hi).contains(&k) {
            let at = k - lo;
            if axis.len() < at + tick.len() {
                axis.resize(at + tick.len(), b' ');
            }
            if let Some(room) = axis.get_mut(at..at + tick.len()) {
                room.copy_from_slice(tick.as_bytes());
            }
        }
    }
    let axis = String::from_utf8_lossy(&axis);
    if !axis.trim().is_empty() {
        let _ = writeln!(
            out,
            "uring-trace: {name}:   {:width$}            {}",
            "",
            axis.trim_end()
        );
    }
    if more_fds != 0 {
        let _ = writeln!(
            out,
            "uring-trace: {name}:   and {more_fds} more descriptor(s) with fewer requests"
        );
    }
}

/// Chrome trace-event JSON as the library's own JSON trace writes it (a
/// "process" per ring, named with its fd; a track per thread there; a
/// slice per request and per wait that slept in the kernel), so the same
/// viewers and `pytools/diag/trace_timeline.py` read both.
fn json(t: &Trace, k: Option<&kernel::Merged>, out: &mut String) {
    out.push_str("[\n");
    let several = t.events.iter().any(|e| e.pid != t.pid);
    // The ring's "process" number: the ring's, or the process's and the
    // ring's when the file holds several processes.
    let pid_of = |e: &Event| {
        if several {
            u64::from(e.pid) * 256 + u64::from(e.r.ring)
        } else {
            u64::from(e.r.ring)
        }
    };
    let mut named = std::collections::HashSet::new();
    let mut asleep: HashMap<u32, u64> = HashMap::new();
    let mut in_flight: InFlight = HashMap::new();
    // Open slices reach now while the writer runs, else the last event.
    let last = t.now.unwrap_or(t.events.last().map_or(0, |e| e.r.ns));
    for e in &t.events {
        let r = &e.r;
        let pid = pid_of(e);
        if r.ring != 0 && named.insert((pid, e.tid)) {
            let _ = writeln!(
                out,
                "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{},\"args\":{{\"name\":\"{}\"}}}},",
                e.tid,
                t.threads
                    .get(&e.tid)
                    .map_or("", String::as_str)
                    .replace(['"', '\\'], "_")
            );
        }
        match r.kind {
            kind::RING | kind::CHANGED => {
                let _ = writeln!(
                    out,
                    "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":\"{}ring {} (fd {})\"}}}},",
                    if several {
                        format!("process {} ", e.pid)
                    } else {
                        String::new()
                    },
                    r.ring,
                    r.b
                );
            }
            kind::SQE => {
                in_flight.insert((ring_of(e), r.user_data), *e);
            }
            kind::CQE if r.a & 2 == 0 => {
                if let Some(s) = in_flight.remove(&(ring_of(e), r.user_data)) {
                    let _ = writeln!(
                        out,
                        "{{\"ph\":\"X\",\"name\":\"{}\",\"cat\":\"request\",\"pid\":{pid},\"tid\":{},\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"opcode\":{},\"user_data\":\"{:#x}\",\"fd\":{},\"len\":{},\"sqe_flags\":{},\"res\":{},\"cqe_flags\":{}}}}},",
                        opname(s.r.opcode),
                        s.tid,
                        s.r.ns as f64 / 1e3,
                        r.ns.saturating_sub(s.r.ns) as f64 / 1e3,
                        s.r.opcode,
                        r.user_data,
                        s.r.b,
                        s.r.a,
                        s.r.sqe_flags,
                        r.b,
                        r.a
                    );
                }
            }
            kind::WAIT => {
                // From the thread's going to sleep, when it did.
                let from = asleep.remove(&e.tid).unwrap_or(r.ns);
                let _ = writeln!(
                    out,
                    "{{\"ph\":\"X\",\"name\":\"wait (entered the kernel)\",\"cat\":\"enter\",\"pid\":{pid},\"tid\":{},\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"enters\":{},\"result\":{}}}}},",
                    e.tid,
                    from as f64 / 1e3,
                    r.ns.saturating_sub(from) as f64 / 1e3,
                    r.a,
                    r.b
                );
            }
            kind::OVERFLOW | kind::NOT_SEEN | kind::WAITING | kind::SIGNAL | kind::SNAPSHOT => {
                if r.kind == kind::WAITING {
                    asleep.insert(e.tid, r.ns);
                }
                let what = match r.kind {
                    kind::OVERFLOW => "CQ overflow".to_owned(),
                    kind::NOT_SEEN => "CQEs not seen".to_owned(),
                    kind::SIGNAL => format!("fatal signal {}", signal_name(r.a)),
                    kind::SNAPSHOT => format!("snapshot (signal {})", signal_name(r.a)),
                    _ => "waits in the kernel".to_owned(),
                };
                let _ = writeln!(
                    out,
                    "{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"{what}\",\"pid\":{pid},\"tid\":{},\"ts\":{:.3}}},",
                    e.tid,
                    r.ns as f64 / 1e3
                );
            }
            _ => {}
        }
    }
    // The kernel's events of the trace's rings: instants on the track of
    // the thread that hit them (an io-wq worker's of its own, named).
    for (ns, tid, comm, ring, what) in k.map(kernel::Merged::lines).unwrap_or_default() {
        let pid = if several {
            u64::from(ring.0) * 256 + u64::from(ring.1)
        } else {
            u64::from(ring.1)
        };
        if named.insert((pid, tid)) {
            let _ = writeln!(
                out,
                "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":\"{}\"}}}},",
                comm.replace(['"', '\\'], "_")
            );
        }
        let _ = writeln!(
            out,
            "{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"{what}\",\"cat\":\"kernel\",\"pid\":{pid},\"tid\":{tid},\"ts\":{:.3}}},",
            ns as f64 / 1e3
        );
    }
    // Requests never completed, and waits never ended: open slices to the
    // trace's end (to now while the writer runs).
    for s in in_flight.values() {
        let _ = writeln!(
            out,
            "{{\"ph\":\"X\",\"name\":\"{} (in flight)\",\"cat\":\"request\",\"pid\":{},\"tid\":{},\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"user_data\":\"{:#x}\",\"fd\":{},\"in_flight\":true}}}},",
            opname(s.r.opcode),
            pid_of(s),
            s.tid,
            s.r.ns as f64 / 1e3,
            last.saturating_sub(s.r.ns) as f64 / 1e3,
            s.r.user_data,
            s.r.b
        );
    }
    for e in t.events.iter().filter(|e| e.r.kind == kind::WAITING) {
        if asleep.get(&e.tid) == Some(&e.r.ns) {
            let _ = writeln!(
                out,
                "{{\"ph\":\"X\",\"name\":\"wait (asleep in the kernel)\",\"cat\":\"enter\",\"pid\":{},\"tid\":{},\"ts\":{:.3},\"dur\":{:.3}}},",
                pid_of(e),
                e.tid,
                e.r.ns as f64 / 1e3,
                last.saturating_sub(e.r.ns) as f64 / 1e3
            );
        }
    }
    // The array stays open, as the library's own JSON trace leaves it.
}

/// CLOCK_MONOTONIC in ns if process `pid` maps the trace file at `path`
/// now (`/proc/PID/maps` names its inode): the writer is running, on this
/// machine and boot, so its records' times (monotonic, [`parse`]) compare
/// with ours. None when it has exited or its maps cannot be read.
fn live_now(path: &str, pid: u32) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    let file = std::fs::canonicalize(path).ok()?;
    let inode = std::fs::metadata(&file).ok()?.ino();
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).ok()?;
    let maps_it = maps.lines().any(|line| {
        let mut f = line.split_whitespace().skip(4);
        f.next().and_then(|i| i.parse::<u64>().ok()) == Some(inode)
            && f.next().map(std::path::Path::new) == Some(file.as_path())
    });
    if !maps_it {
        return None;
    }
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-parameter.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) } == 0;
    ok.then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// Reads `len` bytes at `addr` in process `pid` (`process_vm_readv`: the
/// same user, or root, and ptrace access to it).
fn read_process(pid: u32, addr: u64, buf: &mut [u8]) -> Result<(), String> {
    let remote = libc::iovec {
        iov_base: usize::try_from(addr).map_err(|_| "an address beyond this reader's")? as *mut _,
        iov_len: buf.len(),
    };
    let local = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    // SAFETY: `local` is `buf`, valid for its length; the kernel checks
    // `remote` against the other process's mappings.
    let got = unsafe { libc::process_vm_readv(pid as libc::pid_t, &local, 1, &remote, 1, 0) };
    if got == buf.len() as isize {
        return Ok(());
    }
    let err = std::io::Error::last_os_error();
    Err(match err.raw_os_error() {
        Some(libc::EPERM | libc::EACCES) => format!("needs ptrace access to process {pid}"),
        Some(libc::EFAULT) => format!("process {pid}'s ring memory is not mapped"),
        _ => format!("reading process {pid}: {err}"),
    })
}

/// Each live ring's SQEs prepared and never submitted in the running
/// writer `pid` (`sqe_tail - sqe_head` of its `struct io_uring`, which the
/// library never sees: the program's inline `io_uring_get_sqe` moves
/// them), read from its memory where its region head says its rings are;
/// by ring number. A racy read of a running program, a snapshot's value.
fn live_unsubmitted(pid: u32, table: RingTable) -> HashMap<u8, Result<u32, String>> {
    let mut out = HashMap::new();
    if table.at == 0 || !matches!(table.address_bytes, 4 | 8) {
        return out;
    }
    for i in 0..table.count.min(255) {
        let slot = table.at + u64::from(i) * u64::from(table.stride);
        let mut word = [0u8; 8];
        let width = table.address_bytes as usize;
        let ring = match read_process(pid, slot, &mut word[..width]) {
            Ok(()) if width == 4 => u64::from(u32_at(&word, 0)),
            Ok(()) => u64_at(&word, 0),
            Err(why) => {
                // The table itself cannot be read: no ring can.
                out.insert(i as u8 + 1, Err(why));
                continue;
            }
        };
        if ring == 0 {
            continue;
        }
        let mut words = [0u8; 8];
        let n = read_process(pid, ring + u64::from(table.sqe_head_at), &mut words)
            .map(|()| u32_at(&words, 4).wrapping_sub(u32_at(&words, 0)));
        out.insert(i as u8 + 1, n);
    }
    out
}

/// `uring-info trace [--summary|--json] [--no-kernel] FILE`; the exit
/// status. The kernel's side (`FILE.kernel`, from `uring-info record
/// --kernel`) is merged when it is there, unless `--no-kernel`.
pub fn main(args: &[String]) -> i32 {
    let no_kernel = args.iter().any(|a| a == "--no-kernel");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--no-kernel").collect();
    let (mode, path) = match args[..] {
        [p] if !p.starts_with('-') => ("text", p),
        [m, p] if m == "--summary" => ("summary", p),
        [m, p] if m == "--json" => ("json", p),
        _ => {
            eprintln!("usage: uring-info trace [--summary|--json] [--no-kernel] FILE");
            return 2;
        }
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("uring-info trace: {path}: {e}");
            return 1;
        }
    };
    let mut t = match parse(&bytes) {
        Ok(t) => t,
        Err(why) => {
            eprintln!("uring-info trace: {path}: {why}");
            return 1;
        }
    };
    t.now = live_now(path, t.pid);
    if t.now.is_some() {
        t.live_sqes = live_unsubmitted(t.pid, t.rings);
    }
    let side = if no_kernel {
        None
    } else {
        kernel::load(&format!("{path}.kernel"))
    };
    let merged = match side {
        None => None,
        Some(Ok(side)) => Some(kernel::merge(&t, side)),
        Some(Err(why)) => {
            eprintln!("uring-info trace: {why}");
            return 1;
        }
    };
    let k = merged.as_ref();
    let mut out = String::new();
    match mode {
        "json" => json(&t, k, &mut out),
        "summary" => summary(&t, k, &mut out),
        _ => {
            text(&t, k, &mut out);
            summary(&t, k, &mut out);
        }
    }
    print!("{out}");
    0
}
