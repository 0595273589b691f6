// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn every_opcode_is_listed_once() {
    let text = render().join("\n");
    for &(code, _) in ASAN_CHECKED {
        let name = opcode(code).map(|o| o.name).unwrap_or_default();
        let hits = text
            .split('\n')
            .filter(|l| {
                l.trim_start_matches(".BR ")
                    .trim_start_matches(".B ")
                    .trim_end_matches(" ,")
                    == name
            })
            .count();
        assert_eq!(hits, 1, "{name}");
    }
}
