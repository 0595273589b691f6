// SPDX-License-Identifier: MIT
use super::*;
use crate::geometry::tests::{INIT_MEM_USED, PAGE};
use crate::geometry::{cqe_array_bytes, no_mmap_layout};
use crate::test_ring::{kernel_refuses_flags, require_uring, skip};
use crate::uapi::IORING_SETUP_REGISTERED_FD_ONLY as FD_ONLY;
use crate::uapi::{IORING_SETUP_CQE32, IORING_SETUP_SQE128};

const NOSQ: u32 = IORING_SETUP_NO_SQARRAY;
const SQE128: u32 = IORING_SETUP_SQE128;
const CQE32: u32 = IORING_SETUP_CQE32;
const CQSIZE: u32 = IORING_SETUP_CQSIZE;

/// NO_SQARRAY where the kernel takes it (6.6; raw setup, not the library),
/// else nothing: the library asks for it and sets up again without it.
fn nosq() -> u32 {
    if kernel_refuses_flags(8, NOSQ).is_none() {
        NOSQ
    } else {
        0
    }
}

/// Whether the kernel lacks NO_MMAP (6.5): a raw setup with the flag and
/// no memory is refused with EFAULT where the kernel knows it, EINVAL where
/// it does not.
fn kernel_lacks_no_mmap() -> bool {
    kernel_refuses_flags(8, IORING_SETUP_NO_MMAP) == Some(Errno::EINVAL)
}

/// Page-aligned zeroed anonymous memory for NO_MMAP tests.
struct Buf(*mut c_void, usize);
impl Buf {
    fn new(len: usize) -> Buf {
        // SAFETY: fresh anonymous mapping.
        let p = unsafe {
            syscall::mmap(
                null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        }
        .unwrap();
        Buf(p, len)
    }
}
impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: our own mapping, dropped last.
        let _ = unsafe { syscall::munmap(self.0, self.1) };
    }
}

fn addr<T>(p: *mut T) -> usize {
    p as usize
}

/// Checks every field of `ring` against what the kernel said in `p`.
fn assert_ring_matches(ring: &io_uring, p: &io_uring_params) {
    let (sq, cq) = (&ring.sq, &ring.cq);
    assert_eq!(ring.flags, p.flags);
    assert_eq!(ring.features, p.features);
    assert_eq!((ring.pad, ring.pad2), ([0; 3], 0));

    let sb = sq.ring_ptr as usize;
    assert_ne!(sb, 0);
    assert_eq!(addr(sq.khead), sb + p.sq_off.head as usize);
    assert_eq!(addr(sq.ktail), sb + p.sq_off.tail as usize);
    assert_eq!(addr(sq.kring_mask), sb + p.sq_off.ring_mask as usize);
    assert_eq!(addr(sq.kring_entries), sb + p.sq_off.ring_entries as usize);
    assert_eq!(addr(sq.kflags), sb + p.sq_off.flags as usize);
    assert_eq!(addr(sq.kdropped), sb + p.sq_off.dropped as usize);
    assert_eq!(sq.ring_entries, p.sq_entries);
    assert_eq!(sq.ring_mask, p.sq_entries - 1);
    assert_eq!((sq.sqe_head, sq.sqe_tail, sq.pad), (0, 0, 0));
    assert!(!sq.sqes.is_null());

    let cb = cq.ring_ptr as usize;
    assert_ne!(cb, 0);
    assert_eq!(addr(cq.khead), cb + p.cq_off.head as usize);
    assert_eq!(addr(cq.ktail), cb + p.cq_off.tail as usize);
    assert_eq!(addr(cq.kring_mask), cb + p.cq_off.ring_mask as usize);
    assert_eq!(addr(cq.kring_entries), cb + p.cq_off.ring_entries as usize);
    assert_eq!(addr(cq.koverflow), cb + p.cq_off.overflow as usize);
    assert_eq!(addr(cq.cqes), cb + p.cq_off.cqes as usize);
    assert_ne!(p.cq_off.flags, 0);
    assert_eq!(addr(cq.kflags), cb + p.cq_off.flags as usize);
    assert_eq!(cq.ring_entries, p.cq_entries);
    assert_eq!(cq.ring_mask, p.cq_entries - 1);
    assert_eq!(cq.pad, [0; 2]);

    // SAFETY: the ring is live; these are the kernel's copies.
    unsafe {
        assert_eq!(*sq.kring_mask, sq.ring_mask);
        assert_eq!(*sq.kring_entries, sq.ring_entries);
        assert_eq!(*cq.kring_mask, cq.ring_mask);
        assert_eq!(*cq.kring_entries, cq.ring_entries);
        assert_eq!((*sq.khead, *sq.ktail, *cq.khead, *cq.ktail), (0, 0, 0, 0));
    }

    if p.flags & NOSQ != 0 {
        assert!(sq.array.is_null());
    } else {
        assert_eq!(addr(sq.array), sb + p.sq_off.array as usize);
        for i in 0..sq.ring_entries {
            // SAFETY: the SQ array has ring_entries slots.
            assert_eq!(unsafe { *sq.array.add(i as usize) }, i);
        }
    }

    if p.flags & IORING_SETUP_NO_MMAP == 0 {
        // Kernel-mapped: sizes from the kernel's offsets, one mapping.
        assert_ne!(p.features & IORING_FEAT_SINGLE_MMAP, 0);
        let sq_sz = p.sq_off.array as usize + p.sq_entries as usize * 4;
        let cq_sz = p.cq_off.cqes as usize + cqe_array_bytes(p.flags, p.cq_entries);
        assert_eq!(sq.ring_sz, sq_sz.max(cq_sz));
        assert_eq!(cq.ring_sz, sq.ring_sz);
        assert_eq!(cq.ring_ptr, sq.ring_ptr);
        assert_eq!(sq.sqes_sz as usize, sqe_array_bytes(p.flags, p.sq_entries));
        assert_eq!(ring.ring_fd, ring.enter_ring_fd);
        assert!(ring.ring_fd >= 0);
    }
    let mut want_int = 0;
    if p.flags & (IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL) == IORING_SETUP_IOPOLL {
        want_int |= int_flags::CQ_ENTER;
    }
    assert_eq!(ring.int_flags & int_flags::CQ_ENTER, want_int);
}

fn init_with(entries: u32, flags: u32) -> SysResult<(io_uring, io_uring_params)> {
    let mut ring = empty_ring();
    let mut p = io_uring_params {
        flags,
        ..Default::default()
    };
    queue_init_params(entries, &mut ring, &mut p)?;
    Ok((ring, p))
}

#[test]
fn default_ring_uses_no_sqarray_and_matches_params() {
    require_uring!();
    let (mut ring, p) = init_with(8, 0).unwrap();
    // NO_SQARRAY exactly where the kernel accepts it.
    assert_eq!(p.flags, nosq());
    assert_eq!((p.sq_entries, p.cq_entries), (8, 16));
    assert_ring_matches(&ring, &p);
    assert_eq!(ring.int_flags, 0);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn queue_init_rounds_entries() {
    require_uring!();
    let mut ring = empty_ring();
    queue_init(5, &mut ring, 0).unwrap();
    assert_eq!((ring.sq.ring_entries, ring.cq.ring_entries), (8, 16));
    assert_eq!(ring.flags, nosq());
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn sq_array_ring_is_identity_mapped() {
    require_uring!();
    // One attempt without NO_SQARRAY: the classic layout.
    let mut ring = empty_ring();
    let mut p = io_uring_params::default();
    // SAFETY: no application memory.
    let used = unsafe { queue_init_once(16, &mut ring, &mut p, null_mut(), 0) }.unwrap();
    assert_eq!(used, 0);
    assert_eq!(p.flags & NOSQ, 0);
    assert!(!ring.sq.array.is_null());
    assert_ring_matches(&ring, &p);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn einval_retry_restores_flags_unless_no_sqarray_was_asked() {
    require_uring!();
    // entries == 0 fails both attempts: the retry must have put the
    // caller's flags back.
    let mut ring = empty_ring();
    let mut p = io_uring_params::default();
    assert_eq!(queue_init_params(0, &mut ring, &mut p), Err(Errno::EINVAL));
    assert_eq!(p.flags, 0);
    let mut p = io_uring_params {
        flags: NOSQ,
        ..Default::default()
    };
    assert_eq!(queue_init_params(0, &mut ring, &mut p), Err(Errno::EINVAL));
    assert_eq!(p.flags, NOSQ);
    // An explicit NO_SQARRAY request is kept on success (where the kernel
    // has it).
    if nosq() == 0 {
        return;
    }
    let (mut ring, p) = init_with(4, NOSQ).unwrap();
    assert_eq!(p.flags, NOSQ);
    assert!(ring.sq.array.is_null());
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn big_sqe_and_cqe_rings() {
    require_uring!();
    if kernel_refuses_flags(32, SQE128 | CQE32).is_some() {
        skip!("the kernel lacks IORING_SETUP_SQE128/CQE32");
    }
    for flags in [SQE128, CQE32, SQE128 | CQE32] {
        let (mut ring, p) = init_with(32, flags).unwrap();
        assert_eq!(p.flags, flags | nosq());
        assert_ring_matches(&ring, &p);
        let sqe = if flags & SQE128 != 0 { 128 } else { 64 };
        assert_eq!(ring.sq.sqes_sz, 32 * sqe);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }
}

#[test]
fn cqsize_ring() {
    require_uring!();
    let mut ring = empty_ring();
    let mut p = io_uring_params {
        flags: CQSIZE,
        cq_entries: 100,
        ..Default::default()
    };
    queue_init_params(8, &mut ring, &mut p).unwrap();
    assert_eq!((p.sq_entries, p.cq_entries), (8, 128));
    assert_ring_matches(&ring, &p);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
    let mut p = io_uring_params {
        flags: CQSIZE,
        cq_entries: 4,
        ..Default::default()
    };
    assert_eq!(queue_init_params(8, &mut ring, &mut p), Err(Errno::EINVAL));
}

#[test]
fn sqpoll_and_iopoll_rings() {
    require_uring!();
    match init_with(8, IORING_SETUP_SQPOLL) {
        Ok((mut ring, p)) => {
            assert_ne!(p.flags & IORING_SETUP_SQPOLL, 0);
            assert_ring_matches(&ring, &p);
            assert_eq!(ring.int_flags, 0);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
        // Not a skip: the IOPOLL half below still runs.
        Err(e) => println!("note: no SQPOLL ring here ({e:?}), IOPOLL checked alone"),
    }
    let (mut ring, p) = init_with(8, IORING_SETUP_IOPOLL).unwrap();
    assert_ring_matches(&ring, &p);
    assert_eq!(ring.int_flags, int_flags::CQ_ENTER);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
    if let Ok((mut ring, p)) = init_with(8, IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL) {
        assert_ring_matches(&ring, &p);
        assert_eq!(ring.int_flags, 0);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }
}

#[test]
fn init_mem_uses_application_buffer() {
    require_uring!();
    if kernel_lacks_no_mmap() {
        skip!("the kernel lacks IORING_SETUP_NO_MMAP");
    }
    for &(entries, flags, used) in INIT_MEM_USED.iter().filter(|t| t.0 <= 1024) {
        let buf = Buf::new(1 << 20);
        let mut ring = empty_ring();
        let mut p = io_uring_params {
            flags,
            ..Default::default()
        };
        // SAFETY: `buf` is zeroed, aligned, and outlives the ring.
        let got = unsafe { queue_init_mem(entries, &mut ring, &mut p, buf.0, buf.1) }.unwrap();
        assert_eq!(got, used, "entries {entries} flags {flags:#x}");
        assert_eq!(p.flags, flags | nosq() | IORING_SETUP_NO_MMAP);
        assert_ring_matches(&ring, &p);
        let l = no_mmap_layout(entries, p.flags, 0, PAGE).unwrap();
        assert_eq!(ring.int_flags, int_flags::APP_MEM);
        assert_eq!(ring.sq.sqes.cast::<c_void>(), buf.0);
        assert_eq!(ring.sq.ring_ptr as usize, buf.0 as usize + l.sqes_mem);
        assert_eq!(ring.cq.ring_ptr, ring.sq.ring_ptr);
        assert_eq!(
            (ring.sq.sqes_sz, ring.sq.ring_sz, ring.cq.ring_sz),
            (0, 0, 0)
        );
        assert_eq!(p.sq_off.user_addr, buf.0 as u64);
        assert_eq!(p.cq_off.user_addr, ring.sq.ring_ptr as u64);
        assert_eq!(ring.ring_fd, ring.enter_ring_fd);
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
        // The application's memory is still mapped and writable.
        // SAFETY: `buf` is still our live mapping.
        unsafe { buf.0.cast::<u8>().add(buf.1 - 1).write(1) };
    }
}

/// A NO_MMAP ring that keeps its SQ index array (as every ring does on
/// 6.5, which has NO_MMAP but not NO_SQARRAY) set up in exactly the memory
/// its layout names, with an inaccessible page right after: the kernel
/// must find all of its rings inside (it pins them, and fails on that page).
/// With the layout's own last page inaccessible it must fail: the layout
/// is no bigger than the rings need, up to page rounding.
#[test]
fn no_mmap_ring_with_sq_array_fits_its_layout_exactly() {
    require_uring!();
    if kernel_lacks_no_mmap() {
        skip!("the kernel lacks IORING_SETUP_NO_MMAP");
    }
    let page = syscall::page_size();
    for entries in [8, 4096] {
        let l = no_mmap_layout(entries, IORING_SETUP_NO_MMAP, 0, page).unwrap();
        // An inaccessible page just past the layout: the ring fits. One in
        // the layout's last page: it does not (the layout is not too big).
        for (guard_at, fits) in [(l.mem_used, true), (l.mem_used - page, false)] {
            let buf = Buf::new(l.mem_used + page);
            // SAFETY: a page of our own mapping, which nothing uses.
            let guard = unsafe {
                libc::mprotect(
                    buf.0.cast::<u8>().add(guard_at).cast(),
                    page,
                    libc::PROT_NONE,
                )
            };
            assert_eq!(guard, 0);
            let mut ring = empty_ring();
            let mut p = io_uring_params {
                flags: IORING_SETUP_NO_MMAP,
                ..Default::default()
            };
            // SAFETY: the first `l.mem_used` bytes of `buf` are aligned and
            // outlive the ring; the kernel checks their access itself.
            let r = unsafe { queue_init_once(entries, &mut ring, &mut p, buf.0, l.mem_used) };
            if !fits {
                assert_eq!(r, Err(Errno::EFAULT), "entries {entries}");
                continue;
            }
            assert_eq!(r, Ok(l.mem_used), "entries {entries}");
            assert_eq!(p.flags, IORING_SETUP_NO_MMAP);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps memory through the kernel")]
fn init_mem_too_small_is_enomem() {
    let buf = Buf::new(PAGE);
    let mut ring = empty_ring();
    let mut p = io_uring_params::default();
    // SAFETY: `buf` is zeroed, aligned, and outlives the call.
    let r = unsafe { queue_init_mem(8, &mut ring, &mut p, buf.0, buf.1) };
    assert_eq!(r, Err(Errno::ENOMEM));
}

#[test]
fn no_mmap_without_buffer_maps_its_own_memory() {
    require_uring!();
    if kernel_lacks_no_mmap() {
        skip!("the kernel lacks IORING_SETUP_NO_MMAP");
    }
    let (mut ring, p) = init_with(8, IORING_SETUP_NO_MMAP).unwrap();
    assert_ring_matches(&ring, &p);
    assert_eq!(ring.int_flags & int_flags::APP_MEM, 0);
    // The SQEs fill their own page; the rings get a second page,
    // recorded in sq.ring_sz only.
    assert_eq!(ring.sq.sqes_sz as usize, PAGE);
    assert_eq!((ring.sq.ring_sz, ring.cq.ring_sz), (PAGE, 0));
    assert_ne!(ring.sq.ring_ptr as usize, ring.sq.sqes as usize + PAGE);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };

    // A ring that needs more than a page wants a huge page.
    match init_with(256, IORING_SETUP_NO_MMAP) {
        Ok((mut ring, p)) => {
            assert_ring_matches(&ring, &p);
            assert_eq!(ring.sq.sqes_sz as usize, HUGE_PAGE_SIZE);
            // SAFETY: set up above, not used again.
            unsafe { queue_exit(&mut ring) };
        }
        Err(e) => assert_eq!(e, Errno::ENOMEM, "no huge pages available"),
    }
}

#[test]
fn registered_fd_only_ring() {
    require_uring!();
    let mut ring = empty_ring();
    let mut p = io_uring_params {
        flags: FD_ONLY,
        ..Default::default()
    };
    // Without NO_MMAP the library refuses before asking the kernel.
    assert_eq!(queue_init_params(8, &mut ring, &mut p), Err(Errno::EINVAL));

    let mut p = io_uring_params {
        flags: FD_ONLY | IORING_SETUP_NO_MMAP,
        ..Default::default()
    };
    if let Err(e) = queue_init_params(8, &mut ring, &mut p) {
        skip!("kernel refuses a registered-fd-only ring: {e:?}");
    }
    assert_ring_matches(&ring, &p);
    assert_eq!(ring.ring_fd, -1);
    assert_eq!(
        ring.int_flags,
        int_flags::REG_RING | int_flags::REG_REG_RING
    );
    let slot = ring.enter_ring_fd;
    assert!(slot >= 0);
    // Register opcodes go through the registered slot.
    // SAFETY: a live ring.
    let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
    let probe = crate::probe::get_probe_ring(live).expect("probe through registered ring");
    // SAFETY: from get_probe_ring.
    unsafe { crate::probe::free_probe(probe) };
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };

    // Exit freed the slot: the next such ring on this thread reuses it.
    let mut ring = empty_ring();
    let mut p = io_uring_params {
        flags: FD_ONLY | IORING_SETUP_NO_MMAP,
        ..Default::default()
    };
    queue_init_params(8, &mut ring, &mut p).unwrap();
    assert_eq!(ring.enter_ring_fd, slot);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn queue_mmap_of_raw_setup() {
    require_uring!();
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid params struct.
    let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
    let mut ring = empty_ring();
    ring.int_flags = 0xff; // must be reset
    queue_mmap(fd, &p, &mut ring).unwrap();
    // queue_mmap does not fill the SQ array: check the pointers only.
    assert_eq!(ring.int_flags, 0);
    assert_eq!(ring.ring_fd, fd);
    assert_eq!(ring.enter_ring_fd, fd);
    assert_eq!(ring.sq.ring_mask, 3);
    assert_eq!(
        ring.sq.array as usize,
        ring.sq.ring_ptr as usize + p.sq_off.array as usize
    );
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };

    // A bad fd maps nothing.
    let mut ring = empty_ring();
    assert_eq!(queue_mmap(-1, &p, &mut ring), Err(Errno::EBADF));

    // Offsets pointing outside the mapping are refused, not read.
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid params struct.
    let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
    let mut bad = p;
    bad.cq_off.ring_entries = 1 << 30;
    assert_eq!(queue_mmap(fd, &bad, &mut ring), Err(Errno::EINVAL));
    let mut bad = p;
    bad.sq_off.ring_mask = 2;
    assert_eq!(queue_mmap(fd, &bad, &mut ring), Err(Errno::EINVAL));
    queue_mmap(fd, &p, &mut ring).unwrap();
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };

    // The last u32 of the (page-rounded) SQ ring mapping is inside: read,
    // not refused. (A 4-entry SQ ring is less than any page size.)
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid params struct.
    let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
    let mut edge = p;
    edge.sq_off.ring_entries = 4096 - 4;
    let mut ring = empty_ring();
    // One word further, at the end of the mapping: refused.
    let mut past = p;
    past.sq_off.ring_entries = syscall::page_size() as u32;
    assert_eq!(queue_mmap(fd, &past, &mut ring), Err(Errno::EINVAL));
    queue_mmap(fd, &edge, &mut ring).unwrap();
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };

    // A kernel without IORING_FEAT_SINGLE_MMAP (before 5.4) has the CQ ring
    // mapped apart. This one serves both offsets, so with the bit cleared
    // that path runs here: two mappings, each of its own size.
    let mut p = io_uring_params::default();
    // SAFETY: `p` is a valid params struct.
    let fd = unsafe { syscall::io_uring_setup(4, ptr::from_mut(&mut p).cast()) }.unwrap();
    let mut apart = p;
    apart.features &= !IORING_FEAT_SINGLE_MMAP;
    queue_mmap(fd, &apart, &mut ring).unwrap();
    assert_ne!(ring.cq.ring_ptr, ring.sq.ring_ptr);
    assert_eq!(ring.sq.ring_sz, p.sq_off.array as usize + 4 * 4);
    let cq_sz = p.cq_off.cqes as usize + cqe_array_bytes(0, p.cq_entries);
    assert_eq!(ring.cq.ring_sz, cq_sz);
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn dontfork_and_iowait() {
    require_uring!();
    let mut empty = empty_ring();
    // SAFETY: a zeroed struct, as bad_args.c passes one: only its null
    // mapping pointers are read.
    let zeroed = unsafe { LiveRing::from_ptr(&mut empty) }.unwrap();
    assert_eq!(ring_dontfork(zeroed), Err(Errno::EINVAL));

    // SQE128/CQE32: where the kernel has them (5.19).
    for flags in [0, SQE128 | CQE32]
        .into_iter()
        .filter(|&f| kernel_refuses_flags(8, f).is_none())
    {
        let (mut ring, _) = init_with(8, flags).unwrap();
        // SAFETY: a live ring.
        let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
        assert_eq!(ring_dontfork(live), Ok(()));
        if ring.features & IORING_FEAT_NO_IOWAIT != 0 {
            assert_eq!(set_iowait(&mut ring, false), Ok(()));
            assert_eq!(ring.int_flags, int_flags::NO_IOWAIT);
            assert_eq!(ring.enter_flags(), crate::uapi::IORING_ENTER_NO_IOWAIT);
            assert_eq!(set_iowait(&mut ring, true), Ok(()));
            assert_eq!(ring.int_flags, 0);
        } else {
            assert_eq!(set_iowait(&mut ring, false), Err(Errno::EOPNOTSUPP));
        }
        // SAFETY: set up above, not used again.
        unsafe { queue_exit(&mut ring) };
    }
    let mut old = empty_ring();
    assert_eq!(set_iowait(&mut old, true), Err(Errno::EOPNOTSUPP));
}

#[test]
fn dontfork_refuses_a_ring_missing_any_mapping() {
    // Each of the three mappings alone missing is EINVAL, before any
    // madvise (which would answer ENOMEM for the missing range).
    require_uring!();
    let (mut ring, _) = init_with(8, 0).unwrap();
    let (sqes, cq_ring) = (ring.sq.sqes, ring.cq.ring_ptr);
    ring.sq.sqes = core::ptr::null_mut();
    // SAFETY: a live ring; ring_dontfork reads only its mapping fields.
    let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
    assert_eq!(ring_dontfork(live), Err(Errno::EINVAL));
    ring.sq.sqes = sqes;
    ring.cq.ring_ptr = core::ptr::null_mut();
    // SAFETY: as above.
    let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
    assert_eq!(ring_dontfork(live), Err(Errno::EINVAL));
    ring.cq.ring_ptr = cq_ring;
    // SAFETY: as above, every mapping back in place.
    let live = unsafe { LiveRing::from_ptr(&mut ring) }.unwrap();
    assert_eq!(ring_dontfork(live), Ok(()));
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
}

#[test]
fn mlock_size_is_zero_on_native_worker_kernels() {
    require_uring!();
    let (mut ring, _) = init_with(2, 0).unwrap();
    let native = ring.features & IORING_FEAT_NATIVE_WORKERS != 0;
    // SAFETY: set up above, not used again.
    unsafe { queue_exit(&mut ring) };
    if native {
        assert_eq!(mlock_size(8, 0), Ok(0));
        assert_eq!(mlock_size(4096, SQE128), Ok(0));
    }
    // A ring that cannot be set up reports the memory size (or its error).
    assert_eq!(mlock_size(0, 0), Err(Errno::EINVAL));
}

#[test]
fn library_memory_beyond_a_huge_page_is_enomem() {
    // A NO_MMAP ring without a buffer gets each part in one huge page at
    // most; a CQ of 65536 CQE32 entries (2 MiB of CQEs alone) does not fit,
    // and the setup answers ENOMEM before the kernel is asked.
    let flags = IORING_SETUP_NO_MMAP | IORING_SETUP_CQSIZE | IORING_SETUP_CQE32;
    let layout = no_mmap_layout(8, flags, 65536, PAGE).unwrap();
    assert!(layout.ring_mem > HUGE_PAGE_SIZE);
    let mut ring = empty_ring();
    let mut p = io_uring_params {
        flags,
        cq_entries: 65536,
        ..Default::default()
    };
    // SAFETY: no application memory (null buffer).
    let r = unsafe { queue_init_once(8, &mut ring, &mut p, core::ptr::null_mut(), 0) };
    assert_eq!(r, Err(Errno::ENOMEM));
}
