"""Streaming KTAP (version 1) parser used by the kernel test harness.

Design
------
The kernel prints a boot log, then one KTAP document in the same format as
Linux KUnit.  The parser is fed one line at a time (``Parser.feed``) while the
kernel is still running, so the harness can tell when the top-level plan has
been satisfied (``Parser.done``) and when the first test started
(``Parser.started``).  ``Parser.finish`` closes the stream and returns a
``Report`` with leaf counts, failures (with their diagnostic lines) and a list
of protocol errors.

Nesting is taken from the indentation: every level is indented by 4 spaces
more than its parent.  A KTAP line at level ``d`` belongs to the open test
whose children live at level ``d``; this is what makes it possible to notice a
suite whose closing result is missing (the next suite header then shows up at
the wrong level).  Only these lines are KTAP:

    KTAP version N | TAP version N     header, opens a (sub)test
    # Subtest: NAME                    names the test opened by the header
    1..N [# SKIP reason]               plan
    ok N [-] NAME [# DIRECTIVE reason] result (also "not ok")
    Bail out! ...                      abort

Everything else (printk lines, ``# ...`` diagnostics, ``Expected ...`` lines,
``BUG:`` reports, lines with odd indentation) is log output.  It is never an
error; it is kept and attached to the next result printed at the same level,
which is how a failing test gets its diagnostics.

Counting is over leaves: a test without children counts once, a test with
children counts only through its children.  ``# SKIP`` counts as skipped;
``# TODO`` / ``# XFAIL`` count as passed when ``ok`` and as skipped when
``not ok`` (an expected failure is not a failure).  A parent reported
``not ok`` while all its children passed counts one extra failure.

The top level and every suite (level 1) must have a plan; deeper levels
(parametrised cases) may omit it.  KUnit's count line
``# NAME: pass:P fail:F skip:S total:T``, printed just before the result of
test NAME, is checked against that test's direct results; this is what
catches a parametrised case that lost its last result (it has no plan).

Every protocol violation becomes an error string that names the suite and
starts with ``malformed KTAP:`` or, when the output simply stopped,
``incomplete KTAP:``.  The parser never raises on bad input.
"""

import re
from dataclasses import dataclass, field

INDENT = 4
DIAG_LIMIT = 200  # log lines kept per pending buffer

_HEADER_RE = re.compile(r'^K?TAP version (\d+)\s*$')
_SUBTEST_RE = re.compile(r'^#\s*Subtest:\s*(.*?)\s*$')
_PLAN_RE = re.compile(r'^1\.\.(\d+)\s*(?:#\s*(.*?))?\s*$')
_RESULT_RE = re.compile(r'^(ok|not ok) (\d+)(?=\s|$)\s*(.*)$')
_BAIL_RE = re.compile(r'^Bail out!')
_COUNTS_RE = re.compile(r'^#\s*(.+?): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)\s*$')
_DIRECTIVE_RE = re.compile(r'(?:^|\s)#\s*(SKIP|TODO|XFAIL)(?![\w])(.*)$',
                           re.IGNORECASE)


@dataclass
class Test:
    """One node of the result tree (the root is the whole KTAP document)."""

    name: str = ''
    level: int = 0                 # indentation level of its children
    parent: 'Test | None' = None
    number: int | None = None      # its number in the parent's sequence
    status: str | None = None      # 'ok', 'not ok', or None (no result line)
    directive: str | None = None   # 'SKIP', 'TODO', 'XFAIL' or None
    reason: str = ''               # text after the directive
    plan: int | None = None
    children: list = field(default_factory=list)
    diag: list = field(default_factory=list)      # log lines for this test
    buffer: list = field(default_factory=list)    # log since last child

    @property
    def full_name(self):
        """Dotted name from the suite down, e.g. 'vsprintf.test_param.value 1'."""
        parts = []
        node = self
        while node is not None and node.parent is not None:
            parts.append(node.name or '#%s' % (node.number or '?'))
            node = node.parent
        return '.'.join(reversed(parts))

    def describe(self):
        """How error messages refer to this test."""
        if self.parent is None:
            return 'top level'
        if not self.name:
            return 'unnamed subtest of %s' % self.parent.describe()
        return "suite '%s'" % self.full_name

    def outcome(self):
        """'pass', 'fail' or 'skip' from this test's own result line."""
        if self.status is None:
            return 'fail'
        if self.directive == 'SKIP':
            return 'skip'
        if self.status == 'ok':
            return 'pass'
        return 'skip' if self.directive in ('TODO', 'XFAIL') else 'fail'


@dataclass
class Failure:
    """A failed test with the log lines that explain it."""

    name: str
    diag: list
    message: str = ''


@dataclass
class Report:
    """Result of parsing one KTAP stream."""

    root: Test | None
    started: bool
    complete: bool
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    preamble: list = field(default_factory=list)   # boot log before KTAP
    trailer: list = field(default_factory=list)    # log after the last result

    @property
    def total(self):
        return self.passed + self.failed + self.skipped

    @property
    def ok(self):
        return self.complete and not self.errors and self.failed == 0


def split_indent(line):
    """Return (number of leading spaces, rest of the line)."""
    text = line.lstrip(' ')
    return len(line) - len(text), text


def dedent(line, level):
    """Remove up to `level` indentation steps of leading spaces."""
    width = min(level * INDENT, split_indent(line)[0])
    return line[width:]


def parse_result(text):
    """Parse 'ok N name # DIRECTIVE reason' into a dict, or None."""
    match = _RESULT_RE.match(text)
    if not match:
        return None
    status, number, rest = match.groups()
    name, directive, reason = rest, None, ''
    found = _DIRECTIVE_RE.search(rest)
    if found:
        name = rest[:found.start()]
        directive = found.group(1).upper()
        reason = found.group(2).strip()
    name = name.strip()
    if name.startswith('- '):
        name = name[2:].strip()
    elif name == '-':
        name = ''
    return {'status': status, 'number': int(number), 'name': name,
            'directive': directive, 'reason': reason}


def classify(text):
    """Return (kind, match data) for a KTAP line, or (None, None) for log."""
    if _HEADER_RE.match(text):
        return 'header', None
    match = _SUBTEST_RE.match(text)
    if match:
        return 'subtest', match.group(1)
    match = _PLAN_RE.match(text)
    if match:
        return 'plan', (int(match.group(1)), match.group(2) or '')
    result = parse_result(text)
    if result:
        return 'result', result
    if _BAIL_RE.match(text):
        return 'bail', text
    return None, None


class Parser:
    """Incremental KTAP parser; see the module docstring."""

    def __init__(self):
        self.root = None
        self.stack = []
        self.errors = []
        self.done = False
        self.preamble = []
        self.trailer = []
        self._finished = None
        self._trailing_ktap = False

    @property
    def started(self):
        """True once the top-level 'KTAP version' line has been seen."""
        return self.root is not None

    # -- input -------------------------------------------------------------

    def feed(self, line):
        """Consume one line of output (trailing newline optional)."""
        line = line.rstrip('\r\n')
        indent, text = split_indent(line)
        kind, data = classify(text)
        depth = indent // INDENT
        if kind and indent % INDENT:
            self._misaligned(kind, line)
            kind = None
        if self.root is None:
            self._before_start(line, kind, depth)
        elif self.done:
            self._after_done(line, kind, depth)
        elif kind is None:
            self._check_counts(depth, text, not indent % INDENT)
            self._log(line)
        else:
            handler = getattr(self, '_on_' + kind)
            handler(depth, data, line)

    def feed_text(self, text):
        """Consume a whole block of output."""
        for line in text.splitlines():
            self.feed(line)

    def _before_start(self, line, kind, depth):
        if kind == 'header' and depth == 0:
            self.root = Test(level=0)
            self.stack = [self.root]
        else:
            self.preamble.append(line)

    def _after_done(self, line, kind, depth):
        self.trailer.append(line)
        if kind in ('header', 'subtest', 'result', 'plan') \
                and not self._trailing_ktap:
            self._trailing_ktap = True
            self._error('malformed KTAP: unexpected KTAP output after the '
                        "top-level plan was satisfied: '%s'" % line.strip())

    def _misaligned(self, kind, line):
        """A result or header indented by a non-multiple of 4 spaces."""
        if kind in ('header', 'result') and self.root is not None:
            self._error("malformed KTAP: misaligned KTAP line: '%s'" % line.rstrip())

    def _log(self, line):
        top = self.stack[-1]
        top.buffer.append(dedent(line, top.level))
        if len(top.buffer) > DIAG_LIMIT:
            del top.buffer[0]

    def _check_counts(self, depth, text, aligned):
        """Compare a KUnit count line for the innermost test with its results."""
        match = _COUNTS_RE.match(text) if aligned else None
        top = self.stack[-1]
        if not match or match.group(1) != top.name or top is self.root \
                or depth not in (top.level, top.level - 1):
            return
        claimed = tuple(int(n) for n in match.groups()[1:])
        outcomes = [child.outcome() for child in top.children]
        actual = tuple(outcomes.count(kind) for kind in ('pass', 'fail', 'skip'))
        actual += (len(top.children),)
        if claimed != actual:
            self._error('malformed KTAP: %s: count line says %s but its results '
                        'are %s' % (top.describe(), _counts(claimed), _counts(actual)))

    def _error(self, message):
        if message not in self.errors:
            self.errors.append(message)

    # -- tree helpers --------------------------------------------------------

    def _open(self, level, name=''):
        """Start a subtest whose children live at `level`."""
        parent = self.stack[-1]
        node = Test(name=name, level=level, parent=parent)
        node.diag, parent.buffer = parent.buffer, []
        self.stack.append(node)
        return node

    def _reach(self, level, line):
        """Make the innermost open test the one whose children are at `level`.

        Deeper tests are closed with a 'closing result missing' error.
        Returns False (and logs an error) when `level` is deeper than any
        open test, i.e. the line is indented too far.
        """
        if self.stack[-1].level < level:
            self._error("malformed KTAP: %s: unexpected indentation: '%s'"
                        % (self.stack[-1].describe(), line.strip()))
            self._log(line)
            return False
        while self.stack[-1].level > level:
            node = self.stack.pop()
            self._error('malformed KTAP: %s: closing result missing'
                        % node.describe())
            self._attach_unfinished(node)
        return True

    def _attach_unfinished(self, node):
        """Give a test without a result line its slot in the parent."""
        parent = self.stack[-1]
        node.number = len(parent.children) + 1
        node.diag = node.diag + node.buffer
        node.buffer = []
        self._add_child(parent, node)

    def _add_child(self, parent, child):
        expected = len(parent.children) + 1
        if child.number != expected:
            numbers = [c.number for c in parent.children]
            if child.number in numbers:
                what = 'result number %d repeated' % child.number
            else:
                what = ('result %d out of sequence (expected %d)'
                        % (child.number, expected))
            self._error("malformed KTAP: %s: %s ('%s')"
                        % (parent.describe(), what, child.name))
        parent.children.append(child)
        if parent.plan is not None and len(parent.children) > parent.plan:
            self._error('malformed KTAP: %s: more results than its plan 1..%d'
                        % (parent.describe(), parent.plan))
        self._check_done()

    def _check_done(self):
        root = self.root
        if root.plan is not None and len(root.children) >= root.plan \
                and len(self.stack) == 1:
            self.done = True

    # -- KTAP line handlers ---------------------------------------------------

    def _on_header(self, depth, _data, line):
        if depth == 0:
            self._error('malformed KTAP: second top-level KTAP header before '
                        'the top-level plan was satisfied')
            return
        if self._reach(depth - 1, line):
            self._open(depth)

    def _on_subtest(self, depth, name, line):
        top = self.stack[-1]
        fresh = top is not self.root and not top.name and not top.children
        if depth == top.level and fresh:
            top.name = name
        elif depth >= 1 and self._reach(depth - 1, line):
            self._open(depth, name)
        elif depth == 0:
            self._log(line)

    def _on_plan(self, depth, data, line):
        count, comment = data
        if depth == self.stack[-1].level + 1:
            self._open(depth)
        elif not self._reach(depth, line):
            return
        top = self.stack[-1]
        if top.plan is not None:
            self._error('malformed KTAP: %s: duplicate plan line' % top.describe())
            return
        top.plan = count
        if comment.upper().startswith('SKIP') and top is not self.root:
            top.directive = top.directive or 'SKIP'
        if top.children and len(top.children) != count:
            self._error('malformed KTAP: %s: plan 1..%d printed after %d results'
                        % (top.describe(), count, len(top.children)))
        if top is self.root:
            self._check_done()

    def _on_result(self, depth, result, line):
        top = self.stack[-1]
        if depth == top.level + 1:
            top = self._open(depth)   # subtest without a header
        elif depth > top.level + 1:
            self._reach(depth, line)  # records the indentation error
            return
        if depth == top.level:
            self._leaf_result(top, result)
        else:
            self._closing_result(depth, result, line)

    def _leaf_result(self, parent, result):
        leaf = Test(name=result['name'], level=parent.level + 1, parent=parent,
                    number=result['number'], status=result['status'],
                    directive=result['directive'], reason=result['reason'])
        leaf.diag, parent.buffer = parent.buffer, []
        self._add_child(parent, leaf)

    def _closing_result(self, depth, result, line):
        self._reach(depth + 1, line)
        node = self.stack.pop()
        if node.name and result['name'] and node.name != result['name']:
            self._error("malformed KTAP: %s: closed by a result named '%s'"
                        % (node.describe(), result['name']))
        node.name = node.name or result['name']
        node.number = result['number']
        node.status = result['status']
        node.directive = result['directive'] or node.directive
        node.reason = result['reason']
        node.diag = node.diag + node.buffer
        node.buffer = []
        if node.plan is None and node.level == 1:
            self._error('malformed KTAP: %s has no plan line' % node.describe())
        if node.plan is not None and len(node.children) != node.plan:
            self._error('malformed KTAP: %s expected %d results, got %d'
                        % (node.describe(), node.plan, len(node.children)))
        self._add_child(self.stack[-1], node)

    def _on_bail(self, _depth, text, _line):
        self._error('malformed KTAP: %s: %s' % (self.stack[-1].describe(), text))

    # -- end of input -------------------------------------------------------

    def finish(self):
        """End of output: validate completeness and return a Report."""
        if self._finished is not None:
            return self._finished
        complete = self.done
        if self.root is None:
            self._error("incomplete KTAP: no KTAP output (no 'KTAP version 1' line)")
        elif not self.done:
            self._error(self._truncation_message())
            while len(self.stack) > 1:
                node = self.stack.pop()
                self._attach_unfinished(node)
        report = Report(root=self.root, started=self.started,
                        complete=complete, errors=self.errors,
                        preamble=self.preamble, trailer=self.trailer)
        if self.root is not None:
            tally(self.root, report)
        self._finished = report
        return report

    def _truncation_message(self):
        node = self.stack[-1]
        got = len(node.children)
        if node is self.root and node.plan is None:
            return ('incomplete KTAP: top level has no plan line (got %d results)'
                    % got)
        if node.plan is not None:
            return ('incomplete KTAP: %s expected %d results, got %d'
                    % (node.describe(), node.plan, got))
        return ('incomplete KTAP: output ended inside %s after %d results'
                % (node.describe(), got))


def _counts(values):
    return 'pass:%d fail:%d skip:%d total:%d' % values


def tally(node, report):
    """Add the leaf counts and failures below `node` to `report`."""
    for child in node.children:
        if child.children:
            _tally_parent(child, report)
        else:
            _count_leaf(child, report)


def _count_leaf(leaf, report):
    outcome = leaf.outcome()
    if outcome == 'pass':
        report.passed += 1
    elif outcome == 'skip':
        report.skipped += 1
    elif leaf.status is not None:   # a missing result is already an error
        report.failed += 1
        report.failures.append(Failure(leaf.full_name, leaf.diag))


def _tally_parent(node, report):
    failed_before = report.failed
    tally(node, report)
    children_failed = report.failed - failed_before
    outcome = node.outcome()
    if node.status is None:
        return
    if outcome == 'fail' and children_failed == 0:
        report.failed += 1
        report.failures.append(Failure(
            node.full_name, node.diag,
            "reported 'not ok' although all its %d results passed"
            % len(node.children)))
    elif outcome == 'pass' and children_failed:
        report.errors.append(
            "malformed KTAP: %s reported 'ok' but %d of its results failed"
            % (node.describe(), children_failed))


def parse(text):
    """Parse a complete output (string or list of lines) into a Report."""
    parser = Parser()
    lines = text.splitlines() if isinstance(text, str) else text
    for line in lines:
        parser.feed(line)
    return parser.finish()
