// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn task_path_is_proc_self_task_and_the_tid() {
    let p = task_path(1234567);
    let len = p.iter().position(|&b| b == 0).expect("NUL-terminated");
    assert_eq!(p.get(..len), Some(&b"/proc/self/task/1234567"[..]));
    let p = task_path(0);
    let len = p.iter().position(|&b| b == 0).expect("NUL-terminated");
    assert_eq!(p.get(..len), Some(&b"/proc/self/task/0"[..]));
}

/// A thread that is running is not gone; one that has exited and been
/// joined is (once the kernel has reaped it: joining may return a moment
/// before, so the test asks a few times).
#[test]
#[cfg_attr(miri, ignore = "stats /proc/self/task, which Miri's isolation refuses")]
fn thread_gone_tells_a_live_thread_from_an_exited_one() {
    assert!(!thread_gone(gettid()));
    let tid = std::thread::spawn(gettid).join().expect("joined");
    let mut gone = false;
    for _ in 0..100 {
        gone = thread_gone(tid);
        if gone {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(gone, "thread {tid} still listed under /proc/self/task");
}
