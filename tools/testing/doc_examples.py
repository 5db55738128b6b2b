#!/usr/bin/env python3
"""Check that the code examples of the documentation are the code the
tests run.

A Markdown file marks an example with a comment line

    <!-- example: FILE NAME -->

followed by a blank line and an indented code block (four spaces). FILE
(from the top of the tree) holds the same lines between the comments
"/* example: NAME */" and "/* end example */". Every marked block must
equal its source, so the document shows what the tests compile and run
(tests/test_examples.c, the `examples` suite). Exit status 1 on any
difference or a marker that names nothing.
"""
import glob
import re
import sys

MARK = re.compile(r"^<!-- example: (\S+) (\S+) -->\s*$")


def source_block(path, name):
    """The lines of example name in path, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"/\* example: %s \*/\n(.*?)/\* end example \*/\n"
                  % re.escape(name), text, re.S)
    return m.group(1).rstrip("\n").split("\n") if m else None


def doc_block(lines, start):
    """The indented block after the blank line that follows line start."""
    i = start + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = []
    while i < len(lines) and (lines[i].startswith("    ") or
                              not lines[i].strip()):
        block.append(lines[i][4:] if lines[i].strip() else "")
        i += 1
    while block and not block[-1]:
        block.pop()
    return block


def check(doc):
    """[(ok, text)] for the examples of one Markdown file."""
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    results = []
    for n, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        path, name = m.groups()
        want = source_block(path, name)
        if want is None:
            results.append((False, "%s:%d: %s has no example %s" %
                            (doc, n + 1, path, name)))
            continue
        got = doc_block(lines, n)
        same = got == want
        where = next((i for i, (a, b) in enumerate(zip(got, want))
                      if a != b), min(len(got), len(want)))
        results.append((same, "%s:%d: example %s %s" % (
            doc, n + 1, name, "is %s's" % path if same else
            "differs from %s at its line %d" % (path, where + 1))))
    return results


def main():
    docs = sys.argv[1:] or sorted(glob.glob("Documentation/**/*.md",
                                            recursive=True))
    results = [r for doc in docs for r in check(doc)]
    for ok, text in results:
        if not ok:
            print("doc examples: " + text)
    failed = sum(1 for ok, _ in results if not ok)
    print("doc examples: %d checked, %s" % (len(results),
          "%d differ" % failed if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
