/* SPDX-License-Identifier: GPL-2.0 */
/* What the unit tests share besides TAP: giving up, and table lookups. */
#ifndef UJS_TEST_UTIL_H
#define UJS_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "syscalls.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* TAP "Bail out!": the test cannot go on (a missing table, no socket). */
__attribute__((noreturn, format(printf, 1, 2)))
static inline void bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(1);
}

/* The syscall table of @name; bails out without one. */
static inline const struct ujs_arch *arch(const char *name)
{
	const struct ujs_arch *a = ujs_arch_by_name(name);

	if (!a)
		bail("no syscall table for %s", name);
	return a;
}

#endif
