// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn every_row_is_documented_once() {
    for r in INLINE {
        assert_eq!(
            INLINE.iter().filter(|o| o.name == r.name).count(),
            1,
            "{}",
            r.name
        );
        match r.alias_of {
            Some(a) => assert!(row(a).is_some_and(|p| p.alias_of.is_none()), "{}", r.name),
            None => assert!(r.about.len() > 10, "{}: describe it", r.name),
        }
        let is_macro = r.prototype.starts_with("#define ");
        assert_eq!(is_macro, r.kind == Macro, "{}", r.name);
        // An object-like macro's prototype is `#define NAME` alone.
        let object_like = r.prototype == format!("#define {}", r.name);
        assert!(
            object_like || r.prototype.contains(&format!("{}(", r.name)),
            "{}",
            r.name
        );
    }
}
