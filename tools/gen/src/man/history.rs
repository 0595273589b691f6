// SPDX-License-Identifier: MIT
//! HISTORY sections: the symbol version node a name is exported under,
//! named as a node, and the first liburing release that had the name, from
//! liburing's release tags ([`FIRST_RELEASE`], made by
//! pytools/upstream/first_releases.py).
//!
//! A node is not a release: liburing.map's oldest node, 2.0, holds
//! everything older too, and liburing-ffi.map (first shipped in 2.4) starts
//! with a 2.4 node that holds every older inline helper. The tags say which
//! release first exported a function (its liburing.map) or first had an
//! inline helper (its liburing.h), and which later releases lacked it.

use std::collections::BTreeMap;

use super::first_release::FIRST_RELEASE;

/// The HISTORY sentences of `name`, exported under `node` of liburing.map
/// (`in_liburing`) or else of liburing-ffi.map only (an inline helper).
pub fn text(name: &str, node: &str, in_liburing: bool) -> String {
    let node_text = if in_liburing {
        format!("Exported under the symbol version node LIBURING_{node}.")
    } else {
        format!(
            "An inline function of <liburing.h>; liburing-ffi exports it under the symbol \
             version node LIBURING_{node}."
        )
    };
    let Some((_, first, file, gaps, declared)) = FIRST_RELEASE.iter().find(|r| r.0 == name) else {
        return format!("{node_text} Its first liburing release is not established here.");
    };
    let shown = if file.ends_with(".map") {
        format!("its {file} exports it")
    } else {
        format!("its {file} has it")
    };
    let mut out = format!("{node_text} First in liburing {first} ({shown}).");
    if !declared.is_empty() {
        out.push_str(&format!(
            " liburing.h declared it from {declared} on, but the library did not export it \
             before {first}, so programs could not link it."
        ));
    }
    if !gaps.is_empty() {
        let lacked = if file.ends_with(".map") {
            "did not export it"
        } else {
            "had it in no header"
        };
        out.push_str(&format!(" liburing {gaps} {lacked}."));
    }
    out
}

/// A row for a name that neither version script exports is a stale table.
pub fn check_tables(exported: &BTreeMap<String, (String, bool)>) {
    for r in FIRST_RELEASE {
        if !exported.contains_key(r.0) {
            crate::fail(&format!(
                "tools/gen/src/man/first_release.rs: {} is exported by neither map",
                r.0
            ));
        }
    }
}

#[cfg(test)]
mod tests;
