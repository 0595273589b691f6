// SPDX-License-Identifier: MIT
//! Asking the kernel: throwaway rings, the opcode probe, the query
//! interface, limits. Every ring made here is closed again at once.

use std::mem::size_of;

use uring_sysinfo::{self as sysinfo, errno_name};
use uring_uapi::names::{self, FEATURE, OPCODE, REGISTER_OP, SETUP_FLAG};
use uring_uapi::*;
use uring_uapi::{releases, version};

use crate::memlock;
use crate::syscalls::{close, register};

/// Whether one setup flag is accepted.
pub struct FlagResult {
    pub name: &'static str,
    pub value: u32,
    pub since: Option<(u32, u32)>,
    /// `Ok` accepted; `Err(errno)` refused.
    pub result: Result<(), i32>,
}

/// One registration opcode and whether the kernel has it.
pub struct RegisterOp {
    pub name: &'static str,
    pub value: u32,
    pub available: bool,
}

/// Everything `uring-info` reports.
pub struct Facts {
    pub kernel_release: String,
    pub disabled: Option<i64>,
    pub group: Option<i64>,
    pub in_group: Option<bool>,
    pub cap_sys_admin: bool,
    pub seccomp: Option<u64>,
    pub seccomp_filters: Option<u64>,
    /// `Ok` when a ring can be set up; the errno otherwise.
    pub setup: Result<(), i32>,
    pub why_not: Option<String>,
    pub features: u32,
    /// Supported opcodes (number, short name).
    pub opcodes: Vec<(u8, String)>,
    pub setup_flags: Vec<FlagResult>,
    pub register_ops: Vec<RegisterOp>,
    /// "IORING_REGISTER_QUERY", or how the release was judged without it.
    pub register_source: &'static str,
    pub memlock: Option<(u64, u64)>,
    pub nofile: Option<(u64, u64)>,
    pub max_entries: Option<(u32, u32)>,
    pub iowq_workers: Option<(u32, u32)>,
    /// The NOP flags newer than liburing 2.15's header, asked one by one.
    pub nop_flags: Vec<crate::newer::NopFlag>,
    /// Zero-copy receive's features and events (`None`: no query interface).
    pub zcrx: Option<crate::newer::Zcrx>,
    pub library: String,
}

/// Sets up a ring with `flags` and what the flag needs, then closes it.
fn try_flag(bit: u32) -> Result<(), i32> {
    let companions = setup_flag_needs(bit);
    let mut p = io_uring_params {
        flags: bit | companions,
        ..Default::default()
    };
    let mut attach = None;
    if bit == IORING_SETUP_CQSIZE {
        p.cq_entries = 16;
    }
    if bit == IORING_SETUP_ATTACH_WQ {
        let (fd, _) = memlock::setup_settled(4, &io_uring_params::default())?;
        p.wq_fd = fd as u32;
        attach = Some(fd);
    }
    // NO_MMAP rings live in memory the application provides.
    let mut region = None;
    if p.flags & IORING_SETUP_NO_MMAP != 0 {
        let len = 1 << 20;
        // SAFETY: a fresh anonymous mapping; unmapped below.
        let mem = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if mem != libc::MAP_FAILED {
            p.sq_off.user_addr = mem as u64;
            p.cq_off.user_addr = mem as u64 + (len as u64 / 2);
            region = Some((mem, len));
        }
    }
    let r = memlock::setup_settled(4, &p).map(|(fd, _)| close(fd));
    if let Some(fd) = attach {
        close(fd);
    }
    if let Some((mem, len)) = region {
        // SAFETY: mapped above, no ring uses it any more.
        unsafe { libc::munmap(mem, len) };
    }
    r
}

/// The io-wq worker limits (bounded, unbounded) a thread gets from a first
/// ring of `4 x online CPUs` entries (the most a ring's size can give).
fn iowq_workers() -> Option<(u32, u32)> {
    // SAFETY: sysconf has no preconditions.
    let cpus = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }.max(1) as u32;
    let entries = cpus.saturating_mul(4).next_power_of_two().min(4096);
    let (fd, _) = memlock::setup_settled(entries, &io_uring_params::default()).ok()?;
    let mut workers = [0u32; 2];
    let r = register(
        fd,
        IORING_REGISTER_IOWQ_MAX_WORKERS,
        workers.as_mut_ptr().cast(),
        2,
    );
    close(fd);
    r.ok().map(|_| (workers[0], workers[1]))
}

/// Gathers every fact.
pub fn gather() -> Facts {
    let kernel_release = {
        // SAFETY: utsname is plain bytes; uname fills it.
        let mut uts: libc::utsname = unsafe { std::mem::zeroed() };
        // SAFETY: `uts` is writable.
        unsafe { libc::uname(&mut uts) };
        let bytes: Vec<u8> = uts
            .release
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let disabled = sysinfo::io_uring_disabled();
    let group = sysinfo::io_uring_group();
    let mut f = Facts {
        kernel_release,
        disabled,
        group,
        in_group: group
            .filter(|&g| g >= 0)
            .map(|g| sysinfo::in_group(g as u32)),
        cap_sys_admin: sysinfo::has_cap(sysinfo::CAP_SYS_ADMIN),
        seccomp: sysinfo::seccomp_mode(),
        seccomp_filters: sysinfo::seccomp_filters(),
        setup: Ok(()),
        why_not: None,
        features: 0,
        opcodes: Vec::new(),
        setup_flags: Vec::new(),
        register_ops: Vec::new(),
        register_source: "kernel version",
        memlock: sysinfo::rlimit(libc::RLIMIT_MEMLOCK),
        nofile: sysinfo::rlimit(libc::RLIMIT_NOFILE),
        max_entries: None,
        iowq_workers: None,
        nop_flags: Vec::new(),
        zcrx: None,
        library: format!(
            "liburing {}.{} API (uring-rs {})",
            version::MAJOR,
            version::MINOR,
            env!("CARGO_PKG_VERSION")
        ),
    };

    let (fd, p) = match memlock::setup_settled(4, &io_uring_params::default()) {
        Ok(r) => r,
        Err(e) => {
            f.setup = Err(e);
            f.why_not = Some(why_not(&f, e));
            return f;
        }
    };
    f.features = p.features;

    // Opcodes, as io_uring_get_probe reports them.
    let ops = 256usize;
    let bytes = size_of::<io_uring_probe>() + ops * size_of::<io_uring_probe_op>();
    let mut buf = vec![0u64; bytes.div_ceil(8)];
    if register(
        fd,
        IORING_REGISTER_PROBE,
        buf.as_mut_ptr().cast(),
        ops as u32,
    )
    .is_ok()
    {
        // SAFETY: the buffer is zeroed, 8-aligned and large enough for the
        // header and `ops` entries, which the kernel filled in.
        let probe = unsafe { &*(buf.as_ptr() as *const io_uring_probe) };
        let n = usize::from(probe.ops_len).min(ops);
        // SAFETY: `n` entries follow the header inside `buf`.
        let entries = unsafe { std::slice::from_raw_parts(probe.ops.as_ptr(), n) };
        for op in entries {
            if op.flags & IO_URING_OP_SUPPORTED != 0 {
                let name = names::short_name(OPCODE, u64::from(op.op))
                    .map_or_else(|| format!("OPCODE_{}", op.op), str::to_owned);
                f.opcodes.push((op.op, name));
            }
        }
    }

    close(fd);
    f.nop_flags = crate::newer::nop_flags();
    f.zcrx = crate::newer::zcrx();

    // io-wq worker limits: [0, 0] reads them without changing anything.
    // A thread's io-wq is made with the first ring it sets up, its bounded
    // workers at most that ring's SQ entries (and 4 per online CPU): read
    // them in a thread of their own whose first ring is large enough to
    // get the machine's own bound, not after the 4-entry probe ring.
    f.iowq_workers = std::thread::spawn(iowq_workers).join().ok().flatten();

    // The largest rings: ask for far too many with CLAMP; where the memory
    // limit refuses so large a ring, from the kernel's size checks.
    let p = io_uring_params {
        flags: IORING_SETUP_CLAMP | IORING_SETUP_CQSIZE,
        cq_entries: u32::MAX,
        ..Default::default()
    };
    f.max_entries = match memlock::setup_settled(u32::MAX, &p) {
        Ok((fd, p)) => {
            close(fd);
            Some((p.sq_entries, p.cq_entries))
        }
        Err(_) => memlock::max_entries_by_checks(),
    };

    for (name, v) in names::members(SETUP_FLAG) {
        let bit = v as u32;
        f.setup_flags.push(FlagResult {
            name,
            value: bit,
            since: releases::SETUP_FLAGS.since_of(bit.into()),
            result: try_flag(bit),
        });
    }

    // Registration opcodes: the kernel's own count where it can be asked
    // (IORING_REGISTER_QUERY, 6.18), else the release that added each.
    let mut query = io_uring_query_opcode::default();
    let mut hdr = io_uring_query_hdr {
        query_data: &mut query as *mut io_uring_query_opcode as u64,
        query_op: IO_URING_QUERY_OPCODES,
        size: size_of::<io_uring_query_opcode>() as u32,
        ..Default::default()
    };
    let queried = register(
        -1,
        IORING_REGISTER_QUERY,
        (&mut hdr as *mut io_uring_query_hdr).cast(),
        0,
    )
    .is_ok()
        && hdr.result >= 0;
    if queried {
        f.register_source = "IORING_REGISTER_QUERY";
    }
    // Without the query: the newest release the kernel's io_uring shows
    // (its version number, or a newer dated feature or opcode: distribution
    // kernels carry newer io_uring code than their version says).
    let level = if queried {
        None
    } else {
        f.register_source = "the newest release its features and opcodes show";
        io_uring_level(&f)
    };
    for (name, v) in names::members(REGISTER_OP) {
        let op = v as u32;
        let available = if queried {
            op < query.nr_register_opcodes
        } else {
            releases::REGISTER_OPCODES
                .since_of(op.into())
                .is_some_and(|added| level.is_some_and(|l| l >= added))
        };
        f.register_ops.push(RegisterOp {
            name: names::full_name(REGISTER_OP, v).unwrap_or(name),
            value: op,
            available,
        });
    }
    f
}

/// The newest of the kernel's version number and the releases that added
/// the features and opcodes a ring reported.
fn io_uring_level(f: &Facts) -> Option<(u32, u32)> {
    let by_feature = (0..32)
        .map(|b| 1u32 << b)
        .filter(|b| f.features & b != 0)
        .filter_map(|b| releases::FEATURES.since_of(b.into()));
    let by_opcode = f
        .opcodes
        .iter()
        .filter_map(|(op, _)| releases::REQUEST_OPCODES.since_of((*op).into()));
    // Reading the io-wq worker limits worked: that registration opcode is there.
    let by_register = f
        .iowq_workers
        .and_then(|_| releases::REGISTER_OPCODES.since_of(IORING_REGISTER_IOWQ_MAX_WORKERS.into()));
    by_feature
        .chain(by_opcode)
        .chain(by_register)
        .chain(sysinfo::kernel_version())
        .max()
}

/// Why no ring can be set up, from the same facts LIBURING_DEBUG uses.
fn why_not(f: &Facts, e: i32) -> String {
    match f.disabled {
        Some(2) => return "kernel.io_uring_disabled = 2: io_uring is disabled for every process".into(),
        Some(1) if !f.cap_sys_admin && f.in_group != Some(true) => {
            return format!(
                "kernel.io_uring_disabled = 1: only CAP_SYS_ADMIN and members of kernel.io_uring_group ({}) may use io_uring, and this process is neither",
                f.group.unwrap_or(-1)
            )
        }
        _ => {}
    }
    if f.seccomp == Some(2) {
        return format!(
            "a seccomp filter ({} filter(s)) answers io_uring_setup with {}",
            f.seccomp_filters.unwrap_or(0),
            errno_name(e).unwrap_or("an error")
        );
    }
    if e == libc::ENOSYS {
        return "the kernel has no io_uring (built without CONFIG_IO_URING, or older than 5.1)"
            .into();
    }
    format!(
        "io_uring_setup fails with {} for another reason",
        errno_name(e).unwrap_or("an error")
    )
}

/// The features as names.
pub fn feature_names(features: u32) -> Vec<String> {
    let mut out = Vec::new();
    names::for_each_flag(FEATURE, u64::from(features), |n, v| {
        out.push(n.map_or_else(|| format!("{v:#x}"), str::to_owned));
    });
    out
}
