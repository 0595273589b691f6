// SPDX-License-Identifier: MIT
//! The two output formats: text for people, JSON for scripts.

use std::fmt::Write;

use crate::probe::{feature_names, Facts};
use uring_sysinfo::errno_name;

fn limit(v: u64) -> String {
    if v == u64::MAX {
        "unlimited".into()
    } else {
        v.to_string()
    }
}

/// An io_uring sysctl's value, or why there is none: the file is missing
/// where the kernel predates it.
fn sysctl(v: Option<i64>) -> String {
    v.map_or_else(|| "absent (added in Linux 6.6)".into(), |v| v.to_string())
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "unknown".into(), |v| v.to_string())
}

fn errno(e: i32) -> String {
    errno_name(e).map_or_else(|| format!("errno {e}"), |n| format!("-{n}"))
}

/// The report for people.
pub fn text(f: &Facts) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "kernel:        Linux {}", f.kernel_release);
    let _ = writeln!(s, "library:       {}", f.library);
    match &f.why_not {
        None => {
            let _ = writeln!(s, "io_uring:      enabled for this process");
        }
        Some(why) => {
            let _ = writeln!(s, "io_uring:      NOT available: {why}");
        }
    }
    let _ = writeln!(
        s,
        "  kernel.io_uring_disabled = {}, kernel.io_uring_group = {}{}, CAP_SYS_ADMIN: {}",
        sysctl(f.disabled),
        sysctl(f.group),
        match f.in_group {
            Some(true) => " (member)",
            Some(false) => " (not a member)",
            None => "",
        },
        if f.cap_sys_admin { "yes" } else { "no" }
    );
    let _ = writeln!(
        s,
        "  seccomp mode {} ({} filter(s))",
        opt(f.seccomp),
        opt(f.seccomp_filters)
    );
    if f.setup.is_err() {
        return s;
    }
    let _ = writeln!(s, "features:      {}", feature_names(f.features).join(" "));
    let ops: Vec<&str> = f.opcodes.iter().map(|(_, n)| n.as_str()).collect();
    let _ = writeln!(s, "opcodes ({}):  {}", ops.len(), ops.join(" "));
    let _ = writeln!(s, "setup flags:");
    for r in &f.setup_flags {
        let since = r
            .since
            .map_or_else(String::new, |(a, b)| format!(" (since {a}.{b})"));
        let verdict = match r.result {
            Ok(()) => "accepted".to_string(),
            Err(e) if crate::memlock::inconclusive(e) => format!(
                "unknown ({}: RLIMIT_MEMLOCK left no room for the probe ring)",
                errno(e)
            ),
            Err(e) => format!("refused ({})", errno(e)),
        };
        let _ = writeln!(s, "  IORING_SETUP_{:<20} {verdict}{since}", r.name);
    }
    let _ = writeln!(s, "registration opcodes (by {}):", f.register_source);
    let (yes, no): (Vec<_>, Vec<_>) = f.register_ops.iter().partition(|r| r.available);
    let names =
        |v: &[&crate::probe::RegisterOp]| v.iter().map(|r| r.name).collect::<Vec<_>>().join(" ");
    let _ = writeln!(s, "  available:   {}", names(&yes));
    if !no.is_empty() {
        let _ = writeln!(s, "  unavailable: {}", names(&no));
    }
    let _ = writeln!(s, "nop flags (one NOP each):");
    for n in &f.nop_flags {
        let since = n
            .since
            .map_or_else(String::new, |(a, b)| format!(" (since {a}.{b})"));
        let _ = writeln!(s, "  {:<33} {}{since}", n.name, nop_verdict(n.verdict));
    }
    match &f.zcrx {
        None => {
            let _ = writeln!(
                s,
                "zero-copy rx:  not asked (no IORING_REGISTER_QUERY, added in Linux 6.18)"
            );
        }
        Some(z) => {
            let features = match z.features {
                Ok(b) => crate::newer::zcrx_feature_names(b).join(" "),
                Err(0) => "not a query of this kernel (Linux 6.19)".to_string(),
                Err(e) => format!("not answered ({})", errno(e)),
            };
            let events = match z.events {
                Ok((b, size, align)) => format!(
                    "{} (struct zcrx_stats: {size} bytes, offset aligned to {align})",
                    crate::newer::zcrx_event_names(b).join(" ")
                ),
                Err(0) => "not a query of this kernel (Linux 7.2)".to_string(),
                Err(e) => format!("not answered ({})", errno(e)),
            };
            let _ = writeln!(s, "zero-copy rx:  features: {features}");
            let _ = writeln!(s, "               events: {events}");
        }
    }
    let _ = writeln!(s, "limits:");
    if let Some((soft, hard)) = f.memlock {
        let _ = writeln!(
            s,
            "  RLIMIT_MEMLOCK  {} / {} bytes (soft / hard)",
            limit(soft),
            limit(hard)
        );
    }
    if let Some((soft, hard)) = f.nofile {
        let _ = writeln!(
            s,
            "  RLIMIT_NOFILE   {} / {} (soft / hard)",
            limit(soft),
            limit(hard)
        );
    }
    if let Some((sq, cq)) = f.max_entries {
        let _ = writeln!(s, "  max entries     {sq} SQ / {cq} CQ");
    }
    if let Some((b, u)) = f.iowq_workers {
        let _ = writeln!(
            s,
            "  io-wq workers   {b} bounded / {u} unbounded (per thread, per NUMA node; bounded: at most the SQ entries of the thread's first ring)"
        );
    }
    s
}

/// A JSON string literal.
fn q(v: &str) -> String {
    let mut out = String::from("\"");
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn jopt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "null".into(), |v| v.to_string())
}

fn jlimit(v: Option<(u64, u64)>) -> String {
    v.map_or_else(
        || "null".into(),
        |(soft, hard)| {
            let one = |x: u64| {
                if x == u64::MAX {
                    q("unlimited")
                } else {
                    x.to_string()
                }
            };
            format!("{{\"soft\": {}, \"hard\": {}}}", one(soft), one(hard))
        },
    )
}

/// The report for scripts.
pub fn json(f: &Facts) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"kernel\": {},", q(&f.kernel_release));
    let _ = writeln!(s, "  \"library\": {},", q(&f.library));
    let _ = writeln!(s, "  \"io_uring\": {{");
    let _ = writeln!(s, "    \"enabled\": {},", f.setup.is_ok());
    let _ = writeln!(
        s,
        "    \"why_not\": {},",
        f.why_not.as_deref().map_or_else(|| "null".into(), q)
    );
    let _ = writeln!(
        s,
        "    \"setup_error\": {},",
        f.setup
            .err()
            .map_or_else(|| "null".into(), |e| q(&errno(e)))
    );
    let _ = writeln!(s, "    \"io_uring_disabled\": {},", jopt(f.disabled));
    let _ = writeln!(s, "    \"io_uring_group\": {},", jopt(f.group));
    let _ = writeln!(s, "    \"in_io_uring_group\": {},", jopt(f.in_group));
    let _ = writeln!(s, "    \"cap_sys_admin\": {},", f.cap_sys_admin);
    let _ = writeln!(s, "    \"seccomp_mode\": {},", jopt(f.seccomp));
    let _ = writeln!(s, "    \"seccomp_filters\": {}", jopt(f.seccomp_filters));
    let _ = writeln!(s, "  }},");
    let feats: Vec<String> = feature_names(f.features).iter().map(|n| q(n)).collect();
    let _ = writeln!(s, "  \"features\": [{}],", feats.join(", "));
    let ops: Vec<String> = f
        .opcodes
        .iter()
        .map(|(op, n)| format!("{{\"op\": {op}, \"name\": {}}}", q(n)))
        .collect();
    let _ = writeln!(s, "  \"opcodes\": [{}],", ops.join(", "));
    let flags: Vec<String> =
        f.setup_flags
            .iter()
            .map(|r| {
                format!(
                "{{\"name\": {}, \"value\": {}, \"since\": {}, \"accepted\": {}, \"error\": {}}}",
                q(&format!("IORING_SETUP_{}", r.name)),
                r.value,
                r.since.map_or_else(|| "null".into(), |(a, b)| q(&format!("{a}.{b}"))),
                if r.result.err().is_some_and(crate::memlock::inconclusive) {
                    "null".to_string()
                } else {
                    r.result.is_ok().to_string()
                },
                r.result.err().map_or_else(|| "null".into(), |e| q(&errno(e)))
            )
            })
            .collect();
    let _ = writeln!(s, "  \"setup_flags\": [{}],", flags.join(", "));
    let regs: Vec<String> = f
        .register_ops
        .iter()
        .map(|r| {
            format!(
                "{{\"name\": {}, \"op\": {}, \"available\": {}}}",
                q(r.name),
                r.value,
                r.available
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "  \"register_ops\": {{\"source\": {}, \"ops\": [{}]}},",
        q(f.register_source),
        regs.join(", ")
    );
    let nops: Vec<String> = f
        .nop_flags
        .iter()
        .map(|n| {
            format!(
                "{{\"name\": {}, \"since\": {}, \"verdict\": {}}}",
                q(n.name),
                n.since
                    .map_or_else(|| "null".into(), |(a, b)| q(&format!("{a}.{b}"))),
                q(nop_verdict(n.verdict))
            )
        })
        .collect();
    let _ = writeln!(s, "  \"nop_flags\": [{}],", nops.join(", "));
    let zcrx = f.zcrx.as_ref().map_or_else(
        || "null".to_string(),
        |z| {
            let features = z.features.map_or_else(jerr, |b| format!("{b}"));
            let events = z.events.map_or_else(jerr, |(b, size, align)| {
                format!("{{\"types\": {b}, \"stats_size\": {size}, \"stats_align\": {align}}}")
            });
            format!("{{\"features\": {features}, \"events\": {events}}}")
        },
    );
    let _ = writeln!(s, "  \"zcrx\": {zcrx},");
    let _ = writeln!(s, "  \"limits\": {{");
    let _ = writeln!(s, "    \"memlock\": {},", jlimit(f.memlock));
    let _ = writeln!(s, "    \"nofile\": {},", jlimit(f.nofile));
    let _ = writeln!(
        s,
        "    \"max_sq_entries\": {},",
        jopt(f.max_entries.map(|m| m.0))
    );
    let _ = writeln!(
        s,
        "    \"max_cq_entries\": {},",
        jopt(f.max_entries.map(|m| m.1))
    );
    let _ = writeln!(
        s,
        "    \"iowq_bounded_workers\": {},",
        jopt(f.iowq_workers.map(|w| w.0))
    );
    let _ = writeln!(
        s,
        "    \"iowq_unbounded_workers\": {}",
        jopt(f.iowq_workers.map(|w| w.1))
    );
    let _ = writeln!(s, "  }}");
    s.push_str("}\n");
    s
}

/// A NOP flag's verdict in words.
fn nop_verdict(v: crate::newer::NopVerdict) -> &'static str {
    use crate::newer::NopVerdict::*;
    match v {
        Accepted => "accepted",
        Refused => "refused (EINVAL)",
        Ignored => "ignored (this kernel does not read nop_flags)",
        Unknown => "not asked (no ring)",
    }
}

/// A query's failure for the JSON report: `null` where the kernel's query
/// interface lacks the query, else the error.
fn jerr(e: i32) -> String {
    if e == 0 {
        "null".into()
    } else {
        format!("{{\"error\": {}}}", q(&errno(e)))
    }
}
