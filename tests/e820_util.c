// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the e820 and EFI memory map suites. */
#include "tests/e820_util.h"

static bool same_entry(const struct e820_entry *a, const struct e820_entry *b)
{
	return a->addr == b->addr && a->size == b->size && a->type == b->type;
}

void e820_expect_table(struct ktest *t, const struct e820_table *tbl,
		       const struct e820_entry *want, u32 n)
{
	u32 i;

	KTEST_EXPECT_EQ(t, tbl->nr_entries, n);
	for (i = 0; i < n && i < tbl->nr_entries; i++) {
		const struct e820_entry *e = &tbl->entries[i];

		if (same_entry(e, &want[i]))
			continue;
		KTEST_FAIL(t, "entry %u: got [0x%llx+0x%llx] type %u, want [0x%llx+0x%llx] type %u",
			   i, (unsigned long long)e->addr,
			   (unsigned long long)e->size, e->type,
			   (unsigned long long)want[i].addr,
			   (unsigned long long)want[i].size, want[i].type);
	}
}
