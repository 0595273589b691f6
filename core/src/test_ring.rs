// SPDX-License-Identifier: MIT
//! What the unit tests share to get a ring, or to say why they cannot.
//!
//! A test that needs io_uring starts with [`require_uring!`] (or gets its
//! ring from [`ring!`] / [`ring_or_skip!`], which do so first). Where the
//! kernel or a seccomp filter refuses `io_uring_setup` (ENOSYS, EPERM or
//! EACCES: a container's default profile, `kernel.io_uring_disabled`), the
//! test prints one line `SKIP: <test>: <reason>` and returns, which
//! `tools/test/unit-tests.sh` counts as skipped rather than passed. Every
//! other setup failure still fails the test. Any other reason to skip (a
//! feature this kernel lacks) goes through [`skip!`] too, so every skip
//! reads the same way and a test prints at most one.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::geometry::empty_ring;
use crate::ring::LiveRing;
use crate::setup;
use crate::structs::io_uring;
use crate::syscall::{self, Errno, SysResult};
use crate::uapi::io_uring_params;

/// `Errno(1)` as `EPERM`, for skip and failure messages.
pub fn errno(e: Errno) -> String {
    uring_sysinfo::errno_name(e.get()).map_or_else(|| format!("errno {}", e.get()), str::to_owned)
}

/// Why this process may not use io_uring at all, or `None` if it may:
/// one plain `io_uring_setup` per test binary, its answer kept.
pub fn uring_refused() -> Option<&'static str> {
    static REFUSED: OnceLock<Option<String>> = OnceLock::new();
    REFUSED
        .get_or_init(|| {
            let mut p = io_uring_params::default();
            // SAFETY: `p` is a valid, writable params struct.
            match unsafe { syscall::io_uring_setup(1, core::ptr::from_mut(&mut p).cast()) } {
                Ok(fd) => {
                    let _ = syscall::close(fd);
                    None
                }
                Err(e) if e.get() == libc::ENOSYS => Some(format!(
                    "io_uring_setup fails with {}: a kernel without io_uring, or a seccomp filter",
                    errno(e)
                )),
                Err(e) if matches!(e.get(), libc::EPERM | libc::EACCES) => Some(format!(
                    "io_uring_setup fails with {}: kernel.io_uring_disabled, or a seccomp filter",
                    errno(e)
                )),
                // Anything else is the tests' business: they set up rings
                // and fail on it.
                Err(_) => None,
            }
        })
        .as_deref()
}

/// The test's path as libtest names it (`queue::tests::nop_round_trip`),
/// from the type name of an item declared inside it.
pub fn test_name(item_in_test: &'static str) -> &'static str {
    let path = item_in_test.strip_suffix("::here").unwrap_or(item_in_test);
    let path = path.split_once("::").map_or(path, |(_crate, rest)| rest);
    path.split("::{{closure}}").next().unwrap_or(path)
}

/// Prints `SKIP: <test>: <reason>` (format arguments) and returns from the
/// test.
#[macro_export]
macro_rules! skip {
    ($($why:tt)+) => {{
        fn here() {}
        let name = $crate::test_ring::test_name(::core::any::type_name_of_val(&here));
        ::std::println!("SKIP: {}: {}", name, ::core::format_args!($($why)+));
        return;
    }};
}
pub use crate::skip;

/// Skips the test where this process may not use io_uring at all.
#[macro_export]
macro_rules! require_uring {
    () => {
        if let Some(why) = $crate::test_ring::uring_refused() {
            $crate::test_ring::skip!("{why}");
        }
    };
}
pub use crate::require_uring;

/// A plain ring of `entries`: skips where io_uring is refused, fails on
/// any other setup error.
#[macro_export]
macro_rules! ring {
    ($entries:expr) => {{
        $crate::test_ring::require_uring!();
        $crate::test_ring::TestRing::new($entries, 0).unwrap()
    }};
}
pub use crate::ring;

/// Whether the kernel refuses setup `flags`, asked through libc's
/// `syscall(2)` and not the library's setup or syscall code: a library bug
/// that refuses good flags then fails the test instead of passing for a
/// kernel that lacks them. `Some(errno)` when refused.
pub fn kernel_refuses_flags(entries: u32, flags: u32) -> Option<Errno> {
    let mut p = io_uring_params {
        flags,
        ..Default::default()
    };
    // SAFETY: `p` is a valid, writable params struct for the call's duration.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_io_uring_setup,
            entries,
            core::ptr::from_mut(&mut p),
        )
    };
    if fd < 0 {
        return Some(Errno::new(
            std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
        ));
    }
    // SAFETY: `fd` is the ring descriptor just created, closed once.
    unsafe { libc::close(fd as libc::c_int) };
    None
}

/// Whether the running kernel's release (uname) is at least `want`: only
/// for behaviour measured to change between releases, which no probe can
/// ask about without the code under test.
pub fn kernel_release_at_least(want: (u32, u32)) -> bool {
    // SAFETY: utsname is plain bytes; uname fills it in.
    let mut uts: libc::utsname = unsafe { core::mem::zeroed() };
    // SAFETY: `uts` is writable.
    if unsafe { libc::uname(&mut uts) } != 0 {
        return false;
    }
    #[allow(clippy::unnecessary_cast)] // c_char is unsigned on some targets
    let release: Vec<u8> = uts
        .release
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    let text = String::from_utf8_lossy(&release);
    let mut parts = text
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= want
}

/// What the kernel answers to one `io_uring_register(2)` call on a fresh
/// ring of its own, both through libc's `syscall(2)`, not the library's code
/// (a probe for registration opcodes and flags the kernel may not know):
/// the result, or the errno. `arg` points at what `opcode` reads.
///
/// # Safety
/// `arg` must be valid for what `opcode` and `nr` make the kernel read or
/// write during the call; nothing registered outlives the probe's ring.
pub unsafe fn kernel_register_answer(
    opcode: u32,
    arg: *mut core::ffi::c_void,
    nr: u32,
) -> Result<i64, Errno> {
    let last = || Errno::new(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid, writable params struct for the call's duration.
    let fd = unsafe { libc::syscall(libc::SYS_io_uring_setup, 4u32, core::ptr::from_mut(&mut p)) };
    if fd < 0 {
        return Err(last());
    }
    // SAFETY: per the caller, for `arg`; `fd` is the ring just created.
    let r = unsafe { libc::syscall(libc::SYS_io_uring_register, fd as u32, opcode, arg, nr) };
    let r = if r < 0 { Err(last()) } else { Ok(r) };
    // SAFETY: `fd` is the ring descriptor created above, closed once.
    unsafe { libc::close(fd as libc::c_int) };
    r
}

/// A ring with setup `flags` this kernel may not know: skips where io_uring
/// is refused or where the raw probe above says the kernel refuses the
/// flags; otherwise the library's setup must succeed.
#[macro_export]
macro_rules! ring_or_skip {
    ($entries:expr, $flags:expr) => {{
        $crate::test_ring::require_uring!();
        if let Some(e) = $crate::test_ring::kernel_refuses_flags($entries, $flags) {
            $crate::test_ring::skip!(
                "kernel refuses setup flags {:#x}: {}",
                $flags,
                $crate::test_ring::errno(e)
            );
        }
        match $crate::test_ring::TestRing::new($entries, $flags) {
            Ok(r) => r,
            Err(e) => panic!(
                "the kernel accepts setup flags {:#x} (raw io_uring_setup), the library fails: {}",
                $flags,
                $crate::test_ring::errno(e)
            ),
        }
    }};
}
pub use crate::ring_or_skip;

/// Waits until `done` holds, polling every millisecond, and fails the test
/// only after 10 s: a slow or loaded machine makes a test slower, never
/// wrong. For conditions that come about on their own (a timer, another
/// thread); a test never sleeps a fixed time in their place.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(
            Instant::now() < deadline,
            "still waiting after 10 s for {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Writes one byte (`x`) to `fd`, a pipe's write end.
pub fn write_byte(fd: i32) {
    // SAFETY: one readable byte.
    assert_eq!(unsafe { libc::write(fd, b"x".as_ptr().cast(), 1) }, 1);
}

/// A ring from the library's own setup code, torn down on drop.
pub struct TestRing(pub io_uring);

impl TestRing {
    pub fn with_params(entries: u32, p: &mut io_uring_params) -> SysResult<TestRing> {
        let mut r = empty_ring();
        setup::queue_init_params(entries, &mut r, p)?;
        Ok(TestRing(r))
    }

    pub fn new(entries: u32, flags: u32) -> SysResult<TestRing> {
        let mut p = io_uring_params {
            flags,
            ..Default::default()
        };
        TestRing::with_params(entries, &mut p)
    }

    /// A ring with exactly `flags` (no NO_SQARRAY added), so it keeps its
    /// SQ index array unless `flags` says otherwise.
    pub fn exactly(entries: u32, flags: u32) -> SysResult<TestRing> {
        let mut r = empty_ring();
        let mut p = io_uring_params {
            flags,
            ..Default::default()
        };
        // SAFETY: no application memory (null buffer).
        unsafe { setup::queue_init_once(entries, &mut r, &mut p, core::ptr::null_mut(), 0) }?;
        Ok(TestRing(r))
    }

    pub fn live(&mut self) -> LiveRing<'_> {
        // SAFETY: the ring was set up by `setup` and lives as long as `self`.
        unsafe { LiveRing::from_ptr(&mut self.0) }.unwrap()
    }
}

impl Drop for TestRing {
    fn drop(&mut self) {
        // SAFETY: the ring was set up by `setup` and is not used again.
        unsafe { setup::queue_exit(&mut self.0) }
    }
}

impl core::ops::Deref for TestRing {
    type Target = io_uring;
    fn deref(&self) -> &io_uring {
        &self.0
    }
}

impl core::ops::DerefMut for TestRing {
    fn deref_mut(&mut self) -> &mut io_uring {
        &mut self.0
    }
}
