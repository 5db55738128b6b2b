// SPDX-License-Identifier: GPL-2.0
/*
 * The host build's KASAN backend: AddressSanitizer (arch/host/include/
 * asm/kasan.h has the shadow operations). What is left is the report:
 * ASan prints its own ("use-after-poison", the stack, the shadow bytes)
 * and then calls the callback installed here, which hands the access to
 * kasan_report() (mm/kasan.c) for the kernel's report (what the memory
 * is to the allocators, the kind a test expects).
 *
 * A bad access ends the run as before, unless the kasan suite expects
 * it: the callback aborts when kasan_report() says so. Only the kasan
 * suite's own file is built with -fsanitize-recover=address (Makefile),
 * and ASan's halt_on_error is off (__asan_default_options below), so
 * that its accesses and arch_kasan_report() can come back; every other
 * file's checks stay fatal and never return whatever the flag says.
 * suppress_equal_pcs=0: each of the suite's bad accesses is reported,
 * even where an earlier one came from the same instruction.
 *
 * While the kasan suite runs, ASan's own report text goes to /dev/null
 * (the harness counts any ASan report as a failure, and the suite's are
 * expected): the kernel's report, which the suite captures, stays.
 *
 * A build without ASan has no backend and links none of this.
 */
#include "arch/arch.h"
#include "mm/kasan.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef HOST_KASAN
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "halt_on_error=0:suppress_equal_pcs=0";
}

static void host_kasan_error(const char *text)
{
	unsigned long addr = (unsigned long)__asan_get_report_address();

	(void)text;
	if (!addr)
		return;	/* not an access (ASan's own malloc checks): it dies */
	if (!kasan_report(addr, __asan_get_report_access_size(),
			  __asan_get_report_access_type(),
			  (unsigned long)__asan_get_report_pc()))
		abort();
}

static int devnull_fd = -1;

void host_kasan_expect_reports(bool on)
{
	if (devnull_fd < 0)
		devnull_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull_fd >= 0)
		__sanitizer_set_report_fd((void *)(long)(on ? devnull_fd :
							 STDERR_FILENO));
}

void host_kasan_init(void)
{
	__asan_set_error_report_callback(host_kasan_error);
}
#endif
