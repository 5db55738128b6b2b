#!/bin/sh
# Make a bootable BIOS ISO with GRUB: mkiso.sh KERNEL_ELF OUT_ISO [CMDLINE]
# The kernel command line is written into grub.cfg, so each command line
# gets its own ISO (about a second to build).
set -eu
elf=$1
out=$2
cmdline=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/boot/grub"
cp "$elf" "$tree/boot/kernel.elf"
CMDLINE=$cmdline python3 "$top/tools/grubcfg.py" "$top/iso/grub.cfg" \
	> "$tree/boot/grub/grub.cfg"
mkdir -p "$(dirname "$out")"
grub-mkrescue -o "$out.tmp" "$tree" >"$out.log" 2>&1 || {
	cat "$out.log" >&2
	echo "mkiso.sh: grub-mkrescue failed" >&2
	exit 1
}
mv "$out.tmp" "$out"
