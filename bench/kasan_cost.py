#!/usr/bin/env python3
"""KASAN's cost on the in-kernel bench: the KASAN=1 kernel against the
plain one, side by side (make bench-kasan).

Both kernels boot under QEMU (tools/testing/harness.py run) with
"bench=GLOB bench_smp=0", one CPU, 1 GiB, alternately, --rounds times;
each row keeps the fewest TSC cycles per operation of its rounds (load
on a shared machine only ever adds time). The table prints both and
their ratio, then the geometric mean of the ratios. Under QEMU's TCG
these are emulated cycles: compare like with like, never with hardware.
With --suites, also a whole workload: the wall time of a boot running
those test suites in each kernel, less that of a boot running one small
suite, the fewest of the rounds (wall time, so a busy machine moves it).
A measurement, not a test.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "tools", "testing", "harness.py")


def bench_cycles(kernel, glob, reps, timeout):
    """{row: cycles per operation} of one boot of kernel."""
    cmdline = "bench=%s bench_smp=0 bench_reps=%d" % (glob, reps)
    out = subprocess.run([sys.executable, HARNESS, "run", "--kernel", kernel,
                          "--mem", "1G", "--cmdline", cmdline],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=timeout)
    rows = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[0] == "BENCH":
            rows[parts[1]] = int(parts[3])
    if out.returncode != 0 or not rows:
        sys.exit("bench-kasan: %s did not finish its bench (exit %d):\n%s" %
                 (kernel, out.returncode, out.stdout[-2000:]))
    return rows


def suites_seconds(kernel, suites, timeout):
    """Wall seconds of one boot of kernel running the test suites, and
    its summary line ("N passed, ..."), which must say 0 failed."""
    start = time.monotonic()
    out = subprocess.run([sys.executable, HARNESS, "--log-dir",
                          tempfile.mkdtemp(prefix="bench-kasan-"), "--kernel",
                          kernel, "--mem", "512M", "--smp", "1", "--cmdline",
                          "ktest=" + suites],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=timeout)
    seconds = time.monotonic() - start
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    if out.returncode != 0 or " 0 failed" not in last:
        sys.exit("bench-kasan: %s ktest=%s failed (exit %d): %s" %
                 (kernel, suites, out.returncode, last))
    return seconds


def whole_suites(args):
    """The KASAN boot's suites as a whole workload: each kernel's wall
    time for them, less a boot that runs one small suite (the boot and
    QEMU's own start), the fewest of the rounds."""
    best = {}
    for _ in range(args.rounds):
        for name, kernel in (("plain", args.plain), ("kasan", args.kasan)):
            t = (suites_seconds(kernel, args.suites, args.timeout) -
                 suites_seconds(kernel, "string", args.timeout))
            best[name] = min(t, best.get(name, t))
    print("the KASAN boot's %d suites, wall seconds less a boot: plain "
          "%.1f, KASAN %.1f: %.1fx" % (len(args.suites.split(",")),
                                      best["plain"], best["kasan"],
                                      best["kasan"] / best["plain"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plain", required=True, help="the plain kernel.elf")
    ap.add_argument("--kasan", required=True, help="the KASAN=1 kernel.elf")
    ap.add_argument("--glob", default="*")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--suites", help="also time these test suites "
                    "(comma-separated) in both kernels, a whole workload")
    args = ap.parse_args()

    best = {"plain": {}, "kasan": {}}
    for _ in range(args.rounds):
        for name in ("plain", "kasan"):
            kernel = args.plain if name == "plain" else args.kasan
            for row, cyc in bench_cycles(kernel, args.glob, args.reps,
                                         args.timeout).items():
                best[name][row] = min(cyc, best[name].get(row, cyc))
    rows = sorted(set(best["plain"]) & set(best["kasan"]))
    print("%-32s %10s %10s %8s" % ("row (cycles/op)", "plain", "KASAN",
                                   "ratio"))
    logs = []
    for row in rows:
        plain, kasan = best["plain"][row], best["kasan"][row]
        ratio = kasan / plain if plain else float("nan")
        if plain:
            logs.append(math.log(ratio))
        print("%-32s %10d %10d %7.1fx" % (row, plain, kasan, ratio))
    if logs:
        print("geometric mean of %d rows: %.1fx" %
              (len(logs), math.exp(sum(logs) / len(logs))))
    print("(TSC cycles per operation under QEMU's TCG, the fewest of %d "
          "rounds; emulated cycles: compare like with like)" % args.rounds)
    if args.suites:
        whole_suites(args)


if __name__ == "__main__":
    main()
