// SPDX-License-Identifier: MIT
//! `AtomicU64` for the diagnostics' counters on every target. Where the
//! target has 64-bit atomics it is core's; elsewhere (armv5te: armel) a
//! stand-in offering the relaxed `load`, `store` and `swap` they use,
//! serialised by a spin flag, which costs nothing that matters on those
//! cold paths.

#[cfg(target_has_atomic = "64")]
pub use core::sync::atomic::AtomicU64;

#[cfg(not(target_has_atomic = "64"))]
pub use fallback::AtomicU64;

#[cfg(not(target_has_atomic = "64"))]
mod fallback {
    use core::cell::UnsafeCell;
    use core::sync::atomic::{AtomicBool, Ordering};

    /// A `u64` read and written under its own spin flag.
    pub struct AtomicU64 {
        busy: AtomicBool,
        value: UnsafeCell<u64>,
    }

    // SAFETY: `value` is only reached inside `with`, which holds `busy`, so
    // no two threads touch it at once.
    unsafe impl Sync for AtomicU64 {}

    impl AtomicU64 {
        pub const fn new(value: u64) -> Self {
            AtomicU64 {
                busy: AtomicBool::new(false),
                value: UnsafeCell::new(value),
            }
        }

        fn with<R>(&self, f: impl FnOnce(&mut u64) -> R) -> R {
            while self.busy.swap(true, Ordering::Acquire) {
                core::hint::spin_loop();
            }
            // SAFETY: the flag just taken excludes every other access.
            let r = f(unsafe { &mut *self.value.get() });
            self.busy.store(false, Ordering::Release);
            r
        }

        pub fn load(&self, _order: Ordering) -> u64 {
            self.with(|v| *v)
        }

        pub fn store(&self, value: u64, _order: Ordering) {
            self.with(|v| *v = value);
        }

        pub fn swap(&self, value: u64, _order: Ordering) -> u64 {
            self.with(|v| core::mem::replace(v, value))
        }
    }
}
