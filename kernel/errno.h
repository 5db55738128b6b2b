/* SPDX-License-Identifier: GPL-2.0 */
/* Error numbers, Linux's values. Functions return them negated. */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define EDEADLK		35
#define ENOSYS		38
#define ETIMEDOUT	110

#endif /* KERNEL_ERRNO_H */
