// SPDX-License-Identifier: MIT
//! Every table row that the generator turns into an exported function has
//! its line in a version map. Without it the function builds, has its
//! prototype and passes the header checks, yet the version script keeps
//! it out of the library: a row added without its map line would ship a
//! declared function no program can link. So the generator stops first.

use crate::man::sources::exported_symbols;
use crate::{prep, register_calls};

/// The names of generated exported functions that no version map lists,
/// given the maps' names (sorted).
fn unmapped(exported: &[String]) -> Vec<&'static str> {
    let mapped = |name: &str| exported.binary_search_by(|e| e.as_str().cmp(name)).is_ok();
    let calls = register_calls::CALLS.iter().map(|c| c.name);
    // Helpers ahead of liburing stay header-only by design, and the
    // `__`-prefixed ones are building blocks liburing's header keeps
    // unexported too.
    let helpers = prep::table::HELPERS
        .iter()
        .filter(|h| h.ahead.is_none() && !h.name.starts_with("__"))
        .map(|h| h.name);
    calls.chain(helpers).filter(|n| !mapped(n)).collect()
}

/// Stops the generator when a row has no map line.
pub fn require_map_lines() {
    let missing = unmapped(&exported_symbols());
    if !missing.is_empty() {
        crate::fail(&format!(
            "no line in src/liburing.map or src/liburing-ffi.map for {} (a table row's function is \
             exported only under a version node; see docs/layout.md)",
            missing.join(", ")
        ));
    }
}

#[cfg(test)]
mod tests;
