// SPDX-License-Identifier: MIT
use super::*;
use crate::register::{live, without_argument};
use crate::test_ring::{require_uring, ring, ring_or_skip, skip, TestRing as Ring};
use crate::uapi::{IORING_REGISTER_PERSONALITY, IORING_UNREGISTER_PERSONALITY};

#[test]
fn ring_fd_state_checks() {
    let mut ring = empty_ring();
    ring.ring_fd = -1;
    assert_eq!(unregister_ring_fd(&mut ring), Err(Errno::EINVAL));
    assert_eq!(close_ring_fd(&mut ring), Err(Errno::EOPNOTSUPP));
    ring.features = IORING_FEAT_REG_REG_RING;
    assert_eq!(close_ring_fd(&mut ring), Err(Errno::EINVAL));
    ring.int_flags = int_flags::REG_RING;
    assert_eq!(close_ring_fd(&mut ring), Err(Errno::EBADF));
    assert_eq!(register_ring_fd(&mut ring), Err(Errno::EEXIST));
}

#[test]
fn resize_refusals() {
    let mut ring = empty_ring();
    ring.flags = IORING_SETUP_NO_MMAP;
    let mut p = io_uring_params {
        flags: 0x10,
        ..Default::default()
    };
    // SAFETY: refused before the ring's (absent) mappings are looked at.
    let ret = unsafe { resize_rings(&mut ring, &mut p) };
    assert_eq!(ret, Err(Errno::EINVAL));
    assert_eq!(p.flags, 0x10);
    // A closed ring fd: refused (EBADF), flags cleared.
    ring.flags = 0;
    ring.ring_fd = -1;
    // SAFETY: as above.
    let ret = unsafe { resize_rings(&mut ring, &mut p) };
    assert_eq!(ret, Err(Errno::EBADF));
    assert_eq!(p.flags, 0);
}

#[test]
fn resize_of_a_plain_ring_is_the_kernels_refusal() {
    // Without DEFER_TASKRUN the kernel refuses any resize (EINVAL), so the
    // library's own check of unsubmitted SQEs against the new size (which
    // would say EOVERFLOW here) is not made.
    let mut r = ring!(8);
    for _ in 0..8 {
        assert!(!crate::queue::get_sqe(r.live()).is_null());
    }
    let mut p = io_uring_params {
        sq_entries: 2,
        cq_entries: 4,
        flags: crate::uapi::IORING_SETUP_CQSIZE,
        ..Default::default()
    };
    // SAFETY: a ring set up by this library, used by nothing else.
    let ret = unsafe { resize_rings(&mut r.0, &mut p) };
    assert_eq!(ret, Err(Errno::EINVAL));
}

/// Whether the kernel knows ring-fd registration (5.18), asked through
/// libc's `syscall(2)` on a ring of the probe's own: a bad fd to register
/// gives EBADF where it does, EINVAL where it does not.
fn kernel_registers_ring_fds() -> bool {
    let mut bad = io_uring_rsrc_update {
        offset: u32::MAX,
        data: u64::MAX,
        ..Default::default()
    };
    // SAFETY: one io_uring_rsrc_update, read during the call.
    let answer = unsafe {
        crate::test_ring::kernel_register_answer(
            IORING_REGISTER_RING_FDS,
            ptr::from_mut(&mut bad).cast(),
            1,
        )
    };
    answer != Err(Errno::EINVAL)
}

#[test]
fn ring_fd_registration_follows_the_kernel() {
    let mut r = ring!(4);
    if !kernel_registers_ring_fds() {
        skip!("the kernel lacks IORING_REGISTER_RING_FDS");
    }
    let fd = r.0.ring_fd;
    assert_eq!(register_ring_fd(&mut r.0), Ok(1));
    assert_ne!(r.0.enter_ring_fd, fd);
    assert_ne!(r.0.int_flags & int_flags::REG_RING, 0);
    // Registration calls now travel through the index.
    let t = live(r.live());
    let id = without_argument(t, IORING_REGISTER_PERSONALITY, 0).unwrap();
    let unregister = || without_argument(t, IORING_UNREGISTER_PERSONALITY, id as u32);
    assert_eq!(unregister(), Ok(0));
    assert_eq!(unregister(), Err(Errno::EINVAL));
    assert_eq!(unregister_ring_fd(&mut r.0), Ok(1));
    assert_eq!(r.0.enter_ring_fd, fd);
    assert_eq!(
        r.0.int_flags & (int_flags::REG_RING | int_flags::REG_REG_RING),
        0
    );
}

#[test]
fn ring_fd_registration_before_registered_ring_registration() {
    // A kernel before 6.3 (no IORING_FEAT_REG_REG_RING): the index is for
    // io_uring_enter only, and registration calls keep using the fd.
    let mut r = ring!(4);
    if !kernel_registers_ring_fds() {
        skip!("the kernel lacks IORING_REGISTER_RING_FDS");
    }
    r.0.features &= !IORING_FEAT_REG_REG_RING;
    assert_eq!(register_ring_fd(&mut r.0), Ok(1));
    assert_ne!(r.0.int_flags & int_flags::REG_RING, 0);
    assert_eq!(r.0.int_flags & int_flags::REG_REG_RING, 0);
    let t = live(r.live());
    let id = without_argument(t, IORING_REGISTER_PERSONALITY, 0).unwrap();
    assert_eq!(
        without_argument(t, IORING_UNREGISTER_PERSONALITY, id as u32),
        Ok(0)
    );
    assert_eq!(unregister_ring_fd(&mut r.0), Ok(1));
}

#[test]
fn resize_remaps_a_defer_taskrun_ring() {
    use crate::uapi::{
        IORING_SETUP_CQSIZE, IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER,
    };
    let mut r = ring_or_skip!(4, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    let mut p = io_uring_params {
        sq_entries: 32,
        cq_entries: 128,
        flags: IORING_SETUP_CQSIZE,
        ..Default::default()
    };
    // SAFETY: a ring set up by this library, used by nothing else.
    match unsafe { resize_rings(&mut r.0, &mut p) } {
        Err(Errno::EINVAL) => skip!("kernel without ring resizing"),
        other => assert_eq!(other, Ok(())),
    }
    assert_eq!(p.flags, 0);
    assert_eq!((r.0.sq.ring_entries, r.0.sq.ring_mask), (32, 31));
    assert_eq!((r.0.cq.ring_entries, r.0.cq.ring_mask), (128, 127));
    // SAFETY: the pointers were just set to the live new mappings.
    unsafe {
        assert_eq!(r.0.sq.kring_entries.read(), 32);
        assert_eq!(r.0.cq.kring_entries.read(), 128);
    }
}

/// Hands out `n` NOP SQEs with user_data `base..base + n`, unsubmitted.
fn prepare_nops(r: &mut Ring, n: u32, base: u64) {
    for i in 0..n {
        let sqe = crate::queue::get_sqe(r.live());
        assert!(!sqe.is_null(), "SQ full");
        // SAFETY: an SQE just handed out, not yet published.
        unsafe {
            (*sqe).opcode = crate::uapi::IORING_OP_NOP;
            (*sqe).fd = -1;
            (*sqe).user_data = base + u64::from(i);
        }
    }
}

/// Submits everything pending, waits for `n` CQEs and checks they carry
/// user_data `base..base + n` in order.
fn submit_and_check(r: &mut Ring, n: u32, base: u64) {
    assert_eq!(crate::queue::submit_and_wait(r.live(), n), Ok(n));
    let mut out = [core::mem::MaybeUninit::uninit(); 64];
    let got = crate::queue::peek_batch_cqe(r.live(), &mut out[..n as usize]);
    assert_eq!(got, n);
    for (i, c) in out[..n as usize].iter().enumerate() {
        // SAFETY: written by peek_batch_cqe: CQEs below the tail.
        let ud = unsafe { (*c.assume_init()).user_data };
        assert_eq!(ud, base + i as u64, "CQE {i}");
    }
    crate::queue::cq_advance(r.live(), n);
}

fn resize_to(r: &mut Ring, sq: u32, cq: u32) -> SysResult<()> {
    let mut p = io_uring_params {
        sq_entries: sq,
        cq_entries: cq,
        flags: IORING_SETUP_CQSIZE,
        ..Default::default()
    };
    // SAFETY: a ring set up by this library, used by nothing else.
    let ret = unsafe { resize_rings(&mut r.0, &mut p) };
    assert_eq!(p.flags, 0, "flags cleared for the next use");
    ret
}

/// DEFER_TASKRUN rings (what resizing needs) in the three SQ layouts:
/// with an SQ index array, without one, and with 128-byte SQEs. A test
/// over them notes a layout the kernel cannot do and skips only when it
/// could check none.
fn resize_variants() -> [(&'static str, SysResult<Ring>); 3] {
    use crate::uapi::{IORING_SETUP_SINGLE_ISSUER, IORING_SETUP_SQE128};
    let dt = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    [
        ("sq array", Ring::exactly(8, dt)),
        (
            "no sq array",
            Ring::exactly(8, dt | IORING_SETUP_NO_SQARRAY),
        ),
        ("sqe128", Ring::new(8, dt | IORING_SETUP_SQE128)),
    ]
}

#[test]
fn resize_refuses_unsubmitted_sqes_that_do_not_fit() {
    require_uring!();
    let mut checked = 0;
    for (what, ring) in resize_variants() {
        let Ok(mut r) = ring else {
            println!("note: {what}: kernel refuses the setup flags");
            continue;
        };
        prepare_nops(&mut r, 6, 100);
        let before = (r.0.sq.sqes, r.0.sq.ring_entries, r.0.cq.cqes);
        match resize_to(&mut r, 4, 8) {
            Err(Errno::EOVERFLOW) => {}
            Err(Errno::EINVAL) => {
                println!("note: {what}: kernel without ring resizing");
                continue;
            }
            other => panic!("{what}: {other:?}"),
        }
        // Untouched: same mappings, the 6 SQEs still pending...
        assert_eq!((r.0.sq.sqes, r.0.sq.ring_entries, r.0.cq.cqes), before);
        assert_eq!(crate::queue::tests::sq_ready(r.live()), 6, "{what}");
        // ... and all of them run.
        submit_and_check(&mut r, 6, 100);
        // Exactly as many as fit is fine, and they all arrive.
        prepare_nops(&mut r, 4, 200);
        assert_eq!(resize_to(&mut r, 4, 8), Ok(()), "{what}");
        assert_eq!(r.0.sq.ring_entries, 4);
        assert_eq!(crate::queue::tests::sq_ready(r.live()), 4, "{what}");
        submit_and_check(&mut r, 4, 200);
        checked += 1;
    }
    if checked == 0 {
        skip!("no SQ layout could be resized here");
    }
}

#[test]
fn resize_carries_unsubmitted_sqes_over() {
    require_uring!();
    let mut checked = 0;
    for (what, ring) in resize_variants() {
        let Ok(mut r) = ring else {
            println!("note: {what}: kernel refuses the setup flags");
            continue;
        };
        // Wrap the SQ first, so the pending SQEs straddle its end.
        prepare_nops(&mut r, 5, 0);
        submit_and_check(&mut r, 5, 0);
        prepare_nops(&mut r, 6, 300);
        match resize_to(&mut r, 32, 64) {
            Ok(()) => {}
            Err(Errno::EINVAL) => {
                println!("note: {what}: kernel without ring resizing");
                continue;
            }
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!((r.0.sq.ring_entries, r.0.cq.ring_entries), (32, 64));
        assert_eq!(crate::queue::tests::sq_ready(r.live()), 6, "{what}");
        submit_and_check(&mut r, 6, 300);
        // The new size is usable: more than the old SQ held at once.
        prepare_nops(&mut r, 20, 400);
        submit_and_check(&mut r, 20, 400);
        checked += 1;
    }
    if checked == 0 {
        skip!("no SQ layout could be resized here");
    }
}

/// Whether the kernel resizes a raw DEFER_TASKRUN ring of its own (plain
/// system calls, not the code under test).
fn raw_resize_works() -> bool {
    use crate::uapi::{
        IORING_SETUP_CQSIZE, IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER,
    };
    let mut p = io_uring_params {
        flags: IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        ..Default::default()
    };
    // SAFETY: `p` is a live, writable io_uring_params.
    let Ok(fd) = (unsafe { syscall::io_uring_setup(8, ptr::from_mut(&mut p).cast()) }) else {
        return false;
    };
    let mut q = io_uring_params {
        sq_entries: 4,
        cq_entries: 8,
        flags: IORING_SETUP_CQSIZE,
        ..Default::default()
    };
    // SAFETY: one io_uring_params, read and written back during the call.
    let r = unsafe {
        syscall::io_uring_register(
            fd as u32,
            IORING_REGISTER_RESIZE_RINGS,
            ptr::from_mut(&mut q).cast_const().cast(),
            1,
        )
    };
    let _ = syscall::close(fd);
    r.is_ok()
}

#[test]
fn the_overflow_refusal_asks_whether_the_kernel_would_resize() {
    use crate::uapi::{IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_SINGLE_ISSUER};
    // Without DEFER_TASKRUN every kernel refuses a resize before reading
    // the request (unknown opcode before 6.13, EINVAL after).
    let plain = ring!(4);
    assert!(kernel_would_resize(&plain.0).is_err());
    let dt = ring_or_skip!(4, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    assert_eq!(kernel_would_resize(&dt.0).is_ok(), raw_resize_works());
}
