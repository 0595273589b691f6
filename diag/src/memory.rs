// SPDX-License-Identifier: MIT
//! The diagnostics' own memory: each record is a private anonymous mapping
//! of its own, zeroed by the kernel, never memory of the program's
//! allocator. So a hook may run in a signal handler that interrupted
//! `malloc`, or in a process whose heap is corrupt, and a program's
//! allocation statistics and limits (apart from its address space) are
//! what they would be without the diagnostics.

use core::marker::PhantomData;
use core::ptr::NonNull;

/// A zeroed `T` in a mapping of its own, unmapped when dropped. `T` must
/// be valid as all-zero bytes (every record of the diagnostics is).
pub struct Mapped<T> {
    ptr: NonNull<T>,
    _owns: PhantomData<T>,
}

// SAFETY: a `Mapped<T>` owns its `T` as a `Box<T>` would.
unsafe impl<T: Send> Send for Mapped<T> {}

impl<T> Mapped<T> {
    /// A new zeroed `T`, or `None` when the kernel refuses the mapping
    /// (`RLIMIT_AS`, out of memory): the caller then does without it.
    /// `errno` may change: callers run under a saved `errno`.
    pub fn zeroed() -> Option<Mapped<T>> {
        // SAFETY: an anonymous private mapping of fresh memory, no hint.
        let p = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                core::mem::size_of::<T>(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        Some(Mapped {
            ptr: NonNull::new(p.cast())?,
            _owns: PhantomData,
        })
    }

    /// Gives the mapping up as a raw pointer (to a table slot); take it
    /// back with [`Mapped::from_raw`].
    pub fn into_raw(self) -> NonNull<T> {
        let me = core::mem::ManuallyDrop::new(self);
        me.ptr
    }

    /// # Safety
    /// `ptr` came from [`Mapped::into_raw`] and is given back once.
    pub unsafe fn from_raw(ptr: NonNull<T>) -> Mapped<T> {
        Mapped {
            ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> core::ops::Deref for Mapped<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: a live mapping of one `T` (zeroed, which `T` accepts),
        // owned by `self`.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T> core::ops::DerefMut for Mapped<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as for `deref`, and `&mut self` is the only access.
        unsafe { self.ptr.as_mut() }
    }
}

impl<T> Drop for Mapped<T> {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `zeroed`, of the same size, which
        // nothing refers to any more.
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), core::mem::size_of::<T>()) };
    }
}
