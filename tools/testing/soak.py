#!/usr/bin/env python3
"""Soak the kernel under QEMU for a given time (make soak MINUTES=N).

Rounds, until the time is up, each of two boots on SMP CPUs through the
harness (tools/testing/harness.py), so every boot is judged as in make
test (panic, hang, exception, failing KTAP, kunit_parser's counts):

  torture  the torture suites (SUITES) with torture_ms= set so that the
           boot takes about ROUND seconds;
  fuzz     the in-kernel fuzzer (fuzz=SECONDS, a fresh seed each boot).

Every test case's diagnostic lines ("# case: 123 reads, 45 updates")
are added up over the rounds: each "NUMBER words" pair in them is an
operation count (but CPUs and times).  The last line is the harness's own kind:
"soak: N passed, N failed" over all boots, and the exit status is 0 only
if nothing failed.  The logs stay in build/soak/round-K/.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import time

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(TESTS_DIR, 'harness.py')

SUITES = 'rcutorture,vmalloc_torture,workqueue,smp_call,smp'
DIAG = re.compile(r'^\s*# (test_\w+): (.*)$')
COUNT = re.compile(r'(\d+) ([a-zA-Z][a-zA-Z /_-]*?)(?=,|\(|$| in | from | on | by )')
FINAL = re.compile(r'^(\d+) passed, (\d+) failed')
NOT_COUNTS = ('CPU', 'CPUs', 'ms', 's')
FUZZ_DONE = re.compile(r'fuzz: done, no findings: (\d+) inputs, (\d+) ops')


def run_boot(args, log_dir, cmdline, timeout):
    """One harness boot; (passed, failed, log text of the kernel stage)."""
    os.makedirs(log_dir, exist_ok=True)
    argv = [sys.executable, HARNESS, '--quiet', '--log-dir', log_dir,
            '--kernel', args.kernel, '--mem', args.mem,
            '--smp', str(args.smp), '--cmdline', cmdline,
            '--timeout', str(timeout)]
    if args.kunit_parser:
        argv += ['--kunit-parser', args.kunit_parser]
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    passed = failed = 0
    for line in proc.stdout.splitlines():
        m = FINAL.match(line)
        if m:
            passed, failed = int(m.group(1)), int(m.group(2))
    if proc.returncode and not failed:
        failed = 1
    if proc.returncode:
        sys.stdout.write(proc.stdout)
    text = ''
    for name in sorted(os.listdir(log_dir)):
        if name.startswith('kernel-'):
            with open(os.path.join(log_dir, name), errors='replace') as f:
                text += f.read()
    return passed, failed, text


def add_counts(totals, text):
    """Add the "NUMBER words" pairs of every case's diagnostic lines."""
    for line in text.splitlines():
        m = FUZZ_DONE.search(line)
        if m:
            totals[('fuzz', 'inputs')] += int(m.group(1))
            totals[('fuzz', 'ops')] += int(m.group(2))
        m = DIAG.match(line)
        if not m:
            continue
        for number, words in COUNT.findall(m.group(2)):
            if words.strip() not in NOT_COUNTS:
                totals[(m.group(1), words.strip())] += int(number)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--minutes', type=float, required=True)
    ap.add_argument('--smp', type=int, default=4)
    ap.add_argument('--mem', default='128M')
    ap.add_argument('--suites', default=SUITES)
    ap.add_argument('--round', type=int, default=120,
                    help='seconds of torture per round (default: 120)')
    ap.add_argument('--fuzz', type=int, default=60,
                    help='seconds of fuzzing per round (default: 60)')
    ap.add_argument('--cases', type=int, default=5,
                    help='torture cases the time is shared among (default: 5)')
    ap.add_argument('--log-dir', default='build/soak')
    ap.add_argument('--kunit-parser')
    args = ap.parse_args()

    deadline = time.monotonic() + args.minutes * 60
    totals = collections.Counter()
    passed = failed = rounds = 0
    while time.monotonic() < deadline and not failed:
        rounds += 1
        left = deadline - time.monotonic()
        torture_s = max(10, min(args.round, left * 2 / 3))
        fuzz_s = max(5, min(args.fuzz, left / 3))
        base = os.path.join(args.log_dir, 'round-%d' % rounds)
        ms = int(torture_s * 1000 / args.cases)
        for kind, cmdline, timeout in (
                ('torture', 'ktest=%s torture_ms=%d smp_ops=2000000' %
                 (args.suites, ms), int(torture_s * 3 + 300)),
                ('fuzz', 'fuzz=%d' % fuzz_s, int(fuzz_s + 300))):
            p, f, text = run_boot(args, os.path.join(base, kind), cmdline,
                                  timeout)
            passed += p
            failed += f
            add_counts(totals, text)
            print('soak: round %d %s: %d passed, %d failed (%s)' %
                  (rounds, kind, p, f, cmdline), flush=True)
            if f:
                break
    print('soak: %d round(s) in %.1f minutes on %d CPUs; operations:' %
          (rounds, args.minutes - (deadline - time.monotonic()) / 60,
           args.smp))
    for (case, what), n in sorted(totals.items()):
        print('soak:   %-34s %14d %s' % (case, n, what))
    print('soak: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
