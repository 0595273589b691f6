#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Is the text of our installed headers our own?

Compares the headers we install (<stage>/usr/include) with liburing's installed
headers and man pages, and fails when
  (a) an inline function body or function-like macro body of 3 or more
      statements is token for token the same as one of upstream's,
  (b) more than 10 % of our non-forced code lines are identical to an upstream
      line (forced: what the facts allow in one way only, i.e. object-like
      `#define NAME value`, #include, enumerators, struct/union members and
      prototypes, including the signature lines of inline functions), or
  (c) a comment sentence of 8 or more words appears in upstream's headers or
      man pages.
The figures are printed on every run.

    python3 -m pytools.suite.provenance OUR_INCLUDE_DIR UPSTREAM_INCLUDE_DIR [UPSTREAM_MAN_DIR]

The sentence check is meant for other prose too (our man pages, later):
`copied_sentences(our_texts, corpus_texts)` takes plain texts;
`c_comment_text`, `man_page_text` turn sources into such text.
"""

import os
import re
import sys

MIN_BODY_STATEMENTS = 3
MAX_SHARED_LINE_RATIO = 0.10
MIN_SENTENCE_WORDS = 8

C_KEYWORDS = set(
    [
        "auto",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "typedef",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
        "bool",
        "true",
        "false",
        "noexcept",
        "template",
        "typename",
        "nullptr",
        "_Bool",
        "_Atomic",
        "__typeof__",
        "defined",
        "include",
        "define",
        "undef",
        "ifdef",
        "ifndef",
        "if",
        "elif",
        "else",
        "endif",
        "error",
        "pragma",
        "__cplusplus",
        "NULL",
    ]
)

TOKEN_RE = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
    | (?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)
    | (?P<id>[A-Za-z_]\w*)
    | (?P<punct>\#\#|\#|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\.\.\.|::|.)
""",
    re.X | re.S,
)


# --------------------------------------------------------------------------- C source


def split_comments(text):
    """(code with every comment replaced by one space, [comment texts])."""
    code, comments, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            code.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            body = text[i + 2 : j]
            comments.append(body)
            # keep line structure for the line-based check
            code.append(" " + "\n" * body.count("\n"))
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append(text[i + 2 : j])
            code.append(" ")
            i = j
        else:
            code.append(c)
            i += 1
    return "".join(code), comments


def tokens(code):
    out = []
    for m in TOKEN_RE.finditer(code):
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    return out


def logical_lines(code):
    """Lines of comment-free code; a preprocessor directive with its
    backslash continuations is one line."""
    lines, cur = [], None
    for raw in code.split("\n"):
        if cur is not None:
            cur += " " + raw.rstrip("\\")
            if not raw.endswith("\\"):
                lines.append(cur)
                cur = None
        elif raw.lstrip().startswith("#") and raw.endswith("\\"):
            cur = raw.rstrip("\\")
        else:
            lines.append(raw)
    if cur is not None:
        lines.append(cur)
    return lines


def norm(line):
    return " ".join(v for _, v in tokens(line))


def is_trivial(line):
    """Nothing but keywords, punctuation, numbers and strings: a line any C
    file has (`}`, `#endif`, `return 0;`, `extern "C" {`)."""
    return all(k in ("punct", "num", "str") or v in C_KEYWORDS for k, v in tokens(line))


class Header:
    """One header split into: forced lines, free lines, inline function
    bodies and function-like macro bodies."""

    def __init__(self, path, text):
        self.path = path
        self.code, self.comments = split_comments(text)
        self.forced, self.free, self.bodies = [], [], []
        self._classify()

    def _classify(self):
        lines = [l.strip() for l in logical_lines(self.code)]
        scopes = []  # one entry per open brace: "fn", "agg", "block", "extern"
        pending = []  # top-level lines of a declaration not yet ended by ; or {
        head = []  # its tokens
        body = None  # [name, tokens] of the inline function being read
        for line in lines:
            if not line:
                continue
            if line.startswith("#"):
                self._directive(line)
                continue
            if "fn" in scopes:
                self._note(line, forced=False)
            elif scopes and scopes[-1] == "agg":
                self._note(line, forced=True)  # members, enumerators
            else:
                pending.append(line)
            for _, v in tokens(line):
                if body is not None:
                    body[1].append(v)
                if v == "{":
                    if "fn" in scopes:
                        scopes.append("block")
                        continue
                    if scopes and scopes[-1] == "agg":
                        scopes.append("agg")  # a nested struct or union
                        continue
                    text = " ".join(head)
                    if re.search(r"\b(struct|union|enum)\b[^()]*$", text) or text.endswith("="):
                        scopes.append("agg")
                        forced = True
                    elif text.startswith("extern"):
                        scopes.append("extern")
                        forced = True
                    elif ")" in text:
                        scopes.append("fn")
                        names = re.findall(r"([A-Za-z_]\w*)\s*\(", text)
                        body = [names[0] if names else "?", []]
                        forced = True  # the signature
                    else:
                        scopes.append("block")
                        forced = False
                    for p in pending:
                        self._note(p, forced=forced)
                    pending, head = [], []
                elif v == "}":
                    kind = scopes.pop() if scopes else None
                    if kind == "fn" and body is not None:
                        self.bodies.append(("function", body[0], body[1][:-1]))
                        body = None
                    if not scopes or scopes[-1] == "extern":
                        head = []
                elif v == ";" and (not scopes or scopes[-1] == "extern"):
                    for p in pending:
                        self._note(p, forced=True)  # prototypes, declarations
                    pending, head = [], []
                elif not scopes or scopes[-1] == "extern":
                    head.append(v)
            if not scopes or scopes[-1] == "extern":
                if pending and pending[-1] == line and not head:
                    pending.pop()  # a lone closing brace
        for p in pending:
            self._note(p, forced=True)

    def _directive(self, line):
        m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\()?(.*)$", line)
        if m and m.group(2):
            # function-like macro: the body is free text
            rest = m.group(3)
            close = rest.find(")")
            body = rest[close + 1 :]
            self.bodies.append(("macro", m.group(1), [v for _, v in tokens(body)]))
            self._note(line, forced=False)
        elif (
            m
            or re.match(r"#\s*(include|undef)\b", line)
            or re.match(r"#\s*if(n?def)?\s+!?\s*(defined)?\s*\(?\s*[A-Za-z_]\w*\s*\)?\s*$", line)
        ):
            # a definition, an include, or a test of one name being defined
            self._note(line, forced=True)
        else:
            self._note(line, forced=False)

    def _note(self, line, forced):
        if not line.strip():
            return
        (self.forced if forced else self.free).append(line)


def statements(kind, body):
    n = body.count(";")
    if kind == "macro" and body and body[-1] != ";":
        n += 1
    return n


def read_headers(root):
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if f.endswith(".h"):
                p = os.path.join(dirpath, f)
                with open(p, errors="replace") as fh:
                    out.append(Header(os.path.relpath(p, root), fh.read()))
    return out


# --------------------------------------------------------------------------- prose


def c_comment_text(comments):
    """Comment bodies as prose: leading `*` of block-comment lines removed."""
    parts = []
    for c in comments:
        parts.append("\n".join(re.sub(r"^\s*\*+ ?", "", l) for l in c.split("\n")))
    return "\n\n".join(parts)


def man_page_text(text):
    """The prose of a roff man page: requests dropped, font escapes removed."""
    out = []
    for line in text.split("\n"):
        if line.startswith('.\\"') or line.startswith("'\\\""):
            continue
        if line.startswith("."):
            m = re.match(r"\.(B|I|BR|IR|RB|RI|BI|IB|SM|SB)\s+(.*)$", line)
            if m:
                line = m.group(2).replace('"', " ")
            elif re.match(r"\.(SH|SS|TP|PP|LP|P|IP|TH|nf|fi|sp|br|RS|RE|in|ti)\b", line):
                out.append("")  # paragraph break
                m = re.match(r"\.(SH|SS|IP)\s+(.*)$", line)
                if m:
                    out.append(m.group(2).replace('"', " "))
                    out.append("")
                continue
            else:
                continue
        line = re.sub(
            r"\\f[BIRP]|\\f\(..|\\\(..|\\[-e&]", lambda m: "-" if m.group() == "\\-" else "", line
        )
        out.append(line)
    return "\n".join(out)


def words(text):
    return re.findall(r"[a-z0-9_]+", text.lower())


def sentences(text):
    """Sentences of a prose text: split at . ! ? : followed by a blank, and
    at paragraph breaks."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        for s in re.split(r"(?<=[.!?;:])\s+", " ".join(para.split())):
            if s:
                out.append(s)
    return out


def copied_sentences(our_texts, corpus_texts, min_words=MIN_SENTENCE_WORDS):
    """our_texts: [(label, text)]; corpus_texts: [text].  Returns
    [(label, sentence)] for each sentence of ours with min_words or more words
    whose word sequence occurs in the corpus, and the number of such
    sentences checked."""
    corpus = " " + " | ".join(" ".join(words(t)) for t in corpus_texts) + " "
    hits, checked = [], 0
    for label, text in our_texts:
        for s in sentences(text):
            w = words(s)
            if len(w) < min_words:
                continue
            checked += 1
            if " " + " ".join(w) + " " in corpus:
                hits.append((label, s))
    return hits, checked


# --------------------------------------------------------------------------- check


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__)
        return 2
    ours = read_headers(argv[0])
    theirs = read_headers(argv[1])
    man_dir = argv[2] if len(argv) == 3 else None
    if not ours or not theirs:
        print("provenance: no headers found in %s or %s" % (argv[0], argv[1]))
        return 2

    # (a) multi-statement bodies
    their_bodies = {}
    for h in theirs:
        for kind, name, body in h.bodies:
            if statements(kind, body) >= MIN_BODY_STATEMENTS:
                their_bodies.setdefault(tuple(body), "%s:%s" % (h.path, name))
    n_bodies = 0
    same_bodies = []
    for h in ours:
        for kind, name, body in h.bodies:
            if statements(kind, body) < MIN_BODY_STATEMENTS:
                continue
            n_bodies += 1
            if tuple(body) in their_bodies:
                same_bodies.append(
                    "%s:%s (%s, %d statements) = upstream %s"
                    % (h.path, name, kind, statements(kind, body), their_bodies[tuple(body)])
                )

    # (b) shared free lines
    their_lines = set()
    for h in theirs:
        for l in logical_lines(h.code):
            if l.strip():
                their_lines.add(norm(l))
    free = [(h.path, l) for h in ours for l in h.free if not is_trivial(l)]
    shared = [(p, l) for p, l in free if norm(l) in their_lines]
    ratio = len(shared) / len(free) if free else 0.0
    n_forced = sum(len(h.forced) for h in ours)

    # (c) comment sentences
    corpus = [c_comment_text(h.comments) for h in theirs]
    if man_dir and os.path.isdir(man_dir):
        for f in sorted(os.listdir(man_dir)):
            with open(os.path.join(man_dir, f), errors="replace") as fh:
                corpus.append(man_page_text(fh.read()))
    ours_text = [(h.path, c_comment_text(h.comments)) for h in ours]
    copied, n_sentences = copied_sentences(ours_text, corpus)

    print(
        "provenance: our %d headers vs upstream's %d headers%s"
        % (
            len(ours),
            len(theirs),
            " and %d man pages" % (len(corpus) - len(theirs)) if man_dir else "",
        )
    )
    print(
        "  (a) bodies of >= %d statements token-identical to upstream: %d of %d"
        % (MIN_BODY_STATEMENTS, len(same_bodies), n_bodies)
    )
    for s in same_bodies:
        print("        " + s)
    print(
        "  (b) non-forced code lines identical to an upstream line: %d of %d (%.1f %%, "
        "limit %.0f %%; %d forced lines not counted)"
        % (len(shared), len(free), 100 * ratio, 100 * MAX_SHARED_LINE_RATIO, n_forced)
    )
    if ratio > MAX_SHARED_LINE_RATIO or os.environ.get("PROVENANCE_VERBOSE"):
        for p, l in shared:
            print("        %s: %s" % (p, norm(l)))
    print(
        "  (c) comment sentences of >= %d words found in upstream's text: %d of %d"
        % (MIN_SENTENCE_WORDS, len(copied), n_sentences)
    )
    for label, s in copied:
        print("        %s: %s" % (label, s))
    ok = not same_bodies and ratio <= MAX_SHARED_LINE_RATIO and not copied
    print("provenance: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
