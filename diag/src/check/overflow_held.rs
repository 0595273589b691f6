// SPDX-License-Identifier: MIT
//! How many CQEs the kernel holds back on a ring whose CQ overflowed, for
//! the `cq-overflow` finding: the ring's fdinfo lists each one under
//! `CqOverflowList:` (a line with its `user_data=`). Read once, in small
//! pieces (a finding may come on a small stack), the file held for the read
//! only (`uring_sysinfo::with_file`).

/// The CQEs held back on the ring on `fd`, when its fdinfo can be read.
pub(super) fn held_back(fd: i32) -> Option<u32> {
    let fd = u32::try_from(fd).ok()?;
    let path = crate::memlock_held::fdinfo_path(fd)?;
    let path = core::ffi::CStr::from_bytes_until_nul(&path).ok()?;
    crate::sysinfo::with_file(path, libc::O_RDONLY, |file| {
        const MARK: &[u8] = b"CqOverflowList:";
        const ENTRY: &[u8] = b"user_data=";
        let mut window = [0u8; 16];
        let (mut listing, mut count) = (false, 0u32);
        let mut chunk = [0u8; 256];
        loop {
            // SAFETY: reads at most `chunk.len()` bytes into `chunk`.
            let got = unsafe { libc::read(file, chunk.as_mut_ptr().cast(), chunk.len()) };
            if got <= 0 {
                break;
            }
            for &b in chunk.get(..got as usize).unwrap_or(&[]) {
                window.copy_within(1.., 0);
                window[15] = b;
                if !listing && window.ends_with(MARK) {
                    listing = true;
                } else if listing && window.ends_with(ENTRY) {
                    count += 1;
                }
            }
        }
        listing.then_some(count)
    })?
}
