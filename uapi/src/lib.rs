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
//! Structures are declared once, with [`c_structs!`]: the `#[repr(C)]`
//! Rust struct and its C layout (every member's C type, offset and size,
//! computed and checked at compile time on the target being built) come
//! from the same lines. C anonymous unions are flattened: one member of
//! each union is a plain Rust field at the union's offset, the others are
//! C-only lines of the declaration, and Rust reaches them through small
//! accessor methods (see [`io_uring_sqe`]). This keeps writing an SQE from
//! Rust a matter of plain assignments. The one exception is
//! `io_uring_bpf_ctx`, whose union members differ in shape: it is a Rust
//! `union` in a field named `args`.
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

/// Declares `#[repr(C)]` structures once, for Rust and for C: each field
/// carries its C type after `=>`, and the C-only parts (the other members
/// of an anonymous union, anonymous structs inside it) sit where C has
/// them. The macro emits the Rust struct (its `pub` fields, in order, with
/// their documentation) and implements [`CStruct`] with the C layout, whose
/// offsets, sizes and alignments are computed from the Rust types by C's
/// layout rules (so they hold on every target) and checked at compile time
/// against what rustc made of the struct: its size and alignment and the
/// offset of every Rust field. `TABLE` lists the structures C declares by
/// name, in order, for the header generator.
///
/// ```text
/// c_structs! {
///     pub(crate) static TABLE;
///     /// Becomes the struct's C comment (first paragraph).
///     #[derive(Clone, Copy, Debug, Default)]
///     pub struct io_uring_cqe {
///         /// Becomes the member's C comment.
///         pub user_data: u64 => "__u64",          // a Rust field and a C member
///         union {                                 // an anonymous C union
///             pub res: i32 => "__s32",            // the Rust field
///             res2: u32 => "__u32",               // C only: same bytes
///             struct { lo: u16 => "__u16", hi: u16 => "__u16", }
///         }
///         union packed { ... }                    // __attribute__((packed))
///         pub big_cqe: [u64; 0] => "__u64[]",     // flexible array (size 0)
///         pub args: some_union => anonymous,      // C: `union { ... };`
///         pub sock: some_struct => inline,        // C: `struct { ... } sock;`
///     }
///     /// Declared by the macro too, but spelled out only inline in C.
///     #[derive(Clone, Copy)]
///     anonymous pub union some_union { pub sock: some_struct => inline, ... }
/// }
/// ```
///
/// Documentation comes first, then at most one `derive`; every field line
/// ends with a comma. C-only lines name a Rust type only to size them.
/// A member is laid out as its Rust type: `__aligned_u64` members are
/// `u64`, so on i386, where C aligns them to 8, the four structures that
/// have one are 4-aligned here (as in Rust); their offsets and sizes agree.
macro_rules! c_structs {
    ($vis:vis static $table:ident; $($items:tt)*) => {
        $crate::uapi::c_structs!(@item [$vis $table] [] $($items)*);
    };

    // The structures, one at a time; `[...]` collects those C names.
    (@item [$vis:vis $table:ident] [$($name:ident)*]) => {
        /// The C layout of every named structure of this module, in order.
        $vis const $table: &[$crate::uapi::CLayout] =
            &[$(<$name as $crate::uapi::CStruct>::LAYOUT,)*];
    };
    (@item $cfg:tt [$($names:ident)*]
        $(#[doc = $d:literal])* $(#[derive($($der:path),* $(,)?)])?
        pub struct $name:ident { $($body:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust
            [$(#[doc = $d])* #[repr(C)] $(#[derive($($der),*)])? pub struct $name] [] $($body)*);
        $crate::uapi::c_structs!(@impl $name false [$($d),*] $($body)*);
        $crate::uapi::c_structs!(@item $cfg [$($names)* $name] $($rest)*);
    };
    (@item $cfg:tt [$($names:ident)*]
        $(#[doc = $d:literal])* $(#[derive($($der:path),* $(,)?)])?
        anonymous pub struct $name:ident { $($body:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust
            [$(#[doc = $d])* #[repr(C)] $(#[derive($($der),*)])? pub struct $name] [] $($body)*);
        $crate::uapi::c_structs!(@impl $name false [$($d),*] $($body)*);
        $crate::uapi::c_structs!(@item $cfg [$($names)*] $($rest)*);
    };
    (@item $cfg:tt [$($names:ident)*]
        $(#[doc = $d:literal])* $(#[derive($($der:path),* $(,)?)])?
        anonymous pub union $name:ident { $($body:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust
            [$(#[doc = $d])* #[repr(C)] $(#[derive($($der),*)])? pub union $name] [] $($body)*);
        $crate::uapi::c_structs!(@impl $name true [$($d),*] $($body)*);
        $crate::uapi::c_structs!(@item $cfg [$($names)*] $($rest)*);
    };

    // The Rust item: the `pub` fields, groups flattened, C-only lines dropped.
    (@rust [$($head:tt)*] [$($fields:tt)*]) => {
        $($head)* { $($fields)* }
    };
    (@rust $head:tt [$($fields:tt)*]
        $(#[doc = $d:literal])* pub $f:ident : $t:ty => $c:tt , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust $head [$($fields)* $(#[doc = $d])* pub $f: $t,] $($rest)*);
    };
    (@rust $head:tt $fields:tt
        $(#[doc = $d:literal])* union packed { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust $head $fields $($inner)* $($rest)*);
    };
    (@rust $head:tt $fields:tt
        $(#[doc = $d:literal])* union { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust $head $fields $($inner)* $($rest)*);
    };
    (@rust $head:tt $fields:tt
        $(#[doc = $d:literal])* struct { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust $head $fields $($inner)* $($rest)*);
    };
    (@rust $head:tt $fields:tt
        $(#[doc = $d:literal])* $f:ident : $t:ty => $c:literal , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@rust $head $fields $($rest)*);
    };

    // The C layout, computed, and its checks against the Rust struct.
    (@impl $name:ident $union:literal [$($d:literal),*] $($body:tt)*) => {
        impl $crate::uapi::CStruct for $name {
            const LAYOUT: $crate::uapi::CLayout = {
                const DECLS: &[$crate::uapi::Decl] =
                    $crate::uapi::c_structs!(@decls $name [] $($body)*);
                const LAID: $crate::uapi::Laid<{ DECLS.len() }> =
                    $crate::uapi::lay_out(DECLS, $union);
                const ITEMS: [$crate::uapi::CItem; DECLS.len()] = LAID.items;
                $crate::uapi::CLayout {
                    name: stringify!($name),
                    doc: &[$($d),*],
                    union: $union,
                    size: LAID.size,
                    align: LAID.align,
                    items: &ITEMS,
                }
            };
        }
        const _: () = $crate::uapi::check_layout(
            &<$name as $crate::uapi::CStruct>::LAYOUT,
            ::core::mem::size_of::<$name>(),
            ::core::mem::align_of::<$name>(),
        );
    };

    // The C members in order, as declarations to lay out.
    (@decls $s:ident [$($out:tt)*]) => { &[$($out)*] };
    (@decls $s:ident [$($out:tt)*] @close $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Close,] $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* pub $f:ident : $t:ty => inline , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Inline {
            name: Some($crate::uapi::c_name(stringify!($f))),
            layout: &<$t as $crate::uapi::CStruct>::LAYOUT,
            doc: &[$($d),*],
            rust: ::core::mem::offset_of!($s, $f),
        },] $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* pub $f:ident : $t:ty => anonymous , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Inline {
            name: None,
            layout: &<$t as $crate::uapi::CStruct>::LAYOUT,
            doc: &[$($d),*],
            rust: ::core::mem::offset_of!($s, $f),
        },] $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* pub $f:ident : $t:ty => $c:literal , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Member {
            name: $crate::uapi::c_name(stringify!($f)),
            cty: $c,
            size: ::core::mem::size_of::<$t>(),
            align: ::core::mem::align_of::<$t>(),
            doc: &[$($d),*],
            rust: Some(::core::mem::offset_of!($s, $f)),
        },] $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* union packed { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Open {
            union: true, packed: true, doc: &[$($d),*],
        },] $($inner)* @close $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* union { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Open {
            union: true, packed: false, doc: &[$($d),*],
        },] $($inner)* @close $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* struct { $($inner:tt)* } $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Open {
            union: false, packed: false, doc: &[$($d),*],
        },] $($inner)* @close $($rest)*)
    };
    (@decls $s:ident [$($out:tt)*]
        $(#[doc = $d:literal])* $f:ident : $t:ty => $c:literal , $($rest:tt)*) => {
        $crate::uapi::c_structs!(@decls $s [$($out)* $crate::uapi::Decl::Member {
            name: $crate::uapi::c_name(stringify!($f)),
            cty: $c,
            size: ::core::mem::size_of::<$t>(),
            align: ::core::mem::align_of::<$t>(),
            doc: &[$($d),*],
            rust: None,
        },] $($rest)*)
    };
}
pub(crate) use c_structs;

/// A structure declared with [`c_structs!`]: its C layout.
pub trait CStruct {
    const LAYOUT: CLayout;
}

/// One line of a [`c_structs!`] declaration, before layout.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Decl {
    /// A C member of size and alignment those of its Rust type; `rust`:
    /// the Rust field's offset, for `pub` lines.
    Member {
        name: &'static str,
        cty: &'static str,
        size: usize,
        align: usize,
        doc: &'static [&'static str],
        rust: Option<usize>,
    },
    /// A Rust field whose type C spells inline (`None`: an anonymous member).
    Inline {
        name: Option<&'static str>,
        layout: &'static CLayout,
        doc: &'static [&'static str],
        rust: usize,
    },
    Open {
        union: bool,
        packed: bool,
        doc: &'static [&'static str],
    },
    Close,
}

/// A laid-out declaration: the members with their offsets, and the size
/// and alignment of the whole.
#[doc(hidden)]
pub struct Laid<const N: usize> {
    pub items: [CItem; N],
    pub size: usize,
    pub align: usize,
}

/// The C name of a Rust field (`r#type` is C's `type`).
pub(crate) const fn c_name(rust: &'static str) -> &'static str {
    match rust.as_bytes() {
        [b'r', b'#', rest @ ..] => match core::str::from_utf8(rest) {
            Ok(name) => name,
            Err(_) => panic!("a field name is UTF-8"),
        },
        _ => rust,
    }
}

const fn align_up(offset: usize, align: usize) -> usize {
    offset.div_ceil(align) * align
}

/// The alignment of the members from `decls[i]` up to the `Close` of the
/// group they are in (or the end), and the index after that `Close`.
/// Members of a packed group count as aligned to 1.
const fn group_align(decls: &[Decl], mut i: usize) -> (usize, usize) {
    let mut align = 1;
    while i < decls.len() {
        let a = match decls[i] {
            Decl::Close => return (align, i + 1),
            Decl::Open { packed, .. } => {
                let (inner, next) = group_align(decls, i + 1);
                i = next;
                if packed {
                    1
                } else {
                    inner
                }
            }
            Decl::Member { align, .. } => {
                i += 1;
                align
            }
            Decl::Inline { layout, .. } => {
                i += 1;
                layout.align
            }
        };
        if a > align {
            align = a;
        }
    }
    (align, i)
}

/// An open struct or union while laying out: where it starts, where its
/// next member goes (structs) and where it ends so far.
#[derive(Clone, Copy)]
struct Frame {
    union: bool,
    align: usize,
    start: usize,
    end: usize,
}

/// Places a member of `size` and `align` in `f` and returns its offset.
const fn place(f: &mut Frame, size: usize, align: usize) -> usize {
    let offset = if f.union {
        f.start
    } else {
        align_up(f.end, align)
    };
    if offset + size > f.end {
        f.end = offset + size;
    }
    offset
}

/// Lays out `decls` as C does (each member at the next multiple of its
/// alignment in a struct, at the start in a union; an aggregate aligned as
/// its most aligned member and padded to a multiple of that).
pub const fn lay_out<const N: usize>(decls: &[Decl], union: bool) -> Laid<N> {
    assert!(decls.len() == N);
    let mut items = [CItem::Close; N];
    let (align, _) = group_align(decls, 0);
    let mut stack = [Frame {
        union,
        align,
        start: 0,
        end: 0,
    }; 8];
    let mut depth = 0;
    let mut i = 0;
    while i < N {
        items[i] = match decls[i] {
            Decl::Member {
                name,
                cty,
                size,
                align,
                doc,
                rust,
            } => CItem::Member(CMember {
                name,
                cty,
                offset: place(&mut stack[depth], size, align),
                size,
                doc,
                rust,
            }),
            Decl::Inline {
                name,
                layout,
                doc,
                rust,
            } => CItem::Inline(CInline {
                name,
                offset: place(&mut stack[depth], layout.size, layout.align),
                doc,
                layout,
                rust,
            }),
            Decl::Open { union, packed, doc } => {
                assert!(union || !packed, "only unions are declared packed");
                let (inner, _) = group_align(decls, i + 1);
                let align = if packed { 1 } else { inner };
                let start = place(&mut stack[depth], 0, align);
                depth += 1;
                assert!(depth < stack.len(), "groups nest too deep");
                stack[depth] = Frame {
                    union,
                    align,
                    start,
                    end: start,
                };
                CItem::Open(CAggregate { union, packed, doc })
            }
            Decl::Close => {
                let f = stack[depth];
                depth -= 1;
                let size = align_up(f.end - f.start, f.align);
                let start = place(&mut stack[depth], size, f.align);
                assert!(start == f.start);
                CItem::Close
            }
        };
        i += 1;
    }
    assert!(depth == 0, "unbalanced groups");
    Laid {
        items,
        size: align_up(stack[0].end, align),
        align,
    }
}

/// Compile-time check that rustc laid the Rust struct out as C lays out
/// its declaration: size, alignment and the offset of every Rust field (a
/// mismatch fails the build).
#[doc(hidden)]
pub const fn check_layout(layout: &CLayout, size: usize, align: usize) {
    assert!(layout.size == size, "Rust size differs from C's");
    assert!(layout.align == align, "Rust alignment differs from C's");
    let mut i = 0;
    while i < layout.items.len() {
        let (offset, rust) = match layout.items[i] {
            CItem::Member(m) => (m.offset, m.rust),
            CItem::Inline(m) => (m.offset, Some(m.rust)),
            _ => (0, None),
        };
        if let Some(rust) = rust {
            assert!(rust == offset, "Rust field offset differs from C's");
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
/// flexible or zero-length array), documentation, and for members that
/// are Rust fields the Rust offset (equal to `offset`: checked).
#[derive(Clone, Copy, Debug)]
pub struct CMember {
    pub name: &'static str,
    pub cty: &'static str,
    pub offset: usize,
    pub size: usize,
    pub doc: &'static [&'static str],
    pub rust: Option<usize>,
}

/// A Rust field whose type C spells inline: `struct { ... } name;`, or
/// with no name an anonymous member whose own members the enclosing
/// structure has (`union { ... };`). The inner layout's offsets are
/// relative to `offset`.
#[derive(Clone, Copy, Debug)]
pub struct CInline {
    pub name: Option<&'static str>,
    pub offset: usize,
    pub doc: &'static [&'static str],
    pub layout: &'static CLayout,
    pub rust: usize,
}

/// An anonymous union or struct inside a structure.
#[derive(Clone, Copy, Debug)]
pub struct CAggregate {
    pub union: bool,
    pub packed: bool,
    pub doc: &'static [&'static str],
}

/// The members of a structure in C order, nesting flattened into
/// open/close markers.
#[derive(Clone, Copy, Debug)]
pub enum CItem {
    Member(CMember),
    Inline(CInline),
    Open(CAggregate),
    Close,
}

/// Whether two strings are equal (`==` is not `const` for `str`).
pub(crate) const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl CLayout {
    /// The offset of C member `name`, a member of this structure or of its
    /// anonymous unions and structs (not of a type spelled inline).
    pub const fn offset_of(&self, name: &str) -> Option<usize> {
        let mut i = 0;
        while i < self.items.len() {
            if let CItem::Member(m) = &self.items[i] {
                if same_str(m.name, name) {
                    return Some(m.offset);
                }
            }
            i += 1;
        }
        None
    }
}

/// One C structure (`struct <name>`, or a union when `union`): its
/// documentation, size, alignment and members, on the target being built.
#[derive(Clone, Copy, Debug)]
pub struct CLayout {
    pub name: &'static str,
    pub doc: &'static [&'static str],
    pub union: bool,
    pub size: usize,
    pub align: usize,
    pub items: &'static [CItem],
}

mod asan_checked;
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
pub mod op_flag_groups;
pub mod releases;
pub mod ring_types;
pub mod version;

pub use asan_checked::*;
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
/// (where the generator reads the module's `//!` documentation) and its
/// tables.
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
