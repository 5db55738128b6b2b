#!/bin/sh
# Make a bootable ISO with GRUB: mkiso.sh KERNEL_ELF OUT_ISO [CMDLINE]
# The kernel command line is written into grub.cfg, so each command line
# gets its own ISO (about a second to build). grub-mkrescue puts in every
# GRUB platform installed: i386-pc (grub-pc-bin) boots it under a legacy
# BIOS, x86_64-efi (grub-efi-amd64-bin) under UEFI, from the same ISO.
# GRUB_CFG=FILE uses another template (e.g. one with cutmem/badram).
set -eu
elf=$1
out=$2
cmdline=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
grub_lib=${GRUB_LIB:-/usr/lib/grub}
for platform in i386-pc x86_64-efi; do
	[ -d "$grub_lib/$platform" ] ||
		echo "mkiso.sh: warning: no GRUB $platform (make deps installs it)" >&2
done
mkdir -p "$tree/boot/grub"
cp "$elf" "$tree/boot/kernel.elf"
CMDLINE=$cmdline python3 "$top/tools/grubcfg.py" "${GRUB_CFG:-$top/iso/grub.cfg}" \
	> "$tree/boot/grub/grub.cfg"
mkdir -p "$(dirname "$out")"
grub-mkrescue -o "$out.tmp" "$tree" >"$out.log" 2>&1 || {
	cat "$out.log" >&2
	echo "mkiso.sh: grub-mkrescue failed" >&2
	exit 1
}
mv "$out.tmp" "$out"
