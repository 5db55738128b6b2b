// SPDX-License-Identifier: GPL-2.0
/* torture_ms= (tests/torture.h). */
#include "kernel/errno.h"
#include "kernel/params.h"
#include "tests/torture.h"

static unsigned long torture_ms_value = TORTURE_MS_DEFAULT;

static int torture_ms_setup(char *val)
{
	unsigned long ms;

	if (!val || kstrtoul(val, 0, &ms) || !ms || ms > TORTURE_MS_MAX)
		return -EINVAL;
	torture_ms_value = ms;
	return 0;
}
kernel_param("torture_ms", torture_ms_setup);

unsigned long torture_ms(void)
{
	return torture_ms_value;
}
