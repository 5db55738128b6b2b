// SPDX-License-Identifier: GPL-2.0
/*
 * The IDT and the exception handler.
 *
 * Every CPU exception is fatal in this kernel but one: a page fault at
 * one of arch_probe_kernel_access()'s instructions (entry_64.S), which
 * is reported in a few lines and resumes at the probe's fixup, and one
 * in KFENCE's pool, which KFENCE reports and lets the access retry
 * (mm/kfence.h). Else
 * do_exception() prints the vector and its name, the error code, CR2
 * for a page fault, all registers and the call chain (frame pointers,
 * with symbol names), then ends the QEMU run with a failure status.
 * Double fault, NMI and machine check run on IST stacks of their own
 * (see gdt.c), so even a blown kernel stack is reported. The report
 * starts with panic_begin(), which stops the other CPUs first, unless
 * the NMI was that stop itself (nmi.c). A page fault on a free page that
 * debug_pagealloc took out of the direct map names that page; one in the
 * vmalloc window names the area (mm/vmalloc.c). Vectors 0x20-0xff go to
 * the interrupt stubs (entry_64.S, irq.c).
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "mm/kfence.h"
#include "mm/page_debug.h"
#include "mm/vmalloc.h"
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "kernel/report.h"

#define NR_EXCEPTIONS	32
#define IDT_ENTRIES	256
#define GATE_INTERRUPT	0x8e	/* present, ring 0, 64-bit interrupt gate */

struct idt_entry {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

struct idt_desc {
	u16 limit;
	u64 base;
} __packed;

#define IRQ_STUB_SIZE	16

extern const unsigned long exception_stubs[NR_EXCEPTIONS];
extern const char irq_entries_start[], irq_entries_end[];

static struct idt_entry idt[IDT_ENTRIES] __aligned(16);

static const char *const exception_names[NR_EXCEPTIONS] = {
	[0] = "#DE Divide Error",
	[1] = "#DB Debug",
	[2] = "NMI",
	[3] = "#BP Breakpoint",
	[4] = "#OF Overflow",
	[5] = "#BR Bound Range Exceeded",
	[6] = "#UD Invalid Opcode",
	[7] = "#NM Device Not Available",
	[8] = "#DF Double Fault",
	[9] = "Coprocessor Segment Overrun",
	[10] = "#TS Invalid TSS",
	[11] = "#NP Segment Not Present",
	[12] = "#SS Stack-Segment Fault",
	[13] = "#GP General Protection",
	[14] = "#PF Page Fault",
	[16] = "#MF x87 Floating-Point Error",
	[17] = "#AC Alignment Check",
	[18] = "#MC Machine Check",
	[19] = "#XM SIMD Floating-Point",
	[20] = "#VE Virtualization",
	[21] = "#CP Control Protection",
	[28] = "#HV Hypervisor Injection",
	[29] = "#VC VMM Communication",
	[30] = "#SX Security",
};

static void set_gate(int vector, unsigned long handler, int ist)
{
	struct idt_entry *e = &idt[vector];

	e->offset_low = handler & 0xffff;
	e->selector = KERNEL_CS;
	e->ist = (u8)ist;
	e->type_attr = GATE_INTERRUPT;
	e->offset_mid = (handler >> 16) & 0xffff;
	e->offset_high = (u32)(handler >> 32);
	e->reserved = 0;
}

/* Load the IDT on this CPU (each AP in start_secondary()). */
void idt_load(void)
{
	struct idt_desc desc = { .limit = sizeof(idt) - 1, .base = (u64)idt };

	__asm__ __volatile__("lidt %0" : : "m"(desc));
}

void idt_init(void)
{

	for (int v = 0; v < NR_EXCEPTIONS; v++) {
		int ist = v == 8 ? IST_DF : v == 2 ? IST_NMI :
			  v == 18 ? IST_MC : 0;

		set_gate(v, exception_stubs[v], ist);
	}
	BUILD_BUG_ON(NR_EXCEPTIONS != 0x20);
	BUG_ON(irq_entries_end - irq_entries_start !=
	       (IDT_ENTRIES - NR_EXCEPTIONS) * IRQ_STUB_SIZE);
	for (int v = NR_EXCEPTIONS; v < IDT_ENTRIES; v++)
		set_gate(v, (unsigned long)irq_entries_start +
			    (unsigned long)(v - NR_EXCEPTIONS) * IRQ_STUB_SIZE,
			 0);
	idt_load();
}

/* Page fault error code bits, decoded for the report. */
static void print_pf_reason(unsigned long error)
{
	pr_emerg("#PF: %s %s access in %s mode\n",
		 error & 0x1 ? "protection violation on a" : "not-present page,",
		 error & 0x10 ? "instruction fetch" : error & 0x2 ? "write" : "read",
		 error & 0x4 ? "user" : "kernel");
}

/* The report's first line, naming what lies at addr if anything does. */
static void print_pf_address(unsigned long addr)
{
	unsigned long pfn;
	char what[160];

	if (debug_pagealloc_fault(addr, &pfn))
		pr_emerg("BUG: unable to handle page fault for address: %016lx (debug_pagealloc: pfn 0x%lx is free)\n",
			 addr, pfn);
	else if (vmalloc_fault_describe(addr, what, sizeof(what)))
		pr_emerg("BUG: unable to handle page fault for address: %016lx (%s)\n",
			 addr, what);
	else
		pr_emerg("BUG: unable to handle page fault for address: %016lx\n",
			 addr);
}

extern const char probe_read_insn[], probe_write_insn[], probe_exec_ret[],
	probe_fixup[];

/*
 * A page fault arch_probe_kernel_access() expected: report it without
 * the registers, and resume at probe_fixup. The exec probe's fault is
 * at the target, with the call's return address on top of the stack.
 */
static bool probe_fault_fixup(struct pt_regs *regs)
{
	unsigned long addr = read_cr2();
	bool exec = (regs->error_code & 0x10) && regs->rip == addr &&
		    *(unsigned long *)regs->rsp == (unsigned long)probe_exec_ret;

	if (regs->rip != (unsigned long)probe_read_insn &&
	    regs->rip != (unsigned long)probe_write_insn && !exec)
		return false;
	report_kind(REPORT_PAGE_FAULT);
	print_pf_address(addr);
	print_pf_reason(regs->error_code);
	pr_emerg("probe: the fault was expected, resuming\n");
	if (exec)
		regs->rsp += 8;
	regs->rip = (unsigned long)probe_fixup;
	return true;
}

static void print_regs(const struct pt_regs *regs)
{
	pr_emerg("RIP: %04lx:%016lx %pS\n", regs->cs, regs->rip,
		 (void *)regs->rip);
	pr_emerg("RSP: %04lx:%016lx EFLAGS: %08lx\n", regs->ss,
		 regs->rsp, regs->rflags);
	pr_emerg("RAX: %016lx RBX: %016lx RCX: %016lx\n",
		 regs->rax, regs->rbx, regs->rcx);
	pr_emerg("RDX: %016lx RSI: %016lx RDI: %016lx\n",
		 regs->rdx, regs->rsi, regs->rdi);
	pr_emerg("RBP: %016lx R08: %016lx R09: %016lx\n",
		 regs->rbp, regs->r8, regs->r9);
	pr_emerg("R10: %016lx R11: %016lx R12: %016lx\n",
		 regs->r10, regs->r11, regs->r12);
	pr_emerg("R13: %016lx R14: %016lx R15: %016lx\n",
		 regs->r13, regs->r14, regs->r15);
	pr_emerg("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
		 read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

/* arch_single_step()'s hook on each CPU, and its debug trap. */
struct single_step {
	bool (*step)(unsigned long *ip, void *data);
	void *data;
};

static struct single_step single_steps[NR_CPUS];

void arch_single_step(void (*fn)(void *arg), void *arg,
		      bool (*step)(unsigned long *ip, void *data), void *data)
{
	struct single_step *ss = &single_steps[arch_cpu_id()];

	WARN_ON_ONCE(ss->step);
	ss->data = data;
	WRITE_ONCE(ss->step, step);
	__asm__ __volatile__("pushfq; orq %0, (%%rsp); popfq"
			     : : "i"(X86_EFLAGS_TF) : "memory", "cc");
	fn(arg);
	__asm__ __volatile__("pushfq; andq %0, (%%rsp); popfq"
			     : : "i"(~X86_EFLAGS_TF) : "memory", "cc");
	WRITE_ONCE(ss->step, NULL);
}

/* #DB with the trap flag: the hook's, or nobody's (fatal). */
static bool single_step_trap(struct pt_regs *regs)
{
	struct single_step *ss = &single_steps[arch_cpu_id()];

	if (!ss->step)
		return false;
	if (!ss->step(&regs->rip, ss->data))
		regs->rflags &= ~X86_EFLAGS_TF;
	return true;
}

void do_exception(struct pt_regs *regs)
{
	unsigned long v = regs->vector;
	const char *name = v < NR_EXCEPTIONS && exception_names[v] ?
			   exception_names[v] : "reserved";

	if (v == 2)
		x86_nmi_stop();		/* returns only if it was not that */
	if (v == 1 && single_step_trap(regs))
		return;
	if (v == 14 && kfence_handle_page_fault(read_cr2(),
						regs->error_code & 0x2,
						regs->rip, regs->rbp))
		return;			/* reported; the access is retried */
	if (v == 14 && probe_fault_fixup(regs))
		return;
	if (!panic_begin()) {
		pr_emerg("CPU exception %lu (%s) inside the panic\n",
			 v, name);
		arch_exit(ARCH_EXIT_FAILURE);
	}
	pr_emerg("CPU exception %lu (%s), error code 0x%lx\n", v, name,
		 regs->error_code);
	if (v == 14) {
		print_pf_address(read_cr2());
		print_pf_reason(regs->error_code);
	}
	if (v == 13)
		x86_kasan_gp_hint(regs);
	print_regs(regs);
	show_stack(regs->rip, regs->rbp);
	pr_emerg("---[ end trace: fatal exception %lu ]---\n", v);
	arch_exit(ARCH_EXIT_FAILURE);
}
