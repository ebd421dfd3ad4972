/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counting backends by name: what --backend, ujail's --trace-backend
 * and $UTRACE_BACKEND take (session.h opens them). Apart, so that option
 * parsers need neither libbpf nor the tracer.
 */
#ifndef UTRACE_BACKEND_H
#define UTRACE_BACKEND_H

#include <stddef.h>

enum utrace_backend {
	UTRACE_BACKEND_AUTO,
	UTRACE_BACKEND_EBPF,
	UTRACE_BACKEND_PTRACE,
};

/* "auto", "ebpf" or "ptrace"; 0, or -1 with @err. */
int utrace_backend_parse(const char *text, enum utrace_backend *b, char *err,
			 size_t errlen);

/* From $UTRACE_BACKEND, auto when unset or empty; 0, or -1 with @err. */
int utrace_backend_from_env(enum utrace_backend *b, char *err, size_t errlen);

#endif
