// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn imports_point_one_way_in_every_crate() {
    let g = graph(&crate::repo().join("core/src"));
    assert!(g["setup"].contains("geometry"), "{g:?}");
    assert!(!g["register"].contains("setup"), "register imports setup");
    assert!(!g["geometry"].contains("setup") && !g["geometry"].contains("register"));
    for dir in CRATES {
        let g = graph(&crate::repo().join(dir));
        assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{dir}");
    }
}
