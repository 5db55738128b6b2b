#!/usr/bin/env python3
"""Compare two builds of the kernel's allocators on the same workloads.

Runs "A bench=GLOB bench_reps=N" and the same for B alternately for a
number of rounds (the order flips each round) and prints, per workload,
the median over the rounds of each one's fastest of N runs and B's time divided by A's. Used to measure what
a change costs the fast paths, e.g. against the build before it
(make bench-ab BASELINE=<commit>). Measurements, not pass/fail tests.
"""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from run import parse  # noqa: E402


def run(binary, glob, reps):
    env = dict(os.environ, CRAM_HOST_MEM="2G")
    out = subprocess.run([binary, "bench=" + glob, "bench_reps=%d" % reps],
                         env=env,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("bench-ab: %s failed (%d)" % (binary, out.returncode))
    return parse(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="baseline binary")
    ap.add_argument("b", help="binary under test")
    ap.add_argument("--glob", default="*")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    times = {"a": {}, "b": {}}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for which in order:
            res = run(getattr(args, which), args.glob, args.reps)
            for name, (ns, _peak) in res.items():
                times[which].setdefault(name, []).append(ns)
    print("%-24s %12s %12s %8s" % ("workload (ns/op)", "baseline", "this", "ratio"))
    for name in sorted(times["a"]):
        if name not in times["b"]:
            continue
        a = statistics.median(times["a"][name])
        b = statistics.median(times["b"][name])
        print("%-24s %12.2f %12.2f %7.3fx" % (name, a, b, b / a))


if __name__ == "__main__":
    main()
