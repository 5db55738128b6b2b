/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiler attributes and helpers shared by every part of the kernel.
 * Both gcc and clang understand all of these.
 */
#ifndef KERNEL_COMPILER_H
#define KERNEL_COMPILER_H

#define __section(s)		__attribute__((section(s)))
#define __used			__attribute__((used))
#define __unused		__attribute__((unused))
#define __maybe_unused		__attribute__((unused))
#define __noreturn		__attribute__((noreturn))
#define __noinline		__attribute__((noinline))
#undef __always_inline		/* glibc's, in the host build */
#define __always_inline		inline __attribute__((always_inline))
#define __aligned(x)		__attribute__((aligned(x)))
#define __packed		__attribute__((packed))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __weak			__attribute__((weak))
#define __cold			__attribute__((cold))
/* Not instrumented by a compiler KASAN or ASan (checks its own range). */
#define __no_sanitize_address	__attribute__((no_sanitize_address))
#define __must_check		__attribute__((warn_unused_result))
#define __fallthrough		__attribute__((fallthrough))

/*
 * Allocation functions, as Linux marks them. __malloc: the pointer
 * returned aliases nothing that exists. __alloc_size(n[, m]): __malloc,
 * and the pointer has argument n (times argument m) bytes, which the
 * compiler then knows (__builtin_object_size, -Warray-bounds, UBSan's
 * object-size check). __realloc_size: the size without __malloc, for a
 * result that may be the pointer passed in.
 */
#define __malloc		__attribute__((malloc))
#define __alloc_size(x, ...)	\
	__attribute__((alloc_size(x, ## __VA_ARGS__))) __malloc
#define __realloc_size(x, ...)	__attribute__((alloc_size(x, ## __VA_ARGS__)))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

/*
 * The compiler forgets what it knew of var (its value, the size of the
 * object it points to): for tests that misuse an allocation on purpose.
 */
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r" (var) : "0" (var))

/* Start bringing the line at x into the cache, to be written (a hint). */
#define prefetchw(x)		__builtin_prefetch(x, 1)

#define _RET_IP_		((unsigned long)__builtin_return_address(0))
#define _THIS_IP_		({ __label__ __here; __here: (unsigned long)&&__here; })

/*
 * A build option set to 0 or 1 by the Makefile (-DCONFIG_...=1), tested
 * as a constant so both sides always compile and the dead one vanishes.
 */
#define IS_ENABLED(option)	((option) != 0)

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#endif /* KERNEL_COMPILER_H */
