#!/usr/bin/env python3
"""Linux's scripts/checkpatch.pl over the kernel's sources, with the
exceptions a tree that is not Linux needs, each with its reason.

Runs checkpatch.pl -f on every C source and header under kernel/, mm/,
lib/ and arch/ (two processes at once), leaves out the message types of
IGNORED and the (file, type) pairs of PER_FILE, prints the rest in
checkpatch's terse form and fails if any is left. The list is the one
in Documentation/process/coding-style.md, which explains each entry.
"""
import argparse
import concurrent.futures
import re
import subprocess
import sys

# Types left out everywhere (Documentation/process/coding-style.md).
IGNORED = {
    "NR_CPUS": "small per-CPU arrays are sized by NR_CPUS on purpose",
    "VSPRINTF_SPECIFIER_PX": "reports print real addresses (no KASLR)",
    "EMBEDDED_FUNCTION_NAME": "messages name the API the caller called",
    "NEW_TYPEDEFS": "Linux's own typedefs (pg_data_t, spinlock_t, gfp_t)",
    "AVOID_EXTERNS": "linker-section bounds declared where they are read",
    "LOGGING_CONTINUATION": "KERN_CONT lines of the shell's tables",
    "SPDX_LICENSE_TAG": "checked by the compile checks instead",
    "FILE_PATH_CHANGES": "no MAINTAINERS file",
    "ENOSYS": "an arch hook that this arch lacks returns -ENOSYS",
}

# (file, type) pairs: what the file is for.
PER_FILE = {
    ("kernel/compiler.h", "PREFER_DEFINED_ATTRIBUTE_MACRO"):
        "it defines those macros",
    ("kernel/compiler.h", "COMPLEX_MACRO"): "attribute macros",
    ("kernel/compiler.h", "VOLATILE"): "READ_ONCE()/WRITE_ONCE()",
    ("kernel/compiler.h", "IS_ENABLED_CONFIG"): "it defines IS_ENABLED()",
    ("arch/x86_64/io.h", "VOLATILE"): "memory-mapped I/O",
    ("kernel/errno.h", "ENOSYS"): "the error numbers' table",
    ("kernel/printk.h", "PREFER_PR_LEVEL"): "it defines pr_*()",
    ("kernel/printk.h", "PRINTK_WITHOUT_KERN_LEVEL"): "it declares printk()",
    ("kernel/printk.c", "PRINTK_WITHOUT_KERN_LEVEL"): "it defines printk()",
    ("mm/slab.c", "COMPLEX_MACRO"): "the kmalloc size table's initialisers",
    ("mm/slab.c", "CONSTANT_COMPARISON"): "build-time checks of two constants",
    ("mm/slab_internal.h", "SPACING"): "_Generic()'s type labels",
    ("kernel/params.h", "COMPLEX_MACRO"): "boot_run() defines a variable",
    ("kernel/spinlock.h", "COMPLEX_MACRO"):
        "__spin_inline: always inline only with the validator",
    ("kernel/spinlock.h", "PREFER_DEFINED_ATTRIBUTE_MACRO"):
        "__spin_inline: always inline only with the validator",
    ("kernel/spinlock.h", "USE_LOCKDEP"): "it defines spin_is_locked()",
    ("lib/ktest/ktest.h", "MACRO_WITH_FLOW_CONTROL"):
        "KTEST_ARRAY_PARAM() defines a function",
    ("lib/ktest/ktest.h", "SPACING"): "KTEST_ARRAY_PARAM()'s pointer types",
    ("arch/host/main.c", "STATIC_CONST_CHAR_ARRAY"): "arch_name is exported",
    ("arch/x86_64/setup.c", "STATIC_CONST_CHAR_ARRAY"): "arch_name is exported",
    ("arch/x86_64/acpi.c", "PREFER_PR_LEVEL"): "Linux's lines, without the file's pr_fmt prefix",
    ("arch/x86_64/e820.c", "PREFER_PR_LEVEL"): "Linux's lines, without the file's pr_fmt prefix",
    ("arch/x86_64/efi.c", "PREFER_PR_LEVEL"): "Linux's lines, without the file's pr_fmt prefix",
}

TERSE = re.compile(r"^([\w./-]+):(\d+): (WARNING|ERROR|CHECK):(\w+): (.*)$")


def run(checkpatch, files):
    """checkpatch's terse lines for files."""
    out = subprocess.run(["perl", checkpatch, "--no-tree", "--terse", "-f",
                          "--show-types", "--quiet"]
                         + files, capture_output=True, text=True,
                         timeout=600)
    return out.stdout.splitlines()


def findings(checkpatch, files):
    """[(file, line, level, type, text)] not excepted."""
    halves = [files[0::2], files[1::2]]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        lines = [line for part in pool.map(lambda f: run(checkpatch, f),
                                           [h for h in halves if h])
                 for line in part]
    left = []
    for line in lines:
        m = TERSE.match(line)
        if not m:
            continue
        path, num, level, kind, text = m.groups()
        if kind in IGNORED or (path, kind) in PER_FILE:
            continue
        left.append((path, int(num), level, kind, text))
    return sorted(left)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpatch", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    left = findings(args.checkpatch, args.files)
    for path, num, level, kind, text in left:
        print("%s:%d: %s:%s: %s" % (path, num, level, kind, text))
    print("checkpatch: %d files, %s" % (
        len(args.files), "%d findings" % len(left) if left else "clean"))
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
