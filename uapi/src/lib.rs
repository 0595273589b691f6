// SPDX-License-Identifier: MIT
//! The io_uring kernel ABI: every structure and constant of liburing 2.15's
//! `liburing/io_uring.h`, `liburing/io_uring/query.h` and
//! `liburing/io_uring/bpf_filter.h`, under their exact C names, one module
//! per concern, plus liburing's own public structs ([`ring_types`]) and
//! its API version ([`version`]). These modules are the single source of
//! those headers: the generator tool (`tools/gen`) writes them from the
//! tables below. The crate depends on nothing, so the library, the
//! generator and `uring-info` all read the same declarations.
//!
//! Structures are `#[repr(C)]` and pinned to their C layout by the
//! [`c_layout!`] tables (size, alignment, and offset and size of every
//! field, checked at compile time for the target being built: see
//! [`target_align`]). C anonymous unions are flattened: the
//! first member of each union is a plain Rust field at the union's offset,
//! and the other members are reached through small accessor methods (see
//! [`io_uring_sqe`]). This keeps writing an SQE from Rust a matter of plain
//! assignments. The one exception is `io_uring_bpf_ctx`, whose union members
//! differ in shape: it is a Rust `union` in a field named `args`.
//!
//! Constants carry the Rust type of the field they are stored in: setup,
//! enter, feature, register-opcode and CQE flags are `u32`, SQE flags `u8`,
//! opcodes `u8`, mmap offsets `u64`, and so on. Their C type is a separate
//! fact, given per group in [`c_consts!`].
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![allow(non_camel_case_types, non_upper_case_globals)]

// The declaration macros name their helpers as `$crate::uapi::...`, the
// path they had while this crate was a module of the library; the alias
// keeps that path valid here.
#[doc(hidden)]
pub use crate as uapi;

/// Declares constants in groups and a table of them: the header generator
/// and the C checks read it in test builds, and [`names`]
/// (LIBURING_DEBUG / LIBURING_TRACE, `uring-info`) turns values back into
/// names from it, so no second list of names exists. An unused table costs
/// nothing: it is a `const`, emitted only where read.
///
/// ```text
/// c_consts! {
///     pub(crate) static TABLE;
///     /// What the group is (becomes the C comment).
///     macros(unsigned): u32 {
///         /// What this one means.
///         NAME = 1 << 3;
///     }
///     enum io_uring_op: u8 { NAME = 0; ... }   // a named C enum
///     enum: u32 { NAME = 1; ... }              // an anonymous C enum
/// }
/// ```
///
/// `macros(T)` are `#define`s whose value has the C type `T` (`int`,
/// `unsigned` or `ull`); the generator spells their literals with the
/// matching suffix, so `#ifdef NAME` works and `NAME` has the same C type
/// as in liburing. Enumerators of one `enum` block are members of one C
/// enum.
macro_rules! c_consts {
    (
        $vis:vis static $table:ident;
        $( $(#[doc = $gdoc:literal])* $kind:ident $(($cty:ident))? $($ename:ident)? : $ty:ty {
            $( $(#[doc = $doc:literal])* $name:ident = $val:expr ; )*
        } )*
    ) => {
        $($( $(#[doc = $doc])* pub const $name: $ty = $val; )*)*

        /// Every constant of this module, grouped as the C header shows it.
                $vis const $table: &[$crate::uapi::CGroup] = &[
            $( $crate::uapi::CGroup {
                kind: $crate::uapi::c_consts!(@kind $kind $(($cty))? $($ename)?),
                doc: &[$($gdoc),*],
                consts: &[
                    $( $crate::uapi::CConst {
                        name: stringify!($name),
                        value: $name as i128,
                        expr: stringify!($val),
                        doc: &[$($doc),*],
                    }, )*
                ],
            }, )*
        ];
    };
    (@kind macros (int)) => { $crate::uapi::CGroupKind::Macros($crate::uapi::CType::Int) };
    (@kind macros (unsigned)) => { $crate::uapi::CGroupKind::Macros($crate::uapi::CType::UInt) };
    (@kind macros (ull)) => { $crate::uapi::CGroupKind::Macros($crate::uapi::CType::ULongLong) };
    (@kind enum) => { $crate::uapi::CGroupKind::Enum(None) };
    (@kind enum $ename:ident) => { $crate::uapi::CGroupKind::Enum(Some(stringify!($ename))) };
}
#[allow(unused_imports)] // sibling modules use it by textual scope
pub(crate) use c_consts;

/// Declares the C layout of `#[repr(C)]` structures: every C member with
/// its C type, offset and size, in C order, including anonymous unions and
/// structs. Members marked `pub` are also fields of the Rust struct; their
/// Rust offset and size are checked against the table at compile time,
/// together with each struct's size and alignment.
///
/// ```text
/// c_layout! {
///     pub(crate) static TABLE;
///     io_uring_cqe (16, 8) {
///         pub user_data: "__u64" @ 0, 8;
///         union { pub a: "__u32" @ 8, 4; b: "__s32" @ 8, 4; }
///         union packed { ... }          // __attribute__((packed))
///         struct { x: "__u16" @ 10, 2; }  // anonymous struct
///         struct name { ... }            // member `name` of anonymous struct type
///         pub tail: "__u64[]" @ 16, 0;   // flexible array (size 0)
///     }
/// }
/// ```
///
/// C-only members may carry their own `///` comment; `pub` members take
/// the Rust field's documentation in the generated header.
macro_rules! c_layout {
    (
        $vis:vis static $table:ident;
        $( $sname:ident ($size:expr, $align:expr) { $($body:tt)* } )*
    ) => {
        $(
            const _: () = assert!(::core::mem::size_of::<$sname>() == $size);
            const _: () = assert!(::core::mem::align_of::<$sname>() == $crate::uapi::target_align($align));
        )*

        /// The layout of every structure of this module, as C sees it.
        $vis const $table: &[$crate::uapi::CLayout] = &[
            $( $crate::uapi::CLayout {
                name: stringify!($sname),
                size: $size,
                align: $crate::uapi::target_align($align),
                items: $crate::uapi::c_layout!(@items $sname [] $($body)*),
            }, )*
        ];
        const _: () = $crate::uapi::check_rust_fields($table);
    };
    (@items $s:ident [$($out:tt)*]) => { &[$($out)*] };
    (@items $s:ident [$($out:tt)*] @end $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Close,] $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* pub $f:ident : $c:literal @ $o:expr , $z:expr ; $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Member($crate::uapi::CMember {
            name: stringify!($f), cty: $c, offset: $o, size: $z, doc: &[$($d),*],
            rust: Some((::core::mem::offset_of!($s, $f), $crate::uapi::field_size(|v: &$s| &v.$f))),
        }),] $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* union packed { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Open($crate::uapi::CAggregate {
            union: true, packed: true, name: None, doc: &[$($d),*] }),] $($inner)* @end $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* union { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Open($crate::uapi::CAggregate {
            union: true, packed: false, name: None, doc: &[$($d),*] }),] $($inner)* @end $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* struct { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Open($crate::uapi::CAggregate {
            union: false, packed: false, name: None, doc: &[$($d),*] }),] $($inner)* @end $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* struct $n:ident { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Open($crate::uapi::CAggregate {
            union: false, packed: false, name: Some(stringify!($n)), doc: &[$($d),*] }),] $($inner)* @end $($rest)*)
    };
    (@items $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* $f:ident : $c:literal @ $o:expr , $z:expr ; $($rest:tt)*) => {
        $crate::uapi::c_layout!(@items $s [$($out)* $crate::uapi::CItem::Member($crate::uapi::CMember {
            name: stringify!($f), cty: $c, offset: $o, size: $z, doc: &[$($d),*], rust: None,
        }),] $($rest)*)
    };
}
pub(crate) use c_layout;

/// The alignment C gives, on the target being built, a structure whose
/// table states `lp64` (its alignment on x86-64): members of up to 8 bytes
/// align naturally there, and where the target aligns `__u64` less (i386:
/// 4) so does every structure that is aligned by one. Pointers and `size_t`
/// never align beyond `__u64`, so tables of pointer-holding structs that
/// state the pointer size (see `crate::structs`) hold everywhere too.
pub(crate) const fn target_align(lp64: usize) -> usize {
    let u64_align = core::mem::align_of::<u64>();
    if lp64 > u64_align {
        u64_align
    } else {
        lp64
    }
}

/// The size of the field a projection closure points at (used by
/// [`c_layout!`]; the closure is never called).
pub(crate) const fn field_size<T, F>(_projection: fn(&T) -> &F) -> usize {
    core::mem::size_of::<F>()
}

/// Compile-time check that every Rust field listed in a layout table sits
/// where the table says (a mismatch fails the build).
pub(crate) const fn check_rust_fields(layouts: &[CLayout]) {
    let mut i = 0;
    while i < layouts.len() {
        let items = layouts[i].items;
        let mut j = 0;
        while j < items.len() {
            if let CItem::Member(m) = &items[j] {
                if let Some((offset, size)) = m.rust {
                    assert!(
                        offset == m.offset,
                        "Rust field offset differs from the table"
                    );
                    assert!(size == m.size, "Rust field size differs from the table");
                }
            }
            j += 1;
        }
        i += 1;
    }
}

/// The C type of a `#define`d constant, which decides its literal suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    /// `int`: no suffix.
    Int,
    /// `unsigned int`: `U`.
    UInt,
    /// `unsigned long long`: `ULL`.
    ULongLong,
}

/// Whether a group of constants is a set of macros or a C enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CGroupKind {
    /// `#define`s of the given C type.
    Macros(CType),
    /// Enumerators of `enum NAME` (or of an anonymous enum).
    Enum(Option<&'static str>),
}

/// One constant: its C name, value, the Rust expression that defines it
/// (from which the C spelling is derived) and its documentation.
#[derive(Clone, Copy, Debug)]
pub struct CConst {
    pub name: &'static str,
    pub value: i128,
    pub expr: &'static str,
    pub doc: &'static [&'static str],
}

/// A group of constants that the C header shows together.
#[derive(Clone, Copy, Debug)]
pub struct CGroup {
    pub kind: CGroupKind,
    pub doc: &'static [&'static str],
    pub consts: &'static [CConst],
}

/// One C member: name, C type (`"__u32"`, `"__u32[3]"`, `"__u64[]"`,
/// `"struct io_cqring_offsets"`, `"unsigned *"`), offset and size (0:
/// flexible or zero-length array), its own documentation, and for members
/// that are Rust fields the Rust offset and size.
#[derive(Clone, Copy, Debug)]
pub struct CMember {
    pub name: &'static str,
    pub cty: &'static str,
    pub offset: usize,
    pub size: usize,
    pub doc: &'static [&'static str],
    pub rust: Option<(usize, usize)>,
}

/// An anonymous union or struct inside a structure (`name`: the member
/// it declares, for `struct { ... } name;`).
#[derive(Clone, Copy, Debug)]
pub struct CAggregate {
    pub union: bool,
    pub packed: bool,
    pub name: Option<&'static str>,
    pub doc: &'static [&'static str],
}

/// The members of a structure in C order, nesting flattened into
/// open/close markers.
#[derive(Clone, Copy, Debug)]
pub enum CItem {
    Member(CMember),
    Open(CAggregate),
    Close,
}

/// One C structure (`struct <name>`): size, alignment and members.
#[derive(Clone, Copy, Debug)]
pub struct CLayout {
    pub name: &'static str,
    pub size: usize,
    pub align: usize,
    pub items: &'static [CItem],
}

mod bpf_filter;
mod buffers;
mod cqe;
mod enter;
mod kernel_types;
mod opcodes;
mod query;
mod register;
mod setup;
mod sqe;
mod zcrx;

pub mod names;
pub mod releases;
pub mod ring_types;
pub mod version;

pub use bpf_filter::*;
pub use buffers::*;
pub use cqe::*;
pub use enter::*;
pub use kernel_types::*;
pub use opcodes::*;
pub use query::*;
pub use register::*;
pub use setup::*;
pub use sqe::*;
pub use zcrx::*;

/// Every constant group of the ABI, for name lookups at run time.
pub const CONST_TABLES: &[&[CGroup]] = &[
    setup::CONSTS,
    sqe::CONSTS,
    opcodes::CONSTS,
    cqe::CONSTS,
    enter::CONSTS,
    register::CONSTS,
    buffers::CONSTS,
    zcrx::CONSTS,
    query::CONSTS,
    bpf_filter::CONSTS,
];

/// One module of the ABI as the header generator sees it: its source file
/// (where the generator reads the documentation of structs and fields) and
/// its tables.
pub struct CModule {
    /// The source path, relative to the repository.
    pub file: &'static str,
    pub consts: &'static [CGroup],
    pub layouts: &'static [CLayout],
}

macro_rules! c_module {
    ($file:literal, $m:ident) => {
        CModule {
            file: concat!("uapi/src/", $file),
            consts: $m::CONSTS,
            layouts: $m::LAYOUTS,
        }
    };
}

/// The modules of `liburing/io_uring.h`, in the order the header shows them.
pub const IO_URING_H: &[CModule] = &[
    c_module!("setup.rs", setup),
    c_module!("sqe.rs", sqe),
    c_module!("opcodes.rs", opcodes),
    c_module!("cqe.rs", cqe),
    c_module!("enter.rs", enter),
    c_module!("register.rs", register),
    c_module!("buffers.rs", buffers),
    c_module!("zcrx.rs", zcrx),
];

/// `liburing/io_uring/query.h`.
pub const QUERY_H: &[CModule] = &[c_module!("query.rs", query)];

/// `liburing/io_uring/bpf_filter.h`.
pub const BPF_FILTER_H: &[CModule] = &[c_module!("bpf_filter.rs", bpf_filter)];

/// Types that io_uring.h takes from other kernel headers; the generated
/// `liburing/compat.h` defines them when the system's headers lack them.
pub const KERNEL_TYPES: CModule = c_module!("kernel_types.rs", kernel_types);

/// liburing's own structs (`liburing/ring_types.h`).
pub const RING_TYPES: CModule = CModule {
    file: "uapi/src/ring_types.rs",
    consts: &[],
    layouts: ring_types::LAYOUTS,
};
