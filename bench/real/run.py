#!/usr/bin/env python3
"""Real programs with each allocator as their malloc (make bench-real).

Six programs from Debian packages run with each allocator preloaded in
turn: glibc (nothing preloaded), "empty" (libempty-malloc.so: the shim's
interposition forwarding to glibc, what LD_PRELOAD costs by itself),
jemalloc, mimalloc, tcmalloc (when installed) and cram
(libcram-malloc.so: kmalloc). The programs:

  python  python3 bench/real/objects.py under PYTHONMALLOC=malloc
  sqlite  sqlite3 :memory: reading a generated script (inserts, indexes,
          joins, aggregates, updates, deletes)
  gcc     gcc -O3 -g -S of tests/test_page_alloc.c (the driver and cc1
          both preloaded)
  lua     lua5.4 bench/real/alloc.lua (binary trees, strings, tables;
          Lua allocates through realloc/free)
  perl    perl bench/real/alloc.pl (hashes of arrays, strings, sort)
  threads python3 bench/real/threads.py under PYTHONMALLOC=malloc: two
          producer threads, two consumers, nearly every object freed by
          another thread than the one that allocated it

make bench-real-check shows, with every call to malloc counted
(libcount-malloc.so), that each program's memory goes through malloc
and that threads frees across threads.

Each round runs every (program, allocator) pair once, the allocators in
an order that rotates by round. Per run: wall time, CPU time (user+sys)
from wait4() (the program's whole process tree), peak RSS (of the
largest process) through GNU time (/usr/bin/time, package "time"). A program's stdout must equal
glibc's byte for byte, or the run fails. cram's paired ratio is its wall
time over the best peer's (glibc, jemalloc, mimalloc, tcmalloc) in the
same round (and the same in CPU time, steadier when the machine is
busy); the table shows medians over the rounds.

Instruction counts come from valgrind --tool=cachegrind (which, unlike
memcheck, leaves malloc alone, so the preloaded allocator is the one
counted), run once per pair on smaller inputs (python scale 0.1, sqlite
2000 rows, gcc on lib/string.c) since cachegrind runs some 50x slower.
Results go to build/bench-real.json. Measurements on a shared machine:
noisy, not pass/fail, except the output comparison.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PEER_LIBS = {
    "jemalloc": "libjemalloc.so.2",
    "mimalloc": "libmimalloc.so.2",
    "tcmalloc": "libtcmalloc_minimal.so.4",
}
LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
PEERS = ["glibc", "jemalloc", "mimalloc", "tcmalloc"]
GCC_FLAGS = ["-std=gnu11", "-O3", "-g", "-I.", "-Iarch/x86_64/include",
             "-ffreestanding", "-fno-builtin", "-DCONFIG_PROVE_LOCKING=0",
             "-DCONFIG_NR_CPUS=64",
             "-mcmodel=kernel", "-mno-red-zone", "-mno-sse", "-mno-mmx",
             "-fno-pic", "-S", "-o", "-"]


def find_lib(name):
    for d in LIB_DIRS:
        hits = glob.glob(os.path.join(d, name))
        if hits:
            return hits[0]
    return None


def sqlite_script(rows):
    """A deterministic SQL workload of about rows inserts and queries."""
    out = ["PRAGMA cache_size = -65536;",
           "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);",
           "CREATE TABLE u(id INTEGER PRIMARY KEY, tid INTEGER, tag TEXT);",
           "BEGIN;"]
    x = 12345
    for i in range(rows):
        x = (x * 1103515245 + 12345) % (1 << 31)
        out.append("INSERT INTO t VALUES(%d, %d, 'name-%d-%s', %d.%02d);" %
                   (i, x % 1000, x % 7919, "x" * (x % 50), x % 10000, x % 100))
        if i % 2 == 0:
            out.append("INSERT INTO u VALUES(%d, %d, 'tag%d');" %
                       (i, x % rows, x % 97))
    out += ["COMMIT;",
            "CREATE INDEX t_a ON t(a);",
            "CREATE INDEX t_b ON t(b);",
            "CREATE INDEX u_tid ON u(tid);",
            "SELECT a, count(*), sum(c) FROM t GROUP BY a ORDER BY 2 DESC, 1 LIMIT 10;",
            "SELECT u.tag, count(*), max(t.b) FROM u JOIN t ON t.id = u.tid "
            "GROUP BY u.tag ORDER BY 1 LIMIT 10;",
            "SELECT count(DISTINCT b), group_concat(substr(b, 1, 9), ',') "
            "FROM (SELECT b FROM t WHERE a < 20 ORDER BY b LIMIT 200);",
            "UPDATE t SET b = b || '-updated', c = c * 2 WHERE a % 3 = 0;",
            "DELETE FROM t WHERE a % 5 = 1;",
            "SELECT count(*), sum(length(b)), printf('%.2f', sum(c)) FROM t;",
            "SELECT b FROM t ORDER BY b DESC LIMIT 5;"]
    return "\n".join(out) + "\n"


def programs(args, tmp, small):
    """name -> (argv, env additions, stdin path or None)."""
    script = os.path.join(tmp, "sqlite-%s.sql" % ("small" if small else "full"))
    with open(script, "w") as f:
        f.write(sqlite_script(2000 if small else args.sqlite_rows))
    return {
        "python": ([args.python, "bench/real/objects.py",
                    "0.1" if small else str(args.python_scale)],
                   {"PYTHONMALLOC": "malloc"}, None),
        "sqlite": (["sqlite3", ":memory:"], {}, script),
        "gcc": (["gcc"] + GCC_FLAGS +
                ["lib/string.c" if small else "tests/test_page_alloc.c"], {}, None),
        "lua": (["lua5.4", "bench/real/alloc.lua", "0.1" if small else "1"],
                {}, None),
        "perl": (["perl", "bench/real/alloc.pl", "0.1" if small else "1"],
                 {}, None),
        "threads": ([args.python, "bench/real/threads.py",
                     "0.1" if small else "1"],
                    {"PYTHONMALLOC": "malloc"}, None),
    }


def run_once(argv, env_add, stdin, preload, wrap=None):
    """Run one program; returns (stdout bytes, wall s, cpu s, maxrss KiB, rc)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.update(env_add)
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    # GNU time in between, for the peak RSS: a child forked from this
    # (big) Python process would count the parent's pages it had before
    # exec in its own ru_maxrss. The allocator is preloaded into the
    # program only, not into time itself (env sets LD_PRELOAD after it),
    # or every run would also pay for one more allocator start-up; every
    # allocator, glibc included, goes through the same env.
    fd, rss_file = tempfile.mkstemp(prefix="rss-")
    os.close(fd)
    launcher = ["/usr/bin/time", "-q", "-f", "%M", "-o", rss_file,
                "/usr/bin/env"] + (["LD_PRELOAD=" + preload] if preload else [])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(launcher + (wrap or []) + argv, env=env,
                             stdin=fin, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        rc = os.waitstatus_to_exitcode(status)
        if stdin:
            fin.close()
        out.seek(0)
        err.seek(0)
        data, errs = out.read(), err.read()
    with open(rss_file) as f:
        text = f.read().split()
    os.unlink(rss_file)
    if rc != 0:
        sys.exit("bench-real: %s (LD_PRELOAD=%s) failed with %d:\n%s" %
                 (" ".join(argv), preload, rc,
                  errs.decode(errors="replace")[-2000:]))
    return data, wall, ru.ru_utime + ru.ru_stime, int(text[-1])


def instructions(argv, env_add, stdin, preload, tmp):
    """Instructions executed (all processes) under cachegrind."""
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        os.unlink(f)
    wrap = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
            "--trace-children=yes",
            "--cachegrind-out-file=" + os.path.join(tmp, "cg.%p")]
    data = run_once(argv, env_add, stdin, preload, wrap)[0]
    total = 0
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        with open(f) as fh:
            for line in fh:
                if line.startswith("summary:"):
                    total += int(line.split()[1])
    return data, total


def fmt_ratio(r):
    return "%.2fx" % r if r else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shim", default="build/bench/libcram-malloc.so")
    ap.add_argument("--empty", default="build/bench/libempty-malloc.so")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--python-scale", type=float, default=1.0)
    ap.add_argument("--sqlite-rows", type=int, default=60000)
    ap.add_argument("--no-cachegrind", action="store_true")
    ap.add_argument("--only", help="comma-separated programs")
    ap.add_argument("--json", default="build/bench-real.json")
    args = ap.parse_args()

    preload = {"glibc": None, "empty": os.path.abspath(args.empty),
               "cram": os.path.abspath(args.shim)}
    for name, lib in PEER_LIBS.items():
        path = find_lib(lib)
        if path:
            preload[name] = path
    impls = [i for i in ["glibc", "empty", "jemalloc", "mimalloc",
                         "tcmalloc", "cram"] if i in preload]
    peers = [i for i in PEERS if i in impls]
    started = time.time()
    tmp = tempfile.mkdtemp(prefix="bench-real-")
    progs = programs(args, tmp, small=False)
    if args.only:
        progs = {k: v for k, v in progs.items() if k in args.only.split(",")}
    samples = {p: {i: [] for i in impls} for p in progs}
    paired = {p: [] for p in progs}
    paired_cpu = {p: [] for p in progs}
    failed = []

    for r in range(args.rounds):
        order = impls[r % len(impls):] + impls[:r % len(impls)]
        for prog, (argv, env_add, stdin) in progs.items():
            walls, cpus = {}, {}
            runs = {}
            for impl in order:
                runs[impl] = run_once(argv, env_add, stdin, preload[impl])
            ref = runs["glibc"][0]
            for impl in order:
                data, wall, cpu, rss = runs[impl]
                if data != ref:
                    failed.append("%s under %s (round %d)" % (prog, impl, r + 1))
                samples[prog][impl].append({"wall_s": wall, "cpu_s": cpu,
                                            "maxrss_kib": rss})
                walls[impl] = wall
                cpus[impl] = cpu
            paired[prog].append(walls["cram"] / min(walls[i] for i in peers))
            paired_cpu[prog].append(cpus["cram"] / min(cpus[i] for i in peers))
        print("bench-real: round %d/%d done" % (r + 1, args.rounds),
              file=sys.stderr)

    instr = {p: {} for p in progs}
    if not args.no_cachegrind:
        small = programs(args, tmp, small=True)
        for prog in progs:
            argv, env_add, stdin = small[prog]
            ref = None
            for impl in impls:
                data, n = instructions(argv, env_add, stdin, preload[impl], tmp)
                ref = data if impl == "glibc" else ref
                if ref is not None and data != ref:
                    failed.append("%s under %s (cachegrind)" % (prog, impl))
                instr[prog][impl] = n
            print("bench-real: cachegrind %s done" % prog, file=sys.stderr)

    table = {}
    print("%-8s %-9s %10s %10s %12s %14s %8s" %
          ("program", "malloc", "wall s", "cpu s", "peak RSS MiB",
           "instructions", "vs best"))
    for prog in progs:
        rows = {}
        for impl in impls:
            s = samples[prog][impl]
            rows[impl] = {
                "wall_s": statistics.median(x["wall_s"] for x in s),
                "cpu_s": statistics.median(x["cpu_s"] for x in s),
                "maxrss_kib": statistics.median(x["maxrss_kib"] for x in s),
                "instructions": instr[prog].get(impl),
                "samples": s,
            }
        best_peer = min(peers, key=lambda i: rows[i]["wall_s"])
        med = statistics.median(paired[prog])
        med_cpu = statistics.median(paired_cpu[prog])
        table[prog] = {"results": rows, "best_peer": best_peer,
                       "paired_ratios": paired[prog],
                       "median_paired_ratio": med,
                       "paired_cpu_ratios": paired_cpu[prog],
                       "median_paired_cpu_ratio": med_cpu}
        for impl in impls:
            row = rows[impl]
            ratio = row["wall_s"] / rows[best_peer]["wall_s"]
            print("%-8s %-9s %10.3f %10.3f %12.1f %14s %8s" %
                  (prog, impl, row["wall_s"], row["cpu_s"],
                   row["maxrss_kib"] / 1024,
                   "{:,}".format(row["instructions"]) if row["instructions"] else "-",
                   fmt_ratio(ratio)))
        print("%-8s cram / best peer (%s), paired per round: median %.2fx "
              "[%s] (target <= 1.0: %s)" %
              (prog, best_peer, med,
               " ".join("%.2f" % x for x in paired[prog]),
               "met" if med <= 1.0 else "not met"))
        print("%-8s the same in CPU time: median %.2fx [%s]" %
              (prog, med_cpu, " ".join("%.2f" % x for x in paired_cpu[prog])))
        if all(rows[i]["instructions"] for i in peers + ["cram"]):
            best_i = min(rows[i]["instructions"] for i in peers)
            print("%-8s instructions (small input): cram / fewest peer %.2fx" %
                  (prog, rows["cram"]["instructions"] / best_i))
        print()
    missing = [p for p in PEER_LIBS if p not in impls]
    if missing:
        print("not installed (make deps installs them): " + ", ".join(missing))
    elapsed = time.time() - started
    print("bench-real: %d rounds, %.0f s" % (args.rounds, elapsed))
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"impls": impls, "peers": peers, "rounds": args.rounds,
                   "seconds": elapsed, "table": table,
                   "output_mismatches": failed}, f, indent=1)
    print("written: " + args.json)
    if failed:
        sys.exit("bench-real: FAILED: output differs from glibc's: " +
                 "; ".join(failed))


if __name__ == "__main__":
    main()
