// SPDX-License-Identifier: MIT
//! Names for io_uring numbers: opcodes, flags, features and register
//! opcodes, looked up in [`CONST_TABLES`] (the tables the C headers are
//! written from and checked against), so a constant added to a table is
//! named here with no second list. `LIBURING_TRACE`, `LIBURING_DEBUG` and
//! `uring-info` all name values through this module. (errno names depend on
//! the target's C library, so they live with the system facts in
//! `uring-sysinfo`.)

use crate::{CConst, CGroupKind, CONST_TABLES};

/// Every constant of the uapi tables in table order, with whether C
/// defines it as a macro (`true`) or an enumerator.
fn all_consts() -> impl Iterator<Item = (bool, &'static CConst)> {
    CONST_TABLES
        .iter()
        .flat_map(|groups| groups.iter())
        .flat_map(|g| {
            let is_macro = matches!(g.kind, CGroupKind::Macros(_));
            g.consts.iter().map(move |c| (is_macro, c))
        })
}

/// One family of constants in the uapi table: a name prefix, and whether
/// its members are `#define`s (flags) or enumerators (opcodes).
#[derive(Clone, Copy)]
pub struct Family {
    prefixes: &'static [&'static str],
    is_macro: bool,
}

/// `IORING_OP_*`, shown without the prefix.
pub const OPCODE: Family = Family {
    prefixes: &["IORING_OP_"],
    is_macro: false,
};
/// `IOSQE_*` (the flag values, not the `_BIT` numbers).
pub const SQE_FLAG: Family = Family {
    prefixes: &["IOSQE_"],
    is_macro: true,
};
/// `IORING_SETUP_*`.
pub const SETUP_FLAG: Family = Family {
    prefixes: &["IORING_SETUP_"],
    is_macro: true,
};
/// `IORING_CQE_F_*`.
pub const CQE_FLAG: Family = Family {
    prefixes: &["IORING_CQE_F_"],
    is_macro: true,
};
/// `IORING_FEAT_*`.
pub const FEATURE: Family = Family {
    prefixes: &["IORING_FEAT_"],
    is_macro: true,
};
/// `IORING_REGISTER_*` and `IORING_UNREGISTER_*` opcodes.
pub const REGISTER_OP: Family = Family {
    prefixes: &["IORING_REGISTER_", "IORING_UNREGISTER_"],
    is_macro: false,
};

/// Table entries that share a family's prefix but are not members: bounds
/// (`*_LAST`) and modifiers OR-ed into an opcode.
fn is_marker(name: &str) -> bool {
    name.ends_with("_LAST")
        || name.ends_with("_MASK")
        || name.ends_with("_SHIFT")
        || name == "IORING_REGISTER_USE_REGISTERED_RING"
}

/// The family member `c` names, if it is one: its name without the prefix.
fn member(family: Family, (is_macro, c): (bool, &CConst)) -> Option<&'static str> {
    if is_macro != family.is_macro || is_marker(c.name) {
        return None;
    }
    family.prefixes.iter().find_map(|p| c.name.strip_prefix(p))
}

/// The full C name of `value` in `family` (the first in table order).
pub fn full_name(family: Family, value: u64) -> Option<&'static str> {
    all_consts()
        .find(|&e| e.1.value == i128::from(value) && member(family, e).is_some())
        .map(|(_, c)| c.name)
}

/// The short name (prefix dropped) of `value` in `family`.
pub fn short_name(family: Family, value: u64) -> Option<&'static str> {
    all_consts()
        .filter(|e| e.1.value == i128::from(value))
        .find_map(|e| member(family, e))
}

/// Every member of `family` in table order: (short name, value). A value
/// is listed once, under its first name (later enumerators that share the
/// prefix and a value, such as `IORING_REGISTER_SRC_REGISTERED`, belong to
/// other fields).
pub fn members(family: Family) -> impl Iterator<Item = (&'static str, u64)> {
    all_consts().enumerate().filter_map(move |(i, e)| {
        let name = member(family, e)?;
        let repeated = all_consts()
            .take(i)
            .any(|earlier| earlier.1.value == e.1.value && member(family, earlier).is_some());
        (!repeated).then_some((name, e.1.value as u64))
    })
}

/// Calls `out` with the short name of each set bit of `bits` (single-bit
/// members of `family`), then with `None` and the bits left without a name.
pub fn for_each_flag(family: Family, bits: u64, mut out: impl FnMut(Option<&'static str>, u64)) {
    let mut rest = bits;
    for bit in 0..64 {
        let v = 1u64 << bit;
        if bits & v != 0 {
            if let Some(n) = short_name(family, v) {
                out(Some(n), v);
                rest &= !v;
            }
        }
    }
    if rest != 0 {
        out(None, rest);
    }
}

#[cfg(test)]
mod tests;
