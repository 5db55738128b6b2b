#!/usr/bin/env python3
"""Fill the kernel command line into the GRUB config template.

Usage: grubcfg.py TEMPLATE < /dev/null, with the command line in $CMDLINE.
GRUB's script syntax expands $ and removes quotes and backslashes, so
those are escaped: the kernel sees the command line exactly as given.
"""
import os
import sys


def grub_escape(text):
    for ch in ("\\", "$", '"', "'"):
        text = text.replace(ch, "\\" + ch)
    return text


if __name__ == "__main__":
    template = open(sys.argv[1]).read()
    sys.stdout.write(template.replace("@CMDLINE@",
                                      grub_escape(os.environ["CMDLINE"])))
