// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn only_exported_c_functions_with_their_doc_lines() {
    let src = "// SPDX-License-Identifier: MIT\n\
               /// Does it.\n///\n///     indented\n/// # Errors  \n#[no_mangle]\n\
               pub unsafe extern \"C\" fn io_uring_a(x: i32) -> i32 { x }\n\
               #[no_mangle]\npub extern \"C\" fn io_uring_b() {}\n\
               /// Rust only.\npub fn helper() {}\n\
               /// Not exported.\nextern \"C\" fn callback() {}\n";
    let found = exported(src).unwrap();
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["io_uring_a", "io_uring_b"]);
    assert_eq!(found[0].1, ["Does it.", "", "    indented", "# Errors"]);
    assert!(found[1].1.is_empty());
}
