// SPDX-License-Identifier: MIT
//! The kernel-release rows (`uring_uapi::releases`) as roff, for the
//! hand-written pages' `.\" @names` and `.\" @by-release` lines.

use std::collections::BTreeMap;

use uring_uapi::releases::rows;

use super::roff::inline;
use super::sources::release;

/// Whether `name` is selected by a `@names` list: it starts with one of
/// the prefixes and with none of the `!`-marked ones.
fn selected(name: &str, spec: &[&str]) -> bool {
    let (not, yes): (Vec<&str>, Vec<&str>) = spec.iter().partition(|p| p.starts_with('!'));
    yes.iter().any(|p| name.starts_with(p)) && !not.iter().any(|p| name.starts_with(&p[1..]))
}

/// The rows a `.\" @names PREFIX... !PREFIX...` line selects as a `.TP`
/// list: the name in bold with its release, then its meaning.
pub fn render(spec: &str) -> Vec<String> {
    let spec: Vec<&str> = spec.split_whitespace().collect();
    let mut out = Vec::new();
    for r in rows().filter(|r| selected(r.name, &spec)) {
        out.push(".TP".to_string());
        out.push(match r.since {
            None => format!(".B {}", r.name),
            Some(v) => format!(".BR {} \" (Linux {})\"", r.name, release(v)),
        });
        out.push(inline(&r.text().to_string()));
    }
    if out.is_empty() {
        crate::fail(&format!(
            "man: no kernel-release row matches @names {}",
            spec.join(" ")
        ));
    }
    out
}

/// Every name with a release, grouped under the release that added it,
/// oldest first.
pub fn render_by_release() -> Vec<String> {
    let mut by: BTreeMap<(u32, u32), Vec<&str>> = BTreeMap::new();
    for r in rows() {
        if let Some(v) = r.since {
            by.entry(v).or_default().push(r.name);
        }
    }
    let mut out = Vec::new();
    for (v, names) in by {
        out.push(format!(".SS Linux {}", release(v)));
        for (i, n) in names.iter().enumerate() {
            out.push(if i + 1 < names.len() {
                format!(".BR {n} ,")
            } else {
                format!(".B {n}")
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
