#!/usr/bin/env python3
"""Tests for the kernel test harness (harness.py) and its KTAP parser (ktap.py).

Run with `python3 tools/testing/test_harness.py`.  The test cases come in two groups:

* pure tests (PURE_TEST_CASES): the KTAP parser on synthetic logs and the
  verdict logic (`judge`) on synthetic observations.  They start no process,
  and `harness.py --selftest` runs them too.
* process tests: `run_stage` on small Python stand-in programs, and the whole
  command line with fake QEMU / fake ISO builder (tools/testing/data/) in place
  of the real ones, through the QEMU= and MKISO= environment variables.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = os.path.join(TESTS_DIR, 'data')
KUNIT_PY = os.path.join(os.path.dirname(os.path.dirname(TESTS_DIR)),
                        'build', 'kunit', 'tools', 'testing', 'kunit', 'kunit.py')
sys.path.insert(0, TESTS_DIR)
sys.dont_write_bytecode = True   # keep tests/ free of __pycache__

import harness  # noqa: E402
import ktap     # noqa: E402
import lock_order  # noqa: E402
import matrix   # noqa: E402


def ktap_text(text):
    """Dedent a triple-quoted KTAP block (keeps relative indentation)."""
    return textwrap.dedent(text).strip('\n') + '\n'


def parse(text):
    return ktap.parse(ktap_text(text))


def read_data(name):
    with open(os.path.join(DATA_DIR, name), encoding='utf-8') as f:
        return f.read()


SIMPLE_PASS = """
    [    0.000001] booting
    KTAP version 1
    1..1
        KTAP version 1
        # Subtest: string
        1..2
        ok 1 test_memcpy
        ok 2 test_memset
    ok 1 string
    ktest: all tests passed
"""


class KtapParserTests(unittest.TestCase):
    """The KTAP parser on synthetic output."""

    def assertCounts(self, report, passed, failed, skipped):
        self.assertEqual((report.passed, report.failed, report.skipped),
                         (passed, failed, skipped))

    def assertOneError(self, report, *fragments):
        self.assertEqual(len(report.errors), 1, report.errors)
        for fragment in fragments:
            self.assertIn(fragment, report.errors[0])

    def test_all_pass(self):
        report = parse(SIMPLE_PASS)
        self.assertCounts(report, 2, 0, 0)
        self.assertEqual(report.errors, [])
        self.assertTrue(report.complete and report.ok)
        self.assertEqual(report.preamble, ['[    0.000001] booting'])
        self.assertEqual(report.trailer, ['ktest: all tests passed'])

    def test_example_log_counts_and_diagnostics(self):
        report = ktap.parse(read_data('example.log'))
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 4, 2, 1)
        names = [failure.name for failure in report.failures]
        self.assertEqual(names, ['string.test_memset', 'vsprintf.test_param.value 1'])
        diag = report.failures[0].diag
        self.assertEqual(diag[0], '# test_memset: EXPECTATION FAILED at '
                                  'tests/test_string.c:42')
        self.assertIn('Expected a == b, but', diag)
        self.assertIn('    a == 3 (0x3)', diag)
        self.assertNotIn('ok 1 test_memcpy', diag)
        self.assertIn('# test_param: EXPECTATION FAILED at tests/test_vsprintf.c:77',
                      report.failures[1].diag)

    def test_skip_counts_as_skipped(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..3
                ok 1 a # SKIP no hardware
                not ok 2 b # SKIP not implemented
                ok 3 c
            ok 1 s
        """)
        self.assertCounts(report, 1, 0, 2)
        self.assertTrue(report.ok)
        self.assertEqual(report.root.children[0].children[0].reason, 'no hardware')

    def test_skipped_suite_without_cases(self):
        report = parse("""
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: pci
                1..0 # SKIP no PCI bus
            ok 1 pci # SKIP no PCI bus
            ok 2 lonely_case
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 1, 0, 1)   # the skipped suite counts once

    def test_parametrised_counts_each_parameter(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: vsprintf
                1..2
                ok 1 test_simple
                    KTAP version 1
                    # Subtest: test_param
                    ok 1 value 3
                    ok 2 value 2
                    ok 3 value 1
                # test_param: pass:3 fail:0 skip:0 total:3
                ok 2 test_param
            ok 1 vsprintf
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 4, 0, 0)

    def test_log_noise_between_ktap_lines(self):
        report = parse("""
            [    0.100000] ktest: starting
            KTAP version 1
            [    0.200000] WARNING: something odd
            1..1
                KTAP version 1
            [    0.300000] printk between header and subtest
                # Subtest: mm
                1..2
            BUG: kmalloc-32: double free detected (provoked by test)
                  odd indentation ok 7 not a result
                some indented log line
                    deeper log line: ok maybe
                ok 1 test_double_free
            random log with ok 2 inside
                ok 2 test_other
                # mm: pass:2 fail:0 skip:0 total:2
            ok 1 mm
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 2, 0, 0)
        self.assertTrue(report.ok)

    def test_truncated_inside_suite(self):
        report = parse("""
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: string
                1..5
                ok 1 a
                ok 2 b
                ok 3 c
        """)
        self.assertFalse(report.complete)
        self.assertOneError(report, "incomplete KTAP: suite 'string' expected 5 "
                                    "results, got 3")
        self.assertCounts(report, 3, 0, 0)

    def test_truncated_inside_parametrised_case(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: vsprintf
                1..1
                    KTAP version 1
                    # Subtest: test_param
                    ok 1 value 3
        """)
        self.assertOneError(report, 'incomplete KTAP', "'vsprintf.test_param'",
                            'after 1 results')

    def test_truncated_after_top_level_result(self):
        report = parse("""
            KTAP version 1
            1..3
                KTAP version 1
                # Subtest: a
                1..1
                ok 1 x
            ok 1 a
        """)
        self.assertOneError(report, 'incomplete KTAP: top level expected 3 results, got 1')

    def test_out_of_order_numbers(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: string
                1..3
                ok 1 a
                ok 3 c
                ok 2 b
            ok 1 string
        """)
        self.assertTrue(report.errors)
        self.assertIn("suite 'string': result 3 out of sequence (expected 2)",
                      report.errors[0])
        self.assertFalse(report.ok)

    def test_repeated_number(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: string
                1..2
                ok 1 a
                ok 1 a
            ok 1 string
        """)
        self.assertOneError(report, "suite 'string': result number 1 repeated")

    def test_no_ktap_at_all(self):
        report = ktap.parse('[    0.0] booting\nhello\nok 1 not really\n')
        self.assertFalse(report.started)
        self.assertOneError(report, "no KTAP output (no 'KTAP version 1' line)")

    def test_empty_output(self):
        report = ktap.parse('')
        self.assertOneError(report, 'no KTAP output')

    def test_parent_not_ok_with_passing_children(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: sched
                1..2
                ok 1 a
                ok 2 b
                # sched: suite exit function leaked 3 pages
            not ok 1 sched
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 2, 1, 0)
        failure = report.failures[0]
        self.assertEqual(failure.name, 'sched')
        self.assertIn('all its 2 results passed', failure.message)
        self.assertIn('# sched: suite exit function leaked 3 pages', failure.diag)

    def test_parent_ok_with_failing_child(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..1
                not ok 1 a
            ok 1 s
        """)
        self.assertCounts(report, 0, 1, 0)
        self.assertOneError(report, "suite 's' reported 'ok' but 1 of its results failed")

    def test_missing_closing_result(self):
        report = parse("""
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: string
                1..1
                ok 1 a
                KTAP version 1
                # Subtest: vsprintf
                1..1
                ok 1 b
            ok 2 vsprintf
        """)
        self.assertOneError(report, "suite 'string': closing result missing")
        self.assertTrue(report.complete)
        self.assertCounts(report, 2, 0, 0)

    def test_top_level_result_without_closing_nested(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: a
                1..1
                    KTAP version 1
                    # Subtest: p
                    ok 1 v
            ok 1 a
        """)
        self.assertOneError(report, "suite 'a.p': closing result missing")

    def test_plan_mismatch_at_close(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: string
                1..3
                ok 1 a
                ok 2 b
            ok 1 string
        """)
        self.assertOneError(report, "suite 'string' expected 3 results, got 2")

    def test_more_results_than_plan(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..1
                ok 1 a
                ok 2 b
            ok 1 s
        """)
        self.assertIn("suite 's': more results than its plan 1..1", report.errors[0])

    def test_closing_name_mismatch(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: string
                1..1
                ok 1 a
            ok 1 strong
        """)
        self.assertOneError(report, "suite 'string': closed by a result named 'strong'")

    def test_top_level_without_plan(self):
        report = parse("""
            KTAP version 1
                KTAP version 1
                # Subtest: s
                1..1
                ok 1 a
            ok 1 s
        """)
        self.assertOneError(report, 'top level has no plan line')

    def test_todo_and_xfail_tolerated(self):
        report = parse("""
            KTAP version 1
            1..4
            not ok 1 known_bug # TODO fix the allocator
            ok 2 fixed_bug # TODO
            not ok 3 expected # XFAIL
            ok 4 - dash_name
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 2, 0, 2)
        self.assertEqual(report.root.children[3].name, 'dash_name')

    def test_hash_in_name_is_not_a_directive(self):
        result = ktap.parse_result('ok 5 test #5 of many')
        self.assertEqual(result['name'], 'test #5 of many')
        self.assertIsNone(result['directive'])

    def test_crlf_line_endings(self):
        report = ktap.parse(ktap_text(SIMPLE_PASS).replace('\n', '\r\n'))
        self.assertTrue(report.ok)
        self.assertCounts(report, 2, 0, 0)

    def test_output_after_completion(self):
        report = ktap.parse(ktap_text(SIMPLE_PASS) + 'KTAP version 1\n1..1\nok 1 again\n')
        self.assertOneError(report, 'after the top-level plan was satisfied')

    def test_streaming_done_flag(self):
        parser = ktap.Parser()
        lines = ktap_text(SIMPLE_PASS).splitlines()
        for line in lines[:-2]:
            parser.feed(line)
            self.assertFalse(parser.done)
        self.assertTrue(parser.started)
        parser.feed(lines[-2])
        self.assertTrue(parser.done)

    def test_second_header_before_completion(self):
        report = parse("""
            KTAP version 1
            1..2
            ok 1 a
            KTAP version 1
            1..2
            ok 2 b
        """)
        self.assertTrue(any('second top-level KTAP header' in e for e in report.errors))
        self.assertFalse(report.ok)

    def test_bail_out(self):
        report = parse("""
            KTAP version 1
            1..1
            Bail out! out of memory
            ok 1 a
        """)
        self.assertOneError(report, 'Bail out! out of memory')

    def test_too_deep_indentation(self):
        report = parse("""
            KTAP version 1
            1..1
                    ok 1 far too deep
            ok 1 a
        """)
        self.assertOneError(report, 'unexpected indentation')

    def test_headerless_parametrised_case(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..1
                    ok 1 p1
                    not ok 2 p2
                not ok 1 c
            not ok 1 s
        """)
        self.assertEqual(report.errors, [])
        self.assertCounts(report, 1, 1, 0)
        self.assertEqual(report.failures[0].name, 's.c.p2')

    def test_parametrised_case_lost_its_last_result(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: vsprintf
                1..1
                    KTAP version 1
                    # Subtest: test_param
                    ok 1 value 3
                    ok 2 value 2
                # test_param: pass:3 fail:0 skip:0 total:3
                ok 1 test_param
            ok 1 vsprintf
        """)
        self.assertOneError(report, "suite 'vsprintf.test_param': count line says "
                                    "pass:3 fail:0 skip:0 total:3 but its results "
                                    "are pass:2 fail:0 skip:0 total:2")

    def test_suite_without_plan(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                ok 1 a
            ok 1 s
        """)
        self.assertOneError(report, "suite 's' has no plan line")

    def test_misaligned_result(self):
        report = parse("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..2
                ok 1 a
              ok 2 b
            ok 1 s
        """)
        self.assertIn("misaligned KTAP line: '  ok 2 b'", report.errors[0])

    def test_indented_result_after_completion(self):
        report = ktap.parse(ktap_text(SIMPLE_PASS) + '    ok 3 late\n')
        self.assertOneError(report, "after the top-level plan was satisfied: 'ok 3 late'")

    def test_empty_plan(self):
        report = parse('KTAP version 1\n1..0\n')
        self.assertTrue(report.complete)
        self.assertEqual(report.total, 0)


def qemu_stage(**overrides):
    settings = dict(name='t', title='kernel boot', kind='qemu', argv=['true'],
                    log_path=os.devnull, timeout=10.0, idle_timeout=10.0)
    settings.update(overrides)
    return harness.Stage(**settings)


def observation(status, log=SIMPLE_PASS, **overrides):
    obs = harness.Observation(status=status, report=parse(log) if log else None)
    for key, value in overrides.items():
        setattr(obs, key, value)
    return obs


FAILING = SIMPLE_PASS.replace('ok 2 test_memset', 'not ok 2 test_memset') \
                     .replace('ok 1 string', 'not ok 1 string')


class JudgeTests(unittest.TestCase):
    """The verdict logic, on synthetic observations."""

    def verdict(self, obs, **stage):
        return harness.judge(qemu_stage(**stage), obs)

    def test_pass(self):
        self.assertEqual(self.verdict(observation(33)), ('pass', 'all tests passed'))

    def test_failures_with_failure_status(self):
        self.assertEqual(self.verdict(observation(35, FAILING)), ('failed', '1 test failed'))

    def test_success_status_with_failing_ktap(self):
        kind, reason = self.verdict(observation(33, FAILING))
        self.assertEqual(kind, 'mismatch')
        self.assertIn('success status 33 but 1 test failed', reason)

    def test_failure_status_with_passing_ktap(self):
        self.assertEqual(self.verdict(observation(35))[0], 'mismatch')

    def test_triple_fault_status(self):
        self.assertEqual(self.verdict(observation(0, 'KTAP version 1\n1..1\n')),
                         ('exit', 'QEMU exited with status 0 (triple fault or reset?)'))

    def test_unexpected_debug_exit_value(self):
        reason = self.verdict(observation(5))[1]
        self.assertIn('wrote 0x2 to isa-debug-exit', reason)

    def test_panic_beats_status(self):
        obs = observation(35, fatal=('panic', 'kernel panic',
                                     '[    1.250000] Kernel panic - not syncing: oops'))
        self.assertEqual(self.verdict(obs),
                         ('panic', 'kernel panic: Kernel panic - not syncing: oops'))

    def test_exception_marker(self):
        self.assertEqual(harness.scan_fatal('CPU exception 14 (#PF Page Fault)'),
                         ('exception', 'CPU exception'))
        self.assertEqual(harness.scan_fatal('Kernel panic - not syncing: CPU exception 6'),
                         ('exception', 'CPU exception'))
        self.assertEqual(harness.scan_fatal('---[ end Kernel panic - not syncing ]---'),
                         ('panic', 'kernel panic'))
        self.assertIsNone(harness.scan_fatal('BUG: kmalloc: double free'))

    def test_hang(self):
        obs = observation(-9, 'KTAP version 1\n1..1\n', killed='idle')
        self.assertEqual(self.verdict(obs, idle_timeout=60.0),
                         ('hang', 'kernel hung: no output for 60 s'))

    def test_incomplete_ktap_with_good_status(self):
        kind, reason = self.verdict(observation(33, 'KTAP version 1\n1..2\nok 1 a\n'))
        self.assertEqual(kind, 'ktap')
        self.assertIn('incomplete KTAP: top level expected 2 results, got 1', reason)

    def test_no_tests(self):
        self.assertEqual(self.verdict(observation(33, 'KTAP version 1\n1..0\n'))[0], 'ktap')

    def test_host_statuses(self):
        self.assertEqual(self.verdict(observation(0), kind='host')[0], 'pass')
        kind, reason = self.verdict(observation(-11), kind='host')
        self.assertEqual((kind, reason), ('exit', 'host kernel was killed by SIGSEGV'))

    def test_sanitizer(self):
        line = 'lib/string.c:12:5: runtime error: signed integer overflow'
        kind, reason = self.verdict(observation(0, sanitizer=line), kind='host')
        self.assertEqual(kind, 'sanitizer')
        self.assertIn('runtime error', reason)

    def test_counting_never_hides_a_failure(self):
        self.assertEqual(harness.count_outcome('pass', parse(SIMPLE_PASS)), (2, 0, 0))
        self.assertEqual(harness.count_outcome('panic', parse(SIMPLE_PASS)), (2, 1, 0))
        self.assertEqual(harness.count_outcome('mismatch', parse(SIMPLE_PASS)), (2, 1, 0))
        truncated = parse('KTAP version 1\n1..2\nok 1 a\n')
        self.assertEqual(harness.count_outcome('ktap', truncated), (1, 1, 0))

    def test_per_boot_option_spreading(self):
        self.assertEqual(harness.per_boot(None, 2, '--smp', '1'), ['1', '1'])
        self.assertEqual(harness.per_boot(['2'], 2, '--smp', '1'), ['2', '2'])
        self.assertEqual(harness.per_boot(['1', '4'], 2, '--smp', '1'), ['1', '4'])
        with self.assertRaises(ValueError):
            harness.per_boot(['1', '2'], 3, '--smp', '1')

    def test_summary_line(self):
        self.assertEqual(harness.counts_text(3, 0, 0), '3 passed, 0 failed')
        self.assertEqual(harness.counts_text(3, 1, 2), '3 passed, 1 failed, 2 skipped')


KUNIT_OUTPUT = """\
[20:01:33] =====================================================

[20:01:33] ==================== test_int_formats  =====================
[20:01:33] [ERROR] Test: "%08o" -> "00000010": Expected test number 7 but found 8
[20:01:33] [SKIPPED] test_cross_cpu_free
[20:01:33] ============================================================
[20:01:33] Testing complete. Ran 423 tests: passed: 414, skipped: 9, errors: 1
"""

# A parametrised case and a suite whose only case is skipped: both
# parsers count leaves (2 params + 1 case passed, 1 skipped).
PARAM_AND_SKIPPED_SUITE = """
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: params
        1..2
            KTAP version 1
            # Subtest: test_p
            ok 1 a
            ok 2 b
        # test_p: pass:2 fail:0 skip:0 total:2
        ok 1 test_p
        ok 2 test_q
    ok 1 params
        KTAP version 1
        # Subtest: smp
        1..1
        ok 1 test_cross_cpu_free # SKIP one CPU
    ok 2 smp # SKIP all cases skipped
"""


class PanicLogTests(unittest.TestCase):
    """panic_log_problems(): a panic must be the end of the log."""

    def problems(self, text):
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as log:
            log.write(textwrap.dedent(text))
        try:
            return harness.panic_log_problems(log.name)
        finally:
            os.unlink(log.name)

    def test_clean_end(self):
        self.assertEqual(self.problems('''\
            [    1.0] selftest: cpu2 busy 7
            [    1.1] Kernel panic - not syncing: oops
            [    1.2] CPU: 0 PID: 0 Comm: swapper/0
            [    1.3] ---[ end Kernel panic - not syncing: oops ]---
            '''), [])

    def test_line_after_panic(self):
        found = self.problems('''\
            [    1.1] Kernel panic - not syncing: oops
            [    1.2] selftest: cpu2 busy 8
            [    1.3] ---[ end Kernel panic - not syncing: oops ]---
            ''')
        self.assertEqual(len(found), 1)
        self.assertIn('after the panic', found[0])

    def test_not_stopped_and_trailing(self):
        found = self.problems('''\
            [    1.1] Kernel panic - not syncing: oops
            [    1.2] smp: 1 CPU did not stop
            [    1.3] ---[ end Kernel panic - not syncing: oops ]---
            [    1.4] ktest: hello
            ''')
        self.assertEqual(len(found), 2)

    def test_no_panic(self):
        self.assertEqual(self.problems('[    1.0] all fine\n'), ['no panic in the log'])


class KunitParserTests(unittest.TestCase):
    """Reading Linux's kunit.py parse output and comparing its counts."""

    def test_summary_and_errors(self):
        counts, errors = harness.parse_kunit_output(KUNIT_OUTPUT)
        self.assertEqual(counts, {'passed': 414, 'skipped': 9, 'errors': 1})
        self.assertEqual(errors, ['Test: "%08o" -> "00000010": Expected test '
                                  'number 7 but found 8'])

    def test_colours_ignored(self):
        text = '\x1b[1;32m[20:01:33]\x1b[0m Testing complete. Ran 3 tests: passed: 3\n'
        self.assertEqual(harness.parse_kunit_output(text)[0], {'passed': 3})

    def test_agrees(self):
        report = parse(PARAM_AND_SKIPPED_SUITE)
        self.assertEqual((report.passed, report.failed, report.skipped), (3, 0, 1))
        self.assertIsNone(harness.compare_with_kunit(
            report, {'passed': 3, 'skipped': 1}, []))

    def test_errors_fail(self):
        problem = harness.compare_with_kunit(parse(SIMPLE_PASS), {'passed': 2},
                                             ['Test: x: Expected test number 7'])
        self.assertIn('kunit_parser found 1 errors: Test: x: Expected', problem)

    def test_count_mismatch_fails(self):
        problem = harness.compare_with_kunit(parse(SIMPLE_PASS),
                                             {'passed': 1, 'crashed': 1}, [])
        self.assertEqual(problem, 'kunit_parser counts 1 passed, 1 failed, '
                                  'the harness 2 passed, 0 failed')

    def test_no_summary_fails(self):
        self.assertEqual(harness.compare_with_kunit(parse(SIMPLE_PASS), None, []),
                         'kunit_parser printed no summary')


class PlatformTests(unittest.TestCase):
    """Firmware and machine selection, stage naming, the matrix's pieces."""

    def stages(self, *extra):
        args = harness.main_parser().parse_args(
            ['--kernel', 'k.elf', '--kernel', 'k.elf', '--kernel', 'k.elf'] + list(extra))
        return harness.make_stages(args)

    @staticmethod
    def machine_of(argv):
        """The -M value (the QEMU command before it may be several words)."""
        return argv[argv.index('-M') + 1]

    def test_qemu_argv_firmware_and_machine(self):
        bios = harness.qemu_argv('x.iso', '128M', '1', '')
        self.assertEqual(self.machine_of(bios), 'pc')
        self.assertNotIn('-bios', bios)
        uefi = harness.qemu_argv('x.iso', '1G', '1', '-cpu max', 'q35', 'uefi')
        self.assertEqual(self.machine_of(uefi), 'q35')
        self.assertEqual(uefi[uefi.index('-bios') + 1], harness.OVMF_DEFAULT)
        self.assertEqual(uefi[-2:], ['-cpu', 'max'])
        self.assertEqual(uefi.count('-M'), 1)

    def test_numa_two_nodes(self):
        argv = harness.qemu_argv('x.iso', '128M', '4', '', numa='2')
        self.assertIn('memory-backend-ram,id=m1,size=64M', argv)
        self.assertIn('node,nodeid=0,memdev=m0,cpus=0-1', argv)
        self.assertIn('node,nodeid=1,memdev=m1,cpus=2-3', argv)
        self.assertFalse(any(a.startswith('dist,') for a in argv))
        self.assertEqual(harness.numa_cmdline('ktest', '2', '128M', '4'),
                         'ktest numa_expect=2,64/64,2/2,10/20/20/10')

    def test_numa_distances_and_memoryless_node(self):
        spec = '3:nomem=2:0-1=15:1-0=25:1-2=30'
        argv = harness.qemu_argv('x.iso', '1G', '3', '', numa=spec)
        self.assertIn('node,nodeid=2,cpus=2-2', argv)
        self.assertIn('memory-backend-ram,id=m1,size=512M', argv)
        for dist in ('src=0,dst=1,val=15', 'src=1,dst=0,val=25',
                     'src=0,dst=2,val=20', 'src=2,dst=1,val=30'):
            self.assertIn('dist,' + dist, argv)
        self.assertEqual(harness.numa_expect(spec, '1G', '3'),
                         'numa_expect=3,512/512/0,1/1/1,10/15/20/25/10/30/20/30/10')
        self.assertEqual(self.stages('--numa', spec)[0].name, 'kernel-ktest-numa3')

    def test_numa_bad_specs(self):
        for spec in ('0', '9', 'x', '2:0-0=20', '2:0-1=10', '2:0-2=20',
                     '2:nomem=0:nomem=1', '2:foo'):
            with self.assertRaises(ValueError, msg=spec):
                harness.numa_qemu_args(spec, '128M', '2')

    def test_ovmf_path_from_environment(self):
        saved = os.environ.get('OVMF')
        os.environ['OVMF'] = '/tmp/my-ovmf.fd'
        try:
            argv = harness.qemu_argv('x.iso', '1G', '1', '', 'pc', 'uefi')
        finally:
            if saved is None:
                del os.environ['OVMF']
            else:
                os.environ['OVMF'] = saved
        self.assertEqual(argv[argv.index('-bios') + 1], '/tmp/my-ovmf.fd')

    def test_stage_titles_and_names_say_firmware_and_machine(self):
        stages = self.stages('--firmware', 'bios', '--firmware', 'uefi',
                             '--firmware', 'uefi', '--machine', 'pc',
                             '--machine', 'pc', '--machine', 'q35',
                             '--grub-cfg', '', '--grub-cfg', '',
                             '--grub-cfg', 'iso/grub-holes.cfg')
        self.assertEqual([stage.title for stage in stages], [
            "kernel boot 'ktest' (128M, 1 CPU, BIOS, pc)",
            "kernel boot 'ktest' (128M, 1 CPU, UEFI, pc)",
            "kernel boot 'ktest' (128M, 1 CPU, UEFI, q35, grub-holes.cfg)"])
        self.assertEqual([stage.name for stage in stages], [
            'kernel-ktest', 'kernel-ktest-uefi', 'kernel-ktest-uefi-q35-grub-holes'])
        self.assertIn('-bios', stages[1].argv)
        self.assertEqual(self.machine_of(stages[2].argv), 'q35')

    def test_bad_firmware_rejected(self):
        with self.assertRaises(SystemExit), \
                open(os.devnull, 'w', encoding='utf-8') as null:
            saved, sys.stderr = sys.stderr, null
            try:
                harness.main_parser().parse_args(['--firmware', 'coreboot'])
            finally:
                sys.stderr = saved

    def test_matrix_configurations(self):
        configs = matrix.configs()
        # Every RAM on 1 CPU, 128M on 4 and 16, 2 NUMA nodes at 1G.
        self.assertEqual(len(configs), 2 * 2 * (5 + 2) + 2 * 2)
        self.assertEqual(len({matrix.stage_name(c) for c in configs}), len(configs))
        self.assertEqual(configs[0], ('bios', 'pc', '32M', '1', ''))
        self.assertIn(('uefi', 'q35', '128M', '16', ''), configs)
        self.assertNotIn(('uefi', 'q35', '16G', '16', ''), configs)
        self.assertEqual(configs[-1], ('uefi', 'q35', '1G', '4', '2'))
        self.assertEqual(len(matrix.configs(cpus=('1',), numas=())), 20)
        asym = '4:nomem=3:0-1=15'
        self.assertEqual(len(matrix.configs(cpus=('1',), numas=('2', asym))), 28)
        self.assertEqual(matrix.numa_label(asym), '4 asym')
        self.assertEqual(matrix.stage_name(('bios', 'pc', '1G', '4', asym)),
                         'matrix-bios-pc-1G-4cpu-numa4asym')

    def test_matrix_numa_stage_has_its_own_iso(self):
        stages = matrix.make_stages('k.elf', 'ktest=slab', '/b/m.iso',
                                    [('bios', 'pc', '1G', '4', '2')], ('/l', '/i'), 300.0)
        _config, stage, suites = stages[0]
        self.assertEqual(suites, 'numa')
        self.assertIsNotNone(stage.prepare)
        self.assertEqual(stage.argv[stage.argv.index('-cdrom') + 1],
                         '/i/matrix-bios-pc-1G-4cpu-numa2.iso')
        self.assertIn('-numa', stage.argv)
        self.assertIn("'ktest=%s'" % matrix.NUMA_SUITES, stage.title)

    def test_matrix_stages_share_one_iso(self):
        stages = matrix.make_stages('k.elf', 'ktest=slab', '/b/m.iso',
                                    [('uefi', 'q35', '4G', '1', '')], ('/l', '/i'), 300.0)
        config, stage, suites = stages[0]
        self.assertEqual(suites, 'selected')
        self.assertEqual(stage.title, "kernel boot 'ktest=slab' (4G, 1 CPU, UEFI, q35)")
        self.assertIsNone(stage.prepare)
        self.assertEqual(stage.argv[stage.argv.index('-cdrom') + 1], '/b/m.iso')
        self.assertEqual(stage.log_path, '/l/matrix-uefi-q35-4G-1cpu.log')

    def test_matrix_row_and_table(self):
        boot = harness.Boot('k.elf', 'ktest', '16G', '1', machine='q35', firmware='uefi')
        stage = harness.boot_stage(boot, 'm', ('/l', '/i'), 60.0)
        obs = harness.Observation(elapsed=12.34, first_test=5.67)
        outcome = harness.Outcome(stage, 'pass', 'all tests passed', obs, 100, 0, 2)
        row = matrix.row(('uefi', 'q35', '16G', '1', ''), outcome)
        self.assertEqual((row['firmware'], row['machine'], row['mem'], row['cpus']),
                         ('UEFI', 'q35', '16G', 1))
        self.assertEqual((row['passed'], row['failed'], row['skipped']), (100, 0, 2))
        self.assertEqual(row['boot_to_first_test'], 5.67)
        lines = matrix.format_table([row])
        self.assertEqual(lines[0].split('  ')[0], 'firmware')
        self.assertEqual(lines[1].split(), ['UEFI', 'q35', '16G', '1', '-', 'selected',
                                            '100', '0', '2', '5.7', 's', '12.3', 's'])
        self.assertEqual(lines[0].index('boot to first test'), lines[1].index('5.7 s'))

    def test_matrix_row_of_every_suite(self):
        """One more row boots plain 'ktest' (every suite) at 32M, BIOS."""
        self.assertEqual(matrix.ALL_SUITES_CONFIG, ('bios', 'pc', '32M', '1', ''))
        self.assertEqual(matrix.ALL_SUITES_CMDLINE, 'ktest')
        self.assertIsNone(matrix.unbootable(matrix.ALL_SUITES_CONFIG))
        stages = matrix.make_stages('k.elf', 'ktest', '/b/all.iso',
                                    [matrix.ALL_SUITES_CONFIG], ('/l', '/i'),
                                    300.0, suites='all')
        config, stage, suites = stages[0]
        self.assertEqual(suites, 'all')
        self.assertEqual(stage.title, "kernel boot 'ktest' (32M, 1 CPU, BIOS, pc)")
        self.assertEqual(stage.argv[stage.argv.index('-cdrom') + 1], '/b/all.iso')
        # Its own log, beside the selected suites' row of the same platform.
        self.assertEqual(stage.log_path, '/l/matrix-bios-pc-32M-1cpu-all.log')
        self.assertNotEqual(matrix.stage_name(config, 'all'), matrix.stage_name(config))
        obs = harness.Observation(elapsed=60.0, first_test=1.5)
        outcome = harness.Outcome(stage, 'pass', 'all tests passed', obs, 700, 0, 50)
        row = matrix.row(config, outcome, suites)
        self.assertEqual(row['suites'], 'all')
        self.assertEqual(matrix.format_table([row])[1].split()[:6],
                         ['BIOS', 'pc', '32M', '1', '-', 'all'])
        args = matrix.parse_args(['--kernel', 'k.elf'])
        self.assertFalse(args.no_all_suites)
        self.assertTrue(matrix.parse_args(['--kernel', 'k', '--no-all-suites']).no_all_suites)

    def test_matrix_skips_what_ovmf_cannot_boot(self):
        self.assertEqual(matrix.mem_bytes('32M'), 32 << 20)
        self.assertEqual(matrix.mem_bytes('16G'), 16 << 30)
        self.assertEqual(matrix.mem_bytes('3583'), 3583 << 20)
        self.assertEqual(matrix.unbootable(('uefi', 'pc', '32M', '1', '')),
                         'OVMF needs at least 64M')
        self.assertIsNone(matrix.unbootable(('uefi', 'q35', '64M', '1', '')))
        self.assertIsNone(matrix.unbootable(('bios', 'pc', '32M', '1', '')))
        row = matrix.skipped_row(('uefi', 'q35', '32M', '1', ''), 'OVMF needs at least 64M')
        line = matrix.format_table([row])[1]
        self.assertEqual(line.split()[:8], ['UEFI', 'q35', '32M', '1', '-', 'selected', '-', '-'])
        self.assertIn('all: OVMF needs at least 64M', line)


PURE_TEST_CASES = [KtapParserTests, JudgeTests, KunitParserTests, PlatformTests]

PY = sys.executable


def py_stage(code, **overrides):
    """A host stage running a small Python program."""
    settings = dict(name='t', title='host run', kind='host',
                    argv=[PY, '-c', textwrap.dedent(code)], log_path=os.devnull,
                    timeout=10.0, idle_timeout=10.0)
    settings.update(overrides)
    return harness.Stage(**settings)


KTAP_OK = ('KTAP version 1\\n1..1\\n    KTAP version 1\\n    # Subtest: s\\n'
           '    1..1\\n    ok 1 a\\nok 1 s\\n')


class ProcessTests(unittest.TestCase):
    """run_stage on small stand-in programs."""

    def run_quiet(self, stage):
        return harness.run_stage(stage, harness.Printer(quiet=True))

    def test_pass_and_log_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, 'sub', 'x.log')
            code = "import sys; print('[ 0.1] boot'); sys.stdout.write('%s')" % KTAP_OK
            outcome = self.run_quiet(py_stage(code, log_path=log))
            self.assertEqual(outcome.kind, 'pass', outcome.reason)
            self.assertEqual((outcome.passed, outcome.failed), (1, 0))
            with open(log, encoding='utf-8') as f:
                self.assertIn('ok 1 s', f.read())

    def test_silent_hang_is_killed(self):
        code = "import sys, time; print('KTAP version 1', flush=True); time.sleep(30)"
        outcome = self.run_quiet(py_stage(code, idle_timeout=0.5))
        self.assertEqual(outcome.kind, 'hang')
        self.assertEqual(outcome.reason, 'kernel hung: no output for 0.5 s')
        self.assertLess(outcome.obs.elapsed, 5)
        self.assertEqual(outcome.failed, 1)

    def test_chatty_hang_hits_overall_timeout(self):
        code = "import time\nwhile True:\n    print('tick', flush=True); time.sleep(0.05)"
        outcome = self.run_quiet(py_stage(code, timeout=0.8, idle_timeout=0.5))
        self.assertEqual(outcome.reason, 'kernel hung: did not finish within 0.8 s')

    def test_panic_then_silence(self):
        code = ("import time; print('KTAP version 1\\nKernel panic - not syncing: x',"
                " flush=True); time.sleep(30)")
        outcome = self.run_quiet(py_stage(code, fatal_grace=0.3))
        self.assertEqual(outcome.kind, 'panic')
        self.assertLess(outcome.obs.elapsed, 5)
        self.assertIn('Kernel panic - not syncing: x', outcome.obs.tail)

    def test_no_exit_after_completion(self):
        code = "import sys, time; sys.stdout.write('%s'); sys.stdout.flush(); " \
               "time.sleep(30)" % KTAP_OK
        outcome = self.run_quiet(py_stage(code, exit_grace=0.3))
        self.assertEqual(outcome.kind, 'hang')
        self.assertIn('did not exit within 0.3 s after the tests completed',
                      outcome.reason)

    def test_sanitizer_on_stderr(self):
        code = ("import sys; sys.stdout.write('%s');"
                "sys.stderr.write('==1==ERROR: AddressSanitizer: heap-use-after-free\\n')"
                % KTAP_OK)
        outcome = self.run_quiet(py_stage(code))
        self.assertEqual(outcome.kind, 'sanitizer')
        self.assertIn('heap-use-after-free', outcome.obs.stderr[0])

    def test_partial_last_line_and_missing_program(self):
        code = "import sys; sys.stdout.write('KTAP version 1\\n1..1\\nok 1 a')"
        self.assertEqual(self.run_quiet(py_stage(code)).kind, 'pass')
        missing = self.run_quiet(py_stage('', argv=['/nonexistent/kernel']))
        self.assertEqual(missing.kind, 'error')
        self.assertIn('could not start /nonexistent/kernel', missing.reason)


class CommandLineTests(unittest.TestCase):
    """The whole program with fake QEMU and fake ISO builder."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.kernel = os.path.join(self.tmp, 'kernel.elf')
        with open(self.kernel, 'w', encoding='utf-8') as f:
            f.write('not really an ELF\n')
        self.env = dict(os.environ,
                        QEMU='%s %s' % (PY, os.path.join(DATA_DIR, 'fake_qemu.py')),
                        MKISO='%s %s' % (PY, os.path.join(DATA_DIR, 'fake_mkiso.py')))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def harness(self, *args, stdin=None):
        argv = [PY, os.path.join(TESTS_DIR, 'harness.py')] + list(args)
        dirs = ['--iso-dir', os.path.join(self.tmp, 'iso')]
        if not args or args[0] != 'run':
            dirs += ['--log-dir', os.path.join(self.tmp, 'logs')]
        if args[:1] == ('run',):
            argv[3:3] = dirs
        else:
            argv[2:2] = dirs
        return subprocess.run(argv, env=self.env, input=stdin, capture_output=True,
                              text=True, timeout=60)

    def test_failing_boot_report(self):
        done = self.harness('--kernel', self.kernel, '--cmdline', 'ktest',
                            '--kernel', self.kernel, '--cmdline', 'ktest=selftest.pass')
        self.assertEqual(done.returncode, 1, done.stdout)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[-1], '5 passed, 2 failed, 1 skipped')
        self.assertIn("harness: kernel boot 'ktest' (128M, 1 CPU, BIOS, pc)", lines)
        self.assertIn('  FAIL string.test_memset', lines)
        self.assertIn('      # test_memset: EXPECTATION FAILED at tests/test_string.c:42',
                      lines)
        self.assertIn('  FAIL vsprintf.test_param.value 1', lines)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, 'logs', 'kernel-ktest.log')))

    def test_kunit_parser_missing_is_said(self):
        done = self.harness('--quiet', '--kunit-parser', os.path.join(self.tmp, 'none.py'),
                            '--kernel', self.kernel, '--cmdline', 'ktest=selftest.pass')
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn('harness: kunit_parser check SKIPPED: ', done.stdout)
        self.assertEqual(done.stdout.splitlines()[-1], '1 passed, 0 failed')

    @unittest.skipUnless(os.path.isfile(KUNIT_PY), 'Linux\'s kunit.py not extracted')
    def test_kunit_parser_agrees(self):
        done = self.harness('--kunit-parser', KUNIT_PY, '--kernel', self.kernel,
                            '--cmdline', 'ktest=selftest.pass')
        self.assertIn('harness: kunit_parser agrees: 1 passed, 0 failed', done.stdout)
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_quiet_pass(self):
        done = self.harness('--quiet', '--kernel', self.kernel,
                            '--cmdline', 'ktest=selftest.pass')
        self.assertEqual((done.returncode, done.stdout), (0, '1 passed, 0 failed\n'))

    def test_crash_shows_reason_and_tail(self):
        done = self.harness('--quiet', '--kernel', self.kernel,
                            '--cmdline', 'ktest=selftest.exception')
        self.assertEqual(done.returncode, 1)
        self.assertIn('harness: CPU exception: CPU exception 14 (#PF Page Fault)',
                      done.stdout)
        self.assertIn('harness: last 9 lines of', done.stdout)
        self.assertTrue(done.stdout.endswith('0 passed, 1 failed\n'))

    def test_iso_build_failure(self):
        broken = os.path.join(self.tmp, 'broken.elf')
        shutil.copy(self.kernel, broken)
        done = self.harness('--quiet', '--kernel', broken)
        self.assertEqual(done.returncode, 1)
        self.assertIn('could not build ISO', done.stdout)
        self.assertIn('grub-mkrescue failed', done.stdout)

    def test_selftest(self):
        done = self.harness('--selftest', self.kernel, '--hang-timeout', '1')
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        for text in ('ok - hang detected', 'ok - panic detected',
                     'ok - CPU exception detected', 'ok - triple fault detected',
                     'ok - failing expectation detected',
                     'ok - passing test reported as a pass',
                     'ok - debug_pagealloc fault on a free page named'):
            self.assertIn('harness selftest: ' + text, done.stdout)
        self.assertNotIn('not ok', done.stdout)
        self.assertRegex(done.stdout.splitlines()[-1], r'^\d+ passed, 0 failed$')

    def test_option_pairing_error(self):
        done = self.harness('--kernel', 'a', '--kernel', 'b', '--kernel', 'c',
                            '--smp', '1', '--smp', '2')
        self.assertEqual(done.returncode, 2)
        self.assertIn('--smp given 2 times for 3 --kernel options', done.stderr)

    def test_run_maps_status_and_debug(self):
        done = self.harness('run', '--kernel', self.kernel, '--cmdline', 'ktest=args',
                            '--debug', '--qemu-args', '-d int')
        self.assertEqual(done.returncode, 0)
        self.assertIn("QEMU is waiting for gdb: gdb %s -ex 'target remote :1234'"
                      % self.kernel, done.stdout)
        self.assertIn('-s -S', done.stdout)
        self.assertIn('-no-reboot', done.stdout)
        self.assertIn('-d int', done.stdout)

    def test_run_passes_stdin(self):
        done = self.harness('run', '--kernel', self.kernel, '--cmdline', 'ktest=stdin',
                            stdin='help\npoweroff\n')
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, 'echo: help\necho: poweroff\n')
        other = self.harness('run', '--kernel', self.kernel,
                             '--cmdline', 'ktest=status:7')
        self.assertEqual(other.returncode, 7)




LOCK_DOC = """# Locking
## The lock order

 1. `outer_lock` (`mm/a.c`): first.
 2. `n->list_lock`: a node.
 3. `pool->lock` (`mm/mempool.c`): a pool.
 4. `pool->lock` (`kernel/workqueue.c`): work.

## Interrupts
 5. `not_an_item`: outside the section.
"""


def lock_graph(classes, deps):
    """A log's validator graph: classes [(name, file)], deps [(a, b)]."""
    lines = ['[ 1.0] lockdep: class %d %s/0 %s' % (i, name, f)
             for i, (name, f) in enumerate(classes)]
    lines += ['[ 1.0] lockdep: dep %d %d' % dep for dep in deps]
    return '\n'.join(lines) + '\n'


class LockOrderTests(unittest.TestCase):
    """tools/testing/lock_order.py on a small document and graphs."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.doc = os.path.join(self.tmp, 'locking.md')
        with open(self.doc, 'w', encoding='utf-8') as f:
            f.write(LOCK_DOC)
        os.makedirs(os.path.join(self.tmp, 'tests'))
        with open(os.path.join(self.tmp, 'tests', 't.c'), 'w',
                  encoding='utf-8') as f:
            f.write('static DEFINE_SPINLOCK(test_lock);\n')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def failures(self, classes, deps):
        results = lock_order.check([lock_graph(classes, deps)], self.doc,
                                   self.tmp)
        return [text for ok, text in results if not ok], len(results)

    def test_doc_items(self):
        items = lock_order.parse_doc(self.doc)
        self.assertEqual([(r, n) for r, n, _ in items],
                         [(1, 'outer_lock'), (2, 'n->list_lock'),
                          (3, 'pool->lock'), (4, 'pool->lock')])
        self.assertEqual(items[2][2], {'mm/mempool.c'})

    def test_documented_order_passes(self):
        failed, n = self.failures(
            [('outer_lock', '-'), ('&n->list_lock', 'mm/slab.c'),
             ('&pool->lock', 'kernel/workqueue.c')], [(0, 1), (1, 2)])
        self.assertEqual(failed, [])
        self.assertEqual(n, 5)

    def test_reversed_order_fails(self):
        failed, _ = self.failures(
            [('outer_lock', '-'), ('&n->list_lock', 'mm/slab.c')], [(1, 0)])
        self.assertEqual(len(failed), 1)
        self.assertIn('forbids', failed[0])

    def test_same_item_twice_fails(self):
        failed, _ = self.failures(
            [('&n->list_lock', 'mm/slab.c'), ('&n->list_lock', 'mm/b.c')],
            [(0, 1)])
        self.assertEqual(len(failed), 1)

    def test_file_tells_same_names_apart(self):
        failed, _ = self.failures(
            [('&pool->lock', 'kernel/workqueue.c'),
             ('&pool->lock', 'mm/mempool.c')], [(0, 1)])
        self.assertEqual(len(failed), 1)     # 4 then 3
        failed, _ = self.failures([('&pool->lock', 'mm/other.c')], [])
        self.assertEqual(len(failed), 1)     # not documented there

    def test_undocumented_lock_fails_test_locks_do_not(self):
        failed, _ = self.failures(
            [('outer_lock', '-'), ('new_lock', '-'), ('not_an_item', '-'),
             ('test_lock', '-'), ('lock', 'tests/test_x.c')],
            [(3, 0), (0, 4)])
        self.assertEqual(sorted(failed), [
            'lock new_lock (-) is not in the lock order',
            'lock not_an_item (-) is not in the lock order'])

    def test_last_graph_of_a_log_counts(self):
        text = (lock_graph([('outer_lock', '-'), ('new_lock', '-')], []) +
                lock_graph([('outer_lock', '-')], []))
        results = lock_order.check([text], self.doc, self.tmp)
        self.assertEqual([ok for ok, _ in results], [True])

    def test_no_graph_checks_nothing(self):
        self.assertEqual(lock_order.check(['no graph'], self.doc, self.tmp),
                         [])


@unittest.skipUnless(os.path.isfile(KUNIT_PY), 'Linux\'s kunit.py not extracted '
                     '(make test does it)')
class RealKunitParserTests(unittest.TestCase):
    """Linux's own parser on synthetic logs, through run_kunit_parser."""

    def run_parser(self, text):
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as log:
            log.write(ktap_text(text))
        try:
            return harness.run_kunit_parser(KUNIT_PY, log.name)
        finally:
            os.unlink(log.name)

    def test_counts_agree_with_ktap_py(self):
        counts, errors = self.run_parser(PARAM_AND_SKIPPED_SUITE)
        self.assertEqual(errors, [])
        self.assertIsNone(harness.compare_with_kunit(
            parse(PARAM_AND_SKIPPED_SUITE), counts, errors))

    def test_hash_in_a_name_is_an_error(self):
        text = SIMPLE_PASS.replace('ok 1 test_memcpy', 'ok 1 "%#x" -> "0x1"')
        problem = harness.compare_with_kunit(parse(text), *self.run_parser(text))
        self.assertIsNotNone(problem)

if __name__ == '__main__':
    unittest.main()
