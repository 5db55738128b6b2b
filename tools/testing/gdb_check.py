#!/usr/bin/env python3
"""Boot a kernel to its shell with QEMU's gdb stub and check tools/gdb/cram.py.

One boot (build/kernel-notest.elf in make test: the kernel without its
tests, which must reach the shell):

  1. QEMU starts halted (-S) with its gdb stub on a free local port and the
     serial port on a pipe;
  2. gdb (batch mode, loading the helpers through the kernel's auto-load
     file KERNEL-gdb.py) attaches, puts hardware breakpoints on the shell's
     slabinfo, buddyinfo and vmallocinfo commands and lets the kernel run;
  3. at the prompt, this script types slabinfo, buddyinfo, vmallocinfo and
     meminfo; each time a command has printed (gdb's finish from its
     breakpoint, every CPU stopped) gdb runs the matching cram-* command,
     so both read the same state;
  4. after the last one gdb runs cram-dmesg, cram-page on a free buddy
     block and on a slab page, cram-percpu, and the bad inputs; it
     detaches and the shell powers off.

Each check compares the shell's lines with gdb's: the same lines, every
console line of the boot in cram-dmesg, the pages decoded as what they
are, and a clear message (no Python traceback) for a pfn beyond max_pfn.
Every wait is bounded: a hang fails the check that waited.

Used by harness.py --gdb-check ELF (make test); also runs alone:
    tools/testing/gdb_check.py --kernel build/kernel-notest.elf
"""

import argparse
import os
import re
import socket
import subprocess
import sys
import threading
import time

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(TESTS_DIR))
sys.path.insert(0, TESTS_DIR)
sys.dont_write_bytecode = True

import harness  # noqa: E402

PROMPT = 'cram> '
MARK = '@@cram-check '
# The shell commands typed, and the gdb command that must print the same.
COMPARED = (('slabinfo', 'cram-slabinfo', 'cmd_slabinfo'),
            ('buddyinfo', 'cram-buddyinfo', 'cmd_buddyinfo'),
            ('vmallocinfo', 'cram-vmallocinfo', 'cmd_vmallocinfo'))
ZONE_NAMES = ('DMA', 'DMA32', 'Normal')   # enum zone_type's order
TIMESTAMP_RE = re.compile(r'^\[\s*\d+\.\d+\] ')


class Serial:
    """The serial output of a process, collected by a thread."""

    def __init__(self, stream):
        self.text = ''
        self.cond = threading.Condition()
        self.closed = False
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        while True:
            chunk = os.read(stream.fileno(), 65536)
            with self.cond:
                if not chunk:
                    self.closed = True
                else:
                    self.text += chunk.decode('utf-8', 'replace').replace('\r', '')
                self.cond.notify_all()
            if not chunk:
                return

    def wait_for(self, text, count, timeout):
        """Wait until text appears count times; False on timeout or EOF."""
        end = time.monotonic() + timeout
        with self.cond:
            while self.text.count(text) < count:
                left = end - time.monotonic()
                if left <= 0 or self.closed:
                    return False
                self.cond.wait(left)
            return True


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def wait_listening(port, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def gdb_argv(gdb, kernel, port, buddy):
    """gdb's batch commands; each cram-* output follows a marker line."""
    build = os.path.dirname(os.path.abspath(kernel))
    cmds = ['set pagination off', 'set confirm off',
            'target remote 127.0.0.1:%d' % port]
    cmds += ['hbreak %s' % fn for _, _, fn in COMPARED]
    for shell_cmd, gdb_cmd, _ in COMPARED:
        cmds += ['continue', 'finish', 'echo \\n%s%s\\n' % (MARK, shell_cmd), gdb_cmd,
                 'echo \\n%s-\\n' % MARK]
    zone, order = buddy
    cmds += [
        'echo \\n%sdmesg\\n' % MARK, 'cram-dmesg',
        'echo \\n%sbuddy_page\\n' % MARK,
        'cram-page (struct page *)((char *)node_data[0]->node_zones[%d]'
        '.free_area[%d].free_list.next - (unsigned long)&((struct page *)0)->lru)'
        % (zone, order),
        'echo \\n%sslab_page\\n' % MARK, "cram-page 'vmalloc.c'::busy_root",
        'echo \\n%sbad_pfn\\n' % MARK, 'cram-page max_pfn + 5',
        'echo \\n%spercpu\\n' % MARK, 'cram-percpu rcu_data 0',
        'echo \\n%sprint\\n' % MARK, "print 'rcu.c'::rcu_data[0]",
        'echo \\n%sbad_cpu\\n' % MARK, 'cram-percpu rcu_data 4096',
        'echo \\n%send\\n' % MARK, 'delete', 'detach']
    argv = [gdb, '-nx', '-batch', '-iex', 'add-auto-load-safe-path ' + build, kernel]
    for cmd in cmds:
        argv += ['-ex', cmd]
    return argv


def split_marked(text):
    """{name: lines} of gdb's output after each marker."""
    parts, name = {}, None
    for line in text.splitlines():
        if line.startswith(MARK):
            name = line[len(MARK):].strip()
            parts.setdefault(name, [])
            if name == '-':
                name = None
        elif name is not None:
            parts[name].append(line)
    return {name: [l.rstrip() for l in lines if l.strip()] for name, lines in parts.items()}


def shell_output(serial, cmd):
    """The lines the shell printed for cmd (between its echo and the prompt)."""
    start = serial.find(PROMPT + cmd + '\n')
    if start < 0:
        return None
    start += len(PROMPT + cmd + '\n')
    end = serial.find(PROMPT, start)
    body = serial[start:end if end >= 0 else len(serial)]
    return [line.rstrip() for line in body.splitlines() if line.strip()]


def pick_buddy_block(lines):
    """(zone index, order) of the largest free block buddyinfo shows."""
    best = None
    for line in lines or []:
        words = line.split()
        if len(words) < 5 or words[3] not in ZONE_NAMES:
            continue
        counts = [int(w) for w in words[4:]]
        for order in range(len(counts) - 1, -1, -1):
            if counts[order]:
                if best is None or order > best[1]:
                    best = (ZONE_NAMES.index(words[3]), order)
                break
    return best


def differ(want, got):
    """Details of two line lists that should be equal, or None."""
    if want == got:
        return None
    details = ['shell printed %d lines, gdb %d' % (len(want), len(got))]
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else '(none)'
        b = got[i] if i < len(got) else '(none)'
        if a != b:
            details += ['first difference, line %d:' % (i + 1), ' shell: ' + a,
                        ' gdb:   ' + b]
            break
    return details


class Run:
    """One boot: QEMU, the shell's input, gdb; the checks on what they said."""

    def __init__(self, kernel, gdb, iso_dir, log_dir, timeout):
        self.kernel, self.gdb, self.timeout = kernel, gdb, timeout
        self.iso = os.path.join(iso_dir, 'gdb-check.iso')
        self.log = os.path.join(log_dir, 'gdb-check.log')
        self.checks = []
        self.serial = ''
        self.gdb_out = ''

    def check(self, ok, text, details=()):
        self.checks.append((ok, text, list(details)))
        return ok

    def run(self):
        error = harness.build_iso(self.kernel, '', self.iso)
        if error:
            self.check(False, 'gdb check: %s' % error)
            return self.checks
        port = free_port()
        qemu = harness.qemu_argv(self.iso, '128M', '1',
                                 '-S -gdb tcp:127.0.0.1:%d' % port)
        proc = subprocess.Popen(qemu, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        serial = Serial(proc.stdout)
        try:
            self.drive(proc, serial, port)
        finally:
            harness._kill(proc)   # pylint: disable=protected-access
            proc.wait()
            self.serial = serial.text
            os.makedirs(os.path.dirname(self.log), exist_ok=True)
            with open(self.log, 'w', encoding='utf-8') as log:
                log.write(self.serial + '\n---- gdb ----\n' + self.gdb_out)
        return self.checks

    def drive(self, proc, serial, port):
        if not self.check(wait_listening(port, 10), "QEMU's gdb stub listens"):
            return
        result = {}

        def run_gdb(argv):
            try:
                done = subprocess.run(argv, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True,
                                      errors='replace', timeout=self.timeout)
                result['out'] = done.stdout
            except subprocess.TimeoutExpired as err:
                result['out'] = ((err.stdout or b'').decode('utf-8', 'replace')
                                 if isinstance(err.stdout, bytes) else err.stdout or '')
                result['timeout'] = True

        # gdb's commands are fixed before the boot: a 128 MiB boot has
        # free blocks of the largest order in DMA32, and the check
        # confirms buddyinfo shows some.
        buddy = (ZONE_NAMES.index('DMA32'), 10)
        gdb_proc = threading.Thread(target=run_gdb,
                                    args=(gdb_argv(self.gdb, self.kernel, port, buddy),))
        gdb_proc.start()
        booted = serial.wait_for(PROMPT, 1, self.timeout)
        if not self.check(booted, 'kernel-notest boots to the shell prompt',
                          [] if booted else serial.text.splitlines()[-10:]):
            return
        script = ''.join(cmd + '\n' for cmd, _, _ in COMPARED) + 'meminfo\n'
        proc.stdin.write(script.encode())
        proc.stdin.flush()
        gdb_proc.join(self.timeout + 5)
        self.gdb_out = result.get('out', '')
        self.check(not result.get('timeout') and not gdb_proc.is_alive(),
                   'gdb ran its commands and detached in time')
        answered = serial.wait_for(PROMPT, len(COMPARED) + 2, 20)
        self.check(answered, 'the shell answered every command after gdb detached')
        proc.stdin.write(b'poweroff\n')
        proc.stdin.flush()
        try:
            status = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            status = None
        self.check(status == harness.QEMU_PASS, 'poweroff ends QEMU (status %s)' % status)
        self.compare(serial.text, buddy)

    def compare(self, text, buddy):
        gdb_parts = split_marked(self.gdb_out)
        for cmd, gdb_cmd, _ in COMPARED:
            want, got = shell_output(text, cmd), gdb_parts.get(cmd)
            if want is None or got is None:
                self.check(False, '%s matches the shell' % gdb_cmd,
                           ['no output from the %s' % ('shell' if want is None else 'gdb')])
                continue
            problem = differ(want, got)
            self.check(not problem and len(want) > 0, '%s prints the shell\'s %s (%d lines)'
                       % (gdb_cmd, cmd, len(want)), problem or [])
        meminfo = shell_output(text, 'meminfo') or []
        self.check(any(l.startswith('MemTotal:') for l in meminfo),
                   'kernel-notest answers meminfo', meminfo[:3])
        boot = text[:text.find(PROMPT)] if PROMPT in text else ''
        logged = [l for l in boot.splitlines() if TIMESTAMP_RE.match(l)]
        dmesg = set(gdb_parts.get('dmesg', []))
        missing = [l for l in logged if l.rstrip() not in dmesg]
        self.check(logged and not missing, 'cram-dmesg holds the %d boot console lines'
                   % len(logged), missing[:3])
        self.check_pages(text, gdb_parts, buddy)
        percpu = [re.sub(r'^\$\d+ = ', '', l) for l in gdb_parts.get('percpu', [])]
        printed = [re.sub(r'^\$\d+ = ', '', l) for l in gdb_parts.get('print', [])]
        self.check(percpu and percpu == printed, 'cram-percpu rcu_data 0 is rcu_data[0]',
                   percpu[:2] + printed[:2])
        bad_cpu = ' '.join(gdb_parts.get('bad_cpu', []))
        self.check('is not one of the 1 CPUs up' in bad_cpu,
                   'cram-percpu refuses a CPU that is not up', [bad_cpu])
        self.check('Traceback' not in self.gdb_out and 'Python Exception' not in self.gdb_out,
                   'no Python traceback from the helpers',
                   [l for l in self.gdb_out.splitlines() if 'Python' in l][:5])

    def check_pages(self, text, gdb_parts, buddy):
        zone, order = buddy
        shown = pick_buddy_block(shell_output(text, 'buddyinfo'))
        page = ' '.join(gdb_parts.get('buddy_page', []))
        self.check(shown is not None and shown[1] >= order and
                   re.search(r'flags 0x[0-9a-f]+ \([^)]*buddy', page) and
                   'free block of order %d' % order in page and
                   'zone %s' % ZONE_NAMES[zone] in page,
                   'cram-page decodes a free buddy block (%s, order %d)'
                   % (ZONE_NAMES[zone], order), [page])
        slab = ' '.join(gdb_parts.get('slab_page', []))
        active = re.search(r'slab_cache vmap_area .* active (\d+)/(\d+)', slab)
        info = [l.split() for l in shell_output(text, 'slabinfo') or []
                if l.startswith('vmap_area ')]
        # One slab of vmap_area: its active count is slabinfo's active_objs.
        want = info[0][1] if info and info[0][13] == '1' else None
        self.check(active and re.search(r'\(slab', slab) and
                   (want is None or active.group(1) == want),
                   'cram-page decodes a slab page (vmap_area, active %s)'
                   % (want or '?'), [slab])
        bad = ' '.join(gdb_parts.get('bad_pfn', []))
        self.check('is beyond max_pfn' in bad, 'cram-page of a pfn beyond max_pfn says so',
                   [bad])


def run_checks(kernel, gdb='gdb', iso_dir=None, log_dir=None, timeout=60.0):
    """[(ok, text, details)] of one boot of kernel (see the docstring)."""
    return Run(kernel, gdb, iso_dir or os.path.join(ROOT, 'build', 'iso'),
               log_dir or os.path.join(ROOT, 'build', 'logs'), timeout).run()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--kernel', default=os.path.join(ROOT, 'build', 'kernel-notest.elf'))
    parser.add_argument('--gdb', default='gdb')
    parser.add_argument('--timeout', type=float, default=60.0)
    args = parser.parse_args()
    checks = run_checks(args.kernel, args.gdb, timeout=args.timeout)
    for ok, text, details in checks:
        print('%s - %s' % ('ok' if ok else 'not ok', text))
        for line in details:
            print('    ' + line)
    failed = sum(1 for ok, _, _ in checks if not ok)
    print('%d passed, %d failed' % (len(checks) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
