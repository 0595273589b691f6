// SPDX-License-Identifier: MIT
//! The kernel's io_uring tracepoints through tracefs, for `uring-info
//! record --kernel`: finding tracefs and saying what is missing when this
//! process may not use it, a tracing instance of our own (so the system's
//! main buffer and other users' instances are untouched), its clock set to
//! CLOCK_MONOTONIC (`mono`, the binary trace's clock), and draining its
//! `trace_pipe` while the program runs.
//!
//! All of it happens in `uring-info`, outside the traced program: the
//! program gets no descriptor and no allocation from it.

use std::fs;
use std::io::{ErrorKind, Read as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

/// Where tracefs is looked for; `URING_INFO_TRACEFS` names another place
/// (a tracefs mounted elsewhere, or a test's directory).
const PLACES: [&str; 2] = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"];

/// What recording the kernel's side needs, said once for every refusal.
pub const NEEDS: &str = "recording the kernel's side needs tracefs mounted \
(mount -t tracefs nodev /sys/kernel/tracing), a kernel with the io_uring \
tracepoints (events/io_uring there) and write access to tracefs's instances/ \
directory: root, or a tracefs mounted with a group of the user and a mode \
letting that group write (mount -o remount,gid=GROUP,mode=0770 \
/sys/kernel/tracing); CAP_PERFMON or kernel.perf_event_paranoid do not open \
tracefs. Without it, record without --kernel: the program's side alone";

/// The tracepoints recorded: each says where a request went in the kernel.
pub const EVENTS: [&str; 8] = [
    "io_uring_create",
    "io_uring_submit_req",
    "io_uring_queue_async_work",
    "io_uring_poll_arm",
    "io_uring_task_add",
    "io_uring_complete",
    "io_uring_cqe_overflow",
    "io_uring_defer",
];

/// A tracing instance of ours, removed when dropped.
pub struct Instance {
    dir: PathBuf,
}

/// The tracefs mount to use, or why there is none usable.
fn find() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("URING_INFO_TRACEFS") {
        return Ok(PathBuf::from(p));
    }
    PLACES
        .iter()
        .map(PathBuf::from)
        .find(|p| is_tracefs(p))
        .ok_or_else(|| format!("tracefs is not mounted at {}", PLACES.join(" or ")))
}

/// Whether a tracefs is mounted at `p`: its file system's magic, which
/// statfs(2) gives without reading the directory (only root may, usually).
fn is_tracefs(p: &Path) -> bool {
    const TRACEFS_MAGIC: u64 = 0x7472_6163;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: zeroed is a valid statfs (plain integers).
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-parameter.
    let ok = unsafe { libc::statfs(c.as_ptr(), &mut st) } == 0;
    // f_type's width and sign differ per architecture.
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    let magic = st.f_type as u64;
    ok && magic == TRACEFS_MAGIC
}

fn write(path: &Path, what: &str) -> Result<(), String> {
    fs::write(path, what).map_err(|e| format!("{}: {e}", path.display()))
}

impl Instance {
    /// Makes our instance with the io_uring tracepoints on and the mono
    /// clock; why not (with [`NEEDS`]) when this process may not.
    pub fn open() -> Result<Instance, String> {
        let root = find().map_err(|why| format!("{why}; {NEEDS}"))?;
        let events = root.join("events/io_uring");
        match fs::metadata(&events) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(format!("{} is not a directory; {NEEDS}", events.display())),
            Err(e) => {
                let why = if e.kind() == ErrorKind::NotFound {
                    "this kernel has no io_uring tracepoints there (or tracefs is not mounted there)".to_owned()
                } else {
                    e.to_string()
                };
                return Err(format!("{}: {why}; {NEEDS}", events.display()));
            }
        }
        let dir = root
            .join("instances")
            .join(format!("uring-info-{}", std::process::id()));
        if let Err(e) = fs::create_dir(&dir) {
            return Err(format!("{}: {e}; {NEEDS}", dir.display()));
        }
        let inst = Instance { dir };
        inst.setup().map_err(|why| format!("{why}; {NEEDS}"))?;
        Ok(inst)
    }

    fn setup(&self) -> Result<(), String> {
        let d = &self.dir;
        write(&d.join("trace_clock"), "mono")?;
        // Room for a burst between two drains (per CPU).
        let _ = write(&d.join("buffer_size_kb"), "2048");
        for e in EVENTS {
            let f = d.join("events/io_uring").join(e).join("enable");
            // An older kernel lacks some (io_uring_submit_req was
            // io_uring_submit_sqe before 5.19): record what there is.
            if f.exists() {
                write(&f, "1")?;
            }
        }
        let old = d.join("events/io_uring/io_uring_submit_sqe/enable");
        if old.exists() {
            write(&old, "1")?;
        }
        write(&d.join("tracing_on"), "1")
    }

    /// The pipe that hands out the instance's events once each, never
    /// blocking (the caller polls it while the program runs).
    pub fn pipe(&self) -> Result<fs::File, String> {
        let path = self.dir.join("trace_pipe");
        fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Stops recording (what is in the buffer can still be read).
    pub fn stop(&self) {
        let _ = write(&self.dir.join("tracing_on"), "0");
    }

    /// Events the kernel overwrote before we read them (every CPU's
    /// `overrun`).
    pub fn overruns(&self) -> u64 {
        let Ok(cpus) = fs::read_dir(self.dir.join("per_cpu")) else {
            return 0;
        };
        cpus.flatten()
            .filter_map(|c| fs::read_to_string(c.path().join("stats")).ok())
            .flat_map(|s| {
                s.lines()
                    .filter_map(|l| l.strip_prefix("overrun:"))
                    .filter_map(|n| n.trim().parse::<u64>().ok())
                    .collect::<Vec<_>>()
            })
            .sum()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.stop();
        // Removing an instance frees its buffers and its events.
        let _ = fs::remove_dir(&self.dir);
    }
}

/// Reads what `pipe` holds now into `pending`, returning whole lines.
pub fn drain(pipe: &mut fs::File, pending: &mut Vec<u8>) -> Vec<String> {
    let mut buf = [0u8; 65536];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => pending.extend_from_slice(buf.get(..n).unwrap_or(&[])),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let Some(end) = pending.iter().rposition(|&b| b == b'\n') else {
        return Vec::new();
    };
    let whole: Vec<u8> = pending.drain(..=end).collect();
    String::from_utf8_lossy(&whole)
        .lines()
        .map(str::to_owned)
        .collect()
}
