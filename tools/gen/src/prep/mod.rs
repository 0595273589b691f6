// SPDX-License-Identifier: MIT
//! The `io_uring_prep_*` helpers as data.
//!
//! Every helper that fills a submission queue entry is one row of
//! [`table::HELPERS`]: its C parameters, the SQE fields it stores and what it
//! is for. A helper may extend another one (its *base*): it then stores what
//! the base stores, with some base parameters bound to fixed values, and adds
//! or replaces stores of its own. [`generate`] turns the table into
//! `include/liburing/prep.h` (`make headers`; `make check-headers` fails when
//! it is stale), where each helper is a flat list of field stores, so the
//! inline code is what a hand-written helper would compile to. The same table
//! feeds the helpers' reference pages (`crate::man`).

pub(crate) mod generate;
mod sqe_fields;
pub(crate) mod table;

/// One C parameter of a helper.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The C type, spelled as in the prototype (`"const struct iovec *"`).
    pub ty: &'static str,
    pub name: &'static str,
    /// What the caller passes, for the reference page; empty when the name
    /// and the helper's description say it all.
    pub meaning: &'static str,
}

/// A parameter with no further explanation.
pub const fn p(ty: &'static str, name: &'static str) -> Param {
    Param {
        ty,
        name,
        meaning: "",
    }
}

/// A parameter with an explanation.
pub const fn pm(ty: &'static str, name: &'static str, meaning: &'static str) -> Param {
    Param { ty, name, meaning }
}

/// One store into the SQE: `sqe-><field> = <value>` or, for `or`,
/// `sqe-><field> |= <value>` (the bits are added to what the field holds).
/// `value` is a C expression over the helper's parameters; the generator adds
/// the conversion to the field's type.
#[derive(Clone, Copy, Debug)]
pub struct Store {
    pub field: &'static str,
    pub value: &'static str,
    pub or: bool,
}

pub const fn set(field: &'static str, value: &'static str) -> Store {
    Store {
        field,
        value,
        or: false,
    }
}

pub const fn or(field: &'static str, value: &'static str) -> Store {
    Store {
        field,
        value,
        or: true,
    }
}

/// The helper a helper extends, and the values given to those of its
/// parameters that the extending helper does not have under the same name.
#[derive(Clone, Copy, Debug)]
pub struct Base {
    pub name: &'static str,
    pub bind: &'static [(&'static str, &'static str)],
}

/// One inline SQE helper.
#[derive(Clone, Copy, Debug)]
pub struct Helper {
    pub name: &'static str,
    /// What the prepared request does, in one or two sentences.
    pub about: &'static str,
    /// Parameters after `struct io_uring_sqe *sqe`, which every helper takes
    /// first (io_uring_prep_rw lists its own order, see `sqe_not_first`).
    pub params: &'static [Param],
    pub base: Option<Base>,
    /// Stores done after the base's (replacing any that they overwrite).
    pub stores: &'static [Store],
    /// A macro the helper is defined under only (`_GNU_SOURCE` for `loff_t`).
    pub only_if: Option<&'static str>,
    /// The SQE pointer is the second parameter, after `int op`.
    pub sqe_not_first: bool,
    /// More of the page's NOTES (prose; `[check: NAME]` ties a claim to a
    /// case of man/checks/claims.c), before the generated notes.
    pub notes: &'static str,
    /// Set for a helper no liburing release has yet: it is `static inline`
    /// in the header only, and liburing-ffi neither builds nor exports it
    /// (so liburing 2.15's symbols stay as they are) until liburing releases
    /// one under the same name.
    pub ahead: Option<Ahead>,
}

/// What the page of a helper ahead of liburing says about the kernel side.
#[derive(Clone, Copy, Debug)]
pub struct Ahead {
    /// The kernel interface the helper sets, as the page names it.
    pub feature: &'static str,
    /// The Linux release that added it.
    pub kernel: (u32, u32),
    /// A name of the uapi release table added in that same release, which a
    /// unit test holds `kernel` to.
    pub release_of: Option<&'static str>,
}
