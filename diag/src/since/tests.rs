// SPDX-License-Identifier: MIT
use super::super::names;
use super::*;

#[test]
fn every_setup_flag_has_a_release() {
    let mut n = 0;
    for (name, v) in names::members(names::SETUP_FLAG) {
        assert!(lookup(SETUP_FLAGS, v as u32).is_some(), "{name}");
        n += 1;
    }
    assert_eq!(n, SETUP_FLAGS.rows.len());
}

#[test]
fn every_register_opcode_has_a_release() {
    for (name, v) in names::members(names::REGISTER_OP) {
        assert!(lookup(REGISTER_OPS, v as u32).is_some(), "{name}");
    }
}
