// SPDX-License-Identifier: MIT
//! The registration calls that hand their argument to the kernel untouched,
//! as data.
//!
//! Each is one row of [`table::CALLS`]: its C parameters, the register
//! opcode, what goes in the argument and in `nr_args`, whether a failure is
//! retried, and its documentation. From the rows come
//! - the C entry points, `src/capi/register_pass_through.rs`
//!   ([`boundary`]), whose doc comments the manual reads as it reads every
//!   other boundary function's;
//! - the kernel interface each function's reference page names
//!   ([`kernel_name`]);
//! - the bad-argument cases of the differential test,
//!   `capi-tests/differential/pass_through_cases.h` ([`cases`]).
//!
//! Adding such a call is a row here (plus, for a new opcode, its uapi
//! constant and kernel release, and its version-map line).

pub(crate) mod boundary;
pub(crate) mod cases;
mod table;

pub use table::CALLS;

/// Where the rows are, for the banners of what is generated from them.
pub const TABLE: &str = "tools/gen/src/register_calls/table.rs";

/// Whose call it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// A ring's, named by the C caller's `struct io_uring *ring` (the first
    /// parameter); a null ring gives `-EINVAL`.
    Ring,
    /// No ring's: the call passes fd -1 (the task, or a ring named inside
    /// the argument).
    NoRing,
}

/// What the call passes as the kernel's `arg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// NULL.
    None,
    /// The named pointer parameter, as the caller gave it (NULL included).
    Pointer(&'static str),
    /// The address of the named `int` parameter, which the kernel reads
    /// during the call (`nr_args` 1).
    Int(&'static str),
}

/// What the call passes as `nr_args`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nr {
    Fixed(u32),
    /// The named integer parameter, as an unsigned 32-bit number.
    Param(&'static str),
    /// The named `size_t` byte count; above `INT_MAX` the call fails with
    /// `EINVAL` before reaching the kernel, as liburing's does.
    ByteSize(&'static str),
}

/// What happens when the kernel refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    None,
    /// On `EMFILE`, the soft `RLIMIT_NOFILE` is raised by the named count
    /// and the call made once more (liburing's behaviour for file tables).
    RaiseFileLimit(&'static str),
}

/// One pass-through registration call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// The exported C function.
    pub name: &'static str,
    pub on: On,
    /// The parameters after `ring`: (name, Rust type as the boundary spells
    /// it).
    pub params: &'static [(&'static str, &'static str)],
    /// The `IORING_(UN)REGISTER_*` opcode.
    pub opcode: &'static str,
    pub arg: Arg,
    pub nr_args: Nr,
    pub retry: Retry,
    /// The function's documentation, in the boundary's doc-comment form
    /// (sections `# Arguments`, `# Errors`, ..., `# Safety`).
    pub doc: &'static str,
}

impl Call {
    /// The Rust type of parameter `name`; a row naming a parameter it does
    /// not have stops the generator.
    pub fn param_type(&self, name: &str) -> &'static str {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .unwrap_or_else(|| {
                crate::fail(&format!(
                    "register_calls: {} has no parameter `{name}`",
                    self.name
                ))
            })
    }
}

/// The kernel interface behind a generated function, for its page.
pub fn kernel_name(function: &str) -> Option<&'static str> {
    CALLS.iter().find(|c| c.name == function).map(|c| c.opcode)
}

#[cfg(test)]
mod tests;
