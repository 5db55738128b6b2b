/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panic, BUG and WARN, with Linux's report formats:
 *
 *   Kernel panic - not syncing: <message>
 *   kernel BUG at mm/slab.c:123!
 *   WARNING: CPU: 0 PID: 0 at mm/slab.c:123 function+0x10/0x80
 *
 * BUG_ON is for invariants whose violation means memory is already wrong;
 * WARN_ON reports and lets the caller recover. Both evaluate their
 * condition exactly once, and WARN_ON returns it so it can guard a return.
 */
#ifndef KERNEL_BUG_H
#define KERNEL_BUG_H

#include "kernel/types.h"

__noreturn void panic(const char *fmt, ...) __printf(1, 2) __cold;
__noreturn void __bug(const char *file, int line) __cold;
void __warn(const char *file, int line, unsigned long caller,
	    const char *fmt, ...) __printf(4, 5) __cold;

/*
 * The start of every fatal end (panic, a fatal CPU exception): this CPU
 * claims the panic, stops the other CPUs and frees printk's lock; false
 * if it already owned it (a fault inside the panic). If another CPU owns
 * the panic it stops this CPU instead and does not return.
 */
bool panic_begin(void);

/* Print the current call chain (frame pointers) at KERN_ERR level. */
void dump_stack(void);
/* Print the call chain starting at frame pointer bp, after ip. */
void show_stack(unsigned long ip, unsigned long bp);

/* Number of WARN reports so far (tests use it to prove one fired). */
extern unsigned long warn_count;

#define BUG()		__bug(__FILE__, __LINE__)
#define BUG_ON(cond)	do { if (unlikely(cond)) BUG(); } while (0)

#define WARN_ON(cond) ({						\
	bool __c = !!(cond);						\
	if (unlikely(__c))						\
		__warn(__FILE__, __LINE__, _THIS_IP_, NULL);		\
	unlikely(__c);							\
})

#define WARN(cond, fmt, ...) ({						\
	bool __c = !!(cond);						\
	if (unlikely(__c))						\
		__warn(__FILE__, __LINE__, _THIS_IP_, fmt, ##__VA_ARGS__); \
	unlikely(__c);							\
})

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (unlikely(__c) && !__warned) {				\
		__warned = true;					\
		__warn(__FILE__, __LINE__, _THIS_IP_, NULL);		\
	}								\
	unlikely(__c);							\
})

#define WARN_ONCE(cond, fmt, ...) ({					\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (unlikely(__c) && !__warned) {				\
		__warned = true;					\
		__warn(__FILE__, __LINE__, _THIS_IP_, fmt, ##__VA_ARGS__); \
	}								\
	unlikely(__c);							\
})

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif /* KERNEL_BUG_H */
