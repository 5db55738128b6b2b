// SPDX-License-Identifier: GPL-2.0
/*
 * Must warn: each line marked "past the end" writes one byte after an
 * allocation whose size the compiler knows only from __alloc_size
 * (mm/slab.h, mm/gfp.h). With -O2 -Warray-bounds each of those lines,
 * and no other, must get a warning; remove an attribute and its line
 * goes quiet, which tools/testing/compile_checks.py reports. The last
 * function writes the last byte in bounds: no warning.
 */
#include "mm/gfp.h"
#include "mm/slab.h"

char *inline_kmalloc(void);
char *out_of_line_kmalloc(void);
char *zeroed(void);
char *array(void);
char *zeroed_array(void);
char *on_node(void);
char *resized(char *p);
char *exact_pages(void);
char *duplicated(const char *src);
char *zeroed_on_node(void);
char *resized_array(char *p);
char *in_bounds(void);

char *inline_kmalloc(void)
{
	char *p = kmalloc(16, GFP_KERNEL);

	p[16] = 1;				/* past the end */
	return p;
}

char *out_of_line_kmalloc(void)
{
	char *p = __kmalloc(24, GFP_KERNEL);

	p[24] = 1;				/* past the end */
	return p;
}

char *zeroed(void)
{
	char *p = kzalloc(32, GFP_KERNEL);

	p[32] = 1;				/* past the end */
	return p;
}

char *array(void)
{
	char *p = kmalloc_array(4, 10, GFP_KERNEL);

	p[40] = 1;				/* past the end */
	return p;
}

char *zeroed_array(void)
{
	char *p = kcalloc(3, 8, GFP_KERNEL);

	p[24] = 1;				/* past the end */
	return p;
}

char *on_node(void)
{
	char *p = kmalloc_node(48, GFP_KERNEL, 0);

	p[48] = 1;				/* past the end */
	return p;
}

char *resized(char *p)
{
	p = krealloc(p, 56, GFP_KERNEL);
	p[56] = 1;				/* past the end */
	return p;
}

char *exact_pages(void)
{
	char *p = alloc_pages_exact(5000, GFP_KERNEL);

	p[5000] = 1;				/* past the end */
	return p;
}

char *duplicated(const char *src)
{
	char *p = kmemdup(src, 12, GFP_KERNEL);

	p[12] = 1;				/* past the end */
	return p;
}

char *zeroed_on_node(void)
{
	char *p = kzalloc_node(20, GFP_KERNEL, 0);

	p[20] = 1;				/* past the end */
	return p;
}

char *resized_array(char *p)
{
	p = krealloc_array(p, 6, 5, GFP_KERNEL);
	p[30] = 1;				/* past the end */
	return p;
}

char *in_bounds(void)
{
	char *p = kmalloc(16, GFP_KERNEL);

	p[15] = 1;
	return p;
}
