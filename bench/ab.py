#!/usr/bin/env python3
"""Compare two builds of the kernel's allocators on the same workloads.

Runs "A bench=GLOB bench_reps=N" and the same for B alternately for a
number of rounds (the order flips each round) and prints, per workload,
the median over the rounds of each one's fastest of N runs and B's time
divided by A's, then the same for the best round of each. Used to
measure what a change costs the fast paths, e.g. against the build
before it (make bench-ab BASELINE=<commit>). Measurements, not pass/fail
tests.

Why the best round too: each round is a new process with its own
address-space layout, and on some machines a share of layouts runs the
hot loops up to 1.8x slower for both builds alike (the same binary
pinned to one core, or with ASLR off, is steady). A median over a few
rounds then flips with the draw; the best round is the code's own cost.
The rows that run on one CPU run pinned to one host CPU (--pin), which
steadies them too; the rows on several threads (icount.py's
MULTI_THREAD) run unpinned, in a second process.
"""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from icount import MULTI_THREAD  # noqa: E402
from run import parse  # noqa: E402


def run_one(binary, glob, reps, pin, cmdline):
    env = dict(os.environ, CRAM_HOST_MEM="2G")
    cmd = [binary, "bench=" + glob, "bench_reps=%d" % reps,
           "bench_smp=0"] + cmdline
    if pin is not None:
        cmd = ["taskset", "-c", str(pin)] + cmd
    out = subprocess.run(cmd, env=env,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("bench-ab: %s failed (%d)" % (binary, out.returncode))
    results, _per_cpu_s = parse(out.stdout)  # no scaling rows here
    return results


def run(binary, glob, reps, pin, cmdline):
    """The one-CPU rows pinned to CPU pin, the others (MULTI_THREAD) free."""
    res = run_one(binary, glob, reps, pin, cmdline)
    if pin is None:
        return res
    multi = {n: v for n, v in run_one(binary, glob, reps, None,
                                      cmdline).items()
             if MULTI_THREAD.search(n)}
    res = {n: v for n, v in res.items() if not MULTI_THREAD.search(n)}
    res.update(multi)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="baseline binary")
    ap.add_argument("b", help="binary under test")
    ap.add_argument("--glob", default="*")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pin", type=int, default=os.cpu_count() - 1,
                    help="host CPU for the one-CPU rows (-1: none)")
    ap.add_argument("--cmdline", default="",
                    help="more command-line words for both builds, "
                    "e.g. numa=fake=2 for the xnode_ rows")
    args = ap.parse_args()
    pin = None if args.pin < 0 else args.pin
    times = {"a": {}, "b": {}}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for which in order:
            res = run(getattr(args, which), args.glob, args.reps, pin,
                      args.cmdline.split())
            for name, (ns, _peak) in res.items():
                times[which].setdefault(name, []).append(ns)
    print("%-24s %10s %10s %8s %10s %10s %8s" %
          ("workload (ns/op)", "baseline", "this", "ratio",
           "best base", "best this", "ratio"))
    for name in sorted(times["a"]):
        if name not in times["b"]:
            continue
        a = statistics.median(times["a"][name])
        b = statistics.median(times["b"][name])
        amin = min(times["a"][name])
        bmin = min(times["b"][name])
        print("%-24s %10.2f %10.2f %7.3fx %10.2f %10.2f %7.3fx" %
              (name, a, b, b / a, amin, bmin, bmin / amin))


if __name__ == "__main__":
    main()
