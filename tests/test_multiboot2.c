// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the multiboot2 information parser on synthetic blocks.
 *
 * A small builder writes tags into a static buffer the way a boot loader
 * lays them out (8-byte aligned, size without padding). Before parsing,
 * the block is copied so that it ends exactly at the end of another static
 * buffer: in the host build any read past the readable bytes then lands in
 * ASan's redzone instead of silently in the rest of a buffer.
 *
 * Every rejected block must give -EINVAL, a zeroed result, at least one
 * "multiboot2:" line, and a line naming the problem (tag, offset, value).
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define BLOCK_SIZE	4096

static u64 build_buf[BLOCK_SIZE / 8];
static u64 parse_buf[BLOCK_SIZE / 8];
static struct mb2_info info;

struct builder {
	struct ktest *t;
	u8 *buf;
	u32 len;
};

static void put_u32(u8 *p, u32 v)
{
	memcpy(p, &v, sizeof(v));
}

/* Start a block: total_size (fixed by finish) and a zero reserved word. */
static void begin(struct builder *b, struct ktest *t)
{
	b->t = t;
	b->buf = (u8 *)build_buf;
	b->len = MB2_INFO_HEADER_SIZE;
	memset(build_buf, 0, sizeof(build_buf));
}

/*
 * Append a tag: header, then the payload (if any, else zeros), then
 * padding to 8 bytes. Returns the tag's offset.
 */
static u32 add_tag(struct builder *b, u32 type, const void *payload, u32 len)
{
	u32 off = b->len;

	KTEST_ASSERT_LE(b->t, off + ALIGN(8 + len, 8U), (u32)BLOCK_SIZE);
	put_u32(b->buf + off, type);
	put_u32(b->buf + off + 4, 8 + len);
	if (payload)
		memcpy(b->buf + off + 8, payload, len);
	b->len = off + ALIGN(8 + len, 8U);
	return off;
}

static u32 add_string(struct builder *b, u32 type, const char *s)
{
	return add_tag(b, type, s, strlen(s) + 1);
}

static u32 add_meminfo(struct builder *b, u32 lower, u32 upper)
{
	u32 p[2] = { lower, upper };

	return add_tag(b, MB2_TAG_BASIC_MEMINFO, p, sizeof(p));
}

static u32 add_module(struct builder *b, u32 start, u32 end, const char *s)
{
	u8 p[64];
	u32 n = strlen(s) + 1;

	KTEST_ASSERT_LE(b->t, n, (u32)sizeof(p) - 8);
	put_u32(p, start);
	put_u32(p + 4, end);
	memcpy(p + 8, s, n);
	return add_tag(b, MB2_TAG_MODULE, p, 8 + n);
}

/*
 * A memory map with entry_size bytes per entry: the 24 spec bytes, then
 * 0xa5 filler (a later version's extra fields). extra adds stray bytes.
 */
static u32 add_mmap(struct builder *b, u32 entry_size, u32 version,
		    const struct mb2_mmap_entry *e, u32 nr, u32 extra)
{
	u32 off = add_tag(b, MB2_TAG_MMAP, NULL, 8 + nr * entry_size + extra);
	u8 *p = b->buf + off + 8;

	put_u32(p, entry_size);
	put_u32(p + 4, version);
	p += 8;
	for (u32 i = 0; i < nr; i++, p += entry_size) {
		memset(p, 0xa5, entry_size);
		memcpy(p, &e[i], min_t(u32, entry_size, sizeof(e[i])));
	}
	return off;
}

/* nr EFI descriptors of desc_size bytes, each filled with its index. */
static u32 add_efi_mmap(struct builder *b, u32 desc_size, u32 version, u32 nr,
			u32 extra)
{
	u32 off = add_tag(b, MB2_TAG_EFI_MMAP, NULL, 8 + nr * desc_size + extra);
	u8 *p = b->buf + off + 8;

	put_u32(p, desc_size);
	put_u32(p + 4, version);
	for (u32 i = 0; i < nr; i++)
		memset(p + 8 + i * desc_size, (int)i + 1, desc_size);
	return off;
}

static u32 add_end(struct builder *b)
{
	return add_tag(b, MB2_TAG_END, NULL, 0);
}

/* Fix total_size; returns it. */
static u32 finish(struct builder *b)
{
	put_u32(b->buf, b->len);
	return b->len;
}

static void patch_u32(struct builder *b, u32 off, u32 v)
{
	put_u32(b->buf + off, v);
}

/*
 * Copy the first avail bytes of the block so they end at the end of
 * parse_buf (start rounded down to 8), and return where they start.
 */
static const u8 *place(struct builder *b, size_t avail)
{
	size_t room = ALIGN(avail, (size_t)8);
	u8 *dst = (u8 *)parse_buf + sizeof(parse_buf) - room;

	memset(parse_buf, 0, sizeof(parse_buf));
	memcpy(dst, b->buf, min_t(size_t, avail, b->len));
	return dst;
}

static int parse(struct builder *b, size_t avail)
{
	return mb2_parse(place(b, avail), avail, &info);
}

/*
 * Lines the hook must see but the console need not show twice: errors
 * are level 3, shown only below console_loglevel.
 */
static int quiet_begin(void)
{
	int saved = console_loglevel;

	console_loglevel = LOGLEVEL_ERR;
	return saved;
}

static void quiet_end(int saved)
{
	console_loglevel = saved;
}

static bool info_is_zero(void)
{
	return !memchr_inv(&info, 0, sizeof(info));
}

/*
 * Parse a bad block: -EINVAL, nothing handed out, a "multiboot2:" error,
 * and (second run, the parser being pure) a line containing detail.
 */
static void expect_rejected_at(struct ktest *t, const void *blk, size_t avail,
			       const char *detail)
{
	unsigned int hits;
	int ret, level;

	ktest_capture_start(t, "multiboot2:");
	ret = mb2_parse(blk, avail, &info);
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	KTEST_EXPECT_GE(t, hits, 1U);
	KTEST_EXPECT_TRUE(t, info_is_zero());

	level = quiet_begin();
	ktest_capture_start(t, detail);
	mb2_parse(blk, avail, &info);
	hits = ktest_capture_stop(t);
	quiet_end(level);
	if (!hits)
		KTEST_FAIL(t, "no line containing \"%s\"", detail);
}

static void expect_rejected(struct ktest *t, struct builder *b, size_t avail,
			    const char *detail)
{
	expect_rejected_at(t, place(b, avail), avail, detail);
}

/* Parse a good block that must print exactly warnings "multiboot2:" lines. */
static void expect_accepted(struct ktest *t, struct builder *b, size_t avail,
			    unsigned int warnings)
{
	unsigned int hits;
	int ret;

	ktest_capture_start(t, "multiboot2:");
	ret = parse(b, avail);
	hits = ktest_capture_stop(t);
	KTEST_ASSERT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, hits, warnings);
}

static bool in_block(const void *p, u32 total)
{
	const u8 *start = (const u8 *)parse_buf + sizeof(parse_buf) -
			  ALIGN(total, 8U);

	return (const u8 *)p >= start && (const u8 *)p < start + total;
}

static const struct mb2_mmap_entry mmap6[] = {
	{ 0x0,		0x9fc00,	MB2_MMAP_AVAILABLE, 0 },
	{ 0x9fc00,	0x400,		MB2_MMAP_RESERVED, 0 },
	{ 0xf0000,	0x10000,	MB2_MMAP_RESERVED, 0 },
	{ 0x100000,	0x7ee0000,	MB2_MMAP_AVAILABLE, 0 },
	{ 0x7fe0000,	0x20000,	MB2_MMAP_ACPI_RECLAIMABLE, 0 },
	{ 0xfffc0000,	0x40000,	MB2_MMAP_RESERVED, 0 },
};

static void check_mmap(struct ktest *t, const struct mb2_mmap_entry *want,
		       u32 nr)
{
	KTEST_ASSERT_EQ(t, info.mmap_nr_entries, nr);
	for (u32 i = 0; i < nr; i++) {
		const struct mb2_mmap_entry *e = mb2_mmap_entry(&info, i);

		KTEST_ASSERT_NOT_NULL(t, e);
		KTEST_EXPECT_EQ(t, e->addr, want[i].addr);
		KTEST_EXPECT_EQ(t, e->len, want[i].len);
		KTEST_EXPECT_EQ(t, e->type, want[i].type);
	}
	KTEST_EXPECT_NULL(t, mb2_mmap_entry(&info, nr));
}

/* --- valid blocks ---------------------------------------------------- */

static void test_full_block(struct ktest *t)
{
	static const u8 unknown[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	struct builder b;
	u32 total;
	int level;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "console=ttyS0 ktest=mm.*");
	add_string(&b, MB2_TAG_BOOTLOADER, "GRUB 2.06");
	add_tag(&b, 42, unknown, sizeof(unknown));
	add_meminfo(&b, 639, 130944);
	add_mmap(&b, 24, 0, mmap6, ARRAY_SIZE(mmap6), 0);
	add_module(&b, 0x200000, 0x201234, "initrd.img");
	add_module(&b, 0x300000, 0x300000, "");
	add_efi_mmap(&b, 48, 1, 3, 0);
	add_end(&b);
	total = finish(&b);

	expect_accepted(t, &b, total, 0);
	KTEST_EXPECT_EQ(t, info.total_size, total);
	KTEST_ASSERT_NOT_NULL(t, info.cmdline);
	KTEST_EXPECT_STREQ(t, info.cmdline, "console=ttyS0 ktest=mm.*");
	KTEST_EXPECT_TRUE(t, in_block(info.cmdline, total));
	KTEST_ASSERT_NOT_NULL(t, info.bootloader_name);
	KTEST_EXPECT_STREQ(t, info.bootloader_name, "GRUB 2.06");
	KTEST_EXPECT_TRUE(t, info.has_meminfo);
	KTEST_EXPECT_EQ(t, info.mem_lower_kb, 639U);
	KTEST_EXPECT_EQ(t, info.mem_upper_kb, 130944U);
	KTEST_ASSERT_NOT_NULL(t, info.mmap);
	KTEST_EXPECT_TRUE(t, in_block(info.mmap, total));
	KTEST_EXPECT_EQ(t, info.mmap_entry_size, 24U);
	check_mmap(t, mmap6, ARRAY_SIZE(mmap6));

	KTEST_ASSERT_EQ(t, info.nr_modules, 2U);
	KTEST_EXPECT_EQ(t, info.modules[0].mod_start, 0x200000U);
	KTEST_EXPECT_EQ(t, info.modules[0].mod_end, 0x201234U);
	KTEST_EXPECT_STREQ(t, info.modules[0].cmdline, "initrd.img");
	KTEST_EXPECT_EQ(t, info.modules[1].mod_start, 0x300000U);
	KTEST_EXPECT_EQ(t, info.modules[1].mod_end, 0x300000U);
	KTEST_EXPECT_STREQ(t, info.modules[1].cmdline, "");
	KTEST_EXPECT_TRUE(t, in_block(info.modules[1].cmdline, total));

	KTEST_ASSERT_NOT_NULL(t, info.efi_mmap);
	KTEST_EXPECT_TRUE(t, in_block(info.efi_mmap, total));
	KTEST_EXPECT_EQ(t, info.efi_desc_size, 48U);
	KTEST_EXPECT_EQ(t, info.efi_desc_version, 1U);
	KTEST_EXPECT_EQ(t, info.efi_mmap_size, 3 * 48U);
	KTEST_EXPECT_EQ(t, info.efi_mmap[0], 1);
	KTEST_EXPECT_EQ(t, info.efi_mmap[2 * 48 + 47], 3);

	ktest_capture_start(t, "multiboot2: boot loader 'GRUB 2.06', 6 mmap entries, 2 modules, cmdline 'console=ttyS0 ktest=mm.*'");
	mb2_print(&info);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	level = quiet_begin();
	ktest_capture_start(t, "multiboot2: mmap: [mem 0x0000000000100000-0x0000000007fdffff] usable (1)");
	mb2_print(&info);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, "multiboot2: mmap: [mem ");
	mb2_print(&info);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 6U);
	ktest_capture_start(t, "multiboot2: module 0: [0x00200000-0x00201234) 'initrd.img'");
	mb2_print(&info);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	quiet_end(level);
}

static void test_minimal_block(struct ktest *t)
{
	struct builder b;
	u32 total;

	begin(&b, t);
	add_end(&b);
	total = finish(&b);
	KTEST_EXPECT_EQ(t, total, 16U);
	expect_accepted(t, &b, total, 0);
	KTEST_EXPECT_EQ(t, info.total_size, 16U);
	KTEST_EXPECT_NULL(t, info.cmdline);
	KTEST_EXPECT_NULL(t, info.bootloader_name);
	KTEST_EXPECT_FALSE(t, info.has_meminfo);
	KTEST_EXPECT_NULL(t, info.mmap);
	KTEST_EXPECT_EQ(t, info.mmap_nr_entries, 0U);
	KTEST_EXPECT_NULL(t, mb2_mmap_entry(&info, 0));
	KTEST_EXPECT_NULL(t, info.efi_mmap);
	KTEST_EXPECT_EQ(t, info.nr_modules, 0U);

	ktest_capture_start(t, "boot loader '(unknown)', 0 mmap entries, 0 modules, cmdline ''");
	mb2_print(&info);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

/* The caller may map more than the block: only total_size counts. */
static void test_avail_larger_than_block(struct ktest *t)
{
	struct builder b;
	u32 total;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "x");
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total + 64, 0);
	KTEST_EXPECT_EQ(t, info.total_size, total);
	KTEST_EXPECT_STREQ(t, info.cmdline, "x");
}

/* entry_size 32: a later mmap version's longer entries, walked by stride. */
static void test_mmap_large_entries(struct ktest *t)
{
	struct builder b;
	u32 total;

	begin(&b, t);
	add_mmap(&b, 32, 0, mmap6, 3, 0);
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 0);
	KTEST_EXPECT_EQ(t, info.mmap_entry_size, 32U);
	check_mmap(t, mmap6, 3);
	/* Entries are 8-byte aligned, so the u64 reads are natural. */
	KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)mb2_mmap_entry(&info, 1), 8));
}

static void test_mmap_version_warns(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_mmap(&b, 24, 1, mmap6, 2, 0);
	add_end(&b);
	expect_accepted(t, &b, finish(&b), 1);
	check_mmap(t, mmap6, 2);
}

static void test_too_many_modules(struct ktest *t)
{
	struct builder b;
	char name[8] = "mod";
	u32 i;

	begin(&b, t);
	for (i = 0; i < MB2_MAX_MODULES + 1; i++) {
		name[3] = (char)('a' + i);
		add_module(&b, 0x1000000 + i * 0x10000,
			   0x1000000 + i * 0x10000 + 0x100, name);
	}
	add_end(&b);
	finish(&b);

	ktest_capture_start(t, "17 modules, only the first 16 kept");
	KTEST_ASSERT_EQ(t, parse(&b, b.len), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_ASSERT_EQ(t, info.nr_modules, (u32)MB2_MAX_MODULES);
	for (i = 0; i < MB2_MAX_MODULES; i++) {
		KTEST_EXPECT_EQ(t, info.modules[i].mod_start, 0x1000000 + i * 0x10000);
		KTEST_EXPECT_EQ(t, info.modules[i].cmdline[3], (char)('a' + i));
	}
	KTEST_EXPECT_STREQ(t, info.modules[15].cmdline, "modp");
}

static void test_duplicate_cmdline(struct ktest *t)
{
	struct builder b;
	u32 second;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "first");
	second = add_string(&b, MB2_TAG_CMDLINE, "second");
	add_end(&b);
	finish(&b);

	expect_accepted(t, &b, b.len, 1);
	KTEST_EXPECT_STREQ(t, info.cmdline, "first");
	ktest_capture_start(t, "tag type 1 (cmdline) at offset 24: duplicate");
	parse(&b, b.len);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, second, 24U);
}

/* Spec: the reserved word "must be ignored by OS image". */
static void test_reserved_word_warns(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_string(&b, MB2_TAG_BOOTLOADER, "GRUB");
	add_end(&b);
	finish(&b);
	patch_u32(&b, 4, 0xdeadbeef);
	expect_accepted(t, &b, b.len, 1);
	KTEST_EXPECT_STREQ(t, info.bootloader_name, "GRUB");
}

static void test_bytes_after_end_warn(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	add_string(&b, MB2_TAG_CMDLINE, "never seen");
	finish(&b);
	expect_accepted(t, &b, b.len, 1);
	KTEST_EXPECT_NULL(t, info.cmdline);
}

/* --- the fixed part ---------------------------------------------------- */

static void test_avail_below_8(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, 4, "only 4 bytes");
}

static void test_avail_zero(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, 0, "only 0 bytes");
}

static void test_misaligned_block(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	finish(&b);
	expect_rejected_at(t, place(&b, 24) + 4, 20, "not 8-byte aligned");
	expect_rejected_at(t, NULL, 16, "not 8-byte aligned");
}

static void test_truncated(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "a command line");
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len - 8, "total_size 40 larger than the 32 readable bytes");
}

static void test_total_size_unaligned(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	add_tag(&b, 42, NULL, 0);
	finish(&b);
	patch_u32(&b, 0, 20);
	expect_rejected(t, &b, b.len, "total_size 20 not a multiple of 8");
}

static void test_total_size_too_small(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_end(&b);
	finish(&b);
	patch_u32(&b, 0, 8);
	expect_rejected(t, &b, b.len, "total_size 8 smaller than 16");
	patch_u32(&b, 0, 0);
	expect_rejected(t, &b, b.len, "total_size 0 smaller than 16");
}

/* --- tag structure ------------------------------------------------------ */

static void test_tag_size_too_small(struct ktest *t)
{
	struct builder b;
	u32 off;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "abc");
	off = add_string(&b, MB2_TAG_BOOTLOADER, "GRUB");
	add_end(&b);
	finish(&b);
	patch_u32(&b, off + 4, 4);
	expect_rejected(t, &b, b.len, "tag type 2 (boot loader name) at offset 24: size 4 smaller than 8");
	patch_u32(&b, off + 4, 0);
	expect_rejected(t, &b, b.len, "at offset 24: size 0");
}

static void test_tag_runs_past_end(struct ktest *t)
{
	struct builder b;
	u32 off;

	begin(&b, t);
	off = add_string(&b, MB2_TAG_CMDLINE, "abc");
	add_end(&b);
	finish(&b);
	patch_u32(&b, off + 4, 25);	/* only 24 bytes left at offset 8 */
	expect_rejected(t, &b, b.len, "tag type 1 (cmdline) at offset 8: size 25 runs past total_size 32");
	patch_u32(&b, off + 4, 0xfffffff9);
	expect_rejected(t, &b, b.len, "size 4294967289 runs past");
}

static void test_missing_end_tag(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "no end");
	add_tag(&b, 42, NULL, 3);
	finish(&b);
	expect_rejected(t, &b, b.len, "no end tag within total_size 40");
}

static void test_end_tag_wrong_size(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_tag(&b, MB2_TAG_END, NULL, 8);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 0 (end) at offset 8: size 16, must be 8");
}

/* --- tag contents ------------------------------------------------------- */

static void test_cmdline_not_terminated(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	/* The padding after "abc" is zero: only the tag's own bytes count. */
	add_tag(&b, MB2_TAG_CMDLINE, "abc", 3);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 1 (cmdline) at offset 8: string is not NUL-terminated within its 3 bytes");
}

static void test_module_end_before_start(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_module(&b, 0x200000, 0x100000, "m0");
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 3 (module) at offset 8: mod_end 0x100000 below mod_start 0x200000");
}

static void test_module_without_string(struct ktest *t)
{
	struct builder b;
	u32 p[2] = { 0x1000, 0x2000 };
	u8 q[12] = { 0, 0x10, 0, 0, 0, 0x20, 0, 0, 'a', 'b', 'c', 'd' };

	begin(&b, t);
	add_tag(&b, MB2_TAG_MODULE, p, sizeof(p));
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 3 (module) at offset 8: size 16 too small, need at least 17");

	begin(&b, t);
	add_tag(&b, MB2_TAG_MODULE, q, sizeof(q));
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "not NUL-terminated within its 4 bytes");
}

static void test_meminfo_too_small(struct ktest *t)
{
	struct builder b;
	u32 lower = 639;

	begin(&b, t);
	add_tag(&b, MB2_TAG_BASIC_MEMINFO, &lower, sizeof(lower));
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 4 (basic meminfo) at offset 8: size 12 too small");
}

static void test_mmap_entry_size_too_small(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_mmap(&b, 20, 0, mmap6, 2, 0);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 6 (mmap) at offset 8: entry_size 20 smaller than 24");
}

static void test_mmap_entry_size_unaligned(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_mmap(&b, 28, 0, mmap6, 2, 0);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "entry_size 28 not a multiple of 8");
}

static void test_mmap_partial_entry(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_mmap(&b, 24, 0, mmap6, 2, 8);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "56 bytes of entries are not a whole number of 24-byte entries");
}

static void test_mmap_header_cut(struct ktest *t)
{
	struct builder b;
	u32 entry_size = 24;

	begin(&b, t);
	add_tag(&b, MB2_TAG_MMAP, &entry_size, sizeof(entry_size));
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 6 (mmap) at offset 8: size 12 too small, need at least 16");
}

static void test_mmap_entry_wraps(struct ktest *t)
{
	static const struct mb2_mmap_entry bad[] = {
		{ 0x0, 0x9fc00, MB2_MMAP_AVAILABLE, 0 },
		{ 0xfffffffffffff000ULL, 0x2000, MB2_MMAP_RESERVED, 0 },
	};
	struct builder b;

	begin(&b, t);
	add_mmap(&b, 24, 0, bad, ARRAY_SIZE(bad), 0);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "entry 1 at 0xfffffffffffff000 length 0x2000 wraps around");
}

/*
 * A malformed EFI memory map is dropped with an error naming the problem
 * and a warning saying what the map is now; the rest of the block (the
 * legacy mmap tag first) is used as usual.
 */
static void expect_efi_dropped(struct ktest *t, u32 desc_size, u32 nr,
			       u32 extra, bool legacy, const char *detail)
{
	struct builder b;
	u32 total;

	begin(&b, t);
	if (legacy)
		add_mmap(&b, 24, 0, mmap6, ARRAY_SIZE(mmap6), 0);
	add_efi_mmap(&b, desc_size, 1, nr, extra);
	add_end(&b);
	total = finish(&b);
	ktest_capture_start(t, "multiboot2:");
	KTEST_ASSERT_EQ(t, parse(&b, total), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_CAPTURED(t, detail);
	KTEST_EXPECT_CAPTURED(t, legacy ?
			      "multiboot2: EFI memory map ignored, using the legacy memory map tag" :
			      "multiboot2: EFI memory map ignored, and there is no legacy memory map tag");
	KTEST_EXPECT_NULL(t, info.efi_mmap);
	KTEST_EXPECT_TRUE(t, info.efi_mmap_bad);
	if (legacy)
		check_mmap(t, mmap6, ARRAY_SIZE(mmap6));
}

static void test_efi_mmap_desc_size_zero(struct ktest *t)
{
	expect_efi_dropped(t, 0, 0, 48, true,
			   "tag type 17 (EFI mmap) at offset 168: descriptor size 0 smaller than 40");
}

static void test_efi_mmap_desc_size_too_small(struct ktest *t)
{
	expect_efi_dropped(t, 32, 3, 0, false,
			   "tag type 17 (EFI mmap) at offset 8: descriptor size 32 smaller than 40");
}

static void test_efi_mmap_desc_size_unaligned(struct ktest *t)
{
	expect_efi_dropped(t, 44, 2, 0, true,
			   "descriptor size 44 not a multiple of 8");
}

static void test_efi_mmap_partial_desc(struct ktest *t)
{
	expect_efi_dropped(t, 48, 2, 16, true,
			   "112 bytes of descriptors are not a whole number of 48-byte descriptors");
}

/* A later firmware's larger descriptors: used, stepping desc_size bytes. */
static void test_efi_mmap_large_desc(struct ktest *t)
{
	struct builder b;
	u32 total;

	begin(&b, t);
	add_efi_mmap(&b, 64, 2, 5, 0);
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 0);
	KTEST_ASSERT_NOT_NULL(t, info.efi_mmap);
	KTEST_EXPECT_FALSE(t, info.efi_mmap_bad);
	KTEST_EXPECT_EQ(t, info.efi_desc_size, 64U);
	KTEST_EXPECT_EQ(t, info.efi_mmap_size, 5 * 64U);
	KTEST_EXPECT_EQ(t, info.efi_mmap[4 * 64], 5);
}

/* --- ACPI RSDP tags ---------------------------------------------------- */

/* An RSDP of len bytes (20: ACPI 1.0, else revision 2), checksums right. */
static void make_rsdp(u8 *p, u32 len)
{
	u8 sum = 0;
	u32 i;

	memset(p, 0, len);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "CRAMOK", 6);
	p[15] = len > ACPI_RSDP_V1_SIZE ? 2 : 0;
	put_u32(p + 16, 0x7fe1234);
	for (i = 0; i < ACPI_RSDP_V1_SIZE; i++)
		sum += p[i];
	p[8] = (u8)-sum;
	if (len == ACPI_RSDP_V1_SIZE)
		return;
	put_u32(p + 20, len);
	sum = 0;
	for (i = 0; i < len; i++)
		sum += p[i];
	p[32] = (u8)-sum;
}

static void test_acpi_rsdp_new_preferred(struct ktest *t)
{
	u8 v1[ACPI_RSDP_V1_SIZE], v2[ACPI_RSDP_V2_SIZE];
	struct builder b;
	u32 total;

	make_rsdp(v1, sizeof(v1));
	make_rsdp(v2, sizeof(v2));
	begin(&b, t);
	add_tag(&b, MB2_TAG_ACPI_NEW, v2, sizeof(v2));
	add_tag(&b, MB2_TAG_ACPI_OLD, v1, sizeof(v1));
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 0);
	KTEST_ASSERT_NOT_NULL(t, info.acpi_rsdp);
	KTEST_EXPECT_EQ(t, info.acpi_rsdp_revision, 2);
	KTEST_EXPECT_EQ(t, info.acpi_rsdp_len, (u32)ACPI_RSDP_V2_SIZE);
	KTEST_EXPECT_EQ(t, memcmp(info.acpi_rsdp, v2, sizeof(v2)), 0);
	KTEST_EXPECT_TRUE(t, in_block(info.acpi_rsdp, total));
}

static void test_acpi_rsdp_old_only(struct ktest *t)
{
	u8 v1[ACPI_RSDP_V1_SIZE];
	struct builder b;
	u32 total;

	make_rsdp(v1, sizeof(v1));
	begin(&b, t);
	add_tag(&b, MB2_TAG_ACPI_OLD, v1, sizeof(v1));
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 0);
	KTEST_ASSERT_NOT_NULL(t, info.acpi_rsdp);
	KTEST_EXPECT_EQ(t, info.acpi_rsdp_revision, 0);
	KTEST_EXPECT_EQ(t, info.acpi_rsdp_len, (u32)ACPI_RSDP_V1_SIZE);
}

/* A bad RSDP is dropped with a warning; the old tag then serves. */
static void test_acpi_rsdp_bad_checksum(struct ktest *t)
{
	u8 v1[ACPI_RSDP_V1_SIZE], v2[ACPI_RSDP_V2_SIZE];
	struct builder b;
	u32 total;

	make_rsdp(v1, sizeof(v1));
	make_rsdp(v2, sizeof(v2));
	v2[30] ^= 1;		/* breaks only the extended checksum */
	begin(&b, t);
	add_tag(&b, MB2_TAG_ACPI_OLD, v1, sizeof(v1));
	add_tag(&b, MB2_TAG_ACPI_NEW, v2, sizeof(v2));
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 1);
	KTEST_EXPECT_CAPTURED(t, "RSDP revision 2: bad length 36 or extended checksum, ignored");
	KTEST_ASSERT_NOT_NULL(t, info.acpi_rsdp);
	KTEST_EXPECT_EQ(t, info.acpi_rsdp_revision, 0);

	v1[0] = 'X';
	begin(&b, t);
	add_tag(&b, MB2_TAG_ACPI_OLD, v1, sizeof(v1));
	add_end(&b);
	total = finish(&b);
	expect_accepted(t, &b, total, 1);
	KTEST_EXPECT_CAPTURED(t, "no RSDP signature, ignored");
	KTEST_EXPECT_NULL(t, info.acpi_rsdp);
}

/* A broken duplicate is still an inconsistent block. */
static void test_bad_duplicate_rejected(struct ktest *t)
{
	struct builder b;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "good");
	add_tag(&b, MB2_TAG_CMDLINE, "bad", 3);
	add_end(&b);
	finish(&b);
	expect_rejected(t, &b, b.len, "tag type 1 (cmdline) at offset 24: string is not NUL-terminated");
}

/* -EINVAL and a "multiboot2:" line, whether or not the console shows it. */
static bool rejected_quietly(struct ktest *t, struct builder *b, size_t avail)
{
	unsigned int hits;
	int ret;

	ktest_capture_start(t, "multiboot2:");
	ret = parse(b, avail);
	hits = ktest_capture_stop(t);
	return ret == -EINVAL && hits > 0;
}

/*
 * Every cut of a good block is refused without a read past the cut: fewer
 * readable bytes than total_size, and total_size itself cut short at each
 * multiple of 8 (through the middle of tags, or dropping the end tag).
 */
static void test_every_truncation(struct ktest *t)
{
	struct builder b;
	u32 len, cut, bad = 0;
	int level;

	begin(&b, t);
	add_string(&b, MB2_TAG_CMDLINE, "console=ttyS0");
	add_meminfo(&b, 639, 130944);
	add_mmap(&b, 24, 0, mmap6, 3, 0);
	add_module(&b, 0x200000, 0x201000, "m");
	add_efi_mmap(&b, 48, 1, 1, 0);
	add_end(&b);
	len = finish(&b);

	/* Hundreds of expected errors: keep them off the console. */
	level = quiet_begin();
	for (cut = 0; cut < len; cut++)
		bad += !rejected_quietly(t, &b, cut);
	for (cut = 16; cut < len; cut += 8) {
		patch_u32(&b, 0, cut);
		bad += !rejected_quietly(t, &b, cut);
	}
	quiet_end(level);
	KTEST_EXPECT_EQ(t, bad, 0U);
	patch_u32(&b, 0, len);
	KTEST_EXPECT_EQ(t, parse(&b, len), 0);
	KTEST_EXPECT_EQ(t, info.mmap_nr_entries, 3U);
}

static const struct ktest_case multiboot2_cases[] = {
	KTEST_CASE(test_full_block),
	KTEST_CASE(test_minimal_block),
	KTEST_CASE(test_avail_larger_than_block),
	KTEST_CASE(test_mmap_large_entries),
	KTEST_CASE(test_mmap_version_warns),
	KTEST_CASE(test_too_many_modules),
	KTEST_CASE(test_duplicate_cmdline),
	KTEST_CASE(test_reserved_word_warns),
	KTEST_CASE(test_bytes_after_end_warn),
	KTEST_CASE(test_avail_below_8),
	KTEST_CASE(test_avail_zero),
	KTEST_CASE(test_misaligned_block),
	KTEST_CASE(test_truncated),
	KTEST_CASE(test_total_size_unaligned),
	KTEST_CASE(test_total_size_too_small),
	KTEST_CASE(test_tag_size_too_small),
	KTEST_CASE(test_tag_runs_past_end),
	KTEST_CASE(test_missing_end_tag),
	KTEST_CASE(test_end_tag_wrong_size),
	KTEST_CASE(test_cmdline_not_terminated),
	KTEST_CASE(test_module_end_before_start),
	KTEST_CASE(test_module_without_string),
	KTEST_CASE(test_meminfo_too_small),
	KTEST_CASE(test_mmap_entry_size_too_small),
	KTEST_CASE(test_mmap_entry_size_unaligned),
	KTEST_CASE(test_mmap_partial_entry),
	KTEST_CASE(test_mmap_header_cut),
	KTEST_CASE(test_mmap_entry_wraps),
	KTEST_CASE(test_efi_mmap_desc_size_zero),
	KTEST_CASE(test_efi_mmap_desc_size_too_small),
	KTEST_CASE(test_efi_mmap_desc_size_unaligned),
	KTEST_CASE(test_efi_mmap_partial_desc),
	KTEST_CASE(test_efi_mmap_large_desc),
	KTEST_CASE(test_acpi_rsdp_new_preferred),
	KTEST_CASE(test_acpi_rsdp_old_only),
	KTEST_CASE(test_acpi_rsdp_bad_checksum),
	KTEST_CASE(test_bad_duplicate_rejected),
	KTEST_CASE(test_every_truncation),
	{}
};
KTEST_SUITE(multiboot2, multiboot2_cases);
