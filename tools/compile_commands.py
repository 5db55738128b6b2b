#!/usr/bin/env python3
"""Write compile_commands.json (for clangd and other editors) to stdout.

Usage: compile_commands.py 'CC FLAGS...' SOURCE...
Every source gets the same kernel compiler command, run from the repo root.
"""
import json
import os
import shlex
import sys


def main():
    cc = shlex.split(sys.argv[1])
    root = os.getcwd()
    entries = [{
        "directory": root,
        "file": os.path.join(root, src),
        "arguments": cc + ["-c", src, "-o", "/dev/null"],
    } for src in sys.argv[2:]]
    json.dump(entries, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
