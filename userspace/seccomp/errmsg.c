/* SPDX-License-Identifier: GPL-2.0 */
/* Error messages; see errmsg.h. */
#include <stdio.h>

#include "errmsg.h"

int ujs_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void ujs_vappend(char *buf, size_t len, int used, const char *fmt, va_list ap)
{
	/* A prefix that did not fit leaves no room: keep it truncated. */
	if (used >= 0 && (size_t)used < len)
		vsnprintf(buf + used, len - used, fmt, ap);
}

void ujs_vprint_error(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}
