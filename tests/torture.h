/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a torture case runs: torture_ms=N on the command line, in
 * milliseconds per case (1 to TORTURE_MS_MAX). The default keeps make
 * test short; a soak sets minutes (torture_ms=600000).
 */
#ifndef TESTS_TORTURE_H
#define TESTS_TORTURE_H

#define TORTURE_MS_DEFAULT	1000UL
#define TORTURE_MS_MAX		(24UL * 3600 * 1000)

unsigned long torture_ms(void);

#endif /* TESTS_TORTURE_H */
