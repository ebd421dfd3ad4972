/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages into the caller's buffer (char *err, size_t errlen), the
 * convention of every ujs_* function that can fail. libc only: the preload
 * shim links it.
 */
#ifndef UJS_ERRMSG_H
#define UJS_ERRMSG_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

/* Room for any message: a path or two and the words around them. One size
 * for every buffer, so that no caller's is fitted to what its callees say. */
#define ERR_MAX (PATH_MAX + 512)

/* The message in @err (none when @err is NULL or @errlen 0); returns -1. */
__attribute__((format(printf, 3, 4)))
int ujs_fail(char *err, size_t errlen, const char *fmt, ...);

/* @fmt after the @used characters already in @buf, if they left room. */
void ujs_vappend(char *buf, size_t len, int used, const char *fmt, va_list ap);

/* "PREFIX: message\n" on stderr, for the messages a process dies with. */
void ujs_vprint_error(const char *prefix, const char *fmt, va_list ap);

#endif
