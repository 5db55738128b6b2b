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

struct lock_class {
	const void *key;
	const char *name;
	unsigned int subclass;
};

struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *instance;
	unsigned long acquire_ip;
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

static u64 circular_reported[MAX_LOCK_CLASSES];
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

	if (!subclass && (class = __atomic_load_n(&map->class_cache,
						  __ATOMIC_ACQUIRE)))
		return class;
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
	pr_warn("cpu %u is trying to acquire %s (%px) at %pS\n",
		arch_cpu_id(), class->name, map, (void *)ip);
	pr_warn("while holding %s (%px), taken at %pS;\n", held->class->name,
		held->instance, (void *)held->acquire_ip);
	pr_warn("the opposite order was seen before:\n");
	print_dep_path(b, a, parent);
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
	__atomic_fetch_or(&dep_matrix[a], class_bit(b), __ATOMIC_RELEASE);
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
	pr_warn("cpu %u is trying to acquire %s (%px) at %pS\n",
		arch_cpu_id(), class->name, map, (void *)ip);
	pr_warn("but already holds %s (%px), taken at %pS\n",
		held->class->name, held->instance, (void *)held->acquire_ip);
	if (held->instance == map)
		pr_warn("the same lock: this CPU would spin on it forever\n");
	else
		pr_warn("another lock of the same class: if the order is fixed, say so with spin_lock_nested()\n");
	print_held_locks(arch_cpu_id(), lc);
	report_end();
}

static void check_acquire(struct lockdep_cpu *lc, struct lock_class *class,
			  const struct lockdep_map *map, unsigned long ip)
{
	for (unsigned int i = 0; i < lc->depth; i++) {
		const struct held_lock *held = &lc->held[i];

		if (held->instance == map || held->class == class) {
			report_recursion(lc, held, class, map, ip);
			return;
		}
	}
	for (unsigned int i = 0; i < lc->depth; i++)
		add_dependency(&lc->held[i], class, map, ip);
}

static void push_held(struct lockdep_cpu *lc, struct lock_class *class,
		      const struct lockdep_map *map, unsigned long ip)
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
		if (!trylock)
			check_acquire(lc, class, map, ip);
		push_held(lc, class, map, ip);
	}
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
	} else if ((class = lookup_class(map, 0))) {
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
	recursion_reported = unlock_reported = assert_reported = 0;
	depth_reported = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
