// SPDX-License-Identifier: MIT
//! The kernel's side of a trace: the io_uring tracepoints `uring-info
//! record --kernel` kept beside the binary trace (`FILE.kernel`, tracefs's
//! text lines with CLOCK_MONOTONIC times), read back and joined to the
//! program's requests: a ring by the descriptor and thread that set it up
//! (`io_uring_create`), a request by its ring and user_data and the time
//! of its submission. A request's story then says where its time went: an
//! io-wq worker, a poll on a file not ready, task work waiting for the
//! program's thread, the device, or the program not reaping.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{opname, ring_of, Event, RingKey, Trace};

/// A time from the kernel's events: they are microseconds.
fn dur(ns: u64) -> String {
    if ns < 10_000_000 {
        format!("{}us", ns / 1_000)
    } else {
        super::dur(ns)
    }
}

/// The side file's first line, naming what it holds.
pub const HEAD: &str =
    "# uring-info record --kernel: io_uring tracepoints (tracefs, trace_clock mono)";
/// A trailer line: events the kernel overwrote before they were read.
pub const OVERRUN: &str = "# overrun ";

/// One tracepoint hit, as tracefs printed it.
#[derive(Clone)]
pub struct KEvent {
    /// CLOCK_MONOTONIC, in ns (tracefs prints microseconds).
    pub ns: u64,
    /// The kernel thread that hit it, and its name.
    pub tid: u32,
    pub comm: String,
    /// The tracepoint without its `io_uring_` prefix.
    pub name: String,
    /// The ring (`ctx`, as tracefs prints the pointer).
    pub ctx: String,
    pub user_data: Option<u64>,
    /// The request (as tracefs prints the pointer): older kernels name
    /// some events' requests by it alone.
    pub req: String,
    /// io_uring_create: the ring's descriptor.
    pub fd: Option<i32>,
    /// io_uring_complete, io_uring_cqe_overflow: the result.
    pub res: Option<i32>,
    /// io_uring_queue_async_work: the hashed queue (regular files).
    pub hashed: bool,
}

impl KEvent {
    fn by_worker(&self) -> bool {
        self.comm.starts_with("iou-wrk-")
    }
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

/// One line of tracefs's text output (`COMM-TID [CPU] FLAGS SECS.USECS:
/// EVENT: FIELDS`); None for anything else (comments, other events).
pub fn parse_line(line: &str) -> Option<KEvent> {
    // The comm may hold spaces and dashes: the CPU column ends it.
    let cpu_end = line.find("] ")?;
    let cpu_start = line.get(..cpu_end)?.rfind(" [")?;
    let task = line.get(..cpu_start)?.trim();
    let (comm, tid) = task.rsplit_once('-')?;
    let tid = tid.trim().parse().ok()?;
    let rest = line.get(cpu_end + 2..)?.trim_start();
    // Past the flags column to the time.
    let rest = rest.split_once(' ')?.1.trim_start();
    let (time, rest) = rest.split_once(": ")?;
    let (secs, usecs) = time.trim().split_once('.')?;
    let ns = secs.parse::<u64>().ok()? * 1_000_000_000 + usecs.parse::<u64>().ok()? * 1_000;
    let (event, fields) = rest.split_once(": ")?;
    let name = event.strip_prefix("io_uring_")?.to_owned();
    let mut k = KEvent {
        ns,
        tid,
        comm: comm.to_owned(),
        name,
        ctx: String::new(),
        user_data: None,
        req: String::new(),
        fd: None,
        res: None,
        hashed: fields.contains("hashed queue"),
    };
    for field in fields.split(", ") {
        let (key, value) = field.trim().split_once(' ').unwrap_or((field, ""));
        let value = first_word(value);
        match key {
            "ring" => k.ctx = value.to_owned(),
            "req" | "request" => k.req = value.to_owned(),
            // "data": io_uring_submit_sqe and io_uring_defer before 5.19.
            "user_data" | "data" => {
                k.user_data = u64::from_str_radix(value.trim_start_matches("0x"), 16).ok();
            }
            "fd" => k.fd = value.parse().ok(),
            "result" | "res" => k.res = value.parse().ok(),
            _ => {}
        }
    }
    (!k.ctx.is_empty()).then_some(k)
}

/// The side file read back.
pub struct KernelSide {
    pub events: Vec<KEvent>,
    pub overrun: u64,
}

/// Reads `path` (None when there is none: no kernel side was recorded).
pub fn load(path: &str) -> Option<Result<KernelSide, String>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(Err(format!("{path}: {e}"))),
    };
    if !text.starts_with(HEAD) {
        return Some(Err(format!(
            "{path}: not a kernel side of uring-info record (no \"{HEAD}\" line)"
        )));
    }
    let mut events: Vec<KEvent> = text.lines().filter_map(parse_line).collect();
    events.sort_by_key(|e| e.ns);
    let overrun = text
        .lines()
        .filter_map(|l| l.strip_prefix(OVERRUN))
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum();
    Some(Ok(KernelSide { events, overrun }))
}

/// The kernel's side joined to a trace's rings.
pub struct Merged {
    pub side: KernelSide,
    /// Each ring of the trace found among the kernel's: its `ctx`.
    pub rings: HashMap<RingKey, String>,
    /// Per (ctx, user_data): the kernel's requests, each the indexes of
    /// its events in `side.events`, from its `submit_req`.
    requests: HashMap<(String, u64), Vec<Vec<usize>>>,
}

/// Joins `side` to `t`: a ring to the `io_uring_create` of its descriptor
/// by its thread (the nearest in time), else of its descriptor alone.
pub(super) fn merge(t: &Trace, side: KernelSide) -> Merged {
    let mut rings = HashMap::new();
    for e in t.events.iter().filter(|e| e.r.kind == super::kind::RING) {
        let near = |same_thread: bool| {
            side.events
                .iter()
                .filter(|k| k.name == "create" && k.fd == Some(e.r.b))
                .filter(|k| !same_thread || k.tid == e.tid)
                .min_by_key(|k| k.ns.abs_diff(e.r.ns))
        };
        if let Some(k) = near(true).or_else(|| near(false)) {
            rings.insert(ring_of(e), k.ctx.clone());
        }
    }
    let mut requests: HashMap<(String, u64), Vec<Vec<usize>>> = HashMap::new();
    // A request's user_data by its pointer, from its submission, for the
    // events that carry the pointer alone.
    let mut by_req: HashMap<(String, String), u64> = HashMap::new();
    for (i, k) in side.events.iter().enumerate() {
        let submit = k.name == "submit_req" || k.name == "submit_sqe";
        if submit && !k.req.is_empty() {
            if let Some(ud) = k.user_data {
                by_req.insert((k.ctx.clone(), k.req.clone()), ud);
            }
        }
        let Some(ud) = k
            .user_data
            .or_else(|| by_req.get(&(k.ctx.clone(), k.req.clone())).copied())
        else {
            continue;
        };
        let list = requests.entry((k.ctx.clone(), ud)).or_default();
        if submit || list.is_empty() {
            list.push(vec![i]);
        } else if let Some(last) = list.last_mut() {
            last.push(i);
        }
    }
    Merged {
        side,
        rings,
        requests,
    }
}

impl Merged {
    /// The kernel's events of the request whose SQE is `s` (the kernel
    /// request with its ring and user_data submitted nearest in time).
    fn story(&self, s: &Event) -> Option<Vec<&KEvent>> {
        let ctx = self.rings.get(&ring_of(s))?;
        let list = self.requests.get(&(ctx.clone(), s.r.user_data))?;
        // The list is in submission order: the two around the SQE's time
        // (a program may give every request one user_data).
        let start = |ids: &Vec<usize>| {
            ids.first()
                .and_then(|&i| self.side.events.get(i))
                .map_or(u64::MAX, |k| k.ns)
        };
        let at = list.partition_point(|ids| start(ids) <= s.r.ns);
        let best = [at.checked_sub(1), Some(at)]
            .into_iter()
            .flatten()
            .filter_map(|i| list.get(i))
            .min_by_key(|ids| start(ids).abs_diff(s.r.ns))?;
        Some(
            best.iter()
                .filter_map(|&i| self.side.events.get(i))
                .collect(),
        )
    }

    /// The ring (of the trace) a kernel event belongs to.
    fn ring_of_ctx(&self, ctx: &str) -> Option<RingKey> {
        self.rings
            .iter()
            .find(|(_, c)| c.as_str() == ctx)
            .map(|(r, _)| *r)
    }

    /// The text trace's lines for the kernel's events of the trace's
    /// rings: (time, the line's text after the ring's name).
    pub(super) fn lines(&self) -> Vec<(u64, u32, String, RingKey, String)> {
        let mut out = Vec::new();
        for k in &self.side.events {
            let Some(ring) = self.ring_of_ctx(&k.ctx) else {
                continue;
            };
            let what = match k.name.as_str() {
                "create" => format!("ring created, fd {}", k.fd.unwrap_or(-1)),
                "submit_req" | "submit_sqe" => "request submitted".to_owned(),
                "queue_async_work" => format!(
                    "punted to an io-wq worker ({} queue)",
                    if k.hashed { "hashed" } else { "normal" }
                ),
                "poll_arm" => "poll armed (the file was not ready)".to_owned(),
                "task_add" => "task work queued (woken)".to_owned(),
                "complete" => format!("completed, res {}", k.res.unwrap_or(0)),
                "cqe_overflow" => "CQE overflowed (the CQ was full)".to_owned(),
                "defer" => "deferred (drain or link)".to_owned(),
                other => other.to_owned(),
            };
            let ud = k
                .user_data
                .map_or(String::new(), |u| format!(" user_data={u:#x}"));
            out.push((
                k.ns,
                k.tid,
                k.comm.clone(),
                ring,
                format!("kernel: {what}{ud}"),
            ));
        }
        out
    }

    /// The summary's lines for `ring`: how many of its requests the
    /// kernel's events tell about, then the slowest with their stories
    /// (a time from the kernel's taking the request to the program's
    /// seeing its CQE, which may exceed the library's request time: that
    /// starts when the submit call returns).
    /// `reqs`: the ring's requests, each its SQE and its time (to the
    /// trace's end when still in flight, `open`).
    pub(super) fn summary(&self, name: &str, reqs: &[(Event, u64, bool)], out: &mut String) {
        let (mut found, mut punted, mut polled, mut tw, mut over) = (0, 0, 0, 0, 0);
        let mut stories = Vec::new();
        for (s, took, open) in reqs {
            let Some(story) = self.story(s) else {
                continue;
            };
            found += 1;
            let has = |n: &str| story.iter().any(|k| k.name == n);
            punted += u32::from(has("queue_async_work"));
            polled += u32::from(has("poll_arm"));
            tw += u32::from(has("task_add"));
            over += u32::from(has("cqe_overflow"));
            // From the kernel's taking it (before the submit call
            // returned, where the library's time starts) to the program
            // seeing its CQE: the time the story spans.
            let from = story.first().map_or(s.r.ns, |k| k.ns.min(s.r.ns));
            let span = (s.r.ns + took).saturating_sub(from);
            stories.push((s, *took, span, *open, story));
        }
        let _ = writeln!(
            out,
            "uring-trace: {name}: summary: the kernel's side: {found} of {} requests found in its events; {punted} punted to an io-wq worker, {polled} armed poll, {tw} completed through task work, {over} CQE(s) overflowed{}",
            reqs.len(),
            if self.side.overrun != 0 {
                format!(" ({} kernel events overwritten before they were read)", self.side.overrun)
            } else {
                String::new()
            }
        );
        stories.sort_by_key(|s| std::cmp::Reverse(s.2));
        for (s, took, span, open, story) in stories.iter().take(SLOWEST) {
            let _ = writeln!(
                out,
                "uring-trace: {name}: summary: slow {} user_data={:#x} fd={}{} {} {}: {}",
                opname(s.r.opcode),
                s.r.user_data,
                s.r.b,
                if s.r.sqe_flags & super::ASYNC != 0 {
                    " (IOSQE_ASYNC)"
                } else {
                    ""
                },
                if *open { "in flight for" } else { "took" },
                dur(*span),
                tell(s, *took, *open, story)
            );
        }
    }
}

/// How many of a ring's slowest requests the summary tells about.
const SLOWEST: usize = 5;

/// A request's kernel events as steps with times from its submission, and
/// what it waited on longest.
fn tell(s: &Event, took: u64, open: bool, story: &[&KEvent]) -> String {
    let t0 = story.first().map_or(s.r.ns, |k| k.ns.min(s.r.ns));
    let mut steps: Vec<String> = Vec::new();
    // (the gap's end, what the request waited for during it)
    let mut gaps: Vec<(u64, &str)> = Vec::new();
    let mut prev: Option<&KEvent> = None;
    let mut polled = false;
    let mut punts = 0;
    for k in story {
        let at = k.ns.saturating_sub(t0);
        let who = if k.by_worker() {
            format!("worker {} ", k.tid)
        } else {
            String::new()
        };
        let step = match k.name.as_str() {
            "submit_req" | "submit_sqe" => None,
            "queue_async_work" => {
                punts += 1;
                Some(format!(
                    "{} to an io-wq worker after {}",
                    if punts > 1 { "punted again" } else { "punted" },
                    dur(at)
                ))
            }
            "poll_arm" => {
                polled = true;
                Some(format!("{who}armed poll after {}", dur(at)))
            }
            "task_add" => Some(format!(
                "{} by {} ({}) after {}",
                if polled {
                    "woken, task work queued"
                } else {
                    "task work queued"
                },
                k.tid,
                k.comm,
                dur(at)
            )),
            "complete" => Some(format!(
                "completed {}after {} (res {})",
                if who.is_empty() {
                    String::new()
                } else {
                    format!("by {who}")
                },
                dur(at),
                k.res.unwrap_or(0)
            )),
            "cqe_overflow" => Some(format!("its CQE overflowed after {}", dur(at))),
            "defer" => Some(format!("deferred (drain or link) after {}", dur(at))),
            _ => None,
        };
        if let Some(step) = step {
            steps.push(step);
        }
        if let Some(p) = prev {
            let why = match (p.name.as_str(), k.name.as_str()) {
                ("task_add", _) => "the program's thread to run its task work",
                ("poll_arm", "task_add") => "the file to become ready (polled)",
                (_, "task_add") => {
                    "the device (its completion came from outside: the disk or the network)"
                }
                // A worker's completion may be posted by the submitter's
                // task work (which has no tracepoint of its own).
                ("queue_async_work", "complete") => {
                    "an io-wq worker doing the I/O (blocking: the disk or the file)"
                }
                ("queue_async_work", _) => "an io-wq worker to take it",
                (_, "complete") if k.by_worker() => {
                    "an io-wq worker doing the I/O (blocking: the disk or the file)"
                }
                ("defer", _) => "the requests it was deferred behind",
                (_, "cqe_overflow") => {
                    "the kernel completing it (into the overflow list: the CQ was full)"
                }
                _ => "the kernel issuing it",
            };
            gaps.push((k.ns.saturating_sub(p.ns), why));
        }
        prev = Some(k);
    }
    let end = s.r.ns + took;
    if let Some(p) = prev {
        let why = if open {
            match p.name.as_str() {
                "poll_arm" => "the file to become ready (polled, never woken)",
                "queue_async_work" => "an io-wq worker (punted, not completed)",
                "task_add" => "the program's thread to run its task work",
                "complete" => "the program to reap its CQE",
                _ => "the kernel",
            }
        } else if p.name == "cqe_overflow" {
            "the program to reap its CQE (held in the overflow list until the CQ had room)"
        } else if p.name == "complete" {
            "the program to reap its CQE"
        } else {
            "the kernel"
        };
        gaps.push((end.saturating_sub(p.ns), why));
    }
    if !open {
        steps.push(format!(
            "seen by the program after {}",
            dur(end.saturating_sub(t0))
        ));
    }
    let mut text = steps.join("; ");
    if let Some((gap, why)) = gaps.iter().max_by_key(|g| g.0) {
        let _ = write!(text, "; waited longest ({}) on {why}", dur(*gap));
    }
    text
}
