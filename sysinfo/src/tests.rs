// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn parsing() {
    assert_eq!(parse_int(b" 12\n"), Some(12));
    assert_eq!(parse_int(b"-1"), Some(-1));
    assert_eq!(parse_int(b"x"), None);
    assert_eq!(parse_hex(b"\t000001ffffffffff\n"), Some(0x1ff_ffff_ffff));
}

#[test]
#[cfg_attr(miri, ignore = "reads the running system")]
fn this_machine() {
    assert!(kernel_version().is_some_and(|v| v >= (5, 1)));
    assert!(seccomp_mode().is_some());
    assert_eq!(cpu_online(0), Some(true));
    assert_eq!(cpu_online(100_000), Some(false));
    assert!(rlimit(libc::RLIMIT_NOFILE).is_some());
}

#[test]
fn errno_names() {
    assert_eq!(errno_name(libc::EINVAL), Some("EINVAL"));
    assert_eq!(errno_name(libc::ECANCELED), Some("ECANCELED"));
    assert_eq!(errno_name(0), None);
}
