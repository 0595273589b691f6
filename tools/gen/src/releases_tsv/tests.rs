// SPDX-License-Identifier: MIT
use std::collections::BTreeSet;

use uring_uapi::releases::rows;
use uring_uapi::{BPF_FILTER_H, IO_URING_H, QUERY_H};

/// Every constant the installed kernel interface headers declare.
fn header_constants() -> BTreeSet<&'static str> {
    IO_URING_H
        .iter()
        .chain(QUERY_H)
        .chain(BPF_FILTER_H)
        .flat_map(|m| m.consts)
        .flat_map(|g| g.consts)
        .map(|c| c.name)
        .collect()
}

#[test]
fn every_header_constant_has_a_release_row() {
    let listed: BTreeSet<&str> = rows().map(|r| r.name).collect();
    let missing: Vec<_> = header_constants().difference(&listed).copied().collect();
    assert!(
        missing.is_empty(),
        "no row in uapi/src/releases.rs: {missing:?}"
    );
}

#[test]
fn every_row_is_a_header_constant() {
    let declared = header_constants();
    let strays: Vec<&str> = rows()
        .map(|r| r.name)
        .filter(|n| !declared.contains(n))
        .collect();
    assert!(strays.is_empty(), "rows of no installed header: {strays:?}");
}

#[test]
fn one_line_per_row() {
    let text = super::generate();
    let lines = text.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(lines, rows().count());
    assert!(text
        .lines()
        .all(|l| l.starts_with('#') || l.split('\t').count() == 3));
}
