// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn todays_tables_are_all_mapped() {
    assert!(unmapped(&exported_symbols()).is_empty());
}

#[test]
fn a_row_without_its_map_line_is_named() {
    let all = exported_symbols();
    let without: Vec<String> = all
        .iter()
        .filter(|n| n.as_str() != "io_uring_register_napi" && n.as_str() != "io_uring_prep_read")
        .cloned()
        .collect();
    assert_eq!(
        unmapped(&without),
        ["io_uring_register_napi", "io_uring_prep_read"]
    );
}
