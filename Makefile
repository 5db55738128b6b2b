# cram: an x86_64 kernel memory subsystem, built two ways.
#
#   build/kernel.elf, build/cram.iso   the kernel, booted by GRUB in QEMU
#   build/host/cram                    the same kernel/, mm/, lib/, tests/,
#                                      bench/ and fuzz/ code as a Linux
#                                      process (arch/host), with ASan and
#                                      UBSan
#
# Run `make help` for the targets and variables.

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
LD := $(CROSS_COMPILE)ld
NM := $(CROSS_COMPILE)nm
OBJCOPY := $(CROSS_COMPILE)objcopy
HOSTCC ?= gcc
PYTHON ?= python3
QEMU ?= qemu-system-x86_64

MEM ?= 128M
SMP ?= 1
# bios (SeaBIOS) or uefi (OVMF); pc or q35.
FIRMWARE ?= bios
MACHINE ?= pc
# NUMA nodes QEMU gives the machine: N[:nomem=K][:A-B=D]... (harness --numa).
NUMA ?=
CMDLINE ?=
QEMU_ARGS ?=
KTEST ?=
TIMEOUT ?= 300
FUZZ_SECONDS ?= 30
FUZZ_SEED ?=
# The lock validator (kernel/lockdep.h): 1 builds it in, 0 leaves the
# locks bare. The benchmark builds always set 0.
LOCKDEP ?= 1
# The most CPUs the kernel is built for (arch/arch.h): 1..255, the xAPIC
# IDs 0..254. Per-CPU data is sized at boot by the CPUs found.
NR_CPUS ?= 64
ifeq ($(shell [ '$(NR_CPUS)' -ge 1 ] 2>/dev/null && [ '$(NR_CPUS)' -le 255 ] && echo ok),)
$(error NR_CPUS=$(NR_CPUS): must be a number from 1 to 255 (xAPIC IDs 0-254))
endif

# KASAN=1: the kernel built with gcc's KASAN instrumentation
# (Documentation/dev-tools/kasan.md), in its own build directory so that
# the ordinary kernel in build/ stays as it is.
KASAN ?= 0
ifeq ($(KASAN),1)
B := build/kasan
else
B := build
endif
HB := $(B)/host

# --- sources ----------------------------------------------------------
# bench/peer.c is a program of its own (the malloc peers), not kernel code.
GENERIC_SRCS := $(wildcard kernel/*.c mm/*.c lib/*.c lib/ktest/*.c \
		  tests/*.c fuzz/*.c) $(filter-out bench/peer.c,$(wildcard bench/*.c))
# x86_64 code that reads firmware formats and touches no CPU state: the
# host build, which models a PC, links it too (and tests it natively).
X86_SHARED_SRCS := arch/x86_64/e820.c arch/x86_64/multiboot2.c arch/x86_64/efi.c \
		   arch/x86_64/acpi.c arch/x86_64/srat.c
# arch/x86_64/kasan.c: the KASAN backend, in KASAN=1 builds only.
ARCH_SRCS := $(filter-out $(if $(filter 1,$(KASAN)),,arch/x86_64/kasan.c), \
	       $(wildcard arch/x86_64/*.c)) $(wildcard arch/x86_64/*.S) \
	     $(wildcard boot/*.S)
# arch/host/libfuzzer.c: only in the libFuzzer build (make fuzz-lf), which
# sets HOST_LIBFUZZER to clang's libFuzzer runtime for the link.
HOST_LIBFUZZER ?=
HOST_ARCH_SRCS := $(filter-out arch/host/libfuzzer.c,$(wildcard arch/host/*.c)) \
		  $(if $(HOST_LIBFUZZER),arch/host/libfuzzer.c)

# --- kernel flags -------------------------------------------------------
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo y)
WARNINGS := -Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes \
	    -Wmissing-prototypes -Wno-missing-field-initializers
KCFLAGS := -std=gnu11 -O2 -g -I. -Iarch/x86_64/include -ffreestanding -fno-builtin -fno-pic -fno-pie \
	   -mcmodel=kernel -mno-red-zone -mno-sse -mno-sse2 -mno-mmx -mno-avx \
	   -mno-80387 -fno-stack-protector -fno-omit-frame-pointer \
	   -fno-strict-aliasing -fno-common -fno-asynchronous-unwind-tables \
	   -DCONFIG_PROVE_LOCKING=$(LOCKDEP) -DCONFIG_NR_CPUS=$(NR_CPUS) $(WARNINGS) \
	   $(EXTRA_CFLAGS)
ifeq ($(IS_CLANG),y)
KCFLAGS += --target=x86_64-pc-none-elf
else
KCFLAGS += -fno-tree-loop-distribute-patterns
endif
# KASAN: generic mode at Linux's x86_64 shadow offset (4-level paging);
# inline checks (the shadow read in place, __asan_report_*() on a bad
# access: 2.5-4x faster than outline calls under TCG, see kasan.md); no
# stack or global redzones. The files that run before the shadow exists
# or that are KASAN's own runtime are not instrumented (Linux's
# KASAN_SANITIZE := n), nor SLAB itself, as Linux's mm/Makefile leaves
# slab.c and slab_common.c (the hooks say what is valid; SLAB's own
# accesses are its metadata); lib/string.c's primitives check their
# range once at entry (mm/kasan.h).
KASAN_SHADOW_OFFSET := 0xdffffc0000000000
KASAN_CFLAGS := -fsanitize=kernel-address \
		-fasan-shadow-offset=$(KASAN_SHADOW_OFFSET) \
		--param asan-instrumentation-with-call-threshold=10000 \
		--param asan-stack=0 --param asan-globals=0
KASAN_SANITIZE_N := arch/x86_64/kasan.c mm/kasan.c mm/kasan_quarantine.c lib/string.c \
		    kernel/stacktrace.c lib/stackdepot.c mm/slab.c mm/slab_common.c
ifeq ($(KASAN),1)
KCFLAGS += -DCONFIG_KASAN
endif
KASFLAGS := -I. -Iarch/x86_64/include -D__ASSEMBLY__ -DCONFIG_NR_CPUS=$(NR_CPUS) -fno-pic $(if $(IS_CLANG),--target=x86_64-pc-none-elf)
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack \
	    --no-warn-rwx-segments -T linker.ld

KOBJS := $(patsubst %.c,$(B)/%.o,$(GENERIC_SRCS) $(filter %.c,$(ARCH_SRCS))) \
	 $(patsubst %.S,$(B)/%.o,$(filter %.S,$(ARCH_SRCS)))

# --- host flags -------------------------------------------------------
SANITIZE ?= -fsanitize=address,undefined -fno-sanitize-recover=all
HOST_OPT ?= -O1
FRAME_POINTER ?= -fno-omit-frame-pointer
HCFLAGS := -std=gnu11 $(HOST_OPT) -g -I. -Iarch/host/include $(FRAME_POINTER) \
	   -fno-strict-aliasing -fno-common $(SANITIZE) \
	   -DCONFIG_PROVE_LOCKING=$(LOCKDEP) -DCONFIG_NR_CPUS=$(NR_CPUS) $(WARNINGS)
# Kernel code in the host build: its own string functions, not libc's.
HOST_IS_CLANG := $(shell $(HOSTCC) --version 2>/dev/null | grep -q clang && echo y)
HKCFLAGS := $(HCFLAGS) -ffreestanding -fno-builtin \
	    $(if $(HOST_IS_CLANG),,-fno-tree-loop-distribute-patterns)
HOBJS := $(patsubst %.c,$(HB)/%.o,$(GENERIC_SRCS) $(X86_SHARED_SRCS))
HARCH_OBJS := $(patsubst %.c,$(HB)/%.o,$(HOST_ARCH_SRCS))

ISO := $(B)/cram.iso
RUN_CMDLINE := $(strip $(CMDLINE))
TEST_CMDLINE := $(strip ktest$(if $(KTEST),=$(KTEST)) $(CMDLINE))
HARNESS := $(PYTHON) tools/testing/harness.py
QEMU_OPTS := --mem $(MEM) --smp $(SMP) $(if $(QEMU_ARGS),--qemu-args='$(QEMU_ARGS)') \
	     --firmware $(FIRMWARE) --machine $(MACHINE) $(if $(NUMA),--numa '$(NUMA)')

.PHONY: FORCE all docs run test-build bench bench-ab bench-kasan bench-icount bench-icount-ab format-check debug test check selftest deps clean help iso host \
	compile_commands.json fuzz compile-checks matrix shim bench-real \
	bench-real-check bench-plot soak

all: $(B)/kernel.elf $(B)/kernel.elf-gdb.py $(ISO)

# --- kernel -------------------------------------------------------------
$(B)/%.o: %.c $(B)/lockdep.conf
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(KCFLAGS) $(if $(filter 1,$(KASAN)),$(if $(filter $<,$(KASAN_SANITIZE_N)),,$(KASAN_CFLAGS))) \
		-MMD -MP -c $< -o $@

$(B)/%.o: %.S $(B)/lockdep.conf
	@mkdir -p $(dir $@)
	@echo "  AS      $@"
	@$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@

# The object lists, rewritten only when they change, so that a deleted
# source file also relinks.
$(B)/kobjs.list $(HB)/hobjs.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(if $(findstring hobjs,$@),$(HOBJS),$(KOBJS))' | cmp -s - $@ || \
		echo '$(if $(findstring hobjs,$@),$(HOBJS),$(KOBJS))' > $@

# The LOCKDEP and NR_CPUS settings (and KASAN's flags and the files it
# leaves alone) the objects were built with: a change rebuilds them (the
# shim's objects: NR_CPUS only, LOCKDEP is always 0).
BUILD_CONF := LOCKDEP=$(LOCKDEP) NR_CPUS=$(NR_CPUS)$(if $(filter 1,$(KASAN)), KASAN_CFLAGS=$(KASAN_CFLAGS) KASAN_SANITIZE_N=$(KASAN_SANITIZE_N))
$(B)/lockdep.conf $(HB)/lockdep.conf: FORCE
	@mkdir -p $(dir $@)
	@echo '$(BUILD_CONF)' | cmp -s - $@ || echo '$(BUILD_CONF)' > $@

# Two link passes: the first image's symbols become the kallsyms table
# linked into the second. The table sits after .text, so no function
# moves; the final check proves it.
$(B)/kernel.pass1.elf: $(KOBJS) linker.ld $(B)/kobjs.list
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS)

$(B)/kallsyms.c: $(B)/kernel.pass1.elf tools/kallsyms.py
	$(NM) -n -S --defined-only $< | $(PYTHON) tools/kallsyms.py > $@

$(B)/kallsyms.o: $(B)/kallsyms.c
	$(CC) $(KCFLAGS) -c $< -o $@

$(B)/kernel.elf: $(KOBJS) $(B)/kallsyms.o linker.ld $(B)/kobjs.list
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms.o
	$(NM) -n -S --defined-only $@ | $(PYTHON) tools/kallsyms.py | cmp -s - $(B)/kallsyms.c || \
		{ echo "kallsyms: text moved between link passes" >&2; rm -f $@; exit 1; }

# The kernel without its tests: the same objects less tests/, fuzz/,
# bench/ and the test framework lib/ktest/, so no boot_run() is linked
# (kernel/params.h) and it boots to the shell. Linked in two passes as
# kernel.elf is; both images' sizes are printed.
NB := $(B)/notest
NOTEST_KOBJS := $(filter-out $(B)/tests/% $(B)/fuzz/% $(B)/bench/% $(B)/lib/ktest/%,$(KOBJS))

$(NB)/kernel.pass1.elf: $(NOTEST_KOBJS) linker.ld $(B)/kobjs.list
	@mkdir -p $(dir $@)
	$(LD) $(KLDFLAGS) -o $@ $(NOTEST_KOBJS)

$(NB)/kallsyms.c: $(NB)/kernel.pass1.elf tools/kallsyms.py
	$(NM) -n -S --defined-only $< | $(PYTHON) tools/kallsyms.py > $@

$(NB)/kallsyms.o: $(NB)/kallsyms.c
	$(CC) $(KCFLAGS) -c $< -o $@

$(B)/kernel-notest.elf: $(NOTEST_KOBJS) $(NB)/kallsyms.o linker.ld $(B)/kobjs.list
	$(LD) $(KLDFLAGS) -o $@ $(NOTEST_KOBJS) $(NB)/kallsyms.o
	$(NM) -n -S --defined-only $@ | $(PYTHON) tools/kallsyms.py | cmp -s - $(NB)/kallsyms.c || \
		{ echo "kallsyms: text moved between link passes" >&2; rm -f $@; exit 1; }

.PHONY: kernel-notest
kernel-notest: $(B)/kernel.elf $(B)/kernel-notest.elf $(B)/kernel-notest.elf-gdb.py
	$(CROSS_COMPILE)size $(B)/kernel.elf $(B)/kernel-notest.elf

# gdb's auto-load file beside each image: it loads the helpers
# (tools/gdb/cram.py, Documentation/dev-tools/gdb.md).
$(B)/%.elf-gdb.py: tools/gdb/cram.py
	@mkdir -p $(dir $@)
	@printf "import gdb\ngdb.execute('source %s')\n" $(abspath $<) > $@

iso: $(ISO)
$(ISO): $(B)/kernel.elf iso/grub.cfg tools/mkiso.sh
	sh tools/mkiso.sh $< $@ '$(RUN_CMDLINE)'

# --- host build -----------------------------------------------------------
$(HB)/arch/host/%.o: arch/host/%.c $(HB)/lockdep.conf
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HCFLAGS) -MMD -MP -c $< -o $@

$(HB)/%.o: %.c $(HB)/lockdep.conf
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HKCFLAGS) -MMD -MP -c $< -o $@
	$(OBJCOPY) --redefine-syms=arch/host/renamed.syms $@

# The kasan suite's bad accesses are reported and come back
# (arch/host/kasan.c); every other file's ASan checks stay fatal.
$(HB)/tests/test_kasan.o: HKCFLAGS += $(if $(findstring address,$(SANITIZE)),-fsanitize-recover=address)

$(HB)/cram.pass1: $(HOBJS) $(HARCH_OBJS) $(HB)/hobjs.list
	$(HOSTCC) $(SANITIZE) -pthread -o $@ $(HOBJS) $(HARCH_OBJS) $(HOST_LIBFUZZER)

$(HB)/kallsyms.c: $(HB)/cram.pass1 tools/kallsyms.py
	$(NM) -n -S --defined-only $< | $(PYTHON) tools/kallsyms.py > $@

# Not instrumented: sanitizer constructors would add text symbols.
$(HB)/kallsyms.o: $(HB)/kallsyms.c
	$(HOSTCC) -std=gnu11 -O1 -I. -Iarch/host/include -c $< -o $@

$(HB)/cram: $(HOBJS) $(HARCH_OBJS) $(HB)/kallsyms.o $(HB)/hobjs.list
	$(HOSTCC) $(SANITIZE) -pthread -o $@ $(HOBJS) $(HARCH_OBJS) $(HB)/kallsyms.o \
		$(HOST_LIBFUZZER)
	$(NM) -n -S --defined-only $@ | $(PYTHON) tools/kallsyms.py | cmp -s - $(HB)/kallsyms.c || \
		{ echo "kallsyms: host text moved between link passes" >&2; rm -f $@; exit 1; }

host: $(HB)/cram

# --- running ------------------------------------------------------------
run: $(B)/kernel.elf
	$(HARNESS) run --kernel $< --cmdline '$(RUN_CMDLINE)' $(QEMU_OPTS) \
		$(if $(GRUB_CFG),--grub-cfg '$(GRUB_CFG)')

debug: $(B)/kernel.elf $(B)/kernel.elf-gdb.py
	$(HARNESS) run --debug --kernel $< --cmdline '$(RUN_CMDLINE)' $(QEMU_OPTS)

# The API headers whose functions carry kernel-doc blocks: checked by
# Linux's scripts/kernel-doc (-v: a missing Return: or short description
# warns too; 6.1's has no -Wall) and by tools/testing/kdoc_coverage.py
# (every function and function-like macro has its block), rendered by
# make docs. scripts/kernel-doc comes from the linux-source package,
# extracted once, as tools/testing/kunit below.
KDOC_HEADERS := mm/slab.h mm/gfp.h mm/vmalloc.h mm/mempool.h mm/util.h mm/mm.h mm/percpu.h \
		kernel/rcupdate.h kernel/workqueue.h
KERNEL_DOC := $(B)/kdoc/scripts/kernel-doc
$(KERNEL_DOC):
	@if [ -f $(KUNIT_TARBALL) ]; then \
		echo "  TAR     $@"; \
		mkdir -p $(B)/kdoc && \
		tar -xJf $(KUNIT_TARBALL) -C $(B)/kdoc --strip-components=1 \
			--wildcards '*/scripts/kernel-doc' && touch $@; \
	fi

# Linux's scripts/checkpatch.pl (and the word lists it reads beside it),
# run by compile-checks over the kernel's sources through
# tools/testing/checkpatch.py, which leaves out the documented exceptions
# (Documentation/process/coding-style.md).
CHECKPATCH := $(B)/kdoc/scripts/checkpatch.pl
CHECKPATCH_SRCS = $(sort $(wildcard kernel/*.[ch] mm/*.[ch] lib/*.[ch] lib/*/*.[ch] \
		  arch/*.[ch] arch/*/*.[ch] arch/*/include/asm/*.h))
$(CHECKPATCH):
	@if [ -f $(KUNIT_TARBALL) ]; then \
		echo "  TAR     $@"; \
		mkdir -p $(B)/kdoc && \
		tar -xJf $(KUNIT_TARBALL) -C $(B)/kdoc --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' && touch $@; \
	fi

# The API reference and the documentation in build/docs/ (tools/docs.py):
# kernel-doc -rst of KDOC_HEADERS, then HTML with Debian's docutils, and
# Documentation/ with its Markdown package (hence /usr/bin/python3, as
# bench-plot); without them the reST and the Markdown as they are.
docs: $(KERNEL_DOC)
	/usr/bin/python3 tools/docs.py --kernel-doc $(KERNEL_DOC) --out $(B)/docs \
		$(KDOC_HEADERS)

# The allocators' headers, checked by compiling tools/testing/compile/
# with the kernel's compiler and flags: the API headers are enough for a
# caller and hide the internals, and the compiler sees the allocation
# functions' sizes (__alloc_size). Then the Markdown links of README.md,
# Documentation/ and bench/ (tools/testing/doc_links.py), the examples
# the documentation shows against the tests that run them
# (tools/testing/doc_examples.py), and the API
# headers' kernel-doc (KDOC_HEADERS above), and checkpatch (CHECKPATCH).
compile-checks: $(KERNEL_DOC) $(CHECKPATCH)
	@$(PYTHON) tools/testing/compile_checks.py --cc '$(CC)' -- $(KCFLAGS)
	@$(PYTHON) tools/testing/doc_links.py
	@$(PYTHON) tools/testing/doc_examples.py
	@$(PYTHON) tools/testing/kdoc_coverage.py $(KDOC_HEADERS)
	@if [ -f $(KERNEL_DOC) ]; then \
		perl $(KERNEL_DOC) -none -v $(KDOC_HEADERS) 2>&1 | grep -v ': info: ' | \
			sed 's/^/kernel-doc: /' | grep . && { echo "kernel-doc: FAILED"; exit 1; }; \
		echo "kernel-doc: $(words $(KDOC_HEADERS)) headers, no warnings"; \
	else \
		echo "kernel-doc: skipped, $(KUNIT_TARBALL) not found (make deps)"; \
	fi
	@if [ -f $(CHECKPATCH) ]; then \
		$(PYTHON) tools/testing/checkpatch.py --checkpatch $(CHECKPATCH) \
			$(CHECKPATCH_SRCS); \
	else \
		echo "checkpatch: skipped, $(KUNIT_TARBALL) not found (make deps)"; \
	fi

comma := ,
empty :=
space := $(empty) $(empty)

# Host-native suites only (ASan/UBSan).
# Deferred struct page init needs a last zone of more than two sections
# (mm/internal.h): the suites that test it run again on the host with
# 1 GiB of RAM, where 768 MiB of it is deferred at boot, and once more
# with the malloc shim's 16 MiB unit (deferred_init=16M).
DEFERRED_HOSTS := --host 'env CRAM_HOST_MEM=1G $(HB)/cram ktest=memory_model,page_alloc' \
		  --host 'env CRAM_HOST_MEM=1G $(HB)/cram deferred_init=16M ktest=memory_model,page_alloc' \
		  --host 'env CRAM_HOST_MEM=1G $(HB)/cram deferred_init=16M ktest=smp.*deferred*' \
		  --host 'env CRAM_HOST_MEM=1G $(HB)/cram ktest=smp'

# Many CPUs on the host: the cross-CPU calls, drains and masks on 64
# CPU threads (nr_cpus=, arch/host/main.c).
MANY_CPU_SUITES := cpumask,smp_call,smp_drain
MANY_CPUS := $(shell [ $(NR_CPUS) -lt 64 ] && echo $(NR_CPUS) || echo 64)
MANY_CPU_HOSTS := --host '$(HB)/cram nr_cpus=$(MANY_CPUS) ktest=$(MANY_CPU_SUITES)'
# The allocators per node on the host (numa=fake=N splits its RAM): the
# page allocator on 2 fake nodes of 2 CPUs and 4 fake nodes of which 2
# have no CPU, each with a deferred part (deferred_init=4M), its own
# suites (page_alloc, page_debug) and the fast paths' copies for several
# nodes stepped (rseq); SLAB on 2 nodes of 2 CPUs and 4 nodes of 2, its
# NUMA suite and the allocator suites.
NUMA_HOST_SUITES := page_alloc_numa,page_alloc,page_debug,memory_model,page_ref,rseq
SLAB_NUMA_HOST_SUITES := slab_numa,slab,slab_stats,slab_contract,kmalloc,reap
NUMA_HOSTS := --host '$(HB)/cram numa=fake=2 nr_cpus=4 ktest=$(NUMA_HOST_SUITES)' \
	      --host '$(HB)/cram numa=fake=4 nr_cpus=2 deferred_init=4M ktest=$(NUMA_HOST_SUITES)' \
	      --host '$(HB)/cram numa=fake=2 nr_cpus=4 ktest=$(SLAB_NUMA_HOST_SUITES)' \
	      --host '$(HB)/cram numa=fake=4 nr_cpus=8 ktest=$(SLAB_NUMA_HOST_SUITES)'

# init_on_alloc=1 and init_on_free=1, one at a time: the meminit suite,
# whose zeroing cases skip without them, and the allocator suites that
# test behaviour (slab and slab_contract also pin SLAB's default layout
# and fast paths, which init_on_free changes: no index array in objects).
MEMINIT_SUITES := meminit,page_alloc,page_ref,kmalloc,vmalloc,mempool
MEMINIT_HOSTS := --host '$(HB)/cram ktest=$(MEMINIT_SUITES) init_on_alloc=1' \
		 --host '$(HB)/cram ktest=$(MEMINIT_SUITES) init_on_free=1'

check: $(HB)/cram compile-checks
	$(HARNESS) --lock-order Documentation/locking/locking.md --host '$(HB)/cram $(TEST_CMDLINE)' $(if $(KTEST),,$(DEFERRED_HOSTS) $(MANY_CPU_HOSTS) $(NUMA_HOSTS) $(MEMINIT_HOSTS))

# Everything: host suites, kernel suites under QEMU, the harness's own tests.
# Beside the main boot (MEM, every suite), more boots check the memory
# model and the allocators at other sizes: 32 MiB, 1 GiB, and 5 GiB (RAM
# above 4 GiB and the PCI hole below it), once under UEFI (OVMF: the EFI
# memory map, with holes GRUB's cutmem and badram cut into it), once on
# q35 at 3 GiB (RAM split at 2 GiB), and that mem= and memmap= shape the
# map. Skipped when KTEST selects tests.
# The 4-CPU boot (the application processors run the smp suite's work,
# its full 10^7 operations: 20 s of TCG on a quiet 2-core host; the bench
# suite runs the scaling cases shortened there, on 1, 2 and 4 CPUs; vmalloc
# checks another CPU loses a freed mapping once the purge has run, and
# vmalloc_torture runs every CPU at once for torture_ms=, 1 s by default;
# kfence catches its faults on x86_64's page tables with 4 CPUs running;
# rseq single-steps SLAB's fast paths with the other CPUs running).
SMP_SUITES := smpboot,acpi_boot,irq,printk,time,smp_call,smp_drain,workqueue,slab,rseq,kmalloc,smp,rcu,rcutorture,reap,bench,pgtable,vmalloc,vmalloc_torture,percpu,kfence,page_ref,stackdepot
SIZE_SUITES := memory_model,page_alloc,slab,slab_contract,kmalloc,acpi_boot
# Two NUMA boots (QEMU builds the SRAT and SLIT): 2 nodes of 2 CPUs, and 4
# nodes of one CPU each, node 3 without memory, with an asymmetric,
# non-uniform SLIT. The numa suite checks the topology against the
# numa_expect= the harness adds; page_alloc_numa the page allocator on
# it, slab_numa SLAB's nodes and alien arrays, page_ref page references
# freed on every node, rseq the fast paths' restartable sequences as
# several nodes build them (each interrupted at every instruction).
NUMA_SUITES := numa,numa_boot,acpi_boot,smpboot,percpu,page_alloc_numa,memory_model,slab_numa,page_ref,rseq
NUMA_4NODES := 4:nomem=3:0-1=15:1-0=25:0-2=30:0-3=40:1-2=18:1-3=22:2-3=12
# The 4-node boot also measures kmalloc_node() per node, local and remote,
# and the cross-node producer/consumer's CPUs and scaling rows (bench).
NUMA_4NODE_SUITES := $(NUMA_SUITES),bench.test_*node*

# The 32-CPU boot (skipped when NR_CPUS is below 32): bring-up, masks,
# cross-CPU calls, drains and grace periods on 32 vCPUs, with a short
# torture; TCG runs 32 vCPUs on the host's cores, so the suites are lean.
MANY_CPU_BOOT_SUITES := smpboot,cpumask,smp_call,smp_drain,rcu,rcutorture
# Each boot names its own QEMU options; the 5 GiB one runs on -cpu max,
# whose 1 GiB pages the direct map then uses. The 4th and 5th arguments
# choose the firmware and the machine (default: FIRMWARE and MACHINE), the
# 6th another GRUB config template, the 7th the number of CPUs (1), the
# 8th the NUMA nodes (harness --numa; none), the 9th another kernel.
boot = --kernel $(or $(9),$(B)/kernel.elf) --mem $(1) --cmdline '$(2)' \
       --qemu-args='$(strip $(3) $(QEMU_ARGS))' \
       --firmware $(or $(4),$(FIRMWARE)) --machine $(or $(5),$(MACHINE)) \
       --grub-cfg '$(6)' --smp $(or $(7),1) --numa '$(8)'
# The debug stages: the allocators again with the debugging options on
# (slab_debug everywhere, page poisoning on the host, where it is cheap),
# and a boot that unmaps free pages (debug_pagealloc; vmalloc there too,
# whose pages come and go from the direct map). The slab_debug boot runs
# on 4 CPUs.
DEBUG_SUITES := slab_debug,slab,kmalloc,page_alloc,page_ref,page_debug,failslab,smp,mempool,kmalloc_util,reclaim,irq,smp_call,smp_drain,rcu,rcutorture,workqueue
# (smp_ops: the smp suite's stress is ~8x slower with every cache debugged.)
DEBUG_CMDLINE := slab_debug debug_objects slab_freelist_random=1 smp_ops=100000
DEBUG_STAGES = --host '$(HB)/cram ktest=$(DEBUG_SUITES) $(DEBUG_CMDLINE) page_poison=on' \
		$(if $(FUZZ_CORPUS),--host '$(HB)/cram fuzzfile=$(subst $(space),$(comma),$(FUZZ_CORPUS)) $(DEBUG_CMDLINE)') \
		$(call boot,$(MEM),ktest=$(DEBUG_SUITES) $(DEBUG_CMDLINE),,,,,4) \
		$(call boot,$(MEM),ktest=page_debug$(comma)slab_debug$(comma)pgtable$(comma)vmalloc debug_pagealloc=on page_poison=on)
# The allocators with slab_stats on (every allocation and free takes the
# slow paths, which count), on the host.
STATS_STAGES = --host '$(HB)/cram ktest=slab,kmalloc,slab_stats,failslab,smp slab_stats'
# The KASAN boot: the kernel built with KASAN=1 (build/kasan/, its own
# objects), the kasan and stackdepot suites and the allocator suites on
# 4 CPUs (20-25 s of TCG).
KASAN_KERNEL := build/kasan/kernel.elf
KASAN_SUITES := kasan,stackdepot,kfence,memory_model,page_alloc,slab,rseq,slab_contract,kmalloc,kmalloc_util,mempool,vmalloc,reap,reclaim,percpu,smp,string
EXTRA_BOOTS := $(call boot,32M,ktest=$(SIZE_SUITES)) \
	       $(call boot,1G,ktest=$(SIZE_SUITES)) \
	       $(call boot,5G,ktest=$(SIZE_SUITES),-cpu max) \
	       $(call boot,128M,ktest=$(SIZE_SUITES),,uefi,,iso/grub-holes.cfg) \
	       $(call boot,3G,ktest=$(SIZE_SUITES),,,q35) \
	       $(call boot,128M,ktest=memory_model$(comma)meminit mem=96M memmap=1M$$0x2000000 init_on_alloc=1 init_on_free=1) \
	       $(call boot,128M,ktest=$(SMP_SUITES) smp_ops=10000000,,,,,4) \
	       $(call boot,128M,ktest=$(NUMA_SUITES),,,,,4,2) \
	       $(call boot,128M,ktest=$(NUMA_4NODE_SUITES),,,,,4,$(NUMA_4NODES)) \
	       $(if $(shell [ $(NR_CPUS) -ge 32 ] && echo y),$(call boot,128M,ktest=$(MANY_CPU_BOOT_SUITES) torture_ms=300,,,,,32)) \
	       $(call boot,128M,ktest=$(KASAN_SUITES),,,,,4,,$(KASAN_KERNEL))
.PHONY: kasan-kernel
kasan-kernel:
	@$(MAKE) --no-print-directory KASAN=1 $(KASAN_KERNEL)
# The fuzzer (host): replay the corpus, then FUZZ_SECONDS of random inputs,
# each written to build/fuzz/test-input.bin before it runs; then 5 s of
# libFuzzer (LF_STAGES, below: the libFuzzer build, skipped with a message
# when clang's runtime is missing).
FUZZ_CORPUS := $(sort $(wildcard fuzz/corpus/*.bin))
FUZZ_STAGES := $(if $(FUZZ_CORPUS),--host '$(HB)/cram fuzzfile=$(subst $(space),$(comma),$(FUZZ_CORPUS))') \
	       --host '$(HB)/cram fuzz=$(FUZZ_SECONDS)' \
	       --host-timeout $(shell expr $(FUZZ_SECONDS) + 120)
# Linux's own KTAP parser reads every stage's log too (the harness
# compares its counts): tools/testing/kunit/ from the linux-source
# package, extracted once. Without the package the harness says the
# check was skipped.
KUNIT_TARBALL := /usr/src/linux-source-6.1.tar.xz
KUNIT_DIR := $(B)/kunit
KUNIT_PY := $(KUNIT_DIR)/tools/testing/kunit/kunit.py
$(KUNIT_PY):
	@if [ -f $(KUNIT_TARBALL) ]; then \
		echo "  TAR     $(KUNIT_DIR)/tools/testing/kunit"; \
		mkdir -p $(KUNIT_DIR) && \
		tar -xJf $(KUNIT_TARBALL) -C $(KUNIT_DIR) --strip-components=1 \
			--wildcards '*/tools/testing/kunit/*' && touch $@; \
	else \
		echo "kunit_parser: $(KUNIT_TARBALL) not found (make deps installs linux-source-6.1)"; \
	fi

# What make test runs, built by a make of its own on every core (NPROC
# jobs unless make was given -j): so a plain `make deps test` installs
# the packages first, then builds in parallel.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test-build: $(B)/kernel.elf $(HB)/cram compile-checks $(KUNIT_PY) bench-real-check \
      $(B)/kernel-notest.elf $(B)/kernel-notest.elf-gdb.py $(if $(KTEST),,fuzz-lf-test-build kasan-kernel)

test:
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) test-build
	@mkdir -p $(B)/fuzz
	CRAM_FUZZ_SAVE=$(B)/fuzz/test-input.bin \
	$(HARNESS) --kunit-parser $(KUNIT_PY) --host '$(HB)/cram $(TEST_CMDLINE)' \
		$(if $(KTEST),,$(DEFERRED_HOSTS) $(MANY_CPU_HOSTS) $(NUMA_HOSTS) $(MEMINIT_HOSTS) $(FUZZ_STAGES) $(LF_STAGES)) \
		$(call boot,$(MEM),$(TEST_CMDLINE),,,,,$(SMP),$(NUMA)) \
		$(if $(KTEST),,$(EXTRA_BOOTS) $(DEBUG_STAGES) $(STATS_STAGES)) \
		--timeout $(TIMEOUT) \
		--lock-order Documentation/locking/locking.md \
		--selftest $(B)/kernel.elf $(if $(KTEST),,--selftest-kasan $(KASAN_KERNEL)) \
		--gdb-check $(B)/kernel-notest.elf

# The torture suites and the fuzzer in QEMU on SMP CPUs (default 4) for
# MINUTES, round after round (tools/testing/soak.py): the operations
# done, and N passed, N failed over every boot.
MINUTES ?= 30
soak: $(B)/kernel.elf $(KUNIT_PY)
	$(PYTHON) tools/testing/soak.py --kernel $< --minutes $(MINUTES) \
		--smp $(if $(filter 1,$(SMP)),4,$(SMP)) --mem $(MEM) \
		$(if $(wildcard $(KUNIT_PY)),--kunit-parser $(KUNIT_PY))

# The allocator suites on every platform: firmware {bios, uefi} x machine
# {pc, q35} x RAM {32M, 128M, 1G, 4G, 16G} on 1 CPU, at 128M on 4 and 16
# CPUs, at 1G on the two NUMA boots' topologies (2 nodes of 2 CPUs, and
# NUMA_4NODES), and every suite at 32M under the BIOS, two QEMUs at a
# time; a table, and build/matrix.json.
matrix: $(B)/kernel.elf
	$(PYTHON) tools/testing/matrix.py --kernel $< --ktest '$(SIZE_SUITES)' \
		--numa 2 '$(NUMA_4NODES)' --numa-ktest '$(NUMA_SUITES)' \
		--json $(B)/matrix.json --timeout $(TIMEOUT) \
		$(if $(QEMU_ARGS),--qemu-args='$(QEMU_ARGS)')

# Fuzz the allocators (host, ASan/UBSan) for FUZZ_SECONDS; the input
# running is always in FUZZ_SAVE, so a crash leaves it there.
FUZZ_SAVE := $(B)/fuzz/last-input.bin
fuzz: $(HB)/cram
	@mkdir -p $(dir $(FUZZ_SAVE))
	@CRAM_FUZZ_SAVE=$(FUZZ_SAVE) $(HB)/cram fuzz=$(FUZZ_SECONDS)$(if $(FUZZ_SEED),$(comma)$(FUZZ_SEED)) || { \
		echo "fuzz: FAILED: the failing input is $(FUZZ_SAVE)"; \
		echo "fuzz: replay it:  $(HB)/cram fuzzfile=$(FUZZ_SAVE)"; \
		echo "fuzz: keep it:    cp $(FUZZ_SAVE) fuzz/corpus/NAME.bin"; \
		exit 1; }

# The same target under libFuzzer (coverage-guided): the host build with
# clang, -fsanitize=fuzzer-no-link,address,undefined, and
# arch/host/libfuzzer.c with clang's libFuzzer runtime (no main(): the
# kernel boots first, then "libfuzzer" hands CPU 0 to libFuzzer), in
# build/fuzz-lf. It fuzzes for SECONDS over the tree's minimised corpus
# fuzz/corpus-lf and fuzz/corpus, new inputs going to LF_CORPUS;
# tools/testing/fuzz_lf.py sums up coverage and executions and fails with
# the saved input on a finding. fuzz-lf-merge minimises fuzz/corpus-lf
# (libFuzzer's -merge=1) with what LF_CORPUS found.
LFB := $(B)/fuzz-lf
LF_CLANG ?= clang
LF_RUNTIME := $(shell $(LF_CLANG) --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer_no_main-x86_64.a
LF_MAKE = $(MAKE) --no-print-directory HB=$(LFB) HOSTCC=$(LF_CLANG) \
	SANITIZE='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all' \
	HOST_LIBFUZZER='$(LF_RUNTIME) -lstdc++'
LF_CORPUS := $(LFB)/corpus
LF_SEEDS := fuzz/corpus-lf $(LFB)/seeds
SECONDS ?= 60
LF_RUN = $(PYTHON) tools/testing/fuzz_lf.py --out $(LFB) --
LF_TEST_CMD := $(LFB)/cram libfuzzer -- -max_total_time=5 -runs=100000 \
	-artifact_prefix=$(LFB)/test- $(LFB)/test-corpus $(LF_SEEDS)

.PHONY: fuzz-lf fuzz-lf-build fuzz-lf-merge fuzz-lf-test-build
fuzz-lf-build:
	@[ -f '$(LF_RUNTIME)' ] || { echo "fuzz-lf: clang's libFuzzer runtime not found ($(LF_RUNTIME)): apt-get install clang"; exit 1; }
	$(LF_MAKE) $(LFB)/cram
	@rm -rf $(LFB)/seeds && mkdir -p $(LFB)/seeds && cp $(FUZZ_CORPUS) $(LFB)/seeds/

fuzz-lf: fuzz-lf-build
	@mkdir -p $(LF_CORPUS)
	$(LF_RUN) $(LFB)/cram libfuzzer -- -max_total_time=$(SECONDS) \
		-artifact_prefix=$(LFB)/ -print_final_stats=1 $(LF_CORPUS) $(LF_SEEDS)

fuzz-lf-merge: fuzz-lf-build
	rm -rf $(LFB)/merged && mkdir -p $(LFB)/merged $(LF_CORPUS)
	$(LFB)/cram libfuzzer -- -merge=1 $(LFB)/merged $(LF_SEEDS) $(LF_CORPUS)
	rm -f fuzz/corpus-lf/* && cp $(LFB)/merged/* fuzz/corpus-lf/
	@echo "fuzz-lf-merge: fuzz/corpus-lf holds $$(ls fuzz/corpus-lf | wc -l) inputs"

# make test's libFuzzer stage: built when clang's runtime is there.
fuzz-lf-test-build:
	@if [ -f '$(LF_RUNTIME)' ]; then \
		$(LF_MAKE) $(LFB)/cram && rm -rf $(LFB)/test-corpus $(LFB)/seeds && \
		mkdir -p $(LFB)/test-corpus $(LFB)/seeds && \
		cp $(FUZZ_CORPUS) $(LFB)/seeds/; \
	else \
		echo "fuzz-lf: skipped in make test, clang's libFuzzer runtime not found ($(LF_RUNTIME)): apt-get install clang"; \
	fi
LF_STAGES = $(if $(wildcard $(LF_RUNTIME)),--host '$(LF_TEST_CMD)')

# Benchmarks: the host build at -O2 without sanitizers or frame pointers
# (as a production kernel built with Linux's ORC unwinder would run),
# beside the same workloads on glibc, jemalloc, mimalloc and tcmalloc.
# The lock validator is off there (LOCKDEP=0): the fast paths as shipped.
BB := $(B)/bench
BENCH_ROUNDS ?= 5
BENCH_REPS ?= 3
$(BB)/peer: bench/peer.c bench/workloads.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -I. -Wall -Wextra -Werror -pthread -o $@ $<

# The host build as the benchmarks run it, and BASELINE's (a worktree
# in build/baseline) for the A/B comparisons.
BENCH_MAKE = $(MAKE) --no-print-directory HB=$(BB) HOST_OPT=-O2 SANITIZE= \
	FRAME_POINTER=-fomit-frame-pointer LOCKDEP=0
define BENCH_BASELINE
rm -rf $(B)/baseline && git worktree prune && \
	git worktree add --detach $(B)/baseline $(BASELINE)
$(subst HB=$(BB),HB=build/bench,$(BENCH_MAKE)) -C $(B)/baseline build/bench/cram
endef

bench: $(BB)/peer shim
	$(BENCH_MAKE) host
	$(PYTHON) bench/run.py --cram $(BB)/cram --peer $(BB)/peer \
		--shim $(BB)/libcram-malloc.so --rounds $(BENCH_ROUNDS) --reps $(BENCH_REPS)
	$(MAKE) --no-print-directory bench-plot

# The picture of build/bench.json: build/bench.png (bench/plot.py needs
# Debian's python3-matplotlib, hence /usr/bin/python3, not PYTHON).
bench-plot:
	/usr/bin/python3 bench/plot.py --json $(B)/bench.json --out $(B)/bench.png

# The malloc shims (bench/shim/): libcram-malloc.so is the generic kernel
# code (no tests, no shell) built -fPIC at -O2 without sanitizers, with
# LOCKDEP=0, behind malloc and friends; libempty-malloc.so forwards the
# same entry points to glibc (what the interposition costs by itself).
SB := $(BB)/shim
SHIM_KSRCS := $(filter-out kernel/main.c kernel/shell.c,$(wildcard kernel/*.c)) \
	      lib/string.c lib/vsprintf.c lib/stackdepot.c $(wildcard mm/*.c) \
	      arch/x86_64/e820.c
SHIM_CFLAGS := -std=gnu11 -O2 -g -flto -fno-semantic-interposition -I. \
	       -Iarch/host/include -fomit-frame-pointer -fno-strict-aliasing \
	       -fno-common -fPIC -fvisibility=hidden -DCONFIG_PROVE_LOCKING=0 \
	       -DCONFIG_NR_CPUS=$(NR_CPUS) \
	       '-DHOST_TLS_MODEL="initial-exec"' -DHOST_NO_IRQS=1 $(WARNINGS)
SHIM_KOBJS := $(patsubst %.c,$(SB)/%.o,$(SHIM_KSRCS))
SHIM_OBJS := $(SHIM_KOBJS) $(SB)/arch/host/mm.o $(SB)/arch/host/irq.o \
	     $(SB)/bench/shim/cram_malloc.o
SHIM_LDFLAGS := -shared -pthread -Wl,-z,defs -Wl,--version-script=bench/shim/exports.map
SHIM_LTOFLAGS := -O2 -flto=2 -fno-semantic-interposition

$(SHIM_KOBJS): $(SB)/%.o: %.c $(SB)/renamed.h $(SB)/nr_cpus.conf
	@mkdir -p $(dir $@)
	@echo "  SHIMCC  $@"
	@$(HOSTCC) $(SHIM_CFLAGS) -ffreestanding -fno-builtin -include $(SB)/renamed.h \
		$(if $(HOST_IS_CLANG),,-fno-tree-loop-distribute-patterns) -MMD -MP -c $< -o $@

# LTO objects hold no symbols to rename: the kernel's string functions
# get their k-names from the preprocessor instead (objcopy does it for
# the host build). Calls the compiler makes up itself (a struct copy's
# memcpy) go to libc's, which the shim links anyway.
$(SB)/renamed.h: arch/host/renamed.syms
	@mkdir -p $(dir $@)
	awk '{ print "#define " $$1 " " $$2 }' $< > $@

$(SB)/nr_cpus.conf: FORCE
	@mkdir -p $(dir $@)
	@echo 'NR_CPUS=$(NR_CPUS)' | cmp -s - $@ || echo 'NR_CPUS=$(NR_CPUS)' > $@
$(SB)/arch/host/mm.o: arch/host/mm.c $(SB)/nr_cpus.conf
$(SB)/arch/host/irq.o: arch/host/irq.c $(SB)/nr_cpus.conf
$(SB)/bench/shim/cram_malloc.o: bench/shim/cram_malloc.c $(SB)/nr_cpus.conf
$(SB)/arch/host/mm.o $(SB)/arch/host/irq.o $(SB)/bench/shim/cram_malloc.o:
	@mkdir -p $(dir $@)
	@echo "  SHIMCC  $@"
	@$(HOSTCC) $(SHIM_CFLAGS) -MMD -MP -c $< -o $@

$(BB)/libcram-malloc.so: $(SHIM_OBJS) bench/shim/exports.map
	$(HOSTCC) $(SHIM_LTOFLAGS) $(SHIM_LDFLAGS) -o $@ $(SHIM_OBJS)

$(BB)/libempty-malloc.so: bench/shim/empty_malloc.c bench/shim/libc_malloc.h \
		bench/shim/exports.map
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -fPIC $(WARNINGS) $(SHIM_LDFLAGS) -o $@ $<

$(BB)/libcount-malloc.so: bench/shim/count_malloc.c bench/shim/libc_malloc.h \
		bench/shim/exports.map
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -fPIC $(WARNINGS) $(SHIM_LDFLAGS) -o $@ $<

$(BB)/shim_test: bench/real/shim_test.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -g $(WARNINGS) -pthread -o $@ $<

shim: $(BB)/libcram-malloc.so $(BB)/libempty-malloc.so

# The shim's correctness test (no timing, a few seconds): shim_test,
# python3 with libcram-malloc.so preloaded, and each real program's
# malloc calls counted (libcount-malloc.so: its memory goes through
# malloc; the threaded one frees across threads).
bench-real-check: shim $(BB)/shim_test $(BB)/libcount-malloc.so
	$(PYTHON) bench/real/check.py --shim $(BB)/libcram-malloc.so \
		--empty $(BB)/libempty-malloc.so --test $(BB)/shim_test \
		--count $(BB)/libcount-malloc.so

# Real programs (python3, sqlite3, gcc, lua5.4, perl, threaded python3)
# with each allocator as their malloc; a table and
# build/bench-real.json (bench/real/run.py).
BENCH_REAL_ROUNDS ?= 3
bench-real: shim bench-real-check
	$(PYTHON) bench/real/run.py --shim $(BB)/libcram-malloc.so \
		--empty $(BB)/libempty-malloc.so --rounds $(BENCH_REAL_ROUNDS)

# The allocators of this tree against those of BASELINE (a commit), built
# the same way, run alternately: what a change costs the fast paths.
BASELINE ?= HEAD
BENCH_GLOB ?= *
BENCH_CMDLINE ?=
bench-ab:
	$(BENCH_MAKE) $(BB)/cram
	$(BENCH_BASELINE)
	$(PYTHON) bench/ab.py $(B)/baseline/build/bench/cram $(BB)/cram \
		--glob '$(BENCH_GLOB)' --rounds $(BENCH_ROUNDS) --reps $(BENCH_REPS) \
		--cmdline '$(BENCH_CMDLINE)'
	git worktree remove --force $(B)/baseline

# KASAN's cost: the in-kernel bench in the KASAN=1 kernel against the
# plain one, booted alternately under QEMU, cycles per operation and
# their ratio (bench/kasan_cost.py); two rounds, a full bench boot takes
# a minute or two of TCG. Then the KASAN boot's suites as a whole
# workload, wall time in each kernel.
bench-kasan: $(B)/kernel.elf kasan-kernel
	$(PYTHON) bench/kasan_cost.py --plain $(B)/kernel.elf \
		--kasan $(KASAN_KERNEL) --glob '$(BENCH_GLOB)' --rounds 2 \
		--suites $(KASAN_SUITES)

# Instructions per operation of every one-thread row, for cram and the
# peers, under valgrind (bench/icount.py): counts that do not move with
# machine load. bench-icount-ab: the same for this tree against BASELINE.
bench-icount: $(BB)/peer
	$(BENCH_MAKE) $(BB)/cram
	$(PYTHON) bench/icount.py --cram $(BB)/cram --peer $(BB)/peer \
		--glob '$(BENCH_GLOB)'

bench-icount-ab:
	$(BENCH_MAKE) $(BB)/cram
	$(BENCH_BASELINE)
	$(PYTHON) bench/icount.py --ab $(B)/baseline/build/bench/cram \
		$(BB)/cram --glob '$(BENCH_GLOB)' --cmdline '$(BENCH_CMDLINE)'
	git worktree remove --force $(B)/baseline

# clang-format (.clang-format, Linux's style) on the lines changed since
# FORMAT_BASE (default HEAD: what is not committed yet): its diff, and a
# failure if it would change any. The whole tree is not clang-formatted
# (hand-aligned tables and comments); checkpatch in make check is the
# enforced check.
FORMAT_BASE ?= HEAD
format-check:
	@out=$$(git clang-format --diff --extensions c,h $(FORMAT_BASE) -- \
		kernel mm lib arch tests bench fuzz 2>&1); \
	echo "$$out"; \
	if echo "$$out" | grep -q '^diff --git'; then \
		echo "format-check: clang-format would change the lines above"; exit 1; \
	fi

# --- tools --------------------------------------------------------------
DEPS := gcc binutils make python3 grub-pc-bin grub-common xorriso mtools \
	qemu-system-x86 libjemalloc2 libmimalloc2.0 libtcmalloc-minimal4 \
	grub-efi-amd64-bin ovmf linux-source-6.1 sqlite3 valgrind time \
	python3-matplotlib gdb python3-docutils python3-markdown clang-format \
	lua5.4 perl \
	clang
deps:
	@missing=$$(for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	else \
		echo "deps: all installed"; \
	fi

compile_commands.json:
	$(PYTHON) tools/compile_commands.py '$(CC) $(KCFLAGS)' $(GENERIC_SRCS) \
		$(filter %.c,$(ARCH_SRCS)) > $@

clean:
	rm -rf $(B) compile_commands.json

help:
	@echo "targets: all (default) kernel-notest run debug test check compile-checks docs matrix soak fuzz fuzz-lf fuzz-lf-merge bench bench-ab bench-kasan bench-icount bench-icount-ab bench-plot bench-real bench-real-check shim deps clean iso host compile_commands.json"
	@echo "variables: KASAN=0|1 MEM=$(MEM) SMP=$(SMP) FIRMWARE=$(FIRMWARE) MACHINE=$(MACHINE) NUMA= CMDLINE= QEMU_ARGS= KTEST=glob CC= CROSS_COMPILE= TIMEOUT=$(TIMEOUT) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED= SECONDS=$(SECONDS) (fuzz-lf) LOCKDEP=$(LOCKDEP) NR_CPUS=$(NR_CPUS) MINUTES=$(MINUTES) (soak)"

-include $(KOBJS:.o=.d) $(HOBJS:.o=.d) $(HARCH_OBJS:.o=.d) $(SHIM_OBJS:.o=.d)
