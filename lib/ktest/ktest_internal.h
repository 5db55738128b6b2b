/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the ktest runner share (ktest.c runs the cases,
 * leak.c counts what they leave in use); not for tests.
 */
#ifndef LIB_KTEST_KTEST_INTERNAL_H
#define LIB_KTEST_KTEST_INTERNAL_H

#include "lib/ktest/ktest.h"

/* Fail the case as a whole ("# <case>: message"), with no location. */
void ktest_runner_fail(struct ktest *t, const char *fmt, ...) __printf(2, 3);

/* Pages and slab objects in use, with the allocators settled. */
struct ktest_leak_snapshot {
	long pages;
	long objects;
};

/* Before a case: settle the allocators, count, keep the breakdown. */
void ktest_leak_snapshot(const struct ktest *t,
			 struct ktest_leak_snapshot *snap);
/* After it: settle again and fail t for whatever grew. */
void ktest_leak_check(struct ktest *t,
		      const struct ktest_leak_snapshot *before);

#endif /* LIB_KTEST_KTEST_INTERNAL_H */
