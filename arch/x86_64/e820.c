// SPDX-License-Identifier: GPL-2.0
/*
 * The e820 physical memory map.
 *
 * Data structure: struct e820_table, a fixed array of at most
 * E820_MAX_ENTRIES (3200, enough for a fragmented UEFI map) (addr, size,
 * type) entries; no allocator is needed.
 * Firmware (through the boot loader) hands over a raw map whose entries may
 * be unsorted, overlapping, empty or absurd; e820__update_table() turns it
 * into a sanitized map: sorted by address, pairwise disjoint, no two
 * touching entries of the same type, every entry inside
 * [0, E820_PHYS_LIMIT) and every usable (RAM) entry page-aligned.
 *
 * Sanitizing works on half-open ranges [start, end):
 *  1. Normalize. Drop zero-length entries. An entry whose addr + size
 *     passes 2^64 is taken to end at the last byte, 0xffffffffffffffff
 *     (inclusive; as a half-open range it would end at 2^64, which u64
 *     cannot hold). Then entries starting at or above E820_PHYS_LIMIT
 *     (2^52) are dropped and entries crossing it end there, one warning
 *     per dropped or clipped entry. From here on end <= 2^52: no overflow.
 *  2. Resolve overlaps. Every start and end is a change point; heapsort
 *     puts them in address order and a sweep keeps the set of entries
 *     covering the current point (added at their start, removed at their
 *     end in O(1)). Each elementary interval between two distinct change
 *     points that some entry covers gets the type of highest priority
 *     among the entries covering it. O(n log n) for the sort plus, per
 *     interval, the entries covering it: for real maps (little nesting)
 *     a 3000-entry table takes well under a millisecond. All scratch is
 *     static: no recursion, nothing big on the 16 KiB kernel stack.
 *  3. Merge: consecutive intervals of one type that touch become one
 *     entry (they come out sorted by address already).
 *  4. Page-clip RAM inward (start up, end down, to 4 KiB), dropping what
 *     becomes empty. Merging first means two touching RAM pieces that
 *     together cover whole pages keep them. Clipping may leave holes.
 *  5. Fit. If more than E820_MAX_ENTRIES entries remain, RAM entries go,
 *     the smallest first (among equal sizes, the highest first), until
 *     the rest fits; a reservation is never dropped. Only if the
 *     reservations alone do not fit are the last ones joined into one
 *     reserved range (the holes between them become reserved too).
 * Sanitizing a sanitized table changes nothing.
 *
 * Priority rule (the more restrictive type wins; low to high):
 *	RAM(1) < ACPI data(3) < ACPI NVS(4)
 *	< RESERVED(2) = PMEM(7) = PRAM(12) = every unknown type
 *	< UNUSABLE(5, bad RAM)
 * Between different types of equal priority the larger type number wins,
 * so the result never depends on the order of the input.
 *
 * At boot (the end of this file), arch_memory_setup() reads the
 * firmware's map into e820_table and prints it, mem= and memmap= edit it,
 * and arch_memblock_setup() hands its RAM to memblock. The host build
 * models a PC and uses this file too, which keeps the sanitizer tested
 * natively (tests/test_e820.c).
 *
 * Caller's contract: boot time, one CPU, no locking: the functions share
 * static scratch space and are not reentrant. e820__range_update/remove
 * sanitize the table first, so they count bytes of a disjoint map, and
 * sanitize it again afterwards. The table must hold at most
 * E820_MAX_ENTRIES entries (nr_entries is trusted up to that bound).
 */
#define pr_fmt(fmt) "e820: " fmt

#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "kernel/shell.h"
#include "arch/arch.h"
#include "arch/x86_64/e820.h"

struct e820_table e820_table;

/* A normalized range: [start, end) with start < end <= E820_PHYS_LIMIT. */
struct e820_range {
	u64 start;
	u64 end;
	u32 type;
};

/* Editing a sanitized table adds at most two pieces (see e820_edit()). */
#define E820_SCRATCH	(E820_MAX_ENTRIES + 2)

/* A change point of the sweep: where range idx starts or ends. */
struct e820_change {
	u64 addr;
	u32 idx;
	u32 is_end;
};

static struct e820_range e820_in[E820_SCRATCH];
static struct e820_change e820_changes[2 * E820_SCRATCH];
static u32 e820_active[E820_SCRATCH];		/* ranges covering the sweep */
static u32 e820_active_pos[E820_SCRATCH];	/* range -> slot in active */
static struct e820_range e820_out[2 * E820_SCRATCH];

typedef unsigned long long ull;

/* --- priority ------------------------------------------------------------- */

static int e820_priority(u32 type)
{
	switch (type) {
	case E820_TYPE_RAM:
		return 0;
	case E820_TYPE_ACPI:
		return 1;
	case E820_TYPE_NVS:
		return 2;
	case E820_TYPE_UNUSABLE:
		return 4;
	default:		/* reserved, persistent, unknown */
		return 3;
	}
}

/* Does type a win over type b where both cover the same byte? */
static bool e820_outranks(u32 a, u32 b)
{
	int pa = e820_priority(a), pb = e820_priority(b);

	return pa != pb ? pa > pb : a > b;
}

/* --- step 1: normalize ------------------------------------------------------ */

/* Normalize e into r; false if it is dropped (empty or above the limit). */
static bool e820_normalize(const struct e820_entry *e, struct e820_range *r)
{
	bool wrapped;
	u64 last;

	if (!e->size)
		return false;
	wrapped = e->size - 1 > U64_MAX - e->addr;
	last = wrapped ? U64_MAX : e->addr + e->size - 1;
	if (e->addr >= E820_PHYS_LIMIT) {
		pr_warn("dropping [mem 0x%016llx-0x%016llx] %s%s: beyond %d-bit physical addresses\n",
			(ull)e->addr, (ull)last, e820_type_to_string(e->type),
			wrapped ? " (wraps past 2^64)" : "", E820_MAX_PHYS_BITS);
		return false;
	}
	r->start = e->addr;
	r->type = e->type;
	if (last < E820_PHYS_LIMIT) {
		r->end = last + 1;
		return true;
	}
	r->end = E820_PHYS_LIMIT;
	pr_warn("clipping [mem 0x%016llx-0x%016llx] %s%s to end at 0x%016llx: beyond %d-bit physical addresses\n",
		(ull)e->addr, (ull)last, e820_type_to_string(e->type),
		wrapped ? " (wraps past 2^64)" : "", (ull)(r->end - 1),
		E820_MAX_PHYS_BITS);
	return true;
}

/* --- step 2: resolve overlaps --------------------------------------------- */

static void e820_sift_down(struct e820_change *c, u32 root, u32 n)
{
	for (;;) {
		u32 child = 2 * root + 1;
		struct e820_change tmp;

		if (child >= n)
			return;
		if (child + 1 < n && c[child + 1].addr > c[child].addr)
			child++;
		if (c[root].addr >= c[child].addr)
			return;
		tmp = c[root];
		c[root] = c[child];
		c[child] = tmp;
		root = child;
	}
}

/* Heapsort by address: in place, O(n log n), no recursion. */
static void e820_sort_changes(struct e820_change *c, u32 n)
{
	u32 i;

	for (i = n / 2; i-- > 0; )
		e820_sift_down(c, i, n);
	for (i = n; i-- > 1; ) {
		struct e820_change tmp = c[0];

		c[0] = c[i];
		c[i] = tmp;
		e820_sift_down(c, 0, i);
	}
}

static u32 e820_collect_changes(const struct e820_range *in, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		e820_changes[2 * i] = (struct e820_change){ in[i].start, i, 0 };
		e820_changes[2 * i + 1] = (struct e820_change){ in[i].end, i, 1 };
	}
	e820_sort_changes(e820_changes, 2 * n);
	return 2 * n;
}

/* Apply the change at c to the active set (nact entries); new count. */
static u32 e820_apply_change(const struct e820_change *c, u32 nact)
{
	u32 slot;

	if (!c->is_end) {
		e820_active_pos[c->idx] = nact;
		e820_active[nact] = c->idx;
		return nact + 1;
	}
	slot = e820_active_pos[c->idx];
	e820_active[slot] = e820_active[nact - 1];
	e820_active_pos[e820_active[slot]] = slot;
	return nact - 1;
}

/* The winning type among the nact active ranges (nact > 0). */
static u32 e820_winner(const struct e820_range *in, u32 nact)
{
	u32 i, type = in[e820_active[0]].type;

	for (i = 1; i < nact; i++)
		if (e820_outranks(in[e820_active[i]].type, type))
			type = in[e820_active[i]].type;
	return type;
}

/* Steps 2 and 3: typed elementary intervals, touching equal types merged. */
static u32 e820_build_intervals(const struct e820_range *in, u32 n)
{
	u32 nc = e820_collect_changes(in, n);
	u32 i = 0, nact = 0, cnt = 0;

	while (i < nc) {
		u64 s = e820_changes[i].addr, e;
		struct e820_range *prev = cnt ? &e820_out[cnt - 1] : NULL;
		u32 type;

		while (i < nc && e820_changes[i].addr == s)
			nact = e820_apply_change(&e820_changes[i++], nact);
		if (!nact || i == nc)
			continue;
		e = e820_changes[i].addr;
		type = e820_winner(in, nact);
		if (prev && prev->end == s && prev->type == type) {
			prev->end = e;
			continue;
		}
		e820_out[cnt++] = (struct e820_range){ s, e, type };
	}
	return cnt;
}

/* --- step 4: page-clip RAM ------------------------------------------------ */

static u32 e820_clip_ram(struct e820_range *r, u32 cnt)
{
	u32 i, kept = 0;

	for (i = 0; i < cnt; i++) {
		struct e820_range x = r[i];

		if (x.type == E820_TYPE_RAM) {
			x.start = ALIGN(x.start, (u64)SZ_4K);
			x.end = ALIGN_DOWN(x.end, (u64)SZ_4K);
			if (x.start >= x.end)
				continue;
		}
		r[kept++] = x;
	}
	return kept;
}

/* --- step 5: fit the table ------------------------------------------------- */

/* RAM entries of r[0..cnt) no larger than size (less than, if strict). */
static u32 e820_count_ram(const struct e820_range *r, u32 cnt, u64 size,
			  bool strict)
{
	u32 i, k = 0;

	for (i = 0; i < cnt; i++) {
		u64 len = r[i].end - r[i].start;

		if (r[i].type == E820_TYPE_RAM && (strict ? len < size : len <= size))
			k++;
	}
	return k;
}

/*
 * Drop the need smallest RAM entries (among equal sizes, the highest
 * first). The smallest size cut with need entries at or below it is
 * found by bisection, so this is O(cnt * 52), whatever need is.
 */
static u32 e820_drop_small_ram(struct e820_range *r, u32 cnt, u32 need,
			       u64 *lost)
{
	u64 lo = 0, hi = E820_PHYS_LIMIT;
	u32 i, kept = 0, ties;

	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (e820_count_ram(r, cnt, mid, false) >= need)
			hi = mid;
		else
			lo = mid + 1;
	}
	ties = need - e820_count_ram(r, cnt, lo, true);
	for (i = cnt; i-- > 0; ) {
		u64 len = r[i].end - r[i].start;

		if (r[i].type != E820_TYPE_RAM || len > lo ||
		    (len == lo && !ties))
			continue;
		if (len == lo)
			ties--;
		*lost += len;
		r[i].end = r[i].start;		/* dropped */
	}
	for (i = 0; i < cnt; i++)
		if (r[i].start < r[i].end)
			r[kept++] = r[i];
	return kept;
}

/* Make cnt sanitized ranges fit the table, dropping RAM only. */
static u32 e820_fit(struct e820_range *r, u32 cnt)
{
	u32 ram = e820_count_ram(r, cnt, E820_PHYS_LIMIT, false);
	u32 need = cnt - E820_MAX_ENTRIES;
	u64 lost = 0;

	pr_warn("sanitized map needs %u entries, the table holds %u: dropping the %u smallest usable ranges\n",
		cnt, E820_MAX_ENTRIES, min(need, ram));
	cnt = e820_drop_small_ram(r, cnt, min(need, ram), &lost);
	pr_warn("%llu KiB of RAM left out; no reservation dropped\n",
		(ull)(lost >> 10));
	if (cnt <= E820_MAX_ENTRIES)
		return cnt;
	pr_warn("reservations alone need %u entries: [mem 0x%016llx-0x%016llx] reserved as one range\n",
		cnt, (ull)r[E820_MAX_ENTRIES - 1].start, (ull)(r[cnt - 1].end - 1));
	r[E820_MAX_ENTRIES - 1].end = r[cnt - 1].end;
	r[E820_MAX_ENTRIES - 1].type = E820_TYPE_RESERVED;
	return E820_MAX_ENTRIES;
}

/*
 * Sanitize the normalized ranges in[0..n) (steps 2-5) into t. in may not
 * be t's own entries (callers normalize into e820_in first).
 */
static int e820_resolve(const struct e820_range *in, u32 n, struct e820_table *t)
{
	u32 cnt, i;
	int ret = 0;

	cnt = e820_build_intervals(in, n);
	cnt = e820_clip_ram(e820_out, cnt);
	if (cnt > E820_MAX_ENTRIES) {
		cnt = e820_fit(e820_out, cnt);
		ret = -E2BIG;
	}
	t->nr_entries = cnt;
	for (i = 0; i < cnt; i++) {
		t->entries[i].addr = e820_out[i].start;
		t->entries[i].size = e820_out[i].end - e820_out[i].start;
		t->entries[i].type = e820_out[i].type;
	}
	return ret;
}

int e820__update_table(struct e820_table *t)
{
	u32 i, n = 0, nr = t->nr_entries;

	if (WARN(nr > E820_MAX_ENTRIES, "e820: corrupt table (%u entries)\n", nr))
		nr = E820_MAX_ENTRIES;
	for (i = 0; i < nr; i++)
		if (e820_normalize(&t->entries[i], &e820_in[n]))
			n++;
	return e820_resolve(e820_in, n, t);
}

/* --- building and editing ------------------------------------------------- */

/* Index of the smallest RAM entry of a sanitized table, or -1. */
static long e820_smallest_ram(const struct e820_table *t)
{
	long best = -1;
	u32 i;

	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];

		if (e->type == E820_TYPE_RAM &&
		    (best < 0 || e->size <= t->entries[best].size))
			best = i;
	}
	return best;
}

static void e820_delete(struct e820_table *t, u32 i)
{
	memmove(&t->entries[i], &t->entries[i + 1],
		(t->nr_entries - i - 1) * sizeof(t->entries[0]));
	t->nr_entries--;
}

/* No RAM left: join the two reservations with the smallest hole between. */
static void e820_join_closest(struct e820_table *t)
{
	u32 i, best = 0;
	u64 gap, best_gap = U64_MAX;
	struct e820_entry *a, *b;

	for (i = 0; i + 1 < t->nr_entries; i++) {
		a = &t->entries[i];
		gap = t->entries[i + 1].addr - (a->addr + a->size);
		if (gap < best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	a = &t->entries[best];
	b = &t->entries[best + 1];
	pr_warn("table full of reservations: [mem 0x%016llx-0x%016llx] joined into one reserved range\n",
		(ull)a->addr, (ull)(b->addr + b->size - 1));
	a->size = b->addr + b->size - a->addr;
	if (e820_outranks(b->type, a->type))
		a->type = b->type;
	if (a->type == E820_TYPE_RAM)
		a->type = E820_TYPE_RESERVED;
	e820_delete(t, best + 1);
}

/*
 * The table is full: sanitize it, then if it is still full make room for
 * a reservation at the expense of RAM. false if a RAM range is to be
 * dropped instead.
 */
static bool e820_make_room(struct e820_table *t, u64 start, u64 size, u32 type)
{
	long victim;

	e820__update_table(t);
	if (t->nr_entries < E820_MAX_ENTRIES)
		return true;
	if (type == E820_TYPE_RAM) {
		pr_warn("table full, dropping usable [mem 0x%016llx-0x%016llx]\n",
			(ull)start, (ull)(start + size - 1));
		return false;
	}
	victim = e820_smallest_ram(t);
	if (victim < 0) {
		e820_join_closest(t);
		return true;
	}
	pr_warn("table full, dropping usable [mem 0x%016llx-0x%016llx] to keep [mem 0x%016llx-0x%016llx] %s\n",
		(ull)t->entries[victim].addr,
		(ull)(t->entries[victim].addr + t->entries[victim].size - 1),
		(ull)start, (ull)(start + size - 1), e820_type_to_string(type));
	e820_delete(t, (u32)victim);
	return true;
}

int e820__range_add(struct e820_table *t, u64 start, u64 size, u32 type)
{
	struct e820_entry *e;

	if (!size)
		return 0;
	if (t->nr_entries >= E820_MAX_ENTRIES &&
	    !e820_make_room(t, start, size, type))
		return -ENOSPC;
	e = &t->entries[t->nr_entries++];
	e->addr = start;
	e->size = size;
	e->type = type;
	return 0;
}

/* Append [start, end) to e820_in[] unless empty. */
static void e820_push(u32 *n, u64 start, u64 end, u32 type)
{
	if (start >= end)
		return;
	if (WARN_ON(*n >= E820_SCRATCH))
		return;
	e820_in[(*n)++] = (struct e820_range){ start, end, type };
}

/*
 * Retype (or, if remove, drop) the part inside [start, start + size) of
 * every entry that matches (check_type: has type old_type). The table is
 * sanitized first, so entries are disjoint and at most two of them (those
 * holding start or the end strictly inside) split in two or three pieces:
 * the pieces fit in E820_SCRATCH. Returns the bytes retyped or dropped.
 */
static u64 e820_edit(struct e820_table *t, u64 start, u64 size, u32 old_type,
		     bool check_type, bool remove, u32 new_type)
{
	u64 end = size > U64_MAX - start ? U64_MAX : start + size;
	u64 done = 0;
	u32 i, n = 0;

	if (!size)
		return 0;
	e820__update_table(t);
	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];
		u64 s = e->addr, ee = e->addr + e->size;
		u64 lo = max(s, start), hi = min(ee, end);

		if ((check_type && e->type != old_type) || lo >= hi) {
			e820_push(&n, s, ee, e->type);
			continue;
		}
		e820_push(&n, s, lo, e->type);
		if (!remove)
			e820_push(&n, lo, hi, new_type);
		e820_push(&n, hi, ee, e->type);
		done += hi - lo;
	}
	e820_resolve(e820_in, n, t);
	return done;
}

u64 e820__range_update(struct e820_table *t, u64 start, u64 size,
		       u32 old_type, u32 new_type)
{
	if (old_type == new_type)
		return 0;
	return e820_edit(t, start, size, old_type, true, false, new_type);
}

u64 e820__range_remove(struct e820_table *t, u64 start, u64 size,
		       u32 old_type, bool check_type)
{
	return e820_edit(t, start, size, old_type, check_type, true, 0);
}

bool e820_type_known(u32 type)
{
	switch (type) {
	case E820_TYPE_RAM:
	case E820_TYPE_RESERVED:
	case E820_TYPE_ACPI:
	case E820_TYPE_NVS:
	case E820_TYPE_UNUSABLE:
	case E820_TYPE_PMEM:
	case E820_TYPE_PRAM:
		return true;
	default:
		return false;
	}
}

u64 e820__total(const struct e820_table *t, u32 type)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < t->nr_entries && i < E820_MAX_ENTRIES; i++)
		if (t->entries[i].type == type)
			sum += t->entries[i].size;
	return sum;
}

/* --- printing ------------------------------------------------------------- */

const char *e820_type_to_string(u32 type)
{
	static char bufs[4][sizeof("type 4294967295")];
	static unsigned int next;
	char *buf;

	switch (type) {
	case E820_TYPE_RAM:		return "usable";
	case E820_TYPE_RESERVED:	return "reserved";
	case E820_TYPE_ACPI:		return "ACPI data";
	case E820_TYPE_NVS:		return "ACPI NVS";
	case E820_TYPE_UNUSABLE:	return "unusable";
	case E820_TYPE_PMEM:		return "persistent (type 7)";
	case E820_TYPE_PRAM:		return "persistent RAM (type 12)";
	default:
		break;
	}
	buf = bufs[next++ % ARRAY_SIZE(bufs)];
	snprintf(buf, sizeof(bufs[0]), "type %u", type);
	return buf;
}

void e820__print_table(const struct e820_table *t, const char *who)
{
	u32 i;

	for (i = 0; i < t->nr_entries && i < E820_MAX_ENTRIES; i++) {
		const struct e820_entry *e = &t->entries[i];

		printk(KERN_INFO "%s: [mem 0x%016llx-0x%016llx] %s\n", who,
		       (ull)e->addr, (ull)(e->addr + e->size - 1),
		       e820_type_to_string(e->type));
	}
}

/* --- command line: mem= and memmap= ---------------------------------------- */

/* A memparse size at *p; advances *p. -EINVAL if there are no digits. */
static int e820_parse_size(const char **p, u64 *val)
{
	char *end;

	*val = memparse(*p, &end);
	if (end == *p)
		return -EINVAL;
	*p = end;
	return 0;
}

int e820__parse_mem(struct e820_table *t, const char *arg)
{
	const char *p = arg;
	u64 limit;

	if (!arg || e820_parse_size(&p, &limit) || *p || !limit) {
		pr_warn("mem=%s: invalid size, ignored\n", arg ? arg : "");
		return -EINVAL;
	}
	e820__range_remove(t, limit, U64_MAX - limit, E820_TYPE_RAM, true);
	return 0;
}

static int e820_memmap_type(char c, u32 *type)
{
	switch (c) {
	case '@':
		*type = E820_TYPE_RAM;
		return 0;
	case '$':
		*type = E820_TYPE_RESERVED;
		return 0;
	case '!':
		*type = E820_TYPE_PRAM;
		return 0;
	case '#':
		*type = E820_TYPE_ACPI;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Apply one memmap= spec at *pp (up to ',' or the end) to t; advances *pp. */
static int e820_memmap_one(struct e820_table *t, const char **pp)
{
	const char *p = *pp;
	int len = (int)strcspn(p, ",");
	u64 size, addr;
	u32 type;

	if (!strncmp(p, "exactmap", 8) || memchr(p, '%', len)) {
		pr_warn("memmap=%.*s: unsupported\n", len, p);
		return -EINVAL;
	}
	if (e820_parse_size(&p, &size) || !size)
		goto bad;
	if (*p == ',' || !*p) {		/* memmap=SIZE: like mem=SIZE */
		e820__range_remove(t, size, U64_MAX - size, E820_TYPE_RAM, true);
		*pp = p;
		return 0;
	}
	if (e820_memmap_type(*p++, &type) || e820_parse_size(&p, &addr) ||
	    (*p && *p != ','))
		goto bad;
	if (size - 1 > U64_MAX - addr) {
		pr_warn("memmap=%.*s: range passes 2^64\n", len, *pp);
		return -EINVAL;
	}
	*pp = p;
	return e820__range_add(t, addr, size, type);
bad:
	pr_warn("memmap=%.*s: invalid, expected SIZE{@,$,!,#}ADDR\n", len, *pp);
	return -EINVAL;
}

int e820__parse_memmap(struct e820_table *t, const char *arg)
{
	static struct e820_table work;
	const char *p = arg;
	int err;

	if (!arg || !*arg) {
		pr_warn("memmap: empty value, ignored\n");
		return -EINVAL;
	}
	work = *t;
	for (;;) {
		err = e820_memmap_one(&work, &p);
		if (err)
			return err;
		if (!*p)
			break;
		p++;		/* the ',' */
	}
	err = e820__update_table(&work);
	if (err)
		return err;
	*t = work;
	return 0;
}

/* --- the kernel's map at boot ---------------------------------------------- */

/* Below this, BIOS data and real-mode leftovers: reserved, as in Linux. */
#define E820_LOW_RESERVE	SZ_64K

static bool e820_user_changed;

void arch_memory_setup(void)
{
	e820__memory_setup_firmware(&e820_table);
	e820__update_table(&e820_table);
	pr_info("BIOS-provided physical RAM map:\n");
	e820__print_table(&e820_table, "BIOS-e820");
}

static int mem_setup(char *arg)
{
	if (!arg || e820__parse_mem(&e820_table, arg))
		return -EINVAL;
	e820_user_changed = true;
	return 0;
}
kernel_param("mem", mem_setup);

static int memmap_setup(char *arg)
{
	if (!arg || e820__parse_memmap(&e820_table, arg))
		return -EINVAL;
	e820_user_changed = true;
	return 0;
}
kernel_param("memmap", memmap_setup);

void arch_memblock_setup(void)
{
	if (e820_user_changed) {
		pr_info("user-defined physical RAM map:\n");
		e820__print_table(&e820_table, "user");
	}
	for (u32 i = 0; i < e820_table.nr_entries; i++) {
		const struct e820_entry *e = &e820_table.entries[i];

		if (e->type == E820_TYPE_RAM)
			memblock_add(e->addr, e->size);
	}
	if (!memblock_phys_mem_size())
		panic("no usable RAM left in the memory map");
	memblock_reserve_named(0, E820_LOW_RESERVE, "low memory");
	max_pfn = PHYS_PFN(memblock_end_of_DRAM());
}

static int cmd_e820(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	e820__print_table(&e820_table, "e820");
	return 0;
}
SHELL_CMD("e820", cmd_e820, "the memory map after sanitizing and mem=/memmap=");
