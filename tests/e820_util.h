/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the e820 and EFI memory map suites. */
#ifndef TESTS_E820_UTIL_H
#define TESTS_E820_UTIL_H

#include "lib/ktest/ktest.h"
#include "arch/x86_64/e820.h"

/* Expect tbl to hold exactly want[0..n), naming each entry that differs. */
void e820_expect_table(struct ktest *t, const struct e820_table *tbl,
		       const struct e820_entry *want, u32 n);

#endif /* TESTS_E820_UTIL_H */
