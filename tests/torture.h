/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a torture case runs: torture_ms= on the command line, in
 * milliseconds (1 to 3600000; default TORTURE_MS_DEFAULT).
 */
#ifndef TESTS_TORTURE_H
#define TESTS_TORTURE_H

#define TORTURE_MS_DEFAULT	1000UL
#define TORTURE_MS_MAX		3600000UL

unsigned long torture_ms(void);

#endif /* TESTS_TORTURE_H */
