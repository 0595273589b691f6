// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn every_opcode_has_a_row_in_code_order() {
    let opcodes: Vec<&str> = REQUEST_OPCODES
        .rows
        .iter()
        .filter(|r| r.since.is_some())
        .map(|r| r.name)
        .collect();
    let table: Vec<&str> = OPCODES.iter().map(|o| o.name).collect();
    assert_eq!(opcodes, table);
    let recv = find("IORING_OP_RECV").expect("a row for RECV");
    assert_eq!(recv.since, Some((5, 6)));
}

#[test]
fn one_row_per_name() {
    let mut names: Vec<&str> = rows().map(|r| r.name).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n);
}

#[test]
fn meanings_are_one_line() {
    for r in rows() {
        let text = r.text().to_string();
        assert!(!r.meaning.is_empty(), "{}", r.name);
        assert!(!text.contains(['\t', '\n']), "{}", r.name);
    }
}

#[test]
fn lookups_by_value() {
    assert_eq!(
        SETUP_FLAGS.since_of(IORING_SETUP_SQPOLL.into()),
        Some((5, 1))
    );
    let query = IORING_REGISTER_QUERY.into();
    assert_eq!(REGISTER_OPCODES.since_of(query), Some((6, 18)));
    // A sentinel has no release.
    let last = IORING_REGISTER_LAST.into();
    assert_eq!(REGISTER_OPCODES.since_of(last), None);
}
