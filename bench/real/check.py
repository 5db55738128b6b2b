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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shim", required=True)
    ap.add_argument("--empty", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
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
    print("bench-real-check: all passed")


if __name__ == "__main__":
    main()
