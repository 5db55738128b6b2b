/* SPDX-License-Identifier: GPL-2.0 */
/*
 * String formatting, Linux's lib/vsprintf.c interface.
 *
 * Conversions: d i u x X o c s p %, flags "-+ #0", width and precision
 * (also as *), length modifiers hh h l ll z t j. Pointer extensions:
 * %p and %px print the address as 16 hex digits (no hashing: this is a
 * debugging kernel), %pS prints symbol+0xoff/0xsize, %ps the symbol only.
 * %n is not supported. A NULL %s prints "(null)".
 *
 * vsnprintf returns the length the full output would have had (C99);
 * scnprintf/vscnprintf return what was actually stored (without the NUL).
 */
#ifndef LIB_SPRINTF_H
#define LIB_SPRINTF_H

#include "kernel/types.h"

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * len bytes of data as " %02x" each, for hex dumps (a simple form of
 * Linux's hex_dump_to_buffer). Returns what was stored, as scnprintf.
 */
int scnprint_hex(char *buf, size_t size, const void *data, size_t len);

#endif /* LIB_SPRINTF_H */
