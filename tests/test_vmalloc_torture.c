// SPDX-License-Identifier: GPL-2.0
/*
 * vmalloc on every CPU at once, for torture_ms= (tests/torture.h) in
 * rounds of at most TORTURE_ROUND_MS.
 *
 * A round has four phases, the CPUs meeting at a barrier after each:
 *
 *  1. Churn. Each CPU vmallocs (now and then vzallocs, checked zero) and
 *     vmaps pages of its own into slots, fills them with a pattern and
 *     checks the pattern before each free. A free is a vfree()/vunmap()
 *     of its own, a vfree() with interrupts off (the work item frees
 *     it), or a hand-over to the next CPU through a single-producer,
 *     single-consumer ring: that CPU checks and frees it, now and then
 *     with interrupts off too. Every few operations a vm_unmap_aliases().
 *     All the while each CPU reads every CPU's victim, an area allocated
 *     for the round, so every TLB holds it.
 *  2. The victims are freed: by their CPU or its neighbour, with
 *     interrupts on or (waiting for the work item) off; vmalloc or vmap.
 *  3. Every CPU purges with vm_unmap_aliases() at once, and as soon as
 *     its own returns probes two victims' old addresses: each must be
 *     unmapped and must fault (no area is allocated in this phase, so
 *     none can have been reused). CPU 0 counts the fault reports.
 *  4. Back to churning.
 *
 * At the end every slot and ring is freed, the deferred frees are
 * waited for, and the window's counters and free space must be what
 * they were. Every wait is bounded: a CPU that does not reach a barrier
 * in TORTURE_WAIT_NS fails the case and ends it on every CPU.
 */
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/vmalloc.h"
#include "tests/torture.h"

#define TORTURE_ROUND_MS	250UL
#define TORTURE_WAIT_NS		(30ULL * 1000 * 1000 * 1000)
#define TORTURE_SLOTS		24
#define TORTURE_RING		16
#define TORTURE_MAX_PAGES	4	/* a vmap's pages */
#define TORTURE_PURGE_EVERY	256	/* steps between purges */
#define TORTURE_PROBES		2	/* victims each CPU probes a round */
/*
 * Steps each CPU churns a round however late it gets there: on a busy
 * host the CPUs may all meet only after torture_ms() has passed.
 */
#define TORTURE_MIN_STEPS	64

enum vt_kind { VT_NONE, VT_VMALLOC, VT_VMAP };

struct vt_area {
	enum vt_kind kind;
	u8 *addr;
	unsigned long size;		/* bytes the pattern covers */
	unsigned long stamp;
	unsigned int nr_pages;
	struct page *pages[TORTURE_MAX_PAGES];	/* VT_VMAP: ours to free */
};

struct vt_ring {
	struct vt_area item[TORTURE_RING];
	unsigned long head __aligned(64);	/* written by the producer */
	unsigned long tail __aligned(64);	/* written by the consumer */
};

/* One CPU's state and results; CPU 0 reads them after the join. */
struct vt_cpu {
	unsigned int cpu;
	u64 rng;
	struct vt_ring *out, *in;
	struct vt_area slot[TORTURE_SLOTS];
	bool done_producing;		/* this round's last item is out */
	unsigned long steps;
	unsigned long ops;		/* allocations and frees */
	unsigned long handed, irqs_off_frees, purges;
	unsigned long failed;		/* allocations that returned NULL */
	unsigned long bad;		/* patterns or zeroes found wrong */
	unsigned long still_mapped;	/* freed victims the walk still finds */
	unsigned long probe_ok;		/* freed victims a probe could read */
	unsigned long probes;
} __aligned(64);

struct vt_barrier {
	unsigned int count;
	unsigned int gen;
};

static struct vt_cpu vt_cpus[NR_CPUS];
static struct vt_ring vt_rings[NR_CPUS];
static struct vt_area vt_victim[NR_CPUS];
static unsigned long vt_victim_addr[NR_CPUS];	/* where it was */
static struct vt_barrier vt_barrier;
static unsigned int vt_nr;
static u64 vt_deadline;
static volatile bool vt_abort;
static volatile bool vt_more;	/* CPU 0: another round follows */
static struct ktest *vt_test;	/* CPU 0's, for the capture windows */
static unsigned long vt_rounds, vt_window_hits;
static unsigned long vt_window_other;	/* other reports in the windows */

/* Wait (bounded) until all vt_nr CPUs are here; false: give up, abort. */
static bool vt_barrier_wait(void)
{
	unsigned int gen = __atomic_load_n(&vt_barrier.gen, __ATOMIC_ACQUIRE);
	u64 deadline = arch_clock_ns() + TORTURE_WAIT_NS;
	unsigned int spins = 0;

	if (__atomic_add_fetch(&vt_barrier.count, 1, __ATOMIC_ACQ_REL) == vt_nr) {
		__atomic_store_n(&vt_barrier.count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&vt_barrier.gen, gen + 1, __ATOMIC_RELEASE);
		return !vt_abort;
	}
	while (__atomic_load_n(&vt_barrier.gen, __ATOMIC_ACQUIRE) == gen) {
		if (vt_abort || (!(++spins & 255) && arch_clock_ns() > deadline)) {
			if (!vt_abort)
				pr_err("vmalloc_torture: CPU %u waited %llu s at a barrier\n",
				       smp_processor_id(), TORTURE_WAIT_NS / 1000000000ULL);
			vt_abort = true;
			return false;
		}
		arch_cpu_relax();
	}
	return !vt_abort;
}

static u8 vt_byte(unsigned long stamp, unsigned long off)
{
	return (u8)((stamp >> 3) ^ stamp ^ (off * 13));
}

/* A byte every 61 and the last: enough to see a page mixed up. */
static void vt_fill(const struct vt_area *a)
{
	for (unsigned long off = 0; off < a->size; off += 61)
		a->addr[off] = vt_byte(a->stamp, off);
	a->addr[a->size - 1] = vt_byte(a->stamp, a->size - 1);
}

static bool vt_intact(const struct vt_area *a)
{
	for (unsigned long off = 0; off < a->size; off += 61)
		if (a->addr[off] != vt_byte(a->stamp, off))
			return false;
	return a->addr[a->size - 1] == vt_byte(a->stamp, a->size - 1);
}

/* 1 byte to 4 pages mostly, now and then up to 64 pages. */
static unsigned long vt_size(struct vt_cpu *vc)
{
	if (!prandom_below(&vc->rng, 32))
		return 1 + prandom_below(&vc->rng, 64 * PAGE_SIZE);
	return 1 + prandom_below(&vc->rng, 4 * PAGE_SIZE);
}

static bool vt_vmap(struct vt_cpu *vc, struct vt_area *a)
{
	a->nr_pages = 1 + (unsigned int)prandom_below(&vc->rng, TORTURE_MAX_PAGES);
	for (unsigned int i = 0; i < a->nr_pages; i++) {
		a->pages[i] = alloc_page(GFP_KERNEL);
		if (!a->pages[i]) {
			while (i--)
				__free_page(a->pages[i]);
			return false;
		}
	}
	a->addr = vmap(a->pages, a->nr_pages, 0, PAGE_KERNEL);
	if (!a->addr) {
		for (unsigned int i = 0; i < a->nr_pages; i++)
			__free_page(a->pages[i]);
		return false;
	}
	a->size = (unsigned long)a->nr_pages << PAGE_SHIFT;
	a->kind = VT_VMAP;
	return true;
}

/* A new area in a: vmalloc, vzalloc (checked zero) or vmap. */
static void vt_alloc(struct vt_cpu *vc, struct vt_area *a, bool allow_vmap)
{
	unsigned int sel = (unsigned int)prandom_below(&vc->rng, 10);

	a->stamp = prandom_u64(&vc->rng);
	a->kind = VT_NONE;
	vc->ops++;
	if (sel < 3 && allow_vmap) {
		if (!vt_vmap(vc, a))
			vc->failed++;
	} else {
		a->size = vt_size(vc);
		a->addr = sel == 9 ? vzalloc(a->size) : vmalloc(a->size);
		if (!a->addr) {
			vc->failed++;
			return;
		}
		if (sel == 9)
			vc->bad += a->addr[0] || a->addr[a->size - 1] ||
				   a->addr[a->size / 2];
		a->kind = VT_VMALLOC;
	}
	if (a->kind != VT_NONE)
		vt_fill(a);
}

/* Check a and free it: with interrupts off if irqs_off (vmalloc only). */
static void vt_free(struct vt_cpu *vc, struct vt_area *a, bool irqs_off)
{
	unsigned long flags;

	if (a->kind == VT_NONE)
		return;
	vc->bad += !vt_intact(a);
	vc->ops++;
	if (a->kind == VT_VMALLOC && irqs_off) {
		local_irq_save(flags);
		vfree(a->addr);
		local_irq_restore(flags);
		vc->irqs_off_frees++;
	} else if (a->kind == VT_VMALLOC) {
		vfree(a->addr);
	} else {
		vunmap(a->addr);
		for (unsigned int i = 0; i < a->nr_pages; i++)
			__free_page(a->pages[i]);
	}
	a->kind = VT_NONE;
}

static bool vt_produce(struct vt_cpu *vc, struct vt_area *a)
{
	struct vt_ring *r = vc->out;
	unsigned long head = r->head;

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= TORTURE_RING)
		return false;
	r->item[head % TORTURE_RING] = *a;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	a->kind = VT_NONE;
	vc->handed++;
	return true;
}

static bool vt_consume(struct vt_cpu *vc)
{
	struct vt_ring *r = vc->in;
	unsigned long tail = r->tail;

	if (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == tail)
		return false;
	vt_free(vc, &r->item[tail % TORTURE_RING],
		!prandom_below(&vc->rng, 4));
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	return true;
}

/* Read a byte of every CPU's victim: its translation in this TLB. */
static void vt_touch_victims(struct vt_cpu *vc)
{
	for (unsigned int c = 0; c < vt_nr; c++)
		if (vt_victim[c].kind != VT_NONE && vt_victim[c].addr[0] !=
		    vt_byte(vt_victim[c].stamp, 0))
			vc->bad++;
}

/* One operation on a random slot. */
static void vt_step(struct vt_cpu *vc)
{
	struct vt_area *a = &vc->slot[prandom_below(&vc->rng, TORTURE_SLOTS)];
	unsigned int how = (unsigned int)prandom_below(&vc->rng, 8);

	if (a->kind == VT_NONE)
		vt_alloc(vc, a, true);
	else if (how < 2 && vt_produce(vc, a))
		;
	else
		vt_free(vc, a, how == 2);
	vt_consume(vc);
	if (!(++vc->steps % TORTURE_PURGE_EVERY)) {
		vm_unmap_aliases();
		vc->purges++;
	}
}

/*
 * Phase 1 until the clock reaches until (and for TORTURE_MIN_STEPS steps
 * at least), then empty the ring from the previous CPU.
 */
static void vt_churn(struct vt_cpu *vc, u64 until)
{
	struct vt_cpu *prev = &vt_cpus[(vc->cpu + vt_nr - 1) % vt_nr];
	unsigned int steps = 0;
	u64 deadline;

	while (!vt_abort &&
	       (arch_clock_ns() < until || steps < TORTURE_MIN_STEPS)) {
		vt_step(vc);
		vt_touch_victims(vc);
		steps++;
	}
	__atomic_store_n(&vc->done_producing, true, __ATOMIC_RELEASE);
	deadline = arch_clock_ns() + TORTURE_WAIT_NS;
	while (!vt_abort &&
	       (vt_consume(vc) ||
		!__atomic_load_n(&prev->done_producing, __ATOMIC_ACQUIRE) ||
		__atomic_load_n(&vc->in->head, __ATOMIC_ACQUIRE) != vc->in->tail)) {
		if (arch_clock_ns() > deadline) {
			pr_err("vmalloc_torture: CPU %u: the ring from CPU %u does not drain\n",
			       vc->cpu, prev->cpu);
			vt_abort = true;
		}
		arch_cpu_relax();
	}
}

/* Wait (bounded) for the work item to free what vfree() queued. */
static bool vt_deferred_done(const void *addr)
{
	u64 deadline = arch_clock_ns() + TORTURE_WAIT_NS;

	while (find_vm_area(addr)) {
		if (arch_clock_ns() > deadline)
			return false;
		arch_cpu_relax();
	}
	return true;
}

/* Phase 2: free victim (vc->cpu + round) % vt_nr; odd rounds another's. */
static void vt_free_victim(struct vt_cpu *vc, unsigned long round)
{
	unsigned int c = (vc->cpu + (unsigned int)(round & 1)) % vt_nr;
	struct vt_area *a = &vt_victim[c];
	bool irqs_off = a->kind == VT_VMALLOC && round % 3 == 1;
	void *addr = a->addr;

	vt_free(vc, a, irqs_off);
	if (irqs_off && !vt_deferred_done(addr)) {
		pr_err("vmalloc_torture: CPU %u: deferred vfree of %px not done\n",
		       vc->cpu, addr);
		vt_abort = true;
	}
}

/* Phase 3: purge, then probe this CPU's victim and the next one's. */
static void vt_probe_victims(struct vt_cpu *vc)
{
	vm_unmap_aliases();
	for (unsigned int i = 0; i < TORTURE_PROBES; i++) {
		unsigned long addr = vt_victim_addr[(vc->cpu + i) % vt_nr];
		unsigned long pfn;
		pgprot_t prot;

		if (!addr)	/* its allocation failed (counted) */
			continue;
		vc->still_mapped += arch_lookup_kernel_page(addr, &pfn, &prot);
		vc->probe_ok += !arch_probe_kernel_access(addr, PROBE_READ);
		vc->probes++;
	}
}

/*
 * CPU 0: what the window caught. The fault lines are counted under
 * printk's lock; the kinds may miss a count when CPUs fault at once, so
 * only other kinds are looked at (any is a failure).
 */
static void vt_window_close(void)
{
	struct ktest *t = vt_test;

	vt_window_hits += ktest_capture_stop(t);
	for (int k = REPORT_NONE + 1; k < NR_REPORT_KINDS; k++)
		if (k != REPORT_PAGE_FAULT)
			vt_window_other += ktest_reports(t, k);
}

/*
 * One round, the same barriers on every CPU; CPU 0 says whether another
 * follows (vt_more), so all stop after the same one. false: stop.
 */
static bool vt_round(struct vt_cpu *vc, unsigned long round)
{
	struct vt_area *victim = &vt_victim[vc->cpu];
	u64 until;

	vt_alloc(vc, victim, round % 3 == 2);
	vt_victim_addr[vc->cpu] = victim->kind != VT_NONE ?
				  (unsigned long)victim->addr : 0;
	__atomic_store_n(&vc->done_producing, false, __ATOMIC_RELAXED);
	if (!vt_barrier_wait())
		return false;
	until = min(vt_deadline, arch_clock_ns() + TORTURE_ROUND_MS * 1000000ULL);
	vt_churn(vc, until);
	if (!vt_barrier_wait())
		return false;
	vt_free_victim(vc, round);
	if (vc->cpu == 0)
		ktest_capture_start(vt_test, "BUG:");
	if (vt_barrier_wait()) {
		vt_probe_victims(vc);
		vt_barrier_wait();
	}
	if (vc->cpu == 0) {
		vt_window_close();
		vt_rounds++;
		vt_more = !vt_abort && arch_clock_ns() < vt_deadline;
	}
	return vt_barrier_wait() && vt_more;
}

static void vt_worker(void *arg)
{
	struct vt_cpu *vc = arg;

	for (unsigned long round = 0; vt_round(vc, round); round++)
		;
	for (unsigned int i = 0; i < TORTURE_SLOTS; i++)
		vt_free(vc, &vc->slot[i], false);
}

static void vt_setup(unsigned int nr)
{
	vt_nr = nr;
	memset(vt_cpus, 0, sizeof(vt_cpus));
	memset(vt_rings, 0, sizeof(vt_rings));
	memset(vt_victim, 0, sizeof(vt_victim));
	memset(vt_victim_addr, 0, sizeof(vt_victim_addr));
	memset(&vt_barrier, 0, sizeof(vt_barrier));
	vt_abort = false;
	vt_more = false;
	vt_rounds = vt_window_hits = vt_window_other = 0;
	for (unsigned int c = 0; c < nr; c++) {
		struct vt_cpu *vc = &vt_cpus[c];

		vc->cpu = c;
		prandom_seed(&vc->rng, 0x70127e00 + c);
		vc->out = &vt_rings[c];
		vc->in = &vt_rings[(c + nr - 1) % nr];
	}
}

/* After the join: what an abort left in the rings and the victims. */
static void vt_cleanup(void)
{
	struct vt_cpu *vc = &vt_cpus[0];

	for (unsigned int c = 0; c < vt_nr; c++) {
		struct vt_ring *r = &vt_rings[c];

		for (; r->tail != r->head; r->tail++)
			vt_free(vc, &r->item[r->tail % TORTURE_RING], false);
		vt_free(vc, &vt_victim[c], false);
	}
}

/* Wait (bounded) until the busy areas are back to nr_busy. */
static bool vt_settled(unsigned long nr_busy)
{
	u64 deadline = arch_clock_ns() + TORTURE_WAIT_NS;
	struct vmalloc_stats s;

	for (;;) {
		vmalloc_get_stats(&s);
		if (s.nr_busy == nr_busy || arch_clock_ns() > deadline)
			return s.nr_busy == nr_busy;
		arch_cpu_relax();
	}
}

static void vt_expect_clean(struct ktest *t)
{
	struct vt_cpu sum = { 0 };

	for (unsigned int c = 0; c < vt_nr; c++) {
		const struct vt_cpu *vc = &vt_cpus[c];

		sum.ops += vc->ops;
		sum.handed += vc->handed;
		sum.irqs_off_frees += vc->irqs_off_frees;
		sum.purges += vc->purges;
		sum.probes += vc->probes;
		sum.failed += vc->failed;
		sum.bad += vc->bad;
		sum.still_mapped += vc->still_mapped;
		sum.probe_ok += vc->probe_ok;
	}
	ktest_info(t, "%u CPUs, %lu rounds: %lu operations, %lu handed over, %lu freed with interrupts off, %lu purges, %lu probes",
		   vt_nr, vt_rounds, sum.ops, sum.handed, sum.irqs_off_frees,
		   sum.purges, sum.probes);
	KTEST_EXPECT_FALSE(t, vt_abort);
	KTEST_EXPECT_GE(t, vt_rounds, 1UL);
	KTEST_EXPECT_EQ(t, sum.failed, 0UL);
	KTEST_EXPECT_EQ(t, sum.bad, 0UL);
	KTEST_EXPECT_EQ(t, sum.still_mapped, 0UL);
	KTEST_EXPECT_EQ(t, sum.probe_ok, 0UL);
	KTEST_EXPECT_GE(t, sum.probes, vt_nr * TORTURE_PROBES * vt_rounds);
	KTEST_EXPECT_EQ(t, vt_window_hits, sum.probes);
	KTEST_EXPECT_EQ(t, vt_window_other, 0UL);
	if (vt_nr > 1)
		KTEST_EXPECT_GT(t, sum.handed, 0UL);
	KTEST_EXPECT_GT(t, sum.irqs_off_frees, 0UL);
}

/*
 * Every CPU at once for torture_ms(): vmalloc, vzalloc, vmap, frees of
 * each kind, on another CPU and with interrupts off, purges; each
 * round's freed victims fault on every CPU once it has purged. At the
 * end the window is as it was.
 */
static void test_vmalloc_torture(struct ktest *t)
{
	unsigned int nr = nr_cpu_ids, started = 1;
	struct vmalloc_stats s0, s;
	u64 ns = arch_clock_ns();

	vm_unmap_aliases();
	vmalloc_get_stats(&s0);
	vt_setup(nr);
	vt_test = t;
	vt_deadline = ns + torture_ms() * 1000000ULL;
	for (; started < nr; started++) {
		int err = arch_cpu_run(started, vt_worker, &vt_cpus[started]);

		if (err) {
			KTEST_EXPECT_EQ(t, err, 0);
			vt_abort = true;	/* the others leave their barrier */
			break;
		}
	}
	if (!vt_abort)
		vt_worker(&vt_cpus[0]);
	for (unsigned int c = 1; c < started; c++)
		arch_cpu_join(c);
	ns = arch_clock_ns() - ns;
	vt_cleanup();
	KTEST_EXPECT_TRUE(t, vt_settled(s0.nr_busy));
	vm_unmap_aliases();
	vmalloc_get_stats(&s);
	vt_expect_clean(t);
	ktest_info(t, "%llu ms (torture_ms=%lu)", (unsigned long long)(ns / 1000000),
		   torture_ms());
	KTEST_EXPECT_EQ(t, s.nr_busy, s0.nr_busy);
	KTEST_EXPECT_EQ(t, s.nr_pages, s0.nr_pages);
	KTEST_EXPECT_EQ(t, s.free_bytes, s0.free_bytes);
	KTEST_EXPECT_EQ(t, s.largest_free, s0.largest_free);
	KTEST_EXPECT_EQ(t, s.lazy_pages, 0UL);
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
}

/* torture_ms=: 1 to TORTURE_MS_MAX milliseconds; a bad value changes nothing. */
static void test_torture_ms_param(struct ktest *t)
{
	static const char *const bad[] = {
		"torture_ms=0", "torture_ms=x", "torture_ms=-1", "torture_ms",
		"torture_ms=86400001",
	};
	size_t n = __stop_kernel_params - __start_kernel_params;
	unsigned long old = torture_ms();
	char buf[40];

	ktest_capture_start(t, "Malformed kernel command line parameter \"torture_ms");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		KTEST_EXPECT_EQ(t, parse_args(buf, __start_kernel_params, n), 1);
		KTEST_EXPECT_EQ(t, torture_ms(), old);
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), (unsigned int)ARRAY_SIZE(bad));
	snprintf(buf, sizeof(buf), "torture_ms=1234");
	KTEST_EXPECT_EQ(t, parse_args(buf, __start_kernel_params, n), 0);
	KTEST_EXPECT_EQ(t, torture_ms(), 1234UL);
	snprintf(buf, sizeof(buf), "torture_ms=%lu", old);
	KTEST_EXPECT_EQ(t, parse_args(buf, __start_kernel_params, n), 0);
	KTEST_EXPECT_EQ(t, torture_ms(), old);
}

static const struct ktest_case vmalloc_torture_cases[] = {
	KTEST_CASE(test_torture_ms_param),
	KTEST_CASE(test_vmalloc_torture),
	{}
};
KTEST_SUITE(vmalloc_torture, vmalloc_torture_cases);
