/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP for the unit tests: ok(cond, fmt...), then tap_done(). */
#ifndef UJS_TEST_TAP_H
#define UJS_TEST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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

/*
 * True, with the test counted as skipped, when UJAIL_TEST_NO_SECCOMP is set
 * (to the reason): tests that load a filter into the running kernel skip
 * under qemu-user (tests/cross/qemu_test.sh), where the guest's seccomp()
 * does not reach the kernel.
 */
static inline bool tap_skip_kernel(const char *what)
{
	const char *why = getenv("UJAIL_TEST_NO_SECCOMP");

	if (!why || !*why)
		return false;
	printf("ok %d - %s # SKIP %s\n", ++tap_count, what, why);
	return true;
}

/* Prints the plan last ("1..N"), returns the exit status. */
static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

#endif
