//! The io_uring kernel ABI: every structure and constant of liburing 2.15's
//! `liburing/io_uring.h`, `liburing/io_uring/query.h` and
//! `liburing/io_uring/bpf_filter.h`, under their exact C names.
//!
//! Structures are `#[repr(C)]` and pinned to the x86-64 layout by free
//! `const` assertions (size, alignment, and offset and size of every field).
//! C anonymous unions are flattened: the first member of each union is a
//! plain Rust field at the union's offset, and the other members are reached
//! through small accessor methods (see [`io_uring_sqe`]). This keeps writing
//! an SQE from Rust a matter of plain assignments. The one exception is
//! `io_uring_bpf_ctx`, whose union members differ in shape: it is a Rust
//! `union` in a field named `args`.
//!
//! Constants carry the Rust type of the field they are stored in: setup,
//! enter, feature, register-opcode and CQE flags are `u32`, SQE flags `u8`,
//! opcodes `u8`, mmap offsets `u64`, and so on.
//!
//! Constants and layouts are declared through two macros that also build
//! tables (in test builds) from which `abi_check` generates C assertions
//! against the hand-written headers in `include/liburing/`.
#![forbid(unsafe_code)]
#![allow(non_camel_case_types, non_upper_case_globals)]

/// Declares constants and a table of them: the C check reads it in test
/// builds, and `diag::names` (LIBURING_DEBUG/LIBURING_TRACE, `uring-info`)
/// turns values back into names from it, so no second list of names exists.
/// An unused table costs nothing: it is a `const`, emitted only where read.
///
/// Each item reads `kind NAME: type = value;`, where `kind` is `define`
/// (a `#define` in C, so `#ifdef NAME` must work) or `enumerator` (an
/// enum member in C).
macro_rules! c_consts {
    (
        $vis:vis static $table:ident;
        $( $(#[$m:meta])* $kind:ident $name:ident : $ty:ty = $val:expr ; )*
    ) => {
        $( $(#[$m])* pub const $name: $ty = $val; )*

        /// Every constant of this module, as the C check and the name
        /// lookups see it.
        #[allow(dead_code)]
        $vis const $table: &[$crate::uapi::CConst] = &[
            $( $crate::uapi::CConst {
                name: stringify!($name),
                value: $name as i128,
                is_macro: $crate::uapi::c_kind!($kind),
            }, )*
        ];
    };
}
#[allow(unused_imports)] // for sibling modules (structs.rs) that add tables
pub(crate) use c_consts;

/// Maps a constant's kind marker to "is a preprocessor macro in C".
macro_rules! c_kind {
    (define) => {
        true
    };
    (enumerator) => {
        false
    };
}
#[allow(unused_imports)]
pub(crate) use c_kind;

/// Asserts the layout of `#[repr(C)]` structures and, in test builds,
/// tabulates it for the C check.
///
/// ```text
/// c_layout! {
///     pub(crate) static TABLE;
///     name (size, align) { rust_field: offset, size; ... }
///         + rust_only { rust_field: offset, size; ... }
///         + c_only { c.member.path: offset, size; ... }
/// }
/// ```
///
/// Every `rust_field` gets a Rust assertion of its offset and size and a C
/// assertion of the same numbers. `rust_only` fields (a Rust name for a C
/// anonymous union) are asserted in Rust only. `c_only` lists C members that
/// have no Rust field of their own (other members of a flattened union,
/// members of nested anonymous structs); they are checked on the C side only. A size of 0
/// marks a flexible array: C cannot take its `sizeof`, so only the offset is
/// compared.
macro_rules! c_layout {
    (
        $vis:vis static $table:ident;
        $(
            $sname:ident ($size:literal, $align:literal) {
                $( $field:ident : $off:literal , $fsize:literal ; )*
            }
            $( + rust_only { $( $rfield:ident : $roff:literal , $rsize:literal ; )* } )?
            $( + c_only { $( $($cpath:ident).+ : $coff:literal , $csize:literal ; )* } )?
        )*
    ) => {
        $(
            const _: () = assert!(::core::mem::size_of::<$sname>() == $size);
            const _: () = assert!(::core::mem::align_of::<$sname>() == $align);
            $(
                const _: () = assert!(::core::mem::offset_of!($sname, $field) == $off);
                const _: () = assert!($crate::uapi::field_size(|s: &$sname| &s.$field) == $fsize);
            )*
            $($(
                const _: () = assert!(::core::mem::offset_of!($sname, $rfield) == $roff);
                const _: () = assert!($crate::uapi::field_size(|s: &$sname| &s.$rfield) == $rsize);
            )*)?
        )*

        /// The layout of every structure of this module, as the C check sees it.
        #[cfg(test)]
        $vis const $table: &[$crate::uapi::CLayout] = &[
            $( $crate::uapi::CLayout {
                name: stringify!($sname),
                size: $size,
                align: $align,
                fields: &[
                    $( $crate::uapi::CField {
                        name: stringify!($field),
                        offset: $off,
                        size: $fsize,
                    }, )*
                    $($( $crate::uapi::CField {
                        name: stringify!($($cpath).+),
                        offset: $coff,
                        size: $csize,
                    }, )*)?
                ],
            }, )*
        ];
    };
}
#[allow(unused_imports)] // for sibling modules (structs.rs) that add tables
pub(crate) use c_layout;

/// The size of the field a projection closure points at (used by
/// [`c_layout!`]; the closure is never called).
pub(crate) const fn field_size<T, F>(_projection: fn(&T) -> &F) -> usize {
    core::mem::size_of::<F>()
}

/// One constant: its C name, value, and whether C defines it as a macro.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CConst {
    pub name: &'static str,
    pub value: i128,
    pub is_macro: bool,
}

/// One member of a C structure: its path, offset and size (0: unsized).
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct CField {
    pub name: &'static str,
    pub offset: usize,
    pub size: usize,
}

/// One C structure (`struct <name>`): size, alignment and members.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct CLayout {
    pub name: &'static str,
    pub size: usize,
    pub align: usize,
    pub fields: &'static [CField],
}

mod bpf_filter;
mod consts;
mod query;
mod types;

pub use bpf_filter::*;
pub use consts::*;
pub use query::*;
pub use types::*;

#[cfg(test)]
pub(crate) mod abi_check;
