// SPDX-License-Identifier: MIT
//! `uring-info record [--kernel] [-o FILE] -- PROGRAM [ARG...]`: runs the
//! program with the binary trace on (`LIBURING_TRACE=FILE`,
//! `LIBURING_TRACE_FORMAT=binary`) and, with `--kernel`, records the
//! kernel's io_uring tracepoints of the program's rings beside it
//! (`FILE.kernel`), which `uring-info trace` merges. The kernel's side is
//! recorded here, outside the program, so tracing it changes nothing the
//! program does. Without the privilege `--kernel` says what it needs and
//! runs nothing (exit 1).

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use crate::trace::kernel::{parse_line, HEAD, OVERRUN};
use crate::tracefs::{drain, Instance};

const USAGE: &str = "usage: uring-info record [--kernel] [-o FILE] -- PROGRAM [ARG...]";

/// How often the kernel's buffer is drained while the program runs.
const TICK: Duration = Duration::from_millis(10);

/// A termination signal `uring-info` got, to pass on to the program.
static GOT: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(sig: libc::c_int) {
    GOT.store(sig, Ordering::Relaxed);
}

/// Keeps a SIGINT (the terminal sends it to the program too), SIGTERM or
/// SIGHUP from ending `uring-info` before it removes its tracing instance.
/// A handler, not SIG_IGN, so the program (after exec) gets the defaults.
fn hold_signals() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction with an async-signal-safe handler
        // (one atomic store) is valid to install.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = note as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Which kernel threads belong to the program or its descendants: its
/// threads (listed each tick, so one that set up a ring and ended is
/// known) and, asked once per thread, those whose process descends from it.
struct Family {
    root: u32,
    known: HashMap<u32, bool>,
}

impl Family {
    fn refresh(&mut self) {
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.root)) {
            for t in tasks.flatten() {
                if let Some(tid) = t.file_name().to_str().and_then(|s| s.parse().ok()) {
                    self.known.insert(tid, true);
                }
            }
        }
    }

    fn has(&mut self, tid: u32) -> bool {
        let root = self.root;
        *self.known.entry(tid).or_insert_with(|| {
            let mut pid = tid;
            // Up the parents: the thread's process, its parent, ...
            for _ in 0..16 {
                if pid == root {
                    return true;
                }
                let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                    return false;
                };
                let field = |name: &str| {
                    status
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .and_then(|v| v.trim().parse::<u32>().ok())
                };
                let next = if field("Tgid:") == Some(pid) {
                    field("PPid:")
                } else {
                    field("Tgid:")
                };
                match next {
                    Some(p) if p > 1 => pid = p,
                    _ => return false,
                }
            }
            false
        })
    }
}

/// The kept lines: each ring the program's threads set up, and every event
/// of those rings; everything else on the machine is dropped.
struct Keep {
    family: Family,
    rings: HashSet<String>,
    lines: Vec<String>,
}

impl Keep {
    fn take(&mut self, line: String) {
        let Some(k) = parse_line(&line) else { return };
        if k.name == "create" {
            if !self.family.has(k.tid) {
                return;
            }
            self.rings.insert(k.ctx.clone());
        } else if !self.rings.contains(&k.ctx) {
            return;
        }
        self.lines.push(line);
    }
}

fn code(st: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt as _;
    st.code()
        .or_else(|| st.signal().map(|s| 128 + s))
        .unwrap_or(1)
}

pub fn main(args: &[String]) -> i32 {
    let mut kernel = false;
    let mut out = "uring.utrace".to_owned();
    let mut it = args.iter();
    let mut program: Vec<&String> = Vec::new();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--kernel" => kernel = true,
            "-o" | "--output" => match it.next() {
                Some(f) => out.clone_from(f),
                None => {
                    eprintln!("{USAGE}");
                    return 2;
                }
            },
            "--" => {
                program.extend(it.by_ref());
                break;
            }
            s if s.starts_with('-') => {
                eprintln!("uring-info record: unknown option {s}\n{USAGE}");
                return 2;
            }
            _ => {
                program.push(a);
                program.extend(it.by_ref());
                break;
            }
        }
    }
    let Some((prog, prog_args)) = program.split_first() else {
        eprintln!("{USAGE}");
        return 2;
    };
    let side = format!("{out}.kernel");
    let instance = if kernel {
        match Instance::open() {
            Ok(i) => Some(i),
            Err(why) => {
                eprintln!(
                    "uring-info record --kernel: may not record the kernel's io_uring tracepoints: {why}"
                );
                return 1;
            }
        }
    } else {
        None
    };
    // A trace file takes a region per process: start from none.
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&side);
    let mut pipe = match instance.as_ref().map(Instance::pipe).transpose() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("uring-info record --kernel: {why}");
            return 1;
        }
    };
    hold_signals();
    let mut child = match Command::new(prog)
        .args(prog_args)
        .env("LIBURING_TRACE", &out)
        .env("LIBURING_TRACE_FORMAT", "binary")
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("uring-info record: {prog}: {e}");
            return 127;
        }
    };
    let mut keep = Keep {
        family: Family {
            root: child.id(),
            known: HashMap::new(),
        },
        rings: HashSet::new(),
        lines: Vec::new(),
    };
    let mut pending = Vec::new();
    let status = loop {
        if let Some(p) = pipe.as_mut() {
            keep.family.refresh();
            for line in drain(p, &mut pending) {
                keep.take(line);
            }
        }
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) => {}
            Err(_) => break None,
        }
        let sig = GOT.swap(0, Ordering::Relaxed);
        if sig == libc::SIGTERM || sig == libc::SIGHUP {
            // SAFETY: kill(2) on our child, which is not yet reaped.
            unsafe { libc::kill(child.id() as libc::pid_t, sig) };
        }
        std::thread::sleep(TICK);
    };
    let status = status.or_else(|| child.wait().ok());
    if let (Some(inst), Some(p)) = (instance.as_ref(), pipe.as_mut()) {
        inst.stop();
        for line in drain(p, &mut pending) {
            keep.take(line);
        }
        let overrun = inst.overruns();
        let written = std::fs::File::create(&side).and_then(|mut f| {
            writeln!(f, "{HEAD}, process {}", keep.family.root)?;
            for l in &keep.lines {
                writeln!(f, "{l}")?;
            }
            if overrun != 0 {
                writeln!(f, "{OVERRUN}{overrun}")?;
            }
            Ok(())
        });
        if let Err(e) = written {
            eprintln!("uring-info record: {side}: {e}");
        } else {
            eprintln!(
                "uring-info record: the kernel's side in {side}: {} events of {} ring(s){}",
                keep.lines.len(),
                keep.rings.len(),
                if overrun != 0 {
                    format!(", {overrun} overwritten before they were read")
                } else {
                    String::new()
                }
            );
        }
    }
    drop(pipe);
    drop(instance);
    eprintln!(
        "uring-info record: the trace in {out} (uring-info trace --summary {out} decodes it)"
    );
    status.map_or(1, code)
}
