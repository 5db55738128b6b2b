#!/usr/bin/env python3
"""The malloc shims' correctness check (make bench-real-check).

Runs bench/real/shim_test (built by make) with libcram-malloc.so
preloaded, which must find the kernel's arena mapped and every check
passing, and with libempty-malloc.so; then a small Python program under
each shim, whose output must equal its output without one. No timing:
a few seconds. Exits non-zero on the first failure.
"""
import argparse
import os
import subprocess
import sys

PY_PROGRAM = ("import json; d = {str(i): [i] * (i % 7) for i in range(20000)}; "
              "print(sum(range(10)), len(json.dumps(d)))")


def run(cmd, preload=None, extra_env=None):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = os.path.abspath(preload)
    env.update(extra_env or {})
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=120)


def fail(what, out):
    sys.exit("bench-real-check: FAILED: %s (exit %d)\n%s%s" %
             (what, out.returncode, out.stdout[-2000:], out.stderr[-2000:]))


# What each real program must do through malloc at its small input:
# allocations, and for the threaded one frees across threads (a lower
# bound: libcount-malloc.so's "cross").
MIN_ALLOCS = 10000
MIN_CROSS = {"threads": 10000}


def check_counts(args):
    """Each bench-real program, small input, under libcount-malloc.so."""
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import programs  # noqa: E402
    tmp = tempfile.mkdtemp(prefix="bench-real-check-")
    opts = argparse.Namespace(python=args.python, python_scale=0.1,
                              sqlite_rows=2000)
    for name, (argv, env_add, stdin) in programs(opts, tmp, True).items():
        out_file = os.path.join(tmp, name + ".count")
        env = dict(env_add, COUNT_MALLOC_OUT=out_file)
        fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
        env_all = dict(os.environ)
        env_all.pop("LD_PRELOAD", None)
        env_all.update(env)
        env_all["LD_PRELOAD"] = os.path.abspath(args.count)
        out = subprocess.run(argv, env=env_all, stdin=fin,
                             capture_output=True, timeout=300)
        if stdin:
            fin.close()
        if out.returncode != 0 or not os.path.exists(out_file):
            fail("%s under %s" % (name, args.count), out)
        allocs = cross = 0
        with open(out_file) as f:
            for line in f:      # one line per process (gcc runs cc1)
                v = line.split()
                allocs += int(v[1])
                cross += int(v[5])
        if allocs < MIN_ALLOCS or cross < MIN_CROSS.get(name, 0):
            sys.exit("bench-real-check: FAILED: %s made %d allocations "
                     "(at least %d expected), %d frees across threads "
                     "(at least %d expected)" %
                     (name, allocs, MIN_ALLOCS, cross, MIN_CROSS.get(name, 0)))
        print("bench-real-check: %s: %d allocations, %d frees across "
              "threads" % (name, allocs, cross))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shim", required=True)
    ap.add_argument("--empty", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--count", help="libcount-malloc.so: check that each "
                    "real program allocates through malloc")
    args = ap.parse_args()

    for name, lib, expect in (("cram", args.shim, "cram"),
                              ("empty", args.empty, "")):
        out = run([args.test], lib, {"SHIM_TEST_EXPECT": expect})
        if out.returncode != 0 or out.stdout.strip() != "ok":
            fail("shim_test under %s" % lib, out)
        print("bench-real-check: shim_test under %s: ok" % name)

    ref = run([args.python, "-c", PY_PROGRAM])
    if ref.returncode != 0:
        fail("python3 without a shim", ref)
    for name, lib in (("cram", args.shim), ("empty", args.empty)):
        out = run([args.python, "-c", PY_PROGRAM], lib,
                  {"PYTHONMALLOC": "malloc"})
        if out.returncode != 0 or out.stdout != ref.stdout:
            fail("python3 under %s: %r, expected %r" %
                 (lib, out.stdout, ref.stdout), out)
        print("bench-real-check: python3 under %s: same output" % name)
    if args.count:
        check_counts(args)
    print("bench-real-check: all passed")


if __name__ == "__main__":
    main()
