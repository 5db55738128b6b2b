// SPDX-License-Identifier: GPL-2.0
/*
 * report_kind(): the one hook reporters call, and the kinds' names
 * (kernel/report.h). The hook is installed and removed by the one CPU
 * that runs the tests; reporters only read it.
 */
#include "kernel/report.h"
#include "kernel/compiler.h"
#include "kernel/types.h"

static void (*report_hook)(enum report_kind kind, void *data);
static void *report_hook_data;

static const char *const report_kind_names[NR_REPORT_KINDS] = {
	[REPORT_NONE]			= "none",
	[REPORT_WARN]			= "warn",
	[REPORT_BAD_PAGE_ORDER]		= "bad_page_order",
	[REPORT_BAD_PAGE_RESERVED]	= "bad_page_reserved",
	[REPORT_BAD_PAGE_ALREADY_FREE]	= "bad_page_already_free",
	[REPORT_BAD_PAGE_TAIL]		= "bad_page_tail",
	[REPORT_BAD_PAGE_SLAB]		= "bad_page_slab",
	[REPORT_BAD_PAGE_REFCOUNT]	= "bad_page_refcount",
	[REPORT_BAD_PAGE_WRONG_ORDER]	= "bad_page_wrong_order",
	[REPORT_BAD_PAGE_NOT_RAM]	= "bad_page_not_ram",
	[REPORT_BAD_PAGE_NOT_DIRECT_MAP] = "bad_page_not_direct_map",
	[REPORT_BAD_PAGE_NEW_IN_USE]	= "bad_page_new_in_use",
	[REPORT_BAD_PAGE_PUT_UNDERFLOW]	= "bad_page_put_underflow",
	[REPORT_BAD_PAGE_REF_ZERO]	= "bad_page_ref_zero",
	[REPORT_BAD_PAGE_SPLIT_COMPOUND] = "bad_page_split_compound",
	[REPORT_PAGE_POISON]		= "page_poison",
	[REPORT_PAGE_CHECK_MAPPED]	= "page_check_mapped",
	[REPORT_PAGE_CHECK_POISON]	= "page_check_poison",
	[REPORT_PAGE_CHECK_BLOCK]	= "page_check_block",
	[REPORT_PAGE_CHECK_NOT_CLEAN]	= "page_check_not_clean",
	[REPORT_PAGE_CHECK_OVERLAP]	= "page_check_overlap",
	[REPORT_PAGE_CHECK_LIST]	= "page_check_list",
	[REPORT_PAGE_CHECK_PCP_PAGE]	= "page_check_pcp_page",
	[REPORT_PAGE_CHECK_COUNT]	= "page_check_count",
	[REPORT_SLAB_DOUBLE_FREE]	= "slab_double_free",
	[REPORT_SLAB_NOT_SLAB]		= "slab_not_slab",
	[REPORT_SLAB_WILD_POINTER]	= "slab_wild_pointer",
	[REPORT_SLAB_NOT_KMALLOC]	= "slab_not_kmalloc",
	[REPORT_SLAB_WRONG_CACHE]	= "slab_wrong_cache",
	[REPORT_SLAB_QUARANTINED]	= "slab_quarantined",
	[REPORT_SLAB_OUTSIDE_OBJECTS]	= "slab_outside_objects",
	[REPORT_SLAB_INSIDE_OBJECT]	= "slab_inside_object",
	[REPORT_SLAB_INSIDE_LARGE]	= "slab_inside_large",
	[REPORT_SLAB_RED_ZONE]		= "slab_red_zone",
	[REPORT_SLAB_KMALLOC_RED_ZONE]	= "slab_kmalloc_red_zone",
	[REPORT_SLAB_POISON]		= "slab_poison",
	[REPORT_SLAB_BAD_INDEX]		= "slab_bad_index",
	[REPORT_SLAB_BAD_SLAB]		= "slab_bad_slab",
	[REPORT_SLAB_BAD_COUNTERS]	= "slab_bad_counters",
	[REPORT_SLAB_ARRAY_FOREIGN]	= "slab_array_foreign",
	[REPORT_SLAB_ARRAY_FREE]	= "slab_array_free",
	[REPORT_SLAB_ARRAY_TWICE]	= "slab_array_twice",
	[REPORT_SLAB_CACHE_BUSY]	= "slab_cache_busy",
	[REPORT_PAGE_FAULT]		= "page_fault",
	[REPORT_VMALLOC_BAD_FREE]	= "vmalloc_bad_free",
	[REPORT_VMALLOC_DOUBLE_FREE]	= "vmalloc_double_free",
	[REPORT_VMALLOC_WRONG_KIND]	= "vmalloc_wrong_kind",
	[REPORT_VMALLOC_BAD_SIZE]	= "vmalloc_bad_size",
	[REPORT_KFENCE_OOB]		= "kfence_oob",
	[REPORT_KFENCE_UAF]		= "kfence_uaf",
	[REPORT_KFENCE_CORRUPTION]	= "kfence_corruption",
	[REPORT_KFENCE_INVALID]		= "kfence_invalid",
	[REPORT_KFENCE_INVALID_FREE]	= "kfence_invalid_free",
	[REPORT_KASAN_SLAB_OUT_OF_BOUNDS] = "kasan_slab_out_of_bounds",
	[REPORT_KASAN_SLAB_USE_AFTER_FREE] = "kasan_slab_use_after_free",
	[REPORT_KASAN_PAGE_OUT_OF_BOUNDS] = "kasan_page_out_of_bounds",
	[REPORT_KASAN_USE_AFTER_FREE]	= "kasan_use_after_free",
	[REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS] = "kasan_vmalloc_out_of_bounds",
	[REPORT_KASAN_WILD_ACCESS]	= "kasan_wild_memory_access",
	[REPORT_KASAN_DOUBLE_FREE]	= "kasan_double_free",
	[REPORT_KASAN_INVALID_FREE]	= "kasan_invalid_free",
};

void report_kind(enum report_kind kind)
{
	void (*hook)(enum report_kind kind, void *data);

	hook = READ_ONCE(report_hook);
	if (hook)
		hook(kind, report_hook_data);
}

void report_set_hook(void (*hook)(enum report_kind kind, void *data),
		     void *data)
{
	report_hook_data = data;
	WRITE_ONCE(report_hook, hook);
}

const char *report_kind_name(enum report_kind kind)
{
	if ((unsigned int)kind >= NR_REPORT_KINDS || !report_kind_names[kind])
		return "unknown";
	return report_kind_names[kind];
}
