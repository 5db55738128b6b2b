"""Stand-in for qemu-system-x86_64 used by test_harness.py.

Reads the command line from the fake ISO (see fake_mkiso.py) given with
-cdrom and plays the matching scenario on stdout, then exits with the status
QEMU would have.  Scenarios mimic the kernel: 'ktest' plays example.log, and
'ktest=selftest.<case>' plays the harness selftest cases.  'ktest=args'
prints its arguments, 'ktest=stdin' echoes stdin (for `harness.py run`),
'ktest=status:<N>' passes KTAP but exits with status N.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BOOT = '[    0.000000] fake kernel booting\n[    0.010000] ktest: starting\n'
HEAD = 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: selftest\n    1..1\n'


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def case_result(line, status):
    out(BOOT + HEAD + line + '\n')
    passed = line.startswith('    ok')
    out('ok 1 selftest\n' if passed else 'not ok 1 selftest\n')
    out('ktest: all tests passed\n' if passed else 'ktest: 1 test failed\n')
    sys.exit(status)


def halt_forever():
    time.sleep(600)
    sys.exit(0)


def play(scenario):
    if scenario == 'ktest':
        with open(os.path.join(HERE, 'example.log'), encoding='utf-8') as log:
            out(log.read())
        sys.exit(35)
    if scenario == 'ktest=selftest.pass':
        case_result('    ok 1 pass', 33)
    if scenario == 'ktest=selftest.fail':
        case_result('    # fail: EXPECTATION FAILED at tests/test_selftest.c:10\n'
                    '    Expected 1 == 2, but\n        1 == 1\n        2 == 2\n'
                    '    not ok 1 fail', 35)
    if scenario == 'ktest=selftest.panic':
        out(BOOT + HEAD + 'Kernel panic - not syncing: selftest panic\n'
            '---[ end Kernel panic - not syncing: selftest panic ]---\n')
        halt_forever()
    if scenario == 'ktest=selftest.exception':
        out(BOOT + HEAD + 'CPU exception 14 (#PF Page Fault) at rip 0xffffffff80101234\n'
            'Kernel panic - not syncing: unhandled CPU exception\n')
        sys.exit(35)
    if scenario == 'ktest=selftest.pagealloc_fault debug_pagealloc=on':
        out(BOOT + HEAD + 'CPU exception 14 (#PF Page Fault), error code 0x2\n'
            'BUG: unable to handle page fault for address: ffff888000123000 '
            '(debug_pagealloc: pfn 0x123 is free)\n'
            'Kernel panic - not syncing: unhandled CPU exception\n')
        sys.exit(35)
    if scenario == 'ktest=selftest.hang':
        out(BOOT + HEAD)
        halt_forever()
    if scenario == 'ktest=selftest.triple':
        out(BOOT + HEAD)
        sys.exit(0)
    if scenario == 'ktest=args':
        out(' '.join(sys.argv[1:]) + '\n')
        sys.exit(33)
    if scenario == 'ktest=stdin':
        for line in sys.stdin:
            out('echo: ' + line)
        sys.exit(35)
    if scenario.startswith('ktest=status:'):
        case_result('    ok 1 pass', int(scenario.split(':')[1]))
    sys.stderr.write('fake_qemu: unknown scenario %r\n' % scenario)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    iso = args[args.index('-cdrom') + 1]
    with open(iso, encoding='utf-8') as f:
        play(f.read().strip())


main()
