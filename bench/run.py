#!/usr/bin/env python3
"""Run the allocator benchmarks side by side and print ratios.

The kernel's allocators run natively through the host build
(build/bench/cram bench: kmalloc, kmem_cache, alloc_pages), the peers
through bench/peer.c (malloc/free) under glibc and, with LD_PRELOAD,
jemalloc, mimalloc and tcmalloc when their Debian packages are
installed. Every program runs each workload once untimed, then --reps
times, and reports the fastest of those (interference from the rest of a
shared machine only ever adds time). Rounds interleave the allocators
(the order rotates each round); the table shows the median ns/op over
the rounds, the spread (max-min in % of the median), and cram's time
divided by the best peer's. Results
also go to build/bench.json. These are measurements on a shared
machine, not pass/fail tests.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

PEER_LIBS = {
    "jemalloc": "libjemalloc.so.2",
    "mimalloc": "libmimalloc.so.2",
    "tcmalloc": "libtcmalloc_minimal.so.4",
}
LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]


def find_lib(name):
    for d in LIB_DIRS:
        hits = glob.glob(os.path.join(d, name))
        if hits:
            return hits[0]
    return None


def parse(output):
    """BENCH lines: name -> (ns per op, peak KiB or 0)."""
    results = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "BENCH":
            peak = int(parts[4]) if len(parts) >= 5 else 0
            results[parts[1]] = (float(parts[2]), peak)
    return results


def run_impl(name, cram, peer, reps):
    env = dict(os.environ)
    if name == "cram":
        cmd = [cram, "bench", "bench_reps=%d" % reps, "bench_smp=0"]
        env["CRAM_HOST_MEM"] = "2G"
    else:
        cmd = [peer, "*", str(reps)]
        if name in PEER_LIBS:
            env["LD_PRELOAD"] = find_lib(PEER_LIBS[name])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        sys.exit("bench: %s failed (%d):\n%s%s" %
                 (name, out.returncode, out.stdout[-2000:], out.stderr[-2000:]))
    return parse(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cram", default="build/bench/cram")
    ap.add_argument("--peer", default="build/bench/peer")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", default="build/bench.json")
    args = ap.parse_args()

    impls = ["cram", "glibc"] + [p for p in PEER_LIBS if find_lib(PEER_LIBS[p])]
    missing = [p for p in PEER_LIBS if p not in impls]
    samples = {i: {} for i in impls}
    peaks = {i: {} for i in impls}
    for r in range(args.rounds):
        order = impls[r % len(impls):] + impls[:r % len(impls)]
        for impl in order:
            for bench, (ns, peak) in run_impl(impl, args.cram, args.peer, args.reps).items():
                samples[impl].setdefault(bench, []).append(ns)
                if peak:
                    peaks[impl][bench] = max(peaks[impl].get(bench, 0), peak)
        print("bench: round %d/%d done" % (r + 1, args.rounds), file=sys.stderr)

    benches = list(samples["glibc"].keys())
    benches += [b for b in samples["cram"] if b not in benches]
    table = {}
    head = "%-22s" % "workload (ns/op)" + "".join("%14s" % i for i in impls)
    print(head + "%14s%10s" % ("best peer", "ratio"))
    for b in benches:
        row = {}
        for i in impls:
            vals = samples[i].get(b)
            if vals:
                med = statistics.median(vals)
                spread = (max(vals) - min(vals)) / med * 100 if med else 0.0
                row[i] = {"median_ns": med, "spread_pct": spread,
                          "samples": vals}
        peers = {i: v["median_ns"] for i, v in row.items() if i != "cram"}
        best = min(peers, key=peers.get) if peers else None
        ratio = (row["cram"]["median_ns"] / peers[best]
                 if best and "cram" in row and peers[best] else None)
        table[b] = {"results": row, "best_peer": best, "ratio": ratio}
        cells = "".join("%14s" % ("%.2f ±%.0f%%" % (row[i]["median_ns"],
                                                   row[i]["spread_pct"])
                                  if i in row else "-") for i in impls)
        print("%-22s%s%14s%10s" % (b, cells, best or "-",
                                   "%.2fx" % ratio if ratio else "-"))
    peak_benches = [b for b in benches if any(b in peaks[i] for i in impls)]
    if peak_benches:
        print()
        print("%-22s" % "peak memory (MiB)" + "".join("%14s" % i for i in impls))
        for b in peak_benches:
            print("%-22s" % b + "".join(
                "%14s" % ("%.1f" % (peaks[i][b] / 1024) if b in peaks[i] else "-")
                for i in impls))
            table[b]["peak_kib"] = {i: peaks[i].get(b) for i in impls}
        print("(memory held at the workload's peak above what the program held at start:")
        print(" pages in use for cram, resident set size for the peers)")
    if missing:
        print("not installed (make deps installs them): " + ", ".join(missing))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"impls": impls, "rounds": args.rounds, "table": table}, f,
                  indent=1)
    print("written: " + args.json)


if __name__ == "__main__":
    main()
