# SPDX-License-Identifier: MIT
"""The C boundary's error returns under make coverage (tools/test/coverage.sh).

Reads llvm-cov's JSON exports (each part, each object) and lists every code
region of src/capi whose source line returns an error (`return -E...`,
`return Err`, `=> Err(`, `e.neg()`), per function that contains it (a
generic helper counts once per instantiation), with the most any export
counted for it. Prints the reached and total counts, then each region no
test reached. Checks made inside a macro (`ring_arg!`) are one
region with their call site and so are not seen here.

    python3 -m pytools.coverage.coverage_errors LLVM-CXXFILT ROOT EXPORT.json...
"""

import json
import re
import subprocess
import sys

ERROR_RETURN = re.compile(r"return (-|Err\b|e\.neg\(\))|=> Err\(|\bErr\(e\) => .*e\.neg\(\)")


def main():
    cxxfilt, root = sys.argv[1], sys.argv[2].rstrip("/") + "/"
    lines = {}
    found = []
    for path in sys.argv[3:]:
        with open(path) as f:
            data = json.load(f)
        for fn in data["data"][0]["functions"]:
            files = fn["filenames"]
            for start, col, _end, _ecol, count, file_id, _exp, kind in (
                r[:8] for r in fn["regions"]
            ):
                name = files[file_id]
                if kind != 0 or not name.startswith(root + "src/capi/"):
                    continue
                rel = name[len(root) :]
                if rel not in lines:
                    with open(name) as src:
                        lines[rel] = src.read().split("\n")
                text = lines[rel][start - 1].strip()
                if not ERROR_RETURN.search(text):
                    continue
                found.append((rel, start, col, fn["name"], count))
    # One key per function and place: the unit tests' and the library's
    # copies of a function share it once demangled without crate hashes.
    names = sorted({f[3] for f in found})
    out = subprocess.run(
        [cxxfilt], input="\n".join(names), capture_output=True, text=True, check=True
    )
    plain = dict(
        zip(names, (re.sub(r"\[[0-9a-f]+\]", "", n) for n in out.stdout.splitlines()), strict=True)
    )
    counts = {}
    for rel, start, col, name, count in found:
        key = (rel, start, col, plain[name])
        counts[key] = max(counts.get(key, 0), count)
    missed = sorted(k for k, c in counts.items() if c == 0)
    print(
        "C boundary error-return regions: %d reached of %d"
        % (len(counts) - len(missed), len(counts))
    )
    for rel, start, col, owner in missed:
        print(
            "unreached %s:%d:%d in %s: %s" % (rel, start, col, owner, lines[rel][start - 1].strip())
        )


if __name__ == "__main__":
    main()
