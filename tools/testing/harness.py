#!/usr/bin/env python3
"""Kernel test harness: boot the kernel, parse its KTAP output, judge it.

Design
------
The run is a list of *stages*.  A stage is one process whose stdout carries
the kernel's serial output: QEMU booting an ISO (built by tools/mkiso.sh with
the kernel command line baked in), or the host-native build of the kernel run
as a Linux program.  For each stage ``run_stage``:

  1. starts the process in its own session (stdin = /dev/null),
  2. reads stdout and stderr from two reader threads through one queue, so a
     silent hang is noticed by a queue timeout rather than a blocked read,
  3. writes every line to build/logs/<stage>.log, echoes it to the terminal
     (unless --quiet), feeds stdout lines to the streaming KTAP parser
     (ktap.py) and scans all lines for fatal markers,
  4. kills the process when it is silent for too long, runs past its time
     limit, stays up for too long after a fatal marker, or does not exit
     soon after the top-level KTAP plan has been satisfied.

``judge`` then turns what was observed (exit status, kill reason, markers,
KTAP report) into a verdict: a kind ('pass', 'failed', 'panic', 'exception',
'hang', 'exit', 'sanitizer', 'ktap', 'mismatch', 'error'; 'kunit' when
only Linux's parser disagrees, see below) and a one-line
reason.  It trusts neither the exit status nor the KTAP alone: the stage
passes only if the process exited with its success status, the KTAP document
is complete and well formed, at least one test ran, no test failed and no
fatal marker appeared.  ``judge`` is a pure function, tested in
test_harness.py.

``--kunit-parser KUNIT_PY`` reads every completed stage's log again with
Linux's tools/testing/kunit/kunit.py parse; a parser error or different
counts fail the stage (see "Linux's KTAP parser" below).

Counting: a stage contributes its KTAP leaf counts; a stage that crashed,
hung or exited wrongly adds one failure, and every KTAP protocol error adds
one failure, so a failed stage can never add up to "0 failed".

``--selftest KERNEL`` checks the harness itself: it runs the pure unit tests
of test_harness.py and then boots the kernel's hidden ``selftest`` suite
cases (pass, fail, panic, exception, hang, triple, vmalloc_guard, and
pagealloc_fault booted with debug_pagealloc=on), checking that each gets the expected
verdict (and, where one is listed, that its log holds a given report);
with ``--selftest-kasan KERNEL`` (make test: the KASAN=1 kernel) also
kasan_panic_on_warn, booted there with panic_on_warn: a KASAN report
must panic.  ``run`` is the interactive mode behind ``make run``.

``--gdb-check KERNEL`` boots KERNEL (make test: the kernel without its
tests) to its shell with QEMU's gdb stub and checks that the gdb helpers
(tools/gdb/cram.py) print what the shell prints (gdb_check.py); each
check counts as a test.

``--lock-order DOC`` reads the lock validator's graph that each stage
prints at its end (every class and every "taken while holding" pair) from
every stage's log and checks it against DOC's lock order (lock_order.py,
Documentation/locking/locking.md); each lock and each pair counts as a
test.

Environment: QEMU (default 'qemu-system-x86_64') and MKISO (default
'sh tools/mkiso.sh') are shlex-split command prefixes, so tests can use
stand-ins.
"""

import argparse
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import unittest
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(TESTS_DIR))
sys.path.insert(0, TESTS_DIR)
sys.dont_write_bytecode = True   # keep tools/testing/ free of __pycache__

import ktap  # noqa: E402  (needs the sys.path entry above)

QEMU_PASS = 33      # kernel wrote 0x10 to isa-debug-exit
QEMU_FAIL = 35      # kernel wrote 0x11 to isa-debug-exit
HOST_PASS = 0
HOST_FAIL = 1
TAIL_LINES = 30
FATAL_GRACE = 2.0   # seconds of silence tolerated after a fatal marker
FATAL_LIMIT = 10.0  # seconds a process may keep running after a fatal marker
EXIT_GRACE = 10.0   # seconds allowed between the last KTAP result and exit
DIAG_SHOWN = 40     # diagnostic lines shown per failing test
QEMU_BASE_ARGS = ['-display', 'none', '-no-reboot',
                  '-serial', 'stdio', '-monitor', 'none',
                  '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
                  '-boot', 'd']
# Firmware: SeaBIOS (QEMU's default) or OVMF, Debian's UEFI for QEMU (the
# ovmf package), as a read-only image: its variable store then lives in
# the image and nothing is written back.  $OVMF overrides the path.
FIRMWARES = ('bios', 'uefi')
FIRMWARE_NAMES = {'bios': 'BIOS', 'uefi': 'UEFI'}
OVMF_DEFAULT = '/usr/share/ovmf/OVMF.fd'
MACHINES = ('pc', 'q35')

# (substring, verdict kind, reason prefix); 'CPU exception' is checked first
# so "Kernel panic - not syncing: CPU exception 14" counts as an exception.
FATAL_MARKERS = (
    ('CPU exception', 'exception', 'CPU exception'),
    ('Kernel panic - not syncing', 'panic', 'kernel panic'),
    ('---[ end Kernel panic', 'panic', 'kernel panic'),
)
SANITIZER_RE = re.compile(r'(ERROR|WARNING): \w*Sanitizer|\bruntime error:')

_MKISO_LOCK = threading.Lock()
ABORT = threading.Event()   # set on Ctrl-C: every running stage kills its process
POLL = 0.5                  # seconds between checks of ABORT


# -- data -----------------------------------------------------------------


@dataclass
class Stage:
    """One process to run and judge."""

    name: str                 # log file name without .log
    title: str                # shown in the header line
    kind: str                 # 'qemu' or 'host'
    argv: list
    log_path: str
    timeout: float
    idle_timeout: float
    fatal_grace: float = FATAL_GRACE
    exit_grace: float = EXIT_GRACE
    prepare: object = None    # callable run before starting; returns error or None


@dataclass
class Observation:
    """What happened while a stage's process ran."""

    status: int | None = None
    killed: str | None = None        # 'idle', 'overall', 'exit' or 'fatal'
    start_error: str | None = None
    fatal: tuple | None = None       # (kind, prefix, line) of the first marker
    sanitizer: str | None = None     # first sanitizer report line
    report: ktap.Report | None = None
    elapsed: float = 0.0
    first_test: float | None = None  # seconds from start to 'KTAP version'
    tail: list = field(default_factory=list)
    stderr: list = field(default_factory=list)


@dataclass
class Outcome:
    """A judged stage."""

    stage: Stage
    kind: str
    reason: str
    obs: Observation
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def ok(self):
        return self.kind == 'pass'


class Printer:
    """Terminal output; `stream` controls echoing of the serial output."""

    def __init__(self, quiet=False, stream=True):
        self.quiet = quiet
        self.stream = stream and not quiet
        self.lock = threading.Lock()

    def info(self, text):
        if not self.quiet:
            self.always(text)

    def always(self, text):
        with self.lock:
            sys.stdout.write(text + '\n')
            sys.stdout.flush()

    def serial(self, text):
        if self.stream:
            self.always(text)


# -- verdict ----------------------------------------------------------------


def scan_fatal(line):
    """Return (kind, reason prefix) if `line` carries a fatal marker."""
    for marker, kind, prefix in FATAL_MARKERS:
        if marker in line:
            return kind, prefix
    return None


def strip_timestamp(line):
    """'[    0.5] Kernel panic ...' -> 'Kernel panic ...'."""
    return re.sub(r'^\[\s*\d+\.\d+\]\s*', '', line.strip())


def describe_status(stage_kind, status):
    """Human explanation of an unexpected exit status."""
    who = 'QEMU' if stage_kind == 'qemu' else 'host kernel'
    if status is None:
        return '%s did not report an exit status' % who
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = 'signal %d' % -status
        return '%s was killed by %s' % (who, name)
    text = '%s exited with status %d' % (who, status)
    if stage_kind != 'qemu':
        return text
    if status == 0:
        return text + ' (triple fault or reset?)'
    if status == 1:
        return text + ' (QEMU error: bad option or missing file?)'
    if status % 2 == 1:
        return text + ' (kernel wrote 0x%x to isa-debug-exit)' % (status >> 1)
    return text


def kill_reason(obs, stage):
    """One-line reason for a process the harness had to kill."""
    if obs.killed == 'idle':
        return 'kernel hung: no output for %g s' % stage.idle_timeout
    if obs.killed == 'interrupted':
        return 'interrupted by the user'
    if obs.killed == 'exit':
        return ('kernel hung: did not exit within %g s after the tests completed'
                % stage.exit_grace)
    return 'kernel hung: did not finish within %g s' % stage.timeout


def judge(stage, obs):
    """Return (kind, reason) for what was observed; see module docstring."""
    report = obs.report
    pass_status, fail_status = ((QEMU_PASS, QEMU_FAIL) if stage.kind == 'qemu'
                                else (HOST_PASS, HOST_FAIL))
    if obs.start_error:
        return 'error', obs.start_error
    if obs.fatal:
        kind, prefix, line = obs.fatal
        return kind, '%s: %s' % (prefix, strip_timestamp(line))
    if obs.killed:
        return 'hang', kill_reason(obs, stage)
    if obs.sanitizer:
        return 'sanitizer', 'sanitizer report: %s' % strip_timestamp(obs.sanitizer)
    if obs.status not in (pass_status, fail_status):
        return 'exit', describe_status(stage.kind, obs.status)
    if report.errors:
        more = len(report.errors) - 1
        extra = ' (and %d more KTAP errors)' % more if more else ''
        return 'ktap', report.errors[0] + extra
    if report.total == 0:
        return 'ktap', 'KTAP reported no test results (empty plan)'
    if obs.status == pass_status and report.failed:
        return 'mismatch', ('kernel exited with success status %d but %s'
                            % (obs.status, plural(report.failed, 'test') + ' failed'))
    if obs.status == fail_status and not report.failed:
        return 'mismatch', ('kernel exited with failure status %d but all KTAP '
                            'results passed' % obs.status)
    if report.failed:
        return 'failed', plural(report.failed, 'test') + ' failed'
    return 'pass', 'all tests passed'


def count_outcome(kind, report):
    """Return (passed, failed, skipped) contributed by a judged stage."""
    if report is None:
        return 0, 1, 0
    failed = report.failed
    if kind in ('pass', 'failed', 'ktap', 'mismatch'):
        failed += len(report.errors)
    else:
        failed += 1   # the crash / hang / bad exit itself
    if kind != 'pass':
        failed = max(failed, 1)
    return report.passed, failed, report.skipped


def plural(count, word):
    return '%d %s%s' % (count, word, '' if count == 1 else 's')


# -- running a process ----------------------------------------------------------


def _reader(stream, name, sink):
    """Thread body: forward raw chunks of `stream` to `sink` until EOF."""
    fd = stream.fileno()
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b''
        if not chunk:
            sink.put((name, None))
            return
        sink.put((name, chunk))


def _kill(proc):
    """Kill the process group we created for `proc` (and only that)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()


class Watcher:
    """Per-stage line handling: log, echo, KTAP parsing, marker scanning."""

    def __init__(self, stage, printer, log):
        self.stage = stage
        self.printer = printer
        self.log = log
        self.parser = ktap.Parser()
        self.obs = Observation()
        self.tail = deque(maxlen=TAIL_LINES)
        self.stderr = deque(maxlen=TAIL_LINES)
        self.start = time.monotonic()
        self.last_output = self.start
        self.fatal_time = None
        self.done_time = None
        self.partial = {'out': b'', 'err': b''}

    def chunk(self, name, data):
        """Split a raw chunk into lines (a partial line waits for more)."""
        self.last_output = time.monotonic()
        data = self.partial[name] + data
        *lines, rest = data.split(b'\n')
        if len(rest) > 4096:          # never wait forever for a newline
            lines.append(rest)
            rest = b''
        self.partial[name] = rest
        for raw in lines:
            self.line(name, raw.decode('utf-8', 'replace').rstrip('\r'))

    def flush(self, name):
        if self.partial[name]:
            raw, self.partial[name] = self.partial[name], b''
            self.line(name, raw.decode('utf-8', 'replace').rstrip('\r'))

    def line(self, name, text):
        now = time.monotonic()
        if name == 'out':
            self.log.write(text + '\n')
            self.tail.append(text)
            self.parser.feed(text)
            if self.obs.first_test is None and self.parser.started:
                self.obs.first_test = now - self.start
            if self.parser.done and self.done_time is None:
                self.done_time = now
        else:
            self.log.write('[stderr] ' + text + '\n')
            self.stderr.append(text)
        self.log.flush()
        self.printer.serial(text)
        self.scan(text, now)

    def scan(self, text, now):
        fatal = scan_fatal(text)
        if fatal and self.obs.fatal is None:
            self.obs.fatal = fatal + (text,)
            self.fatal_time = now
        if (self.stage.kind == 'host' and self.obs.sanitizer is None
                and SANITIZER_RE.search(text)):
            self.obs.sanitizer = text

    def deadline(self):
        """Return (time, why) of the earliest limit currently in force."""
        stage = self.stage
        limits = [(self.start + stage.timeout, 'overall'),
                  (self.last_output + stage.idle_timeout, 'idle')]
        if self.fatal_time is not None:
            limits.append((self.fatal_time + FATAL_LIMIT, 'fatal'))
            limits.append((self.last_output + stage.fatal_grace, 'fatal'))
        if self.done_time is not None:
            limits.append((self.done_time + stage.exit_grace, 'exit'))
        return min(limits)

    def finish(self, status):
        obs = self.obs
        obs.status = status
        obs.elapsed = time.monotonic() - self.start
        obs.report = self.parser.finish()
        obs.tail = list(self.tail)
        obs.stderr = list(self.stderr)
        return obs


def run_process(stage, printer):
    """Run `stage.argv` and return an Observation (see Watcher)."""
    os.makedirs(os.path.dirname(stage.log_path) or '.', exist_ok=True)
    with open(stage.log_path, 'w', encoding='utf-8', errors='replace') as log:
        watcher = Watcher(stage, printer, log)
        try:
            proc = subprocess.Popen(stage.argv, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE,
                                    start_new_session=True)
        except OSError as err:
            watcher.obs.start_error = 'could not start %s: %s' % (
                stage.argv[0], err.strerror or err)
            log.write('harness: %s\n' % watcher.obs.start_error)
            return watcher.finish(None)
        try:
            status = _pump(proc, watcher)
        finally:
            _kill(proc)
            proc.stdout.close()
            proc.stderr.close()
        return watcher.finish(status)


def _pump(proc, watcher):
    """Move output from `proc` into `watcher` until EOF or a limit hits."""
    sink = queue.Queue()
    for name, stream in (('out', proc.stdout), ('err', proc.stderr)):
        threading.Thread(target=_reader, args=(stream, name, sink),
                         daemon=True).start()
    open_streams = {'out', 'err'}
    while open_streams:
        limit, why = watcher.deadline()
        remaining = limit - time.monotonic()
        if ABORT.is_set():
            limit, why, remaining = 0, 'interrupted', 0
        if remaining <= 0:
            watcher.obs.killed = why
            _kill(proc)
            _drain(sink, watcher, open_streams, 1.0)
            break
        try:
            name, chunk = sink.get(timeout=min(remaining, POLL))
        except queue.Empty:
            continue
        _deliver(watcher, open_streams, name, chunk)
    return _wait(proc, watcher)


def _deliver(watcher, open_streams, name, chunk):
    if chunk is None:
        watcher.flush(name)
        open_streams.discard(name)
    else:
        watcher.chunk(name, chunk)


def _drain(sink, watcher, open_streams, seconds):
    """After a kill: collect what is still buffered in the pipes."""
    end = time.monotonic() + seconds
    while open_streams and time.monotonic() < end:
        try:
            name, chunk = sink.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            break
        _deliver(watcher, open_streams, name, chunk)
    for name in list(open_streams):
        watcher.flush(name)


def _wait(proc, watcher):
    """Exit status once the output is closed (kill if it lingers)."""
    try:
        return proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        if watcher.obs.killed is None:
            watcher.obs.killed = 'exit' if watcher.done_time else 'overall'
        _kill(proc)
        return proc.wait()


def run_stage(stage, printer):
    """Prepare (build ISO), run and judge one stage."""
    error = stage.prepare() if stage.prepare else None
    if error:
        obs = Observation(start_error=error, report=ktap.Parser().finish())
    else:
        obs = run_process(stage, printer)
    kind, reason = judge(stage, obs)
    passed, failed, skipped = count_outcome(kind, obs.report)
    return Outcome(stage, kind, reason, obs, passed, failed, skipped)


# -- Linux's KTAP parser -----------------------------------------------------
#
# With --kunit-parser KUNIT_PY, each stage whose KTAP was complete (judged
# 'pass' or 'failed') is read once more by Linux's own parser,
# tools/testing/kunit/kunit.py parse (from the linux-source package), which
# must report no error and the same passed, failed and skipped counts as
# ktap.py.  The two count alike: only tests without subtests count, a test
# with subtests is the sum of them.  So a parametrised case counts as its
# parameters, and a suite printed "ok N suite # SKIP all cases skipped"
# counts as its skipped cases, not as one more skip.  kunit_parser's
# 'crashed' (a result line that never came) are failures here.  The kernel
# makes its output readable to both: names carry no '#' (lib/ktest).

KUNIT_SUMMARY_RE = re.compile(r'Testing complete\. Ran \d+ tests?:(.*)$')
KUNIT_ERROR_RE = re.compile(r'\[ERROR\]\s*(.*)$')
ANSI_RE = re.compile(r'\x1b\[[0-9;]*m')
KUNIT_SHOWN_ERRORS = 5


def parse_kunit_output(text):
    """Return (counts dict or None, error lines) of `kunit.py parse` output."""
    counts, errors = None, []
    for line in ANSI_RE.sub('', text).splitlines():
        error = KUNIT_ERROR_RE.search(line)
        if error:
            errors.append(error.group(1))
        summary = KUNIT_SUMMARY_RE.search(line)
        if summary:
            counts = {name: int(value) for name, value in
                      re.findall(r'(\w+): (\d+)', summary.group(1))}
    return counts, errors


def compare_with_kunit(report, counts, errors):
    """None if kunit_parser agrees with ktap.py's `report`, else why not."""
    if counts is None:
        return 'kunit_parser printed no summary'
    if errors or counts.get('errors'):
        shown = '; '.join(errors[:KUNIT_SHOWN_ERRORS]) or 'no error text'
        return 'kunit_parser found %d errors: %s' % (
            max(len(errors), counts.get('errors', 0)), shown)
    theirs = (counts.get('passed', 0),
              counts.get('failed', 0) + counts.get('crashed', 0),
              counts.get('skipped', 0))
    ours = (report.passed, report.failed, report.skipped)
    if theirs != ours:
        return 'kunit_parser counts %s, the harness %s' % (
            counts_text(*theirs), counts_text(*ours))
    return None


def run_kunit_parser(kunit_py, log_path):
    """Return (counts, errors) from Linux's parser, or raise OSError."""
    argv = [sys.executable, kunit_py, 'parse', os.path.abspath(log_path)]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors='replace', timeout=120)
    except subprocess.TimeoutExpired as err:
        raise OSError('kunit_parser timed out') from err
    counts, errors = parse_kunit_output(done.stdout)
    if counts is None and done.stderr.strip():
        errors.append(done.stderr.strip().splitlines()[-1])
    return counts, errors


def kunit_check(outcome, kunit_py, printer):
    """Compare a judged stage with Linux's parser; a disagreement fails it."""
    if outcome.kind not in ('pass', 'failed'):
        return
    try:
        problem = compare_with_kunit(outcome.obs.report,
                                     *run_kunit_parser(kunit_py, outcome.stage.log_path))
    except OSError as err:
        problem = 'could not run kunit_parser: %s' % err
    if problem is None:
        printer.info('harness: kunit_parser agrees: %s' % counts_text(
            outcome.obs.report.passed, outcome.obs.report.failed,
            outcome.obs.report.skipped))
        return
    outcome.failed += 1
    if outcome.kind == 'pass':
        outcome.kind, outcome.reason = 'kunit', problem
    else:
        outcome.reason += '; ' + problem
    printer.always('harness: %s: %s' % (outcome.stage.title, problem))


def kunit_parser_usable(kunit_py, printer):
    """Is the check possible?  Say so loudly when it is not."""
    if kunit_py and os.path.isfile(kunit_py):
        return True
    if kunit_py:
        printer.always('harness: kunit_parser check SKIPPED: %s not found '
                       '(Linux\'s parser comes from the Debian package '
                       'linux-source-6.1: make deps)' % kunit_py)
    return False


# -- building commands --------------------------------------------------------------


def env_command(var, default):
    return shlex.split(os.environ.get(var) or default)


def build_iso(kernel, cmdline, iso, grub_cfg=None):
    """Build `iso` from `kernel` with `cmdline` (and, if given, the GRUB
    config template `grub_cfg` instead of iso/grub.cfg); return an error or
    None."""
    if not os.path.isfile(kernel):
        return 'could not build ISO: kernel image %s not found' % kernel
    os.makedirs(os.path.dirname(iso), exist_ok=True)
    argv = env_command('MKISO', 'sh tools/mkiso.sh') + [
        os.path.abspath(kernel), os.path.abspath(iso), cmdline]
    with _MKISO_LOCK:   # the script may use a fixed staging directory
        try:
            env = dict(os.environ)
            if grub_cfg:
                env['GRUB_CFG'] = os.path.abspath(grub_cfg)
            done = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True,
                                  errors='replace', timeout=120, env=env)
        except (OSError, subprocess.TimeoutExpired) as err:
            return 'could not build ISO: %s' % err
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        last = lines[-1] if lines else ''
        return 'could not build ISO: %s exited with status %d: %s' % (
            ' '.join(argv[:2]), done.returncode, last)
    return None


# -- NUMA topologies ---------------------------------------------------------
#
# --numa 'N[:nomem=K][:A-B=D]...': N nodes (at most NUMA_MAX_NODES), RAM
# split evenly between the nodes that have memory (nomem=K: node K has
# none), the CPUs in contiguous runs of equal length; A-B=D sets the
# distance from node A to node B (B to A too unless given itself), other
# pairs are REMOTE_DISTANCE.  QEMU builds the SRAT and the SLIT (a SLIT
# only if a distance is given).  The kernel is told what to expect with
# numa_expect=N,MB0/MB1/..,CPUS0/CPUS1/..,D00/D01/.. (tests/test_numa.c).

NUMA_MAX_NODES = 8
LOCAL_DISTANCE, REMOTE_DISTANCE = 10, 20


@dataclass
class NumaTopology:
    nodes: int
    mem_mb: list        # per node
    cpus: list          # per node: how many
    distance: list      # rows


def mem_to_mb(text):
    """QEMU's -m value ('128M', '1G', '512') in MiB."""
    match = re.fullmatch(r'(\d+)([MmGg]?)', str(text))
    if not match:
        raise ValueError('--numa: cannot split memory size %r' % text)
    return int(match.group(1)) * (1024 if match.group(2) in 'Gg' and match.group(2) else 1)


def parse_numa(spec, mem, smp):
    """A NumaTopology from a --numa spec; ValueError if it makes no sense."""
    parts = str(spec).split(':')
    if not parts[0].isdigit() or not 1 <= int(parts[0]) <= NUMA_MAX_NODES:
        raise ValueError('--numa %r: the node count must be 1-%d'
                         % (spec, NUMA_MAX_NODES))
    nodes = int(parts[0])
    nomem, given = set(), {}
    for part in parts[1:]:
        nomem_match = re.fullmatch(r'nomem=(\d+)', part)
        dist_match = re.fullmatch(r'(\d+)-(\d+)=(\d+)', part)
        if nomem_match and int(nomem_match.group(1)) < nodes:
            nomem.add(int(nomem_match.group(1)))
        elif dist_match:
            a, b, d = (int(x) for x in dist_match.groups())
            if a >= nodes or b >= nodes or a == b or not 10 < d <= 255:
                raise ValueError('--numa %r: bad distance %r (nodes 0-%d, '
                                 'distance 11-255)' % (spec, part, nodes - 1))
            given[(a, b)] = d
        else:
            raise ValueError('--numa %r: %r is neither nomem=K nor A-B=D'
                             % (spec, part))
    with_mem = [i for i in range(nodes) if i not in nomem]
    if not with_mem:
        raise ValueError('--numa %r: no node has memory' % spec)
    total = mem_to_mb(mem)
    share = total // len(with_mem)
    mem_mb = [0] * nodes
    for i in with_mem:
        mem_mb[i] = share
    mem_mb[with_mem[-1]] += total - share * len(with_mem)
    ncpus = int(smp)
    cpus = [(i + 1) * ncpus // nodes - i * ncpus // nodes for i in range(nodes)]
    distance = [[LOCAL_DISTANCE if a == b else
                 given.get((a, b), given.get((b, a), REMOTE_DISTANCE))
                 for b in range(nodes)] for a in range(nodes)]
    return NumaTopology(nodes, mem_mb, cpus, distance), bool(given)


def numa_qemu_args(spec, mem, smp):
    """QEMU's -object/-numa options for a --numa spec ('' gives [])."""
    if not spec:
        return []
    topo, has_slit = parse_numa(spec, mem, smp)
    argv, first = [], 0
    for i in range(topo.nodes):
        node = 'node,nodeid=%d' % i
        if topo.mem_mb[i]:
            argv += ['-object', 'memory-backend-ram,id=m%d,size=%dM'
                     % (i, topo.mem_mb[i])]
            node += ',memdev=m%d' % i
        if topo.cpus[i]:
            node += ',cpus=%d-%d' % (first, first + topo.cpus[i] - 1)
            first += topo.cpus[i]
        argv += ['-numa', node]
    for a in range(topo.nodes):
        for b in range(topo.nodes):
            if has_slit and a != b:
                argv += ['-numa', 'dist,src=%d,dst=%d,val=%d'
                         % (a, b, topo.distance[a][b])]
    return argv


def numa_expect(spec, mem, smp):
    """The numa_expect= kernel parameter for a --numa spec ('' gives '')."""
    if not spec:
        return ''
    topo, _ = parse_numa(spec, mem, smp)
    rows = [d for row in topo.distance for d in row]
    return 'numa_expect=%d,%s,%s,%s' % (
        topo.nodes, '/'.join(map(str, topo.mem_mb)),
        '/'.join(map(str, topo.cpus)), '/'.join(map(str, rows)))


def numa_cmdline(cmdline, spec, mem, smp):
    expect = numa_expect(spec, mem, smp)
    return ' '.join(word for word in (cmdline, expect) if word)


def firmware_args(firmware):
    """QEMU options that select the firmware ('bios' or 'uefi')."""
    if firmware == 'uefi':
        return ['-bios', os.environ.get('OVMF') or OVMF_DEFAULT]
    return []


def qemu_argv(iso, mem, smp, extra, machine='pc', firmware='bios', numa=''):
    return (env_command('QEMU', 'qemu-system-x86_64') + ['-M', machine]
            + QEMU_BASE_ARGS + firmware_args(firmware)
            + ['-m', str(mem), '-smp', str(smp), '-cdrom', iso]
            + numa_qemu_args(numa, mem, smp)
            + shlex.split(extra or ''))


def boot_config(boot):
    """'128M, 1 CPU, UEFI, q35': how a boot is named in stage lines."""
    cpus = 'CPU' if str(boot.smp) == '1' else 'CPUs'
    text = '%s, %s %s, %s, %s' % (boot.mem, boot.smp, cpus,
                                  FIRMWARE_NAMES.get(boot.firmware, boot.firmware),
                                  boot.machine)
    if boot.grub_cfg:
        text += ', ' + os.path.basename(boot.grub_cfg)
    if boot.numa:
        text += ', NUMA ' + boot.numa
    return text


def slug(text):
    return re.sub(r'[^A-Za-z0-9._-]+', '_', text).strip('_')[:60] or 'default'


@dataclass
class Boot:
    """Settings for one kernel boot."""

    kernel: str
    cmdline: str
    mem: str = '128M'
    smp: str = '1'
    timeout: float = 120.0
    qemu_args: str = ''
    machine: str = 'pc'
    firmware: str = 'bios'
    grub_cfg: str = ''        # GRUB config template; '' is iso/grub.cfg
    numa: str = ''            # --numa spec; '' is no NUMA topology


def boot_stage(boot, name, dirs, idle_timeout, title=None):
    """A QEMU stage; `dirs` is (log directory, ISO directory)."""
    log_dir, iso_dir = dirs
    iso = os.path.join(iso_dir, name + '.iso')
    return Stage(
        name=name,
        title=title or "kernel boot '%s' (%s)" % (boot.cmdline, boot_config(boot)),
        kind='qemu',
        argv=qemu_argv(iso, boot.mem, boot.smp, boot.qemu_args,
                       boot.machine, boot.firmware, boot.numa),
        log_path=os.path.join(log_dir, name + '.log'),
        timeout=boot.timeout,
        idle_timeout=min(idle_timeout, boot.timeout),
        prepare=lambda: build_iso(boot.kernel,
                                  numa_cmdline(boot.cmdline, boot.numa,
                                               boot.mem, boot.smp),
                                  iso, boot.grub_cfg))


def host_stage(command, log_dir, timeout, idle_timeout, name):
    return Stage(name=name, title="host run '%s'" % command, kind='host',
                 argv=shlex.split(command),
                 log_path=os.path.join(log_dir, name + '.log'),
                 timeout=timeout, idle_timeout=min(idle_timeout, timeout))


def per_boot(values, count, option, default):
    """Spread a repeated option over `count` boots (0, 1 or `count` values)."""
    if not values:
        return [default] * count
    if len(values) == 1:
        return values * count
    if len(values) == count:
        return values
    raise ValueError('%s given %d times for %d --kernel options (give it once '
                     'for all boots, or once per --kernel)'
                     % (option, len(values), count))


def make_boots(args):
    kernels = args.kernel or []
    count = len(kernels)
    columns = [per_boot(args.cmdline, count, '--cmdline', 'ktest'),
               per_boot(args.mem, count, '--mem', '128M'),
               per_boot(args.smp, count, '--smp', '1'),
               per_boot(args.timeout, count, '--timeout', 120.0),
               per_boot(args.qemu_args, count, '--qemu-args', ''),
               per_boot(args.machine, count, '--machine', 'pc'),
               per_boot(args.firmware, count, '--firmware', 'bios'),
               per_boot(args.grub_cfg, count, '--grub-cfg', ''),
               per_boot(args.numa, count, '--numa', '')]
    return [Boot(kernel, *values) for kernel, *values in zip(kernels, *columns)]


def unique_name(base, taken):
    name, number = base, 2
    while name in taken:
        name = '%s-%d' % (base, number)
        number += 1
    taken.add(name)
    return name


def make_stages(args):
    """Host stages first (fast), then kernel boots, in command-line order."""
    stages, taken = [], set()
    for command in args.host or []:
        words = shlex.split(command)
        base = 'host-' + slug('_'.join([os.path.basename(words[0])] + words[1:])
                              if words else 'empty')
        stages.append(host_stage(command, args.log_dir, args.host_timeout,
                                 args.idle_timeout, unique_name(base, taken)))
    for boot in make_boots(args):
        base = 'kernel-' + slug(boot.cmdline)
        if str(boot.smp) != '1':
            base += '-smp' + slug(str(boot.smp))
        if boot.firmware != 'bios':
            base += '-' + boot.firmware
        if boot.machine != 'pc':
            base += '-' + slug(boot.machine)
        if boot.grub_cfg:
            base += '-' + slug(os.path.splitext(os.path.basename(boot.grub_cfg))[0])
        if boot.numa:
            base += '-numa' + slug(boot.numa.split(':')[0])
        stages.append(boot_stage(boot, unique_name(base, taken),
                                 (args.log_dir, args.iso_dir), args.idle_timeout))
    return stages


# -- reporting -----------------------------------------------------------------


def counts_text(passed, failed, skipped):
    text = '%d passed, %d failed' % (passed, failed)
    return text + (', %d skipped' % skipped if skipped else '')


def stage_line(outcome):
    obs = outcome.obs
    text = 'harness: %s %s: %s in %.1f s' % (
        'PASS' if outcome.ok else 'FAIL', outcome.stage.title,
        counts_text(outcome.passed, outcome.failed, outcome.skipped),
        obs.elapsed)
    if obs.first_test is not None and outcome.stage.kind == 'qemu':
        text += ' (boot to first test: %.1f s)' % obs.first_test
    return text


def print_failure_details(outcome, printer):
    """The one-line reason, the serial tail and captured stderr."""
    obs = outcome.obs
    printer.always('harness: %s' % outcome.reason)
    if outcome.kind == 'failed' and not obs.stderr:
        return   # the failing tests are listed in the final report
    if obs.tail:
        printer.always('harness: last %d lines of %s:'
                       % (len(obs.tail), outcome.stage.log_path))
        for line in obs.tail:
            printer.always('    ' + line)
    if obs.stderr:
        printer.always('harness: stderr of %s:' % outcome.stage.argv[0])
        for line in obs.stderr:
            printer.always('    ' + line)


def print_test_failures(outcome, printer):
    """Failing test names with their diagnostics, and KTAP errors."""
    report = outcome.obs.report
    if report is None:
        return
    for failure in report.failures:
        note = ': ' + failure.message if failure.message else ''
        printer.always('  FAIL %s%s' % (failure.name, note))
        diag = failure.diag[-DIAG_SHOWN:]
        for line in diag:
            printer.always('      ' + line)
    errors = report.errors[1:] if outcome.kind == 'ktap' else report.errors
    for error in errors:
        printer.always('  %s' % error)


def run_stages(stages, printer, kunit_py=None):
    outcomes = []
    for stage in stages:
        printer.info('harness: %s' % stage.title)
        outcome = run_stage(stage, printer)
        printer.info(stage_line(outcome))
        if kunit_py:
            kunit_check(outcome, kunit_py, printer)
        if not outcome.ok:
            if printer.quiet:
                printer.always('harness: FAIL %s' % stage.title)
            print_failure_details(outcome, printer)
        outcomes.append(outcome)
    return outcomes


def print_report(outcomes, printer):
    failed = [o for o in outcomes if not o.ok]
    if not failed:
        return
    printer.always('harness: ---- failures ----')
    for outcome in failed:
        printer.always('harness: %s: %s (log: %s)' % (
            outcome.stage.title, outcome.reason, outcome.stage.log_path))
        print_test_failures(outcome, printer)


# -- selftests --------------------------------------------------------------------


@dataclass
class Check:
    """A harness selftest result."""

    ok: bool
    text: str
    details: list = field(default_factory=list)


# case -> (expected verdict kind, description)
LIVE_SELFTESTS = {
    'hang': ('hang', 'hang detected'),
    'panic_smp': ('panic', 'panic stops the other CPUs: the log ends with it'),
    'panic_ap': ('panic', 'panic on CPU 1 stops CPU 0 (interrupts off) and the rest'),
    'pass': ('pass', 'passing test reported as a pass'),
    'fail': ('failed', 'failing expectation detected'),
    'panic': ('panic', 'panic detected'),
    'exception': ('exception', 'CPU exception detected'),
    'triple': ('exit', 'triple fault detected'),
    'pagealloc_fault': ('exception', 'debug_pagealloc fault on a free page named'),
    'double_fault': ('exception', 'double fault on a broken stack reported'),
    'vmalloc_guard': ('exception', 'vmalloc guard page write named with its area'),
    'kasan_panic_on_warn': ('panic', 'a KASAN report panics under panic_on_warn'),
    'slab_double_free': ('panic', "a double free stops free_block() with a BUG"),
    'slab_bad_pointer': ('panic', "a free of no slab's pointer stops free_block() with a BUG"),
}
# Cases booted on the KASAN=1 kernel (--selftest-kasan); left out without it.
SELFTEST_KASAN = ('kasan_panic_on_warn',)
# Kernel parameters a selftest case needs besides its ktest=, and text its
# log must contain.
SELFTEST_PARAMS = {'pagealloc_fault': 'debug_pagealloc=on',
                   'kasan_panic_on_warn': 'panic_on_warn',
                   'slab_double_free': 'kfence.sample_interval=0',
                   'slab_bad_pointer': 'kfence.sample_interval=0'}
# Cases that need several CPUs; the others boot with --smp (default 1).
SELFTEST_SMP = {'panic_smp': '4', 'panic_ap': '4'}
# Cases whose log must end with their panic: nothing printed after the
# panic's first line but the panic itself.
SELFTEST_PANIC_LAST = ('panic_smp', 'panic_ap')
SELFTEST_LOG_TEXT = {'pagealloc_fault': '(debug_pagealloc: pfn 0x',
                     'double_fault': 'CPU exception 8 (#DF Double Fault)',
                     'vmalloc_guard': '(vmalloc guard page of a 12288-byte area '
                                      'allocated by vmalloc_guard+0x',
                     'kasan_panic_on_warn': ('BUG: KASAN: slab-out-of-bounds in poke_byte',
                                             'Kernel panic - not syncing: KASAN: '
                                             'panic_on_warn set'),
                     'slab_double_free': 'kernel BUG at mm/slab.c:',
                     'slab_bad_pointer': 'kernel BUG at mm/slab.c:'}


class _CollectingResult(unittest.TestResult):
    """Records one Check per unit test."""

    def __init__(self):
        super().__init__()
        self.checks = []

    def addSuccess(self, test):
        self.checks.append(Check(True, 'unit: %s' % _test_label(test)))

    def addFailure(self, test, err):
        self._bad(test, err)

    def addError(self, test, err):
        self._bad(test, err)

    def addSkip(self, test, reason):
        self.checks.append(Check(True, 'unit: %s # SKIP %s' % (_test_label(test), reason)))

    def _bad(self, test, err):
        text = self._exc_info_to_string(err, test)
        self.checks.append(Check(False, 'unit: %s' % _test_label(test),
                                 text.rstrip().splitlines()))


def _test_label(test):
    return test.id().split('.', 1)[-1]


def unit_selftests():
    """Run the pure (no process) tests from test_harness.py."""
    import test_harness   # pylint: disable=import-outside-toplevel
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(case)
                               for case in test_harness.PURE_TEST_CASES)
    result = _CollectingResult()
    suite.run(result)
    return result.checks


def check_live(case, outcome):
    """Compare a selftest boot's verdict with what it must be."""
    expected, text = LIVE_SELFTESTS[case]
    problems = []
    if outcome.kind != expected:
        problems.append("expected a '%s' verdict, got '%s'" % (expected, outcome.kind))
    if case == 'pass' and (outcome.passed, outcome.failed) != (1, 0):
        problems.append('expected 1 passed, 0 failed, got %s'
                        % counts_text(outcome.passed, outcome.failed, outcome.skipped))
    if case == 'fail' and outcome.obs.report.failed < 1:
        problems.append('no failing KTAP result')
    if case == 'triple' and outcome.kind == 'exit' and outcome.obs.status != 0:
        problems.append('expected QEMU status 0, got %s' % outcome.obs.status)
    wanted = SELFTEST_LOG_TEXT.get(case, ())
    for line in (wanted,) if isinstance(wanted, str) else wanted:
        if not log_contains(outcome.stage.log_path, line):
            problems.append('no %r in the log' % line)
    if case in SELFTEST_PANIC_LAST:
        problems += panic_log_problems(outcome.stage.log_path)
    label = '%s (ktest=selftest.%s, reason: %s)' % (text, case, outcome.reason)
    if not problems:
        return Check(True, label)
    details = ['; '.join(problems), 'log: %s' % outcome.stage.log_path]
    details += outcome.obs.tail[-TAIL_LINES:]
    return Check(False, label, details)


def panic_log_problems(path):
    """What is wrong with a log that must end with one clean panic."""
    try:
        with open(path, encoding='utf-8', errors='replace') as log:
            lines = [strip_timestamp(line.rstrip()) for line in log if line.strip()]
    except OSError as err:
        return ['log unreadable: %s' % err]
    starts = [i for i, line in enumerate(lines)
              if line.startswith('Kernel panic - not syncing')]
    if not starts:
        return ['no panic in the log']
    problems = []
    after = lines[starts[0] + 1:]
    strays = [line for line in after if 'selftest: cpu' in line]
    if strays:
        problems.append('another CPU printed after the panic: %r' % strays[0])
    if any('did not stop' in line for line in after):
        problems.append('a CPU did not stop')
    if not lines[-1].startswith('---[ end Kernel panic'):
        problems.append('the log ends with %r, not the panic' % lines[-1])
    return problems


def log_contains(path, text):
    try:
        with open(path, encoding='utf-8', errors='replace') as log:
            return text in log.read()
    except OSError:
        return False


def live_selftests(kernel, args):
    """Boot every selftest case (two at a time) and check the verdicts."""
    quiet = Printer(quiet=True)
    jobs = []
    for case in LIVE_SELFTESTS:   # 'hang' first: it overlaps the others
        elf = args.selftest_kasan if case in SELFTEST_KASAN else kernel
        if not elf:
            continue
        if case == 'hang':
            timeout = idle = args.hang_timeout
        else:
            timeout = min(first(args.timeout, 120.0), 60.0)
            idle = args.idle_timeout
        cmdline = ('ktest=selftest.%s %s' % (case, SELFTEST_PARAMS.get(case, ''))).strip()
        boot = Boot(elf, cmdline, first(args.mem, '128M'),
                    SELFTEST_SMP.get(case, first(args.smp, '1')), timeout,
                    first(args.qemu_args, ''))
        stage = boot_stage(boot, 'selftest-' + case, (args.log_dir, args.iso_dir), idle,
                           title="selftest boot '%s'" % cmdline)
        jobs.append((case, stage))
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [(case, pool.submit(run_stage, stage, quiet)) for case, stage in jobs]
        try:
            return [check_live(case, future.result()) for case, future in futures]
        except KeyboardInterrupt:
            ABORT.set()   # make the workers kill their QEMUs before we wait
            raise


def first(values, default):
    """First value of a repeatable option (selftest boots use one setting)."""
    return values[0] if values else default


def run_lock_order(doc, outcomes, printer):
    """The validator's graphs of every stage against doc (lock_order.py):
    (passed, failed); none without a graph (LOCKDEP=0)."""
    import lock_order  # pylint: disable=import-outside-toplevel
    texts = []
    for outcome in outcomes:
        try:
            with open(outcome.stage.log_path, encoding='utf-8',
                      errors='replace') as f:
                texts.append(f.read())
        except OSError:
            continue
    results = lock_order.check(texts, doc, '.')
    for ok, text in results:
        if ok:
            printer.info('harness lock order: ok - %s' % text)
        else:
            printer.always('harness lock order: not ok - %s' % text)
    passed = sum(1 for ok, _ in results if ok)
    failed = len(results) - passed
    printer.info('harness: %s lock order (%s): %s' % (
        'PASS' if not failed else 'FAIL', doc, counts_text(passed, failed, 0)
        if results else 'no validator graph in the logs, nothing checked'))
    return passed, failed


def run_gdb_check(kernel, args, printer):
    """The gdb helpers against the shell (gdb_check.py): (passed, failed)."""
    import gdb_check   # pylint: disable=import-outside-toplevel
    printer.info('harness: gdb check: %s at its shell, with gdb attached' % kernel)
    start = time.monotonic()
    checks = gdb_check.run_checks(kernel, iso_dir=args.iso_dir, log_dir=args.log_dir)
    for ok, text, details in checks:
        if ok:
            printer.info('harness gdb check: ok - %s' % text)
            continue
        printer.always('harness gdb check: not ok - %s' % text)
        for line in details + ['log: %s' % os.path.join(args.log_dir, 'gdb-check.log')]:
            printer.always('    ' + line)
    passed = sum(1 for ok, _, _ in checks if ok)
    failed = len(checks) - passed
    printer.info('harness: %s gdb check: %s in %.1f s' % (
        'PASS' if not failed else 'FAIL', counts_text(passed, failed, 0),
        time.monotonic() - start))
    return passed, failed


def run_selftests(kernel, args, printer):
    kasan = len(SELFTEST_KASAN) if args.selftest_kasan else 0
    printer.info('harness: selftest (unit tests + %d boots of %s%s)'
                 % (len(LIVE_SELFTESTS) - len(SELFTEST_KASAN), kernel,
                    ', %d of %s' % (kasan, args.selftest_kasan) if kasan else ''))
    start = time.monotonic()
    checks = unit_selftests() + live_selftests(kernel, args)
    for check in checks:
        if check.ok:
            printer.info('harness selftest: ok - %s' % check.text)
        else:
            printer.always('harness selftest: not ok - %s' % check.text)
            for line in check.details:
                printer.always('    ' + line)
    passed = sum(1 for check in checks if check.ok)
    failed = len(checks) - passed
    printer.info('harness: %s selftest: %s in %.1f s' % (
        'PASS' if not failed else 'FAIL', counts_text(passed, failed, 0),
        time.monotonic() - start))
    return passed, failed


# -- command line --------------------------------------------------------------


DESCRIPTION = """\
Boot the kernel under QEMU and/or run its host-native build, stream the
serial output to the terminal and to LOG_DIR/<stage>.log, parse the KTAP it
prints and decide pass/fail.  All stages given in one invocation are counted
into one final line "N passed, N failed[, N skipped]"; the exit status is 0
only if nothing failed.

A stage fails if the kernel panics ("Kernel panic - not syncing",
"---[ end Kernel panic"), takes a CPU exception ("CPU exception"), hangs,
exits with a status other than 33/35 (QEMU) or 0/1 (host), prints a
sanitizer report (host only), prints incomplete or malformed KTAP, runs no
test, or has a failing test; the exit status must also agree with the KTAP.

Kernel boots: --kernel may be repeated.  --cmdline, --mem, --smp, --timeout
and --qemu-args may each be given once (applies to every boot) or exactly
once per --kernel (paired in order); if omitted the defaults are used.

Interactive mode:
  %(prog)s run --kernel ELF [--cmdline C] [--mem M] [--smp N]
               [--qemu-args ARGS] [--debug]
builds the ISO and runs QEMU on the terminal (serial on stdin/stdout); exit
status 0 if the kernel wrote 0x10 to isa-debug-exit, 1 if 0x11, otherwise
QEMU's status.  See "%(prog)s run --help".

Environment: QEMU (default qemu-system-x86_64) and MKISO (default
"sh tools/mkiso.sh") override the emulator and the ISO builder.
Tip: write option values that start with "-" as --qemu-args='-d int'."""


def positive_float(text):
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError('must be > 0')
    return value


def add_iso_dir_option(parser):
    parser.add_argument('--iso-dir', default=os.path.join(ROOT, 'build', 'iso'),
                        help='directory for the generated ISOs (default: build/iso)')


def add_boot_options(parser, repeatable):
    action = 'append' if repeatable else 'store'
    parser.add_argument('--kernel', action=action, metavar='ELF',
                        required=not repeatable,
                        help='kernel ELF to boot' + (' (repeatable)' if repeatable else ''))
    parser.add_argument('--cmdline', action=action, metavar='CMDLINE',
                        help='kernel command line baked into the ISO (default: %s)'
                        % ('ktest' if repeatable else 'empty'))
    parser.add_argument('--mem', action=action, metavar='SIZE',
                        help='guest memory (default: 128M)')
    parser.add_argument('--smp', action=action, metavar='N',
                        help='number of CPUs (default: 1)')
    parser.add_argument('--qemu-args', action=action, metavar='ARGS',
                        help='extra QEMU arguments (one shell-quoted string)')
    parser.add_argument('--machine', action=action, choices=MACHINES,
                        help='QEMU machine type (default: pc)')
    parser.add_argument('--firmware', action=action, choices=FIRMWARES,
                        help='bios (SeaBIOS, the default) or uefi (OVMF)')
    parser.add_argument('--grub-cfg', action=action, metavar='FILE',
                        help='GRUB config template instead of iso/grub.cfg '
                             '(e.g. iso/grub-holes.cfg: cutmem and badram)')
    parser.add_argument('--numa', action=action, metavar='SPEC',
                        help="NUMA nodes 'N[:nomem=K][:A-B=D]...': N nodes "
                             'sharing RAM and CPUs evenly, node K without '
                             'memory, distance D from node A to B; the kernel '
                             'gets numa_expect= to check them against')


def main_parser():
    parser = argparse.ArgumentParser(
        prog='harness.py', description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--log-dir', default=os.path.join(ROOT, 'build', 'logs'),
                        help='directory for <stage>.log files (default: build/logs)')
    add_iso_dir_option(parser)
    parser.add_argument('--quiet', action='store_true',
                        help='print only failures and the summary line')
    parser.add_argument('--host', action='append', metavar='COMMAND',
                        help="run a host-native build, e.g. 'build/host/kernel ktest' "
                             '(shell-quoted string; repeatable)')
    parser.add_argument('--host-timeout', type=positive_float, default=120.0,
                        metavar='S', help='time limit per host run (default: 120)')
    add_boot_options(parser, repeatable=True)
    parser.add_argument('--timeout', action='append', type=positive_float,
                        metavar='S', help='time limit per boot in seconds (default: 120)')
    parser.add_argument('--idle-timeout', type=positive_float, default=60.0,
                        metavar='S', help='fail a stage that prints nothing for S '
                                          'seconds (default: 60)')
    parser.add_argument('--selftest', metavar='ELF',
                        help='test the harness: unit tests, then boot the selftest '
                             'suite cases of ELF (pass, fail, panic, exception, '
                             'hang, triple) and check each verdict')
    parser.add_argument('--selftest-kasan', metavar='ELF',
                        help='with --selftest: boot the cases that need KASAN '
                             '(kasan_panic_on_warn) on ELF, the KASAN=1 kernel '
                             '(left out without it)')
    parser.add_argument('--lock-order', metavar='DOC',
                        help="check the lock validator's graph in every "
                        "stage's log against DOC's lock order "
                        '(lock_order.py)')
    parser.add_argument('--gdb-check', metavar='ELF',
                        help="boot ELF to its shell with QEMU's gdb stub and "
                             'check that the gdb helpers (tools/gdb/cram.py) '
                             'print what the shell prints')
    parser.add_argument('--kunit-parser', metavar='KUNIT_PY',
                        help="check each stage's log with Linux's parser "
                             "(tools/testing/kunit/kunit.py): no errors and the "
                             'same counts, or the stage fails; a missing file '
                             'skips the check with a message')
    parser.add_argument('--hang-timeout', type=positive_float, default=8.0,
                        metavar='S', help='time limit for the selftest.hang boot '
                                          '(default: 8)')
    return parser


def run_parser():
    parser = argparse.ArgumentParser(
        prog='harness.py run',
        description='Interactive boot (make run): build the ISO and run QEMU with '
                    'the serial port on this terminal (stdin/stdout, so piped '
                    'input works).  Exit status: 0 if QEMU exits with 33 '
                    '(kernel wrote 0x10), 1 if 35 (0x11), else QEMU\'s status.')
    add_boot_options(parser, repeatable=False)
    add_iso_dir_option(parser)
    parser.add_argument('--debug', action='store_true',
                        help="add '-s -S': QEMU waits for gdb on :1234 (the "
                             'command to attach, with the helpers of '
                             'tools/gdb/cram.py, is printed)')
    return parser


def map_run_status(status):
    if status == QEMU_PASS:
        return 0
    if status == QEMU_FAIL:
        return 1
    if status < 0:
        return 128 - status
    return status


def cmd_run(argv):
    args = run_parser().parse_args(argv)
    try:
        cmdline = numa_cmdline(args.cmdline or '', args.numa,
                               args.mem or '128M', args.smp or '1')
    except ValueError as err:
        print('harness: %s' % err, file=sys.stderr)
        return 1
    iso = os.path.join(args.iso_dir, 'run.iso')
    error = build_iso(args.kernel, cmdline, iso, args.grub_cfg)
    if error:
        print('harness: %s' % error, file=sys.stderr)
        return 1
    qemu = qemu_argv(iso, args.mem or '128M', args.smp or '1', args.qemu_args,
                     args.machine or 'pc', args.firmware or 'bios', args.numa)
    if args.debug:
        qemu += ['-s', '-S']
        print("QEMU is waiting for gdb: gdb -iex 'add-auto-load-safe-path %s' "
              "%s -ex 'target remote :1234'"
              % (os.path.dirname(os.path.abspath(args.kernel)), args.kernel), flush=True)
    try:
        proc = subprocess.Popen(qemu)
    except OSError as err:
        print('harness: could not start %s: %s' % (qemu[0], err), file=sys.stderr)
        return 1
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        status = proc.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    return map_run_status(status)


def cmd_test(argv):
    parser = main_parser()
    args = parser.parse_args(argv)
    if not (args.host or args.kernel or args.selftest or args.gdb_check):
        parser.error('nothing to do: give --host, --kernel, --selftest and/or '
                     '--gdb-check')
    try:
        stages = make_stages(args)
    except ValueError as err:
        parser.error(str(err))
    printer = Printer(quiet=args.quiet)
    kunit_py = args.kunit_parser if kunit_parser_usable(args.kunit_parser,
                                                         printer) else None
    outcomes = run_stages(stages, printer, kunit_py)
    passed = sum(o.passed for o in outcomes)
    failed = sum(o.failed for o in outcomes)
    skipped = sum(o.skipped for o in outcomes)
    if args.lock_order:
        order_passed, order_failed = run_lock_order(args.lock_order, outcomes,
                                                    printer)
        passed += order_passed
        failed += order_failed
    if args.selftest:
        self_passed, self_failed = run_selftests(args.selftest, args, printer)
        passed += self_passed
        failed += self_failed
    if args.gdb_check:
        gdb_passed, gdb_failed = run_gdb_check(args.gdb_check, args, printer)
        passed += gdb_passed
        failed += gdb_failed
    print_report(outcomes, printer)
    printer.always(counts_text(passed, failed, skipped))
    return 0 if failed == 0 else 1


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.stdout.reconfigure(errors='replace')
    try:
        if argv[:1] == ['run']:
            return cmd_run(argv[1:])
        return cmd_test(argv)
    except KeyboardInterrupt:
        ABORT.set()
        print('harness: interrupted', file=sys.stderr)
        return 130


if __name__ == '__main__':
    sys.exit(main())
