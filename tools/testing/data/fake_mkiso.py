"""Stand-in for tools/mkiso.sh used by test_harness.py.

Usage: fake_mkiso.py KERNEL OUT_ISO CMDLINE.  The "ISO" is a text file that
holds the command line, which fake_qemu.py reads back to pick a scenario.
A kernel path containing 'broken' makes the build fail.
"""
import sys

kernel, iso, cmdline = sys.argv[1:4]
if 'broken' in kernel:
    sys.stderr.write('mkiso: grub-mkrescue failed\n')
    sys.exit(2)
with open(iso, 'w', encoding='utf-8') as out:
    out.write(cmdline + '\n')
