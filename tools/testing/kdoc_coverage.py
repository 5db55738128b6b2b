#!/usr/bin/env python3
"""Check that the API headers document every function (make check).

For each header named, every function declared or defined at file scope
(prototypes and static inlines) and every function-like macro (#define
NAME(...)) must have a kernel-doc block right above it: a comment opening
with '/**' whose first line is 'NAME() - ...' (or 'NAME - ...'), with
nothing but blank lines between its end and the declaration (the first
one, where a prototype comes before the definition), and a Context:
section in it (where the function may be called from). Typedefs,
structs and variables are not looked at.

Usage: kdoc_coverage.py HEADER...
Prints one line per undocumented name and a summary; exits 1 if any.
"""
import re
import sys

# Attribute macros that look like calls in a declaration.
ATTRS = {'__alloc_size', '__realloc_size', '__aligned', '__attribute__',
         '__printf', '__section', '__must_check'}
MACRO = re.compile(r'#\s*define\s+(\w+)\(')
CALL = re.compile(r'\b(\w+)\s*\(')
DOC_NAME = re.compile(r'/\*\*\s*\n?\s*\*?\s*(\w+)(\(\))?\s+-\s')


def declarations(text):
    """Yield (name, offset) for the functions and function-like macros."""
    i, n = 0, len(text)
    depth = 0
    start = None            # offset of the statement being read
    stmt = []
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            i = text.index('*/', i) + 2
            continue
        if text.startswith('//', i):
            i = text.find('\n', i)
            i = n if i < 0 else i
            continue
        if c == '#' and depth == 0 and (i == 0 or text[i - 1] == '\n'):
            end = i
            while True:
                end = text.find('\n', end)
                if end < 0:
                    end = n
                    break
                if text[end - 1] != '\\':
                    break
                end += 1
            m = MACRO.match(text, i)
            if m:
                yield m.group(1), i
            i = end
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            continue
        if depth == 0:
            if start is None and not c.isspace():
                start = i
            if c == ';' or c == '{':
                s = ''.join(stmt)
                if c == '{' and '(' not in s:
                    # A struct, union or enum body: read on to its ';'.
                    depth = 1
                    stmt.append(c)
                    i += 1
                    continue
                name = function_name(s)
                if name:
                    yield name, start
                if c == '{':
                    depth = 1
                    stmt = None   # skip a function body
                else:
                    stmt, start = [], None
            elif stmt is not None:
                stmt.append(c)
        else:
            if c == '{':
                depth += 1
            elif c == '}':
                depth -= 1
                if depth == 0 and stmt is None:
                    stmt, start = [], None
        i += 1


def function_name(stmt):
    s = ' '.join(stmt.split())
    if not s or s.startswith('typedef') or '{' in s:
        return None
    for m in CALL.finditer(s):
        if m.group(1) in ATTRS:
            continue
        # 'type (*name)(...)' is a variable, not a function.
        if s[m.start():].startswith('(*'):
            return None
        return m.group(1)
    return None


def doc_problem(text, offset, name):
    """What is wrong with name's block, or None."""
    before = text[:offset].rstrip()
    begin = before.rfind('/*')
    if not before.endswith('*/') or begin < 0 or \
            not before.startswith('/**', begin):
        return 'has no kernel-doc block above it'
    m = DOC_NAME.match(before, begin)
    if not m or m.group(1) != name:
        return 'has no kernel-doc block above it (the one there names %s)' % (
            m.group(1) if m else 'nothing')
    if not re.search(r'^\s*\*\s*Context:', before[begin:], re.M):
        return 'has a kernel-doc block without a Context: line'
    return None


def main(paths):
    missing = total = 0
    for path in paths:
        with open(path) as f:
            text = f.read()
        seen = set()
        for name, offset in declarations(text):
            if name in seen:
                continue    # a definition after its documented prototype
            seen.add(name)
            total += 1
            problem = doc_problem(text, offset, name)
            if problem:
                line = text.count('\n', 0, offset) + 1
                print('kdoc coverage: %s:%d: %s %s' % (path, line, name, problem))
                missing += 1
    print('kdoc coverage: %s' % ('%d of %d not documented' % (missing, total)
                                 if missing else '%d documented, ok' % total))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
