#!/usr/bin/env python3
"""Compile-time checks of the allocators' headers (make test, make check).

Each check compiles a file of tools/testing/compile/ with the kernel's
compiler and flags (object code to /dev/null, nothing is linked) and
looks at what the compiler said:

  kmalloc_user.c    must compile: the API headers are enough for a caller.
  shrinker_user.c   must compile: the same for a shrinker (mm/shrinker.h).
  slab_internals.c  must fail, with an error (warnings made errors aside)
  page_internals.c  on each line marked "internal" and nowhere else, and
                    must compile once the internal header is added with
                    -include: the errors are the header split's.
  alloc_size.c      must warn (-Warray-bounds, -Wstringop-overflow) on each
                    line marked "past the end" and nowhere else: the
                    allocation functions' __alloc_size attributes reach the
                    compiler. gcc only: clang does not warn on heap objects.

Usage: compile_checks.py --cc CC -- CFLAGS...
Prints one line per check and exits 1 if any failed.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'compile')
DIAG = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):\d+: (?P<kind>error|warning): (?P<msg>.*)$')


def compile_file(cc, cflags, name, extra=()):
    """Compile one check file; return (exit status, diagnostics)."""
    path = os.path.join(HERE, name)
    cmd = cc + list(cflags) + list(extra) + ['-c', path, '-o', os.devnull]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    diags = []
    for line in proc.stdout.splitlines():
        m = DIAG.match(line)
        if m and os.path.basename(m.group('file')) == name:
            diags.append((int(m.group('line')), m.group('kind'), m.group('msg')))
    return proc.returncode, diags, proc.stdout


def marked_lines(name, mark):
    with open(os.path.join(HERE, name)) as f:
        return {i for i, line in enumerate(f, 1) if '/* %s */' % mark in line}


def check_compiles(cc, cflags, name):
    rc, _, out = compile_file(cc, cflags, name)
    if rc:
        return False, 'does not compile:\n' + out
    return True, 'compiles with the API headers alone'


def check_internal(cc, cflags, name, header):
    want = marked_lines(name, 'internal')
    rc, diags, out = compile_file(cc, cflags, name)
    # The errors themselves, not the warnings they lead to (-Werror=...).
    got = {line for line, kind, msg in diags
           if kind == 'error' and '[-Werror' not in msg}
    if rc == 0:
        return False, 'compiles without %s: the API headers expose internals' % header
    if got != want:
        return False, ('errors on lines %s, expected exactly on lines %s:\n%s'
                       % (sorted(got), sorted(want), out))
    rc, _, out = compile_file(cc, cflags, name, ['-include', header])
    if rc:
        return False, 'does not compile even with %s:\n%s' % (header, out)
    return True, ('fails on its %d marked lines without %s, compiles with it'
                  % (len(want), header))


def check_alloc_size(cc, cflags, name):
    want = marked_lines(name, 'past the end')
    flags = [f for f in cflags if f != '-Werror' and not f.startswith('-O')]
    flags += ['-O2', '-Warray-bounds', '-Wstringop-overflow']
    rc, diags, out = compile_file(cc, flags, name)
    got = {line for line, kind, msg in diags
           if kind == 'warning' and re.search(r'array-bounds|stringop-overflow', msg)}
    others = [d for d in diags if d[0] not in got]
    if rc:
        return False, 'does not compile:\n' + out
    if got != want or others:
        missing = sorted(want - got)
        return False, ('warnings on lines %s, expected exactly on lines %s%s:\n%s'
                       % (sorted(got), sorted(want),
                          ' (no __alloc_size on the allocation of lines %s?)' % missing
                          if missing else '', out))
    return True, 'the compiler sees the %d writes past the end' % len(want)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cc', required=True, help='the compiler command')
    ap.add_argument('cflags', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cc = shlex.split(args.cc)
    cflags = [f for f in args.cflags if f != '--']
    version = subprocess.run(cc + ['--version'], stdout=subprocess.PIPE,
                             text=True, check=False).stdout
    checks = [
        ('kmalloc_user.c', lambda n: check_compiles(cc, cflags, n)),
        ('shrinker_user.c', lambda n: check_compiles(cc, cflags, n)),
        ('slab_internals.c',
         lambda n: check_internal(cc, cflags, n, 'mm/slab_internal.h')),
        ('page_internals.c',
         lambda n: check_internal(cc, cflags, n, 'mm/internal.h')),
    ]
    if 'clang' not in version:
        checks.append(('alloc_size.c', lambda n: check_alloc_size(cc, cflags, n)))
    else:
        print('compile check: skipped - alloc_size.c: clang does not warn on heap objects')
    failed = 0
    for name, check in checks:
        ok, what = check(name)
        failed += not ok
        print('compile check: %s - %s: %s' % ('ok' if ok else 'FAILED', name, what))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
