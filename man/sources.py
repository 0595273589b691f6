# SPDX-License-Identifier: MIT
"""Reading the sources the reference pages are made from.

- C declarations (prototypes, inline helpers, function-like macros) and the
  comment just above each, from our headers in include/;
- the structured Rust doc comments of the C boundary (src/capi/*.rs), from
  man/capi-docs.txt, where tools/gen (`make headers`) writes them after
  reading the Rust source with a Rust parser: nothing here reads Rust;
- the exported symbol list, src/liburing-ffi.map and src/liburing.map.

Nothing here knows about roff: see generate.py.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The headers a program gets from #include <liburing.h>, in include order of
# the parts that declare functions.
HEADERS = ["include/liburing.h", "include/liburing/barrier.h",
           "include/liburing/functions.h", "include/liburing/prep.h"]

# Words of a declaration head that are linkage, not type.
LINKAGE = {"IOURINGINLINE", "_LOCAL_INLINE", "static", "inline", "extern"}


def read(path, root=ROOT):
    with open(os.path.join(root, path)) as f:
        return f.read()


# --------------------------------------------------------------------------- symbols
def map_symbols(path):
    """Names listed in a linker version script."""
    return re.findall(r"^\s*([A-Za-z_]\w*);", read(path), re.M)


def symbol_versions():
    """name -> (liburing release, exact): the version node that first exports
    each symbol. liburing-ffi's first node (2.4) also holds every inline
    helper older than it, so a 2.4 from that map means "2.4 or earlier"."""
    out = {}
    for path, exact_from in (("src/liburing.map", "0"), ("src/liburing-ffi.map", "2.5")):
        text = read(path)
        for node, body in re.findall(r"^LIBURING_([\d.]+)\s*\{(.*?)\}", text, re.M | re.S):
            exact = tuple(map(int, node.split("."))) >= tuple(map(int, exact_from.split(".")))
            for name in re.findall(r"^\s*([A-Za-z_]\w*);", body, re.M):
                out.setdefault(name, (node, exact))
    return out


def exported_symbols():
    return sorted(set(map_symbols("src/liburing-ffi.map")) | set(map_symbols("src/liburing.map")))


# --------------------------------------------------------------------------- C headers
class Decl:
    """One declaration: `kind` is "function" or "macro"; `prototype` is the
    C text without linkage words and without the trailing `;` or body;
    `comment` the block comment right above it (prose, may be empty);
    `body` the inline function's body (empty for a prototype)."""

    def __init__(self, kind, name, prototype, comment, body, header):
        self.kind, self.name, self.prototype = kind, name, prototype
        self.comment, self.body, self.header = comment, body, header


def _comment_prose(c):
    lines = [re.sub(r"^\s*\*+ ?", "", l) for l in c[2:-2].split("\n")]
    return "\n".join(lines).strip()


def _match_paren(text, i):
    """Index just past the `)` matching the `(` at text[i]."""
    depth = 0
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced parentheses")


def _match_brace(text, i):
    depth = 0
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def squeeze(s):
    """One line, single blanks, no blank inside parentheses or before `,`."""
    s = " ".join(s.split())
    s = re.sub(r"\(\s+", "(", s)
    s = re.sub(r"\s+\)", ")", s)
    s = re.sub(r"\s+,", ",", s)
    return s


def parse_header(path, root=ROOT):
    """Every top-level function declaration/definition and function-like
    #define of one header, in order."""
    text = read(path, root)
    decls = []
    # Items: comments, preprocessor lines (with continuations), code.
    item_re = re.compile(r"/\*.*?\*/|//[^\n]*|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*|[^/#]+|[/#]",
                         re.S | re.M)
    last_comment, code = "", []
    items = [m.group() for m in item_re.finditer(text)]
    # Top-level code is split into statements at `;` and at `}` of bodies.
    pending = ""
    pending_comment = ""
    for it in items:
        if it.startswith("/*"):
            if not pending.strip():
                pending_comment = _comment_prose(it)
            continue
        if it.startswith("//"):
            continue
        if it.lstrip().startswith("#"):
            m = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)\(([^)]*)\)", it)
            if m:
                args = ", ".join(a.strip() for a in m.group(2).split(","))
                decls.append(Decl("macro", m.group(1), "#define %s(%s)" % (m.group(1), args),
                                  pending_comment if not pending.strip() else "", it, path))
            # A conditional between a comment and its function keeps the comment.
            if not pending.strip() and not re.match(r"\s*#\s*(if|ifdef|ifndef|endif)\b", it):
                pending_comment = ""
            continue
        pending += it
        # Consume complete top-level items from `pending`.
        while True:
            s = pending
            semi = s.find(";")
            brace = s.find("{")
            close = s.find("}")
            if close >= 0 and (brace < 0 or close < brace) and (semi < 0 or close < semi):
                pending = s[close + 1:]     # end of an extern "C" block
                continue
            if semi < 0 and brace < 0:
                break
            if brace >= 0 and (semi < 0 or brace < semi) and squeeze(s[:brace]) == 'extern "C"':
                pending = s[brace + 1:]
                continue
            if brace >= 0 and (semi < 0 or brace < semi):
                try:
                    end = _match_brace(s, brace)
                except ValueError:
                    break   # body continues in a later item
                head, body = s[:brace], s[brace:end]
                rest = s[end:]
                if rest.lstrip().startswith(";"):
                    rest = rest.lstrip()[1:]
            else:
                head, body, rest = s[:semi], "", s[semi + 1:]
            _add_function(decls, head, body, pending_comment, path)
            pending, pending_comment = rest, ""
    return decls


def _add_function(decls, head, body, comment, path):
    head = squeeze(head.replace("LIBURING_NOEXCEPT", ""))
    if head.startswith("extern \"C\"") or head.startswith("typedef") or "(" not in head:
        return
    m = re.search(r"([A-Za-z_]\w*)\s*\($", head[:head.index("(") + 1])
    if not m:
        return
    name = m.group(1)
    close = _match_paren(head, head.index("("))
    if head[close:].strip():
        return   # not a plain function declaration (e.g. an attribute list)
    words = head[:m.start()].split()
    if not words or words[0] in ("struct", "union", "enum") and "{" in head:
        return
    ret = " ".join(w for w in words if w not in LINKAGE)
    if not ret:
        return
    proto = squeeze((ret + " " if not ret.endswith("*") else ret) + head[m.start():close])
    decls.append(Decl("function", name, proto, comment, body, path))


def declarations(include_dir=None):
    """name -> first Decl across our headers (the inline definition comes
    before any extern prototype of the same name). `include_dir`: read an
    installed copy (DIR/liburing.h, ...) instead of the source tree."""
    out = {}
    for h in HEADERS:
        path, root = (h, ROOT) if include_dir is None else (h[len("include/"):], include_dir)
        if include_dir is not None and not os.path.exists(os.path.join(root, path)):
            continue  # `make install` splices it into liburing.h, parsed above
        for d in parse_header(path, root):
            # In C the barrier helpers are macros (C++ gets templates).
            if d.name not in out or d.kind == "macro" and out[d.name].kind != "macro":
                out[d.name] = d
    return out


# Function-like macros of liburing.h that get no page: the compiler hints
# the header defines for its own inline code. liburing documents them
# nowhere, and a page outside the io_uring / IO_URING / __io_uring names
# would be a file distribution recipes do not list (Debian's
# liburing-dev.manpages takes exactly those patterns; its dh_missing then
# fails the build: make check-debian).
UNDOCUMENTED_MACROS = {"uring_likely", "uring_unlikely"}


def public_macros(decls):
    """Function-like macros a program may use: not reserved (`__`) names,
    not the header's own compiler hints."""
    return sorted(n for n, d in decls.items() if d.kind == "macro" and not n.startswith("_")
                  and n not in UNDOCUMENTED_MACROS)


def split_params(prototype):
    """[(type, name)] of a prototype's parameters (no function pointers in
    this API, so a comma split is enough)."""
    inner = prototype[prototype.index("(") + 1:prototype.rindex(")")].strip()
    if inner in ("", "void"):
        return []
    out = []
    for p in inner.split(","):
        p = p.strip()
        m = re.match(r"(.*?)([A-Za-z_]\w*)(\[\])?$", p)
        out.append((m.group(1).strip(), m.group(2)) if m else (p, ""))
    return out


# --------------------------------------------------------------------------- Rust docs
class RustDoc:
    """A boundary function's doc comment split at `# Heading` lines:
    `description` is the text before the first heading; `sections` maps a
    lower-case heading to its text."""

    def __init__(self, name, description, sections, path):
        self.name, self.description, self.sections, self.path = name, description, sections, path


# The boundary's doc comments, written by tools/gen (`make headers`) from
# src/capi/*.rs read with a Rust parser.
CAPI_DOCS = "man/capi-docs.txt"


def capi_docs():
    """name -> RustDoc of every exported function of the C boundary."""
    docs, name, path, doc = {}, None, None, []
    for line in read(CAPI_DOCS).split("\n"):
        if line.startswith("|"):
            doc.append(line[1:])
            continue
        if line.startswith("fn "):
            if name is not None:
                docs[name] = _split_doc(name, doc, path)
            name, path = line[3:].split(" ", 1)
            doc = []
    if name is not None:
        docs[name] = _split_doc(name, doc, path)
    return docs


def _split_doc(name, lines, path):
    description, sections, current = [], {}, None
    for l in lines:
        m = re.match(r"#\s+(.*)$", l)
        if m:
            current = m.group(1).strip().lower()
            sections[current] = []
            continue
        (sections[current] if current else description).append(l)
    return RustDoc(name, "\n".join(description).strip(),
                   {k: "\n".join(v).strip() for k, v in sections.items()}, path)
