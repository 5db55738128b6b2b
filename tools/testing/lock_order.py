#!/usr/bin/env python3
"""Check the lock order the validator saw against the documented one.

Every boot and host run of `make test` ends with the lock validator's
graph (kernel/lockdep.c, lockdep_print_graph()): its classes,

    lockdep: class IDX NAME/SUBCLASS FILE

(FILE is the spin_lock_init() site's file, "-" for a lock defined with
DEFINE_SPINLOCK), and its dependencies,

    lockdep: dep A B

B taken while A was held. Documentation/locking/locking.md's numbered
list is the order, written once: each item begins with the lock's name
in backquotes and may name the files whose locks it means, also in
backquotes, in the parenthesis that follows. A lock may be taken while
holding only locks above it.

The check fails on a class the document lacks, and on a dependency
whose locks the document orders the other way or puts at the same
place (two zones' locks at once). Classes defined in tests/ (the
validator's own test locks, which break the order on purpose) are left
out: a DEFINE_SPINLOCK() class is found by its name in the tree.
"""
import argparse
import os
import re
import sys

CLASS_LINE = re.compile(r"lockdep: class (\d+) (\S+)/(\d+) (\S+)\s*$")
DEP_LINE = re.compile(r"lockdep: dep (\d+) (\d+)\s*$")
ITEM_LINE = re.compile(r"^\s*(\d+)\.\s+`([^`]+)`(?:\s*\(([^)]*)\))?")
PATH = re.compile(r"`([\w./-]+\.[chS])`")


def parse_doc(path):
    """[(rank, name, files)] of the numbered list under 'The lock order'."""
    items, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## The lock order"
                continue
            m = ITEM_LINE.match(line) if inside else None
            if m:
                files = set(PATH.findall(m.group(3) or ""))
                items.append((int(m.group(1)), m.group(2), files))
    return items


def parse_graph(text):
    """({idx: (name, file)}, [(a, b)]) of one log's last graph."""
    classes, deps = {}, []
    for line in text.splitlines():
        m = CLASS_LINE.search(line)
        if m:
            if m.group(1) == "0":     # a new graph: keep the last one
                classes, deps = {}, []
            classes[m.group(1)] = (m.group(2).lstrip("&"), m.group(4))
            continue
        m = DEP_LINE.search(line)
        if m:
            deps.append((m.group(1), m.group(2)))
    return classes, deps


def static_lock_files(root):
    """{name: file} of every DEFINE_SPINLOCK() in the tree."""
    found = {}
    pattern = re.compile(r"DEFINE_SPINLOCK\((\w+)\)")
    for top in ("arch", "kernel", "mm", "lib", "tests", "bench", "fuzz"):
        for dirpath, _dirs, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lock in pattern.findall(f.read()):
                        found.setdefault(lock, os.path.relpath(path, root))
    return found


def class_file(cls, statics):
    name, file = cls
    return statics.get(name, "-") if file == "-" else file


def rank_of(cls, items, statics):
    """The document's rank of a class, or None."""
    name, _ = cls
    file = class_file(cls, statics)
    for rank, doc_name, files in items:
        if doc_name == name and (not files or file in files or file == "-"):
            return rank
    return None


def check(texts, doc, root):
    """[(ok, text)]: one line per class and per dependency seen."""
    items = parse_doc(doc)
    statics = static_lock_files(root)
    if not items:
        return [(False, "%s: no numbered list under '## The lock order'" % doc)]
    seen_classes, seen_deps = {}, set()
    for text in texts:
        classes, deps = parse_graph(text)
        for idx, cls in classes.items():
            seen_classes[(cls[0], class_file(cls, statics))] = cls
        for a, b in deps:
            if a in classes and b in classes:
                seen_deps.add((classes[a], classes[b]))
    results = []
    tested = lambda c: class_file(c, statics).startswith("tests/")  # noqa: E731
    for key in sorted(seen_classes):
        cls = seen_classes[key]
        if tested(cls):
            continue
        rank = rank_of(cls, items, statics)
        results.append((rank is not None, "lock %s (%s)%s" % (
            key[0], key[1], " is item %d" % rank if rank is not None
            else " is not in the lock order")))
    for a, b in sorted(seen_deps):
        if tested(a) or tested(b):
            continue
        ra, rb = rank_of(a, items, statics), rank_of(b, items, statics)
        if ra is None or rb is None:
            continue                  # reported above
        results.append((ra < rb, "%s (%d) then %s (%d)%s" % (
            a[0], ra, b[0], rb, "" if ra < rb else
            ": the document forbids this order")))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc", default="Documentation/locking/locking.md")
    ap.add_argument("--root", default=".")
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()
    texts = []
    for path in args.logs:
        with open(path, encoding="utf-8", errors="replace") as f:
            texts.append(f.read())
    results = check(texts, args.doc, args.root)
    for ok, text in results:
        print("lock order: %s - %s" % ("ok" if ok else "not ok", text))
    failed = sum(1 for ok, _ in results if not ok)
    print("lock order: %d checked, %d failed" % (len(results), failed))
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
