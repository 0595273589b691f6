// SPDX-License-Identifier: MIT
//! Our source prose (Rust doc markdown, the helper tables' texts) as
//! man(7) roff, and one whole page. Prose conventions: `code` is bold,
//! `@param` and `*word*` italic, `- term: text` lines a tagged list.

pub const TITLE: &str = "uring-rs 2.15";
pub const MANUAL: &str = "uring-rs Manual";
/// A fixed date keeps the pages reproducible; bump it with the version.
pub const DATE: &str = "2026-12-01";

/// A word character as the prose markup counts it.
pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `\&` before a line that roff would take for a request.
fn guard_line(line: &str) -> String {
    if line.starts_with('.') || line.starts_with('\'') {
        format!("\\&{line}")
    } else {
        line.to_string()
    }
}

/// Plain text as roff text: backslashes, dashes, and a leading `.` or `'`.
pub fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    text.split('\n')
        .map(guard_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whitespace runs as single blanks, no blank at either end.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `[`x`]` (a rustdoc link without a target) as `` `x` ``.
fn unlink(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '[' && c.get(i + 1) == Some(&'`') {
            let close = (i + 2..c.len()).find(|&j| c[j] == '`');
            if let Some(j) = close {
                if j > i + 2 && c.get(j + 1) == Some(&']') && c.get(j + 2) != Some(&'(') {
                    out.extend(&c[i + 1..=j]);
                    i = j + 2;
                    continue;
                }
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// `` `x` `` as `\fBx\fR` (at least one character between the ticks).
fn bold_code(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '`' && c.get(i + 1).is_some_and(|&n| n != '`') {
            if let Some(j) = (i + 1..c.len()).find(|&j| c[j] == '`') {
                out.push_str("\\fB");
                out.extend(&c[i + 1..j]);
                out.push_str("\\fR");
                i = j + 1;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// `@name` as `\fIname\fR`.
fn italic_params(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '@'
            && c.get(i + 1)
                .is_some_and(|&n| n.is_ascii_alphabetic() || n == '_')
        {
            let mut j = i + 2;
            while j < c.len() && is_word(c[j]) {
                j += 1;
            }
            out.push_str("\\fI");
            out.extend(&c[i + 1..j]);
            out.push_str("\\fR");
            i = j;
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// `*word ...*` (not inside a word, starting with a letter) as italics.
fn italic_stars(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let star_or_word = |x: Option<&char>| x.is_some_and(|&x| x == '*' || is_word(x));
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '*'
            && !star_or_word(if i > 0 { c.get(i - 1) } else { None })
            && c.get(i + 1).is_some_and(char::is_ascii_alphabetic)
        {
            if let Some(j) = (i + 2..c.len()).find(|&j| c[j] == '*') {
                if !star_or_word(c.get(j + 1)) {
                    out.push_str("\\fI");
                    out.extend(&c[i + 1..j]);
                    out.push_str("\\fR");
                    i = j + 1;
                    continue;
                }
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// A new line after each sentence end (`.`, `!`, `?`, blanks, then a
/// capital, `(` or `\`), so that roff spaces sentences right.
fn sentence_lines(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        out.push(c[i]);
        if matches!(c[i], '.' | '!' | '?') && c.get(i + 1) == Some(&' ') {
            let mut j = i + 1;
            while c.get(j) == Some(&' ') {
                j += 1;
            }
            if c.get(j)
                .is_some_and(|&n| n.is_ascii_uppercase() || n == '(' || n == '\\')
            {
                out.push('\n');
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Source prose to roff lines: `code` in bold, @param and *word* in
/// italics, one sentence end per line, lines of at most 78 characters.
pub fn inline(text: &str) -> String {
    let out = escape(&squash(&unlink(text)));
    let out = sentence_lines(&italic_stars(&italic_params(&bold_code(&out))));
    let lines: Vec<&str> = out.split('\n').collect();
    wrap(&lines, 78)
        .iter()
        .map(|l| guard_line(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lines of at most `width` characters, broken at blanks.
pub fn wrap(lines: &[&str], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut cur = String::new();
        for w in line.split(' ') {
            if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
                out.push(std::mem::replace(&mut cur, w.to_string()));
            } else if cur.is_empty() {
                cur = w.to_string();
            } else {
                cur.push(' ');
                cur.push_str(w);
            }
        }
        out.push(cur);
    }
    out
}

/// The paragraphs of `text`: split at lines that hold only blanks.
pub fn paragraphs(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < c.len() {
        if c[i] == '\n' {
            let mut e = i + 1;
            while e < c.len() && c[e].is_whitespace() {
                e += 1;
            }
            if let Some(last) = (i + 1..e).rev().find(|&k| c[k] == '\n') {
                out.push(c[start..i].iter().collect());
                start = last + 1;
                i = last + 1;
                continue;
            }
        }
        i += 1;
    }
    out.push(c[start..].iter().collect());
    out
}

/// The text of a `- ` or `* ` list item line, without the bullet.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    t.strip_prefix("- ").or_else(|| t.strip_prefix("* "))
}

/// `term: text` of a list item (the term maybe in backticks): the term
/// is the shortest run of letters, digits, `-`, `_` and blanks before `: `.
fn tagged(item: &str) -> Option<(String, String)> {
    let c: Vec<char> = item.chars().collect();
    let start = usize::from(c.first() == Some(&'`'));
    let term_char = |x: char| x.is_ascii_alphanumeric() || x == '-' || x == '_' || x == ' ';
    let mut p = start;
    while p < c.len() && term_char(c[p]) {
        p += 1;
        let rest: String = c[p..].iter().collect();
        let after = if rest.starts_with("`: ") {
            Some(p + 3)
        } else if rest.starts_with(": ") {
            Some(p + 2)
        } else {
            None
        };
        if let Some(a) = after {
            return Some((c[start..p].iter().collect(), c[a..].iter().collect()));
        }
    }
    None
}

/// The `[check: NAME]` and `[unchecked: REASON]` markers of a paragraph or
/// list item taken out: the text without them, and each as a roff comment
/// (`.\" @check NAME`, `.\" @unchecked REASON`) that `make check-man`
/// (pytools/man/claims.py) ties to a case of man/checks or counts as a claim that
/// cannot be shown here.
pub fn take_checks(text: &str) -> (String, Vec<String>) {
    let mut rest = text.to_string();
    let mut lines = Vec::new();
    loop {
        let found = [("[check: ", "@check"), ("[unchecked: ", "@unchecked")]
            .iter()
            .filter_map(|(open, tag)| rest.find(open).map(|a| (a, open.len(), *tag)))
            .min();
        let Some((a, open_len, tag)) = found else {
            break;
        };
        let Some(len) = rest[a..].find(']') else {
            break;
        };
        let what = rest[a + open_len..a + len]
            .split_whitespace()
            .collect::<Vec<_>>();
        lines.push(format!(".\\\" {tag} {}", what.join(" ")));
        let tail = rest[a + len + 1..].to_string();
        rest = format!("{}{}", rest[..a].trim_end(), tail);
    }
    (rest, lines)
}

/// Paragraphs and `- term: text` lists as roff body lines.
pub fn prose(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for para in paragraphs(text.trim()) {
        let lines: Vec<&str> = para.split('\n').collect();
        let is_list = list_item(lines[0]).is_some()
            && lines
                .iter()
                .all(|l| list_item(l).is_some() || l.starts_with("  "));
        if is_list {
            let mut items: Vec<String> = Vec::new();
            for l in &lines {
                match list_item(l) {
                    Some(it) => items.push(it.to_string()),
                    None => {
                        let last = items.last_mut().expect("a list starts with an item");
                        last.push(' ');
                        last.push_str(l.trim());
                    }
                }
            }
            for it in items {
                let (it, checks) = take_checks(&it);
                match tagged(&it) {
                    Some((term, rest)) => {
                        out.push(".TP".into());
                        out.push(format!(".B {}", escape(&term)));
                        out.push(inline(&rest));
                    }
                    None => {
                        out.push(".IP \\(bu 2".into());
                        out.push(inline(&it));
                    }
                }
                out.extend(checks);
            }
        } else {
            let (para, checks) = take_checks(&para);
            out.push(inline(&para));
            out.extend(checks);
        }
        out.push(".PP".into());
    }
    while out.last().is_some_and(|l| l == ".PP") {
        out.pop();
    }
    out
}

/// Tabs to blanks, with tab stops every `width` columns.
fn expand_tabs(line: &str, width: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for ch in line.chars() {
        if ch == '\t' {
            let n = width - col % width;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(ch);
            col += 1;
        }
    }
    out
}

/// C source shown verbatim.
pub fn code_block(source: &str) -> Vec<String> {
    let mut lines: Vec<String> = vec![".PP".into(), ".in +4n".into(), ".EX".into()];
    for l in source.trim_end_matches('\n').split('\n') {
        let l = expand_tabs(l, 4).replace('\\', "\\e");
        lines.push(if l.is_empty() {
            "\\&".into()
        } else {
            guard_line(&l)
        });
    }
    lines.push(".EE".into());
    lines.push(".in".into());
    lines
}

/// SYNOPSIS lines: the include and each prototype (a function's without
/// its `;`, or a `#define NAME(args)`), parameters one per line when the
/// prototype is long.
pub fn synopsis(prototypes: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = vec![".nf".into(), ".B #include <liburing.h>".into()];
    for p in prototypes {
        out.push(".PP".into());
        let text = if p.starts_with("#define") {
            p.to_string()
        } else {
            format!("{p};")
        };
        let Some((head, rest)) = text.split_once('(') else {
            out.push(format!(".B {}", escape(&text)));
            continue;
        };
        if text.chars().count() <= 70 {
            out.push(format!(".B {}", escape(&text)));
            continue;
        }
        let (inner, after) = rest.rsplit_once(')').unwrap_or((rest, ""));
        let params: Vec<&str> = inner.split(", ").collect();
        let tail = format!("){after}");
        let pad = " ".repeat(head.chars().count() + 1);
        for (i, prm) in params.iter().enumerate() {
            let lead = if i == 0 {
                format!("{head}(")
            } else {
                pad.clone()
            };
            let end = if i + 1 < params.len() { "," } else { &tail };
            let line = escape(&format!("{lead}{prm}{end}")).replace('"', "\\(dq");
            out.push(format!(".B \"{line}\""));
        }
    }
    out.push(".fi".into());
    out
}

/// A whole page. `sections`: (heading, roff lines); empty ones are left
/// out. `aliases` share the NAME line; `source` is named in the banner.
pub fn page(
    name: &str,
    section: &str,
    summary: &str,
    sections: &[(&str, Vec<String>)],
    source: &str,
    aliases: &[&str],
) -> String {
    let mut lines = vec![
        ".\\\" SPDX-License-Identifier: MIT".to_string(),
        format!(
            ".\\\" Generated by tools/gen (make headers) from {source}; edit the source, not this page."
        ),
        format!(
            ".TH {} {section} {DATE} \"{TITLE}\" \"{MANUAL}\"",
            name.to_uppercase().replace('-', "\\-")
        ),
        ".SH NAME".to_string(),
    ];
    let names: Vec<&str> = std::iter::once(name)
        .chain(aliases.iter().copied())
        .collect();
    let head = format!(
        "{} \\- {}",
        names.join(", ").replace('-', "\\-"),
        escape(summary)
    );
    lines.extend(wrap(&[head.as_str()], 78));
    for (heading, body) in sections {
        if !body.is_empty() {
            lines.push(format!(".SH {heading}"));
            lines.extend(body.iter().cloned());
        }
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests;
