//! The C boundary: the only `#[no_mangle] extern "C"` functions.

mod buf_ring;
#[cfg(test)]
mod generated_header;
mod queue;
mod register;
mod setup;

use core::ffi::c_int;

use crate::syscall::SysResult;

/// liburing's return convention: the value on success, `-errno` on failure.
#[inline]
pub(crate) fn ret_int(r: SysResult<i32>) -> c_int {
    match r {
        Ok(v) => v,
        Err(e) => e.neg(),
    }
}
