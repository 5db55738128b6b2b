#!/usr/bin/env python3
"""Instructions per operation of every one-thread bench row, under valgrind.

Each row runs under `valgrind --tool=cachegrind --cache-sim=no` twice,
with one and with two timed repetitions (both after the same untimed
warm-up); the difference of the two totals is one repetition's
instructions, which divided by the operations the row prints (the last
field of its BENCH line) gives instructions per operation. Set-up,
warm-up and exit cancel out, so the figure is the loop's own: the
allocator plus the workload's touch of each object and its loop. The
counts do not move with machine load: decide with them, confirm with
wall time (make bench). The kernel's builds run each count three times
and keep the least (KERNEL_RUNS: its boot's cross-CPU waits spin under
valgrind); what is left is a few hundred instructions of the host
tick's signal handler.

Two modes:
  icount.py --cram C --peer P       cram against glibc and the peers
                                    installed (run.py's list), with the
                                    leanest peer and cram's ratio to it
  icount.py --ab A B                two builds of cram (make
                                    bench-icount-ab): B - A per row

Rows that run on more than one thread (*_2cpu, scale_*_tK with K > 1,
xnode_producer_consumer) are left out: a waiting thread's spinning would count as work. Results
also go to --json.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from run import PEER_LIBS, find_lib  # noqa: E402

IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")
# Rows on more than one thread: *_Ncpu, scale_*_tK with K > 1, and the
# producer/consumer across nodes (bench/ab.py runs them unpinned).
MULTI_THREAD = re.compile(r"(_\d+cpu|_t([2-9]|\d\d+))$|^xnode_producer_consumer$")


# More command-line words for cram's runs (--cmdline).
CRAM_CMDLINE = []


def command(impl, binary, glob, reps):
    """argv and environment of one run of impl on the rows glob."""
    env = dict(os.environ)
    if impl.startswith("cram") or impl in ("A", "B"):
        env["CRAM_HOST_MEM"] = "2G"
        argv = [binary, "bench=" + glob, "bench_reps=%d" % reps,
                "bench_smp=0", "bench_cpus=1"] + CRAM_CMDLINE
    else:
        argv = [binary, glob, str(reps), "1"]
        if impl in PEER_LIBS:
            env["LD_PRELOAD"] = find_lib(PEER_LIBS[impl])
    return argv, env


def bench_lines(stdout):
    """name -> operations a run, from the BENCH lines."""
    ops = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[0] == "BENCH":
            ops[parts[1]] = int(parts[5])
    return ops


def measure(impl, binary, glob, reps):
    """(total instructions, {row: ops a run}) of one run under valgrind."""
    argv, env = command(impl, binary, glob, reps)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null"] + argv,
                         env=env, capture_output=True, text=True, timeout=900)
    m = IREFS.search(out.stderr)
    if out.returncode != 0 or not m:
        sys.exit("bench-icount: %s %s failed (%d):\n%s" %
                 (impl, glob, out.returncode, out.stderr[-2000:]))
    return int(m.group(1).replace(",", "")), bench_lines(out.stdout)


def case_glob(row):
    """The case that prints row: a scaling row's case has no _tK suffix
    (run on one CPU or thread only, it prints only its _t1 row)."""
    return row[:-3] if row.startswith("scale_") and row.endswith("_t1") \
        else row


# The kernel's boot (cram, A, B) waits for its other CPUs' threads in
# cross-CPU calls (csd_lock_wait()), and under valgrind, which runs one
# thread at a time, that wait spins a varying number of instructions:
# a run only ever gains some. The least of a few runs is the count.
KERNEL_RUNS = 3


def least(impl, binary, glob, reps):
    """measure(), the least of KERNEL_RUNS runs for the kernel's builds."""
    runs = KERNEL_RUNS if impl.startswith("cram") or impl in ("A", "B") \
        else 1
    return min((measure(impl, binary, glob, reps) for _ in range(runs)),
               key=lambda m: m[0])


def icount(impl, binary, row):
    """Instructions per operation of row, or None if impl lacks it."""
    one, ops = least(impl, binary, case_glob(row), 1)
    if row not in ops:
        return None
    two, _ = least(impl, binary, case_glob(row), 2)
    return (two - one) / ops[row]


def rows_of(impl, binary):
    """The one-thread rows impl runs, from a native run of one rep."""
    argv, env = command(impl, binary, "*", 1)
    out = subprocess.run(argv, env=env, capture_output=True, text=True,
                         timeout=900)
    if out.returncode != 0:
        sys.exit("bench-icount: %s failed (%d)" % (impl, out.returncode))
    return [r for r in bench_lines(out.stdout) if not MULTI_THREAD.search(r)]


def run_all(jobs, parallel):
    """{(impl, row): instructions per op} for the (impl, binary, row) jobs."""
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        futs = {(impl, row): pool.submit(icount, impl, binary, row)
                for impl, binary, row in jobs}
        return {k: f.result() for k, f in futs.items()}


def fmt(v):
    return "%.1f" % v if v is not None else "-"


def against_peers(args, glob_ok):
    impls = ["cram", "glibc"] + [p for p in PEER_LIBS
                                 if find_lib(PEER_LIBS[p])]
    binaries = {i: (args.cram if i == "cram" else args.peer) for i in impls}
    rows = [r for r in rows_of("cram", args.cram) if glob_ok(r)]
    res = run_all([(i, binaries[i], r) for r in rows for i in impls],
                  args.parallel)
    print("%-28s" % "workload (instr/op)" +
          "".join("%11s" % i for i in impls) + "%11s%8s" % ("leanest", "ratio"))
    table = {}
    for r in rows:
        peers = {i: res[(i, r)] for i in impls
                 if i != "cram" and res[(i, r)] is not None}
        lean = min(peers, key=peers.get) if peers else None
        cram = res[("cram", r)]
        ratio = cram / peers[lean] if lean and peers[lean] else None
        table[r] = {"instr_per_op": {i: res[(i, r)] for i in impls},
                    "leanest_peer": lean, "ratio": ratio}
        print("%-28s" % r + "".join("%11s" % fmt(res[(i, r)]) for i in impls) +
              "%11s%8s" % (lean or "-", "%.2fx" % ratio if ratio else "-"))
    return table


def a_against_b(args, glob_ok):
    rows = [r for r in rows_of("B", args.ab[1]) if glob_ok(r)]
    res = run_all([(w, b, r) for r in rows
                   for w, b in (("A", args.ab[0]), ("B", args.ab[1]))],
                  args.parallel)
    print("%-28s%11s%11s%9s%8s" % ("workload (instr/op)", "A", "B", "B-A",
                                  "B/A"))
    table = {}
    for r in rows:
        a, b = res[("A", r)], res[("B", r)]
        table[r] = {"A": a, "B": b}
        if a is None or b is None:
            print("%-28s%11s%11s" % (r, fmt(a), fmt(b)))
            continue
        print("%-28s%11.1f%11.1f%+9.1f%7.3fx" % (r, a, b, b - a,
                                                 b / a if a else 0))
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cram", default="build/bench/cram")
    ap.add_argument("--peer", default="build/bench/peer")
    ap.add_argument("--ab", nargs=2, metavar=("A", "B"),
                    help="compare two cram builds instead")
    ap.add_argument("--glob", default="*")
    ap.add_argument("--parallel", type=int,
                    default=max(1, len(os.sched_getaffinity(0))))
    ap.add_argument("--json", default="build/bench-icount.json")
    ap.add_argument("--cmdline", default="",
                    help="more command-line words for cram's runs, "
                    "e.g. numa=fake=2 for the xnode_ rows")
    args = ap.parse_args()
    CRAM_CMDLINE[:] = args.cmdline.split()

    import fnmatch
    glob_ok = lambda r: fnmatch.fnmatchcase(r, args.glob)  # noqa: E731
    table = a_against_b(args, glob_ok) if args.ab else against_peers(args,
                                                                     glob_ok)
    print("(instructions per operation: valgrind's count of one timed "
          "repetition over its operations, the object's touch and the loop "
          "included; deterministic, unlike ns/op)")
    with open(args.json, "w") as f:
        json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
