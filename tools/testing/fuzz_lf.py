#!/usr/bin/env python3
"""Run the libFuzzer build of the allocator fuzz target and sum it up.

    fuzz_lf.py --out build/fuzz-lf -- build/fuzz-lf/cram libfuzzer -- FLAGS... DIRS...

make fuzz-lf runs this. The command's output (the kernel's on stdout,
libFuzzer's on stderr) goes to the terminal and to OUT/fuzz-lf.log.
libFuzzer's status lines ("#N INITED cov: C ft: F corp: K/S ...",
"NEW", "REDUCE", "pulse", "DONE") and its final statistics
(-print_final_stats=1) become one summary: executions, executions per
second, coverage (cov: the edges the inline 8-bit counters saw, ft:
libFuzzer's features) at the start and at the end, and the corpus.

A finding is whatever makes libFuzzer stop with an error: a failing
input (fuzz_one_input() printed "fuzz: BUG: ..." and aborted), a crash,
a sanitizer report, a timeout. libFuzzer saves the input
("Test unit written to PATH", under -artifact_prefix); the summary names
it and how to replay it with the ordinary host build, and the exit
status is 1. Exit status 0 only if the run ended normally.
"""
import argparse
import os
import re
import subprocess
import sys
import threading

STATUS_RE = re.compile(r'^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)\s+'
                       r'cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)'
                       r'(?:.*?exec/s: (\d+))?')
STAT_RE = re.compile(r'^stat::(\w+):\s+(\d+)')
ARTIFACT_RE = re.compile(r'Test unit written to (\S+)')
DONE_RE = re.compile(r'^Done (\d+) runs in (\d+) second')


class Summary:
    """What the log said, line by line (feed())."""

    def __init__(self):
        self.first = None       # (execs, cov, ft, corpus) at INITED
        self.last = None        # the last status line's
        self.stats = {}
        self.artifact = None
        self.done = None        # (runs, seconds)
        self.bug = None         # the first "fuzz: BUG" line

    def feed(self, line):
        line = line.rstrip('\n')
        m = STATUS_RE.match(line)
        if m:
            status = (int(m.group(1)), int(m.group(3)), int(m.group(4)),
                      int(m.group(5)), m.group(6))
            if self.first is None:
                self.first = status
            self.last = status
        m = STAT_RE.match(line)
        if m:
            self.stats[m.group(1)] = int(m.group(2))
        m = ARTIFACT_RE.search(line)
        if m:
            self.artifact = m.group(1)
        m = DONE_RE.match(line)
        if m:
            self.done = (int(m.group(1)), int(m.group(2)))
        if self.bug is None and 'fuzz: BUG' in line:
            self.bug = line.strip()

    def lines(self):
        out = []
        runs = self.stats.get('number_of_executed_units',
                              self.done[0] if self.done else
                              self.last[0] if self.last else 0)
        rate = self.stats.get('average_exec_per_sec')
        secs = self.done[1] if self.done else None
        out.append('fuzz-lf: %d executions%s%s' % (
            runs, ' in %d s' % secs if secs is not None else '',
            ' (%d exec/s)' % rate if rate is not None else ''))
        if self.last:
            first = self.first
            out.append('fuzz-lf: coverage: %d edges (cov), %d features (ft); '
                       'at the start %d and %d' % (self.last[1], self.last[2],
                                                    first[1], first[2]))
            out.append('fuzz-lf: corpus: %d inputs, %s; %d new' % (
                self.last[3], self.last[4],
                self.stats.get('new_units_added', self.last[3] - first[3])))
        return out


def pump(stream, sink, summary, log, lock):
    for raw in iter(stream.readline, b''):
        line = raw.decode('utf-8', 'replace')
        with lock:
            sink.write(line)
            sink.flush()
            log.write(line)
            summary.feed(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--out', required=True,
                        help='directory for fuzz-lf.log')
    parser.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ['--'] else args.command
    if not command:
        parser.error('no command')
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, 'fuzz-lf.log')
    summary, lock = Summary(), threading.Lock()
    with open(log_path, 'w', encoding='utf-8') as log:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        threads = [threading.Thread(target=pump, args=(s, k, summary, log, lock))
                   for s, k in ((proc.stdout, sys.stdout),
                                (proc.stderr, sys.stderr))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        status = proc.wait()
    for line in summary.lines():
        print(line)
    if status == 0:
        print('fuzz-lf: no findings (log: %s)' % log_path)
        return 0
    print('fuzz-lf: FAILED: exit status %d%s' % (
        status, ', ' + summary.bug if summary.bug else ''))
    if summary.artifact:
        print('fuzz-lf: the failing input is %s' % summary.artifact)
        print('fuzz-lf: replay it:  build/host/cram fuzzfile=%s' % summary.artifact)
        print('fuzz-lf:   (with page_poison=on, or the file given twice, if the '
              'bug needs memory an earlier input left dirty)')
        print('fuzz-lf: or:         %s libfuzzer -- %s' % (command[0], summary.artifact))
        print('fuzz-lf: keep it:    cp %s fuzz/corpus/NAME.bin' % summary.artifact)
    else:
        print('fuzz-lf: libFuzzer saved no input: see %s' % log_path)
    return 1


if __name__ == '__main__':
    sys.exit(main())
