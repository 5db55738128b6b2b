// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection: failslab and fail_page_alloc (interface and command
 * line in mm/fault_inject.h).
 *
 * The hooks (should_failslab, should_fail_alloc_page) apply their point's
 * filter first; a call that passes it is a candidate, and should_fail()
 * decides for it in Linux's order:
 *
 *   1. space: while more than size bytes of allowance are left, the call
 *      goes through and the allowance shrinks by size (as in Linux, a
 *      call larger than what is left neither passes nor shrinks it);
 *   2. interval: if > 1, only every interval-th candidate past the space
 *      allowance may fail;
 *   3. probability: it fails if the next PRNG draw % 100 < probability;
 *   4. times: each failure uses one up (-1: no limit); at 0 the point
 *      switches itself off.
 *
 * The PRNG is xorshift64*, its state seeded through splitmix64 from
 * fault_inject_seed= (default 1), so one command line fails the same calls
 * in every run. A decision takes fault_lock; the hooks only get there
 * while their point is enabled (alloc_pages tests ->enabled inline, SLAB
 * sends allocations to its slow path only while failslab is on).
 *
 * The command line configures the points at once but arms them only when
 * memory bring-up is over (fault_inject_init(), from mm_core_init()), so
 * that boot itself (mem_map, the SLAB bootstrap) cannot be failed.
 *
 * Defaults (Linux differs where noted): every order is a candidate
 * (Linux: fail_page_alloc ignores order 0 and reclaiming allocations
 * unless told otherwise), and no GFP flag exempts a call.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "lib/prandom.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/internal.h"
#include "mm/slab_internal.h"

#define FAULT_SPEC_LEN		64
#define DEFAULT_SEED		1

struct fault_attr failslab = { .name = "failslab", .interval = 1, .times = -1 };
struct fault_attr fail_page_alloc = {
	.name = "fail_page_alloc", .interval = 1, .times = -1,
};

static DEFINE_SPINLOCK(fault_lock);
static u64 fault_seed = DEFAULT_SEED;
static char failslab_cache[FAULT_CACHE_NAME_LEN];
static unsigned int fail_page_alloc_min_order;
static bool failslab_at_boot, fail_page_alloc_at_boot;	/* to arm */

/* --- PRNG ----------------------------------------------------------- */

static u64 prng_state(u64 seed)
{
	u64 state;

	prandom_seed(&state, seed);
	return state;
}

static u32 prng_next(struct fault_attr *attr)
{
	return (u32)(prandom_u64(&attr->prng) >> 32);
}

/* --- configuration -------------------------------------------------- */

struct fault_spec {
	unsigned long interval;
	unsigned long probability;
	unsigned long space;
	int times;
};

/* One decimal field; a missing or malformed one is -EINVAL. */
static int parse_field(const char *s, unsigned long *val)
{
	return *s == '-' ? -EINVAL : kstrtoul(s, 10, val);
}

static int parse_spec(const char *spec, struct fault_spec *f)
{
	char buf[FAULT_SPEC_LEN], *s = buf, *field;
	unsigned long *const fields[] = { &f->interval, &f->probability,
					  &f->space };
	unsigned int n = 0;

	*f = (struct fault_spec){ .interval = 1, .probability = 100,
				  .space = 0, .times = -1 };
	if (strscpy(buf, spec, sizeof(buf)) < 0)
		return -EINVAL;
	while ((field = strsep(&s, ","))) {
		int err;

		if (n < ARRAY_SIZE(fields))
			err = parse_field(field, fields[n]);
		else if (n == ARRAY_SIZE(fields))
			err = kstrtoint(field, 10, &f->times);
		else
			err = -EINVAL;		/* a fifth field */
		if (err)
			return -EINVAL;
		n++;
	}
	if (!f->interval || f->probability > 100 ||
	    f->space > (unsigned long)LONG_MAX || f->times < -1)
		return -EINVAL;
	return 0;
}

/* The allocators route requests by their point's state. */
static void notify_enabled(struct fault_attr *attr)
{
	if (attr == &failslab)
		slab_failslab_changed();
	else if (attr == &fail_page_alloc)
		pcp_fast_paths_update();
}

int fault_attr_set(struct fault_attr *attr, const char *spec, u64 seed)
{
	struct fault_spec f;
	unsigned long flags;
	bool on;

	if (!spec || !*spec) {
		fault_attr_disable(attr);
		return 0;
	}
	if (parse_spec(spec, &f))
		return -EINVAL;
	on = f.probability && f.times;
	spin_lock_irqsave(&fault_lock, flags);
	attr->interval = f.interval;
	attr->probability = (unsigned int)f.probability;
	attr->space = (long)f.space;
	attr->times = f.times;
	attr->prng = prng_state(seed);
	attr->count = 0;
	attr->candidates = 0;
	attr->failures = 0;
	WRITE_ONCE(attr->enabled, on);
	spin_unlock_irqrestore(&fault_lock, flags);
	notify_enabled(attr);
	return 0;
}

void fault_attr_disable(struct fault_attr *attr)
{
	WRITE_ONCE(attr->enabled, false);
	notify_enabled(attr);
}

void failslab_set_cache(const char *name)
{
	unsigned long flags;

	spin_lock_irqsave(&fault_lock, flags);
	strscpy(failslab_cache, name ? name : "", sizeof(failslab_cache));
	spin_unlock_irqrestore(&fault_lock, flags);
}

int fail_page_alloc_set_order(unsigned int order)
{
	if (order >= MAX_ORDER)
		return -EINVAL;
	WRITE_ONCE(fail_page_alloc_min_order, order);
	return 0;
}

/* --- decisions ------------------------------------------------------ */

static void fail_dump(const struct fault_attr *attr, unsigned long caller)
{
	pr_notice("FAULT_INJECTION: forcing a failure: %s, caller %pS\n",
		  attr->name, (void *)caller);
	pr_notice("name %s, interval %lu, probability %u, space %ld, times %ld\n",
		  attr->name, attr->interval, attr->probability, attr->space,
		  attr->times);
	dump_stack();
}

/* Steps 1-3 of the decision (top of file); fault_lock held. */
static bool decide(struct fault_attr *attr, size_t size)
{
	lockdep_assert_held(&fault_lock);
	if (attr->space > 0 && (unsigned long)attr->space > size) {
		attr->space -= (long)size;
		return false;
	}
	if (attr->interval > 1 && ++attr->count % attr->interval)
		return false;
	return prng_next(attr) % 100 < attr->probability;
}

static bool __should_fail(struct fault_attr *attr, size_t size, bool report,
			  unsigned long caller)
{
	bool fail = false, exhausted = false;
	unsigned long flags;

	if (!READ_ONCE(attr->enabled))
		return false;
	spin_lock_irqsave(&fault_lock, flags);
	if (attr->enabled) {
		attr->candidates++;
		fail = decide(attr, size);
	}
	if (fail) {
		attr->failures++;
		if (attr->times > 0 && !--attr->times) {
			WRITE_ONCE(attr->enabled, false);
			exhausted = true;
		}
	}
	spin_unlock_irqrestore(&fault_lock, flags);
	if (exhausted)
		notify_enabled(attr);
	if (fail && report && attr->verbose)
		fail_dump(attr, caller);
	return fail;
}

bool should_fail(struct fault_attr *attr, size_t size)
{
	return __should_fail(attr, size, true, _RET_IP_);
}

/* Does the failslab_cache= filter let cachep through? fault_lock held. */
static bool failslab_cache_match(const struct kmem_cache *cachep)
{
	lockdep_assert_held(&fault_lock);
	return !failslab_cache[0] ||
	       (cachep->name && !strcmp(cachep->name, failslab_cache));
}

bool should_failslab(struct kmem_cache *cachep, gfp_t gfp)
{
	unsigned long flags;
	bool match;

	if (!READ_ONCE(failslab.enabled))
		return false;
	spin_lock_irqsave(&fault_lock, flags);
	match = failslab_cache_match(cachep);
	spin_unlock_irqrestore(&fault_lock, flags);
	if (!match)
		return false;
	return __should_fail(&failslab, cachep->object_size,
			     !(gfp & __GFP_NOWARN), _RET_IP_);
}

bool should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	if (!READ_ONCE(fail_page_alloc.enabled) ||
	    order < READ_ONCE(fail_page_alloc_min_order))
		return false;
	return __should_fail(&fail_page_alloc, PAGE_SIZE << order,
			     !(gfp & __GFP_NOWARN), _RET_IP_);
}

/* --- command line --------------------------------------------------- */

/* Configure attr now, keep it off until fault_inject_init(). */
static int boot_attr_set(struct fault_attr *attr, const char *val, bool *arm)
{
	int err = fault_attr_set(attr, val, fault_seed);

	if (err)
		return err;
	*arm = attr->enabled;
	fault_attr_disable(attr);
	return 0;
}

static int failslab_setup(char *val)
{
	return boot_attr_set(&failslab, val, &failslab_at_boot);
}
kernel_param("failslab", failslab_setup);

static int fail_page_alloc_setup(char *val)
{
	return boot_attr_set(&fail_page_alloc, val, &fail_page_alloc_at_boot);
}
kernel_param("fail_page_alloc", fail_page_alloc_setup);

static void arm(struct fault_attr *attr, bool *at_boot)
{
	if (!*at_boot)
		return;
	*at_boot = false;
	WRITE_ONCE(attr->enabled, true);
	notify_enabled(attr);
	pr_info("fault_inject: %s on: interval %lu, probability %u%%, space %ld, times %ld\n",
		attr->name, attr->interval, attr->probability, attr->space,
		attr->times);
}

void fault_inject_init(void)
{
	arm(&failslab, &failslab_at_boot);
	arm(&fail_page_alloc, &fail_page_alloc_at_boot);
}

static int failslab_cache_setup(char *val)
{
	if (!val || !*val || strlen(val) >= FAULT_CACHE_NAME_LEN)
		return -EINVAL;
	failslab_set_cache(val);
	return 0;
}
kernel_param("failslab_cache", failslab_cache_setup);

static int fail_page_alloc_order_setup(char *val)
{
	unsigned long order;

	if (!val || kstrtoul(val, 10, &order) || order >= MAX_ORDER)
		return -EINVAL;
	return fail_page_alloc_set_order((unsigned int)order);
}
kernel_param("fail_page_alloc_order", fail_page_alloc_order_setup);

/* Also re-seeds a point set earlier on the line: the order does not matter. */
static int fault_inject_seed_setup(char *val)
{
	unsigned long long seed;

	if (!val || kstrtoull(val, 0, &seed))
		return -EINVAL;
	fault_seed = seed;
	failslab.prng = prng_state(seed);
	fail_page_alloc.prng = prng_state(seed);
	return 0;
}
kernel_param("fault_inject_seed", fault_inject_seed_setup);

static int fault_inject_verbose_setup(char *val)
{
	bool on = !val || !strcmp(val, "1") || !strcmp(val, "on");

	if (val && !on && strcmp(val, "0") && strcmp(val, "off"))
		return -EINVAL;
	failslab.verbose = on;
	fail_page_alloc.verbose = on;
	return 0;
}
kernel_param("fault_inject_verbose", fault_inject_verbose_setup);

/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/* A private point that never fails: only its own state changes. */
static __maybe_unused void decide_unlocked(void)
{
	struct fault_attr attr = { .name = "lockdep-test", .interval = 1 };

	decide(&attr, 0);
}
LOCKDEP_ASSERT_TEST(decide, "fault_lock", decide_unlocked);

static __maybe_unused void failslab_cache_match_unlocked(void)
{
	static struct kmem_cache cache = { .name = "lockdep-test" };

	failslab_cache_match(&cache);
}
LOCKDEP_ASSERT_TEST(failslab_cache_match, "fault_lock",
		    failslab_cache_match_unlocked);
