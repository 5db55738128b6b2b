#!/usr/bin/env python3
"""Boot the allocator suites on every platform configuration (make matrix).

The configurations are the product of firmware (BIOS, UEFI), machine
(pc, q35) and RAM (32M ... 16G) on 1 CPU; the same firmware and machines
at SMP_MEMS (128M) on each other CPU count of --cpus (4 and 16); and,
for each NUMA topology of --numa (the harness's spec: 2 nodes of 2 CPUs
by default, make matrix adds the 4-node asymmetric one with a node
without memory), the same firmware and machines on NUMA_CPUS CPUs at
NUMA_MEM.  Every configuration without NUMA boots the same ISO (built
once) with the same kernel command line; a NUMA one its own, which runs
--numa-ktest (make test's NUMA boots' suites: the allocator suites above
assume one node) with numa_expect= (the harness's numa_cmdline), all
through the harness's own stages (harness.boot_stage, run_stage, judge),
two QEMUs at a time by default.  Output: one table row per configuration
(firmware, machine, RAM, CPUs, NUMA nodes, passed/failed/skipped,
boot-to-first-test time, wall time), the same rows as JSON
(build/matrix.json), and exit status 0 only if every configuration
passed.  A failing configuration also prints the harness's
reason and the path of its log.

One more row boots every suite (plain 'ktest', not just --ktest's) at
the smallest RAM under the BIOS (ALL_SUITES_CONFIG): the README promises
32 MiB, and the suites beyond the allocators' own (reclaim, vmalloc,
the debugging options...) must hold there too.  --no-all-suites leaves
it out.

Debian's OVMF cannot boot with less than 64 MiB under QEMU: at 32 MiB it
takes a page fault in its own code before it looks for a boot device, at
48 MiB GRUB's EFI build runs out of memory.  Those configurations are not
booted; their rows say why and count as skipped (UEFI_MIN_MEM).
"""

import argparse
import itertools
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TESTS_DIR)
sys.dont_write_bytecode = True

import harness  # noqa: E402

FIRMWARES = ('bios', 'uefi')
MACHINES = ('pc', 'q35')
MEMS = ('32M', '128M', '1G', '4G', '16G')
CPUS = ('1', '4', '16')
SMP_MEMS = ('128M',)          # RAM of the rows on more than one CPU
NUMAS = ('2',)                # harness --numa specs
NUMA_MEM = '1G'
NUMA_CPUS = '4'
NUMA_SUITES = 'numa,numa_boot,acpi_boot,smpboot,percpu,page_alloc_numa,memory_model,slab_numa'
SUITES = 'memory_model,page_alloc,slab,kmalloc'
ALL_SUITES_CONFIG = ('bios', 'pc', '32M', '1', '')
ALL_SUITES_CMDLINE = 'ktest'
UEFI_MIN_MEM = 64 << 20


def mem_bytes(text):
    """'32M' -> 33554432 (K, M, G, T suffixes, as QEMU's -m; bare is MiB)."""
    units = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}
    text = text.strip().upper()
    if text[-1:] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(float(text) * (1 << 20))


def unbootable(config):
    """Why a configuration cannot boot at all (firmware limits), or None."""
    firmware, _machine, mem, _cpus, _numa = config
    if firmware == 'uefi' and mem_bytes(mem) < UEFI_MIN_MEM:
        return 'OVMF needs at least %dM' % (UEFI_MIN_MEM >> 20)
    return None


def configs(firmwares=FIRMWARES, machines=MACHINES, mems=MEMS, cpus=CPUS,
            numas=NUMAS):
    """(firmware, machine, mem, cpus, numa spec or ''), firmware varying
    slowest: every RAM size on 1 CPU, SMP_MEMS on the other CPU counts,
    then each NUMA topology on NUMA_CPUS CPUs at NUMA_MEM."""
    plain = [(f, m, mem, c, '') for f, m, mem, c in
             itertools.product(firmwares, machines, mems, cpus)
             if c == '1' or mem in SMP_MEMS]
    numa = [(f, m, NUMA_MEM, NUMA_CPUS, spec) for spec in numas
            for f, m in itertools.product(firmwares, machines)]
    return plain + numa


def numa_label(spec):
    """'2' -> '2'; '4:nomem=3:0-1=15...' -> '4 asym' (the table's cell)."""
    if not spec:
        return '-'
    return spec.split(':')[0] + (' asym' if ':' in spec else '')


def stage_name(config, suites='selected'):
    firmware, machine, mem, cpus, numa = config
    return 'matrix-%s-%s-%s-%scpu%s%s' % (
        firmware, machine, mem, cpus,
        '-numa' + numa_label(numa).replace(' ', '') if numa else '',
        '-all' if suites == 'all' else '')


def make_stages(kernel, cmdline, iso, config_list, dirs, timeout,
                qemu_args='', suites='selected', numa_cmdline=None):
    """One harness stage per configuration, all booting the same ISO but
    the NUMA ones (their own, with numa_cmdline, 'ktest=' NUMA_SUITES by
    default, and numa_expect=); suites ('selected' or 'all') names the
    row's suites in the table ('numa' for a NUMA row)."""
    log_dir, iso_dir = dirs
    stages = []
    for config in config_list:
        firmware, machine, mem, cpus, numa = config
        boot = harness.Boot(kernel, cmdline, mem, cpus, timeout, qemu_args,
                            machine, firmware, numa=numa)
        if numa:
            boot.cmdline = numa_cmdline or 'ktest=' + NUMA_SUITES
        stage = harness.boot_stage(boot, stage_name(config, suites),
                                   (log_dir, iso_dir), 60.0)
        if not numa:
            stage.argv = harness.qemu_argv(iso, mem, cpus, qemu_args,
                                           machine, firmware)
            stage.prepare = None
        stages.append((config, stage, 'numa' if numa else suites))
    return stages


def skipped_row(config, why, suites='selected'):
    """The row of a configuration that was not booted."""
    firmware, machine, mem, cpus, numa = config
    return {
        'firmware': harness.FIRMWARE_NAMES[firmware], 'machine': machine,
        'mem': mem, 'cpus': int(cpus), 'numa': numa, 'suites': suites,
        'verdict': 'skip', 'reason': why,
        'passed': 0, 'failed': 0, 'skipped': 0, 'boot_to_first_test': None,
        'seconds': None, 'log': None,
    }


def row(config, outcome, suites='selected'):
    """What the table and the JSON file say about one configuration."""
    firmware, machine, mem, cpus, numa = config
    obs = outcome.obs
    return {
        'firmware': harness.FIRMWARE_NAMES[firmware],
        'machine': machine,
        'mem': mem,
        'cpus': int(cpus),
        'numa': numa,
        'suites': suites,
        'verdict': outcome.kind,
        'reason': outcome.reason,
        'passed': outcome.passed,
        'failed': outcome.failed,
        'skipped': outcome.skipped,
        'boot_to_first_test': (round(obs.first_test, 2)
                               if obs.first_test is not None else None),
        'seconds': round(obs.elapsed, 2),
        'log': outcome.stage.log_path,
    }


HEADER = ('firmware', 'machine', 'RAM', 'CPUs', 'NUMA', 'suites', 'passed',
          'failed', 'skipped', 'boot to first test', 'total')


def format_table(rows):
    """The rows as an aligned text table (a list of lines)."""
    def seconds(value):
        return '-' if value is None else '%.1f s' % value

    def counts(r):
        if r['verdict'] == 'skip':
            return ('-', '-', 'all: %s' % r['reason'])
        return (str(r['passed']), str(r['failed']), str(r['skipped']))

    cells = [HEADER] + [
        (r['firmware'], r['machine'], r['mem'], str(r['cpus']),
         numa_label(r['numa']), r['suites']) + counts(r)
        + (seconds(r['boot_to_first_test']), seconds(r['seconds']))
        for r in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADER))]
    return ['  '.join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
            for line in cells]


def run(stages, jobs):
    """Run (config, stage, suites) triples, jobs at a time; rows in the
    given order."""
    quiet = harness.Printer(quiet=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [(config, suites, None if unbootable(config) else
                    pool.submit(harness.run_stage, stage, quiet))
                   for config, stage, suites in stages]
        try:
            return [row(config, future.result(), suites) if future else
                    skipped_row(config, unbootable(config), suites)
                    for config, suites, future in futures]
        except KeyboardInterrupt:
            harness.ABORT.set()
            raise


def parse_args(argv):
    parser = argparse.ArgumentParser(prog='matrix.py', description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--kernel', required=True, metavar='ELF')
    parser.add_argument('--ktest', default=SUITES, metavar='GLOBS',
                        help='suites to run (default: %s)' % SUITES)
    parser.add_argument('--firmware', nargs='+', default=FIRMWARES,
                        choices=FIRMWARES)
    parser.add_argument('--machine', nargs='+', default=MACHINES,
                        choices=MACHINES)
    parser.add_argument('--mem', nargs='+', default=MEMS, metavar='SIZE')
    parser.add_argument('--numa-ktest', default=NUMA_SUITES, metavar='GLOBS',
                        help='suites of the NUMA rows (default: %s)' % NUMA_SUITES)
    parser.add_argument('--cpus', nargs='+', default=CPUS, metavar='N',
                        help='CPU counts (default: %s; above 1 only at %s)'
                        % (' '.join(CPUS), ' '.join(SMP_MEMS)))
    parser.add_argument('--numa', nargs='*', default=NUMAS, metavar='SPEC',
                        help='NUMA topologies (harness --numa specs; '
                             'default: %s; none: no NUMA rows)' % ' '.join(NUMAS))
    parser.add_argument('--no-all-suites', action='store_true',
                        help='leave out the row that boots every suite '
                             '(%s %s %s)' % ALL_SUITES_CONFIG[:3])
    parser.add_argument('--jobs', type=int, default=2,
                        help='QEMUs at a time (default: 2)')
    parser.add_argument('--timeout', type=harness.positive_float, default=300.0,
                        metavar='S', help='time limit per boot (default: 300)')
    parser.add_argument('--qemu-args', default='', metavar='ARGS')
    parser.add_argument('--json', default=os.path.join(harness.ROOT, 'build',
                                                       'matrix.json'))
    parser.add_argument('--log-dir', default=os.path.join(harness.ROOT, 'build',
                                                          'logs'))
    harness.add_iso_dir_option(parser)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start = time.monotonic()
    cmdline = 'ktest=%s' % args.ktest
    iso = os.path.join(args.iso_dir, 'matrix.iso')
    error = harness.build_iso(args.kernel, cmdline, iso)
    if error:
        print('matrix: %s' % error, file=sys.stderr)
        return 1
    config_list = configs(args.firmware, args.machine, args.mem, args.cpus,
                          args.numa)
    stages = make_stages(args.kernel, cmdline, iso, config_list,
                         (args.log_dir, args.iso_dir), args.timeout,
                         args.qemu_args,
                         numa_cmdline='ktest=%s' % args.numa_ktest)
    if not args.no_all_suites:
        all_iso = os.path.join(args.iso_dir, 'matrix-all.iso')
        error = harness.build_iso(args.kernel, ALL_SUITES_CMDLINE, all_iso)
        if error:
            print('matrix: %s' % error, file=sys.stderr)
            return 1
        stages += make_stages(args.kernel, ALL_SUITES_CMDLINE, all_iso,
                              [ALL_SUITES_CONFIG],
                              (args.log_dir, args.iso_dir), args.timeout,
                              args.qemu_args, 'all')
    print("matrix: %d configurations of '%s'%s, %d at a time"
          % (len(stages), cmdline,
             '' if args.no_all_suites else
             " and one of every suite ('%s')" % ALL_SUITES_CMDLINE,
             args.jobs), flush=True)
    rows = run(stages, args.jobs)
    elapsed = time.monotonic() - start
    for line in format_table(rows):
        print(line)
    bad = [r for r in rows if r['verdict'] not in ('pass', 'skip')]
    skipped = len([r for r in rows if r['verdict'] == 'skip'])
    for r in bad:
        print('matrix: FAIL %s %s %s %d CPU, NUMA %s, %s suites: %s (log: %s)' % (
            r['firmware'], r['machine'], r['mem'], r['cpus'],
            r['numa'] or '-', r['suites'], r['reason'], r['log']))
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, 'w', encoding='utf-8') as out:
        json.dump({'cmdline': cmdline, 'seconds': round(elapsed, 1),
                   'configurations': rows}, out, indent=2)
        out.write('\n')
    print('matrix: %d configurations, %d passed, %d failed, %d not bootable in %.0f s (%s)'
          % (len(rows), len(rows) - len(bad) - skipped, len(bad), skipped,
             elapsed, args.json))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
