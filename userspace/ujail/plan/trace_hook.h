/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --trace as the service sees it: callbacks the tracer (trace/) fills in
 * and passes down in the plan, so that exec/ calls them without knowing
 * utrace, and no session is reached through a file-static variable.
 */
#ifndef UJAIL_TRACE_HOOK_H
#define UJAIL_TRACE_HOOK_H

#include <stddef.h>

struct jail_trace_hook {
	void *ctx;	/* the tracer's session; lives as long as the jail runs */
	/*
	 * In the service, before the baseline (which denies bpf()): mark the
	 * task for the eBPF counter. 0 or -1 with @err.
	 */
	int (*arm)(void *ctx, char *err, size_t errlen);
	/*
	 * In the service, last before -S's filter: install the ptrace
	 * backend's tracing filter. 0 or -1 with @err.
	 */
	int (*begin)(void *ctx, char *err, size_t errlen);
	/* The descriptor begin() needs open, or -1. */
	int (*keep_fd)(void *ctx);
};

#endif
