// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn every_row_names_parameters_it_has() {
    for c in CALLS {
        let named = [
            match c.arg {
                Arg::Pointer(p) | Arg::Int(p) => Some(p),
                Arg::None => None,
            },
            match c.nr_args {
                Nr::Param(p) | Nr::ByteSize(p) => Some(p),
                Nr::Fixed(_) => None,
            },
            match c.retry {
                Retry::RaiseFileLimit(p) => Some(p),
                Retry::None => None,
            },
        ];
        for p in named.into_iter().flatten() {
            assert!(c.params.iter().any(|(n, _)| *n == p), "{}: {p}", c.name);
        }
        assert!(c.opcode.starts_with("IORING_"), "{}", c.name);
        assert!(c.doc.contains("# Safety"), "{}: no # Safety", c.name);
        if let Arg::Int(_) = c.arg {
            assert_eq!(c.nr_args, Nr::Fixed(1), "{}", c.name);
        }
    }
}

#[test]
fn names_are_unique() {
    let mut names: Vec<&str> = CALLS.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CALLS.len());
}
