// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn docs_are_found_and_made_plain() {
    let src =
        "// SPDX-License-Identifier: MIT\n//! Top.\n//! More.\n\n/// A struct.\npub struct s;\n";
    let d = read(src).expect("valid Rust");
    assert_eq!(d.module, ["Top.", "More."]);
    assert_eq!(
        summary(&["A [`thing`](super::x).", "", "Rust only."]),
        "A thing."
    );
    assert_eq!(summary(&["The `a`."]), "The a.");
}
