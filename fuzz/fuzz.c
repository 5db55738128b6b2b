// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz driver (fuzz/fuzz.h): feeds fuzz_one_input() without
 * libFuzzer, so it runs wherever the kernel does.
 *
 * Random mode ("fuzz=SECONDS[,SEED]", shell "fuzz SECONDS [SEED]"):
 * inputs of 1..512 random bytes from an xorshift64* generator, one in
 * four a few mutations of the previous input instead (bit flips, byte
 * changes, insertions, deletions, copies, truncation), until SECONDS of
 * arch_clock_ns() have passed or an input fails. Each input goes to
 * arch_fuzz_input() before it runs, so the host can leave the input
 * that crashed on disk. A failing input is also dumped in hex. The same
 * seed on the same build gives the same inputs.
 *
 * Replay ("fuzzfile=PATH[,PATH...]"): each file, read whole through
 * arch_read_file(), is one input.
 *
 * The parameters print KTAP version 1 (one result per file, then one
 * for the random run when both are given) and end the run: success if
 * nothing failed. Progress and statistics are plain log lines.
 */
#include "kernel/errno.h"
#include "fuzz/fuzz.h"
#include "kernel/params.h"
#include "lib/prandom.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/kfence.h"
#include "arch/arch.h"

#define NSEC_PER_SEC		1000000000ULL
#define PROGRESS_NS		(5 * NSEC_PER_SEC)
#define FUZZ_MAX_LEN		512	/* random inputs */
#define FUZZ_BUF_LEN		1024	/* mutated ones may grow to this */
#define FUZZ_FILE_MAX		65536
#define DEFAULT_SECONDS		30

static u8 input[FUZZ_BUF_LEN];
static u8 file_buf[FUZZ_FILE_MAX];

static bool fuzz_requested;
static unsigned long fuzz_seconds = DEFAULT_SECONDS;
static u64 fuzz_seed;
static bool fuzz_seed_given;
static char *fuzz_files;

/* --- random inputs ------------------------------------------------------- */

/* A seed nobody chose: the clocks, mixed (splitmix64's finalizer). */
static u64 clock_seed(void)
{
	u64 x = arch_cycles() ^ (arch_clock_ns() << 17) ^ 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static size_t mutate(u64 *rng, u8 *buf, size_t len)
{
	unsigned int n = 1 + (unsigned int)prandom_below(rng, 4);

	while (n--) {
		size_t at = prandom_below(rng, len), from, run;

		switch (prandom_below(rng, 7)) {
		case 0:
			buf[at] ^= (u8)(1U << prandom_below(rng, 8));
			break;
		case 1:
			buf[at] = (u8)prandom_u64(rng);
			break;
		case 2:
			if (len == FUZZ_BUF_LEN)
				break;
			memmove(buf + at + 1, buf + at, len - at);
			buf[at] = (u8)prandom_u64(rng);
			len++;
			break;
		case 3:
			if (len == 1)
				break;
			memmove(buf + at, buf + at + 1, len - at - 1);
			len--;
			break;
		case 4:
			from = prandom_below(rng, len);
			run = min(1 + prandom_below(rng, 16), len - max(at, from));
			memmove(buf + at, buf + from, run);
			break;
		case 5:
			len = 1 + at;
			break;
		default:
			run = min(1 + prandom_below(rng, 32), FUZZ_BUF_LEN - len);
			for (size_t i = 0; i < run; i++)
				buf[len + i] = (u8)prandom_u64(rng);
			len += run;
			break;
		}
	}
	return len;
}

/* The next input into buf, which holds the previous one (prev bytes). */
static size_t next_input(u64 *rng, u8 *buf, size_t prev)
{
	size_t len;

	if (prev && !prandom_below(rng, 4))
		return mutate(rng, buf, prev);
	len = 1 + prandom_below(rng, FUZZ_MAX_LEN);
	for (size_t i = 0; i < len; i++)
		buf[i] = (u8)prandom_u64(rng);
	return len;
}

static void dump_input(const u8 *data, size_t len)
{
	char line[16 * 3 + 1];

	console_printf("fuzz: the failing input, %zu bytes:\n", len);
	for (size_t i = 0; i < len; i += 16) {
		scnprint_hex(line, sizeof(line), data + i, min(len - i, (size_t)16));
		console_printf("fuzz: %04zx:%s\n", i, line);
	}
}

static void print_stats(const char *what, unsigned long inputs,
			unsigned long ops, u64 ns)
{
	u64 ms = ns / 1000000;

	console_printf("fuzz: %s%lu inputs, %lu ops, %llu.%01llu s (%llu inputs/s, %llu ops/s)\n",
		       what, inputs, ops, (unsigned long long)(ms / 1000),
		       (unsigned long long)(ms % 1000 / 100),
		       (unsigned long long)(inputs * NSEC_PER_SEC / (ns ? ns : 1)),
		       (unsigned long long)(ops * NSEC_PER_SEC / (ns ? ns : 1)));
}

/* Random inputs for seconds; 0, or 1 after the first failing input. */
static int fuzz_random(unsigned long seconds, u64 seed)
{
	u64 rng = seed ? seed : 1, start = arch_clock_ns(), now;
	u64 next_progress = start + PROGRESS_NS;
	unsigned long inputs = 0, ops = fuzz_nr_ops;
	size_t len = 0;

	console_printf("fuzz: random inputs for %lu s, seed %#llx\n", seconds,
		       (unsigned long long)seed);
	do {
		len = next_input(&rng, input, len);
		arch_fuzz_input(input, len);
		inputs++;
		if (fuzz_one_input(input, len)) {
			dump_input(input, len);
			print_stats("FAILED at input ", inputs, fuzz_nr_ops - ops,
				    arch_clock_ns() - start);
			console_printf("fuzz: replay: fuzz=%lu,%#llx reaches it again (same build)\n",
				       seconds, (unsigned long long)seed);
			return 1;
		}
		now = arch_clock_ns();
		if (now >= next_progress) {
			print_stats("", inputs, fuzz_nr_ops - ops, now - start);
			next_progress += PROGRESS_NS;
		}
	} while (now - start < seconds * NSEC_PER_SEC);
	print_stats("done, no findings: ", inputs, fuzz_nr_ops - ops,
		    now - start);
	return 0;
}

/* --- replaying files ------------------------------------------------------ */

static int replay_file(const char *path)
{
	long len = arch_read_file(path, file_buf, sizeof(file_buf));

	if (len < 0) {
		console_printf("fuzz: cannot read %s: error %ld\n", path, len);
		return 1;
	}
	console_printf("fuzz: replaying %s (%ld bytes)\n", path, len);
	return fuzz_one_input(file_buf, (size_t)len);
}

static unsigned int count_files(const char *list)
{
	unsigned int n = 0;
	bool in_word = false;

	for (const char *p = list; *p; p++) {
		n += *p != ',' && !in_word;
		in_word = *p != ',';
	}
	return n;
}

/* --- parameters ----------------------------------------------------------- */

static int fuzz_setup(char *val)
{
	char *seed = val ? strchr(val, ',') : NULL;
	unsigned long long v;

	if (seed)
		*seed++ = '\0';
	if (val && *val && kstrtoul(val, 0, &fuzz_seconds))
		return -EINVAL;
	if (seed) {
		if (kstrtoull(seed, 0, &v))
			return -EINVAL;
		fuzz_seed = v;
		fuzz_seed_given = true;
	}
	fuzz_requested = true;
	return 0;
}
kernel_param("fuzz", fuzz_setup);

static int fuzzfile_setup(char *val)
{
	if (!val || !count_files(val))
		return -EINVAL;
	fuzz_files = val;
	return 0;
}
kernel_param("fuzzfile", fuzzfile_setup);

static void ktap_result(unsigned int nr, bool failed, const char *name)
{
	console_printf("%s %u %s\n", failed ? "not ok" : "ok", nr, name);
}

void fuzz_boot(void)
{
	unsigned int nr = 0, failed = 0;
	char *path;

	if (!fuzz_requested && !fuzz_files)
		return;
	kfence_sample_interval_set(0);	/* the checks count every object */
	console_printf("KTAP version 1\n1..%u\n",
		       (fuzz_files ? count_files(fuzz_files) : 0) + fuzz_requested);
	while (fuzz_files && (path = strsep(&fuzz_files, ","))) {
		int ret;

		if (!*path)
			continue;
		ret = replay_file(path);
		failed += !!ret;
		ktap_result(++nr, ret, path);
	}
	if (fuzz_requested) {
		int ret = fuzz_random(fuzz_seconds,
				      fuzz_seed_given ? fuzz_seed : clock_seed());

		failed += !!ret;
		ktap_result(++nr, ret, "fuzz_random");
	}
	if (failed)
		pr_err("fuzz: %u of %u failed\n", failed, nr);
	arch_exit(failed ? ARCH_EXIT_FAILURE : ARCH_EXIT_SUCCESS);
}
boot_run(fuzz_boot);

/* --- shell ---------------------------------------------------------------- */

static int cmd_fuzz(int argc, char **argv)
{
	unsigned long seconds;
	unsigned long long seed;

	if (argc < 2 || argc > 3 || kstrtoul(argv[1], 0, &seconds) ||
	    (argc == 3 && kstrtoull(argv[2], 0, &seed))) {
		console_printf("usage: fuzz SECONDS [SEED]\n");
		return -EINVAL;
	}
	if (argc == 2)
		seed = clock_seed();
	return fuzz_random(seconds, seed) ? -EIO : 0;
}
SHELL_CMD("fuzz", cmd_fuzz,
	  "fuzz the allocators with random inputs: fuzz SECONDS [SEED]");
