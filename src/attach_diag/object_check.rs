// SPDX-License-Identifier: MIT
//! The diagnostics object's file, checked before it is loaded, without
//! running any of it: an ELF object of this library's kind whose loadable
//! segments all lie within the file (the loader maps nothing past its end,
//! so it cannot fault on a cut-short file), and whose segments' digest is
//! the one the build recorded in this library.
//!
//! The digest is FNV-1a (64 bits) over each `PT_LOAD` program header in
//! order: its `p_vaddr`, `p_memsz` and `p_filesz` (8 bytes each, little
//! endian), `p_flags` (4 bytes), then the segment's bytes in the file, less
//! the ELF header that the first segment loads with it. Stripping leaves all
//! of that alone (it removes only sections no segment loads, and rewrites
//! only the header's section-table fields), so the packaged, stripped object
//! matches. The Makefile computes
//! it with `tools/build/diag-digest.c` after linking the object, and writes
//! it into [`EXPECTED`]'s section of this library's relinked object.

use core::ffi::CStr;

// Sizes and offsets in 64 bits on every target: glibc's 32-bit targets
// need the *64 calls, musl's plain calls are 64-bit already.
#[cfg(not(target_env = "gnu"))]
use libc::{fstat, pread, stat};
#[cfg(target_env = "gnu")]
use libc::{fstat64 as fstat, pread64 as pread, stat64 as stat};

/// The expected digest, little endian; all zero in a library built
/// without its diagnostics object (then every object is refused).
#[used]
#[link_section = ".uring_rs_diag_digest"]
static EXPECTED: [u8; 8] = [0; 8];

/// Program headers read at most (the object has a handful).
const MAX_PHDRS: usize = 32;
const PT_LOAD: u32 = 1;
/// An ELF object of this library's word size and byte order.
const CLASS: u8 = if cfg!(target_pointer_width = "64") {
    2
} else {
    1
};
const DATA: u8 = if cfg!(target_endian = "little") { 1 } else { 2 };

/// Opens the object at `path` and checks it; the descriptor to load it
/// from, or why not.
pub fn open_checked(path: &CStr) -> Result<i32, &'static [u8]> {
    // SAFETY: NUL-terminated path; the result is checked.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(b"cannot be opened (is it installed?)");
    }
    let r = check(fd);
    if r.is_err() {
        // SAFETY: our own descriptor, opened above.
        unsafe { libc::close(fd) };
    }
    r.map(|()| fd)
}

fn check(fd: i32) -> Result<(), &'static [u8]> {
    // SAFETY: a read of a static the build may have rewritten: volatile,
    // so the compiler does not take its value from the source.
    let expected = u64::from_le_bytes(unsafe { core::ptr::read_volatile(&EXPECTED) });
    if expected == 0 {
        return Err(b"this library was built without its diagnostics object");
    }
    let size = file_size(fd).ok_or(&b"is not a regular file"[..])?;
    match digest(fd, size) {
        Some(d) if d == expected => Ok(()),
        _ => Err(b"is not the diagnostics object built with this library (cut short, or from another build); reinstall the library"),
    }
}

/// The size of the regular file `fd`.
fn file_size(fd: i32) -> Option<u64> {
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: stat = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { fstat(fd, &mut st) } != 0 || st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // i64 everywhere but some 32-bit targets
    Some(st.st_size as u64)
}

/// Reads exactly `buf.len()` bytes at `off`.
fn read_at(fd: i32, buf: &mut [u8], off: u64) -> Option<()> {
    let mut done = 0;
    while done < buf.len() {
        let rest = buf.get_mut(done..)?;
        // SAFETY: `rest` is writable for its length.
        let n = unsafe {
            pread(
                fd,
                rest.as_mut_ptr().cast(),
                rest.len(),
                (off + done as u64) as _,
            )
        };
        if n <= 0 {
            return None;
        }
        done += n as usize;
    }
    Some(())
}

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A native-endian integer of `N` bytes at `at` in `b` (0 when outside).
fn word<const N: usize>(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    let Some(src) = b.get(at..at + N) else {
        return 0;
    };
    if cfg!(target_endian = "little") {
        w[..N].copy_from_slice(src);
        u64::from_le_bytes(w)
    } else {
        w[8 - N..].copy_from_slice(src);
        u64::from_be_bytes(w)
    }
}

/// The digest of the object in `fd` (`size` bytes), or None when it is
/// not an ELF object of this kind or a segment lies past its end.
fn digest(fd: i32, size: u64) -> Option<u64> {
    let wide = CLASS == 2;
    let mut ehdr = [0u8; 64];
    read_at(fd, &mut ehdr, 0)?;
    if ehdr.get(..4)? != b"\x7fELF" || ehdr[4] != CLASS || ehdr[5] != DATA {
        return None;
    }
    let (phoff, phentsize, phnum) = if wide {
        (
            word::<8>(&ehdr, 0x20),
            word::<2>(&ehdr, 0x36),
            word::<2>(&ehdr, 0x38),
        )
    } else {
        (
            word::<4>(&ehdr, 0x1c),
            word::<2>(&ehdr, 0x2a),
            word::<2>(&ehdr, 0x2c),
        )
    };
    let entsize: usize = if wide { 56 } else { 32 };
    if phentsize != entsize as u64 || phnum == 0 || phnum as usize > MAX_PHDRS {
        return None;
    }
    let mut phdrs = [0u8; MAX_PHDRS * 56];
    let table = phdrs.get_mut(..entsize * phnum as usize)?;
    read_at(fd, table, phoff)?;
    let mut h = 0xcbf2_9ce4_8422_2325;
    let mut buf = [0u8; 4096];
    for ph in table.chunks_exact(entsize) {
        if word::<4>(ph, 0) != u64::from(PT_LOAD) {
            continue;
        }
        let (offset, vaddr, filesz, memsz, flags) = if wide {
            (
                word::<8>(ph, 8),
                word::<8>(ph, 16),
                word::<8>(ph, 32),
                word::<8>(ph, 40),
                word::<4>(ph, 4),
            )
        } else {
            (
                word::<4>(ph, 4),
                word::<4>(ph, 8),
                word::<4>(ph, 16),
                word::<4>(ph, 20),
                word::<4>(ph, 24),
            )
        };
        if offset.checked_add(filesz)? > size {
            return None;
        }
        h = fnv1a(h, &vaddr.to_le_bytes());
        h = fnv1a(h, &memsz.to_le_bytes());
        h = fnv1a(h, &filesz.to_le_bytes());
        h = fnv1a(h, &(flags as u32).to_le_bytes());
        // The ELF header's section-table fields change when the object is
        // stripped (dh_strip), so its bytes are left out.
        let header_end = if wide { 64 } else { 52 };
        let mut at = offset.max(header_end).min(offset + filesz);
        while at < offset + filesz {
            let n = ((offset + filesz - at) as usize).min(buf.len());
            let piece = buf.get_mut(..n)?;
            read_at(fd, piece, at)?;
            h = fnv1a(h, piece);
            at += n as u64;
        }
    }
    Some(h)
}
