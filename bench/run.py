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

The scaling rows (scale_<workload>_t<K>) run one workload on K threads
at once, every thread doing the same work, for K = 1, 2 and the CPUs
this process may use (once each: on a 2-CPU machine the all-CPU rows are
the t2 rows).

The shim table runs scale_larson on SHIM_THREADS (16) threads through
bench/peer.c under each peer and under cram's malloc shim
(libcram-malloc.so: kmalloc and kfree, a CPU of the host build per
thread up to NR_CPUS - 1): the same program, only the preloaded
allocator differs. On a machine with fewer CPUs the threads take turns,
which is part of what it measures (a lock held by a thread that is not
running).

The xnode_ rows (marked *) are cram's producer/consumer across NUMA
nodes: a second run of the host build with numa=fake=2 and only those
cases, producers on node 0's CPUs, consumers on node 1's, so every object
is freed on the other node (the alien caches). The other rows run
without nodes, as before. The peers have no nodes: their xnode_ rows are
the same workload on 2 (K) threads. Their ns/op is the wall time over all threads' operations;
a second table shows the throughput and the scaling efficiency,
ops/s(tK) / (K x ops/s(t1)): 100% is perfect, 1/K (50% at K = 2) is no
gain from the extra CPUs.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

PEER_LIBS = {
    "jemalloc": "libjemalloc.so.2",
    "mimalloc": "libmimalloc.so.2",
    "tcmalloc": "libtcmalloc_minimal.so.4",
}
LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
NR_CPUS = 8         # the host build's CPU threads by default (arch/host/main.c)
SCALE_ROW = re.compile(r"^(scale_.+)_t(\d+)$")
XNODE = "xnode_"    # the cross-node rows: cram on numa=fake=2
SHIM_THREADS = 16   # the malloc shim's Larson run


def find_lib(name):
    for d in LIB_DIRS:
        hits = glob.glob(os.path.join(d, name))
        if hits:
            return hits[0]
    return None


def parse(output):
    """BENCH lines: name -> (ns per op, peak KiB or 0); BENCH_SCALE
    lines: name -> ops per CPU-second."""
    results, per_cpu_s = {}, {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "BENCH":
            peak = int(parts[4]) if len(parts) >= 5 else 0
            results[parts[1]] = (float(parts[2]), peak)
        elif len(parts) >= 6 and parts[0] == "BENCH_SCALE":
            per_cpu_s[parts[1]] = float(parts[5])
    return results, per_cpu_s


def scale_threads():
    """The scaling rows' widest run: the CPUs this process may use."""
    return max(1, min(len(os.sched_getaffinity(0)), NR_CPUS))


def run_cmd(name, cmd, env):
    out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        sys.exit("bench: %s failed (%d):\n%s%s" %
                 (name, out.returncode, out.stdout[-2000:], out.stderr[-2000:]))
    return parse(out.stdout)


def run_impl(name, cram, peer, reps, threads):
    env = dict(os.environ)
    if name != "cram":
        if name in PEER_LIBS:
            env["LD_PRELOAD"] = find_lib(PEER_LIBS[name])
        return run_cmd(name, [peer, "*", str(reps), str(threads)], env)
    env["CRAM_HOST_MEM"] = "2G"
    cmd = [cram, "bench_reps=%d" % reps, "bench_smp=0",
           "bench_cpus=%d" % threads]
    # One node, as ever (the xnode cases skip themselves), then the xnode
    # cases alone on two nodes: the other rows stay comparable.
    results, per_cpu_s = run_cmd(name, cmd + ["bench"], env)
    xresults, xper_cpu_s = run_cmd(name, cmd + ["bench=*%s*" % XNODE,
                                                "numa=fake=2"], env)
    results.update(xresults)
    per_cpu_s.update(xper_cpu_s)
    return results, per_cpu_s


def run_shim_larson(args, peers):
    """{impl: [ns/op of scale_larson_t<SHIM_THREADS>, one per round]}, the
    peers and cram's shim interleaved as the main table's rounds are."""
    row = "scale_larson_t%d" % SHIM_THREADS
    libs = {"cram": os.path.abspath(args.shim)}
    libs.update({p: find_lib(PEER_LIBS[p]) for p in peers if p in PEER_LIBS})
    impls = ["cram"] + peers
    samples = {i: [] for i in impls}
    for r in range(args.rounds):
        for impl in impls[r % len(impls):] + impls[:r % len(impls)]:
            env = dict(os.environ)
            if impl in libs:
                env["LD_PRELOAD"] = libs[impl]
            results, _ = run_cmd(impl, [args.peer, "scale_larson",
                                        str(args.reps), str(SHIM_THREADS)],
                                 env)
            if row not in results:
                sys.exit("bench: %s printed no %s" % (impl, row))
            samples[impl].append(results[row][0])
    return samples


def print_shim_larson(samples):
    """The shim's table; returns it for the JSON."""
    med = {i: statistics.median(v) for i, v in samples.items()}
    peers = {i: v for i, v in med.items() if i != "cram"}
    best = min(peers, key=peers.get)
    print()
    print("%-28s" % ("malloc shim, %d threads" % SHIM_THREADS) +
          "".join("%14s" % i for i in med) + "%14s%10s%12s" %
          ("best peer", "ratio", "/tcmalloc"))
    tc = med.get("tcmalloc")
    print("%-28s" % ("scale_larson_t%d (ns/op)" % SHIM_THREADS) +
          "".join("%14.2f" % med[i] for i in med) +
          "%14s%10s%12s" % (best, "%.2fx" % (med["cram"] / peers[best]),
                            "%.2fx" % (med["cram"] / tc) if tc else "-"))
    print("(bench/peer.c under each allocator preloaded; cram: "
          "libcram-malloc.so)")
    return {"threads": SHIM_THREADS, "samples": samples, "median_ns": med,
            "best_peer": best, "ratio": med["cram"] / peers[best],
            "ratio_tcmalloc": med["cram"] / tc if tc else None}


def add_scaling(table, cpu_samples, impls):
    """Throughput and efficiency of the scale_*_tK rows, into table:
    over the wall time from the median ns/op, and per CPU-second from the
    median of the rounds' BENCH_SCALE figures."""
    rows = []
    for b in table:
        m = SCALE_ROW.match(b)
        if m:
            rows.append((b, m.group(1), int(m.group(2))))
    for b, family, k in rows:
        t1 = "%s_t1" % family
        base = table.get(t1, {}).get("results", {})
        sc = {"workload": family, "threads": k, "ops_per_s": {},
              "efficiency": {}, "ops_per_cpu_s": {}, "cpu_efficiency": {}}
        for i, r in table[b]["results"].items():
            if r["median_ns"]:
                sc["ops_per_s"][i] = 1e9 / r["median_ns"]
                if i in base and base[i]["median_ns"]:
                    sc["efficiency"][i] = (sc["ops_per_s"][i] /
                                           (k * 1e9 / base[i]["median_ns"]))
            cpu = cpu_samples.get(i, {})
            if cpu.get(b):
                sc["ops_per_cpu_s"][i] = statistics.median(cpu[b])
                if cpu.get(t1):
                    sc["cpu_efficiency"][i] = (sc["ops_per_cpu_s"][i] /
                                               statistics.median(cpu[t1]))
        table[b]["scaling"] = sc
    return [b for b, _, _ in rows]


def print_scaling(table, cpu_samples, impls, threads):
    rows = add_scaling(table, cpu_samples, impls)
    if not rows:
        return
    print()
    print("%-28s" % "scaling: Mops/s eff cpu-eff" +
          "".join("%20s" % i for i in impls))
    for b in rows:
        sc = table[b]["scaling"]
        cells = []
        for i in impls:
            if i not in sc["efficiency"]:
                cells.append("-")
                continue
            cpu_eff = sc["cpu_efficiency"].get(i)
            cells.append("%.1f %3.0f%% %s" % (
                sc["ops_per_s"][i] / 1e6, sc["efficiency"][i] * 100,
                "%3.0f%%" % (cpu_eff * 100) if cpu_eff else "-"))
        print("%-28s" % (b + ("*" if XNODE in b else "")) +
              "".join("%20s" % c for c in cells))
    print("(Mops/s: all threads' operations over the wall time; eff = "
          "ops/s(tK) / (K x ops/s(t1)),")
    print(" 100% is perfect scaling, 50% at K = 2 no gain from the second CPU;"
          " cpu-eff = operations")
    print(" per CPU-second of tK / those of t1, which leaves out the time other"
          " work held the CPUs;")
    print(" spinning waits for the other thread count as CPU time)")
    if threads <= 2:
        print("this process may use %d CPU%s (nproc), so the all-CPU rows are "
              "the t%d rows" % (threads, "" if threads == 1 else "s", threads))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cram", default="build/bench/cram")
    ap.add_argument("--peer", default="build/bench/peer")
    ap.add_argument("--shim", default="build/bench/libcram-malloc.so")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", default="build/bench.json")
    args = ap.parse_args()
    threads = scale_threads()

    impls = ["cram", "glibc"] + [p for p in PEER_LIBS if find_lib(PEER_LIBS[p])]
    missing = [p for p in PEER_LIBS if p not in impls]
    samples = {i: {} for i in impls}
    cpu_samples = {i: {} for i in impls}
    peaks = {i: {} for i in impls}
    for r in range(args.rounds):
        order = impls[r % len(impls):] + impls[:r % len(impls)]
        for impl in order:
            results, per_cpu_s = run_impl(impl, args.cram, args.peer,
                                          args.reps, threads)
            for bench, ops in per_cpu_s.items():
                cpu_samples[impl].setdefault(bench, []).append(ops)
            for bench, (ns, peak) in results.items():
                samples[impl].setdefault(bench, []).append(ns)
                if peak:
                    peaks[impl][bench] = max(peaks[impl].get(bench, 0), peak)
        print("bench: round %d/%d done" % (r + 1, args.rounds), file=sys.stderr)

    benches = list(samples["glibc"].keys())
    benches += [b for b in samples["cram"] if b not in benches]
    table = {}
    head = "%-28s" % "workload (ns/op)" + "".join("%14s" % i for i in impls)
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
        print("%-28s%s%14s%10s" % (b + ("*" if XNODE in b else ""),
                                   cells, best or "-",
                                   "%.2fx" % ratio if ratio else "-"))
    peak_benches = [b for b in benches if any(b in peaks[i] for i in impls)]
    if peak_benches:
        print()
        print("%-28s" % "peak memory (MiB)" + "".join("%14s" % i for i in impls))
        for b in peak_benches:
            print("%-28s" % b + "".join(
                "%14s" % ("%.1f" % (peaks[i][b] / 1024) if b in peaks[i] else "-")
                for i in impls))
            table[b]["peak_kib"] = {i: peaks[i].get(b) for i in impls}
        print("(memory held at the workload's peak above what the program held at start:")
        print(" pages in use for cram, resident set size for the peers)")
    print_scaling(table, cpu_samples, impls, threads)
    shim = print_shim_larson(run_shim_larson(
        args, [i for i in impls if i != "cram"]))
    if any(XNODE in b for b in benches):
        print()
        print("*: xnode_ rows: cram booted with numa=fake=2, producers on CPUs "
              "of node 0, consumers")
        print(" on CPUs of node 1, every object freed on the other node (the "
              "alien caches); the")
        print(" t1 row is one thread alone on node 0. The peers have no nodes: "
              "the same workload on")
        print(" 2 (K) threads, as producer_consumer_2cpu and "
              "scale_producer_consumer")
    if missing:
        print("not installed (make deps installs them): " + ", ".join(missing))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"impls": impls, "rounds": args.rounds,
                   "scale_threads": threads, "table": table,
                   "shim_larson": shim}, f, indent=1)
    print("written: " + args.json)


if __name__ == "__main__":
    main()
