#!/usr/bin/env python3
"""Render the documentation into one directory (make docs).

  OUT/api/*.rst    the API reference: Linux's scripts/kernel-doc -rst on
                   each header named, one file per header
  OUT/api/*.html   the same as HTML, with docutils (Debian's
                   python3-docutils); kernel-doc's Sphinx C directives
                   are read by small stand-ins defined here, so Sphinx is
                   not needed
  OUT/*.html       README.md and Documentation/**/*.md as HTML, with
                   Python-Markdown (python3-markdown), links to .md
                   files pointing at the .html pages; without it the .md
                   files are copied
  OUT/index.html   (or index.md) a page that links all of it

Everything runs offline. Prints one line per kind of output.

Usage: docs.py --kernel-doc PATH --out DIR HEADER...
"""
import argparse
import html
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import docutils.core
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives
except ImportError:
    docutils = None
try:
    import markdown
except ImportError:
    markdown = None

STYLE = """<style>
body { max-width: 52em; margin: 2em auto; padding: 0 1em;
       font-family: sans-serif; line-height: 1.45; }
pre, code, tt, .kdoc-sig { font-family: monospace; }
pre { background: #f4f4f4; padding: .6em; overflow-x: auto; }
.kdoc-sig { font-weight: bold; background: #eef; padding: .3em .5em;
            margin-top: 2em; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc;
        padding: .2em .5em; }
</style>
"""


def page(title, body):
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n'
            '<title>%s</title>\n%s</head><body>\n%s\n</body></html>\n'
            % (html.escape(title), STYLE, body))


def register_c_directives():
    """Sphinx's C domain directives, as kernel-doc emits them: the
    declaration in a box, the body below it."""

    class CDecl(Directive):
        has_content = True
        required_arguments = 1
        final_argument_whitespace = True

        def run(self):
            m = re.search(r'(\w+)\s*(\(|$)', self.arguments[0])
            sig = nodes.paragraph(classes=['kdoc-sig'],
                                  ids=[nodes.make_id(m.group(1))] if m else [])
            sig += nodes.literal(text=self.arguments[0])
            body = nodes.block_quote()
            self.state.nested_parse(self.content, self.content_offset, body)
            return [sig, body]

    for name in ('c:function', 'c:macro', 'c:struct', 'c:union', 'c:enum',
                 'c:type', 'c:var'):
        directives.register_directive(name, CDecl)


def api_name(header):
    return header.replace('/', '_').replace('.h', '')


def render_api(kernel_doc, headers, out):
    os.makedirs(os.path.join(out, 'api'), exist_ok=True)
    pages = []
    for header in headers:
        proc = subprocess.run(['perl', kernel_doc, '-rst', '-sphinx-version',
                               '3.4.3', os.path.join(ROOT, header)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, check=False)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            raise SystemExit('docs: kernel-doc failed on %s' % header)
        title = '%s\n%s\n\n``#include "%s"``\n\n' % (header, '=' * len(header),
                                                   header)
        rst = os.path.join(out, 'api', api_name(header) + '.rst')
        with open(rst, 'w') as f:
            f.write(title + proc.stdout)
        pages.append((header, rst))
    print('docs: %d headers to reST in %s' % (len(pages), os.path.join(out, 'api')))
    if docutils is None:
        print('docs: no HTML for the API: docutils missing (make deps installs python3-docutils)')
        return [(h, os.path.relpath(r, out)) for h, r in pages]
    register_c_directives()
    links = []
    for header, rst in pages:
        with open(rst) as f:
            source = f.read()
        parts = docutils.core.publish_parts(
            source, source_path=rst, writer_name='html5',
            settings_overrides={'report_level': 2, 'halt_level': 3,
                                'syntax_highlight': 'none'})
        target = rst[:-len('.rst')] + '.html'
        with open(target, 'w') as f:
            f.write(page(header, parts['html_body']))
        links.append((header, os.path.relpath(target, out)))
    print('docs: %d API pages to HTML' % len(links))
    return links


MD_LINK = re.compile(r'(href="(?![a-z]+:)[^"#]*?)\.md(#[^"]*)?"')


def md_files():
    yield 'README.md'
    for d, _, files in sorted(os.walk(os.path.join(ROOT, 'Documentation'))):
        for name in sorted(files):
            if name.endswith('.md'):
                yield os.path.relpath(os.path.join(d, name), ROOT)


def render_markdown(out):
    done = []
    for rel in md_files():
        src = os.path.join(ROOT, rel)
        if markdown is None:
            dest = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(src, dest)
        else:
            with open(src) as f:
                body = markdown.markdown(f.read(), extensions=[
                    'tables', 'fenced_code', 'toc'])
            body = MD_LINK.sub(lambda m: '%s.html%s"' % (m.group(1), m.group(2) or ''),
                               body)
            dest = os.path.join(out, rel[:-len('.md')] + '.html')
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, 'w') as f:
                f.write(page(rel, body))
        done.append((rel, os.path.relpath(dest, out)))
    if markdown is None:
        print('docs: %d Markdown files copied (make deps installs python3-markdown to render them)'
              % len(done))
    else:
        print('docs: %d Markdown files to HTML' % len(done))
    return done


def write_index(out, api, md):
    if markdown is None and docutils is None:
        with open(os.path.join(out, 'index.md'), 'w') as f:
            f.write('# cram documentation\n\n## API reference\n\n')
            f.writelines('- [%s](%s)\n' % (h, p) for h, p in api)
            f.write('\n## Documentation\n\n')
            f.writelines('- [%s](%s)\n' % (r, p) for r, p in md)
        return os.path.join(out, 'index.md')
    items = lambda pairs: '<ul>\n%s</ul>\n' % ''.join(
        '<li><a href="%s">%s</a></li>\n' % (html.escape(p), html.escape(t))
        for t, p in pairs)
    body = ('<h1>cram documentation</h1>\n<h2>API reference (kernel-doc)</h2>\n'
            + items(api) + '<h2>Documentation</h2>\n' + items(md))
    with open(os.path.join(out, 'index.html'), 'w') as f:
        f.write(page('cram documentation', body))
    return os.path.join(out, 'index.html')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel-doc', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('headers', nargs='+')
    args = ap.parse_args()
    if not os.path.exists(args.kernel_doc):
        raise SystemExit('docs: %s not found (make deps installs linux-source-6.1)'
                         % args.kernel_doc)
    os.makedirs(args.out, exist_ok=True)
    api = render_api(args.kernel_doc, args.headers, args.out)
    md = render_markdown(args.out)
    print('docs: open %s' % write_index(args.out, api, md))
    return 0


if __name__ == '__main__':
    sys.exit(main())
