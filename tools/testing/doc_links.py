#!/usr/bin/env python3
"""Check the Markdown links of README.md, Documentation/ and bench/ (make check).

Every relative link must name a file that exists and, with a #fragment,
a heading of that file (GitHub's anchors: lower case, punctuation but
'-' and '_' dropped, spaces to '-'). Links with a scheme (http:, ...)
are not followed. Prints one line per broken link; exits 1 if any.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')


def anchors(path):
    out, fence = set(), False
    with open(path) as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
            m = None if fence else re.match(r'#+\s+(.*)', line)
            if m:
                text = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower())
                out.add(text.replace(' ', '-'))
    return out


def md_files():
    yield os.path.join(ROOT, 'README.md')
    for top in ('Documentation', 'bench'):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if name.endswith('.md'):
                    yield os.path.join(d, name)


def main():
    bad = 0
    for path in md_files():
        with open(path) as f:
            text = f.read()
        for target in LINK.findall(text):
            if re.match(r'[a-z]+:', target):
                continue
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            where = os.path.relpath(path, ROOT)
            if not os.path.exists(dest):
                print('doc links: %s: %s: no such file' % (where, target))
                bad += 1
            elif frag and (not dest.endswith('.md') or frag not in anchors(dest)):
                print('doc links: %s: %s: no such heading' % (where, target))
                bad += 1
    print('doc links: %s' % ('%d broken' % bad if bad else 'ok'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
