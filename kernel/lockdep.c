// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep: the lock validator (the rules and the caller's side are in
 * kernel/lockdep.h).
 *
 * Data.
 *  - lock_classes[]: MAX_LOCK_CLASSES classes, each a key (the address of
 *    a lock_class_key's subkey, or of a static lock plus its subclass)
 *    and a name. Only ever appended to: readers scan the first
 *    nr_lock_classes entries without a lock; class_register_lock, a raw
 *    word the validator does not track, orders the writers.
 *  - dep_matrix[a]: bit b set when class b was taken while class a was
 *    held (the dependency a -> b), and dep_sites[a][b] where that was
 *    first seen. Bits are only set, with atomic ORs, and never close a
 *    cycle: a dependency that would is reported instead.
 *  - lockdep_cpus[cpu]: the locks this CPU holds, in the order taken,
 *    each with its class, its address and the site that took it. Only
 *    its own CPU reads or writes it.
 *  - the "reported" bitmaps: one report per problem (per pair of classes
 *    for an order, per class otherwise), set with atomic ORs so two CPUs
 *    never print the same one.
 *  - usage: each class's usage_mask (LOCKF_USED_IN_HARDIRQ,
 *    LOCKF_ENABLED_HARDIRQ) with the site where each bit was first seen,
 *    and usage_classes[bit], the classes with that bit, as a bitmap for
 *    the graph walks. Bits are only set, with an atomic OR, once each:
 *    the CPU whose OR sets a bit runs the checks that bit calls for, so
 *    no two CPUs report the same usage. The site is stored (claimed with
 *    a compare-and-swap) before its bit.
 *
 * Interrupt safety, as Linux's lockdep infers it for hardirqs. Every
 * acquisition gives its class a usage: USED_IN_HARDIRQ inside an
 * interrupt handler (arch_hardirq_count() > 0), ENABLED_HARDIRQ outside
 * one with interrupts on, none with interrupts off outside one. A
 * trylock inside a handler gives none (it fails rather than spins on a
 * lock its CPU holds), outside one it counts as any acquisition.
 * A class with USED_IN_HARDIRQ is "hardirq-safe" (every CPU must take it
 * with interrupts off), one with ENABLED_HARDIRQ "hardirq-unsafe". The
 * fast path is a load of the class's mask and a branch: each bit is set
 * once. Three reports, each once:
 *  - "inconsistent lock state": one class with both bits (an interrupt
 *    arriving while this CPU holds the lock with interrupts on spins on
 *    it forever); per class, as the second bit is set;
 *  - "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected": a new
 *    dependency A -> B with a safe class S reaching A (S = A included)
 *    and B reaching an unsafe class U (U = B included). CPU0 holds U
 *    with interrupts on; CPU1 holds S and, through the chain,
 *    waits for U; an interrupt on CPU0 waits for S. Per new dependency (pair of classes);
 *  - "possible irq lock inversion dependency detected": the same found
 *    from the other side, when a class becomes safe with an unsafe one
 *    after it in the graph, or unsafe with a safe one before it; per
 *    class.
 * The graph walks are bitmaps over the dependency matrix (at most 64
 * classes), run only when a dependency or a usage bit is new. The
 * dependency bit and the usage bitmaps are set and read sequentially
 * consistent, so of two CPUs adding the two halves of a problem at
 * once, at least one sees both.
 * Dependencies are recorded only between locks taken in the same
 * context: a handler's locks do not depend on those of the code it
 * interrupted (the usage bits cover that case), as in Linux. Turning
 * interrupts on while holding locks (local_irq_enable(),
 * local_irq_restore() or spin_unlock_irqrestore() to "on") marks every
 * held lock ENABLED_HARDIRQ there (lockdep_hardirqs_on()), as Linux
 * does. Not tracked: softirqs (the kernel has none), and interrupts
 * turned on through the arch_irq_*() calls themselves (the allocators'
 * fast paths, which hold no lock there, and the idle loops).
 *
 * The call site of every hook is its return address: the hooks are
 * called from inline lock functions, so that is the line taking the lock.
 */
#include "kernel/lockdep.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "arch/arch.h"

#define MAX_LOCK_CLASSES	64
#define MAX_LOCK_DEPTH		16

enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,	/* taken inside an interrupt handler */
	LOCK_ENABLED_HARDIRQ,	/* taken outside one, interrupts on */
	LOCK_USAGE_STATES
};

#define LOCKF_USED_IN_HARDIRQ	(1U << LOCK_USED_IN_HARDIRQ)
#define LOCKF_ENABLED_HARDIRQ	(1U << LOCK_ENABLED_HARDIRQ)

struct lock_class {
	const void *key;
	const char *name;
	const char *file;		/* spin_lock_init()'s; NULL: static */
	unsigned int subclass;
	unsigned int usage_mask;	/* LOCKF_*: set once each */
	unsigned long usage_ip[LOCK_USAGE_STATES];	/* first seen at */
};

struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *instance;
	unsigned long acquire_ip;
	bool hardirq;		/* taken inside an interrupt handler */
};

struct lockdep_cpu {
	unsigned int depth;
	unsigned int lost;	/* acquisitions past MAX_LOCK_DEPTH */
	bool running;		/* the validator runs on this CPU */
	struct held_lock held[MAX_LOCK_DEPTH];
};

struct lock_dep_site {
	unsigned long held_ip;		/* where the first lock was taken */
	unsigned long acquire_ip;	/* where the second was taken */
};

bool debug_locks = true;
unsigned long lockdep_reports;

static struct lock_class lock_classes[MAX_LOCK_CLASSES];
static unsigned int nr_lock_classes;
static int class_register_lock;

static u64 dep_matrix[MAX_LOCK_CLASSES];
static struct lock_dep_site dep_sites[MAX_LOCK_CLASSES][MAX_LOCK_CLASSES];

static u64 usage_classes[LOCK_USAGE_STATES];

static u64 circular_reported[MAX_LOCK_CLASSES];
static u64 irq_order_reported[MAX_LOCK_CLASSES];
static u64 irq_inversion_reported;
static u64 recursion_reported, unlock_reported, assert_reported;
static bool classes_full_reported, depth_reported;

static struct lockdep_cpu lockdep_cpus[NR_CPUS];

/* --- small helpers ------------------------------------------------------ */

static u64 class_bit(unsigned int idx)
{
	return 1ULL << idx;
}

static unsigned int class_idx(const struct lock_class *class)
{
	return (unsigned int)(class - lock_classes);
}

/* Set bit in *word; true if this call set it (the one to report). */
static bool test_and_set_once(u64 *word, u64 bit)
{
	return !(__atomic_fetch_or(word, bit, __ATOMIC_RELAXED) & bit);
}

static void lockdep_report_start(void)
{
	__atomic_fetch_add(&lockdep_reports, 1, __ATOMIC_RELAXED);
}

bool debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, false, __ATOMIC_RELAXED);
}

static struct lockdep_cpu *this_lockdep_cpu(void)
{
	return &lockdep_cpus[arch_cpu_id()];
}

static void print_held_locks(unsigned int cpu, const struct lockdep_cpu *lc)
{
	if (!lc->depth) {
		pr_warn("cpu %u holds no locks\n", cpu);
		return;
	}
	pr_warn("cpu %u holds %u lock%s:\n", cpu, lc->depth,
		lc->depth == 1 ? "" : "s");
	for (unsigned int i = 0; i < lc->depth; i++)
		pr_warn(" #%u: %s (%px), taken at %pS\n", i,
			lc->held[i].class->name, lc->held[i].instance,
			(void *)lc->held[i].acquire_ip);
}

static void report_end(void)
{
	dump_stack();
	pr_warn("---[ end lockdep report ]---\n");
}

/* --- classes ------------------------------------------------------------ */

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key)
{
	map->name = name;
	map->key = key;
	map->class_cache = NULL;
}

static const void *class_key(const struct lockdep_map *map,
			     unsigned int subclass)
{
	if (map->key)
		return &map->key->subkeys[subclass];
	return (const char *)map + subclass;
}

static struct lock_class *find_class(const void *key, unsigned int from,
				     unsigned int to)
{
	for (unsigned int i = from; i < to; i++)
		if (lock_classes[i].key == key)
			return &lock_classes[i];
	return NULL;
}

static struct lock_class *register_class(const struct lockdep_map *map,
					 const void *key, unsigned int subclass)
{
	struct lock_class *class;
	unsigned int nr;

	while (__atomic_exchange_n(&class_register_lock, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	nr = nr_lock_classes;
	class = find_class(key, 0, nr);
	if (!class && nr < MAX_LOCK_CLASSES) {
		class = &lock_classes[nr];
		class->key = key;
		class->name = map->name ? map->name : "(lock never initialised)";
		class->file = map->key ? map->key->file : NULL;
		class->subclass = subclass;
		__atomic_store_n(&nr_lock_classes, nr + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&class_register_lock, 0, __ATOMIC_RELEASE);
	return class;
}

/* The class of map as subclass; NULL if the table is full (untracked). */
static struct lock_class *lookup_class(struct lockdep_map *map,
				       unsigned int subclass)
{
	struct lock_class *class;
	const void *key;

	if (!subclass) {
		class = __atomic_load_n(&map->class_cache, __ATOMIC_ACQUIRE);
		if (class)
			return class;
	}
	key = class_key(map, subclass);
	class = find_class(key, 0, __atomic_load_n(&nr_lock_classes,
						   __ATOMIC_ACQUIRE));
	if (!class)
		class = register_class(map, key, subclass);
	if (!class) {
		if (!classes_full_reported) {
			classes_full_reported = true;
			lockdep_report_start();
			pr_err("BUG: MAX_LOCK_CLASSES too low: %s (%px) not validated\n",
			       map->name, map);
		}
		return NULL;
	}
	if (!subclass)
		__atomic_store_n(&map->class_cache, class, __ATOMIC_RELEASE);
	return class;
}

void lockdep_print_graph(void)
{
	unsigned int nr = __atomic_load_n(&nr_lock_classes, __ATOMIC_ACQUIRE);

	for (unsigned int i = 0; i < nr; i++) {
		const struct lock_class *c = &lock_classes[i];

		pr_info("lockdep: class %u %s/%u %s\n", i, c->name,
			c->subclass, c->file ? c->file : "-");
	}
	for (unsigned int from = 0; from < nr; from++)
		for (unsigned int to = 0; to < nr; to++)
			if (READ_ONCE(dep_matrix[from]) & class_bit(to))
				pr_info("lockdep: dep %u %u\n", from, to);
}

/* --- dependencies ------------------------------------------------------- */

/*
 * Is there a path from class `from` to class `to` in the dependency
 * matrix? parent[] then leads back from `to` to `from`.
 */
static bool dep_path(unsigned int from, unsigned int to,
		     unsigned char parent[MAX_LOCK_CLASSES])
{
	u64 seen = class_bit(from), frontier = class_bit(from);

	while (frontier) {
		unsigned int c = (unsigned int)__builtin_ctzll(frontier);
		u64 next = __atomic_load_n(&dep_matrix[c], __ATOMIC_ACQUIRE) &
			   ~seen;

		frontier &= frontier - 1;
		for (u64 n = next; n; n &= n - 1)
			parent[__builtin_ctzll(n)] = (unsigned char)c;
		if (next & class_bit(to))
			return true;
		seen |= next;
		frontier |= next;
	}
	return false;
}

/* Print the path from -> ... -> to, one dependency a line, in order. */
static void print_dep_path(unsigned int from, unsigned int to,
			   const unsigned char parent[MAX_LOCK_CLASSES])
{
	unsigned int path[MAX_LOCK_CLASSES], n = 0, prev = from;

	for (unsigned int c = to; c != from && n < MAX_LOCK_CLASSES;
	     c = parent[c])
		path[n++] = c;
	while (n--) {
		unsigned int next = path[n];
		const struct lock_dep_site *s = &dep_sites[prev][next];

		pr_warn("  %s held (taken at %pS), then %s taken at %pS\n",
			lock_classes[prev].name, (void *)s->held_ip,
			lock_classes[next].name, (void *)s->acquire_ip);
		prev = next;
	}
}

/* The acquisition a report is about, and the held lock it meets. */
static void print_acquire(const struct held_lock *held,
			  const struct lock_class *class,
			  const struct lockdep_map *map, unsigned long ip,
			  const char *holding, const char *end)
{
	pr_warn("cpu %u is trying to acquire %s (%px) at %pS\n",
		arch_cpu_id(), class->name, map, (void *)ip);
	pr_warn("%s %s (%px), taken at %pS%s\n", holding, held->class->name,
		held->instance, (void *)held->acquire_ip, end);
}

static void report_circular(const struct held_lock *held,
			    struct lock_class *class,
			    const struct lockdep_map *map, unsigned long ip,
			    const unsigned char parent[MAX_LOCK_CLASSES])
{
	unsigned int a = class_idx(held->class), b = class_idx(class);

	if (!test_and_set_once(&circular_reported[a], class_bit(b)))
		return;
	lockdep_report_start();
	pr_warn("WARNING: possible circular locking dependency detected\n");
	print_acquire(held, class, map, ip, "while holding", ";");
	pr_warn("the opposite order was seen before:\n");
	print_dep_path(b, a, parent);
	report_end();
}

/* --- interrupt safety --------------------------------------------------- */

static const char *const usage_names[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ] = "IN-HARDIRQ-W",
	[LOCK_ENABLED_HARDIRQ] = "HARDIRQ-ON-W",
};

static u64 classes_with(enum lock_usage_bit bit)
{
	return __atomic_load_n(&usage_classes[bit], __ATOMIC_SEQ_CST);
}

static unsigned long usage_site(const struct lock_class *class,
				enum lock_usage_bit bit)
{
	return __atomic_load_n(&class->usage_ip[bit], __ATOMIC_RELAXED);
}

/* The classes reachable from `from` by dependencies, `from` included. */
static u64 dep_forward(unsigned int from)
{
	u64 seen = class_bit(from), frontier = seen;

	while (frontier) {
		unsigned int c = (unsigned int)__builtin_ctzll(frontier);
		u64 next = __atomic_load_n(&dep_matrix[c], __ATOMIC_SEQ_CST) &
			   ~seen;

		frontier &= frontier - 1;
		seen |= next;
		frontier |= next;
	}
	return seen;
}

/* The classes that reach `to` by dependencies, `to` included. */
static u64 dep_backward(unsigned int to)
{
	unsigned int nr = __atomic_load_n(&nr_lock_classes, __ATOMIC_ACQUIRE);
	u64 seen = class_bit(to), frontier = seen;

	while (frontier) {
		u64 target = frontier & -frontier;

		frontier &= frontier - 1;
		for (unsigned int i = 0; i < nr; i++) {
			if ((seen & class_bit(i)) ||
			    !(__atomic_load_n(&dep_matrix[i], __ATOMIC_SEQ_CST) &
			      target))
				continue;
			seen |= class_bit(i);
			frontier |= class_bit(i);
		}
	}
	return seen;
}

static unsigned int first_class(u64 set)
{
	return (unsigned int)__builtin_ctzll(set);
}

/* Print the dependency path from -> ... -> to (nothing if from == to). */
static void print_dep_chain(unsigned int from, unsigned int to)
{
	unsigned char parent[MAX_LOCK_CLASSES];

	if (from != to && dep_path(from, to, parent))
		print_dep_path(from, to, parent);
}

static void print_usage_site(unsigned int idx, enum lock_usage_bit bit)
{
	const struct lock_class *class = &lock_classes[idx];

	pr_warn("  %s is {%s}, first seen at %pS\n", class->name,
		usage_names[bit], (void *)usage_site(class, bit));
}

static void print_irq_scenario(const char *safe, const char *unsafe)
{
	pr_warn("possible deadlock scenario:\n");
	pr_warn("  cpu A: lock(%s) with interrupts on\n", unsafe);
	pr_warn("  cpu B: lock(%s) with interrupts off; then wants %s\n",
		safe, unsafe);
	pr_warn("  cpu A: <interrupt> lock(%s): spins, and so does cpu B\n",
		safe);
}

/*
 * The new dependency held -> class (a -> b) with a hardirq-safe class at
 * or before a and a hardirq-unsafe class at or after b. Cheap unless
 * both kinds of class exist: the walks run only for a new dependency.
 */
static void check_irq_dependency(const struct held_lock *held,
				 struct lock_class *class,
				 const struct lockdep_map *map, unsigned long ip)
{
	unsigned int a = class_idx(held->class), b = class_idx(class);
	u64 safe = classes_with(LOCK_USED_IN_HARDIRQ);
	u64 unsafe = classes_with(LOCK_ENABLED_HARDIRQ);
	unsigned int s, u;

	if (!safe || !unsafe)
		return;
	unsafe &= dep_forward(b);
	if (!unsafe)
		return;
	safe &= dep_backward(a);
	if (!safe)
		return;
	if (!test_and_set_once(&irq_order_reported[a], class_bit(b)))
		return;
	s = safe & class_bit(a) ? a : first_class(safe);
	u = unsafe & class_bit(b) ? b : first_class(unsafe);
	lockdep_report_start();
	pr_warn("WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected\n");
	print_acquire(held, class, map, ip, "while holding", ";");
	pr_warn("the HARDIRQ-safe lock, taken in an interrupt handler:\n");
	print_usage_site(s, LOCK_USED_IN_HARDIRQ);
	print_dep_chain(s, a);
	pr_warn("  %s held, then %s taken here\n", held->class->name,
		class->name);
	print_dep_chain(b, u);
	pr_warn("the HARDIRQ-unsafe lock, taken with interrupts on:\n");
	print_usage_site(u, LOCK_ENABLED_HARDIRQ);
	print_irq_scenario(lock_classes[s].name, lock_classes[u].name);
	print_held_locks(arch_cpu_id(), this_lockdep_cpu());
	report_end();
}

/* The dependency held -> class: known, new, or a cycle (reported). */
static void add_dependency(const struct held_lock *held,
			   struct lock_class *class,
			   const struct lockdep_map *map, unsigned long ip)
{
	unsigned int a = class_idx(held->class), b = class_idx(class);
	unsigned char parent[MAX_LOCK_CLASSES];

	if (__atomic_load_n(&dep_matrix[a], __ATOMIC_ACQUIRE) & class_bit(b))
		return;
	if (dep_path(b, a, parent)) {
		report_circular(held, class, map, ip, parent);
		return;
	}
	dep_sites[a][b].held_ip = held->acquire_ip;
	dep_sites[a][b].acquire_ip = ip;
	__atomic_fetch_or(&dep_matrix[a], class_bit(b), __ATOMIC_SEQ_CST);
	check_irq_dependency(held, class, map, ip);
}

/* The usage an acquisition here gives its class; LOCK_USAGE_STATES: none. */
static enum lock_usage_bit usage_now(void)
{
	if (arch_hardirq_count())
		return LOCK_USED_IN_HARDIRQ;
	if (!arch_irqs_disabled())
		return LOCK_ENABLED_HARDIRQ;
	return LOCK_USAGE_STATES;
}

/* class has both usages: bit, just set at ip, and the other one. */
static void report_inconsistent(struct lock_class *class,
				enum lock_usage_bit bit,
				const struct lockdep_map *map, unsigned long ip)
{
	enum lock_usage_bit prev = bit == LOCK_USED_IN_HARDIRQ ?
				   LOCK_ENABLED_HARDIRQ : LOCK_USED_IN_HARDIRQ;

	lockdep_report_start();
	pr_warn("WARNING: inconsistent lock state\n");
	pr_warn("inconsistent {%s} -> {%s} usage.\n", usage_names[prev],
		usage_names[bit]);
	pr_warn("cpu %u [in hardirq: %u, interrupts %s] takes %s (%px) at %pS\n",
		arch_cpu_id(), arch_hardirq_count(),
		arch_irqs_disabled() ? "off" : "on", class->name, map,
		(void *)ip);
	pr_warn("{%s} state was registered at %pS\n", usage_names[prev],
		(void *)usage_site(class, prev));
	pr_warn("{%s} state was registered at %pS\n", usage_names[bit],
		(void *)usage_site(class, bit));
	pr_warn("possible deadlock scenario:\n");
	pr_warn("  lock(%s) with interrupts on\n", class->name);
	pr_warn("  <interrupt> lock(%s): spins on its own CPU forever\n",
		class->name);
	print_held_locks(arch_cpu_id(), this_lockdep_cpu());
	report_end();
}

/*
 * class just became hardirq-safe with an unsafe class after it in the
 * graph, or unsafe with a safe one before it.
 */
static void check_irq_inversion(struct lock_class *class,
				enum lock_usage_bit bit,
				const struct lockdep_map *map, unsigned long ip)
{
	unsigned int idx = class_idx(class), other;
	u64 set;

	if (bit == LOCK_USED_IN_HARDIRQ)
		set = classes_with(LOCK_ENABLED_HARDIRQ) & dep_forward(idx);
	else
		set = classes_with(LOCK_USED_IN_HARDIRQ) & dep_backward(idx);
	set &= ~class_bit(idx);		/* both on one class: inconsistent */
	if (!set || !test_and_set_once(&irq_inversion_reported,
				       class_bit(idx)))
		return;
	other = first_class(set);
	lockdep_report_start();
	pr_warn("WARNING: possible irq lock inversion dependency detected\n");
	pr_warn("cpu %u [in hardirq: %u] takes %s (%px) at %pS: now {%s}\n",
		arch_cpu_id(), arch_hardirq_count(), class->name, map,
		(void *)ip, usage_names[bit]);
	if (bit == LOCK_USED_IN_HARDIRQ) {
		pr_warn("but this lock took a HARDIRQ-unsafe lock in the past:\n");
		print_dep_chain(idx, other);
		print_usage_site(other, LOCK_ENABLED_HARDIRQ);
		print_irq_scenario(class->name, lock_classes[other].name);
	} else {
		pr_warn("but this lock was taken by a HARDIRQ-safe lock in the past:\n");
		print_dep_chain(other, idx);
		print_usage_site(other, LOCK_USED_IN_HARDIRQ);
		print_irq_scenario(lock_classes[other].name, class->name);
	}
	print_held_locks(arch_cpu_id(), this_lockdep_cpu());
	report_end();
}

/* Give class the usage bit, first seen at ip, and check what it allows. */
static void mark_lock(struct lock_class *class, enum lock_usage_bit bit,
		      const struct lockdep_map *map, unsigned long ip)
{
	unsigned long none = 0;
	unsigned int old;

	__atomic_compare_exchange_n(&class->usage_ip[bit], &none, ip, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	old = __atomic_fetch_or(&class->usage_mask, 1U << bit,
				__ATOMIC_SEQ_CST);
	if (old & (1U << bit))
		return;		/* another CPU set it and checks */
	__atomic_fetch_or(&usage_classes[bit], class_bit(class_idx(class)),
			  __ATOMIC_SEQ_CST);
	if (old & (LOCKF_USED_IN_HARDIRQ | LOCKF_ENABLED_HARDIRQ)) {
		report_inconsistent(class, bit, map, ip);
		return;
	}
	check_irq_inversion(class, bit, map, ip);
}

/* The fast path: a load and a branch once the class has this usage. */
static void mark_usage(struct lock_class *class, enum lock_usage_bit bit,
		       const struct lockdep_map *map, unsigned long ip)
{
	if (bit == LOCK_USAGE_STATES ||
	    (__atomic_load_n(&class->usage_mask, __ATOMIC_RELAXED) &
	     (1U << bit)))
		return;
	mark_lock(class, bit, map, ip);
}

/* --- acquire and release ------------------------------------------------ */

static void report_recursion(struct lockdep_cpu *lc,
			     const struct held_lock *held,
			     struct lock_class *class,
			     const struct lockdep_map *map, unsigned long ip)
{
	if (!test_and_set_once(&recursion_reported, class_bit(class_idx(class))))
		return;
	lockdep_report_start();
	pr_warn("WARNING: possible recursive locking detected\n");
	print_acquire(held, class, map, ip, "but already holds", "");
	if (held->instance == map)
		pr_warn("the same lock: this CPU would spin on it forever\n");
	else
		pr_warn("another lock of the same class: if the order is fixed, say so with spin_lock_nested()\n");
	print_held_locks(arch_cpu_id(), lc);
	report_end();
}

static void check_acquire(struct lockdep_cpu *lc, struct lock_class *class,
			  const struct lockdep_map *map, unsigned long ip,
			  bool hardirq)
{
	for (unsigned int i = 0; i < lc->depth; i++) {
		const struct held_lock *held = &lc->held[i];

		if (held->instance == map || held->class == class) {
			report_recursion(lc, held, class, map, ip);
			return;
		}
	}
	for (unsigned int i = 0; i < lc->depth; i++)
		if (lc->held[i].hardirq == hardirq)
			add_dependency(&lc->held[i], class, map, ip);
}

static void push_held(struct lockdep_cpu *lc, struct lock_class *class,
		      const struct lockdep_map *map, unsigned long ip,
		      bool hardirq)
{
	struct held_lock *held;

	if (lc->depth == MAX_LOCK_DEPTH) {
		lc->lost++;
		if (!depth_reported) {
			depth_reported = true;
			lockdep_report_start();
			pr_err("BUG: MAX_LOCK_DEPTH too low: cpu %u takes %s at %pS\n",
			       arch_cpu_id(), class->name, (void *)ip);
			print_held_locks(arch_cpu_id(), lc);
			report_end();
		}
		return;
	}
	held = &lc->held[lc->depth++];
	held->class = class;
	held->instance = map;
	held->acquire_ip = ip;
	held->hardirq = hardirq;
}

void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock)
{
	unsigned long ip = _RET_IP_;
	struct lockdep_cpu *lc = this_lockdep_cpu();
	struct lock_class *class;

	if (!READ_ONCE(debug_locks) || lc->running)
		return;
	lc->running = true;
	if (subclass >= MAX_LOCKDEP_SUBCLASSES)
		subclass = MAX_LOCKDEP_SUBCLASSES - 1;
	class = lookup_class(map, subclass);
	if (class) {
		enum lock_usage_bit usage = usage_now();
		bool hardirq = usage == LOCK_USED_IN_HARDIRQ;

		/* A trylock cannot spin: in a handler it is always safe. */
		if (!(trylock && hardirq))
			mark_usage(class, usage, map, ip);
		if (!trylock)
			check_acquire(lc, class, map, ip, hardirq);
		push_held(lc, class, map, ip, hardirq);
	}
	lc->running = false;
}

/*
 * Interrupts are about to go on outside any handler: every lock this CPU
 * holds is then held with interrupts on (Linux's mark_held_locks() from
 * lockdep_hardirqs_on()), its class hardirq-unsafe, first seen at the
 * caller.
 */
void lockdep_hardirqs_on(void)
{
	unsigned long ip = _RET_IP_;
	struct lockdep_cpu *lc = this_lockdep_cpu();

	if (!READ_ONCE(debug_locks) || lc->running || arch_hardirq_count())
		return;
	lc->running = true;
	for (unsigned int i = 0; i < lc->depth; i++)
		mark_usage(lc->held[i].class, LOCK_ENABLED_HARDIRQ,
			   lc->held[i].instance, ip);
	lc->running = false;
}

static int find_held(const struct lockdep_cpu *lc,
		     const struct lockdep_map *map)
{
	for (int i = (int)lc->depth - 1; i >= 0; i--)
		if (lc->held[i].instance == map)
			return i;
	return -1;
}

static void report_bad_unlock(struct lockdep_cpu *lc, struct lock_class *class,
			      const struct lockdep_map *map, unsigned long ip)
{
	if (!test_and_set_once(&unlock_reported, class_bit(class_idx(class))))
		return;
	lockdep_report_start();
	pr_warn("WARNING: bad unlock balance detected!\n");
	pr_warn("cpu %u is trying to release %s (%px) at %pS\n",
		arch_cpu_id(), class->name, map, (void *)ip);
	pr_warn("but this CPU does not hold it\n");
	print_held_locks(arch_cpu_id(), lc);
	report_end();
}

void lock_release(struct lockdep_map *map)
{
	unsigned long ip = _RET_IP_;
	struct lockdep_cpu *lc = this_lockdep_cpu();
	struct lock_class *class;
	int i;

	if (!READ_ONCE(debug_locks) || lc->running)
		return;
	lc->running = true;
	i = find_held(lc, map);
	if (i >= 0) {
		lc->depth--;
		memmove(&lc->held[i], &lc->held[i + 1],
			(lc->depth - (unsigned int)i) * sizeof(lc->held[0]));
	} else if (lc->lost) {
		lc->lost--;	/* one of those taken past MAX_LOCK_DEPTH */
	} else {
		class = lookup_class(map, 0);
		if (class)
			report_bad_unlock(lc, class, map, ip);
	}
	lc->running = false;
}

bool lock_is_held(const struct lockdep_map *map)
{
	struct lockdep_cpu *lc = this_lockdep_cpu();

	return !READ_ONCE(debug_locks) || lc->lost || find_held(lc, map) >= 0;
}

void lock_assert_held(struct lockdep_map *map)
{
	unsigned long ip = _RET_IP_;
	struct lockdep_cpu *lc = this_lockdep_cpu();
	struct lock_class *class;

	if (lc->running || lock_is_held(map))
		return;
	lc->running = true;
	class = lookup_class(map, 0);
	if (class && test_and_set_once(&assert_reported,
				       class_bit(class_idx(class)))) {
		lockdep_report_start();
		pr_warn("WARNING: lock not held: cpu %u does not hold %s (%px) at %pS\n",
			arch_cpu_id(), class->name, map, (void *)ip);
		pr_warn("the code there must be called with %s held\n",
			class->name);
		print_held_locks(arch_cpu_id(), lc);
		report_end();
	}
	lc->running = false;
}

/*
 * The caller found interrupts on where they must be off: it is about to
 * take (or holds) a lock that an interrupt handler may take too, and an
 * interrupt there would spin on the lock its own CPU holds. Reported
 * once per call site, for the first 16 sites: a site is claimed with a
 * compare-and-swap, so two CPUs never report the same one, and once the
 * table is full nothing more is said (these sites run constantly).
 */
void lock_assert_irqs_disabled_failed(void)
{
	static unsigned long sites[16];
	unsigned long ip = _RET_IP_;
	struct lockdep_cpu *lc = this_lockdep_cpu();
	unsigned int i;

	if (!READ_ONCE(debug_locks) || lc->running)
		return;
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		unsigned long seen = 0;

		if (__atomic_compare_exchange_n(&sites[i], &seen, ip, false,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;		/* a new site: report it */
		if (seen == ip)
			return;		/* reported already */
	}
	if (i == ARRAY_SIZE(sites))
		return;
	lc->running = true;
	lockdep_report_start();
	pr_warn("WARNING: interrupts on at %pS: cpu %u must have them off there (a lock an interrupt handler may take)\n",
		(void *)ip, arch_cpu_id());
	print_held_locks(arch_cpu_id(), lc);
	report_end();
	lc->running = false;
}

unsigned int lockdep_depth(void)
{
	return this_lockdep_cpu()->depth;
}

void lockdep_reset_for_test(void)
{
	memset(dep_matrix, 0, sizeof(dep_matrix));
	memset(dep_sites, 0, sizeof(dep_sites));
	memset(circular_reported, 0, sizeof(circular_reported));
	memset(irq_order_reported, 0, sizeof(irq_order_reported));
	memset(usage_classes, 0, sizeof(usage_classes));
	irq_inversion_reported = 0;
	for (unsigned int i = 0; i < nr_lock_classes; i++) {
		lock_classes[i].usage_mask = 0;
		memset(lock_classes[i].usage_ip, 0,
		       sizeof(lock_classes[i].usage_ip));
	}
	recursion_reported = unlock_reported = assert_reported = 0;
	depth_reported = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
