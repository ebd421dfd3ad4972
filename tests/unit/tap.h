/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP for the unit tests: ok(cond, fmt...), then tap_done(). */
#ifndef UJS_TEST_TAP_H
#define UJS_TEST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_count;
static int tap_failures;

__attribute__((format(printf, 2, 3)))
static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failures++;
	return cond;
}

/* Prints the plan last ("1..N"), returns the exit status. */
static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

#endif
