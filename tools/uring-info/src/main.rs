// SPDX-License-Identifier: MIT
//! `uring-info`: what io_uring this machine offers to the calling process,
//! and why not when it offers nothing. `--json` prints the same as JSON.
//! `uring-info trace FILE` decodes a binary trace ([`trace`]); `uring-info
//! record -- PROGRAM` runs a program with it on, and with `--kernel` the
//! kernel's io_uring tracepoints beside it ([`record`]).
//!
//! Names and releases come from the library's uapi crate and system facts
//! from its sysinfo crate, the ones its diagnostics use, so they agree with
//! what `LIBURING_TRACE` and `LIBURING_DEBUG` print.

mod memlock;
mod newer;
mod probe;
mod record;
mod report;
mod syscalls;
mod trace;
mod tracefs;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("trace") {
        std::process::exit(trace::main(args.get(1..).unwrap_or(&[])));
    }
    if args.first().map(String::as_str) == Some("record") {
        std::process::exit(record::main(args.get(1..).unwrap_or(&[])));
    }
    let json = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--json") => true,
        Some("-h" | "--help") => {
            println!("usage: uring-info [--json]");
            println!("       uring-info trace [--summary|--json] [--no-kernel] FILE");
            println!("       uring-info record [--kernel] [-o FILE] -- PROGRAM [ARG...]");
            println!("Prints the kernel's io_uring support as this process sees it.");
            return;
        }
        Some(other) => {
            eprintln!("uring-info: unknown argument {other} (try --help)");
            std::process::exit(2);
        }
    };
    let facts = probe::gather();
    if json {
        print!("{}", report::json(&facts));
    } else {
        print!("{}", report::text(&facts));
    }
}
