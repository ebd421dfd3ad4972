/* SPDX-License-Identifier: GPL-2.0 */
/* Where ujail's command-line messages go, and how they read. */
#include <stdarg.h>
#include <stdio.h>

#include "options/options_int.h"

FILE *jail_err;
FILE *jail_out;

static FILE *err_stream(void)
{
	return jail_err ? jail_err : stderr;
}

FILE *opt_out_stream(void)
{
	return jail_out ? jail_out : stdout;
}

/* "ujail: WHERE: message" on jail_err; returns -1 for the caller. */
__attribute__((format(printf, 2, 3)))
int opt_fail(const char *where, const char *fmt, ...)
{
	FILE *f = err_stream();
	va_list ap;

	fputs(PROG ": ", f);
	if (where)
		fprintf(f, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	return -1;
}

int opt_oom(void)
{
	return opt_fail(NULL, "out of memory");
}

/* A message location ("FILE: ro[2].src"), cut short when it is too long. */
__attribute__((format(printf, 2, 3)))
void opt_where(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, WHERE_MAX, fmt, ap);
	va_end(ap);
}
