#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the reference manual: man/generate.py OUT_DIR (make man).

Where each page's text comes from (one place per fact):
  section 3, library functions   Rust doc comments in src/capi/*.rs
                                 (description, then `# Arguments`,
                                 `# Return value`, `# Errors`, `# Notes`,
                                 `# See also`; `# Safety` becomes a note),
                                 as tools/gen copies them into
                                 man/capi-docs.txt
  section 3, io_uring_prep_*     the helper table src/prep/table.rs, through
                                 the comments and stores it generates into
                                 include/liburing/prep.h
  section 3, other inline
  helpers and macros             the comment above the definition in our
                                 headers, plus man/inline_docs.py
  SYNOPSIS of all of these       the declaration in our headers
  sections 2 and 7               hand-written pages in man/pages/, whose
                                 `.\\" @example FILE` lines pull in the
                                 compiled examples of man/examples/ and
                                 `.\\" @names REGEX` lines the rows of
                                 man/kernel-releases.tsv
  kernel releases                man/kernel-releases.tsv, written by tools/gen
                                 from uapi/src/releases.rs (also the prep
                                 pages' "available since" notes)
Output: OUT_DIR/man2, man3, man7 (and OUT_DIR/names.txt: every name and its
page, for the checks).
"""

import os
import re
import sys

import inline_docs
import releases
import roff
import sources

HERE = os.path.dirname(os.path.abspath(__file__))

# The EXAMPLES of section 3 pages: the main page of each family shows a
# compiled example of man/examples/ (make check-man builds and runs each),
# introduced by a sentence of its own.
SECTION3_EXAMPLES = {
    "io_uring_queue_init": ("queue_init.c", "Setting up a ring and reading back the sizes "
                            "and features the kernel granted:"),
    "io_uring_queue_init_params": ("setup_fallback.c", "Asking for the newest setup flags "
                                   "and dropping them while an older kernel refuses them:"),
    "io_uring_submit": ("submit_wait.c", "One write and one read, each submitted and then "
                        "reaped; the tag in user_data tells the completions apart:"),
    "io_uring_wait_cqe": ("submit_wait.c", "Waiting for each request in turn and checking "
                          "its result:"),
    "io_uring_submit_and_wait": ("fixed_buffers.c", "Submitting two requests and waiting "
                                 "for both with one call:"),
    "io_uring_for_each_cqe": ("defer_taskrun_server.c", "Reaping a batch of completions "
                              "with the loop and one io_uring_cq_advance():"),
    "io_uring_prep_read": ("submit_wait.c", "A write and a read of a temporary file:"),
    "io_uring_prep_write": ("submit_wait.c", "A write and a read of a temporary file:"),
    "io_uring_prep_send": ("socket_send_recv.c", "A receive and a send on a socket pair in "
                           "one submission:"),
    "io_uring_prep_recv": ("socket_send_recv.c", "A receive queued before the send that "
                           "feeds it:"),
    "io_uring_prep_timeout": ("timeout.c", "A timer that expires, and a timeout that ends "
                              "early because another request completed:"),
    "io_uring_prep_link_timeout": ("linked_requests.c", "A chain of linked requests "
                                   "guarded by a timeout:"),
    "io_uring_sqe_set_flags": ("linked_requests.c", "Linking requests with IOSQE_IO_LINK:"),
    "io_uring_prep_openat_direct": ("openat_close.c", "Opening a file into a registered "
                                    "slot, then using and closing it by index:"),
    "io_uring_prep_close_direct": ("openat_close.c", "Closing a registered slot at the end "
                                   "of a chain:"),
    "io_uring_prep_cancel64": ("cancel_read.c", "Canceling a read that would wait "
                               "forever:"),
    "io_uring_prep_poll_multishot": ("multishot_poll.c", "One poll request that reports "
                                     "every time the descriptor becomes readable:"),
    "io_uring_prep_send_zc": ("send_zc.c", "A zero-copy send: the data may change only "
                              "after the notification CQE:"),
    "io_uring_prep_multishot_accept": ("accept_multishot.c", "One accept request that "
                                       "serves several connections:"),
    "io_uring_prep_msg_ring": ("msg_ring.c", "Posting a completion from one ring into "
                               "another:"),
    "io_uring_prep_futex_wait": ("futex_wait_wake.c", "A futex wait ended by a futex "
                                 "wake, both submitted to one ring:"),
    "io_uring_prep_splice": ("splice_file.c", "Moving a file's data into a pipe:"),
    "io_uring_prep_read_fixed": ("fixed_buffers.c", "Writing and reading through a "
                                 "registered buffer:"),
    "io_uring_register_files": ("fixed_files.c", "Registering two files and using them by "
                                "index:"),
    "io_uring_register_buffers": ("fixed_buffers.c", "Registering a buffer and reading "
                                  "into it with io_uring_prep_read_fixed():"),
    "io_uring_setup_buf_ring": ("buffer_ring_recv.c", "A receive that takes its buffer "
                                "from a ring of provided buffers:"),
    "io_uring_get_probe_ring": ("probe_features.c", "Asking which opcodes the running "
                                "kernel supports:"),
    "io_uring_register_ifq": ("zcrx_setup.c", "Registering a zero-copy receive queue "
                              "(skipped where the network device cannot do it):"),
}

# The register operation behind each registration function, so that its page
# can say which kernel it needs (the release comes from kernel-releases.tsv).
CAPI_KERNEL_NAME = {
    "io_uring_register_buffers": "IORING_REGISTER_BUFFERS",
    "io_uring_unregister_buffers": "IORING_UNREGISTER_BUFFERS",
    "io_uring_register_buffers_tags": "IORING_REGISTER_BUFFERS2",
    "io_uring_register_buffers_sparse": "IORING_RSRC_REGISTER_SPARSE",
    "io_uring_register_buffers_update_tag": "IORING_REGISTER_BUFFERS_UPDATE",
    "io_uring_register_files": "IORING_REGISTER_FILES",
    "io_uring_unregister_files": "IORING_UNREGISTER_FILES",
    "io_uring_register_files_tags": "IORING_REGISTER_FILES2",
    "io_uring_register_files_sparse": "IORING_RSRC_REGISTER_SPARSE",
    "io_uring_register_files_update": "IORING_REGISTER_FILES_UPDATE",
    "io_uring_register_files_update_tag": "IORING_REGISTER_FILES_UPDATE2",
    "io_uring_register_file_alloc_range": "IORING_REGISTER_FILE_ALLOC_RANGE",
    "io_uring_register_eventfd": "IORING_REGISTER_EVENTFD",
    "io_uring_unregister_eventfd": "IORING_UNREGISTER_EVENTFD",
    "io_uring_register_eventfd_async": "IORING_REGISTER_EVENTFD_ASYNC",
    "io_uring_register_probe": "IORING_REGISTER_PROBE",
    "io_uring_get_probe": "IORING_REGISTER_PROBE",
    "io_uring_get_probe_ring": "IORING_REGISTER_PROBE",
    "io_uring_register_personality": "IORING_REGISTER_PERSONALITY",
    "io_uring_unregister_personality": "IORING_UNREGISTER_PERSONALITY",
    "io_uring_register_restrictions": "IORING_REGISTER_RESTRICTIONS",
    "io_uring_enable_rings": "IORING_REGISTER_ENABLE_RINGS",
    "io_uring_register_iowq_aff": "IORING_REGISTER_IOWQ_AFF",
    "io_uring_unregister_iowq_aff": "IORING_UNREGISTER_IOWQ_AFF",
    "io_uring_register_iowq_max_workers": "IORING_REGISTER_IOWQ_MAX_WORKERS",
    "io_uring_register_ring_fd": "IORING_REGISTER_RING_FDS",
    "io_uring_unregister_ring_fd": "IORING_UNREGISTER_RING_FDS",
    "io_uring_register_buf_ring": "IORING_REGISTER_PBUF_RING",
    "io_uring_unregister_buf_ring": "IORING_UNREGISTER_PBUF_RING",
    "io_uring_setup_buf_ring": "IORING_REGISTER_PBUF_RING",
    "io_uring_free_buf_ring": "IORING_UNREGISTER_PBUF_RING",
    "io_uring_buf_ring_head": "IORING_REGISTER_PBUF_STATUS",
    "io_uring_register_sync_cancel": "IORING_REGISTER_SYNC_CANCEL",
    "io_uring_register_napi": "IORING_REGISTER_NAPI",
    "io_uring_unregister_napi": "IORING_UNREGISTER_NAPI",
    "io_uring_register_clock": "IORING_REGISTER_CLOCK",
    "io_uring_clone_buffers": "IORING_REGISTER_CLONE_BUFFERS",
    # Offsets and ranges came a release after cloning itself, with the
    # replace flag.
    "io_uring_clone_buffers_offset": "IORING_REGISTER_DST_REPLACE",
    "io_uring_register_sync_msg": "IORING_REGISTER_SEND_MSG_RING",
    "io_uring_register_ifq": "IORING_REGISTER_ZCRX_IFQ",
    "io_uring_resize_rings": "IORING_REGISTER_RESIZE_RINGS",
    "io_uring_register_region": "IORING_REGISTER_MEM_REGION",
    "io_uring_register_query": "IORING_REGISTER_QUERY",
    "io_uring_register_zcrx_ctrl": "IORING_REGISTER_ZCRX_CTRL",
    "io_uring_register_bpf_filter": "IORING_REGISTER_BPF_FILTER",
    "io_uring_register_bpf_filter_task": "IORING_REGISTER_BPF_FILTER",
    "io_uring_set_iowait": "IORING_FEAT_NO_IOWAIT",
}

# Section 2 and 7 pages are hand-written; these names exist as pages there.
SYSCALLS = ["io_uring_setup", "io_uring_enter", "io_uring_enter2", "io_uring_register"]


def first_sentence(text):
    """The NAME line's summary: the first sentence, cut at its first clause
    when long, starting lower-case unless it starts with a constant."""
    text = " ".join(text.split())
    m = re.match(r"(.+?(?<!i\.e)(?<!e\.g)[.:;])(\s|$)", text)
    s = (m.group(1) if m else text).rstrip(".:;")
    s = re.sub(r"`([^`]*)`", r"\1", s).replace("@", "")
    if len(s) > 80:
        depth = 0
        for i, c in enumerate(s):
            depth += (c == "(") - (c == ")")
            if depth == 0 and i >= 20 and (s.startswith(", ", i) or s.startswith(" (", i)):
                s = s[:i]
                break
    first = s.split(" ", 1)[0]
    if first in ("A", "An") or re.match(r"[A-Z][a-z]", first):
        s = s[:1].lower() + s[1:]
    return s


# Clauses of a Rust `# Safety` section that tell a C reader nothing: every C
# pointer may be NULL or must be valid, and the kernel checks what it gets.
TRIVIAL_SAFETY = [
    r"(`\w+`( and `\w+`)?|Pointers) (must be )?null or (valid|writable|a live ring|"
    r"a ring set up by this library)( for writing)?",
    r"As for .*", r"None beyond the C contract.*", r".*handed to the kernel.*",
    r".*as the kernel requires", r"nothing is dereferenced",
]


def reader_safety(text):
    """What a `# Safety` section says that a C programmer needs: the
    lifetimes and sizes, in sentences, without the trivial clauses."""
    kept = []
    for clause in re.split(r";\s+|(?<=\.)\s+", " ".join(text.split())):
        clause = clause.strip().rstrip(".")
        if not clause or any(re.fullmatch(p, clause) for p in TRIVIAL_SAFETY):
            continue
        clause = re.sub(r"\bnull\b", "NULL", clause)
        clause = re.sub(r"^(`\w+`(?: and `\w+`)?) (readable|writable|(?:NULL or )?valid|from) ",
                        r"\1 must be \2 ", clause)
        kept.append(clause[0].upper() + clause[1:] + ".")
    return " ".join(kept)


def clean_comment(c):
    """Header comment prose without a section banner (=== lines around a
    title, which names the header's section, not the item)."""
    lines = c.split("\n")
    if lines and re.fullmatch(r"\s*=+\s*", lines[0]):
        lines = lines[2:]
    lines = [l for l in lines if not re.fullmatch(r"\s*=+\s*", l)]
    return "\n".join(lines).strip()


class Manual:
    def __init__(self):
        self.decls = sources.declarations()
        self.docs = sources.capi_docs()
        self.symbols = sources.exported_symbols()
        self.macros = sources.public_macros(self.decls)
        self.prep = set(n for n in self.symbols if self.decls[n].header.endswith("prep.h"))
        self.pages = {}      # (section, name) -> text
        self.links = {}      # (section, alias) -> file name of the page it shares
        self.names = {}      # name -> (section, page name)
        self.hand_names = self._hand_written_names()
        self.versions = sources.symbol_versions()
        self.releases = releases.load()
        self.since = releases.since(self.releases)

    # ---------------------------------------------------------------- shared parts
    def see_also(self, name, explicit, text):
        """Explicit names first, then every page the text mentions."""
        refs = []
        for r in explicit:
            r = r.strip().rstrip(",")
            if r and r not in refs:
                refs.append(r)
        for m in re.finditer(r"\b(io_uring_\w+|IO_URING_\w+)\b(\(\d\))?", text):
            ref = m.group(1) + (m.group(2) or "")
            base = m.group(1)
            if base == name or (base not in self.names and base not in self.hand_names):
                continue
            if not m.group(2):
                sec = self.hand_names.get(base) or self.names.get(base, ("3",))[0]
                ref = "%s(%s)" % (base, sec)
            if ref not in refs and not any(x.split("(")[0] == base for x in refs):
                refs.append(ref)
        out = []
        for r in refs:
            m = re.match(r"([\w]+)(?:\((\d)\))?$", r)
            if not m or m.group(1) == name:
                continue
            out.append("%s (%s)" % (m.group(1), m.group(2) or "3"))
        return [".BR " + ",\n.BR ".join(out).replace(" (", " (")] if out else []

    def _hand_written_names(self):
        names = {}
        for f in os.listdir(os.path.join(HERE, "pages")):
            stem, sec = f.rsplit(".", 1)
            names[stem] = sec
            with open(os.path.join(HERE, "pages", f)) as fh:
                for a in re.findall(r'^\.\\" @alias (\S+)$', fh.read(), re.M):
                    names[a] = sec
        return names

    def arguments(self, prototype, meanings):
        """ARGUMENTS-style list inside DESCRIPTION: only documented ones."""
        out = []
        for ty, pname in sources.split_params(prototype):
            if pname in meanings:
                out += [".TP", ".I " + pname, roff.inline(meanings[pname])]
        return out

    def add(self, section, name, text, aliases=()):
        self.pages[(section, name)] = text
        self.names[name] = (section, name)
        for a in aliases:
            self.links[(section, a)] = "%s.%s" % (name, section)
            self.names[a] = (section, name)

    # ---------------------------------------------------------------- section 3
    def capi_page(self, name):
        d, doc = self.decls[name], self.docs.get(name)
        sec = dict(doc.sections) if doc else {}
        desc = doc.description if doc and doc.description else clean_comment(d.comment)
        desc = re.sub(r"\[`([^`]+)`\]", r"`\1`", desc)      # rustdoc links
        # Sentences that compare us with liburing belong in NOTES.
        differs = [s for s in re.split(r"(?<=\.)\s+", " ".join(desc.split()))
                   if "liburing" in s]
        if differs:
            desc = " ".join(s for s in re.split(r"(?<=\.)\s+", " ".join(desc.split()))
                            if s not in differs)
        args = {}
        for line in re.findall(r"^\s*- `?(\w+)`?: (.*(?:\n {2,}.*)*)", sec.pop("arguments", ""),
                               re.M):
            args[line[0]] = line[1]
        ret_type = d.prototype.split(name)[0].strip()
        returns = sec.pop("return value", "") or self.default_return(name, ret_type)
        errors = sec.pop("errors", "") or self.default_errors(name, ret_type)
        notes = sec.pop("notes", "")
        see = re.split(r"[,\s]+", sec.pop("see also", ""))
        safety = sec.pop("safety", "")
        extra = sorted(sec.items())
        body_notes = roff.prose(notes) if notes else []
        for heading, text in extra:
            body_notes += [".SS " + heading.capitalize()] + roff.prose(text)
        if differs:
            body_notes += [".SS Compared with liburing"] + roff.prose(" ".join(differs))
        safety = reader_safety(safety)
        if safety:
            body_notes += [".SS Memory the call relies on"] + roff.prose(safety)
        source = doc.path if doc else d.header
        text = roff.page(name, 3, first_sentence(desc) or name, [
            ("SYNOPSIS", roff.synopsis([d.prototype])),
            ("DESCRIPTION", roff.prose(desc) + self.arguments(d.prototype, args)),
            ("RETURN VALUE", roff.prose(returns) if returns else []),
            ("ERRORS", roff.prose(errors) if errors else []),
            ("NOTES", body_notes),
            ("SEE ALSO", self.see_also(name, see, desc + " " + notes + " " + errors)),
        ], source)
        self.add("3", name, text)

    def default_return(self, name, ret_type):
        if ret_type == "void":
            return ""
        if ret_type == "int" and re.match(r"io_uring_(un)?register|io_uring_submit|"
                                          r"io_uring_queue_init|io_uring_wait", name):
            return "0 or a non-negative count on success; a negated errno value on failure."
        return ""

    def default_errors(self, name, ret_type):
        if ret_type not in ("int", "ssize_t"):
            return ""
        if re.match(r"io_uring_(un)?register|io_uring_clone|io_uring_resize", name):
            return ("Any error of `io_uring_register(2)` for the operation, negated; "
                    "`EINVAL` as well when @ring is NULL.")
        if re.match(r"io_uring_(submit|wait|get_events|peek)", name):
            return "Any error of `io_uring_enter(2)`, negated (for example `EINTR`, `ETIME`)."
        if re.match(r"io_uring_queue_init|io_uring_setup", name):
            return "Any error of `io_uring_setup(2)` or mmap(2), negated."
        return ""

    def prep_page(self, name):
        d = self.decls[name]
        comment = d.comment
        about, meanings = [], {}
        for para in re.split(r"\n\s*\n", comment):
            m = re.match(r"@(\w+): ", para)
            if m:
                for item in re.split(r"\n(?=@\w+: )", para):
                    k, v = item.split(": ", 1)
                    meanings[k[1:]] = v
            else:
                about.append(para)
        about = "\n\n".join(about)
        stores = re.findall(r"sqe->([\w\[\]]+)\s*(\|?=)\s*(.*?);", d.body)
        fields = [".nf"] + [roff.escape("sqe->%s %s %s" % s) for s in stores] + [".fi"]
        ops = re.findall(r"IORING_OP_(\w+)", d.body)
        notes = []
        if ops:
            op = ops[0]
            since = self.since.get("IORING_OP_" + op)
            notes.append(
                ("The request is IORING_OP_%s%s. " % (op, ", available since Linux " + since
                                                       if since else ""))
                + "To check a running kernel, ask `io_uring_get_probe(3)` and test the opcode "
                "with `io_uring_opcode_supported(3)`.")
            # Flags the helper stores that came later than the opcode.
            for flag in sorted(set(re.findall(r"\b(?:IORING|IOSQE|SPLICE)_\w+", d.body))):
                if flag in self.since and since and \
                        releases.version_key(self.since[flag]) > releases.version_key(since):
                    notes.append("The flag %s needs Linux %s or later." % (flag,
                                                                          self.since[flag]))
        if any(s[0] == "file_index" for s in stores):
            notes.append("Direct descriptors (the file_index field) need Linux 5.15; see "
                         "io_uring_registered_files(7).")
        notes.append("The helper is inline in <liburing.h>; liburing-ffi exports it as a "
                     "function for languages that cannot use C inline functions.")
        desc = roff.prose(about) + self.arguments(d.prototype, meanings)
        desc += [".PP"] + roff.prose("The helper stores these fields of the SQE and no "
                                     "others (io_uring_get_sqe() cleared the rest):") + fields
        text = roff.page(name, 3, first_sentence(about), [
            ("SYNOPSIS", roff.synopsis([d.prototype])),
            ("DESCRIPTION", desc),
            ("RETURN VALUE", roff.prose(self.request_result(ops))),
            ("NOTES", roff.prose("\n\n".join(notes))),
            ("SEE ALSO", self.see_also(name, self.same_opcode(name, ops) + [
                "io_uring_get_sqe", "io_uring_submit", "io_uring_wait_cqe"], about)),
        ], "src/prep/table.rs")
        self.add("3", name, text)

    def request_result(self, ops):
        """What the CQE of the prepared request holds, from the opcode's row
        of the kernel-release table."""
        text = "None: the result of the request arrives in the *res* field of its CQE."
        row = next((r for r in self.releases if ops and r.name == "IORING_OP_" + ops[0]), None)
        at = max(row.text.rfind("*res*:"), row.text.find("*res*")) if row else -1
        if at >= 0:
            tail = row.text[at:]
            if tail.startswith("*res*:"):
                tail = "Its *res* holds" + tail[len("*res*:"):]
            text += " " + tail[0].upper() + tail[1:]
        return text + (" On failure *res* is a negated errno value; `io_uring_enter(2)` "
                       "lists the common ones.")

    def same_opcode(self, name, ops):
        """The other helpers that prepare the same opcode."""
        if not ops:
            return []
        op = "IORING_OP_%s" % ops[0]
        return [n for n in sorted(self.prep) if n != name and
                re.search(r"\b%s\b" % op, self.decls[n].body)][:8]

    def inline_page(self, name, extra):
        d = self.decls[name]
        aliases = [a for a, e in inline_docs.INLINE.items() if e.get("alias_of") == name]
        desc = extra.get("about") or clean_comment(d.comment)
        protos = [d.prototype] + [self.decls[a].prototype for a in aliases]
        notes = extra.get("notes", "")
        if d.kind == "function":
            notes = (notes + "\n\n" if notes else "") + (
                "This is an inline function of <liburing.h>; liburing-ffi also exports it.")
        errors = extra.get("errors", "")
        text = roff.page(name, 3, first_sentence(desc), [
            ("SYNOPSIS", roff.synopsis(protos)),
            ("DESCRIPTION", roff.prose(desc)),
            ("RETURN VALUE", roff.prose(extra["returns"]) if extra.get("returns") else []),
            ("ERRORS", roff.prose(errors) if errors else []),
            ("NOTES", roff.prose(notes) if notes else []),
            ("SEE ALSO", self.see_also(name, extra.get("see", []), desc + " " + notes)),
        ], "%s and man/inline_docs.py" % d.header, aliases)
        self.add("3", name, text, aliases)

    # ---------------------------------------------------------------- sections 2, 7
    def hand_page(self, fname):
        stem, sec = fname.rsplit(".", 1)
        with open(os.path.join(HERE, "pages", fname)) as f:
            src = f.read()
        out = []
        for line in src.split("\n"):
            names = re.match(r'\.\\" @names (\S+)$', line)
            m = re.match(r'\.\\" @example (\S+)$', line)
            if names:
                out += releases.render(self.releases, names.group(1))
            elif line == '.\\" @by-release':
                out += releases.render_by_release(self.releases)
            elif m:
                with open(os.path.join(HERE, "examples", m.group(1))) as f:
                    block = roff.code_block(f.read())
                out += block[1:] if out[-1].startswith(".SH") else block
            else:
                out.append(line)
        text = "\n".join(out).replace("@DATE@", roff.DATE).replace("@TITLE@", roff.TITLE) \
            .replace("@MANUAL@", roff.MANUAL)
        aliases = re.findall(r'^\.\\" @alias (\S+)$', src, re.M)
        self.add(sec, stem, text, aliases)

    def add_history(self):
        """A HISTORY section on every section 3 page of an exported name: the
        liburing release that added it and, for registration, the kernel."""
        for (sec, name), text in list(self.pages.items()):
            if sec != "3" or name not in self.versions:
                continue
            node, exact = self.versions[name]
            if exact:
                lines = ["Added in liburing %s (symbol version LIBURING_%s)." % (node, node)]
            else:
                lines = ["Present in liburing %s and earlier releases; liburing-ffi exports it "
                         "under its first symbol version, LIBURING_%s." % (node, node)]
            kname = CAPI_KERNEL_NAME.get(name)
            if kname:
                if kname not in self.since:
                    raise KeyError("CAPI_KERNEL_NAME: %s has no release" % kname)
                lines.append("The kernel side (%s) needs Linux %s." % (kname, self.since[kname]))
            block = [".SH HISTORY"] + roff.prose(" ".join(lines))
            for heading in ("NOTES", "EXAMPLES", "SEE ALSO"):
                at = text.find("\n.SH %s\n" % heading)
                if at >= 0:
                    break
            at = len(text) - 1 if at < 0 else at
            self.pages[(sec, name)] = text[:at + 1] + "\n".join(block) + text[at:]

    def add_examples(self):
        """Each SECTION3_EXAMPLES page gets its EXAMPLES before SEE ALSO."""
        for name, (example, intro) in SECTION3_EXAMPLES.items():
            key = ("3", name)
            if key not in self.pages:
                raise KeyError("SECTION3_EXAMPLES names %s, which has no page" % name)
            with open(os.path.join(HERE, "examples", example)) as f:
                block = [".SH EXAMPLES"] + roff.prose(intro) + roff.code_block(f.read())[1:]
            text = self.pages[key]
            at = text.find("\n.SH SEE ALSO\n")
            at = len(text) - 1 if at < 0 else at
            self.pages[key] = text[:at + 1] + "\n".join(block) + text[at:]

    # ---------------------------------------------------------------- all
    def build(self):
        for f in sorted(os.listdir(os.path.join(HERE, "pages"))):
            self.hand_page(f)
        # Names first, so SEE ALSO can link to any page.
        for n in self.symbols + self.macros:
            self.names.setdefault(n, ("3", n))
        for n in self.symbols + self.macros:
            extra = inline_docs.INLINE.get(n)
            if extra is not None and "alias_of" in extra:
                continue
            if n in self.prep:
                self.prep_page(n)
            elif extra is not None:
                self.inline_page(n, extra)
            elif n in self.docs or self.decls[n].header.endswith("functions.h"):
                self.capi_page(n)
            else:
                self.inline_page(n, {})
        self.add_examples()
        self.add_history()
        return self

    def write(self, out_dir):
        for (sec, name), text in self.pages.items():
            d = os.path.join(out_dir, "man" + sec)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "%s.%s" % (name, sec)), "w") as f:
                f.write(text)
        # Aliases are symbolic links (mandoc and man-db both follow them; the
        # `.so` alternative is one more thing to resolve at display time).
        for (sec, alias), target in self.links.items():
            link = os.path.join(out_dir, "man" + sec, "%s.%s" % (alias, sec))
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(target, link)
        with open(os.path.join(out_dir, "names.txt"), "w") as f:
            for name, (sec, page) in sorted(self.names.items()):
                f.write("%s %s %s\n" % (name, sec, page))


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        return 2
    m = Manual().build()
    m.write(argv[0])
    counts = {}
    for sec, _ in m.pages:
        counts[sec] = counts.get(sec, 0) + 1
    print("man: %s pages in %s" % (", ".join("%d in section %s" % (counts[s], s)
                                             for s in sorted(counts)), argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
