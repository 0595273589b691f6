// SPDX-License-Identifier: MIT
//! Editing of doc prose for a page: the NAME line's summary, the `# Safety`
//! clauses a C reader needs, the names a text mentions.

use super::roff::{is_word, squash};

/// The maximal runs of word characters of `text`, with their end (char
/// index just past the run) and the chars.
fn words(text: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if is_word(c[i]) {
            let start = i;
            while i < c.len() && is_word(c[i]) {
                i += 1;
            }
            out.push((c[start..i].iter().collect(), i));
        } else {
            i += 1;
        }
    }
    out
}

/// Whole words of `text` that start with one of `prefixes` and go on
/// past it, in order.
pub fn names_with_prefix(text: &str, prefixes: &[&str]) -> Vec<String> {
    words(text)
        .into_iter()
        .map(|(w, _)| w)
        .filter(|w| {
            prefixes
                .iter()
                .any(|p| w.len() > p.len() && w.starts_with(p))
        })
        .collect()
}

/// Every `io_uring_*` / `IO_URING_*` name `text` mentions, with the
/// section when it is written `name(N)`.
pub fn mentioned(text: &str) -> Vec<(String, Option<char>)> {
    let c: Vec<char> = text.chars().collect();
    words(text)
        .into_iter()
        .filter(|(w, _)| {
            ["io_uring_", "IO_URING_"]
                .iter()
                .any(|p| w.len() > p.len() && w.starts_with(p))
        })
        .map(|(w, end)| {
            let sec = match c.get(end..end + 3) {
                Some(['(', d, ')']) if d.is_ascii_digit() => Some(*d),
                _ => None,
            };
            (w, sec)
        })
        .collect()
}

/// `` `x` `` as `x`, for every pair of backticks.
fn drop_ticks(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '`' {
            if let Some(j) = (i + 1..c.len()).find(|&j| c[j] == '`') {
                out.extend(&c[i + 1..j]);
                i = j + 1;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// The NAME line's summary: the first sentence, cut at its first clause
/// when long, starting lower-case unless it starts with a constant.
pub fn first_sentence(text: &str) -> String {
    let text = squash(text);
    let c: Vec<char> = text.chars().collect();
    let end = (1..c.len()).find(|&k| {
        let before: String = c[..k].iter().collect();
        matches!(c[k], '.' | ':' | ';')
            && !before.ends_with("i.e")
            && !before.ends_with("e.g")
            && c.get(k + 1).is_none_or(|n| n.is_whitespace())
    });
    let s: String = match end {
        Some(k) => c[..=k].iter().collect(),
        None => text.clone(),
    };
    let s = s.trim_end_matches(['.', ':', ';']);
    let mut s: Vec<char> = drop_ticks(s).replace('@', "").chars().collect();
    if s.len() > 80 {
        let mut depth = 0i32;
        for i in 0..s.len() {
            depth += i32::from(s[i] == '(') - i32::from(s[i] == ')');
            let next = s.get(i + 1).copied();
            if depth == 0
                && i >= 20
                && ((s[i] == ',' && next == Some(' ')) || (s[i] == ' ' && next == Some('(')))
            {
                s.truncate(i);
                break;
            }
        }
    }
    let s: String = s.into_iter().collect();
    let first = s.split(' ').next().unwrap_or("");
    let fc: Vec<char> = first.chars().collect();
    let capitalized = fc.len() >= 2 && fc[0].is_ascii_uppercase() && fc[1].is_ascii_lowercase();
    if first == "A" || first == "An" || capitalized {
        let mut it = s.chars();
        match it.next() {
            Some(f) => f.to_lowercase().chain(it).collect(),
            None => s,
        }
    } else {
        s
    }
}

/// Split at `; ` and after a sentence's `.` (the blanks go).
fn clauses(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < c.len() {
        let semi = c[i] == ';' && c.get(i + 1).is_some_and(|n| n.is_whitespace());
        let after_dot = c[i].is_whitespace() && i > 0 && c[i - 1] == '.';
        if semi || after_dot {
            out.push(c[start..i].iter().collect());
            let mut j = if semi { i + 1 } else { i };
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            start = j;
            i = j;
            continue;
        }
        i += 1;
    }
    out.push(c[start..].iter().collect());
    out
}

/// The length of a leading `` `a` `` or `` `a` and `b` `` of `s`.
fn ticked_names(s: &str) -> Option<usize> {
    let one = |t: &str| -> Option<usize> {
        let rest = t.strip_prefix('`')?;
        let close = rest.find('`')?;
        (close > 0 && rest[..close].chars().all(is_word)).then_some(close + 2)
    };
    let first = one(s)?;
    match s[first..].strip_prefix(" and ").and_then(one) {
        Some(second) => Some(first + 5 + second),
        None => Some(first),
    }
}

/// Whether a `# Safety` clause only says what every C pointer argument
/// means anyway (NULL or valid; the kernel checks the rest).
fn trivial(clause: &str) -> bool {
    let subject = if clause.starts_with("Pointers") {
        Some("Pointers".len())
    } else {
        ticked_names(clause)
    };
    let pointer_rule = subject.is_some_and(|n| {
        let rest = &clause[n..];
        let Some(rest) = rest.strip_prefix(' ') else {
            return false;
        };
        let rest = rest.strip_prefix("must be ").unwrap_or(rest);
        let Some(rest) = rest.strip_prefix("null or ") else {
            return false;
        };
        [
            "valid",
            "writable",
            "a live ring",
            "a ring set up by this library",
        ]
        .iter()
        .any(|w| {
            rest.strip_prefix(w)
                .is_some_and(|r| r.is_empty() || r == " for writing")
        })
    });
    pointer_rule
        || clause.starts_with("As for ")
        || clause.starts_with("None beyond the C contract")
        || clause.contains("handed to the kernel")
        || clause.ends_with("as the kernel requires")
        || clause == "nothing is dereferenced"
}

/// `null` as a whole word, as C spells it.
fn null_upper(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let at_word_start = i == 0 || !is_word(c[i - 1]);
        if at_word_start
            && c[i..].starts_with(&['n', 'u', 'l', 'l'])
            && c.get(i + 4).is_none_or(|&n| !is_word(n))
        {
            out.push_str("NULL");
            i += 4;
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// What a `# Safety` section says that a C programmer needs: the
/// lifetimes and sizes, in sentences, without the trivial clauses.
pub fn reader_safety(text: &str) -> String {
    let mut kept = Vec::new();
    for clause in clauses(&squash(text)) {
        let clause = clause.trim().trim_end_matches('.');
        if clause.is_empty() || trivial(clause) {
            continue;
        }
        let mut clause = null_upper(clause);
        if let Some(n) = ticked_names(&clause) {
            let rest = &clause[n..];
            let verb = [
                "readable ",
                "writable ",
                "NULL or valid ",
                "valid ",
                "from ",
            ]
            .iter()
            .find(|v| rest.strip_prefix(' ').is_some_and(|r| r.starts_with(*v)));
            if verb.is_some() {
                clause = format!("{} must be{}", &clause[..n], rest);
            }
        }
        let mut it = clause.chars();
        let first: String = it
            .next()
            .map(|f| f.to_uppercase().collect())
            .unwrap_or_default();
        kept.push(format!("{first}{}.", it.as_str()));
    }
    kept.join(" ")
}

#[cfg(test)]
mod tests;
