// SPDX-License-Identifier: MIT
//! One page of each kind: a library function, a prep helper, another
//! inline helper or macro, a hand-written page; then the EXAMPLES and
//! HISTORY sections added to section 3 pages.

use std::collections::BTreeMap;

use super::inline::{Inline, Kind, INLINE};
use super::sources::{read, release, CapiDoc};
use super::text::{first_sentence, mentioned, names_with_prefix, reader_safety};
use super::{releases, roff, tables, Manual};
use crate::prep::generate::{all_params, c_prototype, c_stores};
use crate::prep::table::RESULTS_UNCHECKED as PREP_RESULTS_UNCHECKED;
use crate::prep::Helper;

/// The SEE ALSO list: the explicit names first, then every page the text
/// mentions.
fn see_also(m: &Manual, name: &str, explicit: &[&str], text: &str) -> Vec<String> {
    let mut refs: Vec<String> = Vec::new();
    for r in explicit {
        let r = r.trim().trim_end_matches(',');
        if !r.is_empty() && !refs.iter().any(|x| x == r) {
            refs.push(r.to_string());
        }
    }
    for (base, sec) in mentioned(text) {
        if base == name || (!m.names.contains_key(&base) && !m.hand_names.contains_key(&base)) {
            continue;
        }
        let sec = match sec {
            Some(s) => s.to_string(),
            None => m
                .hand_names
                .get(&base)
                .filter(|s| !s.is_empty())
                .or_else(|| m.names.get(&base).map(|(s, _)| s))
                .cloned()
                .unwrap_or_else(|| "3".into()),
        };
        let r = format!("{base}({sec})");
        if !refs.contains(&r) && !refs.iter().any(|x| x.split('(').next() == Some(&base)) {
            refs.push(r);
        }
    }
    let mut out = Vec::new();
    for r in refs {
        let (base, sec) = match r.strip_suffix(')').and_then(|x| x.split_once('(')) {
            Some((b, s)) if s.len() == 1 && s.chars().all(|c| c.is_ascii_digit()) => (b, s),
            _ => (r.as_str(), "3"),
        };
        if base.is_empty() || !base.chars().all(super::roff::is_word) || base == name {
            continue;
        }
        out.push(format!("{base} ({sec})"));
    }
    if out.is_empty() {
        Vec::new()
    } else {
        vec![format!(".BR {}", out.join(",\n.BR "))]
    }
}

/// The DESCRIPTION's list of the documented arguments, in prototype order.
fn arguments(params: &[&str], meanings: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for p in params {
        if let Some((_, text)) = meanings.iter().rev().find(|(k, _)| k == p) {
            out.push(".TP".into());
            out.push(format!(".I {p}"));
            out.push(roff::inline(text));
        }
    }
    out
}

/// The `- name: text` items of an `# Arguments` section (an item goes on
/// over lines indented by two or more blanks).
fn argument_items(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let item = lines[i].trim_start().strip_prefix("- ").and_then(|rest| {
            let rest = rest.strip_prefix('`').unwrap_or(rest);
            let end = rest
                .find(|c: char| !super::roff::is_word(c))
                .unwrap_or(rest.len());
            let after = &rest[end..];
            let after = after.strip_prefix('`').unwrap_or(after);
            (end > 0).then_some(())?;
            Some((
                rest[..end].to_string(),
                after.strip_prefix(": ")?.to_string(),
            ))
        });
        i += 1;
        if let Some((name, mut value)) = item {
            while i < lines.len() && lines[i].starts_with("  ") {
                value.push('\n');
                value.push_str(lines[i]);
                i += 1;
            }
            out.push((name, value));
        }
    }
    out
}

/// The parameter names of a C prototype built by this tool (no function
/// pointer parameters in this API).
fn param_names(prototype: &str) -> Vec<&str> {
    let inner = prototype
        .split_once('(')
        .and_then(|(_, r)| r.rsplit_once(')'))
        .map_or("", |(i, _)| i.trim());
    if inner.is_empty() || inner == "void" {
        return Vec::new();
    }
    inner
        .split(',')
        .map(|p| {
            let p = p.trim().trim_end_matches("[]");
            let start = p
                .rfind(|c: char| !super::roff::is_word(c))
                .map_or(0, |i| i + 1);
            &p[start..]
        })
        .collect()
}

fn default_return(name: &str, ret: &str) -> &'static str {
    let counting = [
        "io_uring_register",
        "io_uring_unregister",
        "io_uring_submit",
    ]
    .iter()
    .chain(&["io_uring_queue_init", "io_uring_wait"])
    .any(|p| name.starts_with(p));
    if ret == "int" && counting {
        "0 or a non-negative count on success; a negated errno value on failure."
    } else {
        ""
    }
}

fn default_errors(name: &str, ret: &str) -> &'static str {
    if ret != "int" && ret != "ssize_t" {
        return "";
    }
    let starts = |ps: &[&str]| ps.iter().any(|p| name.starts_with(p));
    if starts(&[
        "io_uring_register",
        "io_uring_unregister",
        "io_uring_clone",
        "io_uring_resize",
    ]) {
        "Any error of `io_uring_register(2)` for the operation, negated; `EINVAL` as well \
         when @ring is NULL."
    } else if starts(&[
        "io_uring_submit",
        "io_uring_wait",
        "io_uring_get_events",
        "io_uring_peek",
    ]) {
        "Any error of `io_uring_enter(2)`, negated (for example `EINTR`, `ETIME`)."
    } else if starts(&["io_uring_queue_init", "io_uring_setup"]) {
        "Any error of `io_uring_setup(2)` or mmap(2), negated."
    } else {
        ""
    }
}

/// Sentences, split after each `.` followed by blanks.
fn sentences(text: &str) -> Vec<String> {
    let squashed = roff::squash(text);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = squashed.chars().peekable();
    while let Some(c) = chars.next() {
        cur.push(c);
        if c == '.' && chars.peek() == Some(&' ') {
            chars.next();
            out.push(std::mem::take(&mut cur));
        }
    }
    out.push(cur);
    out
}

/// `[`x`]` (rustdoc links) as `` `x` ``.
fn rustdoc_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("[`") {
        let after = &rest[at + 2..];
        match after.find('`') {
            Some(close) if close > 0 && after[close + 1..].starts_with(']') => {
                out.push_str(&rest[..at]);
                out.push('`');
                out.push_str(&after[..close]);
                out.push('`');
                rest = &after[close + 2..];
            }
            _ => {
                out.push_str(&rest[..at + 1]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Python's str.capitalize of a heading.
fn capitalize(s: &str) -> String {
    let mut it = s.chars();
    match it.next() {
        Some(f) => f
            .to_uppercase()
            .chain(it.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// A library function: its doc comment, cbindgen's prototype.
pub fn capi_page(m: &mut Manual, name: &str, doc: &CapiDoc, proto: &str) {
    let mut sec: Vec<(String, String)> = doc.sections.clone();
    let mut pop = |k: &str| -> String {
        match sec.iter().position(|(h, _)| h == k) {
            Some(i) => sec.remove(i).1,
            None => String::new(),
        }
    };
    let mut desc = rustdoc_links(&doc.description);
    // Sentences that compare us with liburing belong in NOTES.
    let all = sentences(&desc);
    let differs: Vec<&String> = all.iter().filter(|s| s.contains("liburing")).collect();
    if !differs.is_empty() {
        desc = all
            .iter()
            .filter(|s| !s.contains("liburing"))
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
    }
    let args = argument_items(&pop("arguments"));
    let ret_type = proto.split(name).next().unwrap_or("").trim();
    let mut returns = pop("return value");
    if returns.is_empty() {
        returns = default_return(name, ret_type).into();
    }
    let returns = tie_result(name, &returns);
    let mut errors = pop("errors");
    if errors.is_empty() {
        errors = default_errors(name, ret_type).into();
    }
    let notes = pop("notes");
    let see_text = pop("see also");
    let see: Vec<&str> = see_text
        .split(|c: char| c == ',' || c.is_whitespace())
        .collect();
    let safety = pop("safety");
    sec.sort();
    let mut body_notes = if notes.is_empty() {
        Vec::new()
    } else {
        roff::prose(&notes)
    };
    for (heading, text) in &sec {
        body_notes.push(format!(".SS {}", capitalize(heading)));
        body_notes.extend(roff::prose(text));
    }
    if !differs.is_empty() {
        body_notes.push(".SS Compared with liburing".into());
        let joined: Vec<&str> = differs.iter().map(|s| s.as_str()).collect();
        body_notes.extend(roff::prose(&joined.join(" ")));
    }
    let safety = reader_safety(&safety);
    if !safety.is_empty() {
        body_notes.push(".SS Memory the call relies on".into());
        body_notes.extend(roff::prose(&safety));
    }
    let summary = match first_sentence(&desc) {
        s if s.is_empty() => name.to_string(),
        s => s,
    };
    let mut description = roff::prose(&desc);
    description.extend(arguments(&param_names(proto), &args));
    let prose_or_none = |t: &str| {
        if t.is_empty() {
            Vec::new()
        } else {
            roff::prose(t)
        }
    };
    let see_also = see_also(m, name, &see, &format!("{desc} {notes} {errors}"));
    let text = roff::page(
        name,
        "3",
        &summary,
        &[
            ("SYNOPSIS", roff::synopsis(&[proto])),
            ("DESCRIPTION", description),
            ("RETURN VALUE", prose_or_none(&returns)),
            ("ERRORS", prose_or_none(&errors)),
            ("NOTES", body_notes),
            ("SEE ALSO", see_also),
        ],
        &doc.path,
        &[],
    );
    m.synopses.push((name.into(), vec![proto.into()]));
    m.add("3", name, text, &[]);
}

/// Functions whose RETURN VALUE man/checks/function_results.c cannot show,
/// with the reason; every other function page without a marker of its own
/// gets the case `ret-<name>`.
const RESULTS_UNCHECKED: &[(&str, &str)] = &[
    (
        "io_uring_register_ifq",
        "needs a network device with zero-copy receive (header split, a receive queue to \
         hand over), which the test machine has not",
    ),
    (
        "io_uring_register_zcrx_ctrl",
        "needs a zero-copy receive area registered on such a network device",
    ),
];

/// A function page's RETURN VALUE text tied to its check: unchanged when it
/// names one (`[check: ...]`) or a reason, else with `[check: ret-<name>]`
/// or the reason from `RESULTS_UNCHECKED`.
fn tie_result(name: &str, returns: &str) -> String {
    if returns.is_empty() || returns.contains("[check: ") || returns.contains("[unchecked: ") {
        return returns.to_string();
    }
    match RESULTS_UNCHECKED.iter().find(|(n, _)| *n == name) {
        Some((_, why)) => format!("{returns} [unchecked: {why}]"),
        None => format!("{returns} [check: ret-{name}]"),
    }
}

/// What the CQE of the prepared request holds, from the opcode's row of
/// the kernel-release table, tied to the helper's case of
/// man/checks/request_results.c (or to the reason it has none, from
/// `RESULTS_UNCHECKED`).
fn request_result(helper: &str, op: Option<&str>) -> String {
    let mut text =
        String::from("None: the result of the request arrives in the *res* field of its CQE.");
    let row = op.and_then(|op| {
        uring_uapi::releases::rows().find(|r| r.name.strip_prefix("IORING_OP_") == Some(op))
    });
    if let Some(row) = row {
        let t = row.text().to_string();
        let at = t.rfind("*res*:").into_iter().chain(t.find("*res*")).max();
        if let Some(at) = at {
            let mut tail = t[at..].to_string();
            if let Some(rest) = tail.strip_prefix("*res*:") {
                tail = format!("Its *res* holds{rest}");
            }
            let mut c = tail.chars();
            let first: String = c
                .next()
                .map(|f| f.to_uppercase().collect())
                .unwrap_or_default();
            text.push(' ');
            text.push_str(&first);
            text.push_str(c.as_str());
        }
    }
    text.push_str(
        " On failure *res* is a negated errno value; `io_uring_enter(2)` lists the common ones.",
    );
    match PREP_RESULTS_UNCHECKED.iter().find(|(h, _)| *h == helper) {
        Some((_, why)) => text + &format!(" [unchecked: {why}]"),
        None => text + &format!(" [check: res-{helper}]"),
    }
}

/// The `IORING_OP_*` names the stores of a helper mention, without the
/// prefix, in order.
fn opcodes(stores: &[(&str, &str, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, _, value) in stores {
        let mut rest = value.as_str();
        while let Some(at) = rest.find("IORING_OP_") {
            rest = &rest[at + "IORING_OP_".len()..];
            let end = rest
                .find(|c: char| !super::roff::is_word(c))
                .unwrap_or(rest.len());
            if end > 0 {
                out.push(rest[..end].to_string());
            }
            rest = &rest[end..];
        }
    }
    out
}

fn stores_text(stores: &[(&str, &str, String)]) -> String {
    stores
        .iter()
        .map(|(f, op, v)| format!("{f} {op} {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An SQE helper: the prep table's row, its resolved stores.
pub fn prep_page(
    m: &mut Manual,
    h: &Helper,
    preps: &BTreeMap<&str, &Helper>,
    since: &BTreeMap<&str, (u32, u32)>,
) {
    let name = h.name;
    let proto = c_prototype(h);
    let stores = c_stores(h);
    let about = h.about;
    let params = all_params(h);
    let meanings: Vec<(String, String)> = params
        .iter()
        .filter(|p| !p.meaning.is_empty())
        .map(|p| (p.name.to_string(), p.meaning.to_string()))
        .collect();
    let mut fields = vec![".nf".to_string()];
    for (f, op, v) in &stores {
        fields.push(roff::escape(&format!("sqe->{f} {op} {v}")));
    }
    fields.push(".fi".into());
    let ops = opcodes(&stores);
    let op = ops.first().map(String::as_str);
    let mut notes = Vec::new();
    if !h.notes.is_empty() {
        notes.push(h.notes.to_string());
    }
    if let Some(op) = op {
        let op_since = since.get(format!("IORING_OP_{op}").as_str()).copied();
        let avail = op_since
            .map(|v| format!(", available since Linux {}", release(v)))
            .unwrap_or_default();
        notes.push(format!(
            "The request is IORING_OP_{op}{avail}. To check a running kernel, ask \
             `io_uring_get_probe(3)` and test the opcode with `io_uring_opcode_supported(3)`."
        ));
        // Flags the helper stores that came later than the opcode.
        let body = stores_text(&stores);
        let mut flags = names_with_prefix(&body, &["IORING_", "IOSQE_", "SPLICE_"]);
        flags.sort();
        flags.dedup();
        for flag in flags {
            if let (Some(&fs), Some(os)) = (since.get(flag.as_str()), op_since) {
                if fs > os {
                    notes.push(format!(
                        "The flag {flag} needs Linux {} or later.",
                        release(fs)
                    ));
                }
            }
        }
    }
    if stores.iter().any(|(f, _, _)| *f == "file_index") {
        notes.push(
            "Direct descriptors (the file_index field) need Linux 5.15; see \
             io_uring_registered_files(7)."
                .into(),
        );
    }
    // Memory the request points to: how long it must live.
    if params.iter().any(|p| p.ty.contains('*')) {
        notes.push(
            "Memory a parameter points to must stay valid for as long as the kernel may use \
             it. A buffer the operation reads data from or writes results into must stay \
             valid until the request's CQE arrives (for a zero-copy send, until its \
             notification CQE). What only describes the request (an iovec array, a \
             msghdr, a timespec, a path name) is copied while the request is submitted, on \
             kernels with IORING_FEAT_SUBMIT_STABLE (Linux 5.5), so it only has to last until \
             the submission: until io_uring_submit() returns, or, on an SQPOLL ring, until \
             the polling thread has consumed the SQE. [check: submit-stable-iovec]"
                .into(),
        );
    }
    let mut sections_before_notes = Vec::new();
    match h.ahead {
        None => notes.push(
            "The helper is inline in <liburing.h>; liburing-ffi exports it as a function for \
             languages that cannot use C inline functions."
                .into(),
        ),
        Some(a) => {
            if let Some(n) = a.release_of {
                if since.get(n) != Some(&a.kernel) {
                    crate::fail(&format!(
                        "prep table: {name} says Linux {}, the release table has {n} in {:?}",
                        release(a.kernel),
                        since.get(n)
                    ));
                }
            }
            notes.push(
                "The helper is inline in <liburing.h> only: liburing-ffi does not export it, \
                 so that the libraries export exactly liburing 2.15's symbols."
                    .into(),
            );
            sections_before_notes.push((
                "HISTORY",
                roff::prose(&format!(
                    "Ahead of liburing: no liburing release (2.15 the latest) has this helper, \
                     so this library has it as a header-only inline function until one does. \
                     The kernel side, {}, needs Linux {}.",
                    a.feature,
                    release(a.kernel)
                )),
            ));
        }
    }
    let names: Vec<&str> = params.iter().map(|p| p.name).collect();
    let mut desc = roff::prose(about);
    desc.extend(arguments(&names, &meanings));
    desc.push(".PP".into());
    desc.extend(roff::prose(
        "The helper stores these fields of the SQE and no others; every other field keeps \
         what io_uring_get_sqe() left in it, which for user_data is the value of the \
         request that used the slot before (see io_uring_get_sqe(3)):",
    ));
    desc.extend(fields);
    // The other helpers that prepare the same opcode.
    let mut see: Vec<&str> = Vec::new();
    if let Some(op) = op {
        let full = format!("IORING_OP_{op}");
        see = preps
            .values()
            .filter(|o| o.name != name)
            .filter(|o| {
                let body = stores_text(&c_stores(o));
                names_with_prefix(&body, &["IORING_OP_"]).contains(&full)
            })
            .map(|o| o.name)
            .take(8)
            .collect();
    }
    see.extend(["io_uring_get_sqe", "io_uring_submit", "io_uring_wait_cqe"]);
    let see_also = see_also(m, name, &see, &format!("{about} {}", h.notes));
    let mut sections = vec![
        ("SYNOPSIS", roff::synopsis(&[&proto])),
        ("DESCRIPTION", desc),
        ("RETURN VALUE", roff::prose(&request_result(name, op))),
    ];
    sections.extend(sections_before_notes);
    sections.push(("NOTES", roff::prose(&notes.join("\n\n"))));
    sections.push(("SEE ALSO", see_also));
    let text = roff::page(
        name,
        "3",
        &first_sentence(about),
        &sections,
        "tools/gen/src/prep/table.rs",
        &[],
    );
    m.synopses.push((name.into(), vec![proto]));
    m.add("3", name, text, &[]);
}

/// A hand-written inline helper or macro: its row of the inline table.
pub fn inline_page(m: &mut Manual, r: &Inline) {
    let name = r.name;
    let aliases: Vec<&Inline> = INLINE.iter().filter(|a| a.alias_of == Some(name)).collect();
    let alias_names: Vec<&str> = aliases.iter().map(|a| a.name).collect();
    let protos: Vec<&str> = std::iter::once(r.prototype)
        .chain(aliases.iter().map(|a| a.prototype))
        .collect();
    let mut notes = r.notes.to_string();
    if r.kind == Kind::Function {
        if !notes.is_empty() {
            notes.push_str("\n\n");
        }
        notes.push_str("This is an inline function of <liburing.h>; liburing-ffi also exports it.");
    }
    let prose_or_none = |t: &str| {
        if t.is_empty() {
            Vec::new()
        } else {
            roff::prose(t)
        }
    };
    let see_also = see_also(m, name, r.see, &format!("{} {notes}", r.about));
    let text = roff::page(
        name,
        "3",
        &first_sentence(r.about),
        &[
            ("SYNOPSIS", roff::synopsis(&protos)),
            ("DESCRIPTION", roff::prose(r.about)),
            ("RETURN VALUE", prose_or_none(&tie_result(name, r.returns))),
            ("ERRORS", prose_or_none(r.errors)),
            ("NOTES", prose_or_none(&notes)),
            ("SEE ALSO", see_also),
        ],
        "tools/gen/src/man/inline.rs",
        &alias_names,
    );
    m.synopses.push((
        name.into(),
        protos.iter().map(|p| (*p).to_string()).collect(),
    ));
    m.add("3", name, text, &alias_names);
}

/// `struct NAME { ... };` as the generated <liburing/io_uring.h> defines
/// it, comments included, for a hand page's `.\" @struct NAME` line.
fn struct_definition(name: &str) -> String {
    let header = crate::c_headers::generated_files()
        .into_iter()
        .find(|(p, _)| p.ends_with("liburing/io_uring.h"))
        .map(|(_, t)| t)
        .unwrap_or_else(|| crate::fail("man: @struct: no generated io_uring.h"));
    let start = format!("struct {name} {{");
    let mut out = Vec::new();
    let mut depth = 0i32;
    for l in header.lines().skip_while(|l| *l != start) {
        depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
        out.push(l);
        if depth == 0 {
            break;
        }
    }
    if out.is_empty() || depth != 0 {
        crate::fail(&format!("man: @struct {name}: not defined in io_uring.h"));
    }
    out.join("\n")
}

/// A hand-written page, its directives expanded: `@names`, `@by-release`,
/// `@asan-checked` (the sanitizer's coverage),
/// `@struct NAME` (the structure from the generated header), `@example`.
pub fn hand_page(m: &mut Manual, file: &str) {
    let (stem, sec) = file.rsplit_once('.').unwrap_or((file, ""));
    let src = read(&format!("man/pages/{file}"));
    let mut out: Vec<String> = Vec::new();
    for line in src.split('\n') {
        if let Some(spec) = line.strip_prefix(".\\\" @names ") {
            out.extend(releases::render(spec));
        } else if line == ".\\\" @by-release" {
            out.extend(releases::render_by_release());
        } else if line == ".\\\" @asan-checked" {
            out.extend(super::asan::render());
        } else if let Some(name) = line.strip_prefix(".\\\" @struct ") {
            out.extend(roff::code_block(&struct_definition(name.trim())));
        } else if let Some(example) = line.strip_prefix(".\\\" @example ") {
            let block = roff::code_block(&read(&format!("man/examples/{example}")));
            let skip = usize::from(out.last().is_some_and(|l| l.starts_with(".SH")));
            out.extend(block.into_iter().skip(skip));
        } else {
            out.push(line.to_string());
        }
    }
    let text = out
        .join("\n")
        .replace("@DATE@", roff::DATE)
        .replace("@TITLE@", roff::TITLE)
        .replace("@MANUAL@", roff::MANUAL);
    let aliases = super::sources::aliases(&src);
    let aliases: Vec<&str> = aliases.iter().map(String::as_str).collect();
    m.add(sec, stem, text, &aliases);
}

/// `block` inserted into `text` before the first of `headings` it has
/// (at the end when none).
fn insert_before(text: &str, headings: &[&str], block: &[String]) -> String {
    let at = headings
        .iter()
        .find_map(|h| text.find(&format!("\n.SH {h}\n")))
        .unwrap_or(text.len() - 1);
    format!("{}{}{}", &text[..=at], block.join("\n"), &text[at..])
}

/// Each page of [`tables::SECTION3_EXAMPLES`] gets its EXAMPLES before
/// SEE ALSO.
pub fn add_examples(m: &mut Manual) {
    for (name, example, intro) in tables::SECTION3_EXAMPLES {
        let key = ("3".to_string(), name.to_string());
        let Some(text) = m.pages.get(&key) else {
            crate::fail(&format!(
                "man: SECTION3_EXAMPLES names {name}, which has no page"
            ));
        };
        let mut block = vec![".SH EXAMPLES".to_string()];
        block.extend(roff::prose(intro));
        block.extend(
            roff::code_block(&read(&format!("man/examples/{example}")))
                .into_iter()
                .skip(1),
        );
        let new = insert_before(text, &["SEE ALSO"], &block);
        m.pages.insert(key, new);
    }
}

/// A HISTORY section on every section 3 page of an exported name: its
/// symbol version node, the first liburing release that had it and the
/// releases that lacked it later, from liburing's release tags (history.rs)
/// and, for registration, the kernel.
pub fn add_history(m: &mut Manual, since: &BTreeMap<&str, (u32, u32)>) {
    let versions = super::sources::symbol_versions();
    super::history::check_tables(&versions);
    let keys: Vec<(String, String)> = m.pages.keys().cloned().collect();
    for key in keys {
        let (sec, name) = (&key.0, &key.1);
        let Some((node, in_liburing)) = versions.get(name) else {
            continue;
        };
        if sec != "3" {
            continue;
        }
        let mut lines = vec![super::history::text(name, node, *in_liburing)];
        let kernel_name = tables::CAPI_KERNEL_NAME
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, k)| *k)
            .or_else(|| crate::register_calls::kernel_name(name));
        if let Some(kname) = kernel_name {
            let Some(v) = since.get(kname) else {
                crate::fail(&format!("man: CAPI_KERNEL_NAME: {kname} has no release"));
            };
            lines.push(format!(
                "The kernel side ({kname}) needs Linux {}.",
                release(*v)
            ));
        }
        let mut block = vec![".SH HISTORY".to_string()];
        block.extend(roff::prose(&lines.join(" ")));
        let text = &m.pages[&key];
        let new = insert_before(text, &["NOTES", "EXAMPLES", "SEE ALSO"], &block);
        m.pages.insert(key, new);
    }
}
